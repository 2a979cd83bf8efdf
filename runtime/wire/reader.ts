/**
 * The bounds-checked byte reader generated decoders call. Every read checks the end; every failure is a
 * ToonError carrying the byte offset and `at`, the path (relative to the innermost enclosing loop or named
 * definition) that generated code keeps current. Enclosing loops prefix their part of the path as the error
 * bubbles up.
 */
import { ToonError, type ToonErrorCode } from "./errors.ts";
import { formatDate, formatDateTime } from "./dates.ts";
import { readUtf8 } from "./utf8.ts";
import { DEFAULT_MAX_DEPTH, INTERN_MAX_BYTES, isWideInteger, MAX_SAFE, MAX_ZERO_WIDTH_ITEMS, MIN_SAFE, NUM_FLOAT64, WIDE_INT_ESCAPE } from "./wire.ts";
import { POW10 } from "./writer.ts";
import type { FieldIndex } from "./field-index.ts";
import { DEFAULT_MAX_INFLATED_BYTES, DEFAULT_MAX_UNKNOWN_RECORDS, DEFAULT_MAX_ZERO_WIDTH_ITEMS, limitOf, type DecodeLimits } from "./limits.ts";

/** What is left of a message's budgets, shared by every reader of the message (extension payloads included). */
export interface ReadBudget {
  /** Zero-width items the message may still decode to (runtime/wire/limits.ts). */
  zeroWidth: number;
}

const MIN_INT64 = -(2n ** 63n);
const TWO_64 = 2 ** 64;

export class Reader {
  readonly buf: Uint8Array;
  readonly view: DataView;
  pos: number;
  end: number;
  /** Path of the value being read, relative to the innermost loop or definition (kept by generated code). */
  at = "";
  depth = 0;
  maxDepth = DEFAULT_MAX_DEPTH;
  /** The writer's extension level from the header (0: base only). Fields added after it take their defaults. */
  level = 0;
  /** Extension records applied so far in this message, per object (a second record for one key is refused). */
  applied: WeakMap<object, Set<string>> | undefined = undefined;
  /** The message's field offset table (FIELD_INDEX), once readHeader has stepped over it (./field-index.ts). */
  fieldIndex: FieldIndex | undefined = undefined;
  /** The message's remaining budgets (one object per message: sub-readers share it). */
  budget: ReadBudget;
  /** Largest inflated payload a COMPRESSED header may declare (runtime/compression.ts). */
  maxInflated: number;
  /** Unknown extension records the message may carry (runtime/features/extensions.ts). */
  maxUnknown: number;
  private strings: string[] = [];

  /**
   * `limits`: the caller's `decode(bytes, options)` (runtime/wire/limits.ts); absent, the defaults. `end` defaults to
   * the buffer's length, read only once the buffer is known to be bytes (a hostile `null` is a ToonError).
   */
  constructor(buf: Uint8Array, pos = 0, end?: number, limits?: DecodeLimits) {
    if (!(buf instanceof Uint8Array)) {
      throw new ToonError("INVALID_ENCODING", "expected a Uint8Array of TOON bytes, got " + (buf === null ? "null" : typeof buf));
    }
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.pos = pos;
    this.end = end ?? buf.length;
    this.budget = { zeroWidth: limitOf(limits?.maxZeroWidthItems, DEFAULT_MAX_ZERO_WIDTH_ITEMS, "maxZeroWidthItems") };
    this.maxInflated = limitOf(limits?.maxInflatedBytes, DEFAULT_MAX_INFLATED_BYTES, "maxInflatedBytes");
    this.maxUnknown = limitOf(limits?.maxUnknownRecords, DEFAULT_MAX_UNKNOWN_RECORDS, "maxUnknownRecords");
  }

  /** Share `parent`'s message limits and budgets (a reader over part of the same message). */
  within(parent: Reader): this {
    this.budget = parent.budget;
    this.maxInflated = parent.maxInflated;
    this.maxUnknown = parent.maxUnknown;
    this.level = parent.level;
    this.maxDepth = parent.maxDepth;
    return this;
  }

  /**
   * Spend `n` items of a zero-width type from the message's budget: arrays of arrays of `null` would otherwise
   * turn a few bytes into gigabytes, each count staying under the per-count cap.
   */
  zeroWidth(n: number): void {
    const b = this.budget;
    if (n > b.zeroWidth) {
      throw this.fail("INVALID_ENCODING", `zero-width items costing ${n} more than the message's budget allows (maxZeroWidthItems, default ${DEFAULT_MAX_ZERO_WIDTH_ITEMS})`);
    }
    b.zeroWidth -= n;
  }

