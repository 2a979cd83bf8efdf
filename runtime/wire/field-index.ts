/**
 * O(1) field access (docs/FORMAT.md §10.2). With the FIELD_INDEX flag, an offset table follows the
 * header (after the extension level):
 *
 *   field-index := tag:u16 BE ‖ count:varint ‖ widths:u8 ‖ count × entry
 *   widths      := ow << 4 | sw          ow in 1..4, sw in 0..4
 *   entry       := offset:ow bytes BE ‖ base:sw bytes BE
 *
 * Entry i belongs to the i-th indexed path of the codec (`tag` names that list). `offset` is 0 when the value
 * is absent, else 1 + the value's position counted from the first body byte (the byte after the table);
 * `base` is the size of the string table when the value starts. An encoder never writes a reference to a
 * string-table entry below the base of an indexed value it is inside, so a reader that jumps to the value
 * (a string table of `base` unknown entries) reads exactly what a full decode reads. The body itself is the
 * ordinary body: decoders that do not peek step over the table (readHeader) and decode as usual.
 */
import { ToonError } from "./errors.ts";
import type { Reader } from "./reader.ts";
import type { Writer } from "./writer.ts";
import type { DecodeOptions } from "../features/extensions.ts";

/** A parsed field offset table (positions are in `Reader.buf`). */
export interface FieldIndex {
  tag: number;
  count: number;
  /** Bytes per offset and per string-table base. */
  ow: number;
  sw: number;
  /** Position of entry 0. */
  entries: number;
  /** Position of the first body byte. */
  body: number;
}

/** What an encoder collects while it writes the body (Writer.index). */
export interface FieldIndexWriter {
  bodyStart: number;
  offsets: number[];
  bases: number[];
}

/** Parse the table at `r.pos` (right after the header) and step over it. */
export function readFieldIndex(r: Reader): FieldIndex {
  const tag = (r.byte() << 8) | r.byte();
  const count = r.varint();
  const widths = r.byte();
  const ow = widths >> 4;
  const sw = widths & 0x0f;
  if (ow < 1 || ow > 4 || sw > 4) {
    r.pos--;
    throw r.fail("INVALID_ENCODING", `field index widths byte ${widths} (offsets take 1 to 4 bytes, bases 0 to 4)`);
  }
  if (count * (ow + sw) > r.end - r.pos) throw r.fail("TRUNCATED", `field index of ${count} entries exceeds what the input can hold`);
  const entries = r.pos;
  r.pos += count * (ow + sw);
  return { tag, count, ow, sw, entries, body: r.pos };
}

/** Start collecting offsets for `count` indexed paths; the body starts at the writer's position. */
export function beginFieldIndex(w: Writer, count: number): void {
  w.index = { bodyStart: w.pos, offsets: new Array<number>(count).fill(0), bases: new Array<number>(count).fill(0) };
}

/**
 * Generated encoders call this right before an indexed value: records where it starts and the string-table
 * size, and raises the writer's reference floor to it. Returns the previous floor (restored after the value).
 */
export function fieldStart(w: Writer, slot: number): number {
  const prev = w.floor;
  const ix = w.index;
  if (ix !== undefined) {
    ix.offsets[slot] = w.pos - ix.bodyStart + 1;
    const base = w.tableSize;
    ix.bases[slot] = base;
    w.floor = base;
  }
  return prev;
}

function widthOf(n: number): number {
  return n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
}

/** Insert the table (tag `tag`) between the header and the body written since `beginFieldIndex`. */
export function endFieldIndex(w: Writer, tag: number): void {
  const ix = w.index;
  if (ix === undefined) throw new Error("internal: endFieldIndex without beginFieldIndex");
  w.index = undefined;
  w.floor = 0;
  const count = ix.offsets.length;
  let maxOffset = 0;
  let maxBase = 0;
  for (let i = 0; i < count; i++) {
    if (ix.offsets[i]! > maxOffset) maxOffset = ix.offsets[i]!;
    if (ix.bases[i]! > maxBase) maxBase = ix.bases[i]!;
  }
  if (maxOffset > 0xffffffff) throw new ToonError("INVALID_VALUE", "message too large for a field index (4 GiB)");
  const ow = widthOf(maxOffset);
  const sw = maxBase === 0 ? 0 : widthOf(maxBase);
  let countLen = 1;
  for (let y = count; y >= 0x80; y = Math.floor(y / 128)) countLen++;
  const size = 2 + countLen + 1 + count * (ow + sw);
  w.ensure(size);
  const b = w.buf;
  const start = ix.bodyStart;
  b.copyWithin(start + size, start, w.pos);
  w.pos += size;
  let p = start;
  b[p++] = tag >>> 8;
  b[p++] = tag & 0xff;
  for (let y = count; ; y = Math.floor(y / 128)) {
    if (y < 0x80) {
      b[p++] = y;
      break;
    }
    b[p++] = (y % 128) | 0x80;
  }
  b[p++] = (ow << 4) | sw;
  for (let i = 0; i < count; i++) {
    p = putBE(b, p, ix.offsets[i]!, ow);
    p = putBE(b, p, ix.bases[i]!, sw);
  }
}

function putBE(b: Uint8Array, p: number, v: number, width: number): number {
  for (let i = width - 1; i >= 0; i--) b[p++] = Math.floor(v / 2 ** (8 * i)) & 0xff;
  return p;
}
