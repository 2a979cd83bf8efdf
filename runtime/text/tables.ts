/**
 * The tabular forms of TOON text (spec v4.0 §9.3 tabular arrays, §9.5 keyed tabular objects): the plan of the first
 * row (its keys, nested field groups for columns of uniform objects), every other row fitted against it in the same
 * pass that writes its cells, and the field lists detected for callers that write headers themselves.
 */
import { ToonError } from "../wire/errors.ts";
import { hasOwn } from "../wire/objects.ts";
import { encodeKey, prim } from "./primitives.ts";
import type { TextField } from "./headers.ts";
import { checkPlain, depthError, type E, isObj, nl, prefix, RESTART } from "./encode-state.ts";

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
export function keyedForm(e: E, obj: Record<string, unknown>, keys: string[], depth: number, lvl: number): string | null {
  return keys.length < 2 || !isObj(obj[keys[0]]) ? null : tabular(e, obj, keys, depth, lvl);
}

/** Tabular form of `arr` (§9.3) as `"[N<d>]{fields}:"` + rows at `depth`, or null when the array does not qualify. */
export function tableForm(e: E, arr: readonly unknown[], depth: number, lvl: number): string | null {
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