  fail(code: ToonErrorCode, reason: string): ToonError {
    return new ToonError(code, `${reason} (byte ${this.pos})`, { path: this.at, offset: this.pos });
  }

  truncated(): ToonError {
    return this.fail("TRUNCATED", "input ended in the middle of a value");
  }

  remaining(): number {
    return this.end - this.pos;
  }

  byte(): number {
    if (this.pos >= this.end) throw this.truncated();
    return this.buf[this.pos++]!;
  }

  /** An unsigned varint that must fit in a safe integer. */
  varint(): number {
    const buf = this.buf;
    let pos = this.pos;
    if (pos + 7 <= this.end) {
      // unrolled for up to 7 bytes (49 bits) away from the end; longer varints and the last bytes take the loop
      let b = buf[pos]!;
      if (b < 0x80) {
        this.pos = pos + 1;
        return b;
      }
      let r = b & 0x7f;
      b = buf[pos + 1]!;
      r |= (b & 0x7f) << 7;
      if (b < 0x80) {
        this.pos = pos + 2;
        return r;
      }
      b = buf[pos + 2]!;
      r |= (b & 0x7f) << 14;
      if (b < 0x80) {
        this.pos = pos + 3;
        return r;
      }
      b = buf[pos + 3]!;
      r |= (b & 0x7f) << 21;
      if (b < 0x80) {
        this.pos = pos + 4;
        return r;
      }
      b = buf[pos + 4]!;
      r += (b & 0x7f) * 0x10000000;
      if (b < 0x80) {
        this.pos = pos + 5;
        return r;
      }
      b = buf[pos + 5]!;
      r += (b & 0x7f) * 0x800000000;
      if (b < 0x80) {
        this.pos = pos + 6;
        return r;
      }
      b = buf[pos + 6]!;
      r += (b & 0x7f) * 0x40000000000;
      if (b < 0x80) {
        this.pos = pos + 7;
        return r;
      }
    } else if (pos < this.end) {
      const b = buf[pos]!;
      if (b < 0x80) {
        this.pos = pos + 1;
        return b;
      }
    }
    let result = 0;
    let shift = 0;
    for (;;) {
      if (pos >= this.end) throw this.truncated();
      const b = buf[pos++]!;
      if (shift < 28) result |= (b & 0x7f) << shift;
      else if (shift < 49 || (shift === 49 && b < 0x10)) result += (b & 0x7f) * 2 ** shift;
      else {
        this.pos = pos;
        throw this.fail("INVALID_ENCODING", "varint beyond 2^53");
      }
      if (b < 0x80) break;
      shift += 7;
    }
    this.pos = pos;
    return result;
  }

