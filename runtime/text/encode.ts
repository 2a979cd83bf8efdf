/**
 * Schemaless TOON text encoder (TOON spec v4.0).
 *
 * The encoder walks the value once, appending lines to one string (every line is emitted as "\n" + indentation
 * + content and the leading "\n" is dropped at the end). String concatenation (V8 ropes, flattened once at the end)
 * measured ~15% faster than collecting lines in an array and joining them. Tables are classified and written in the
 * same pass: each row is fitted against the plan of the first row (see `fit`). The building blocks (key and string
 * quoting, numbers, headers, field lists, tabular detection) are exported so that schema-specialised generated
 * encoders can produce byte-identical output.
 *
 * Host-type normalization (§3, documented as the spec requires):
 * - numbers: finite → canonical decimal (`String(n)`: no exponent for 1e-6 ≤ |n| < 1e21, otherwise JSON
 *   exponent form with lowercase `e` and explicit sign, e.g. `1e-7`, `1e+21`); -0 → 0; NaN, ±Infinity → null.
 * - bigint: within ±(2^53 - 1) → number; otherwise its decimal digits as a (necessarily quoted) string.
 * - undefined, functions, symbols → null (also as object property values and array elements).
 * - an array hole (a sparse array) → ToonError `INVALID_VALUE` at the hole's index, found without walking the
 *   array's length (`Object.assign([], { length: 2 ** 32 - 1 })` fails at once, as binary `encode` does).
 * - objects with a `toJSON()` method (Date included) → the normalized result of `toJSON()` (called once).
 * - Date without toJSON → ISO 8601 string via toISOString() (invalid dates → null).
 * - Set → array; Map → object with `String(key)` keys; boxed String/Number/Boolean/BigInt → their primitive.
 * - other objects (plain or class instances) → own enumerable string-keyed properties in `Object.keys` order.
 * - strings containing a lone surrogate cannot be represented (§7.1) → ToonError `INVALID_VALUE`.
 * - nesting deeper than `maxDepth` (default 1000; catches circular references) → ToonError `DEPTH_LIMIT`.
 * - a root string starting with U+FEFF is quoted, so that decoders that strip a byte-order mark keep it.
 */

import { ToonError, hostError, pointerSegment } from "../errors.ts";
import { hasOwn, setOwn } from "../objects.ts";
import { refuseDense } from "./layout.ts";
import { checkSizeAndDepth } from "./options.ts";

/** A delimiter of TOON arrays and tables: comma (default), tab or pipe. */
export type TextDelimiter = "," | "\t" | "|";

/** Options of {@link encodeText}. */
export interface TextEncodeOptions {
  /** Spaces per indentation level (default 2). */
  indentSize?: number;
  /** Document delimiter, used for every array and table header (default ","). */
  delimiter?: TextDelimiter;
  /** Maximum container nesting depth before a `DEPTH_LIMIT` error (default 1000). */
  maxDepth?: number;
  /**
   * A generated codec's text layout: `"toon"` (default, TOON v4) or `"dense"` (schema-aware, docs/TEXT.md). The
   * schemaless `encodeText` has no schema, so it writes TOON v4 whatever this says.
   */
  layout?: "toon" | "dense";
}

/**
 * A tabular header field: a leaf column name, or a nested field group `name{…}` for a column of uniform
 * objects (§9.3).
 */
export type TextField = string | { readonly name: string; readonly fields: readonly TextField[] };

/** The text of an empty array in field position (`key: []`) and at the root. */
export const EMPTY_ARRAY = "[]";

