/**
 * Where the unfinished line of TOON v4 text will put its values (./partial-text.ts), read from the TOON reader's
 * open scopes alone (./toon-read.ts): a field line's value, a table row's cells (nested field groups by their
 * leaves), a list item. Kept apart from the reader, so that reading whole texts carries none of it.
 */
import type { FieldGroup } from "./toon-line.ts";
import type { R } from "./toon-read.ts";
import { fieldValuePlan, lineIndent, lineKey, type Keys, type PlanAnswer } from "./partial-text.ts";

/**
 * The plan of the unfinished line `line` of the reader state `s`. `isText`: whether the value at these keys is a
 * string whose text may be shown as it grows (TOON v4 is read without the schema: the caller's schema says).
 */
export function toonPlan(s: R, line: string, isText: (keys: Keys) => boolean): PlanAnswer {
  if (s.failed !== undefined || s.ended || (s.root !== 3 && s.root !== 0)) return null;
  const n = lineIndent(line);
  if (n === undefined) return undefined;
  // the first line: a field line of an object root (or what no key begins: a root array, a scalar)
  if (s.root === 0) return n === 0 ? fieldPlan(line, 0, [], isText) : null;
  const c = line.charCodeAt(n);
  if (c === 9 || c === 35 || n % s.indent !== 0) return null; // a tab, a comment, an indentation error
  const dep = n / s.indent;
  for (let k = s.sp; k >= 0; k--) {
    const f = s.stack[k]!;
    if (f.k === 0 /* F_OBJ */) {
      if (dep < f.depth) continue;
      return dep === f.depth ? fieldPlan(line, n, keysTo(s, k), isText) : null;
    }
    if (f.k === 1 /* F_KEY */) {
      // a deeper line makes the key's value an object, of which it is the first field
      if (dep > f.depth) return fieldPlan(line, n, keysTo(s, k), isText);
      continue;
    }
    // F_LINES: a list's items, a table's rows (a keyed table's entries are not followed)
    const rows = f.rows < 0 ? f.depth + 1 : f.rows;
    if (dep <= f.depth) continue;
    const h = f.h!;
    if (dep !== rows || h.keyed || f.count >= h.len) return null;
    const keys = [...keysTo(s, k), f.count];
    if (h.fields === null) {
      if (n + 1 >= line.length) return undefined;
      if (c !== 45 || line.charCodeAt(n + 1) !== 32) return null;
      if (isText(keys)) return { keys, start: n + 2, delim: 0, cells: [[]] };
      return fieldPlan(line, n + 2, keys, isText); // an object item: its first field on the hyphen line
    }
    const cells: (Keys | null)[] = [];
    for (const leaf of leaves(h.fields, [], [])) cells.push(isText([...keys, ...leaf]) ? leaf : null);
    return { keys, start: n, delim: h.delim, cells };
  }
  return null;
}

/** A field line, its key at `at`, of the object at `keys`. */
function fieldPlan(line: string, at: number, keys: Keys, isText: (keys: Keys) => boolean): PlanAnswer {
  const k = lineKey(line, at);
  if (k === undefined || k === null) return k;
  return fieldValuePlan(line, k.end, [...keys, k.key], isText);
}

/** The keys from the root to the value of scope `k`. */
function keysTo(s: R, k: number): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let i = 0; i <= k; i++) {
    const seg = s.stack[i]!.seg;
    if (seg !== undefined) keys.push(seg);
  }
  return keys;
}

/** A field list's leaves in row order, each as its keys below the row. */
function leaves(g: FieldGroup, base: string[], out: string[][]): string[][] {
  for (let j = 0; j < g.names.length; j++) {
    const kid = g.kids[j];
    const keys = [...base, g.names[j]!];
    if (kid === null || kid === undefined) out.push(keys);
    else leaves(kid, keys, out);
  }
  return out;
}
