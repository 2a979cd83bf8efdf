/**
 * Schemaless mode (docs/FORMAT.md §10.4): JSON without a schema. The encoder infers a dictionary from the
 * value itself (one type per position of the value, with templates for objects of the same shape: array
 * elements, map values, repeated sub-objects), writes it into the message (EMBEDDED_DICTIONARY flag), then
 * writes the body positionally as the schema-driven format does: a shape seen again costs its values only.
 *
 *   message    := header (flags EMBEDDED_DICTIONARY [| COMPRESSED], no fingerprint) ‖ dictionary ‖ body
 *   dictionary := type                            the root type, written depth first
 *   body       := the root value, encoded with it
 *
 * Dictionary, body and the string table are one stream: strings of the dictionary (template keys, constants,
 * enum values) enter the message's string table before the body's, so a body string equal to a key is a
 * reference. Decoding is lossless for JSON values: key order, `__proto__` as an own key, -0, integers beyond
 * 2^53 (as the double they are, or as bigint when given as bigint), nested and mixed arrays, empty containers.
 */
import { ToonError, pointerSegment, rethrowAt, rethrowAtIndex } from "./errors.ts";
import { readAny, writeAny } from "./any.ts";
import { compressMessage, inflateReader, type EncodeOptions } from "./compression.ts";
import { parseDate, parseDateTime } from "./dates.ts";
import { hex16, peekHeader, writeHeader } from "./header.ts";
import { setOwn } from "./objects.ts";
import { Reader } from "./reader.ts";
import { Writer, isCanonicalInteger } from "./writer.ts";
import { readUtf8, writeUtf8 } from "./utf8.ts";
import { AnyTag, DEFAULT_MAX_DEPTH, FORMAT_VERSION, Flag, INTERN_MAX_BYTES, SCHEMALESS_FLAGS } from "./wire.ts";

/** Type kinds of the embedded dictionary (one byte each on the wire). */
export const SchemalessKind = {
  /** A self-describing value (docs/FORMAT.md §4.8). */
  ANY: 0x00,
  /** `null`; no body bytes. */
  NULL: 0x01,
  BOOL: 0x02,
  /** An integer in [-2^63, 2^64) as a zigzag varint (FORMAT §3.2); decodes to a number. */
  INT: 0x03,
  /** A number: decimal varint or float64 escape (FORMAT §3.4). */
  NUM: 0x04,
  /** A string in the schemaless string form: reference, literal, or a prefix of the previous string plus a suffix. */
  STR: 0x05,
  /** A string in the date-time form of FORMAT §3.7 (compact when canonical UTC, else a literal). */
  DATETIME: 0x06,
  /** A string in the date form of FORMAT §3.7. */
  DATE: 0x07,
  /** A string in the decimal-integer form of FORMAT §3.3. */
  DECSTR: 0x08,
  /** An integer as for INT that decodes to a number when safe and to a bigint otherwise (int64, FORMAT §3.2). */
  INT64: 0x09,
  /** One scalar, carried in the dictionary; no body bytes. */
  CONST: 0x0a,
  /** Scalars listed in the dictionary; the body carries the varint index. */
  ENUM: 0x0b,
  ARRAY: 0x0c,
  /** A template: keys in order, optional ones flagged; the body is a presence bitmap and the values. */
  OBJECT: 0x0d,
  /** Keys travel in the body (count, then key and value per entry); all values share one type. */
  MAP: 0x0e,
  /** Branch index then the value with that branch's type. */
  UNION: 0x0f,
  /** A composite type written earlier in this dictionary, by index. */
  REF: 0x10,
} as const;

const K = SchemalessKind;

export type SchemalessScalar = null | boolean | number | string;

export interface SchemalessSimpleType {
  kind: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
}
export interface SchemalessConstType {
  kind: 10;
  value: SchemalessScalar;
}
export interface SchemalessEnumType {
  kind: 11;
  values: SchemalessScalar[];
  /** @internal encoder: value key -> index */
  index?: Map<unknown, number>;
}
export interface SchemalessArrayType {
  kind: 12;
  items: SchemalessType;
  /** @internal per-message string sites of its slots */
  sites?: SchemalessSite[];
}
export interface SchemalessObjectType {
  kind: 13;
  keys: string[];
  optional: boolean[];
  types: SchemalessType[];
  /** Number of optional keys (bits of the presence bitmap). */
  optionalCount: number;
  /** Fewest body bytes a value takes (bitmap plus the required values' minimum widths). */
  minWidth: number;
  /** @internal per-message string sites of its slots */
  sites?: SchemalessSite[];
}
export interface SchemalessMapType {
  kind: 14;
  /** How keys travel: STR (a string) or DECSTR (a decimal-integer string). */
  keyKind: 5 | 8;
  values: SchemalessType;
  /** @internal per-message string sites of its slots (0: values, 1: keys) */
  sites?: SchemalessSite[];
}
export interface SchemalessUnionType {
  kind: 15;
  branches: SchemalessType[];
  /** @internal encoder: which branch takes a value */
  select?: Selector;
  /** @internal per-message string sites of its slots */
  sites?: SchemalessSite[];
}
export type SchemalessType =
  | SchemalessSimpleType
  | SchemalessConstType
  | SchemalessEnumType
  | SchemalessArrayType
  | SchemalessObjectType
  | SchemalessMapType
  | SchemalessUnionType;

export const SCHEMALESS_KIND_NAMES: readonly string[] = [
  "any",
  "null",
  "boolean",
  "integer",
  "number",
  "string",
  "date-time",
  "date",
  "decimal-string",
  "int64",
  "const",
  "enum",
  "array",
  "object",
  "map",
  "union",
  "ref",
];

const SIMPLE: readonly SchemalessSimpleType[] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((kind) => Object.freeze({ kind }) as SchemalessSimpleType);

/** Nodes a decoder may produce per message byte (plus NODE_BUDGET_BASE): bounds zero-width amplification. */
export const NODE_BUDGET_FACTOR = 8;
export const NODE_BUDGET_BASE = 65536;
/** Code points a message's prefixed strings may copy from their predecessors, per message byte (plus the base). */
export const PREFIX_BUDGET_FACTOR = 16;
/** The longest prefix (in code points) one prefixed string may take from the previous string. */
export const MAX_PREFIX = 1024;

export interface SchemalessDecodeOptions {
  /** Nesting limit for arrays, objects and maps (default DEFAULT_MAX_DEPTH, 256). */
  maxDepth?: number;
  /** Largest inflated payload a COMPRESSED message may declare, checked before decompressing (default 64 MiB). */
  maxInflatedBytes?: number;
}

/** The smallest number of body bytes a value of `t` takes. */
export function schemalessMinWidth(t: SchemalessType): number {
  switch (t.kind) {
    case K.NULL:
    case K.CONST:
      return 0;
    case K.OBJECT:
      return t.minWidth;
    default:
      return 1;
  }
}

// ------------------------------------------------------------------------------------------------ encoding

