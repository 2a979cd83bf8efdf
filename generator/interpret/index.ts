/**
 * The interpreted codec (typebox style): the generated module's twin, built from the IR at run time.
 * `interpret(ir, dict)` compiles the IR once into closures; the codec then writes the same bytes, reads them
 * back to the same values and fails with the same ToonError (code, path, message) as the module `emitModule`
 * generates for the same IR and dictionary. Used by `toon-gen encode|decode`, and by tests as an oracle.
 */
import type { Dictionary } from "../dictionary/file.ts";
import type { SchemaIR } from "../ir/types.ts";
import { ModuleContext } from "../emit/context.ts";
import { rethrowAt } from "../../runtime/errors.ts";
import { readHeader, writeHeader } from "../../runtime/header.ts";
import { Reader } from "../../runtime/reader.ts";
import { validateWith, type ValidationResult } from "../../runtime/validate.ts";
import { Flag } from "../../runtime/wire.ts";
import { Writer } from "../../runtime/writer.ts";
import { PredicateCompiler } from "./predicate.ts";
import { ReadCompiler, type ReadFn } from "./read.ts";
import { WriteCompiler, type WriteFn } from "./write.ts";

export interface InterpretedCodec {
  name: string;
  /** The dictionary fingerprint carried in (and checked against) message headers. */
  fingerprint: number;
  /** Encode to TOON binary. Throws ToonError INVALID_VALUE (with the path of the offending value). */
  encode(value: unknown): Uint8Array;
  /** Decode TOON binary. Throws ToonError (TRUNCATED, FINGERPRINT_MISMATCH, ...) with a path and byte offset. */
  decode(bytes: Uint8Array): unknown;
  /** Check a value against the schema's shape without keeping the bytes. */
  validate(value: unknown): ValidationResult<unknown>;
}

export type { ValidationResult };

export function interpret(ir: SchemaIR, dict: Dictionary): InterpretedCodec {
  const cx = new ModuleContext(ir);
  const rootIsDefinition = ir.root.kind === "ref" && ir.root.name === ir.name;
  for (const d of ir.definitions) {
    if (d.name === ir.name && !rootIsDefinition) throw new Error(`internal: definition ${d.name} clashes with the codec name`);
  }
  const preds = new PredicateCompiler(cx);
  const writers = new WriteCompiler(cx, preds);
  const readers = new ReadCompiler(cx);
  let write: WriteFn;
  let read: ReadFn;
  if (rootIsDefinition) {
    const w = writers.definition(ir.name);
    const r = readers.definition(ir.name);
    write = w.fn;
    read = r.fn;
  } else {
    write = writers.function(ir.root, false);
    read = readers.function(ir.root, false);
  }
  const name = ir.name;
  const fingerprint = dict.base.fingerprint;
  const flags = Flag.FIXED_DICTIONARY;
  return {
    name,
    fingerprint,
    encode(value: unknown): Uint8Array {
      const w = Writer.shared();
      writeHeader(w, flags, fingerprint);
      try {
        write(w, value);
      } catch (e) {
        rethrowAt(e, "");
      }
      return w.finish();
    },
    decode(bytes: Uint8Array): unknown {
      const r = new Reader(bytes);
      readHeader(r, fingerprint, name);
      const v = read(r);
      r.done();
      return v;
    },
    validate(value: unknown): ValidationResult<unknown> {
      return validateWith(value, write);
    },
  };
}
