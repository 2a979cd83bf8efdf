/**
 * The dense layout's headers (docs/TEXT.md): a header's columns read (`{id,customer{id,name},items[]{sku}}`) and
 * bound to the schema's shapes once per header text (bindings kept per model), a discriminated union's value, an
 * array's length. The cells under a header are ./dense-cells.ts's.
 */
import type { DenseModel, ShapeInfo } from "../dense/model.ts";
import { droppedConst } from "../dense/model.ts";
import { readJsonString } from "../dense/json.ts";
import { DenseLine, prefixed } from "./dense-line.ts";

/** A parsed header entry: `key`, `key{...}`, `key[]...`. */
export type HSpec = { t: 0 } | { t: 1; cols: HCol[] } | { t: 2; item: HSpec };
export interface HCol {
  key: string;
  spec: HSpec;
  at: number;
}

/** A header bound to the schema. */
export type Bound = BCell | BGroup | BArray;
export interface BCell {
  t: 0;
  info: ShapeInfo;
}
export interface BGroup {
  t: 1;
  info: ShapeInfo;
  /** Plain group: one entry per column. */
  cols?: { key: string; bound: Bound; required: boolean }[];
  /** Variant group: per branch, one entry per column (undefined: the branch has no such field). */
  branches?: ({ key: string; bound: Bound; required: boolean } | undefined)[][];
  discCol?: number;
  /** Variant group: each column's leaf count (a column a branch lacks is that many empty cells). */
  colLeaves?: number[];
  /** Variant group: per branch, the error binding the header to it (thrown by a row of that branch). */
  unfit?: (unknown | undefined)[];
  /** Plain group: some property has no column (a dropped const to put back). */
  needsComplete?: boolean;
  /** Per branch (or [0] for a plain group): required fields no column carries. */
  missing: (string | undefined)[];
  leaves: number;
}
export interface BArray {
  t: 2;
  info: ShapeInfo;
  item: Bound;
}

export class DenseHeaders extends DenseLine {
  /** Whether branch `bi`'s object may hold its discriminator first from the start (see `discFirst` below). */
  protected discFirst(d: NonNullable<ShapeInfo["disc"]>, bi: number): boolean {
    return (d.first ??= d.branches.map((br) => discFirst(br, d.property, this.model)))[bi]!;
  }

  protected header(): HCol[] {
    // at "{"
    this.deeper();
    this.pos++;
    const cols: HCol[] = [];
    // spaces around a field name are not part of it, as in rows (blanks): `{id, name}`
    if (this.blanks() === 125) {
      this.pos++;
      this.depth--;
      return cols;
    }
    for (;;) {
      const at = this.pos;
      const key = this.key();
      this.blanks();
      cols.push({ key, spec: this.suffix(), at });
      const c = this.blanks();
      this.pos++;
      if (c === 44) this.blanks();
      if (c === 125) {
        this.depth--;
        return cols;
      }
      if (c !== 44) this.fail('expected "," or "}" in a header', this.pos - 1);
    }
  }

  protected suffix(): HSpec {
    const c = this.text.charCodeAt(this.pos);
    if (c === 123) return { t: 1, cols: this.header() };
    if (c === 91) {
      if (this.text.charCodeAt(this.pos + 1) !== 93) this.fail('expected "[]" (an inline array column) in a header', this.pos + 1);
      this.pos += 2;
      this.deeper();
      const item = this.suffix();
      this.depth--;
      return { t: 2, item };
    }
    return { t: 0 };
  }

  /**
   * The header at `pos` (a "{"), bound to `info`: the same header text as an earlier document's (the common case:
   * a codec reads the same tables again) takes that binding, without parsing or binding it again. Only bindings
   * that hold no deferred error are kept (those carry a position of the text they came from), at most 8 per shape
   * and headers of at most 2,048 characters, so what a codec keeps stays small whatever it reads.
   */
  protected boundHeader(info: ShapeInfo, path: string): BGroup {
    const t = this.text;
    const at = this.pos;
    let seen = this.bounds.get(info);
    if (seen !== undefined) {
      for (const e of seen) {
        if (t.startsWith(e.text, at)) {
          this.pos = at + e.text.length;
          return e.bound;
        }
      }
    }
    const b = this.bind({ t: 1, cols: this.header() }, info, at, path) as BGroup;
    if (!deferred(b)) {
      if (seen === undefined) this.bounds.set(info, (seen = []));
      // a copy of the header text, not a slice that would keep the whole document alive
      if (seen.length < 8 && this.pos - at <= 2048) seen.push({ text: (" " + t.slice(at, this.pos)).slice(1), bound: b });
    }
    return b;
  }

