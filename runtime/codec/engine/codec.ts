/**
 * The codec engine (typebox style): a generated module's twin, built from its descriptor (../descriptor.ts) at
 * run time. `compileCodec(desc)` compiles the shapes once into closures; the codec then writes the same bytes,
 * reads them back to the same values and fails with the same ToonError (code, path, message) as the module
 * the generator emits for the same schema and dictionary. It needs nothing but the runtime (a browser can run
 * it); generator/emit/descriptor.ts `describeCodec` builds descriptors.
 */
import type { CodecDescriptor } from "../descriptor.ts";
import { CodecPlan, extensionsOf } from "../plan.ts";
import { rethrowAt } from "../../wire/errors.ts";
import { compressMessage, type EncodeOptions } from "../../compression.ts";
import { assertDecoded, readExtensionSection, unknownOf, writeExtensionSection, type DecodeOptions } from "../../features/extensions.ts";
import { readHeader, registerDictionary, writeHeader } from "../../wire/header.ts";
import { Reader } from "../../wire/reader.ts";
import { validateWith, type ValidateOptions, type ValidationResult } from "../../features/validate.ts";
import { checkConstraints, hasConstraints, type PatternTests } from "../../validate/constraints.ts";
import { Flag } from "../../wire/wire.ts";
import { Writer } from "../../wire/writer.ts";
import { applyExtensions, type ApplyExtensions } from "./extensions.ts";
import { PredicateCompiler } from "./predicate.ts";
import { ReadCompiler, type ReadFn } from "./read.ts";
import { WriteCompiler, type WriteFn } from "./write.ts";

export interface CompiledCodec {
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
  /** Check a value against the schema's shape (then its value constraints) without keeping the bytes. */
  validate(value: unknown, options?: ValidateOptions): ValidationResult<unknown>;
  /** The root writer: what a generated module's `writeX` is (validate's shape check, `validateFull`). */
  write: WriteFn;
  /** The generated `$applyExtensions`: the extension records this codec knows (streams apply them too). */
  applyExtensions: ApplyExtensions;
}

export type { DecodeOptions, EncodeOptions, ValidateOptions, ValidationResult };

export function compileCodec(desc: CodecDescriptor, patterns?: PatternTests): CompiledCodec {
  const plan = new CodecPlan(desc);
  const { name, fingerprint, level } = desc;
  const write = compileWriter(desc, plan);
  const { body, apply } = compileReading(desc, new ReadCompiler(plan), write);
  /** Default-value tables (docs/FORMAT.md §10.1): DEFAULTS messages only, with the tables' fingerprint. */
  const extraFlags = desc.tables ? Flag.DEFAULTS : 0;
  const FLAGS = (level > 0 ? Flag.FIXED_DICTIONARY | Flag.EXTENSIONS : Flag.FIXED_DICTIONARY) | extraFlags;
  registerDictionary(fingerprint, name);
  // the value constraints (minLength, pattern, ...), checked on the descriptor's shapes when it has any
  const constraints = hasConstraints([desc.root, ...desc.definitions.map((d) => d.shape)]);
  return {
    name,
    fingerprint,
    write,
    applyExtensions: apply,
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
      const r = new Reader(bytes, 0, undefined, options);
      return body(r, readHeader(r, fingerprint, name, extraFlags), options);
    },
    validate(value: unknown, options?: ValidateOptions): ValidationResult<unknown> {
      // as the generated validate: the shape, then the value constraints (when the schema has any)
      const shaped = validateWith(value, write);
      if (!shaped.ok || !constraints || options?.constraints === false) return shaped;
      const errors = checkConstraints(value, desc, patterns);
      return errors.length === 0 ? shaped : { ok: false, errors };
    },
  };
}

/** The root writer: a definition's function when the root is the codec's own definition. */
export function compileWriter(desc: CodecDescriptor, plan: CodecPlan): WriteFn {
  const writers = new WriteCompiler(plan, new PredicateCompiler(plan));
  const rootIsDefinition = desc.root.kind === "ref" && desc.root.name === desc.name;
  return rootIsDefinition ? writers.definition(desc.name).fn : writers.function(desc.root, false);
}

/** What decode reads after the header (`flags` its flags): `(r, flags, options) => value`. */
export type BodyReader = (r: Reader, flags: number, options?: DecodeOptions) => unknown;

/**
 * The reading of a message after its header, compiled with `readers` (a ReadCompiler, or ./read-observed.ts's,
 * which reports what it reads): the root value, then the extension section (each record applied, or kept; a value
 * the records completed checked with `write` before it is handed out), then the end of the message. `records`,
 * when given, wraps what each extension record is handed to.
 */
export function compileReading(
  desc: CodecDescriptor,
  readers: ReadCompiler,
  write: WriteFn,
  records?: (apply: ApplyExtensions) => ApplyExtensions,
): { body: BodyReader; apply: ApplyExtensions } {
  const rootIsDefinition = desc.root.kind === "ref" && desc.root.name === desc.name;
  const read = rootIsDefinition ? readers.definition(desc.name).fn : readers.function(desc.root, false);
  const known = new Map<number, { key: string; read: ReadFn }>();
  const extensions = extensionsOf(desc.root, desc.definitions);
  for (const [id, x] of extensions) known.set(id, { key: x.key, read: readers.extension(id, x) });
  const apply = applyExtensions(known, desc.retired);
  // from this writer level on, a message lacks records it must have unless it is checked (see decode)
  const mustArrive = [...extensions.values()].filter((x) => x.required).map((x) => x.level);
  const checkFrom = mustArrive.length === 0 ? Infinity : Math.min(...mustArrive);
  const section = records === undefined ? apply : records(apply);
  const body: BodyReader = (r, flags, options) => {
    const v = read(r);
    // records say where they go: a value they completed is checked against the schema before it is handed out
    if (flags & Flag.EXTENSIONS && (readExtensionSection(r, v, section, options) > 0 || r.level >= checkFrom)) assertDecoded(v, write);
    r.done();
    return v;
  };
  return { body, apply };
}
