/**
 * Seeded random values from the shape IR, for property tests: `arbitrary(ir, seed)` returns one value the
 * schema accepts (its wire shape, plus the cheap value constraints: lengths, item counts, numeric ranges),
 * biased towards the inputs that break codecs: empty / CJK / emoji (surrogate pairs) / quote / backslash /
 * control-character / very long strings, -0, tiny and huge doubles, decimals, max safe and 64-bit integers,
 * canonical and non-canonical date-times, optional properties present and absent, open-object extras with
 * awkward keys (`__proto__` included, as an own property), and repeated strings (the per-message string table).
 *
 * Not honoured (they do not change the wire shape): `pattern`, most `format`s, `multipleOf` on decimals.
 * `format: "uuid"` is: such fields take only UUIDs (lower-case, what the decoder returns).
 *
 * Decoding conventions the values respect, so that `decode(encode(v))` deep-equals `v`:
 *  - integer fields never hold -0 (it decodes as 0, as JSON.parse(JSON.stringify(-0)) does);
 *  - int64 fields hold a `number` when safe and a `bigint` beyond 2^53 (what the decoder returns).
 */
import type { Definition, JsonValue, SchemaIR, Shape } from "../../generator/ir/types.ts";
import { Rng } from "./rng.ts";

export interface ArbitraryOptions {
  /** Nesting (objects, arrays, definitions) after which values are kept minimal. Default 5. */
  maxDepth?: number;
  /** Upper bound on array and map sizes when the schema sets none. Default 4. */
  maxItems?: number;
}

/** Strings that have broken string codecs somewhere. */
export const TRICKY_STRINGS: readonly string[] = [
  "",
  "a",
  " ",
  "hello world",
  "北京",
  "東京都渋谷区神南1-2-3",
  "서울특별시",
  "😀",
  "a😀b",
  "👨‍👩‍👧‍👦",
  "🇨🇳🇺🇸",
  "\u{10FFFF}",
  "\uFFFF",
  "\uFEFFbom",
  "e\u0301",
  '"quoted"',
  "'single'",
  "back\\slash\\",
  "line\nbreak\r\n\ttab",
  "\u0000nul\u0001",
  "\u2028\u2029",
  "</script><script>alert(1)</script>",
  "${injection}",
  "`backtick`",
  "*/ /*",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "0",
  "-0",
  "1e21",
  "null",
  "true",
  "Ã©", // mojibake of é
];

const LONG_SOURCES = ["lorem ipsum dolor sit amet ", "北京上海广州深圳", "😀🎉✨", "\"\\'\n"];

const TRICKY_KEYS: readonly string[] = [
  "x",
  "extra_1",
  "Extra Key",
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "toString",
  "a.b",
  "items[].price",
  "a/b~c",
  "",
  "北京",
  "😀",
  '"q"',
  "\\",
  "\n",
];

/** Doubles that stress the number encoding (finite only). */
const TRICKY_NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  19.99,
  0.1 + 0.2,
  1 / 3,
  Math.PI,
  1e-7,
  -1e-7,
  123456.789,
  1e21,
  -1e21,
  1e300,
  5e-324,
  Number.MIN_VALUE,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.EPSILON,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 53,
  2 ** 60,
  -(2 ** 62),
  4503599627370495.5,
  0.000001,
  99.999,
  1.5e-10,
  255,
  -129,
];

/** Integers that stress varints and the bigint path (all within [-2^63, 2^63), never -0). */
const TRICKY_INTEGERS: readonly number[] = [
  0,
  1,
  -1,
  63,
  64,
  -64,
  -65,
  127,
  128,
  255,
  256,
  16383,
  16384,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 32,
  2 ** 52,
  -(2 ** 52),
  -(2 ** 52) - 1,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 53,
  2 ** 60,
  -(2 ** 62),
  9223372036854774784, // the largest double below 2^63
  -(2 ** 63),
];

/** int64 values beyond the safe range (decoded as bigint). */
const TRICKY_BIGINTS: readonly bigint[] = [
  2n ** 53n,
  2n ** 53n + 1n,
  -(2n ** 53n) - 1n,
  2n ** 63n - 1n,
  -(2n ** 63n),
  2n ** 63n,
  2n ** 64n - 1n,
  12345678901234567890n,
];

const INT64_STRINGS: readonly string[] = [
  "0",
  "1",
  "-1",
  "9007199254740993",
  "-9223372036854775808",
  "9223372036854775807",
  "18446744073709551615",
  "18446744073709551616", // beyond 64 bits: travels as a literal
  "007",
  "-0",
  "+5",
  "1.0",
  "1e3",
  "",
  "abc",
];

