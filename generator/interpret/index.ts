/**
 * The interpreted codec (typebox style): the generated module's twin, built from the IR at run time.
 * `interpret(ir, dict)` compiles the IR once into closures; the codec then writes the same bytes, reads them
 * back to the same values and fails with the same ToonError (code, path, message) as the module `emitModule`
 * generates for the same IR and dictionary. Used by `toon-gen encode|decode`, and by tests as an oracle.
 *
 * Schema evolution (docs/EVOLUTION.md): `ir` is the IR as loaded; `interpret` applies the dictionary's wire
 * layout itself (`applyWireLayout(ir, dict)`: frozen slot order, retired slots, extension properties), exactly
 * as `generate` does before emitting. An IR that already carries a wire layout (the one given to `emitModule`)
 * is accepted as it is. `dict` must be the dictionary the module was generated with (for a schema that has
 * evolved: its committed dictionary, evolved to the schema, as `buildDictionary(ir, committed)` gives it).
 */
import type { Dictionary } from "../dictionary/file.ts";
import type { SchemaIR } from "../ir/types.ts";
import { ModuleContext } from "../emit/context.ts";
import { rethrowAt } from "../../runtime/errors.ts";
import { compressMessage, type EncodeOptions } from "../../runtime/compression.ts";
import { assertDecoded, readExtensionSection, unknownOf, writeExtensionSection, type DecodeOptions } from "../../runtime/extensions.ts";
import { readHeader, registerDictionary, writeHeader } from "../../runtime/header.ts";
import { Reader } from "../../runtime/reader.ts";
import { validateWith, type ValidateOptions, type ValidationResult } from "../../runtime/validate.ts";
import { checkShape, type CheckDefs, type CheckShape } from "../../runtime/tools.ts";
import { checkShapeOf } from "../emit/check-shape.ts";
import { Flag } from "../../runtime/wire.ts";
import { Writer } from "../../runtime/writer.ts";
import { codecFingerprint, hasTables, withDefaultTables } from "../samples/tables.ts";
import { applyExtensions, extensionsOf, laidOut } from "./extensions.ts";
import { PredicateCompiler } from "./predicate.ts";
import { ReadCompiler, type ReadFn } from "./read.ts";
import { WriteCompiler, type WriteFn } from "./write.ts";

export interface InterpretedCodec {
  name: string;
  /** The dictionary fingerprint carried in (and checked against) message headers. */
  fingerprint: number;
  /** Encode to TOON binary. Throws ToonError INVALID_VALUE (with the path of the offending value). */
  encode(value: unknown, options?: EncodeOptions): Uint8Array;
  /**
   * Decode TOON binary. Throws ToonError (TRUNCATED, FINGERPRINT_MISMATCH, ...) with a path and byte offset.
   * Extension records this codec does not know are kept on the root as the non-enumerable `$unknown` (and
   * written back by `encode`), or dropped with `{ unknown: "discard" }`.
   */
  decode(bytes: Uint8Array, options?: DecodeOptions): unknown;
  /** Check a value against the schema's shape without keeping the bytes. */
  validate(value: unknown, options?: ValidateOptions): ValidationResult<unknown>;
}

export type { DecodeOptions, ValidationResult };

export function interpret(schema: SchemaIR, dict: Dictionary): InterpretedCodec {
  const ir = withDefaultTables(laidOut(schema, dict), dict);
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
  const known = new Map<number, { key: string; read: ReadFn }>();
  const extensions = extensionsOf(ir);
  for (const [id, x] of extensions) known.set(id, { key: x.key, read: readers.extension(id, x.shape) });
  const apply = applyExtensions(known, dict);
  // from this writer level on, a message lacks records it must have unless it is checked (see decode)
  const mustArrive = [...extensions.values()].filter((x) => x.required).map((x) => x.level);
  const checkFrom = mustArrive.length === 0 ? Infinity : Math.min(...mustArrive);
  const name = ir.name;
  const fingerprint = codecFingerprint(dict);
  /** Default-value tables (docs/FORMAT.md §10.1): DEFAULTS messages only, with the tables' fingerprint. */
  const extraFlags = hasTables(dict) ? Flag.DEFAULTS : 0;
  /** The codec's extension level: how many extension segments its dictionary has. */
  const level = dict.extensions.length;
  const FLAGS = (level > 0 ? Flag.FIXED_DICTIONARY | Flag.EXTENSIONS : Flag.FIXED_DICTIONARY) | extraFlags;
  registerDictionary(fingerprint, name);
  const checkRoot = checkShapeOf(ir.root);
  const checkDefs = Object.fromEntries(ir.definitions.map((d) => [d.name, checkShapeOf(d.shape)]));
  const constraints = JSON.stringify([checkRoot, checkDefs]).includes('"c":{')
    ? { root: checkRoot as CheckShape, defs: checkDefs as CheckDefs }
    : undefined;
  return {
    name,
    fingerprint,
    encode(value: unknown, options?: EncodeOptions): Uint8Array {
      const w = Writer.shared();
      const unknown = unknownOf(value);
      const flags = unknown === undefined ? FLAGS : FLAGS | Flag.EXTENSIONS;
      writeHeader(w, flags, fingerprint, level);
      try {
        write(w, value);
      } catch (e) {
        rethrowAt(e, "");
      }
      if (flags & Flag.EXTENSIONS) writeExtensionSection(w, unknown);
      return options === undefined ? w.finish() : compressMessage(w.finish(), options);
    },
    decode(bytes: Uint8Array, options?: DecodeOptions): unknown {
      const r = new Reader(bytes);
      const flags = readHeader(r, fingerprint, name, extraFlags);
      const v = read(r);
      // records say where they go: a value they completed is checked against the schema before it is handed out
      if (flags & Flag.EXTENSIONS && (readExtensionSection(r, v, apply, options) > 0 || r.level >= checkFrom)) assertDecoded(v, write);
      r.done();
      return v;
    },
    validate(value: unknown, options?: ValidateOptions): ValidationResult<unknown> {
      // as the generated validate: the shape, then the value constraints (when the schema has any)
      const shaped = validateWith(value, write);
      if (!shaped.ok || constraints === undefined || options?.constraints === false) return shaped;
      const errors = checkShape(value, constraints.root, constraints.defs);
      return errors.length === 0 ? shaped : { ok: false, errors };
    },
  };
}
