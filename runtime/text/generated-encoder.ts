/**
 * What schema-specialised generated text encoders call (`Codec.toText`, runtime/codegen.ts). Generated code appends
 * to the same encoder state as the generic walk (./encode.ts) and hands any sub-value its schema does not pin down
 * to the generic functions, so the output is the generic output by construction; `encodeTextWith` runs it and falls
 * back to the generic encoder whenever it declines or throws.
 */
import { refuseDense } from "./layout.ts";
import { encStr, prim } from "./primitives.ts";
import { checkHole, type E, makeE, RESTART, type TextEncodeOptions } from "./encode-state.ts";
import { emitArray, emitField, encodeRoot, withRestart } from "./encode.ts";

export type { TextState } from "./encode-state.ts";

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
/* "\n" + indentation for `depth`. */
export { nl as textNl } from "./encode-state.ts";
/* A string value quoted for delimiter code `dc` (44, 9 or 124). */
export { encStr as textStr } from "./primitives.ts";
/*
 * Generic `key: value` field whose line starts with `lead`, standing at depth `fd`, inside an object of level `lvl`;
 * a generic list item at `depth`; a generic non-empty array whose header line starts with `pre`, items at `cd`.
 */
export { emitField as textField, emitItem as textItem, emitArray as textArray } from "./encode.ts";
/* Generic tabular form of an array (`[N]{fields}:` + rows) or null; keyed tabular form of an object (`[N:]{fields}:` + entries) or null. */
export { tableForm as textTable, keyedForm as textKeyed } from "./tables.ts";
