/**
 * Reading one indexed value without decoding the message (`Codec.peek`): the header, the field-index table it
 * carries (runtime/wire/field-index.ts, which the header reader parses), then the value at its recorded offset. Apart
 * from field-index.ts so that the header reader and the peek reader import in one direction.
 */
import { rethrowAt } from "../wire/errors.ts";
import { readHeader } from "../wire/header.ts";
import { getOwn } from "../wire/objects.ts";
import { Reader } from "../wire/reader.ts";
import type { DecodeOptions } from "./extensions.ts";

function getBE(b: Uint8Array, p: number, width: number): number {
  let v = 0;
  for (let i = 0; i < width; i++) v = v * 256 + b[p + i]!;
  return v;
}

/** What a generated `peek` accessor knows about its codec. */
export interface PeekSpec {
  name: string;
  fingerprint: number;
  /** Flags the codec requires beyond the usual ones (DEFAULTS for a codec with a default-value table). */
  flags: number;
  /** The codec's index tag and number of indexed paths. */
  tag: number;
  count: number;
}

/**
 * Read the value of indexed path number `slot` by jumping to it: the header is checked as by a full decode
 * (magic, version, fingerprint, flags), then one value is read with `read`. `undefined` when the value is
 * absent. A message without a field index, or with another codec's index (another tag), is decoded in full
 * with `decode` and the value picked at `keys`: slower, same answer.
 */
export function peekField<T>(
  bytes: Uint8Array,
  spec: PeekSpec,
  slot: number,
  pointer: string,
  keys: readonly string[],
  read: (r: Reader) => T,
  decode: (bytes: Uint8Array, options?: DecodeOptions) => unknown,
  options?: DecodeOptions,
): T | undefined {
  // the per-call decode limits apply to the one value read, as to a whole decode (docs/FORMAT.md §6.10)
  const r = new Reader(bytes, 0, undefined, options);
  readHeader(r, spec.fingerprint, spec.name, spec.flags);
  const ix = r.fieldIndex;
  if (ix === undefined || ix.tag !== spec.tag || ix.count !== spec.count) return pickPath(decode(bytes, options), keys) as T | undefined;
  const buf = r.buf;
  const at = ix.entries + slot * (ix.ow + ix.sw);
  const offset = getBE(buf, at, ix.ow);
  if (offset === 0) return undefined;
  const base = getBE(buf, at + ix.ow, ix.sw);
  const pos = ix.body + offset - 1;
  r.pos = at;
  if (pos >= r.end) throw r.fail("TRUNCATED", `field index entry ${slot} points past the end of the message`);
  // every string-table entry before the value took at least 2 bytes of body before it
  if (base * 2 > pos - ix.body) throw r.fail("INVALID_ENCODING", `field index entry ${slot} claims ${base} strings before byte ${pos}`);
  r.pos = pos;
  r.tableBase(base);
  r.at = "";
  try {
    return read(r);
  } catch (e) {
    rethrowAt(e, pointer);
  }
}

/** The value at `keys` (own properties only) inside a decoded value, or undefined. */
export function pickPath(v: unknown, keys: readonly string[]): unknown {
  for (const k of keys) {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
    v = getOwn(v, k);
  }
  return v;
}
