/**
 * `format: "uuid"` (docs/FORMAT.md §3.8): a UUID travels as its 16 bytes. Only the canonical 8-4-4-4-12 hex
 * form is a UUID here (either case, as RFC 9562 §4 allows on input); decoding gives the lower-case form RFC 9562
 * recommends for output, so upper-case input does not come back byte-for-byte (the value is the same UUID).
 *
 * The primitives are free functions, not Writer/Reader methods, so a bundle without uuid fields leaves them out.
 */
import type { Reader } from "./reader.ts";
import type { Writer } from "./writer.ts";

/** The hex digit value of char code `c`, or -1. */
function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20; // ASCII letters: lower-case
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

/** Whether `s[i]` is one of the four dashes of the canonical form. */
function isDashAt(i: number): boolean {
  return i === 8 || i === 13 || i === 18 || i === 23;
}

/**
 * Parse the canonical form into `buf` at `pos` (16 bytes, which the caller made room for). False for anything
 * else; the bytes written so far are then garbage the caller does not keep.
 */
function parseUuidInto(s: string, buf: Uint8Array, pos: number): boolean {
  if (s.length !== 36) return false;
  for (let i = 0; i < 36; ) {
    if (isDashAt(i)) {
      if (s.charCodeAt(i) !== 45) return false;
      i++;
      continue;
    }
    const hi = hexDigit(s.charCodeAt(i));
    const lo = hexDigit(s.charCodeAt(i + 1));
    if (hi < 0 || lo < 0) return false;
    buf[pos++] = hi * 16 + lo;
    i += 2;
  }
  return true;
}

/** Whether `v` is a string a uuid field accepts (what `Writer.uuid` writes). */
export function isUuid(v: unknown): boolean {
  if (typeof v !== "string" || v.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = v.charCodeAt(i);
    if (isDashAt(i) ? c !== 45 : hexDigit(c) < 0) return false;
  }
  return true;
}

/** The canonical (lower-case) text a decoder gives back: a default-table entry must be one to round-trip. */
export function isCanonicalUuid(v: unknown): v is string {
  return isUuid(v) && (v as string).toLowerCase() === v;
}

let HEX: string[] | undefined;

/** The lower-case canonical text of the 16 bytes at `buf[pos]` (the caller checked they are there). */
function formatUuid(buf: Uint8Array, pos: number): string {
  const hex = (HEX ??= Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0")));
  let s = "";
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) s += "-";
    s += hex[buf[pos + i]!]!;
  }
  return s;
}

/** `format: "uuid"`: the UUID's 16 bytes (FORMAT §3.8). False for a string not in the canonical 8-4-4-4-12 form. */
export function writeUuid(w: Writer, s: string): boolean {
  w.ensure(16);
  if (!parseUuidInto(s, w.buf, w.pos)) return false;
  w.pos += 16;
  return true;
}

/** `format: "uuid"`: 16 bytes, as lower-case canonical text (FORMAT §3.8). */
export function readUuid(r: Reader): string {
  if (r.end - r.pos < 16) throw r.truncated();
  const s = formatUuid(r.buf, r.pos);
  r.pos += 16;
  return s;
}
