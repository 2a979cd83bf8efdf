/**
 * Type inference: the dictionary `encodeSchemaless` embeds, from the value itself. A prewalk checks the value is
 * JSON and counts it; the inferrer then picks one type per position (enums, date forms, templates for objects of
 * the same shape, unions with a branch selector) by estimated size, which never affects correctness.
 */
import { pointerSegment, rethrowAt, ToonError } from "../wire/errors.ts";
import { parseDate, parseDateTime } from "../wire/dates.ts";
import { isCanonicalInteger, Writer } from "../wire/writer.ts";
import { DEFAULT_MAX_DEPTH, INTERN_MAX_BYTES } from "../wire/wire.ts";
import { K, objectType, type SchemalessEnumType, type SchemalessMapType, type SchemalessScalar, type SchemalessType, SIMPLE } from "./types.ts";
import { hasOwnProperty, isSafeInt, isWireInt, objectProto, ownKeys, scalarKey, utf8Length, varintSize } from "./json-values.ts";

export interface Prewalk {
  nodes: number;
  strings: Set<string>;
  stringCap: number;
}

const TWO_63 = -(2n ** 63n);

const TWO_64 = 2n ** 64n;

/** Check that `v` is a JSON value (with a path on failure), count its nodes and its distinct short strings. */
export function prewalk(v: unknown, depth: number, pre: Prewalk): void {
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

/** Union branch selection, built with the union. -1: no branch takes values of that JSON kind. */
export interface Selector {
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
export class Inferrer {
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