/** Encode any JSON value with an embedded dictionary. Throws ToonError INVALID_VALUE / DEPTH_LIMIT with a path. */
export function encodeSchemaless(value: unknown, options?: EncodeOptions): Uint8Array {
  const pre: Prewalk = { nodes: 0, strings: new Set(), stringCap: 1 << 16 };
  try {
    prewalk(value, 0, pre);
  } catch (e) {
    rethrowAt(e, "");
  }
  const w = Writer.shared();
  for (let attempt = 0; ; attempt++) {
    w.reset();
    writeHeader(w, Flag.EMBEDDED_DICTIONARY, 0);
    if (attempt === 2) {
      // the last resort, at most one value per byte: the whole value self-describing
      w.byte(K.ANY);
      writeAny(w, value);
      break;
    }
    // attempt 1: no zero-width types for scalars (constants become one-value enums), see "Bounds"
    const root = new Inferrer(pre.strings.size, attempt === 1).infer([value], 0);
    const sw = new StrWriter();
    const dw = new DictionaryWriter(w, sw);
    sw.canon = (t) => dw.canon(t);
    dw.type(root);
    writeValue(w, value, root, sw, { prev: "" });
    // a decoder refuses messages that decode to more values than their length allows (zero-width amplification)
    if (pre.nodes <= schemalessNodeBudget(w.pos)) break;
  }
  return compressMessage(w.finish(), options);
}

/** The dictionary `encodeSchemaless` would embed for `value` (for tools and tests). */
export function inferSchemaless(value: unknown): SchemalessType {
  const pre: Prewalk = { nodes: 0, strings: new Set(), stringCap: 1 << 16 };
  try {
    prewalk(value, 0, pre);
  } catch (e) {
    rethrowAt(e, "");
  }
  return new Inferrer(pre.strings.size).infer([value], 0);
}

interface Prewalk {
  nodes: number;
  strings: Set<string>;
  stringCap: number;
}

const objectProto = Object.prototype;
const hasOwnProperty = objectProto.hasOwnProperty;
const TWO_63 = -(2n ** 63n);
const TWO_64 = 2n ** 64n;

/** Check that `v` is a JSON value (with a path on failure), count its nodes and its distinct short strings. */
function prewalk(v: unknown, depth: number, pre: Prewalk): void {
  pre.nodes++;
  switch (typeof v) {
    case "string":
      if (!v.isWellFormed()) throw new ToonError("INVALID_VALUE", "string holds a lone surrogate (not representable in UTF-8)");
      if (v.length <= INTERN_MAX_BYTES && pre.strings.size < pre.stringCap) pre.strings.add(v);
      return;
    case "number":
      if (v - v !== 0) throw new ToonError("INVALID_VALUE", `expected a finite number, got ${v}`);
      return;
    case "boolean":
      return;
    case "bigint":
      if (v < TWO_63 || v >= TWO_64) throw new ToonError("INVALID_VALUE", `integer ${v} is outside [-2^63, 2^64)`);
      return;
    case "object": {
      if (v === null) return;
      if (++depth > DEFAULT_MAX_DEPTH) throw new ToonError("DEPTH_LIMIT", `value nested deeper than ${DEFAULT_MAX_DEPTH} (a cycle?)`);
      if (Array.isArray(v)) {
        let i = 0;
        try {
          for (; i < v.length; i++) {
            const item = v[i];
            if (item === undefined) throw new ToonError("INVALID_VALUE", "expected a JSON value, got nothing (undefined, or a hole)");
            prewalk(item, depth, pre);
          }
        } catch (e) {
          rethrowAt(e, pointerSegment(i));
        }
        return;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== objectProto && proto !== null) {
        throw new ToonError("INVALID_VALUE", `expected a JSON value, got an instance of ${(proto as { constructor?: { name?: string } })?.constructor?.name ?? "a class"}`);
      }
      let k = "";
      try {
        for (k in v) {
          if (!hasOwnProperty.call(v, k)) continue;
          const x = (v as Record<string, unknown>)[k];
          if (x === undefined) continue;
          if (!k.isWellFormed()) throw new ToonError("INVALID_VALUE", "key holds a lone surrogate");
          if (k.length <= INTERN_MAX_BYTES && pre.strings.size < pre.stringCap) pre.strings.add(k);
          prewalk(x, depth, pre);
        }
      } catch (e) {
        rethrowAt(e, pointerSegment(k));
      }
      return;
    }
    default:
      throw new ToonError("INVALID_VALUE", `expected a JSON value, got ${v === undefined ? "nothing (undefined)" : `a ${typeof v}`}`);
  }
}

/** Own keys whose value is not undefined (what JSON.stringify writes), in order. */
function ownKeys(o: Record<string, unknown>): string[] {
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) {
    if (o[keys[i]!] === undefined) return keys.filter((k) => o[k] !== undefined);
  }
  return keys;
}

const NEG_ZERO = Symbol("-0");
/** Map key of a scalar: SameValueZero would merge 0 and -0. */
function scalarKey(v: unknown): unknown {
  return v === 0 && 1 / (v as number) < 0 ? NEG_ZERO : v;
}

function varintSize(n: number): number {
  let s = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    s++;
  }
  return s;
}

function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c < 0x800 ? 1 : c >= 0xd800 && c < 0xdc00 ? 0 : 2;
  }
  return n;
}

function isSafeInt(x: number): boolean {
  return Number.isSafeInteger(x) && (x !== 0 || 1 / x > 0);
}

/** An integer the INT kind carries: integral, not -0, within [-2^63, 2^64). */
function isWireInt(x: number): boolean {
  return Number.isInteger(x) && x >= -9223372036854775808 && x < 18446744073709551616 && (x !== 0 || 1 / x > 0);
}

/** Union branch selection, built with the union. -1: no branch takes values of that JSON kind. */
interface Selector {
  nul: number;
  bool: number;
  num: number;
  /** When bigints are present: the INT64 branch also takes safe-integer numbers. */
  int64: number;
  str: number;
  arr: number;
  /** The only object branch, or -2: pick by key list (`sig`, then `variants`). */
  obj: number;
  sig: Map<string, number>;
  variants: number[];
}

const ENUM_MAX = 4096;
const MAX_VARIANTS = 16;

interface Branch {
  t: SchemalessType;
  /** JSON kinds it takes: bits of KIND_*. */
  covers: number;
  count: number;
  /** Object variants: the key-list signatures it takes. */
  sigs?: string[];
}
const KIND_NULL = 1,
  KIND_BOOL = 2,
  KIND_NUM = 4,
  KIND_INT64 = 8,
  KIND_STR = 16,
  KIND_ARR = 32,
  KIND_OBJ = 64;

/** A template being built from shapes (ordered key lists). */
interface Variant {
  order: string[];
  members: number;
  present: Map<string, number>;
  sigs: string[];
}

/**
 * Type inference from the values met at one position (a "site"). Sizes are estimated to choose between
 * encodings (enum or not, a date form or not); the choice never affects correctness, only size.
 */
class Inferrer {
  /** Estimated size of a string-table reference (from the number of distinct short strings in the message). */
  private readonly refSize: number;
  private readonly scratch = new Writer(64);

  constructor(
    tableSize: number,
    /** Constants and nulls as one-value enums (one byte each), so every scalar takes body bytes. */
    private readonly noZeroWidth = false,
  ) {
    this.refSize = varintSize(2 * tableSize + 1); // a reference to an average entry: varint 4i + 1, i about half the table
  }

  private nz(t: SchemalessType): SchemalessType {
    if (!this.noZeroWidth) return t;
    if (t.kind === K.NULL) return { kind: K.ENUM, values: [null] };
    if (t.kind === K.CONST) return { kind: K.ENUM, values: [t.value] };
    return t;
  }