  protected bind(h: HSpec, info: ShapeInfo, at: number, path: string): Bound {
    if (h.t === 0) return { t: 0, info };
    if (info.nonNull !== undefined) info = info.nonNull;
    if (h.t === 2) {
      if (info.shape.kind !== "array") this.invalid(`${path || "the value"} is not an array, but its header says []`, at);
      const item = this.model.info(info.shape.items);
      return { t: 2, info: item, item: this.bind(h.item, item, at, path + "/[]") };
    }
    if (info.spelling === "object") {
      const cols: { key: string; bound: Bound; required: boolean }[] = [];
      const seen = new Set<string>();
      for (const c of h.cols) {
        const j = info.index!.get(c.key);
        if (j === undefined) this.invalid(`unknown field ${JSON.stringify(c.key)}${path ? " in " + path : ""}`, c.at);
        if (seen.has(c.key)) this.fail(`field ${JSON.stringify(c.key)} twice in a header`, c.at);
        seen.add(c.key);
        const p = info.props![j]!;
        // the schema's own key (the same text, already an internalized string): every row's store uses it
        // a required const the writer drops may still have a column: empty there, `complete` puts it back
        cols.push({ key: p.name, bound: this.bind(c.spec, this.model.info(p.shape), c.at, path + "/" + c.key), required: p.required && !droppedConst(p, this.model) });
      }
      // dropped consts to put back, or fields no column names (checked against `required`): `complete`
      const needsComplete = info.props!.some((p) => !seen.has(p.name));
      return { t: 1, info, cols, missing: [this.missingOf(info, seen)], leaves: leaves(cols.map((c) => c.bound)), needsComplete };
    }
    if (info.disc !== undefined) {
      const d = info.disc;
      const discCol = h.cols.findIndex((c) => c.key === d.property);
      if (discCol !== 0) this.invalid(`a header of ${d.property}-discriminated objects must start with ${d.property}`, at);
      const branches: ({ key: string; bound: Bound; required: boolean } | undefined)[][] = [];
      const missing: (string | undefined)[] = [];
      // a header describes the branches its rows use: a column that does not fit another branch fails only on
      // a row of that branch
      const unfit: (unknown | undefined)[] = [];
      const known = new Set<string>([d.property]);
      for (const b of d.branches) {
        const row: ({ key: string; bound: Bound; required: boolean } | undefined)[] = [];
        const seen = new Set<string>([d.property]);
        for (const c of h.cols) {
          if (c.key === d.property) {
            row.push(undefined);
            continue;
          }
          const j = b.index!.get(c.key);
          if (j === undefined) {
            row.push(undefined);
            continue;
          }
          known.add(c.key);
          seen.add(c.key);
          const p = b.props![j]!;
          try {
            // a branch's required const is dropped (its cell empty) even where another branch fills the column
            row.push({ key: p.name, bound: this.bind(c.spec, this.model.info(p.shape), c.at, path + "/" + c.key), required: p.required && !droppedConst(p, this.model) });
          } catch (e) {
            unfit[branches.length] ??= e;
            row.push(undefined);
          }
        }
        branches.push(row);
        missing.push(this.missingOf(b, seen));
      }
      for (const c of h.cols) if (!known.has(c.key)) this.invalid(`unknown field ${JSON.stringify(c.key)}${path ? " in " + path : ""}`, c.at);
      let n = 0;
      for (const c of h.cols) n += c.spec.t === 1 ? countLeaves(c.spec) : 1;
      return { t: 1, info, branches, discCol, missing, unfit, leaves: n, colLeaves: h.cols.map((c) => countLeaves(c.spec)) };
    }
    if (info.open !== undefined) {
      // a position the schema leaves open (`any`, a map): the header names the keys, each one cell of the open info
      const cols: { key: string; bound: Bound; required: boolean }[] = [];
      const seen = new Set<string>();
      const cell: Bound = { t: 0, info: info.open };
      for (const c of h.cols) {
        // where anything may stand, a key's value may be an object of its own keys (a nested header); a map's
        // values are its value type, one cell each; arrays are JSON cells
        if (c.spec.t === 2 || (c.spec.t === 1 && info.open.anyCell !== true)) this.invalid(`${JSON.stringify(c.key)}${path ? " in " + path : ""} is a key of an open object: one cell${info.open.anyCell === true ? " or a field group" : ""}, not ${c.spec.t === 1 ? "a field group" : "an inline array"}`, c.at);
        if (seen.has(c.key)) this.fail(`field ${JSON.stringify(c.key)} twice in a header`, c.at);
        seen.add(c.key);
        cols.push({ key: c.key, bound: c.spec.t === 1 ? this.bind(c.spec, this.model.any, c.at, path + "/" + c.key) : cell, required: false });
      }
      return { t: 1, info, cols, missing: [undefined], leaves: leaves(cols.map((c) => c.bound)), needsComplete: false };
    }
    return this.invalid(`${path || "the value"} is not an object, but its header names fields`, at);
  }

