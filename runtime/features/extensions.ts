/**
 * Extension records (docs/EVOLUTION.md, docs/FORMAT.md §7): how properties added after an object's dictionary
 * segment travel so that older decoders can skip them and keep them.
 *
 *   extension section := varint count, count × record
 *   record            := varint id, varint length, payload (length bytes)
 *   payload           := string pointer (JSON pointer of the object), value (the property's shape)
 *
 * A payload has its own string table (it starts empty), so a record can be copied verbatim from one
 * message into another: an older service that decodes and re-encodes keeps what it does not understand.
 */
import { ToonError, hostError, pointerSegment, rethrowAt } from "../wire/errors.ts";
import { getOwn, setOwn } from "../wire/objects.ts";
import { validateWith } from "./validate.ts";
import { Reader } from "../wire/reader.ts";
import { Writer } from "../wire/writer.ts";
import type { DecodeLimits } from "../wire/limits.ts";

/** Where a decoded value keeps the records its codec did not know (non-enumerable, so JSON and equality ignore it). */
export const UNKNOWN_KEY = "$unknown";

export interface DecodeOptions extends DecodeLimits {
  /** Unknown extension records: kept on the root value as `$unknown` (default) or dropped. */
  unknown?: "keep" | "discard";
}

/** The records an earlier decode kept, if any. */
export function unknownOf(value: unknown): Uint8Array[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  let u: unknown;
  try {
    u = getOwn(value, UNKNOWN_KEY);
  } catch (e) {
    throw hostError(e, ""); // a revoked Proxy as the value to encode: INVALID_VALUE, before any writing
  }
  return Array.isArray(u) && u.length > 0 ? (u as Uint8Array[]) : undefined;
}

/**
 * Write the property `key` (value `v`) of the object at pointer `rel` (relative to the innermost pointer
 * prefix) as an extension record with `id`.
 */
export function writeExtension(w: Writer, id: number, rel: string, key: string, v: unknown, write: (w: Writer, v: unknown) => void): void {
  const sink = (w.ext ??= []);
  const at = w.ptr.join("") + rel;
  const slot = sink.length;
  sink.push(undefined); // reserve: records nested in this value must come after it, so they apply after it
  const sub = new Writer(64);
  sub.ext = sink;
  sub.ptr = [at + pointerSegment(key)];
  sub.string(at);
  try {
    write(sub, v);
  } catch (e) {
    rethrowAt(e, rel + pointerSegment(key)); // a bad value is reported at its property, as for positional ones
  }
  const payload = sub.finish();
  const head = new Writer(16);
  head.varint(id);
  head.varint(payload.length);
  head.bytes(payload);
  sink[slot] = head.finish();
}

/** The extension section after the body: this message's records, then the ones an earlier decode kept. */
export function writeExtensionSection(w: Writer, unknown: Uint8Array[] | undefined): void {
  const own = w.ext ?? [];
  w.varint(own.length + (unknown?.length ?? 0));
  for (const r of own) w.bytes(r!);
  if (unknown) for (const r of unknown) w.bytes(r);
}

/**
 * Read the extension section: each record is handed to `apply` (generated, knows this codec's IDs); the
 * ones it does not know are kept on the root (unless discarded).
 */
export function readExtensionSection(
  r: Reader,
  root: unknown,
  apply: (id: number, payload: Reader, root: unknown) => boolean,
  options: DecodeOptions | undefined,
): number {
  r.at = "";
  const n = r.count(2);
  let kept: Uint8Array[] | undefined;
  let applied = 0;
  let unknown = 0;
  // kept records are views into one copy of the section, not a copy each: a 2-byte record must not cost a
  // buffer of its own (hundreds of bytes), and the caller's bytes may be reused after decode returns
  const keep = options?.unknown !== "discard";
  const base = r.pos;
  let section: Uint8Array | undefined;
  for (let i = 0; i < n; i++) {
    const start = r.pos;
    const id = r.varint();
    const len = r.varint();
    if (len > r.end - r.pos) throw r.truncated();
    const payload = new Reader(r.buf, r.pos, r.pos + len).within(r);
    payload.applied = (r.applied ??= new WeakMap());
    let known: boolean;
    try {
      known = apply(id, payload, root);
    } catch (e) {
      if (e instanceof ToonError) throw e.prefixPath("");
      throw e;
    }
    if (known) {
      payload.done();
      applied++;
    }
    r.pos += len;
    if (!known) {
      if (++unknown > r.maxUnknown) {
        r.pos = start;
        throw r.fail("INVALID_ENCODING", `more than ${r.maxUnknown} unknown extension records (maxUnknownRecords)`);
      }
      if (keep) (kept ??= []).push((section ??= r.buf.slice(base, r.end)).subarray(start - base, r.pos - base));
    }
  }
  if (kept && typeof root === "object" && root !== null) {
    const prev = unknownOf(root);
    Object.defineProperty(root, UNKNOWN_KEY, { value: prev ? [...prev, ...kept] : kept, enumerable: false, writable: true, configurable: true });
  }
  return applied;
}

/** Apply one known record: the property `key` of the object its pointer names, read with `read`. */
export function applyExtension(payload: Reader, root: unknown, key: string, read: (r: Reader) => unknown): void {
  const target = resolveTarget(payload, root);
  const at = payload.at + pointerSegment(key);
  // a key may already hold the default filled in for an older writer (a record passed through it wins), but
  // never a value from another record
  const done = (payload.applied ??= new WeakMap()).get(target);
  if (done?.has(key)) {
    payload.at = at;
    throw payload.fail("INVALID_ENCODING", `a second extension record for ${JSON.stringify(key)}`);
  }
  if (done) done.add(key);
  else payload.applied.set(target, new Set([key]));
  payload.at = "";
  let v: unknown;
  try {
    v = read(payload);
  } catch (e) {
    if (e instanceof ToonError) throw e.prefixPath(at);
    throw e;
  }
  setOwn(target, key, v);
}

/**
 * A value completed by extension records must still be a value of the schema (a record can name any object, or
 * be missing): checked with the codec's writer, as `validate` does.
 */
export function assertDecoded(value: unknown, write: (w: Writer, v: unknown) => void): void {
  const result = validateWith(value, write);
  if (!result.ok) {
    const first = result.errors[0]!;
    throw new ToonError("INVALID_ENCODING", `extension records make an invalid value: ${first.message}`, { path: first.path, details: result.errors });
  }
}

/** The object an extension record's pointer names inside the decoded value. */
export function resolveTarget(payload: Reader, root: unknown): Record<string, unknown> {
  payload.at = "";
  const pointer = payload.string();
  let v: unknown = root;
  if (pointer !== "") {
    if (pointer.charCodeAt(0) !== 47) throw payload.fail("INVALID_ENCODING", `extension record pointer ${JSON.stringify(pointer)} is not a JSON pointer`);
    for (const raw of pointer.slice(1).split("/")) {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      v = typeof v === "object" && v !== null ? (Array.isArray(v) ? v[Number(key)] : getOwn(v, key)) : undefined;
    }
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw payload.fail("INVALID_ENCODING", `extension record names ${JSON.stringify(pointer)}, which is not an object in the decoded value`);
  }
  payload.at = pointer;
  return v as Record<string, unknown>;
}