  infer(vals: unknown[], depth: number): SchemalessType {
    let nulls = 0;
    const bools: boolean[] = [];
    const nums: number[] = [];
    const bigs: bigint[] = [];
    const strs: string[] = [];
    const arrs: unknown[][] = [];
    const objs: Record<string, unknown>[] = [];
    for (let i = 0; i < vals.length; i++) {
      const v = vals[i];
      switch (typeof v) {
        case "string":
          strs.push(v);
          break;
        case "number":
          nums.push(v);
          break;
        case "boolean":
          bools.push(v);
          break;
        case "bigint":
          bigs.push(v);
          break;
        default:
          if (v === null) nulls++;
          else if (Array.isArray(v)) arrs.push(v);
          else objs.push(v as Record<string, unknown>);
      }
    }
    const branches: Branch[] = [];
    let plainNums = nums;
    if (bigs.length > 0) {
      // bigints and the safe integers beside them share one int64 branch (decoded back to bigint / number)
      const safe = nums.filter(isSafeInt);
      plainNums = nums.filter((x) => !isSafeInt(x));
      branches.push({ t: SIMPLE[K.INT64]!, covers: KIND_INT64, count: bigs.length + safe.length });
    }
    if (nulls + bools.length + plainNums.length + strs.length > 0) this.scalars(nulls, bools, plainNums, strs, branches);
    if (arrs.length > 0) {
      const items: unknown[] = [];
      for (const a of arrs) for (let i = 0; i < a.length; i++) items.push(a[i]);
      branches.push({ t: { kind: K.ARRAY, items: this.infer(items, depth + 1) }, covers: KIND_ARR, count: arrs.length });
    }
    if (objs.length > 0) this.objects(objs, depth + 1, branches);
    if (branches.length === 0) return SIMPLE[K.NULL]!; // no values at all (the items of empty arrays)
    if (branches.length === 1) return branches[0]!.t;
    branches.sort((a, b) => b.count - a.count);
    const sel: Selector = { nul: -1, bool: -1, num: -1, int64: -1, str: -1, arr: -1, obj: -1, sig: new Map(), variants: [] };
    let objBranches = 0;
    branches.forEach((b, i) => {
      if (b.covers & KIND_NULL) sel.nul = i;
      if (b.covers & KIND_BOOL) sel.bool = i;
      if (b.covers & KIND_NUM) sel.num = i;
      if (b.covers & KIND_INT64) sel.int64 = i;
      if (b.covers & KIND_STR) sel.str = i;
      if (b.covers & KIND_ARR) sel.arr = i;
      if (b.covers & KIND_OBJ) {
        objBranches++;
        sel.obj = i;
        sel.variants.push(i);
        for (const s of b.sigs ?? []) sel.sig.set(s, i);
      }
    });
    if (objBranches > 1) sel.obj = -2;
    return { kind: K.UNION, branches: branches.map((b) => b.t), select: sel };
  }

  // ------------------------------------------------------------------------------------------ scalars

  private scalars(nulls: number, bools: boolean[], nums: number[], strs: string[], out: Branch[]): void {
    const n = nulls + bools.length + nums.length + strs.length;
    const kinds = (nulls > 0 ? 1 : 0) + (bools.length > 0 ? 1 : 0) + (nums.length > 0 ? 1 : 0) + (strs.length > 0 ? 1 : 0);
    const covers = (nulls > 0 ? KIND_NULL : 0) | (bools.length > 0 ? KIND_BOOL : 0) | (nums.length > 0 ? KIND_NUM : 0) | (strs.length > 0 ? KIND_STR : 0);
    // distinct values over every scalar kind (for a single enum or constant)
    const distinct = new Map<unknown, { v: SchemalessScalar; c: number }>();
    let overflow = false;
    const count = (v: SchemalessScalar): void => {
      if (overflow) return;
      const key = scalarKey(v);
      const e = distinct.get(key);
      if (e !== undefined) e.c++;
      else if (distinct.size >= ENUM_MAX) overflow = true;
      else distinct.set(key, { v, c: 1 });
    };
    if (nulls > 0) distinct.set(null, { v: null, c: nulls });
    for (const b of bools) count(b);
    for (const x of nums) count(x);
    for (const s of strs) count(s);
    if (!overflow && distinct.size === 1) {
      const v = distinct.values().next().value!.v;
      if (v === null) {
        out.push({ t: this.nz(SIMPLE[K.NULL]!), covers, count: n });
        return;
      }
      if (n >= 2) {
        out.push({ t: this.nz({ kind: K.CONST, value: v }), covers, count: n });
        return;
      }
    }
    // one branch per JSON kind, each in its cheapest form
    const parts: { t: SchemalessType; covers: number; count: number; cost: number }[] = [];
    if (nulls > 0) parts.push({ t: SIMPLE[K.NULL]!, covers: KIND_NULL, count: nulls, cost: 0 });
    if (bools.length > 0) {
      const allSame = bools.every((b) => b === bools[0]);
      parts.push(
        allSame && bools.length >= 2
          ? { t: { kind: K.CONST, value: bools[0]! }, covers: KIND_BOOL, count: bools.length, cost: 2 }
          : { t: SIMPLE[K.BOOL]!, covers: KIND_BOOL, count: bools.length, cost: bools.length },
      );
    }
    if (nums.length > 0) parts.push({ ...this.numbers(nums), covers: KIND_NUM, count: nums.length });
    if (strs.length > 0) parts.push({ ...this.strings(strs), covers: KIND_STR, count: strs.length });
    if (kinds > 1 && !overflow && distinct.size <= ENUM_MAX) {
      let split = n; // union index per value
      for (const p of parts) split += p.cost;
      const e = this.enumCost([...distinct.values()]);
      if (e.cost < split) {
        out.push({ t: e.t, covers, count: n });
        return;
      }
    }
    for (const p of parts) out.push({ t: this.nz(p.t), covers: p.covers, count: p.count });
  }

  /** Dictionary bytes of one scalar (as written by writeAny). */
  private scalarDictSize(v: SchemalessScalar): number {
    if (v === null || typeof v === "boolean") return 1;
    if (typeof v === "number") {
      if (v >= 0 && v < 32 && Number.isInteger(v) && (v !== 0 || 1 / v > 0)) return 1;
      return 1 + this.numSize(v, false);
    }
    const len = utf8Length(v);
    return 1 + varintSize(len * 2) + len;
  }

  private numSize(x: number, int: boolean): number {
    const w = this.scratch;
    w.pos = 0;
    if (int) w.int(x);
    else w.num(x);
    return w.pos;
  }

  /** An ENUM of the distinct values (most frequent first), and its cost: dictionary plus body bytes. */
  private enumCost(entries: { v: SchemalessScalar; c: number }[]): { t: SchemalessEnumType; cost: number } {
    entries.sort((a, b) => b.c - a.c);
    let cost = 1 + varintSize(entries.length);
    entries.forEach((e, i) => (cost += this.scalarDictSize(e.v) + e.c * varintSize(i)));
    return { t: { kind: K.ENUM, values: entries.map((e) => e.v) }, cost };
  }