  protected missingOf(info: ShapeInfo, seen: Set<string>): string | undefined {
    for (const p of info.props!) if (p.required && !seen.has(p.name) && !droppedConst(p, this.model)) return p.name;
    return undefined;
  }

  /** A discriminator's cell: the index of the branch it names. */
  protected discValue(d: NonNullable<ShapeInfo["disc"]>): number {
    const at = this.pos;
    let v: unknown;
    try {
      v = this.text.charCodeAt(this.pos) === 34 ? readJsonString(this.cursor()) : this.rawToken();
    } catch (e) {
      throw prefixed(e, d.property);
    }
    const values = d.values;
    let b = -1;
    for (let i = 0; i < values.length; i++) {
      const x = values[i];
      if (x === v || (typeof x !== "string" && String(x) === v)) {
        b = i;
        break;
      }
    }
    if (b < 0) throw prefixed(this.errorAt("INVALID_VALUE", `${d.property} must be one of ${d.values.map((x) => JSON.stringify(x)).join(", ")}`, at), d.property);
    return b;
  }

  /** An array length: digits, no leading zero, at most 9 of them. */
  protected count(): number {
    const start = this.pos;
    let n = 0;
    while (this.pos < this.le) {
      const c = this.text.charCodeAt(this.pos);
      if (c < 48 || c > 57) break;
      n = n * 10 + (c - 48);
      this.pos++;
    }
    if (this.pos === start || this.pos - start > 9 || (this.text.charCodeAt(start) === 48 && this.pos - start > 1)) this.fail("expected an array length", start);
    return n;
  }

}

function deferred(b: Bound): boolean {
  if (b.t === 2) return deferred(b.item);
  if (b.t === 0) return false;
  if (b.unfit !== undefined && b.unfit.some((e) => e !== undefined)) return true;
  if (b.cols !== undefined) return b.cols.some((c) => deferred(c.bound));
  return b.branches!.some((row) => row.some((c) => c !== undefined && deferred(c.bound)));
}

/** Cells a row of these bindings holds (a group: its leaves). */
export function leaves(bs: Bound[]): number {
  let n = 0;
  for (const b of bs) n += b.t === 1 ? b.leaves : 1;
  return n;
}

function countLeaves(h: HSpec): number {
  if (h.t !== 1) return 1;
  let n = 0;
  for (const c of h.cols) n += countLeaves(c.spec);
  return n;
}

/** Whether a branch's object may hold its discriminator from the start: the branch has no such required field, or drops it (a const). */
function discFirst(branch: ShapeInfo, property: string, model: DenseModel): boolean {
  const j = branch.index!.get(property);
  if (j === undefined) return true;
  const p = branch.props![j]!;
  return !p.required || droppedConst(p, model);
}
