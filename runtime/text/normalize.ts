/**
 * Host values to the JSON data model, per the policy of spec v4.0 §3 documented at the top of ./encode.ts: what the
 * encoder encodes instead of a value that is not plain JSON (a Date, a Map, a class instance, a bigint, ...).
 */
import { ToonError } from "../wire/errors.ts";
import { setOwn } from "../wire/objects.ts";
import { depthError, prefix } from "./encode-state.ts";

export function normalize(v: unknown, lvl: number, max: number, omit = false): unknown {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      return v - v === 0 ? (v === 0 ? 0 : v) : null;
    case "bigint":
      return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v.toString();
    case "object":
      break;
    default:
      return null;
  }
  if (v === null) return null;
  if (lvl > max) throw depthError(max);
  // an object inheriting from Date that is no Date: Date.prototype.toJSON and getTime would throw a TypeError
  if (v instanceof Date) {
    try {
      Date.prototype.getTime.call(v);
    } catch {
      throw new ToonError("INVALID_VALUE", "an object that inherits from Date but is not a Date");
    }
  }
  if (typeof (v as { toJSON?: unknown }).toJSON === "function") {
    const r = (v as { toJSON(key?: string): unknown }).toJSON();
    if (r !== v) return normalize(r, lvl + 1, max, omit);
  }
  if (Array.isArray(v)) {
    const n = v.length;
    const out: unknown[] = [];
    let i = 0;
    try {
      for (; i < n; i++) {
        const x = v[i];
        if (x === undefined && !(i in v)) throw new ToonError("INVALID_VALUE", "a sparse array (a hole, no item at this index)");
        out.push(normalize(x, lvl + 1, max, omit));
      }
    } catch (err) {
      throw prefix(err, i);
    }
    return out;
  }
  if (v instanceof Date) {
    const t = v.getTime();
    return t - t === 0 ? v.toISOString() : null;
  }
  if (v instanceof Set) {
    const out: unknown[] = [];
    for (const x of v) out.push(normalize(x, lvl + 1, max, omit));
    return out;
  }
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) setOwn(out, String(k), normalize(x, lvl + 1, max, omit));
    return out;
  }
  if (v instanceof String || v instanceof Number || v instanceof Boolean || v instanceof BigInt) {
    return normalize(v.valueOf(), lvl + 1, max, omit);
  }
  const obj = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(obj);
  let i = 0;
  try {
    for (; i < keys.length; i++) {
      const x = obj[keys[i]];
      if (x === undefined && omit) continue; // absent, as JSON.stringify drops it (E.omit)
      setOwn(out, keys[i], normalize(x, lvl + 1, max, omit));
    }
  } catch (err) {
    throw prefix(err, keys[i]!);
  }
  return out;
}

/**
 * Normalize any host value to the JSON data model per the §3 policy documented at the top of this module
 * (a deep copy; plain JSON input is copied too).
 */
export function normalizeValue(value: unknown, maxDepth = 1000): unknown {
  return normalize(value, 1, maxDepth);
}