  private numbers(nums: number[]): { t: SchemalessType; cost: number } {
    const counts = new Map<unknown, { v: number; c: number }>();
    let overflow = false;
    for (const x of nums) {
      const key = scalarKey(x);
      const e = counts.get(key);
      if (e !== undefined) e.c++;
      else if (counts.size >= ENUM_MAX) {
        overflow = true;
        break;
      } else counts.set(key, { v: x, c: 1 });
    }
    if (!overflow && counts.size === 1 && nums.length >= 2) return { t: { kind: K.CONST, value: nums[0]! }, cost: this.scalarDictSize(nums[0]!) + 1 };
    const cost = (int: boolean): number => {
      let n = 0;
      if (!overflow) for (const e of counts.values()) n += e.c * this.numSize(e.v, int);
      else for (const x of nums) n += this.numSize(x, int);
      return n;
    };
    let plain = { t: SIMPLE[K.NUM]!, cost: cost(false) };
    if (nums.every(isWireInt)) {
      // INT unless NUM is as small: integers beyond 2^53 take 9 bytes either way, and NUM's float64 decodes faster
      const asInt = cost(true);
      if (asInt < plain.cost || (asInt === plain.cost && nums.every(isSafeInt))) plain = { t: SIMPLE[K.INT]!, cost: asInt };
    }
    if (overflow) return plain;
    const e = this.enumCost([...counts.values()]);
    return e.cost < plain.cost ? e : plain;
  }

  /** String sites: plain strings, a compact date form, decimal strings, or an enum, whichever is smallest. */
  private strings(strs: string[]): { t: SchemalessType; cost: number } {
    const counts = new Map<string, { v: string; c: number }>();
    for (const s of strs) {
      const e = counts.get(s);
      if (e !== undefined) e.c++;
      else counts.set(s, { v: s, c: 1 });
    }
    if (counts.size === 1 && strs.length >= 2) return { t: { kind: K.CONST, value: strs[0]! }, cost: this.scalarDictSize(strs[0]!) + 1 };
    // plain: first occurrence a literal, repeats references (strings beyond the table limit: literals again)
    const ref = this.refSize;
    let plainCost = 0;
    let looksDateTime = 0;
    let looksDate = 0;
    let looksDecimal = 0;
    for (const e of counts.values()) {
      const s = e.v;
      const len = utf8Length(s);
      const lit = varintSize(len * 2) + len;
      plainCost += len > 0 && len <= INTERN_MAX_BYTES ? lit + (e.c - 1) * ref : e.c * lit;
      const n = s.length;
      if ((n === 20 || n === 24) && s.charCodeAt(10) === 84) looksDateTime += e.c;
      else if (n === 10 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45) looksDate += e.c;
      else if (n >= 4 && n <= 21 && isCanonicalInteger(s)) looksDecimal += e.c;
    }
    let best: { t: SchemalessType; cost: number } = { t: SIMPLE[K.STR]!, cost: plainCost };
    const half = strs.length / 2;
    if (looksDateTime >= half) best = this.cheaper(best, K.DATETIME, counts);
    if (looksDate >= half) best = this.cheaper(best, K.DATE, counts);
    if (looksDecimal >= half) best = this.cheaper(best, K.DECSTR, counts);
    if (counts.size <= ENUM_MAX && counts.size < strs.length) {
      const e = this.enumCost([...counts.values()]);
      if (e.cost < best.cost) best = e;
    }
    return best;
  }

  /** Cost of a string site in one of the compact string forms, measured with a scratch writer. */
  private cheaper(best: { t: SchemalessType; cost: number }, kind: 6 | 7 | 8, counts: Map<string, { v: string; c: number }>): { t: SchemalessType; cost: number } {
    const w = this.scratch;
    let cost = 0;
    for (const e of counts.values()) {
      w.reset();
      if (kind === K.DATETIME) w.dateTime(e.v);
      else if (kind === K.DATE) w.date(e.v);
      else w.decimalString(e.v);
      // a literal fallback is a reference after its first occurrence
      const compact = kind === K.DATETIME ? parseDateTime(e.v) !== undefined : kind === K.DATE ? parseDate(e.v) !== undefined : w.buf[0] === 1;
      cost += compact ? e.c * w.pos : w.pos + (e.c - 1) * (1 + this.refSize);
      if (cost >= best.cost) return best;
    }
    return { t: SIMPLE[kind]!, cost };
  }

  // ------------------------------------------------------------------------------------------ objects

  private objects(objs: Record<string, unknown>[], depth: number, out: Branch[]): void {
    const shapes = new Map<string, { keys: string[]; count: number }>();
    const byKey = new Map<string, unknown[]>();
    let occurrences = 0;
    for (const o of objs) {
      const keys = ownKeys(o);
      occurrences += keys.length;
      const sig = JSON.stringify(keys);
      const s = shapes.get(sig);
      if (s !== undefined) s.count++;
      else shapes.set(sig, { keys, count: 1 });
      for (const k of keys) {
        let list = byKey.get(k);
        if (list === undefined) byKey.set(k, (list = []));
        list.push(o[k]);
      }
    }
    const distinctKeys = byKey.size;
    if (this.mapLike(byKey, occurrences)) {
      out.push({ t: this.map(byKey, depth), covers: KIND_OBJ, count: objs.length });
      return;
    }
    const variants = clusterShapes([...shapes.entries()].map(([sig, s]) => ({ sig, ...s })));
    if (variants.length > MAX_VARIANTS && distinctKeys > 0) {
      out.push({ t: this.map(byKey, depth), covers: KIND_OBJ, count: objs.length });
      return;
    }
    const fieldTypes = new Map<string, SchemalessType>();
    const fieldType = (k: string): SchemalessType => {
      let t = fieldTypes.get(k);
      if (t === undefined) fieldTypes.set(k, (t = this.infer(byKey.get(k)!, depth)));
      return t;
    };
    for (const v of variants) {
      const optional = v.order.map((k) => v.present.get(k)! < v.members);
      const types = v.order.map(fieldType);
      out.push({ t: objectType(v.order, optional, types), covers: KIND_OBJ, count: v.members, sigs: v.sigs });
    }
  }

  /**
   * Keys that are data rather than names (IDs, numbers, URLs), each in about one object, with values of one
   * kind: the object is a map (keys travel in the body, one value type) rather than a template per key.
   */
  private mapLike(byKey: Map<string, unknown[]>, occurrences: number): boolean {
    const k = byKey.size;
    if (k < 8 || occurrences > 1.5 * k) return false;
    let dataKeys = 0;
    const kinds = new Map<string, number>();
    for (const [key, vals] of byKey) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*$/.test(key) || /\d{4,}/.test(key) || key.length > 40) dataKeys++;
      for (const v of vals) {
        const kind = v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
    }
    const dominant = Math.max(...kinds.values()) / occurrences;
    return (dataKeys >= k / 2 && dominant >= 0.75) || (k >= 64 && dominant >= 0.9);
  }

  private map(byKey: Map<string, unknown[]>, depth: number): SchemalessMapType {
    const values: unknown[] = [];
    let decimal = 0;
    for (const [key, vals] of byKey) {
      if (isCanonicalInteger(key)) decimal++;
      for (const v of vals) values.push(v);
    }
    return { kind: K.MAP, keyKind: byKey.size > 0 && decimal >= 0.9 * byKey.size ? K.DECSTR : K.STR, values: this.infer(values, depth) };
  }
}

function objectType(keys: string[], optional: boolean[], types: SchemalessType[]): SchemalessObjectType {
  let opt = 0;
  let width = 0;
  for (let i = 0; i < keys.length; i++) {
    if (optional[i]) opt++;
    else width += schemalessMinWidth(types[i]!);
  }
  return { kind: K.OBJECT, keys, optional, types, optionalCount: opt, minWidth: Math.min(2 ** 32, width + Math.ceil(opt / 8)) };
}

