/**
 * The interpreted codec: the generated module's twin, run by the codec engine (runtime/codec/engine) from the
 * descriptor of the schema and its dictionary. It writes the same bytes, reads them back to the same values and
 * fails with the same ToonError (code, path, message) as the module `emitModule` generates for the same IR and
 * dictionary. Used by `toon-gen encode|decode`, and by tests as an oracle.
 *
 * Schema evolution (docs/EVOLUTION.md): `ir` is the IR as loaded; the descriptor applies the dictionary's wire
 * layout itself (frozen slot order, retired slots, extension properties), exactly as `generate` does before
 * emitting. An IR that already carries a wire layout (the one given to `emitModule`) is accepted as it is.
 * `dict` must be the dictionary the module was generated with (for a schema that has evolved: its committed
 * dictionary, evolved to the schema, as `buildDictionary(ir, committed)` gives it).
 */
import type { Dictionary } from "../dictionary/types.ts";
import type { SchemaIR } from "../ir/types.ts";
import { describeCodec } from "../emit/descriptor.ts";
import { linearPatternsOf } from "../emit/linear-patterns.ts";
import { RE2JS } from "re2js";
import { compileCodec, type CompiledCodec, type DecodeOptions, type ValidationResult } from "../../runtime/codec/engine/codec.ts";

export type InterpretedCodec = CompiledCodec;

export type { DecodeOptions, ValidationResult };

export function interpret(schema: SchemaIR, dict: Dictionary): InterpretedCodec {
  // the patterns the generated module would run on re2js, on re2js here too
  const linear = linearPatternsOf([schema.root, ...schema.definitions.map((d) => d.shape)]);
  const patterns = linear.length === 0 ? undefined : new Map(linear.map(([source, re2]) => [source, RE2JS.compile(re2)] as const));
  return compileCodec(describeCodec(schema, dict), patterns);
}
