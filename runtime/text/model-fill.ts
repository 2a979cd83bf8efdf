/**
 * Model output, read the way a model writes it: before the check pass, `fromModelOutput` walks the decoded value
 * along a small fill spec derived from the schema (./fill-spec.ts, which generator/emit/model-fill.ts writes into
 * a module):
 * - an optional property whose value is `""` in a TOON payload is absent: that is an empty table cell, which is
 *   how a model writes "unknown" in a row (formatInstructions says so), never the empty string;
 * - a missing property with a schema default (JSON Schema `default`, Zod `.default()`) gets a copy of it.
 * The spec holds only the objects where one of these can happen and the paths leading to them, so most codecs
 * have none. The value is the decoder's fresh copy: it is changed in place.
 */
import { TextNumber } from "./decode.ts";

/** Where fixes apply: an object's properties, array items, a definition, or the branches of a union. */
export type FillShape =
  | { o: FillProp[] }
  | { a: FillShape }
  | { r: string }
  /** Discriminated union: the property, then per tag value the branch's spec. */
  | { u: string; b: [tag: unknown, shape: FillShape][] }
  /** Other unions: the first spec whose kind (object or array) fits the value. */
  | { v: FillShape[] };

/** `[name, optional, sub-spec (0: none), default (absent: none)]`. */
export type FillProp = [name: string, optional: 0 | 1, sub: FillShape | 0, dflt?: unknown];

export interface FillSpec {
  root: FillShape;
  defs: Readonly<Record<string, FillShape>>;
}

const hasOwn = Object.prototype.hasOwnProperty;
const MAX_DEPTH = 1000;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof TextNumber);
}

function copy(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

/** Apply `spec` to `value` in place (`toon`: the payload was TOON, so `""` of an optional property is absent). */
export function applyFill(value: unknown, spec: FillSpec, toon: boolean): void {
  walk(value, spec.root, spec, toon, 0);
}

/** Apply the part `shape` of `spec` to a value read on its own (a row of a table, a field: a streaming reader's). */
export function applyFillAt(value: unknown, shape: FillShape, spec: FillSpec, toon: boolean): void {
  walk(value, shape, spec, toon, 0);
}

/**
 * The part of `spec` for the value at `key` of a value whose part is `shape` (0: nothing to fill there; a union's
 * part is its branches' own, which the walk picks by the value).
 */
export function fillChild(shape: FillShape | 0, key: string | number, spec: FillSpec): FillShape | 0 {
  if (shape === 0) return 0;
  const s = deref(shape, spec);
  if (s === undefined) return 0;
  if ("a" in s) return typeof key === "number" ? s.a : 0;
  if ("o" in s) {
    if (typeof key !== "string") return 0;
    for (const p of s.o) if (p[0] === key) return p[2];
    return 0;
  }
  return 0;
}

function deref(s: FillShape, spec: FillSpec): FillShape | undefined {
  let cur: FillShape | undefined = s;
  for (let i = 0; cur !== undefined && "r" in cur && i < 32; i++) cur = hasOwn.call(spec.defs, cur.r) ? spec.defs[cur.r] : undefined;
  return cur;
}

function walk(v: unknown, s: FillShape, spec: FillSpec, toon: boolean, depth: number): void {
  if (depth > MAX_DEPTH) return; // the check pass reports the depth
  if ("r" in s) {
    const d = deref(s, spec);
    if (d !== undefined) walk(v, d, spec, toon, depth + 1);
    return;
  }
  if ("a" in s) {
    if (Array.isArray(v)) for (const x of v) walk(x, s.a, spec, toon, depth + 1);
    return;
  }
  if ("u" in s) {
    if (!isObject(v)) return;
    const tag = hasOwn.call(v, s.u) ? v[s.u] : undefined;
    for (const [t, b] of s.b) if (t === tag || (tag instanceof TextNumber && tag.value === t)) return walk(v, b, spec, toon, depth + 1);
    return;
  }
  if ("v" in s) {
    for (const b of s.v) {
      const d = deref(b, spec);
      if (d !== undefined && (("o" in d && isObject(v)) || ("a" in d && Array.isArray(v)))) return walk(v, d, spec, toon, depth + 1);
    }
    return;
  }
  if (!isObject(v)) return;
  for (const [name, optional, sub, ...dflt] of s.o) {
    if (hasOwn.call(v, name)) {
      if (toon && optional === 1 && v[name] === "") {
        delete v[name];
      } else {
        if (sub !== 0) walk(v[name], sub, spec, toon, depth + 1);
        continue;
      }
    }
    if (dflt.length > 0) Object.defineProperty(v, name, { value: copy(dflt[0]), enumerable: true, writable: true, configurable: true });
  }
}
