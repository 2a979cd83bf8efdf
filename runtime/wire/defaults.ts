/**
 * Default-value tables (docs/FORMAT.md §10.1): a codec whose dictionary records, for some paths, a small
 * table of frequent values (profiled from samples, or the schema's `default`) writes a one-byte reference
 * instead of such a value, in a tag its ordinary encoding leaves unused. Only codecs generated with a table
 * call these functions, and their messages carry the DEFAULTS flag and the table's fingerprint.
 *
 *   kind                  entry k is written as            any other value
 *   string                varint k          (k < K)        the string (§3.1) with its header h written as h + K
 *   string, intern: false varint k          (k < K)        the same, the string a literal (never a reference)
 *   string, date-time     varint 4k + 3     (v mod 4 = 3)  unchanged (§3.7)
 *   string, date          varint 2k + 2     (even, not 0)  unchanged (§3.7)
 *   string, int64         byte 2 + k        (tag ≥ 2)      unchanged (§3.3)
 *   string, uuid          byte 1 + k                       byte 0, then the 16 bytes (§3.8)
 *   integer (and int64)   varint k          (k < K)        the integer's varint u (§3.2) written as u + K
 *   number                varint 16(k+1) + 15 (s = 15, m ≠ 0)  unchanged (§3.4)
 *
 * K is the table's size (1 to MAX_DEFAULT_TABLE). A table entry is not a literal: it never enters the
 * message's string table.
 */
import type { Reader } from "./reader.ts";
import type { Writer } from "./writer.ts";
import { readUuid, writeUuid } from "./uuid.ts";
import { isWideInteger, MAX_SAFE, MIN_SAFE, WIDE_INT_ESCAPE } from "./wire.ts";

/** The most entries one path's table may have (so that a string or integer reference is one byte). */
export const MAX_DEFAULT_TABLE = 16;

export interface DefaultTable<T extends string | number = string | number> {
  /** The entries, in wire order. */
  readonly values: readonly T[];
  /** Value -> entry index. */
  readonly index: ReadonlyMap<T, number>;
}

/** A table as generated modules hoist it. */
export function defaultTable<T extends string | number>(values: readonly T[]): DefaultTable<T> {
  const index = new Map<T, number>();
  values.forEach((v, i) => {
    if (!index.has(v)) index.set(v, i);
  });
  return { values, index };
}

function outOfRange(r: Reader, start: number, k: number, size: number): Error {
  r.pos = start;
  return r.fail("INVALID_ENCODING", `default-table reference ${k} out of range 0..${size - 1}`);
}

// ------------------------------------------------------------------------------------------------ strings

/** A plain string: entry k as varint k; otherwise the string with its header shifted by the table size. */
export function writeTabledString(w: Writer, v: string, t: DefaultTable<string>): boolean {
  const k = t.index.get(v);
  if (k !== undefined) {
    w.byte(k);
    return true;
  }
  const start = w.pos;
  if (!w.string(v)) return false;
  shiftVarintAt(w, start, t.values.length);
  return true;
}

export function readTabledString(r: Reader, t: DefaultTable<string>): string {
  const x = r.varint();
  const size = t.values.length;
  if (x < size) return t.values[x]!;
  return r.stringOf(x - size);
}

/** `writeTabledString` on an `"intern": false` path: the other values are plain strings (Writer.plainString). */
export function writeTabledPlainString(w: Writer, v: string, t: DefaultTable<string>): boolean {
  const k = t.index.get(v);
  if (k !== undefined) {
    w.byte(k);
    return true;
  }
  const start = w.pos;
  if (!w.plainString(v)) return false;
  shiftVarintAt(w, start, t.values.length);
  return true;
}

export function readTabledPlainString(r: Reader, t: DefaultTable<string>): string {
  const x = r.varint();
  const size = t.values.length;
  if (x < size) return t.values[x]!;
  return r.plainStringOf(x - size);
}

/** Rewrite the varint at `start` (written last, up to `w.pos`) as itself + `by`, moving what follows it. */
function shiftVarintAt(w: Writer, start: number, by: number): void {
  let b = w.buf;
  let p = start;
  let h = 0;
  let mul = 1;
  for (;;) {
    const c = b[p++]!;
    h += (c & 0x7f) * mul;
    if (c < 0x80) break;
    mul *= 128;
  }
  const oldLen = p - start;
  let x = h + by;
  let newLen = 1;
  for (let y = x; y >= 0x80; y = Math.floor(y / 128)) newLen++;
  if (newLen !== oldLen) {
    w.ensure(newLen - oldLen);
    b = w.buf;
    b.copyWithin(start + newLen, start + oldLen, w.pos);
    w.pos += newLen - oldLen;
  }
  p = start;
  while (x >= 0x80) {
    b[p++] = (x % 128) | 0x80;
    x = Math.floor(x / 128);
  }
  b[p] = x;
}