// ---------------------------------------------------------------------------------------------------------------
// Strings, keys, numbers

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
function encStr(s: string, dc: number): string {
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

function delimCode(delimiter: TextDelimiter | undefined): number {
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

function delimiterCode(delimiter: TextDelimiter): number {
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

function prim(v: unknown, dc: number): string {
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

// ---------------------------------------------------------------------------------------------------------------
// Headers

/** The delimiter mark written inside brackets: "" for comma, else the delimiter itself. */
function mark(delimiter: TextDelimiter): string {
  return delimiter === "," ? "" : delimiter;
}

/** The field list `{f1<d>f2{s1<d>s2}}` of a tabular or keyed header, names encoded per §7.3. */
export function fieldList(fields: readonly TextField[], delimiter: TextDelimiter = ","): string {
  let s = "{";
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (i > 0) s += delimiter;
    s += typeof f === "string" ? encodeKey(f) : encodeKey(f.name) + fieldList(f.fields, delimiter);
  }
  return s + "}";
}

/** `key[N<d>]:` (key null: keyless, for the root and list items). Inline values follow after one space. */
export function arrayHeader(key: string | null, length: number, delimiter: TextDelimiter = ","): string {
  return (key === null ? "" : encodeKey(key)) + "[" + length + mark(delimiter) + "]:";
}

/** `key[N<d>]{fields}:` – the header of a tabular array (§9.3); rows follow at depth + 1. */
export function tableHeader(key: string | null, length: number, fields: readonly TextField[], delimiter: TextDelimiter = ","): string {
  return (key === null ? "" : encodeKey(key)) + "[" + length + mark(delimiter) + "]" + fieldList(fields, delimiter) + ":";
}

/** `key[N:<d>]{fields}:` – the header of a keyed tabular object (§9.5); entry rows follow at depth + 1. */
export function keyedHeader(key: string | null, count: number, fields: readonly TextField[], delimiter: TextDelimiter = ","): string {
  return (key === null ? "" : encodeKey(key)) + "[" + count + ":" + mark(delimiter) + "]" + fieldList(fields, delimiter) + ":";
}

/** Indentation for `depth` levels of `indentSize` spaces. */
export function indentation(depth: number, indentSize = 2): string {
  return " ".repeat(depth * indentSize);
}

/**
 * The cells of one table row or keyed entry: the leaf values of `row` in depth-first order of `fields`, encoded
 * and joined by the delimiter.
 */
export function tableRow(row: unknown, fields: readonly TextField[], delimiter: TextDelimiter = ","): string {
  return rowCells(row as Record<string, unknown>, fields, delimiter, delimiterCode(delimiter), true);
}

function rowCells(row: Record<string, unknown>, fields: readonly TextField[], d: string, dc: number, first: boolean): string {
  let s = "";
  for (let j = 0; j < fields.length; j++) {
    const f = fields[j];
    if (typeof f === "string") s += (first ? "" : d) + prim(row[f], dc);
    else s += (first ? "" : d) + rowCells(row[f.name] as Record<string, unknown>, f.fields, d, dc, true);
    first = false;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------------------------
// Encoder state and structure

/** Thrown (never escapes) when the value holds non-JSON objects: encoding restarts on a normalized copy. */
const RESTART = {};

/**
 * Encoder state (the `TextState` generated encoders append to). A plain object, one literal in makeE: a class's
 * fields print twice in the ES2022 target (declaration and constructor assignment) and its names do not minify.
 */
interface E {
  readonly d: TextDelimiter;
  readonly dc: number;
  readonly mk: string;
  readonly size: number;
  readonly max: number;
  /**
   * A schema codec's encoder (encodeTextWith): an object property whose value is `undefined` is absent, as in
   * JSON.stringify and as binary encode and validate take it, not `null` (the schemaless default). Meeting one
   * restarts encoding on a normalized copy without such properties.
   */
  readonly omit: boolean;
  out: string;
  nl: string[];
}

function makeE(options: TextEncodeOptions | undefined, omit = false): E {
  const d = options?.delimiter ?? ",";
  const dc = delimCode(d);
  const size = options?.indentSize ?? 2;
  const max = options?.maxDepth ?? 1000;
  checkSizeAndDepth(size, max);
  return { d, dc, mk: mark(d), size, max, omit, out: "", nl: [] };
}

/** "\n" + indentation of `depth`. */
function nl(e: E, depth: number): string {
  let s = e.nl[depth];
  if (s === undefined) {
    for (let i = e.nl.length; i <= depth; i++) e.nl.push("\n" + " ".repeat(i * e.size));
    s = e.nl[depth];
  }
  return s;
}

function depthError(max: number): ToonError {
  return new ToonError("DEPTH_LIMIT", `value nested deeper than ${max} levels (circular reference?)`);
}

/** Plain-JSON check of a non-array object; anything else restarts encoding on a normalized copy. */
function checkPlain(o: object): void {
  const p = Object.getPrototypeOf(o);
  if ((p !== Object.prototype && p !== null) || typeof (o as { toJSON?: unknown }).toJSON === "function") throw RESTART;
}

/** Index `i` of `arr` reads undefined: a hole is INVALID_VALUE (an explicit `undefined` item is null, as in JSON). */
function checkHole(arr: readonly unknown[], i: number): void {
  if (!(i in arr)) throw new ToonError("INVALID_VALUE", "a sparse array (a hole, no item at this index)", { path: pointerSegment(i) });
}

function prefix(e: unknown, seg: string | number): unknown {
  if (e instanceof ToonError) e.prefixPath(pointerSegment(seg));
  else if (e !== RESTART) return hostError(e, pointerSegment(seg));
  return e;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A table row plan (§9.3), taken from the first row: field names, with a nested plan for nested-uniform columns. */
interface Plan {
  readonly names: string[];
  readonly kids: (Plan | null)[];
}

/**
 * The plan of a first row or first entry value: its keys in encounter order, primitive values as leaf columns and
 * non-empty objects as nested groups. Null when the object cannot head a table (empty object, array value, empty
 * nested object).
 */
function firstPlan(row: Record<string, unknown>, lvl: number, max: number): Plan | null {
  if (lvl > max) throw depthError(max);
  checkPlain(row);
  const names = Object.keys(row);
  const m = names.length;
  if (m === 0) return null;
  const kids: (Plan | null)[] = new Array<Plan | null>(m);
  for (let j = 0; j < m; j++) {
    const v = row[names[j]];
    if (v === null || typeof v !== "object") {
      kids[j] = null;
    } else {
      if (Array.isArray(v)) return null;
      const kid = firstPlan(v as Record<string, unknown>, lvl + 1, max);
      if (kid === null) return null;
      kids[j] = kid;
    }
  }
  return { names, kids };
}

/** Whether `o` has exactly the keys of plan `p` (in any order). */
function sameKeys(o: Record<string, unknown>, p: Plan): boolean {
  const names = p.names;
  const m = names.length;
  const rk = Object.keys(o);
  if (rk.length !== m) return false;
  for (let j = 0; j < m; j++) if (rk[j] !== names[j] && !hasOwn(o, names[j])) return false;
  return true;
}

/**
 * The cells of `row` per plan `p`, joined by the delimiter; null when the row does not fit the plan (different key
 * set, an object where the first row had a primitive or vice versa, an array): then the whole array or object is
 * not tabular (§9.3, §9.5). Fitting every row against the first row's plan is exactly the column classification of
 * §9.3, done in the same pass that writes the cells.
 */
function fit(row: unknown, p: Plan, d: string, dc: number, omit: boolean): string | null {
  if (row === null || typeof row !== "object" || Array.isArray(row)) return null;
  checkPlain(row);
  const o = row as Record<string, unknown>;
  if (!sameKeys(o, p)) return null;
  const names = p.names;
  const kids = p.kids;
  let s = "";
  for (let j = 0; j < names.length; j++) {
    const v = o[names[j]];
    const kid = kids[j];
    let c: string | null;
    if (kid === null) {
      if (v !== null && typeof v === "object") return null;
      if (v === undefined && omit) throw RESTART;
      c = prim(v, dc);
    } else {
      c = fit(v, kid, d, dc, omit);
      if (c === null) return null;
    }
    s = j === 0 ? c : s + d + c;
  }
  return s;
}

/** Like {@link fit} without producing cells. */
function fits(row: unknown, p: Plan): boolean {
  if (row === null || typeof row !== "object" || Array.isArray(row)) return false;
  checkPlain(row);
  const o = row as Record<string, unknown>;
  if (!sameKeys(o, p)) return false;
  for (let j = 0; j < p.names.length; j++) {
    const v = o[p.names[j]];
    const kid = p.kids[j];
    if (kid === null ? v !== null && typeof v === "object" : !fits(v, kid)) return false;
  }
  return true;
}

function planFields(p: Plan): TextField[] {
  return p.names.map((n, j) => {
    const kid = p.kids[j];
    return kid === null ? n : { name: n, fields: planFields(kid) };
  });
}

/** The `{…}` field list of a plan. */
function planList(p: Plan, d: string): string {
  let s = "{";
  for (let j = 0; j < p.names.length; j++) {
    const kid = p.kids[j];
    if (j > 0) s += d;
    s += kid === null ? encodeKey(p.names[j]) : encodeKey(p.names[j]) + planList(kid, d);
  }
  return s + "}";
}

/**
 * Tabular field list for an array of JSON-model objects (§9.3), or null when the array must use the expanded list
 * form. Input must already be normalized (see {@link normalizeValue}).
 */
export function detectTabularFields(rows: readonly unknown[]): TextField[] | null {
  return plainOnly(() => {
    if (rows.length === 0 || !isObj(rows[0])) return null;
    const p = firstPlan(rows[0], 1, 1000);
    if (p === null) return null;
    for (let i = 1; i < rows.length; i++) if (!fits(rows[i], p)) return null;
    return planFields(p);
  });
}

/**
 * Keyed tabular field list for a JSON-model object (§9.5: at least two entries, all uniform non-empty objects),
 * or null when it encodes as a nested object. Input must already be normalized.
 */
export function detectKeyedFields(obj: Readonly<Record<string, unknown>>): TextField[] | null {
  return plainOnly(() => {
    const keys = Object.keys(obj);
    if (keys.length < 2) return null;
    const v0 = obj[keys[0]];
    if (!isObj(v0)) return null;
    const p = firstPlan(v0, 1, 1000);
    if (p === null) return null;
    for (let i = 1; i < keys.length; i++) if (!fits(obj[keys[i]], p)) return null;
    return planFields(p);
  });
}

function plainOnly<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e === RESTART) throw new ToonError("INVALID_VALUE", "value is not normalized to the JSON data model (use normalizeValue first)");
    throw e;
  }
}

/**
 * Keyed tabular form of `obj` (§9.5) as `"[N:<d>]{fields}:"` + entry rows at `depth`, or null when the object does
 * not qualify.
 */
function keyedForm(e: E, obj: Record<string, unknown>, keys: string[], depth: number, lvl: number): string | null {
  return keys.length < 2 || !isObj(obj[keys[0]]) ? null : tabular(e, obj, keys, depth, lvl);
}

/** Tabular form of `arr` (§9.3) as `"[N<d>]{fields}:"` + rows at `depth`, or null when the array does not qualify. */
function tableForm(e: E, arr: readonly unknown[], depth: number, lvl: number): string | null {
  return tabular(e, arr, null, depth, lvl);
}

/**
 * The rows of a table: the items of `rows` (an array) when `keys` is null, else the entries `keys` of `rows` (an
 * object), each line `key: cells`. Null when a row does not fit the first one's plan.
 */
function tabular(e: E, table: readonly unknown[] | Readonly<Record<string, unknown>>, keys: string[] | null, depth: number, lvl: number): string | null {
  const rows = table as Readonly<Record<string | number, unknown>>;
  const n = keys === null ? (table as readonly unknown[]).length : keys.length;
  const p = firstPlan((keys === null ? rows[0] : rows[keys[0]]) as Record<string, unknown>, lvl, e.max);
  if (p === null) return null;
  const ind = nl(e, depth);
  let body = "";
  let i = 0;
  try {
    for (; i < n; i++) {
      const c = fit(keys === null ? rows[i] : rows[keys[i]], p, e.d, e.dc, e.omit);
      if (c === null) return null;
      body += keys === null ? ind + c : ind + encodeKey(keys[i]) + ": " + c;
    }
  } catch (err) {
    throw prefix(err, keys === null ? i : keys[i]);
  }
  return "[" + n + (keys === null ? "" : ":") + e.mk + "]" + planList(p, e.d) + ":" + body;
}

/** 0: every element primitive; 1: every element a (plain) object; 2: mixed / arrays. */
function arrayShape(arr: readonly unknown[]): number {
  let objs = 0;
  const n = arr.length;
  for (let i = 0; i < n; i++) {
    const v = arr[i];
    if (v === undefined) checkHole(arr, i);
    if (v !== null && typeof v === "object") {
      if (Array.isArray(v)) return 2;
      objs++;
    } else if (objs > 0) {
      return 2;
    }
  }
  return objs === 0 ? 0 : objs === n ? 1 : 2;
}

/** Inline primitive values joined by the active delimiter. */
function inline(e: E, arr: readonly unknown[]): string {
  const dc = e.dc;
  const d = e.d;
  let s = prim(arr[0], dc);
  for (let i = 1; i < arr.length; i++) s += d + prim(arr[i], dc);
  return s;
}

/**
 * Emit a non-empty array whose header line starts with `pre` ("\n" + indentation + optional "- " + encoded key);
 * items or rows go to `cd`. `tab`: whether the tabular form is allowed (not for keyless list-item arrays).
 */
function emitArray(e: E, pre: string, arr: readonly unknown[], cd: number, lvl: number, tab: boolean): void {
  if (lvl > e.max) throw depthError(e.max);
  const n = arr.length;
  const shape = arrayShape(arr);
  if (shape === 0) {
    e.out += pre + "[" + n + e.mk + "]: " + inline(e, arr);
    return;
  }
  if (shape === 1 && tab) {
    const table = tableForm(e, arr, cd, lvl + 1);
    if (table !== null) {
      e.out += pre + table;
      return;
    }
  }
  e.out += pre + "[" + n + e.mk + "]:";
  let i = 0;
  try {
    for (; i < n; i++) emitItem(e, arr[i], cd, lvl + 1);
  } catch (err) {
    throw prefix(err, i);
  }
}

/** Emit one list item at `depth` (§9.4, §10). */
function emitItem(e: E, v: unknown, depth: number, lvl: number): void {
  if (v === null || typeof v !== "object") {
    e.out += nl(e, depth) + "- " + prim(v, e.dc);
    return;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) e.out += nl(e, depth) + "- [0" + e.mk + "]:";
    else emitArray(e, nl(e, depth) + "- ", v, depth + 1, lvl, false);
    return;
  }
  checkPlain(v);
  if (lvl > e.max) throw depthError(e.max);
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 0) {
    e.out += nl(e, depth) + "-";
    return;
  }
  const k0 = keys[0];
  try {
    emitField(e, obj[k0], nl(e, depth) + "- ", k0, depth + 1, lvl);
  } catch (err) {
    throw prefix(err, k0);
  }
  if (keys.length > 1) emitFields(e, obj, keys, 1, depth + 1, lvl);
}

/**
 * Emit field `key: v` whose line starts with `lead` ("\n" + indentation, plus "- " for a first field on a hyphen
 * line); the field stands at depth `fd`, its content goes to `fd + 1`.
 */
function emitField(e: E, v: unknown, lead: string, key: string, fd: number, lvl: number): void {
  if (v === undefined && e.omit) throw RESTART;
  if (v === null || typeof v !== "object") {
    e.out += lead + encodeKey(key) + ": " + prim(v, e.dc);
    return;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) e.out += lead + encodeKey(key) + ": []";
    else emitArray(e, lead + encodeKey(key), v, fd + 1, lvl + 1, true);
    return;
  }
  checkPlain(v);
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 0) {
    e.out += lead + encodeKey(key) + ":";
    return;
  }
  if (lvl + 1 > e.max) throw depthError(e.max);
  const keyed = keyedForm(e, obj, keys, fd + 1, lvl + 2);
  if (keyed !== null) {
    e.out += lead + encodeKey(key) + keyed;
    return;
  }
  e.out += lead + encodeKey(key) + ":";
  emitFields(e, obj, keys, 0, fd + 1, lvl + 1);
}

