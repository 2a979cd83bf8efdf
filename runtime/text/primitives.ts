/**
 * One primitive as TOON text (spec v4.0 §2, §3, §7): string quoting and escaping (bare when safe for the relevant
 * delimiter), object keys and field names, numbers, bigints, and any primitive with delimiter-aware quoting. The
 * generic encoder (./encode.ts), the table forms (./tables.ts), the headers (./headers.ts) and schema-specialised
 * generated encoders (./generated-encoder.ts) all spell primitives here, so their output is byte-identical.
 */
import { ToonError } from "../wire/errors.ts";

/** A delimiter of TOON arrays and tables: comma (default), tab or pipe. */
export type TextDelimiter = "," | "\t" | "|";

/** 1 for ASCII characters that force quoting of a string value (§7.2), delimiters excepted. */
const UNSAFE = new Uint8Array(128);
for (let c = 0; c < 32; c++) UNSAFE[c] = 1;
for (const ch of ':"\\[]{}') UNSAFE[ch.charCodeAt(0)] = 1;

/**
 * The index of the second half of the surrogate pair that surrogate `c` at `i` starts; a lone surrogate (TOON text
 * is Unicode, §7.1) is ToonError `INVALID_VALUE`.
 */
function pairEnd(s: string, i: number, c: number): number {
  if (c <= 0xdbff) {
    const c2 = s.charCodeAt(i + 1); // NaN past the end
    if (c2 >= 0xdc00 && c2 <= 0xdfff) return i + 1;
  }
  throw new ToonError("INVALID_VALUE", `string contains a lone surrogate U+${c.toString(16).toUpperCase()} at index ${i}, which TOON cannot represent`);
}

/**
 * Quote and escape `s` per §7.1: `\\`, `\"`, `\n`, `\r`, `\t`, other controls as lowercase `\u00xx`; everything
 * else literal. Throws ToonError `INVALID_VALUE` on a lone surrogate.
 */
export function quoteString(s: string): string {
  return quoteFrom(s, 0);
}

/** {@link quoteString} when s[0..from) is already known to need no escaping and to hold no lone surrogate. */
function quoteFrom(s: string, from: number): string {
  const n = s.length;
  let out = "";
  let start = 0;
  for (let i = from; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92) {
      if (start !== i) out += s.slice(start, i);
      start = i + 1;
      if (c === 34) out += '\\"';
      else if (c === 92) out += "\\\\";
      else if (c === 10) out += "\\n";
      else if (c === 13) out += "\\r";
      else if (c === 9) out += "\\t";
      else out += "\\u" + (c + 0x10000).toString(16).slice(1); // four lowercase hex digits, 00xx
    } else if (c >= 0xd800 && c <= 0xdfff) {
      i = pairEnd(s, i, c);
    }
  }
  if (start === 0) return '"' + s + '"';
  return '"' + out + s.slice(start) + '"';
}

/** Whether `s` matches `/^[+-]?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?$/i` (§7.2 "numeric-like"). */
export function isNumericLike(s: string): boolean {
  const n = s.length;
  let i = 0;
  let c = s.charCodeAt(0);
  if (c === 43 || c === 45) c = s.charCodeAt(++i);
  if (!(c >= 48 && c <= 57)) return false;
  while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
  if (i < n && c === 46) {
    const fs = ++i;
    while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
    if (i === fs) return false;
  }
  if (i < n && (c === 101 || c === 69)) {
    c = s.charCodeAt(++i);
    if (c === 43 || c === 45) i++;
    const es = i;
    while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
    if (i === es) return false;
  }
  return i === n;
}

/** Encode a string value with code of the relevant delimiter `dc` (44, 9 or 124). */
export function encStr(s: string, dc: number): string {
  const n = s.length;
  if (n === 0) return '""';
  const c0 = s.charCodeAt(0);
  if (c0 === 32 || c0 === 9 || c0 === 45 || c0 === 35) return quoteString(s);
  const cl = s.charCodeAt(n - 1);
  if (cl === 32 || cl === 9) return quoteString(s);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if (UNSAFE[c] === 1 || c === dc) return quoteFrom(s, i);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      i = pairEnd(s, i, c);
    }
  }
  if (c0 <= 57) {
    if ((c0 >= 48 || c0 === 43) && isNumericLike(s)) return quoteString(s);
  } else if (c0 === 116) {
    if (s === "true") return '"true"';
  } else if (c0 === 102) {
    if (s === "false") return '"false"';
  } else if (c0 === 110) {
    if (s === "null") return '"null"';
  }
  return s;
}

export function delimCode(delimiter: TextDelimiter | undefined): number {
  if (delimiter === undefined || delimiter === ",") return 44;
  if (delimiter === "\t") return 9;
  if (delimiter === "|") return 124;
  throw new ToonError("CONFIG_ERROR", `invalid delimiter ${JSON.stringify(delimiter)} (expected ",", "\\t" or "|")`);
}

/**
 * Encode a string value (§7.2): returned as is when safe, else quoted and escaped. `delimiter` is the relevant
 * delimiter: the active one for inline array values and table cells, the document one for `key: value` fields.
 */
export function encodeStringValue(value: string, delimiter: TextDelimiter = ","): string {
  return encStr(value, delimiterCode(delimiter));
}

export function delimiterCode(delimiter: TextDelimiter): number {
  return delimiter === "," ? 44 : delimiter === "\t" ? 9 : delimiter === "|" ? 124 : delimCode(delimiter);
}

/** Encode an object key or tabular field name (§7.3): bare when it matches `^[A-Za-z_][A-Za-z0-9_.]*$`, else quoted. */
export function encodeKey(key: string): string {
  const n = key.length;
  if (n === 0) return '""';
  const c0 = key.charCodeAt(0);
  if (!(c0 === 95 || (c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 122))) return quoteString(key);
  for (let i = 1; i < n; i++) {
    const c = key.charCodeAt(i);
    // [A-Za-z0-9_.] (c | 32 folds the upper-case letters onto the lower-case ones)
    if (!(((c | 32) >= 97 && (c | 32) <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 46)) return quoteString(key);
  }
  return key;
}

/** Encode a number (§2, §3): canonical decimal form, -0 → `0`, NaN and ±Infinity → `null`. */
export function encodeNumber(n: number): string {
  return n - n === 0 ? "" + n : "null";
}

/** Encode a bigint (§3 policy above): safe integers as numbers, larger values as quoted decimal strings. */
export function encodeBigInt(n: bigint): string {
  const s = n.toString();
  return n >= -9007199254740991n && n <= 9007199254740991n ? s : '"' + s + '"';
}

/**
 * Encode a primitive (string, number, boolean, null; undefined/function/symbol → `null`, bigint per policy) with
 * delimiter-aware string quoting.
 */
export function encodePrimitive(value: unknown, delimiter: TextDelimiter = ","): string {
  return prim(value, delimiterCode(delimiter));
}

export function prim(v: unknown, dc: number): string {
  switch (typeof v) {
    case "string":
      return encStr(v, dc);
    case "number":
      return v - v === 0 ? "" + v : "null";
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return encodeBigInt(v);
    default:
      return "null";
  }
}

/** Join primitive values with the delimiter, each encoded with quoting for that delimiter (inline arrays, rows). */
export function joinPrimitives(values: readonly unknown[], delimiter: TextDelimiter = ","): string {
  const dc = delimiterCode(delimiter);
  let s = "";
  for (let i = 0; i < values.length; i++) s += (i === 0 ? "" : delimiter) + prim(values[i], dc);
  return s;
}