/** `format: "date-time"`: entry k as 4k + 3 (the date-time tag 3 is otherwise invalid). */
export function writeTabledDateTime(w: Writer, v: string, t: DefaultTable<string>): boolean {
  const k = t.index.get(v);
  if (k !== undefined) {
    w.varint(k * 4 + 3);
    return true;
  }
  return w.dateTime(v);
}

export function readTabledDateTime(r: Reader, t: DefaultTable<string>): string {
  const start = r.pos;
  const v = r.varint();
  if (v % 4 === 3) {
    const k = (v - 3) / 4;
    if (k >= t.values.length) throw outOfRange(r, start, k, t.values.length);
    return t.values[k]!;
  }
  r.pos = start;
  return r.dateTime();
}

/** `format: "date"`: entry k as 2k + 2 (even values other than 0 are otherwise invalid). */
export function writeTabledDate(w: Writer, v: string, t: DefaultTable<string>): boolean {
  const k = t.index.get(v);
  if (k !== undefined) {
    w.varint(k * 2 + 2);
    return true;
  }
  return w.date(v);
}

export function readTabledDate(r: Reader, t: DefaultTable<string>): string {
  const start = r.pos;
  const v = r.varint();
  if (v !== 0 && v % 2 === 0) {
    const k = v / 2 - 1;
    if (k >= t.values.length) throw outOfRange(r, start, k, t.values.length);
    return t.values[k]!;
  }
  r.pos = start;
  return r.date();
}

/** int64-marked strings: entry k as the tag byte 2 + k (tags 0 and 1 keep their meaning). */
export function writeTabledDecimalString(w: Writer, v: string, t: DefaultTable<string>): boolean {
  const k = t.index.get(v);
  if (k !== undefined) {
    w.byte(2 + k);
    return true;
  }
  return w.decimalString(v);
}

export function readTabledDecimalString(r: Reader, t: DefaultTable<string>): string {
  const start = r.pos;
  if (start < r.end && r.buf[start]! >= 2) {
    const k = r.buf[start]! - 2;
    if (k >= t.values.length) throw outOfRange(r, start, k, t.values.length);
    r.pos++;
    return t.values[k]!;
  }
  return r.decimalString();
}

/**
 * `format: "uuid"`: entry k as the tag byte 1 + k; any other UUID as tag 0 and its 16 bytes. A UUID uses every
 * byte value, so a tabled path pays one tag byte per value (the cost model, runtime/codec/formats.ts, counts it).
 */
export function writeTabledUuid(w: Writer, v: string, t: DefaultTable<string>): boolean {
  const k = t.index.get(v);
  if (k !== undefined) {
    w.byte(1 + k);
    return true;
  }
  const start = w.pos;
  w.byte(0);
  if (writeUuid(w, v)) return true;
  w.pos = start;
  return false;
}

export function readTabledUuid(r: Reader, t: DefaultTable<string>): string {
  const start = r.pos;
  const tag = r.byte();
  if (tag === 0) return readUuid(r);
  const k = tag - 1;
  if (k >= t.values.length) throw outOfRange(r, start, k, t.values.length);
  return t.values[k]!;
}

// ------------------------------------------------------------------------------------------------ numbers

/** `number`: entry k as v = 16(k + 1) + 15 (s = 15 with m ≠ 0 is otherwise invalid). −0 is never an entry. */
export function writeTabledNumber(w: Writer, x: number, t: DefaultTable<number>): boolean {
  const k = t.index.get(x);
  if (k !== undefined && (x !== 0 || 1 / x > 0)) {
    w.varint((k + 1) * 16 + 15);
    return true;
  }
  return w.num(x);
}

export function readTabledNumber(r: Reader, t: DefaultTable<number>): number {
  const start = r.pos;
  const v = r.varint();
  if (v % 16 === 15 && v !== 15) {
    const k = (v - 15) / 16 - 1;
    if (k >= t.values.length) throw outOfRange(r, start, k, t.values.length);
    return t.values[k]!;
  }
  r.pos = start;
  return r.num();
}

// ------------------------------------------------------------------------------------------------ integers

const TWO_63 = 2n ** 63n;
const TWO_64 = 2n ** 64n;
const TWO_65 = 2n ** 65n;
const MIN_INT64 = -TWO_63;
const LIMIT = 2 ** 51;

/** `integer`: entry k as varint k; any other value's varint u (§3.2) as u + K. False beyond 64 bits. */
export function writeTabledInt(w: Writer, n: number, t: DefaultTable<number>): boolean {
  const k = t.index.get(n);
  if (k !== undefined) {
    w.byte(k);
    return true;
  }
  const size = t.values.length;
  if (n > -LIMIT && n < LIMIT) {
    w.varint((n >= 0 ? n * 2 : -n * 2 - 1) + size);
    return true;
  }
  if (writeShiftedBig(w, BigInt(n), size)) return true;
  // beyond 64 bits (FORMAT §3.2): the escape, shifted like any u, then the double
  if (!isWideInteger(n)) return false;
  writeShiftedU(w, WIDE_INT_ESCAPE, size);
  w.f64(n);
  return true;
}

