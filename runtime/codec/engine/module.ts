/**
 * What a generated module written for size (`"optimize": "size"`, generator/emit/module.ts) runs on: its binary
 * codec, validation, extension records and text check come from the descriptor it embeds, compiled by the engine
 * on first use, instead of from unrolled functions. The bytes, values and errors are the AOT module's (the engine
 * is its twin: test/optimize.test.ts).
 *
 * Two separate PURE entry points, so that a bundle that imports only a module's binary group keeps no text code,
 * and one that imports only its text group keeps no binary engine. Nothing compiles at import time.
 */
import type { CodecDescriptor } from "../descriptor.ts";
import type { EncodeOptions } from "../../compression.ts";
import type { DecodeOptions } from "../../features/extensions.ts";
import type { Reader } from "../../wire/reader.ts";
import type { TextCheckFn } from "../../text/check.ts";
import type { ValidateOptions, ValidationResult } from "../../features/validate.ts";
import type { Writer } from "../../wire/writer.ts";
import type { PatternTests } from "../../validate/constraints.ts";
import { compileCodec, type CompiledCodec } from "./codec.ts";
import { textCheckOf } from "./text-check.ts";

/** The engine half of a size-optimised module: each member compiles the codec the first time it runs. */
export interface EngineCodec {
  encode(value: unknown, options?: EncodeOptions): Uint8Array;
  decode(bytes: Uint8Array, options?: DecodeOptions): unknown;
  /** The shape, then the descriptor's value constraints (the generated `$validate` without a validator module). */
  validate(value: unknown, options?: ValidateOptions): ValidationResult<unknown>;
  /** The root writer (the shape check of `validateFull`). */
  write(w: Writer, v: unknown): void;
  /** The generated `$applyExtensions` (streams apply extension records with it). */
  applyExtensions(id: number, r: Reader, root: unknown): boolean;
}

export function engineCodec(desc: CodecDescriptor, patterns?: PatternTests): EngineCodec {
  let compiled: CompiledCodec | undefined;
  const c = (): CompiledCodec => (compiled ??= compileCodec(desc, patterns));
  return {
    encode: (value, options) => c().encode(value, options),
    decode: (bytes, options) => c().decode(bytes, options),
    validate: (value, options) => c().validate(value, options),
    write: (w, v) => c().write(w, v),
    applyExtensions: (id, r, root) => c().applyExtensions(id, r, root),
  };
}

/** The text check pass of `fromText` and `fromModelOutput` (the generated `$ck<Codec>`), built on first use. */
export function engineTextCheck(desc: CodecDescriptor): TextCheckFn {
  let check: TextCheckFn | undefined;
  return (v) => (check ??= textCheckOf(desc))(v);
}