const MIN_DATE_MS = -62167219200000; // 0000-01-01T00:00:00Z
const MAX_DATE_MS = 253402300799999; // 9999-12-31T23:59:59.999Z

const NONCANONICAL_DATE_TIMES: readonly string[] = [
  "2025-01-15T10:30:00+08:00",
  "2025-01-15T10:30:00.5Z",
  "2025-01-15T10:30:00.123456Z",
  "2025-01-15T10:30:00-00:00",
  "2025-01-15t10:30:00z",
  "2025-01-15 10:30:00Z",
  "2016-12-31T23:59:60Z",
  "2025-02-30T00:00:00Z",
  "2025-01-15T10:30Z",
  "",
  "not a date",
];

const NONCANONICAL_DATES: readonly string[] = ["2025-1-5", "2025-02-30", "20250115", "2025-13-01", "0000-00-00", "", "yesterday"];

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The first `n` code points of `s` (never splits a surrogate pair). */
function takeCodePoints(s: string, n: number): string {
  let out = "";
  let i = 0;
  for (const c of s) {
    if (i++ >= n) break;
    out += c;
  }
  return out;
}

function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x));
}

class Generator {
  private readonly defs = new Map<string, Definition>();
  private readonly minDepthMemo = new Map<string, number>();
  /** Strings of this value so far: some are repeated (exercising the string table). */
  private readonly used: string[] = [];

  constructor(
    ir: SchemaIR,
    private readonly rng: Rng,
    private readonly maxDepth: number,
    private readonly maxItems: number,
  ) {
    for (const d of ir.definitions) this.defs.set(d.name, d);
  }

  value(s: Shape, depth: number): unknown {
    switch (s.kind) {
      case "string":
        return this.string(s, depth);
      case "integer":
        return s.int64 ? this.int64(s) : this.integer(s);
      case "number":
        return this.number(s);
      case "boolean":
        return this.rng.chance(0.5);
      case "null":
        return null;
      case "any":
        return this.json(depth);
      case "const":
        return structuredClone(s.value);
      case "enum":
        return structuredClone(this.rng.pick(s.values));
      case "ref": {
        const d = this.defs.get(s.name);
        if (d === undefined) throw new Error(`arbitrary: unknown definition ${s.name}`);
        return this.value(d.shape, depth + 1);
      }
      case "array":
        return this.array(s, depth);
      case "tuple":
        return this.tuple(s, depth);
      case "object":
        return this.object(s, depth);
      case "union":
        return this.union(s, depth);
    }
  }

  // ------------------------------------------------------------------------------------------ strings

  private rawString(): string {
    const r = this.rng;
    if (this.used.length > 0 && r.chance(0.15)) return r.pick(this.used);
    const roll = r.next();
    let s: string;
    if (roll < 0.4) s = r.pick(TRICKY_STRINGS);
    else if (roll < 0.5) {
      // long: past the short-string JS path (32 units), the string-table limit (256 bytes) and 300 chars
      const src = r.pick(LONG_SOURCES);
      const len = r.pick([33, 100, 257, 301, 1000, 5000]);
      s = "";
      while (s.length < len) s += src;
      s = takeCodePoints(s, len);
    } else s = this.randomString(r.int(0, 24));
    if (s.length > 0) this.used.push(s);
    return s;
  }

  /** Random code points from ASCII, Latin-1, CJK, emoji (astral) and the edges of the BMP. */
  private randomString(n: number): string {
    const r = this.rng;
    let out = "";
    for (let i = 0; i < n; i++) {
      const k = r.next();
      let cp: number;
      if (k < 0.5) cp = r.int(0x20, 0x7e);
      else if (k < 0.6) cp = r.int(0, 0x1f);
      else if (k < 0.7) cp = r.int(0xa0, 0x7ff);
      else if (k < 0.82) cp = r.int(0x4e00, 0x9fff);
      else if (k < 0.92) cp = r.int(0x1f300, 0x1faff);
      else if (k < 0.96) cp = r.pick([0xd7ff, 0xe000, 0xfffd, 0xfffe, 0xffff, 0x10000, 0x10ffff, 0x2028, 0x2029, 0x7f, 0x80]);
      else cp = r.int(0x10000, 0x10ffff);
      out += String.fromCodePoint(cp);
    }
    return out;
  }