/**
 * Group shapes (ordered key lists) into templates. Most frequent first; a shape joins the template it overlaps
 * most when its keys keep their order there and the presence bitmap stays small, else it starts a template.
 */
function clusterShapes(shapes: { sig: string; keys: string[]; count: number }[]): Variant[] {
  shapes.sort((a, b) => b.count - a.count);
  const variants: Variant[] = [];
  for (const s of shapes) {
    let best: { v: Variant; order: string[]; score: number } | undefined;
    for (const v of variants) {
      const order = mergeOrder(v.order, s.keys);
      if (order === undefined) continue;
      const mine = new Set(s.keys);
      let shared = 0;
      for (const k of v.order) if (mine.has(k)) shared++;
      const union = order.length;
      const score = union === 0 ? 1 : shared / union;
      // keys optional after the merge: those not in every member
      let optAfter = 0;
      for (const k of order) {
        const inV = v.present.get(k) ?? 0;
        if (inV + (mine.has(k) ? s.count : 0) < v.members + s.count) optAfter++;
      }
      let optBefore = 0;
      for (const k of v.order) if (v.present.get(k)! < v.members) optBefore++;
      const ok = score >= 0.5 || Math.ceil(optAfter / 8) <= Math.max(1, Math.ceil(optBefore / 8));
      if (ok && (best === undefined || score > best.score)) best = { v, order, score };
    }
    if (best === undefined) {
      variants.push({ order: s.keys.slice(), members: s.count, present: new Map(s.keys.map((k) => [k, s.count])), sigs: [s.sig] });
      if (variants.length > MAX_VARIANTS) return variants; // too many templates: the caller makes a map of them
    } else {
      const v = best.v;
      v.order = best.order;
      v.members += s.count;
      for (const k of s.keys) v.present.set(k, (v.present.get(k) ?? 0) + s.count);
      v.sigs.push(s.sig);
    }
  }
  return variants;
}

/** A key order that has both `a` and `b` as subsequences (their common keys in the same order), or undefined. */
function mergeOrder(a: string[], b: string[]): string[] | undefined {
  const posA = new Map<string, number>();
  a.forEach((k, i) => posA.set(k, i));
  let last = -1;
  for (const k of b) {
    const p = posA.get(k);
    if (p !== undefined) {
      if (p < last) return undefined;
      last = p;
    }
  }
  const out: string[] = [];
  let i = 0;
  for (const k of b) {
    const p = posA.get(k);
    if (p === undefined) out.push(k);
    else {
      while (i <= p) out.push(a[i++]!);
    }
  }
  while (i < a.length) out.push(a[i++]!);
  return out;
}

/** Writes the dictionary: composite types depth first, a type equal to one written before as a REF. */
class DictionaryWriter {
  private ids = new Map<SchemalessType, number>();
  private keys = new Map<string, number>();
  /** Canonical id -> index among the numbered (composite) types written so far. */
  private written = new Map<number, number>();
  private next = 0;

  constructor(
    private readonly w: Writer,
    private readonly sw: StrWriter,
  ) {}

  /** Structural identity: equal ids for types that encode the same way (written once, then as REF). */
  canon(t: SchemalessType): number {
    let id = this.ids.get(t);
    if (id !== undefined) return id;
    let key: string;
    switch (t.kind) {
      case K.CONST:
        key = JSON.stringify(["c", scalarText(t.value)]);
        break;
      case K.ENUM:
        key = JSON.stringify(["e", t.values.map(scalarText)]);
        break;
      case K.ARRAY:
        key = `a${this.canon(t.items)}`;
        break;
      case K.OBJECT:
        key = JSON.stringify(["o", t.keys, t.optional.map((b) => (b ? 1 : 0)), t.types.map((x) => this.canon(x))]);
        break;
      case K.MAP:
        key = `m${t.keyKind},${this.canon(t.values)}`;
        break;
      case K.UNION:
        key = `u${t.branches.map((x) => this.canon(x)).join(",")}`;
        break;
      default:
        key = `s${t.kind}`;
    }
    id = this.keys.get(key);
    if (id === undefined) this.keys.set(key, (id = this.keys.size));
    this.ids.set(t, id);
    return id;
  }

  type(t: SchemalessType): void {
    const w = this.w;
    if (t.kind <= K.INT64) {
      w.byte(t.kind);
      return;
    }
    const id = this.canon(t);
    const at = this.written.get(id);
    if (at !== undefined) {
      w.byte(K.REF);
      w.varint(at);
      return;
    }
    w.byte(t.kind);
    switch (t.kind) {
      case K.CONST:
        writeScalar(w, t.value, this.sw);
        break;
      case K.ENUM:
        w.varint(t.values.length);
        for (const v of t.values) writeScalar(w, v, this.sw);
        break;
      case K.ARRAY:
        this.type(t.items);
        break;
      case K.OBJECT: {
        const n = t.keys.length;
        w.varint(n);
        for (let b = 0; b < n; b += 8) {
          let byte = 0;
          for (let i = b; i < n && i < b + 8; i++) if (t.optional[i]) byte |= 1 << (i - b);
          w.byte(byte);
        }
        for (let i = 0; i < n; i++) {
          this.sw.write(w, t.keys[i]!);
          this.type(t.types[i]!);
        }
        break;
      }
      case K.MAP:
        w.byte(t.keyKind);
        this.type(t.values);
        break;
      case K.UNION:
        w.varint(t.branches.length);
        for (const b of t.branches) this.type(b);
        break;
    }
    this.written.set(id, this.next++);
  }
}

/** A CONST or ENUM value: the `any` tags of scalars (FORMAT §4.8), strings in the STR form (value table). */
function writeScalar(w: Writer, v: SchemalessScalar, sw: StrWriter): void {
  if (typeof v === "string") {
    w.byte(AnyTag.STRING);
    sw.write(w, v);
  } else writeAny(w, v);
}

function scalarText(v: SchemalessScalar): string {
  if (typeof v === "number") return v === 0 && 1 / v < 0 ? "n-0" : "n" + v;
  if (typeof v === "string") return "s" + v;
  return String(v);
}

function enumIndex(t: SchemalessEnumType): Map<unknown, number> {
  let m = t.index;
  if (m === undefined) {
    m = new Map();
    t.values.forEach((v, i) => m!.set(scalarKey(v), i));
    t.index = m;
  }
  return m;
}

/** Accepts `keys` (an object's key list) when they are a subsequence of the template's keys with every required key. */
function fitsTemplate(t: SchemalessObjectType, keys: string[]): boolean {
  let j = 0;
  for (let i = 0; i < t.keys.length; i++) {
    if (j < keys.length && keys[j] === t.keys[i]) j++;
    else if (!t.optional[i]) return false;
  }
  return j === keys.length;
}

function pick(t: SchemalessUnionType, v: unknown): number {
  const s = t.select!;
  let i: number;
  switch (typeof v) {
    case "string":
      i = s.str;
      break;
    case "number":
      i = s.int64 >= 0 && isSafeInt(v) ? s.int64 : s.num;
      break;
    case "boolean":
      i = s.bool;
      break;
    case "bigint":
      i = s.int64;
      break;
    default:
      if (v === null) i = s.nul;
      else if (Array.isArray(v)) i = s.arr;
      else if (s.obj !== -2) i = s.obj;
      else {
        const keys = ownKeys(v as Record<string, unknown>);
        const sig = JSON.stringify(keys);
        const hit = s.sig.get(sig);
        if (hit !== undefined) i = hit;
        else {
          i = s.variants.find((b) => fitsTemplate(t.branches[b] as SchemalessObjectType, keys)) ?? -1;
          s.sig.set(sig, i);
        }
      }
  }
  if (i < 0) throw new ToonError("INVALID_VALUE", "internal: no union branch for the value");
  return i;
}

