/**
 * Where the unfinished line of dense text will put its values (./partial-text.ts), read from the dense reader's
 * open frames alone (./dense.ts): a field line's value, a table row's cells, a list item. Kept apart from the
 * reader, so that reading whole texts (`fromText`) carries none of it.
 */
import type { Shape } from "../../codec/descriptor.ts";
import type { ShapeInfo } from "../dense/model.ts";
import type { DenseTextReader } from "./dense.ts";
import { FIELDS, LIST, TABLE } from "./dense-frames.ts";
import { fieldValuePlan, lineIndent, lineKey, type Keys, type LinePlan, type PlanAnswer } from "./partial-text.ts";

/**
 * The plan of the unfinished line `line` of `r`'s text. `isText`: whether the value at these keys is a string whose
 * text may be shown as it grows.
 */
export function densePlan(r: DenseTextReader, line: string, isText: (keys: Keys) => boolean): PlanAnswer {
  if (r.failed !== undefined || r.held !== undefined || r.vias > 0) return null;
  const n = lineIndent(line);
  if (n === undefined) return undefined;
  const stack = r.stack;
  if (stack.length === 0) {
    // the first line: a field line of an object root
    const root = r.model.root.nonNull ?? r.model.root;
    return r.started || n !== 0 || root.spelling !== "object" ? null : fieldPlan(root, line, 0, [], isText);
  }
  // the frame that reads a line so indented: the top one, or one below it that the line returns to
  for (let k = stack.length - 1; k >= 0; k--) {
    const f = stack[k]!;
    if (f.t === FIELDS) {
      if (f.first !== -1 || n > f.ind) return null;
      if (n < f.ind || (line.charCodeAt(n) === 45 && (n + 1 === line.length || line.charCodeAt(n + 1) === 32))) continue;
      return fieldPlan(f.info, line, n, r.keysTo(k), isText);
    }
    if (f.t !== TABLE && f.t !== LIST) return null;
    // a list's item whose lines the frames above read is stored when they close: the line is the next item's
    const i = k < stack.length - 1 ? f.i + 1 : f.i;
    if (i === f.n) {
      if (n > f.ind) return null;
      continue;
    }
    // a table's rows one level in, or flush left (at depth 0, as its first row says)
    const flush = f.t === TABLE && f.ind === 0 && (f.flush || (f.i === 0 && n === 0));
    if (n !== (flush ? f.ind : f.ind + 2)) return null;
    const keys = [...r.keysTo(k), i];
    if (f.t === TABLE) {
      const cols = f.b!.cols;
      if (cols === undefined) return null; // (a variant row: which columns it has, its first cell says)
      const cells: (Keys | null)[] = [];
      for (const c of cols) {
        if (c.bound.t !== 0) break; // a group's or an array's cells: which leaf is which, its brackets say
        cells.push(isText([...keys, c.key]) ? [c.key] : null);
      }
      return { keys, start: n, delim: 44, cells } satisfies LinePlan;
    }
    if (n + 1 >= line.length) return undefined;
    if (line.charCodeAt(n) !== 45 || line.charCodeAt(n + 1) !== 32) return null;
    const info = f.info.nonNull ?? f.info;
    if (info.spelling === "object") return fieldPlan(info, line, n + 2, keys, isText);
    return isText(keys) ? { keys, start: n + 2, delim: 0, cells: [[]] } : null;
  }
  return null;
}

/** A field line of the object `info`, its key at `at`. */
function fieldPlan(info: ShapeInfo, line: string, at: number, keys: Keys, isText: (keys: Keys) => boolean): PlanAnswer {
  const k = lineKey(line, at);
  if (k === undefined || k === null) return k;
  const s = info.shape as Extract<Shape, { kind: "object" }>;
  if (info.index === undefined || (!info.index.has(k.key) && s.additional === false)) return null;
  return fieldValuePlan(line, k.end, [...keys, k.key], isText);
}