  private string(s: Extract<Shape, { kind: "string" }>, depth: number): string {
    void depth;
    const r = this.rng;
    let v: string;
    // a uuid field takes only UUIDs; the decoder gives the lower-case form, so that is what round-trips
    if (!s.int64 && s.format === "uuid") return this.uuid();
    if (s.int64) v = r.chance(0.7) ? this.canonicalIntString() : r.pick(INT64_STRINGS);
    else if (s.format === "date-time") v = r.chance(0.75) ? this.canonicalDateTime() : r.pick(NONCANONICAL_DATE_TIMES);
    else if (s.format === "date") v = r.chance(0.75) ? this.canonicalDate() : r.pick(NONCANONICAL_DATES);
    else v = this.rawString();
    return this.fitLength(v, s.constraints?.minLength, s.constraints?.maxLength);
  }

  private uuid(): string {
    const r = this.rng;
    const special = ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"];
    if (r.chance(0.1)) return r.pick(special);
    let hex = "";
    for (let i = 0; i < 32; i++) hex += r.int(0, 15).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  private fitLength(v: string, min: number | undefined, max: number | undefined): string {
    let n = codePoints(v);
    if (max !== undefined && n > max) {
      v = takeCodePoints(v, max);
      n = max;
    }
    if (min !== undefined && n < min) v += "x".repeat(min - n);
    return v;
  }

  private canonicalIntString(): string {
    const r = this.rng;
    const roll = r.next();
    if (roll < 0.3) return String(r.int(-1000, 1000));
    if (roll < 0.6) return String(r.pick(TRICKY_BIGINTS));
    const digits = r.int(1, 19);
    let s = String(r.int(1, 9));
    for (let i = 1; i < digits; i++) s += String(r.int(0, 9));
    return (r.chance(0.3) ? "-" : "") + s;
  }

  private canonicalDateTime(): string {
    const r = this.rng;
    const ms =
      r.chance(0.6)
        ? r.int(1_500_000_000, 1_900_000_000) * 1000 + (r.chance(0.5) ? r.int(0, 999) : 0)
        : MIN_DATE_MS + Math.floor(r.next() * (MAX_DATE_MS - MIN_DATE_MS));
    const iso = new Date(ms).toISOString();
    // whole seconds use the short form; otherwise keep the millis (both are canonical)
    return iso.endsWith(".000Z") && r.chance(0.8) ? iso.slice(0, 19) + "Z" : iso;
  }

  private canonicalDate(): string {
    const r = this.rng;
    const day = r.chance(0.6) ? r.int(18000, 22000) : r.int(Math.ceil(MIN_DATE_MS / 86400000), Math.floor(MAX_DATE_MS / 86400000));
    return new Date(day * 86400000).toISOString().slice(0, 10);
  }

  // ------------------------------------------------------------------------------------------ numbers

  private bounds(s: Shape): { lo: number; hi: number; loOpen: boolean; hiOpen: boolean } {
    const c = s.constraints ?? {};
    let lo = -Infinity;
    let hi = Infinity;
    let loOpen = false;
    let hiOpen = false;
    if (c.minimum !== undefined) lo = c.minimum;
    if (c.exclusiveMinimum !== undefined && c.exclusiveMinimum >= lo) (lo = c.exclusiveMinimum), (loOpen = true);
    if (c.maximum !== undefined) hi = c.maximum;
    if (c.exclusiveMaximum !== undefined && c.exclusiveMaximum <= hi) (hi = c.exclusiveMaximum), (hiOpen = true);
    return { lo, hi, loOpen, hiOpen };
  }

  private inBounds(x: number, b: ReturnType<Generator["bounds"]>): boolean {
    return (b.loOpen ? x > b.lo : x >= b.lo) && (b.hiOpen ? x < b.hi : x <= b.hi);
  }

  private number(s: Shape): number {
    const r = this.rng;
    const b = this.bounds(s);
    const mult = s.constraints?.multipleOf;
    for (let attempt = 0; attempt < 20; attempt++) {
      let x: number;
      const roll = r.next();
      if (mult !== undefined) x = mult * r.int(-1000, 1000);
      else if (roll < 0.45) x = r.pick(TRICKY_NUMBERS);
      else if (roll < 0.65) x = r.int(-100000, 100000) / 10 ** r.int(0, 4); // short decimals
      else if (roll < 0.8) x = (r.next() - 0.5) * 10 ** r.int(-10, 25);
      else {
        // any finite double, from random bits
        const dv = new DataView(new ArrayBuffer(8));
        dv.setUint32(0, r.u32());
        dv.setUint32(4, r.u32());
        x = dv.getFloat64(0);
        if (!Number.isFinite(x)) continue;
      }
      if (Number.isFinite(b.lo) || Number.isFinite(b.hi)) {
        if (!this.inBounds(x, b)) {
          // map into the range
          const lo = Number.isFinite(b.lo) ? b.lo : Math.min(b.hi, 0) - 1000;
          const hi = Number.isFinite(b.hi) ? b.hi : Math.max(b.lo, 0) + 1000;
          x = lo + (hi - lo) * r.next();
          if (r.chance(0.5)) x = Math.round(x * 100) / 100;
        }
        if (!this.inBounds(x, b)) continue;
      }
      return x;
    }
    return Number.isFinite(b.lo) && !b.loOpen ? b.lo : Number.isFinite(b.hi) && !b.hiOpen ? b.hi : 0;
  }

  private integer(s: Shape): number {
    const r = this.rng;
    const b = this.bounds(s);
    for (let attempt = 0; attempt < 20; attempt++) {
      const roll = r.next();
      let x: number;
      if (roll < 0.4) x = r.pick(TRICKY_INTEGERS);
      else if (roll < 0.8) x = r.int(-1000, 1000);
      else x = Math.round((r.next() - 0.5) * 2 ** r.int(1, 53));
      if (!this.inBounds(x, b)) {
        const lo = Math.ceil(Number.isFinite(b.lo) ? b.lo : Math.min(b.hi, 0) - 1000);
        const hi = Math.floor(Number.isFinite(b.hi) ? b.hi : Math.max(b.lo, 0) + 1000);
        x = lo + Math.floor((hi - lo + 1) * r.next());
      }
      if (Object.is(x, -0)) x = 0;
      if (this.inBounds(x, b) && Number.isInteger(x)) return x;
    }
    return Number.isFinite(b.lo) ? Math.ceil(b.lo + (b.loOpen ? 1 : 0)) : 0;
  }

  private int64(s: Shape): number | bigint {
    const r = this.rng;
    const b = this.bounds(s);
    if (r.chance(0.4)) {
      const candidates = TRICKY_BIGINTS.filter((x) => (b.loOpen ? x > b.lo : x >= b.lo) && (b.hiOpen ? x < b.hi : x <= b.hi));
      if (candidates.length > 0) return r.pick(candidates);
    }
    let x = this.integer(s);
    if (!Number.isSafeInteger(x)) x = Number.isFinite(b.lo) ? Math.ceil(b.lo) : 0; // unsafe numbers decode as bigint
    return x;
  }

  // ------------------------------------------------------------------------------------------ composites

  private count(min: number | undefined, max: number | undefined, depth: number): number {
    const lo = min ?? 0;
    if (depth >= this.maxDepth) return lo;
    const hi = Math.max(lo, Math.min(max ?? lo + this.maxItems, lo + this.maxItems));
    return this.rng.chance(0.05) ? hi : this.rng.int(lo, hi);
  }

  private array(s: Extract<Shape, { kind: "array" }>, depth: number): unknown[] {
    const c = s.constraints ?? {};
    const n = this.count(c.minItems, c.maxItems, depth);
    const out: unknown[] = [];
    const seen = new Set<string>();
    for (let tries = 0; out.length < n && tries < n * 8 + 8; tries++) {
      const v = this.value(s.items, depth + 1);
      if (c.uniqueItems) {
        const k = canonical(v);
        if (seen.has(k)) continue;
        seen.add(k);
      }
      out.push(v);
    }
    return out;
  }

  private tuple(s: Extract<Shape, { kind: "tuple" }>, depth: number): unknown[] {
    const r = this.rng;
    const c = s.constraints ?? {};
    const min = Math.max(s.minItems, c.minItems ?? 0);
    let n = depth >= this.maxDepth ? min : r.int(min, Math.max(min, s.items.length));
    if (s.rest !== false && n >= s.items.length && depth < this.maxDepth) n += r.int(0, 3);
    if (c.maxItems !== undefined) n = Math.max(min, Math.min(n, c.maxItems));
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push(this.value(i < s.items.length ? s.items[i]! : (s.rest as Shape), depth + 1));
    return out;
  }

  private object(s: Extract<Shape, { kind: "object" }>, depth: number): Record<string, unknown> {
    const r = this.rng;
    const o: Record<string, unknown> = {};
    const deep = depth >= this.maxDepth;
    for (const p of s.properties) {
      if (!p.required && (deep || r.chance(0.4))) continue;
      setOwn(o, p.name, this.value(p.shape, depth + 1));
    }
    if (s.additional !== false) {
      const isMap = s.properties.length === 0;
      const c = s.constraints ?? {};
      const n = isMap ? this.count(c.minProperties, c.maxProperties, depth) : deep || r.chance(0.5) ? 0 : r.int(1, 3);
      const declared = new Set(s.properties.map((p) => p.name));
      for (let tries = 0, added = 0; added < n && tries < n * 8 + 8; tries++) {
        const key = r.chance(0.6) ? r.pick(TRICKY_KEYS) : this.randomString(r.int(1, 8));
        if (declared.has(key) || hasOwn(o, key)) continue;
        setOwn(o, key, this.value(s.additional, depth + 1));
        added++;
      }
    }
    return o;
  }

  private union(s: Extract<Shape, { kind: "union" }>, depth: number): unknown {
    if (depth < this.maxDepth) return this.value(this.rng.pick(s.branches), depth);
    // past the budget: the branch that needs the least nesting
    let best = s.branches[0]!;
    let bestDepth = Infinity;
    for (const b of s.branches) {
      const d = this.minDepth(b, new Set());
      if (d < bestDepth) (best = b), (bestDepth = d);
    }
    return this.value(best, depth);
  }

  /** Fewest definition levels a value of `s` must nest (Infinity: cannot terminate through this path). */
  private minDepth(s: Shape, visiting: Set<string>): number {
    switch (s.kind) {
      case "ref": {
        const known = this.minDepthMemo.get(s.name);
        if (known !== undefined) return known;
        if (visiting.has(s.name)) return Infinity;
        visiting.add(s.name);
        const d = 1 + this.minDepth(this.defs.get(s.name)!.shape, visiting);
        visiting.delete(s.name);
        if (d !== Infinity) this.minDepthMemo.set(s.name, d);
        return d;
      }
      case "object":
        return Math.max(0, ...s.properties.filter((p) => p.required).map((p) => this.minDepth(p.shape, visiting)));
      case "array":
        return (s.constraints?.minItems ?? 0) > 0 ? this.minDepth(s.items, visiting) : 0;
      case "tuple":
        return Math.max(0, ...s.items.slice(0, s.minItems).map((i) => this.minDepth(i, visiting)));
      case "union":
        return Math.min(...s.branches.map((b) => this.minDepth(b, visiting)));
      default:
        return 0;
    }
  }

  /** Any JSON value (for `any` positions): nested, with awkward keys and numbers. */
  json(depth: number): JsonValue {
    const r = this.rng;
    const roll = r.next();
    const deep = depth >= this.maxDepth;
    if (roll < 0.1) return null;
    if (roll < 0.2) return r.chance(0.5);
    if (roll < 0.45) return r.chance(0.5) ? r.pick(TRICKY_NUMBERS) : r.int(-40, 40);
    if (roll < 0.7 || deep) return this.rawString();
    if (roll < 0.85) {
      const n = r.int(0, this.maxItems);
      const a: JsonValue[] = [];
      for (let i = 0; i < n; i++) a.push(this.json(depth + 1));
      return a;
    }
    const o: { [k: string]: JsonValue } = {};
    const n = r.int(0, this.maxItems);
    for (let i = 0; i < n; i++) {
      const key = r.chance(0.5) ? r.pick(TRICKY_KEYS) : this.randomString(r.int(0, 6));
      setOwn(o, key, this.json(depth + 1));
    }
    return o;
  }
}

/** One random value of `ir`'s root shape; the same (ir, seed, options) always give the same value. */
export function arbitrary(ir: SchemaIR, seed: number, options: ArbitraryOptions = {}): unknown {
  const g = new Generator(ir, new Rng(seed), options.maxDepth ?? 5, options.maxItems ?? 4);
  return g.value(ir.root, 0);
}

/** One random JSON value (any shape), for `any` positions and schemaless tests. */
export function arbitraryJson(seed: number, options: ArbitraryOptions = {}): JsonValue {
  const ir: SchemaIR = { name: "Any", source: "", root: { kind: "any", schemaPath: "" }, definitions: [], warnings: [] };
  return new Generator(ir, new Rng(seed), options.maxDepth ?? 4, options.maxItems ?? 4).json(0);
}