/**
 * Strings at STR positions (and STR map keys, and the strings of the dictionary) have a table of their own, the
 * *value table*, and two more forms: a prefix of an earlier string followed by a suffix (URLs, paths and IDs
 * share long prefixes). The earlier string is either the previous string of the same *site* (the same slot of
 * the same dictionary type: the `url` of the previous array element) or the previous string of the message.
 *
 *   h even        a literal of h/2 UTF-8 bytes (h = 0: the empty string)
 *   h = 4i + 1    a reference to entry i of the value table
 *   h = 8p + 3    the first p code points of the site's previous string, then varint n and an n-byte suffix
 *   h = 8p + 7    the same from the message's previous string
 *
 * Literals and prefixed strings of 1..256 UTF-8 bytes (the whole string) enter the value table.
 */
export interface SchemalessSite {
  /** The last string read or written at this site ("" before the first). */
  prev: string;
}

/** Common prefix of `a` and `b`: UTF-16 units (never splitting a surrogate pair) and code points. */
function commonPrefix(a: string, b: string): { units: number; points: number } {
  const max = Math.min(a.length, b.length);
  let u = 0;
  while (u < max && a.charCodeAt(u) === b.charCodeAt(u)) u++;
  if (u > 0 && u < b.length) {
    const c = b.charCodeAt(u - 1);
    if (c >= 0xd800 && c < 0xdc00) u--;
  }
  let p = u;
  for (let i = 0; i < u; i++) {
    const c = b.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00) {
      p--;
      i++;
    }
  }
  if (p > MAX_PREFIX) {
    // stay within the limit: the first MAX_PREFIX code points
    u = 0;
    for (let i = 0; i < MAX_PREFIX; i++) u += b.charCodeAt(u) >= 0xd800 && b.charCodeAt(u) < 0xdc00 ? 2 : 1;
    p = MAX_PREFIX;
  }
  return { units: u, points: p };
}

class StrWriter {
  private table = new Map<string, number>();
  private prev = "";
  /** Code points copied by prefixed strings so far (bounded, see PREFIX_BUDGET_FACTOR). */
  private copied = 0;
  /** Canonical id of a type: types the dictionary writes once (REF) share their sites, as in the decoder. */
  canon: (t: SchemalessType) => number = () => 0;
  private shared = new Map<number, SchemalessSite[]>();

  sitesOf(t: SchemalessType & { sites?: SchemalessSite[] }): SchemalessSite[] {
    let s = t.sites;
    if (s === undefined) {
      const id = this.canon(t);
      s = this.shared.get(id);
      if (s === undefined) this.shared.set(id, (s = []));
      t.sites = s;
    }
    return s;
  }

  write(w: Writer, s: string, site?: SchemalessSite): void {
    const prev = this.prev;
    this.prev = s;
    const sitePrev = site === undefined ? "" : site.prev;
    if (site !== undefined) site.prev = s;
    if (s.length === 0) {
      w.byte(0);
      return;
    }
    const ref = this.table.get(s);
    if (ref !== undefined) {
      w.varint(ref * 4 + 1);
      return;
    }
    const len = utf8Length(s);
    if (len <= INTERN_MAX_BYTES) this.table.set(s, this.table.size);
    let best = varintSize(2 * len) + len;
    let form = 0;
    let chosen = { units: 0, points: 0 };
    for (const [from, tag] of [
      [sitePrev, 3],
      [prev, 7],
    ] as const) {
      if (from.length < 3) continue;
      const c = commonPrefix(from, s);
      if (c.points < 3) continue;
      const suffixLen = len - utf8Length(s.slice(0, c.units));
      const cost = varintSize(8 * c.points + tag) + varintSize(suffixLen) + suffixLen;
      if (cost < best) {
        best = cost;
        form = tag;
        chosen = c;
      }
    }
    if (form !== 0 && this.copied + chosen.points <= PREFIX_BUDGET_FACTOR * w.pos + NODE_BUDGET_BASE) {
      this.copied += chosen.points;
      const suffix = s.slice(chosen.units);
      const suffixLen = utf8Length(suffix);
      w.varint(8 * chosen.points + form);
      w.varint(suffixLen);
      utf8Bytes(w, suffix, suffixLen);
      return;
    }
    w.varint(2 * len);
    utf8Bytes(w, s, len);
  }
}

function utf8Bytes(w: Writer, s: string, len: number): void {
  w.ensure(len);
  w.pos = writeUtf8(s, w.buf, w.pos);
}

/** The decoder's side of STR strings (see StrWriter): the value table and the previous string. */
export class SchemalessStrings {
  readonly table: string[] = [];
  prev = "";
  copied = 0;

  constructor(private readonly prefixBudget: number) {}

  /** One string; `site` is undefined in the dictionary (no site form there). */
  read(r: Reader, site?: SchemalessSite): string {
    const h = r.varint();
    let s: string;
    if (h % 2 === 0) {
      const n = h / 2;
      s = n === 0 ? "" : this.utf8(r, n);
      if (n > 0 && n <= INTERN_MAX_BYTES) this.table.push(s);
    } else if (h % 4 === 1) {
      const e = this.table[(h - 1) / 4];
      if (e === undefined) throw r.fail("INVALID_ENCODING", "string reference to an unknown entry");
      s = e;
    } else {
      const fromSite = h % 8 === 3;
      const p = (h - (fromSite ? 3 : 7)) / 8;
      if (p === 0 || p > MAX_PREFIX) throw r.fail("INVALID_ENCODING", `string prefix of ${p} code points (1..${MAX_PREFIX})`);
      if (fromSite && site === undefined) throw r.fail("INVALID_ENCODING", "a site prefix in the dictionary");
      if ((this.copied += p) > this.prefixBudget) throw r.fail("INVALID_ENCODING", `prefixed strings copy more than ${this.prefixBudget} code points (the message's length allows no more)`);
      const prev = fromSite ? site!.prev : this.prev;
      let u = 0;
      for (let i = 0; i < p; i++) {
        if (u >= prev.length) throw r.fail("INVALID_ENCODING", `string prefix of ${p} code points, but the earlier string has fewer`);
        const c = prev.charCodeAt(u);
        u += c >= 0xd800 && c < 0xdc00 ? 2 : 1;
      }
      const n = r.varint();
      const prefix = prev.slice(0, u);
      s = n === 0 ? prefix : prefix + this.utf8(r, n);
      if (utf8Length(prefix) + n <= INTERN_MAX_BYTES) this.table.push(s);
    }
    this.prev = s;
    if (site !== undefined) site.prev = s;
    return s;
  }

  private utf8(r: Reader, n: number): string {
    if (n > r.end - r.pos) throw r.truncated();
    const s = readUtf8(r.buf, r.pos, n);
    if (s === undefined) throw r.fail("INVALID_UTF8", "string is not well-formed UTF-8");
    r.pos += n;
    return s;
  }
}