/** Emit the fields keys[from..] of `obj` at `depth`. */
function emitFields(e: E, obj: Record<string, unknown>, keys: string[], from: number, depth: number, lvl: number): void {
  const ind = nl(e, depth);
  let i = from;
  try {
    for (; i < keys.length; i++) emitField(e, obj[keys[i]], ind, keys[i], depth, lvl);
  } catch (err) {
    throw prefix(err, keys[i]);
  }
}

function encodeRoot(e: E, v: unknown): string {
  if (v === null || typeof v !== "object") {
    if (typeof v === "string" && v.charCodeAt(0) === 0xfeff) return quoteString(v);
    return prim(v, e.dc);
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return EMPTY_ARRAY;
    emitArray(e, "\n", v, 1, 1, true);
  } else {
    checkPlain(v);
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (keys.length === 0) return "";
    const keyed = keyedForm(e, obj, keys, 1, 2);
    if (keyed !== null) {
      e.out += "\n" + keyed;
    } else {
      emitFields(e, obj, keys, 0, 0, 1);
    }
  }
  return e.out.slice(1);
}

function withRestart(options: TextEncodeOptions | undefined, value: unknown, run: (e: E, v: unknown) => string, omit = false): string {
  const e = makeE(options, omit);
  try {
    return run(e, value);
  } catch (err) {
    if (err !== RESTART) throw hostError(err, "");
  }
  const e2 = makeE(options, omit);
  try {
    return run(e2, normalize(value, 1, e2.max, omit));
  } catch (err) {
    throw hostError(err, "");
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Normalization

function normalize(v: unknown, lvl: number, max: number, omit = false): unknown {
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

// ---------------------------------------------------------------------------------------------------------------
// Public entry points

/** Encode any value as TOON text (spec v4.0). No trailing newline; an empty object encodes as "". */
export function encodeText(value: unknown, options?: TextEncodeOptions): string {
  return withRestart(options, value, encodeRoot);
}

/**
 * The lines of the object field `key: value` standing at `depth`, exactly as {@link encodeText} writes them inside
 * an object (joined by "\n", no leading or trailing newline). For generated encoders that hand a schemaless
 * sub-value to the runtime.
 */
export function encodeFieldLines(key: string, value: unknown, depth: number, options?: TextEncodeOptions): string {
  return withRestart(options, value, (e, v) => {
    emitField(e, v, nl(e, depth), key, depth, 1);
    return e.out.slice(1);
  });
}

/** The lines of `value` as a list item (`- …`) at `depth`, exactly as {@link encodeText} writes them. */
export function encodeListItemLines(value: unknown, depth: number, options?: TextEncodeOptions): string {
  return withRestart(options, value, (e, v) => {
    emitItem(e, v, depth, 1);
    return e.out.slice(1);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Entry points for schema-specialised generated encoders (`Codec.toText`). Generated code appends to the same
// encoder state as the generic walker and hands any sub-value its schema does not pin down to the generic
// functions below, so the output is the generic output by construction.

export type { E as TextState };

/** Encoder state for `options` (validates them: CONFIG_ERROR on a bad delimiter, indent or depth). */
export function textState(options?: TextEncodeOptions): E {
  return makeE(options);
}

/**
 * How often {@link encodeTextWith} fell back to the generic encoder (the specialised encoder met a value outside
 * its fast path: reordered keys in a table row, a non-plain object, a depth limit, an error). For tests and
 * benchmarks.
 */
export const textFallbacks: { count: number; last: unknown } = { count: 0, last: undefined };

/**
 * Run a generated encoder `run` (which returns the text, or null to decline); on null or any exception the generic
 * {@link encodeText} encodes the value instead, so the result (or the error thrown) is always exactly the generic
 * one. Except for one thing both do alike: a property whose value is `undefined` is absent (E.omit), so
 * `toText({ a: undefined })` is `toText({})`, as binary encode and validate take it (encodeText writes `a: null`).
 */
export function encodeTextWith(value: unknown, options: TextEncodeOptions | undefined, run: ((e: E, v: unknown) => string | null) | undefined): string {
  refuseDense(options);
  // a module written for size (optimize) has no specialised encoder: the generic one, which it equals
  if (run === undefined) return withRestart(options, value, encodeRoot, true);
  const e = makeE(options, true);
  let why: unknown = "declined";
  try {
    const s = run(e, value);
    if (s !== null) return s;
  } catch (err) {
    // fall through: the generic encoder decides (and throws its own, exact error if there is one)
    why = err;
  }
  textFallbacks.count++;
  textFallbacks.last = why;
  // the generic encoder, with undefined-valued properties absent (E.omit) as the specialised encoder takes them
  return withRestart(options, value, encodeRoot, true);
}

/** Decline from inside a generated encoder: {@link encodeTextWith} hands the value to the generic encoder. */
export function textBail(): never {
  throw RESTART;
}

/**
 * A primitive value (strings quoted for `dc`); never call with a non-null object. `undefined` declines (the
 * generic encoder then writes an absent property, or `null` for an array item: E.omit).
 */
export function textPrim(v: unknown, dc: number): string {
  if (v === undefined) throw RESTART;
  return prim(v, dc);
}
/**
 * A field the schema says holds a primitive (string, number, boolean, null, a primitive enum or const), the
 * generated encoder's one call for it: `key: value` as {@link textField} writes it, from `kc`, the encoded key
 * with its `: `, without textField's dispatch; anything else (a value of the wrong type) goes to textField, with
 * the raw `key` (by default `kc` less its `: `, which is the key itself when it needs no quotes).
 */
export function textScalar(e: E, v: unknown, lead: string, kc: string, fd: number, lvl: number, key?: string): void {
  if (typeof v === "string") e.out += lead + kc + encStr(v, e.dc);
  else if (v === undefined && e.omit) throw RESTART;
  else if (v === null || typeof v !== "object") e.out += lead + kc + prim(v, e.dc);
  else emitField(e, v, lead, key ?? kc.slice(0, -2), fd, lvl);
}
/** {@link textScalar} for a string field: the string test first, nothing else on the way. */
export function textString(e: E, v: unknown, lead: string, kc: string, fd: number, lvl: number, key?: string): void {
  if (typeof v === "string") e.out += lead + kc + encStr(v, e.dc);
  else textScalar(e, v, lead, kc, fd, lvl, key);
}

/** {@link textScalar} for a number or integer field: a finite number is its own text. */
export function textNumber(e: E, v: unknown, lead: string, kc: string, fd: number, lvl: number, key?: string): void {
  if (typeof v === "number" && v - v === 0) e.out += lead + kc + v;
  else textScalar(e, v, lead, kc, fd, lvl, key);
}

/**
 * A non-empty array the schema says holds primitives (`kind`: 0 strings, 1 numbers, 2 other primitives), written
 * inline after `pre` (`key[N]: a,b,c`) when every item is a primitive and the level allows it; otherwise the generic
 * array form ({@link textArray}), exactly as the schemaless encoder writes it.
 */
export function textPrimitives(e: E, pre: string, arr: readonly unknown[], kind: number, cd: number, lvl: number, tab: boolean): void {
  const n = arr.length;
  let s = "";
  let i = 0;
  for (; i < n; i++) {
    const x = arr[i];
    let c: string;
    if (x === undefined) checkHole(arr, i);
    if (kind === 0 && typeof x === "string") c = encStr(x, e.dc);
    else if (kind === 1 && typeof x === "number" && x - x === 0) c = "" + x;
    else if (x === null || typeof x !== "object") c = prim(x, e.dc);
    else break;
    s = i === 0 ? c : s + e.d + c;
  }
  if (i === n && lvl <= e.max) e.out += pre + "[" + n + e.mk + "]: " + s;
  else emitArray(e, pre, arr, cd, lvl, tab);
}

/** A table cell the schema says holds a primitive: its text, or null when it holds an object (no table then). */
export function textCell(v: unknown, dc: number): string | null {
  // undefined: an absent property (E.omit), which a table row cannot leave out: no table
  return v === undefined ? null : v === null || typeof v !== "object" ? prim(v, dc) : null;
}

// The generic building blocks under the names generated code calls them by: export aliases, not `const` copies
// (a bundle would keep a variable per copy).
export {
  /* "\n" + indentation for `depth`. */
  nl as textNl,
  /* A string value quoted for delimiter code `dc` (44, 9 or 124). */
  encStr as textStr,
  /* Generic `key: value` field whose line starts with `lead`, standing at depth `fd`, inside an object of level `lvl`. */
  emitField as textField,
  /* Generic list item at `depth`. */
  emitItem as textItem,
  /* Generic non-empty array whose header line starts with `pre`; items at `cd`. */
  emitArray as textArray,
  /* Generic tabular form of an array (`[N]{fields}:` + rows) or null. */
  tableForm as textTable,
  /* Generic keyed tabular form of an object (`[N:]{fields}:` + entries) or null. */
  keyedForm as textKeyed,
};
