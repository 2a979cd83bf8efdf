/**
 * The byte writer generated encoders call. One growable buffer, reused across messages (`Writer.shared()`),
 * plus the per-message string table that lets a repeated string travel once.
 *
 * Value checks that need the value's path are done by generated code; methods here return `false` (or throw a
 * ToonError without a path, which the caller prefixes) when a value cannot be written losslessly.
 */
import { ToonError } from "./errors.ts";
import { dateTimeMs, parseDate } from "./dates.ts";
import { writeUtf8 } from "./utf8.ts";
import type { FieldIndexWriter } from "./field-index.ts";
import { INTERN_MAX_BYTES, isWideInteger, NUM_FLOAT64, NUM_MANTISSA_LIMIT, WIDE_INT_ESCAPE } from "./wire.ts";

const POW10: number[] = [];
for (let i = 0, p = 1; i <= 22; i++, p *= 10) POW10.push(p);
export { POW10 };

/** Past messages' strings a writer keeps in its table map (see Writer.strings), and where its numbering starts over. */
const STRINGS_KEPT = 4096;
const STRINGS_RENUMBER = 2 ** 30;

const TWO_63 = 2n ** 63n;
const TWO_64 = 2n ** 64n;

export class Writer {
  buf: Uint8Array;
  view: DataView;
  pos = 0;
  /** Nesting depth while writing recursive definitions and `any` values (cycles end here, not in a stack overflow). */
  depth = 0;
  /**
   * Evolved codecs only: JSON-pointer prefixes of the enclosing loops and definition calls (so an extension
   * record can name the object it belongs to), and the message's extension records (runtime/features/extensions.ts).
   */
  ptr: string[] = [];
  ext: (Uint8Array | undefined)[] | undefined = undefined;
  /**
   * FIELD_INDEX (runtime/wire/field-index.ts): references to string-table entries below `floor` are not written (a
   * literal is), so an indexed value only refers to strings of its own; `index` collects the offset table.
   */
  floor = 0;
  index: FieldIndexWriter | undefined = undefined;
  /**
   * The string table. Each literal gets a number in a count that runs on across messages; this message's entries
   * are those numbered from `base` on (entry k is number `base + k`). The map gives each string a slot, and
   * `numbers[slot]` the number of its latest literal. Both are kept from one message to the next (up to
   * STRINGS_KEPT strings) rather than cleared, so a value that recurs across messages (a currency, a city, a
   * product name) costs one map lookup and a typed-array store, not an insert into a map that grows from empty and
   * rehashes every message.
   */
  private strings = new Map<string, number>();
  private numbers = new Int32Array(256);
  private base = 0;
  private next = 0;

  /** Entries in this message's string table so far. */
  get tableSize(): number {
    return this.next - this.base;
  }

  constructor(size = 4096) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  private static sharedWriter: Writer | undefined;
  /** The module-wide writer, reset. Encoding is synchronous, so one is enough. */
  static shared(): Writer {
    const w = (Writer.sharedWriter ??= new Writer());
    w.reset();
    return w;
  }

  reset(): void {
    this.pos = 0;
    this.depth = 0;
    this.floor = 0;
    this.index = undefined;
    if (this.ptr.length !== 0) this.ptr = [];
    this.ext = undefined;
    if (this.next !== this.base) {
      // bounded: a writer keeps at most STRINGS_KEPT strings of past messages alive, and the numbers stay small integers
      if (this.strings.size > STRINGS_KEPT || this.next > STRINGS_RENUMBER) {
        this.strings.clear();
        this.next = 0;
        if (this.numbers.length > STRINGS_KEPT * 2) this.numbers = new Int32Array(256);
      }
      this.base = this.next;
    }
  }

  /** A copy of what was written; drops an oversized buffer so one huge message does not pin memory. */
  finish(): Uint8Array {
    const out = this.buf.slice(0, this.pos);
    if (this.buf.length > 1 << 20) {
      this.buf = new Uint8Array(4096);
      this.view = new DataView(this.buf.buffer);
    }
    return out;
  }

  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  private grow(n: number): void {
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number): void {
    if (this.pos >= this.buf.length) this.grow(1);
    this.buf[this.pos++] = b;
  }