/** The body: `v` encoded with the type inferred for it. */
/** The site of slot `i` (created on first use). */
export function siteAt(sites: SchemalessSite[], i: number): SchemalessSite {
  return (sites[i] ??= { prev: "" });
}

function writeValue(w: Writer, v: unknown, t: SchemalessType, sw: StrWriter, site: SchemalessSite | undefined): void {
  switch (t.kind) {
    case K.ANY:
      writeAny(w, v);
      return;
    case K.NULL:
    case K.CONST:
      return;
    case K.BOOL:
      w.byte(v ? 1 : 0);
      return;
    case K.INT:
      w.int(v as number);
      return;
    case K.INT64:
      if (typeof v === "bigint") w.bigInt(v);
      else w.int(v as number);
      return;
    case K.NUM:
      w.num(v as number);
      return;
    case K.STR:
      sw.write(w, v as string, site);
      return;
    case K.DATETIME:
      w.dateTime(v as string);
      return;
    case K.DATE:
      w.date(v as string);
      return;
    case K.DECSTR:
      w.decimalString(v as string);
      return;
    case K.ENUM:
      w.varint(enumIndex(t).get(scalarKey(v))!);
      return;
    case K.ARRAY: {
      const a = v as unknown[];
      const n = a.length;
      w.varint(n);
      const items = t.items;
      const s = items.kind === K.STR ? siteAt(sw.sitesOf(t), 0) : undefined;
      for (let i = 0; i < n; i++) writeValue(w, a[i], items, sw, s);
      return;
    }
    case K.OBJECT: {
      const o = v as Record<string, unknown>;
      const keys = t.keys;
      const n = keys.length;
      if (t.optionalCount > 0) {
        let byte = 0;
        let bit = 0;
        for (let i = 0; i < n; i++) {
          if (!t.optional[i]) continue;
          const k = keys[i]!;
          if (hasOwnProperty.call(o, k) && o[k] !== undefined) byte |= 1 << (bit & 7);
          if ((++bit & 7) === 0) {
            w.byte(byte);
            byte = 0;
          }
        }
        if ((bit & 7) !== 0) w.byte(byte);
      }
      const sites = sw.sitesOf(t);
      for (let i = 0; i < n; i++) {
        const k = keys[i]!;
        if (t.optional[i] && !(hasOwnProperty.call(o, k) && o[k] !== undefined)) continue;
        const ct = t.types[i]!;
        writeValue(w, o[k], ct, sw, ct.kind === K.STR ? siteAt(sites, i) : undefined);
      }
      return;
    }
    case K.MAP: {
      const o = v as Record<string, unknown>;
      const keys = ownKeys(o);
      w.varint(keys.length);
      const decimal = t.keyKind === K.DECSTR;
      const sites = sw.sitesOf(t);
      const valueSite = t.values.kind === K.STR ? siteAt(sites, 0) : undefined;
      const keySite = siteAt(sites, 1);
      for (const k of keys) {
        if (decimal) w.decimalString(k);
        else sw.write(w, k, keySite);
        writeValue(w, o[k], t.values, sw, valueSite);
      }
      return;
    }
    case K.UNION: {
      const i = pick(t, v);
      w.varint(i);
      const b = t.branches[i]!;
      writeValue(w, v, b, sw, b.kind === K.STR ? siteAt(sw.sitesOf(t), i) : undefined);
      return;
    }
  }
}

// ------------------------------------------------------------------------------------------------ decoding

/**
 * Check the header of a schemaless message and position `r` after it (on the uncompressed form when the
 * COMPRESSED flag is set). Returns the flags.
 */
export function readSchemalessHeader(r: Reader): number {
  const start = r.pos;
  const h = peekHeader(r);
  if (h.version !== FORMAT_VERSION) {
    throw new ToonError("UNSUPPORTED_VERSION", `format version ${h.version}; this runtime reads version ${FORMAT_VERSION}`, { offset: start + 4 });
  }
  if ((h.flags & Flag.EMBEDDED_DICTIONARY) === 0) {
    throw new ToonError(
      "FINGERPRINT_MISMATCH",
      h.fingerprint === undefined
        ? "message has no embedded dictionary (and no fingerprint): not a schemaless message"
        : `message was written with the fixed dictionary ${hex16(h.fingerprint)}, not schemaless: decode it with its generated codec (toon-gen decode --schema)`,
      { offset: start + 5 },
    );
  }
  const unknown = h.flags & ~SCHEMALESS_FLAGS;
  if (unknown !== 0) throw new ToonError("UNSUPPORTED_FLAGS", `header flags ${hex16(unknown)} are not supported by the schemaless decoder`, { offset: start + 5 });
  if (h.flags & Flag.COMPRESSED) inflateReader(r, start);
  return h.flags;
}

interface TypeReader {
  /** Composite types read so far, in the order they were completed (REF indices). */
  table: SchemalessType[];
  maxDepth: number;
  strings: SchemalessStrings;
}

/**
 * Read the embedded dictionary (the root type); `r` must be positioned after the header. `cx` is the body's
 * decoding state: dictionary and body share the value table of STR strings.
 */
export function readSchemalessDictionary(r: Reader, cx: SchemalessBodyReader): SchemalessType {
  r.at = "";
  return readType(r, { table: [], maxDepth: 2 * cx.maxDepth + 2, strings: cx.strings }, 0);
}

function readType(r: Reader, cx: TypeReader, depth: number): SchemalessType {
  if (depth > cx.maxDepth) throw r.fail("DEPTH_LIMIT", `embedded dictionary nested deeper than ${cx.maxDepth}`);
  const kind = r.byte();
  if (kind <= K.INT64) return SIMPLE[kind]!;
  let t: SchemalessType;
  switch (kind) {
    case K.CONST:
      t = { kind: K.CONST, value: readScalar(r, cx.strings) };
      break;
    case K.ENUM: {
      const n = r.count(1);
      if (n === 0) throw r.fail("INVALID_ENCODING", "enum type with no values");
      const values: SchemalessScalar[] = [];
      for (let i = 0; i < n; i++) values.push(readScalar(r, cx.strings));
      t = { kind: K.ENUM, values };
      break;
    }
    case K.ARRAY:
      t = { kind: K.ARRAY, items: readType(r, cx, depth + 1) };
      break;
    case K.OBJECT: {
      const n = r.count(2);
      const optional: boolean[] = [];
      for (let b = 0; b < n; b += 8) {
        const inByte = Math.min(8, n - b);
        const byte = r.bits(inByte >= 8 ? 0xff : (1 << inByte) - 1);
        for (let i = 0; i < inByte; i++) optional.push((byte & (1 << i)) !== 0);
      }
      const keys: string[] = [];
      const types: SchemalessType[] = [];
      const seen = new Set<string>();
      for (let i = 0; i < n; i++) {
        const k = cx.strings.read(r);
        if (seen.has(k)) throw r.fail("INVALID_ENCODING", `object type lists the key ${JSON.stringify(k)} twice`);
        seen.add(k);
        keys.push(k);
        types.push(readType(r, cx, depth + 1));
      }
      t = objectType(keys, optional, types);
      break;
    }
    case K.MAP: {
      const keyKind = r.byte();
      if (keyKind !== K.STR && keyKind !== K.DECSTR) {
        r.pos--;
        throw r.fail("INVALID_ENCODING", `map key kind ${keyKind} (expected 05 or 08)`);
      }
      t = { kind: K.MAP, keyKind, values: readType(r, cx, depth + 1) };
      break;
    }
    case K.UNION: {
      const n = r.count(1);
      if (n < 2) throw r.fail("INVALID_ENCODING", `union type with ${n} branch${n === 1 ? "" : "es"}`);
      const branches: SchemalessType[] = [];
      for (let i = 0; i < n; i++) branches.push(readType(r, cx, depth + 1));
      t = { kind: K.UNION, branches };
      break;
    }
    case K.REF: {
      const i = r.varint();
      const ref = cx.table[i];
      if (ref === undefined) throw r.fail("INVALID_ENCODING", `type reference ${i} to a type not yet defined (${cx.table.length} so far)`);
      return ref;
    }
    default:
      r.pos--;
      throw r.fail("INVALID_ENCODING", `unknown type kind ${kind}`);
  }
  cx.table.push(t);
  return t;
}

