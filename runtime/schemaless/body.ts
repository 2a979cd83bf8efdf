/**
 * The body: the value written and read positionally by its inferred type, as the schema-driven format does (a
 * union's branch chosen by JSON kind and key list, an object's optional keys by a presence bitmap), with the node
 * budget that bounds what a message of a given length may decode to.
 */
import { pointerSegment, rethrowAt, rethrowAtIndex, ToonError } from "../wire/errors.ts";
import { readAny, writeAny } from "../wire/any.ts";
import { setOwn } from "../wire/objects.ts";
import type { Reader } from "../wire/reader.ts";
import type { Writer } from "../wire/writer.ts";
import { DEFAULT_MAX_DEPTH } from "../wire/wire.ts";
import { K, NODE_BUDGET_BASE, PREFIX_BUDGET_FACTOR, type SchemalessEnumType, schemalessMinWidth, schemalessNodeBudget, type SchemalessObjectType, type SchemalessType, type SchemalessUnionType } from "./types.ts";
import { hasOwnProperty, isSafeInt, ownKeys, scalarKey } from "./json-values.ts";
import { type SchemalessSite, SchemalessStrings, siteAt, type StrWriter } from "./strings.ts";

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

export function writeValue(w: Writer, v: unknown, t: SchemalessType, sw: StrWriter, site: SchemalessSite | undefined): void {
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