  bytes(src: Uint8Array): void {
    this.ensure(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }

  /** Unsigned LEB128 of a non-negative safe integer. */
  varint(n: number): void {
    if (n < 0x80) {
      if (this.pos >= this.buf.length) this.grow(1);
      this.buf[this.pos++] = n;
      return;
    }
    if (this.pos + 10 > this.buf.length) this.grow(10);
    const buf = this.buf;
    let pos = this.pos;
    while (n > 0x7fffffff) {
      buf[pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    while (n >= 0x80) {
      buf[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[pos++] = n;
    this.pos = pos;
  }

  private bigVarint(n: bigint): void {
    this.ensure(10);
    while (n >= 0x80n) {
      this.buf[this.pos++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.pos++] = Number(n);
  }

  /**
   * A JSON integer as a zigzag varint. Safe integers take the fast path; larger integral doubles go through
   * BigInt, so they travel exactly; beyond 64 bits, the escape and the double itself (FORMAT §3.2). False only
   * for a value that is not an integer.
   */
  int(n: number): boolean {
    if (n >= -0x40000000 && n < 0x40000000) {
      this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
      return true;
    }
    if (Number.isSafeInteger(n) && n >= -0x10000000000000) {
      // below -2^52 the zigzag value 2|n|-1 is odd and above 2^53: not a double; such values take the bigint path
      this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
      return true;
    }
    return this.bigInt(BigInt(n)) || this.wideInt(n);
  }

  /** An integral double beyond 64 bits: `WIDE_INT_ESCAPE`, then its float64 (FORMAT §3.2). */
  wideInt(n: number): boolean {
    if (!isWideInteger(n)) return false;
    this.bigVarint(WIDE_INT_ESCAPE);
    this.f64(n);
    return true;
  }

  /** A 64-bit integer given as bigint (int64 fields). False outside [-2^63, 2^64). */
  bigInt(n: bigint): boolean {
    if (n >= -TWO_63 && n < TWO_63) {
      this.bigVarint(n >= 0n ? n * 2n : -n * 2n - 1n);
      return true;
    }
    if (n >= TWO_63 && n < TWO_64) {
      // uint64 above int64: zigzag would need 65 bits; such values use the top of the 10-byte varint space
      this.bigVarint(n * 2n);
      return true;
    }
    return false;
  }

  /** A JSON number: integer, short decimal or float64 (see wire.ts). False for NaN and infinities. */
  num(x: number): boolean {
    if (Number.isInteger(x)) {
      if (x > -NUM_MANTISSA_LIMIT && x < NUM_MANTISSA_LIMIT && (x !== 0 || 1 / x > 0)) {
        this.varint((x >= 0 ? x * 2 : -x * 2 - 1) * 16);
        return true;
      }
    } else if (x - x === 0) {
      const a = x < 0 ? -x : x;
      for (let s = 1; s <= 14; s++) {
        const p = POW10[s]!;
        const m = Math.round(x * p);
        if (m / p === x) {
          if (m > -NUM_MANTISSA_LIMIT && m < NUM_MANTISSA_LIMIT) {
            this.varint((m >= 0 ? m * 2 : -m * 2 - 1) * 16 + s);
            return true;
          }
          break;
        }
        if (a * p >= NUM_MANTISSA_LIMIT) break;
      }
    } else {
      return false;
    }
    this.f64tagged(x);
    return true;
  }

  private f64tagged(x: number): void {
    this.ensure(9);
    this.buf[this.pos++] = NUM_FLOAT64;
    this.view.setFloat64(this.pos, x, true);
    this.pos += 8;
  }

  f64(x: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, x, true);
    this.pos += 8;
  }

  /**
   * A string: varint header h, then h/2 UTF-8 bytes when h is even; a reference to the (h-1)/2-th literal of
   * this message's string table when h is odd. Returns false for a string with a lone surrogate.
   */
  string(s: string): boolean {
    const len = s.length;
    if (len === 0) {
      this.byte(0);
      return true;
    }
    let slot: number | undefined;
    if (len <= INTERN_MAX_BYTES) {
      slot = this.strings.get(s);
      if (slot !== undefined) {
        // a number below base is a past message's: this one writes the literal and numbers it anew
        const k = this.numbers[slot]! - this.base;
        if (k >= this.floor) {
          this.varint(k * 2 + 1);
          return true;
        }
      }
    }
    // header size guessed for ASCII (len bytes); UTF-8 is never shorter, so a wrong guess only moves bytes right
    const hsize = len < 64 ? 1 : len < 8192 ? 2 : len < 1048576 ? 3 : len < 134217728 ? 4 : 5;
    this.ensure(5 + len * 3);
    const start = this.pos + hsize;
    const end = writeUtf8(s, this.buf, start);
    if (end < 0) return false;
    const n = end - start;
    const h = n * 2;
    const need = h < 0x80 ? 1 : h < 0x4000 ? 2 : h < 0x200000 ? 3 : h < 0x10000000 ? 4 : 5;
    if (need !== hsize) this.buf.copyWithin(this.pos + need, start, end);
    this.varint(h);
    this.pos += n;
    if (n <= INTERN_MAX_BYTES) {
      if (slot === undefined) {
        slot = this.strings.size;
        this.strings.set(s, slot);
        if (slot === this.numbers.length) this.growNumbers();
      }
      this.numbers[slot] = this.next++;
    }
    return true;
  }

  private growNumbers(): void {
    const next = new Int32Array(this.numbers.length * 2);
    next.set(this.numbers);
    this.numbers = next;
  }

  /**
   * A string on a path whose dictionary entry says `"intern": false` (docs/FORMAT.md §3.1): always the literal,
   * never a reference, and it does not enter the string table (no lookup, no insert: the values of such paths
   * rarely repeat, so the table would only cost time and make other references longer). The literal path of
   * `string()` repeated rather than shared, so neither hot function pays a call or a flag for the other.
   */
  plainString(s: string): boolean {
    const len = s.length;
    if (len === 0) {
      this.byte(0);
      return true;
    }
    const hsize = len < 64 ? 1 : len < 8192 ? 2 : len < 1048576 ? 3 : len < 134217728 ? 4 : 5;
    this.ensure(5 + len * 3);
    const start = this.pos + hsize;
    const end = writeUtf8(s, this.buf, start);
    if (end < 0) return false;
    const n = end - start;
    const h = n * 2;
    const need = h < 0x80 ? 1 : h < 0x4000 ? 2 : h < 0x200000 ? 3 : h < 0x10000000 ? 4 : 5;
    if (need !== hsize) this.buf.copyWithin(this.pos + need, start, end);
    this.varint(h);
    this.pos += n;
    return true;
  }

  /** `format: "date-time"`: varint v; v%4 = 1: zigzag(seconds)*4+1, 2: zigzag(ms)*4+2, 0: a literal string follows. */
  dateTime(s: string): boolean {
    const ms = dateTimeMs(s);
    if (ms !== ms) {
      this.byte(0);
      return this.string(s);
    }
    const withMillis = s.length === 24;
    const v = withMillis ? ms : ms / 1000;
    this.varint((v >= 0 ? v * 2 : -v * 2 - 1) * 4 + (withMillis ? 2 : 1));
    return true;
  }

  /** `format: "date"`: varint v; odd: zigzag(days)*2+1; 0: a literal string follows. */
  date(s: string): boolean {
    const d = parseDate(s);
    if (d === undefined) {
      this.byte(0);
      return this.string(s);
    }
    this.varint((d >= 0 ? d * 2 : -d * 2 - 1) * 2 + 1);
    return true;
  }

  /**
   * A decimal integer in a string (int64 string fields): byte 1 + zigzag varint when canonical (no sign on 0,
   * no leading zeros, within 64 bits), else byte 0 + the literal string.
   */
  decimalString(s: string): boolean {
    if (isCanonicalInteger(s)) {
      const b = BigInt(s);
      const save = this.pos;
      this.byte(1);
      if (this.bigInt(b)) return true;
      this.pos = save;
    }
    this.byte(0);
    return this.string(s);
  }
}

/** `0`, `-12`, `345`: what `String(BigInt(s))` gives back unchanged. */
export function isCanonicalInteger(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > 21) return false;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  if (i === n) return false;
  if (s.charCodeAt(i) === 48) return n === 1; // "0" only; "-0" and "007" are not canonical
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The encode-side error for a value that does not fit its schema. */
export function invalid(path: string, expected: string, value: unknown): ToonError {
  return new ToonError("INVALID_VALUE", expectedGot(expected, value), { path });
}

/** `expected <expected>, got <the value>`: every message about a value of the wrong kind (runtime/codec/messages.ts). */
export function expectedGot(expected: string, value: unknown): string {
  return `expected ${expected}, got ${describe(value)}`;
}

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return value.length > 40 ? `a string ("${value.slice(0, 37)}...")` : `the string ${JSON.stringify(value)}`;
    case "number":
      return Number.isFinite(value) ? `the number ${value}` : String(value);
    case "undefined":
      return "nothing (undefined)";
    case "object":
      return "an object";
    case "bigint":
      return `the bigint ${value}n`;
    default:
      return `a ${typeof value}`;
  }
}

/** int64 fields: an integral number (beyond 64 bits too, FORMAT §3.2), or a bigint within [-2^63, 2^64). */
export function writeInt64(w: Writer, v: unknown): boolean {
  if (typeof v === "number") return Number.isInteger(v) && w.int(v);
  if (typeof v === "bigint") return w.bigInt(v);
  return false;
}
