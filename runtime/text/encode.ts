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
 * One job a file: this one is the generic walk of a value and its public entry points; a primitive's spelling is
 * ./primitives.ts, headers and rows ./headers.ts, the encoder state ./encode-state.ts, the table forms ./tables.ts,
 * the host-value policy below ./normalize.ts, and what schema-specialised encoders call ./generated-encoder.ts.
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

import { hostError } from "../wire/errors.ts";
import { encodeKey, prim, quoteString } from "./primitives.ts";
import { checkHole, checkPlain, depthError, type E, makeE, nl, prefix, RESTART, type TextEncodeOptions } from "./encode-state.ts";
import { keyedForm, tableForm } from "./tables.ts";
import { normalize } from "./normalize.ts";

// the types and building blocks importers of this module take from it (generator/emit/text.ts)
export type { TextDelimiter } from "./primitives.ts";
export type { TextField } from "./headers.ts";
export type { TextEncodeOptions } from "./encode-state.ts";
export { encodeKey } from "./primitives.ts";
export { fieldList } from "./headers.ts";

/** The text of an empty array in field position (`key: []`) and at the root. */
export const EMPTY_ARRAY = "[]";

// ---------------------------------------------------------------------------------------------------------------
// The walk

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
export function emitArray(e: E, pre: string, arr: readonly unknown[], cd: number, lvl: number, tab: boolean): void {
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
export function emitItem(e: E, v: unknown, depth: number, lvl: number): void {
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
export function emitField(e: E, v: unknown, lead: string, key: string, fd: number, lvl: number): void {
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

export function encodeRoot(e: E, v: unknown): string {
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

export function withRestart(options: TextEncodeOptions | undefined, value: unknown, run: (e: E, v: unknown) => string, omit = false): string {
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