/** A CONST or ENUM value: an `any` value that must be a scalar. */
function readScalar(r: Reader, strings: SchemalessStrings): SchemalessScalar {
  if (r.pos >= r.end) throw r.truncated();
  const tag = r.buf[r.pos]!;
  if (tag === AnyTag.ARRAY || tag === AnyTag.OBJECT) throw r.fail("INVALID_ENCODING", "a constant or enum value must be a scalar");
  if (tag === AnyTag.STRING) {
    r.pos++;
    return strings.read(r);
  }
  return readAny(r) as SchemalessScalar;
}

export interface SchemalessBodyReader {
  nodes: number;
  budget: number;
  maxDepth: number;
  strings: SchemalessStrings;
}

/** Decoding state for the body of a message of `length` bytes. */
export function schemalessBodyReader(length: number, maxDepth = DEFAULT_MAX_DEPTH): SchemalessBodyReader {
  return { nodes: 0, budget: schemalessNodeBudget(length), maxDepth, strings: new SchemalessStrings(PREFIX_BUDGET_FACTOR * length + NODE_BUDGET_BASE) };
}

/** Decode a schemaless message (EMBEDDED_DICTIONARY) back to the JSON value it was encoded from. */
export function decodeSchemaless(bytes: Uint8Array, options?: SchemalessDecodeOptions): unknown {
  const r = new Reader(bytes, 0, undefined, options);
  readSchemalessHeader(r);
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
  const cx = schemalessBodyReader(r.end, maxDepth);
  const root = readSchemalessDictionary(r, cx);
  r.maxDepth = maxDepth;
  const v = readSchemalessValue(r, root, cx, 0, { prev: "" });
  r.done();
  return v;
}

/** How many values a message of `length` bytes may decode to (docs/FORMAT.md §10.4, "Bounds"). */
export function schemalessNodeBudget(length: number): number {
  return NODE_BUDGET_FACTOR * length + NODE_BUDGET_BASE;
}

/** Read one value of type `t` (the body reader; `depth` counts enclosing arrays, objects and maps). */
export function readSchemalessValue(r: Reader, t: SchemalessType, cx: SchemalessBodyReader, depth: number, site?: SchemalessSite): unknown {
  while (t.kind === K.UNION) {
    const i = r.index(t.branches.length);
    site = siteAt((t.sites ??= []), i);
    t = t.branches[i]!;
  }
  if (++cx.nodes > cx.budget) throw r.fail("INVALID_ENCODING", `message decodes to more than ${cx.budget} values (its length allows no more)`);
  switch (t.kind) {
    case K.ANY: {
      r.depth = depth;
      const v = readAny(r);
      r.at = "";
      return v;
    }
    case K.NULL:
      return null;
    case K.BOOL:
      return r.bool();
    case K.INT:
      return r.int();
    case K.INT64:
      return r.int64();
    case K.NUM:
      return r.num();
    case K.STR:
      return cx.strings.read(r, site ?? { prev: "" });
    case K.DATETIME:
      return r.dateTime();
    case K.DATE:
      return r.date();
    case K.DECSTR:
      return r.decimalString();
    case K.CONST:
      return t.value;
    case K.ENUM:
      return t.values[r.index(t.values.length)];
    case K.ARRAY: {
      if (depth >= cx.maxDepth) throw r.fail("DEPTH_LIMIT", `nesting deeper than ${cx.maxDepth}`);
      const n = r.varint();
      const width = schemalessMinWidth(t.items);
      if (width > 0 ? n * width > r.end - r.pos : n > cx.budget - cx.nodes) {
        throw r.fail(width > 0 ? "TRUNCATED" : "INVALID_ENCODING", `count ${n} exceeds what the input can hold`);
      }
      const a: unknown[] = [];
      const items = t.items;
      const s = items.kind === K.STR ? siteAt((t.sites ??= []), 0) : undefined;
      let i = 0;
      try {
        for (; i < n; i++) a.push(readSchemalessValue(r, items, cx, depth + 1, s));
      } catch (e) {
        rethrowAtIndex(e, "", i);
      }
      return a;
    }
    case K.OBJECT: {
      if (depth >= cx.maxDepth) throw r.fail("DEPTH_LIMIT", `nesting deeper than ${cx.maxDepth}`);
      const n = t.keys.length;
      const opt = t.optionalCount;
      let bits: number[] | undefined;
      if (opt > 0) {
        bits = [];
        for (let b = 0; b < opt; b += 8) {
          const inByte = Math.min(8, opt - b);
          bits.push(r.bits(inByte >= 8 ? 0xff : (1 << inByte) - 1));
        }
      }
      const o: Record<string, unknown> = {};
      const sites = (t.sites ??= []);
      let k = "";
      try {
        for (let i = 0, bit = 0; i < n; i++) {
          k = t.keys[i]!;
          if (t.optional[i]) {
            const present = (bits![bit >> 3]! & (1 << (bit & 7))) !== 0;
            bit++;
            if (!present) continue;
          }
          const ct = t.types[i]!;
          const v = readSchemalessValue(r, ct, cx, depth + 1, ct.kind === K.STR ? siteAt(sites, i) : undefined);
          if (k === "__proto__") setOwn(o, k, v);
          else o[k] = v;
        }
      } catch (e) {
        rethrowAt(e, pointerSegment(k));
      }
      return o;
    }
    case K.MAP: {
      if (depth >= cx.maxDepth) throw r.fail("DEPTH_LIMIT", `nesting deeper than ${cx.maxDepth}`);
      const n = r.varint();
      if (n * (1 + schemalessMinWidth(t.values)) > r.end - r.pos) throw r.fail("TRUNCATED", `count ${n} exceeds what the input can hold`);
      const o: Record<string, unknown> = {};
      const decimal = t.keyKind === K.DECSTR;
      const sites = (t.sites ??= []);
      const valueSite = t.values.kind === K.STR ? siteAt(sites, 0) : undefined;
      const keySite = siteAt(sites, 1);
      let k = "";
      try {
        for (let i = 0; i < n; i++) {
          k = decimal ? r.decimalString() : cx.strings.read(r, keySite);
          if (hasOwnProperty.call(o, k)) throw r.fail("INVALID_ENCODING", `duplicate key ${JSON.stringify(k)}`);
          setOwn(o, k, readSchemalessValue(r, t.values, cx, depth + 1, valueSite));
        }
      } catch (e) {
        rethrowAt(e, pointerSegment(k));
      }
      return o;
    }
  }
  throw r.fail("INVALID_ENCODING", "internal: unknown type");
}