/** int64-marked integers: a number or a bigint, as `writeTabledInt`. */
export function writeTabledInt64(w: Writer, v: unknown, t: DefaultTable<number>): boolean {
  if (typeof v === "number") return Number.isInteger(v) && writeTabledInt(w, v, t);
  if (typeof v !== "bigint") return false;
  if (v >= MIN_SAFE && v <= MAX_SAFE) return writeTabledInt(w, Number(v), t);
  return writeShiftedBig(w, v, t.values.length);
}

function writeShiftedBig(w: Writer, n: bigint, size: number): boolean {
  let u: bigint;
  if (n >= -TWO_63 && n < TWO_63) u = n >= 0n ? n * 2n : -n * 2n - 1n;
  else if (n >= TWO_63 && n < TWO_64) u = n * 2n; // as Writer.bigInt: uint64 above int64
  else return false;
  writeShiftedU(w, u, size);
  return true;
}

function writeShiftedU(w: Writer, u: bigint, size: number): void {
  let x = u + BigInt(size);
  w.ensure(10);
  while (x >= 0x80n) {
    w.buf[w.pos++] = Number(x & 0x7fn) | 0x80;
    x >>= 7n;
  }
  w.buf[w.pos++] = Number(x);
}

/** The shifted varint of a tabled integer: a number below 2^53, else a bigint (at most 10 bytes). */
function readShifted(r: Reader): number | bigint {
  const buf = r.buf;
  const start = r.pos;
  let len = 0;
  for (;;) {
    if (start + len >= r.end) throw r.truncated();
    const b = buf[start + len++]!;
    if (b < 0x80) break;
    if (len === 10) {
      r.pos = start + len;
      throw r.fail("INVALID_ENCODING", "varint longer than 10 bytes");
    }
  }
  if (len <= 7) {
    let x = 0;
    let mul = 1;
    for (let i = 0; i < len; i++, mul *= 128) x += (buf[start + i]! & 0x7f) * mul;
    r.pos = start + len;
    return x;
  }
  let x = 0n;
  for (let i = len - 1; i >= 0; i--) x = (x << 7n) | BigInt(buf[start + i]! & 0x7f);
  r.pos = start + len;
  return x;
}

function entryOrUnshifted(r: Reader, t: DefaultTable<number>, start: number): { entry: number } | { u: number | bigint } {
  const x = readShifted(r);
  const size = t.values.length;
  if (typeof x === "number") {
    if (x < size) return { entry: t.values[x]! };
    return { u: x - size };
  }
  const u = x - BigInt(size);
  if (u >= TWO_65) {
    r.pos = start;
    throw r.fail("INVALID_ENCODING", "varint beyond 65 bits");
  }
  return { u };
}

function unzigzagBig(r: Reader, u: bigint, start: number): bigint {
  const v = u & 1n ? -(u >> 1n) - 1n : u >> 1n;
  if (v < MIN_INT64) {
    r.pos = start;
    throw r.fail("INVALID_ENCODING", "integer below -2^63");
  }
  return v;
}

export function readTabledInt(r: Reader, t: DefaultTable<number>): number {
  const start = r.pos;
  if (start < r.end) {
    const b = r.buf[start]!;
    if (b < 0x80) {
      r.pos = start + 1;
      if (b < t.values.length) return t.values[b]!;
      const u = b - t.values.length;
      return u & 1 ? -(u >> 1) - 1 : u >> 1;
    }
  }
  const e = entryOrUnshifted(r, t, start);
  if ("entry" in e) return e.entry;
  const u = e.u;
  if (typeof u === "number") return u % 2 === 1 ? -(u - 1) / 2 - 1 : u / 2;
  if (u === WIDE_INT_ESCAPE) return r.wideIntBody(start);
  const x = Number(unzigzagBig(r, u, start));
  if (x >= 2 ** 64) {
    r.pos = start;
    throw r.fail("INVALID_ENCODING", "integer beyond 64 bits");
  }
  return x;
}

export function readTabledInt64(r: Reader, t: DefaultTable<number>): number | bigint {
  const start = r.pos;
  const e = entryOrUnshifted(r, t, start);
  if ("entry" in e) return e.entry;
  const u = e.u;
  if (typeof u === "number") return u % 2 === 1 ? -(u - 1) / 2 - 1 : u / 2;
  if (u === WIDE_INT_ESCAPE) return r.wideIntBody(start);
  const v = unzigzagBig(r, u, start);
  return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v;
}