  /** An unsigned varint of up to 70 bits, as bigint. */
  private bigVarint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw this.truncated();
      const b = this.buf[this.pos++]!;
      // the 10th byte holds bits 63..69; encoders write at most 65 bits (uint64 above 2^63 as 2n)
      if (i === 9 && b > 0x03) throw this.fail("INVALID_ENCODING", "varint beyond 65 bits");
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
    }
    throw this.fail("INVALID_ENCODING", "varint longer than 10 bytes");
  }

  private zigzagBig(): bigint {
    const u = this.bigVarint();
    const v = u & 1n ? -(u >> 1n) - 1n : u >> 1n;
    // 65 bits of varint reach down to -2^64, but encoders write integers in [-2^63, 2^64) only (Writer.bigInt):
    // a value below was never written, and decoding it would hand out a value `validate` rejects
    if (v < MIN_INT64) {
      this.pos--;
      throw this.fail("INVALID_ENCODING", "integer below -2^63");
    }
    return v;
  }

  /** A JSON integer (zigzag varint); beyond 2^53 the exact bigint is rounded once, to the double it came from. */
  int(): number {
    const start = this.pos;
    if (this.pos < this.end && this.buf[this.pos]! < 0x80) {
      const u = this.buf[this.pos++]!;
      return u & 1 ? -(u >> 1) - 1 : u >> 1;
    }
    let u: number;
    try {
      u = this.varint();
    } catch (e) {
      if (!(e instanceof ToonError) || e.code !== "INVALID_ENCODING") throw e;
      this.pos = start;
      const wide = this.wideInt();
      if (wide !== undefined) return wide;
      this.pos = start;
      const x = Number(this.zigzagBig());
      // values just below 2^64 round up to 2^64, which no integer field accepts; encoders (writing doubles,
      // exact below 2^64) never produce them
      if (x >= TWO_64) {
        this.pos--;
        throw this.fail("INVALID_ENCODING", "integer beyond 64 bits");
      }
      return x;
    }
    return u % 2 === 1 ? -(u - 1) / 2 - 1 : u / 2;
  }

  /**
   * After a varint too wide for a double: the integer beyond 64 bits when it is `WIDE_INT_ESCAPE` and its float64
   * (FORMAT §3.2), else undefined (the caller rereads the varint as a zigzag integer).
   */
  wideInt(): number | undefined {
    const start = this.pos;
    if (this.bigVarint() !== WIDE_INT_ESCAPE) return undefined;
    return this.wideIntBody(start);
  }

  /** The float64 after a `WIDE_INT_ESCAPE` that started at `start`: an integer outside [−2^63, 2^64), or an error. */
  wideIntBody(start: number): number {
    const x = this.f64();
    if (!isWideInteger(x)) {
      this.pos = start;
      throw this.fail("INVALID_ENCODING", `${x} after the wide-integer escape is not an integer beyond 64 bits`);
    }
    return x;
  }

  /** An int64 field: a number when safe, else the exact bigint. */
  int64(): number | bigint {
    // not through int(): that one refuses values whose double rounds to 2^64, which int64 fields carry exactly
    const start = this.pos;
    let u: number;
    try {
      u = this.varint();
    } catch (e) {
      if (!(e instanceof ToonError) || e.code !== "INVALID_ENCODING") throw e;
      this.pos = start;
      const wide = this.wideInt();
      if (wide !== undefined) return wide;
      this.pos = start;
      const v = this.zigzagBig();
      return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v;
    }
    return u % 2 === 1 ? -(u - 1) / 2 - 1 : u / 2;
  }

  /** A JSON number (see wire.ts). */
  num(): number {
    const v = this.varint();
    const s = v % 16;
    const q = (v - s) / 16;
    if (s === 0) return q % 2 === 1 ? -(q - 1) / 2 - 1 : q / 2;
    if (s < NUM_FLOAT64) {
      const m = q % 2 === 1 ? -(q - 1) / 2 - 1 : q / 2;
      return m / POW10[s]!;
    }
    if (q !== 0) throw this.fail("INVALID_ENCODING", "unknown number tag");
    const x = this.f64();
    if (x - x !== 0) {
      this.pos -= 8;
      throw this.fail("INVALID_ENCODING", `${x} is not a JSON number`);
    }
    return x;
  }

  f64(): number {
    if (this.pos + 8 > this.end) throw this.truncated();
    const x = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return x;
  }

  bool(): boolean {
    const b = this.byte();
    if (b > 1) {
      this.pos--;
      throw this.fail("INVALID_ENCODING", `boolean byte ${b}`);
    }
    return b === 1;
  }

  string(): string {
    const h = this.varint();
    if (h % 2 === 1) {
      const s = this.strings[(h - 1) / 2];
      if (s === undefined) throw this.fail("INVALID_ENCODING", "string reference to an unknown entry");
      return s;
    }
    const n = h / 2;
    if (n === 0) return "";
    if (n > this.end - this.pos) throw this.truncated();
    const s = readUtf8(this.buf, this.pos, n);
    if (s === undefined) throw this.fail("INVALID_UTF8", "string is not well-formed UTF-8");
    this.pos += n;
    if (n <= INTERN_MAX_BYTES) this.strings.push(s);
    return s;
  }

  /**
   * The rest of a string whose varint header `h` was already read (tabled strings read a shifted header:
   * runtime/wire/defaults.ts). Same rules as `string()`.
   */
  stringOf(h: number): string {
    if (h % 2 === 1) {
      const s = this.strings[(h - 1) / 2];
      if (s === undefined) throw this.fail("INVALID_ENCODING", "string reference to an unknown entry");
      return s;
    }
    const n = h / 2;
    if (n === 0) return "";
    if (n > this.end - this.pos) throw this.truncated();
    const s = readUtf8(this.buf, this.pos, n);
    if (s === undefined) throw this.fail("INVALID_UTF8", "string is not well-formed UTF-8");
    this.pos += n;
    if (n <= INTERN_MAX_BYTES) this.strings.push(s);
    return s;
  }

  /**
   * A string on an `"intern": false` path (docs/FORMAT.md §3.1): a literal only (an odd header, a reference, is
   * INVALID_ENCODING), and it does not enter the string table.
   */
  plainString(): string {
    return this.plainStringOf(this.varint());
  }

  /** `plainString()` after its header `h` was read (tabled strings: runtime/wire/defaults.ts). */
  plainStringOf(h: number): string {
    if (h % 2 === 1) throw this.fail("INVALID_ENCODING", "string reference on a path that does not intern");
    const n = h / 2;
    if (n === 0) return "";
    if (n > this.end - this.pos) throw this.truncated();
    const s = readUtf8(this.buf, this.pos, n);
    if (s === undefined) throw this.fail("INVALID_UTF8", "string is not well-formed UTF-8");
    this.pos += n;
    return s;
  }

  /**
   * Peek (FIELD_INDEX): start reading an indexed value whose first string-table entry has index `base`. The
   * entries before it belong to the rest of the message, which the value never references (an encoder writes
   * no reference below the value's base), so they stay unknown: a reference to one is INVALID_ENCODING.
   */
  tableBase(base: number): void {
    this.strings = new Array<string>(base);
  }

  dateTime(): string {
    const v = this.varint();
    const kind = v % 4;
    if (kind === 0) {
      if (v !== 0) throw this.fail("INVALID_ENCODING", "unknown date-time tag");
      return this.string();
    }
    if (kind === 3) throw this.fail("INVALID_ENCODING", "unknown date-time tag");
    const q = (v - kind) / 4;
    const t = q % 2 === 1 ? -(q - 1) / 2 - 1 : q / 2;
    const s = kind === 1 ? formatDateTime(t * 1000, false) : formatDateTime(t, true);
    if (s === undefined) throw this.fail("INVALID_ENCODING", "date-time out of range");
    return s;
  }

  date(): string {
    const v = this.varint();
    if (v === 0) return this.string();
    if (v % 2 === 0) throw this.fail("INVALID_ENCODING", "unknown date tag");
    const q = (v - 1) / 2;
    const s = formatDate(q % 2 === 1 ? -(q - 1) / 2 - 1 : q / 2);
    if (s === undefined) throw this.fail("INVALID_ENCODING", "date out of range");
    return s;
  }

  decimalString(): string {
    const tag = this.byte();
    if (tag === 0) return this.string();
    if (tag !== 1) throw this.fail("INVALID_ENCODING", "unknown decimal tag");
    // inverse of Writer.bigInt (uint64 values above 2^63 included); nothing below -2^63 was ever written
    return String(this.zigzagBig());
  }

  /**
   * A count of items that take at least `minWidth` bytes each: refuses counts the remaining input cannot hold,
   * so a corrupt count never makes the decoder allocate or loop beyond what the input describes. Items that take
   * no bytes (`minWidth` 0, or `-weight`: runtime/wire/limits.ts `countWidth`) are charged to the message's budget.
   */
  count(minWidth: number): number {
    const n = this.varint();
    if (minWidth > 0) {
      if (n * minWidth > this.end - this.pos) throw this.fail("TRUNCATED", `count ${n} exceeds what the input can hold`);
    } else if (n > 0) {
      // zero-width items (minWidth 0, or minus their weight in the budget: runtime/wire/limits.ts countWidth)
      if (n > MAX_ZERO_WIDTH_ITEMS) throw this.fail("INVALID_ENCODING", `count ${n} exceeds what the input can hold`);
      this.zeroWidth(minWidth < 0 ? n * -minWidth : n);
    }
    return n;
  }

  /**
   * A tuple's item count: at most `positional` when there are no rest items (`restWidth` -1); otherwise the
   * rest items (each at least `restWidth` bytes) must fit in what is left, as for `count`.
   */
  tupleCount(positional: number, restWidth: number): number {
    const n = this.varint();
    const rest = n - positional;
    if (rest > 0) {
      if (restWidth < 0) throw this.fail("INVALID_ENCODING", `tuple of ${n} items where the schema allows ${positional}`);
      if (restWidth > 0 ? rest * restWidth > this.end - this.pos : rest > MAX_ZERO_WIDTH_ITEMS) {
        throw this.fail(restWidth > 0 ? "TRUNCATED" : "INVALID_ENCODING", `count ${n} exceeds what the input can hold`);
      }
      if (restWidth === 0) this.zeroWidth(rest);
    }
    return n;
  }

  /** An index into a table of `size` entries (enum values, union branches). */
  index(size: number): number {
    const i = this.varint();
    if (i >= size) throw this.fail("INVALID_ENCODING", `index ${i} out of range 0..${size - 1}`);
    return i;
  }

  /** A presence bitmap byte whose bits above `mask` must be zero. */
  bits(mask: number): number {
    const b = this.byte();
    if ((b & ~mask) !== 0) {
      this.pos--;
      throw this.fail("INVALID_ENCODING", "presence bitmap has bits set for no field");
    }
    return b;
  }

  enter(): void {
    if (++this.depth > this.maxDepth) throw this.fail("DEPTH_LIMIT", `nesting deeper than ${this.maxDepth}`);
  }

  /** Fail unless every byte was consumed. */
  done(): void {
    if (this.pos !== this.end) {
      this.at = "";
      throw this.fail("TRAILING_BYTES", `${this.end - this.pos} bytes left after the value`);
    }
  }
}
