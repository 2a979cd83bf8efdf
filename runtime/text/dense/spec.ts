/**
 * Column specs: which header a table, field group or inline array gets for the values at hand. The writer
 * computes them from the data (a column no row fills is left out; an optional nested object becomes a field
 * group only when "every cell empty" can only mean "absent"); the reader parses the same tree from the header.
 */
import { getOwn, hasOwn, isJsonLike } from "../../wire/objects.ts";
import { droppedConst, nullAsEmpty, type DenseModel, type ShapeInfo } from "./model.ts";

export const CELL = 0;
export const GROUP = 1;
export const ARRAY = 2;

export interface Col {
  key: string;
  spec: Spec;
  /** Plain groups: the property's index. Variant groups: the property index per branch (-1: not in it). */
  prop: number;
  props: number[] | undefined;
  /** Plain groups: the property's info. */
  info: ShapeInfo | undefined;
  /** The discriminator column of a variant group. */
  disc: boolean;
  /** The key is not a property of Object.prototype: `o[key]` is safe to read. */
  safe: boolean;
  /**
   * Plain groups: a required scalar that may be null, whose null is an empty cell (a required field is never
   * absent, so the reader takes its empty cell as null; docs/TEXT.md §3).
   */
  nullEmpty: boolean;
}

/** A column, every field set in one order (one hidden class: the writer's reads of them stay monomorphic). */
function col(key: string, spec: Spec, prop: number, props: number[] | undefined, info: ShapeInfo | undefined, disc: boolean, safe: boolean, nullEmpty = false): Col {
  return { key, spec, prop, props, info, disc, safe, nullEmpty };
}


/** One cell (text or JSON, by the position's shape). */
export interface CellSpec {
  t: 0;
}
/** A field group `{a,b{c}}`: the object's cells in header order; `info` is the object (or the discriminated union). */
export interface GroupSpec {
  t: 1;
  info: ShapeInfo;
  cols: Col[];
  leaves: number;
  /** The writer's: what `"key":` costs for these columns in JSON (set on first use). */
  keyChars: number | undefined;
  /** The writer's: the header text (set on first use). */
  header: string | undefined;
}
/** An inline array `[N:item;item]` of `item` specs; `info` is the array's item info. */
export interface ArraySpec {
  t: 2;
  info: ShapeInfo;
  item: Spec;
}
export type Spec = CellSpec | GroupSpec | ArraySpec;

export const CELL_SPEC: CellSpec = { t: 0 };

export interface Pair {
  info: ShapeInfo;
  value: unknown;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An object whose own keys are all declared properties of `info` (no extras to carry). */
export function fitsObject(info: ShapeInfo, v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v)) return false;
  const index = info.index!;
  for (const k in v) if (!index.has(k) && hasOwn(v, k) && v[k] !== undefined) return false;
  return true;
}

/**
 * The branch index of a discriminated-union value, or -1. `fits`: only when the value has no keys beyond its
 * branch's properties (a table row or field group cannot carry extras; field lines can).
 */
export function branchOf(info: ShapeInfo, v: unknown, fits = true): number {
  const d = info.disc!;
  if (!isPlainObject(v) || !hasOwn(v, d.property)) return -1;
  const b = d.values.indexOf(v[d.property] as string);
  return b >= 0 && (!fits || fitsObject(d.branches[b]!, v)) ? b : -1;
}

export function computeSpec(model: DenseModel, pairs: Pair[]): Spec {
  if (pairs.length === 0) return CELL_SPEC;
  const i0 = pairs[0]!.info;
  for (let i = 1; i < pairs.length; i++) if (pairs[i]!.info !== i0) return CELL_SPEC;
  if (i0.spelling === "text") return CELL_SPEC;
  const values = pairs.map((p) => p.value);
  return specOf(model, i0, values);
}

export function specOf(model: DenseModel, info: ShapeInfo, values: unknown[]): Spec {
  if (info.spelling === "object") {
    for (const v of values) if (!fitsObject(info, v)) return CELL_SPEC;
    const g = groupSpec(model, info, values as Record<string, unknown>[]);
    // a group with no cells could not say whether its object is there: `{}` in JSON instead
    return g.t === GROUP && g.leaves === 0 ? CELL_SPEC : g;
  }
  const s = info.shape;
  if (s.kind === "array") {
    const items: unknown[] = [];
    for (const v of values) {
      if (!Array.isArray(v)) return CELL_SPEC;
      for (const x of v) items.push(x);
    }
    const itemInfo = info.itemInfo ?? model.info(s.items);
    const item = itemInfo.spelling === "text" ? CELL_SPEC : specOf(model, itemInfo, items);
    const last = info.lastArray;
    if (last !== undefined && last.item === item) return last;
    return (info.lastArray = { t: ARRAY, info: itemInfo, item });
  }
  if (info.nonNull !== undefined) {
    for (const v of values) if (v === null) return CELL_SPEC;
    return specOf(model, info.nonNull, values);
  }
  if (info.disc !== undefined) return variantSpec(model, info, values);
  if (info.open !== undefined) return openSpec(model, info, info.open, values);
  return CELL_SPEC;
}

/**
 * The group of objects at a position the schema leaves open (`any`, a map of scalars): its columns are the keys
 * the values have, in first-seen order (docs/TEXT.md §3). Where anything may stand, a key whose values are all
 * objects is a nested group of their keys in turn, and any other key one cell (a composite there is JSON); in a
 * map of scalars every key is one cell of the map's value type. Only when at least half of the cells are filled:
 * sparse keys cost more commas than JSON spends on naming them.
 */
function openSpec(model: DenseModel, info: ShapeInfo, cell: ShapeInfo, values: unknown[], depth = 0): Spec {
  const keys: string[] = [];
  const objects = new Map<string, boolean>();
  let filled = 0;
  for (const v of values) {
    if (!isPlainObject(v)) return CELL_SPEC;
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (x === undefined) continue;
      if (!spellable(x)) return CELL_SPEC;
      filled++;
      const o = objects.get(k);
      if (o === undefined) keys.push(k);
      objects.set(k, (o ?? true) && isPlainObject(x));
    }
  }
  if (keys.length === 0 || filled * 2 < keys.length * values.length) return CELL_SPEC;
  // objects whose keys differ (each without most of the others' keys) are no columns of one header: a merged
  // header would hold mostly empty cells, each row's fields lost among them
  if (values.length > 1) for (const v of values) if (keyCount(v as Record<string, unknown>) * 2 <= keys.length) return CELL_SPEC;
  const cols: Col[] = [];
  for (const k of keys) {
    let spec: Spec = CELL_SPEC;
    if (cell.anyCell === true && objects.get(k) === true && depth < OPEN_NESTING) {
      const sub: unknown[] = [];
      for (const v of values) {
        const x = getOwn(v as object, k);
        if (x !== undefined) sub.push(x);
      }
      // a nested group whose cells are all empty would read as an absent key: `{}` anywhere keeps the cell
      spec = openSpec(model, model.any, cell, sub, depth + 1);
      if (spec.t === GROUP && !sub.every((x) => nonEmpty(spec, x))) spec = CELL_SPEC;
    }
    cols.push(col(k, spec, -1, undefined, cell, false, !(k in Object.prototype)));
  }
  const last = info.lastGroup;
  if (last !== undefined && sameCols(last.cols, cols)) return last;
  return (info.lastGroup = { t: GROUP, info, cols, leaves: leafCount(cols), keyChars: undefined, header: undefined });
}

function keyCount(v: Record<string, unknown>): number {
  let n = 0;
  for (const k of Object.keys(v)) if (v[k] !== undefined) n++;
  return n;
}

/** Open objects nest headers this many levels below the first at most (then JSON cells): deeper is no read. */
const OPEN_NESTING = 4;

/**
 * A value an open position's cell spells and reads back as it is: a finite number, a string, a boolean, null, or
 * an object or array of those (JSON). Not a bigint (an int64's digits are the schema's to read, none here).
 */
function spellable(x: unknown): boolean {
  switch (typeof x) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(x);
    case "object":
      return x === null || isJsonLike(x);
    default:
      return false;
  }
}

function groupSpec(model: DenseModel, info: ShapeInfo, values: Record<string, unknown>[]): Spec {
  const cols: Col[] = [];
  const props = info.props!;
  const pinfos = info.propInfos!;
  const dropped = info.dropped!;
  const cellCols = (info.cellCols ??= []);
  for (let j = 0; j < props.length; j++) {
    if (dropped[j]) continue;
    const p = props[j]!;
    const name = p.name;
    const pinfo = pinfos[j]!;
    // a key Object.prototype does not have reads directly (an absent one cannot find an inherited value)
    const safe = !(name in Object.prototype);
    if (pinfo.spelling === "text") {
      // a scalar column: only whether some value fills it
      let filled = false;
      for (let i = 0; i < values.length && !filled; i++) {
        const v = values[i]!;
        filled = (safe ? v[name] : hasOwn(v, name) ? v[name] : undefined) !== undefined;
      }
      if (filled) cols.push((cellCols[j] ??= col(name, CELL_SPEC, j, undefined, pinfo, false, safe, nullAsEmpty(p.required, pinfo))));
      continue;
    }
    const sub: unknown[] = [];
    for (const v of values) {
      const x = hasOwn(v, name) ? v[name] : undefined;
      if (x !== undefined) sub.push(x);
    }
    if (sub.length === 0) continue;
    let spec = specOf(model, pinfo, sub);
    if (spec.t !== CELL && (!p.required || sub.length < values.length) && !sub.every((x) => nonEmpty(spec, x))) spec = CELL_SPEC;
    cols.push(spec === CELL_SPEC ? (cellCols[j] ??= col(name, CELL_SPEC, j, undefined, pinfo, false, safe)) : col(name, spec, j, undefined, pinfo, false, safe));
  }
  // the same columns as the last document's (their specs are shared too): that spec, its header and sizes known
  const last = info.lastGroup;
  if (last !== undefined && sameCols(last.cols, cols)) return last;
  const g: GroupSpec = { t: GROUP, info, cols, leaves: leafCount(cols), keyChars: undefined, header: undefined };
  info.lastGroup = g;
  return g;
}

function sameCols(a: Col[], b: Col[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y && (x.key !== y.key || x.spec !== y.spec)) return false;
  }
  return true;
}

function variantSpec(model: DenseModel, info: ShapeInfo, values: unknown[]): Spec {
  const d = info.disc!;
  const branchOfValue: number[] = [];
  for (const v of values) {
    const b = branchOf(info, v);
    if (b < 0) return CELL_SPEC;
    branchOfValue.push(b);
  }
  const cols: Col[] = [(info.discCol ??= col(d.property, CELL_SPEC, -1, undefined, undefined, true, false))];
  for (const { name, at, cell, text } of (info.variantProps ??= variantProps(model, info))) {
    if (text) {
      // scalars in every branch: a cell column when some value fills it
      let filled = false;
      for (let i = 0; i < values.length && !filled; i++) filled = at[branchOfValue[i]!]! >= 0 && (values[i] as Record<string, unknown>)[name] !== undefined;
      if (filled) cols.push(cell);
      continue;
    }
    const pairs: Pair[] = [];
    for (let i = 0; i < values.length; i++) {
      const b = branchOfValue[i]!;
      const j = at[b]!;
      if (j < 0) continue;
      const x = (values[i] as Record<string, unknown>)[name];
      if (x !== undefined) pairs.push({ info: d.branches[b]!.propInfos![j]!, value: x });
    }
    if (pairs.length === 0) continue;
    let spec = computeSpec(model, pairs);
    if (spec.t !== CELL && !pairs.every((p) => nonEmpty(spec, p.value))) spec = CELL_SPEC;
    cols.push(spec === CELL_SPEC ? cell : col(name, spec, -1, at, undefined, false, false));
  }
  const last = info.lastGroup;
  if (last !== undefined && sameCols(last.cols, cols)) return last;
  return (info.lastGroup = { t: GROUP, info, cols, leaves: leafCount(cols), keyChars: undefined, header: undefined });
}

/**
 * A discriminated union's columns after the discriminator, from the schema alone (so once per union): every
 * branch property by name, in first-seen order, with its index in each branch (-1: not in that branch).
 */
function variantProps(model: DenseModel, info: ShapeInfo): VariantProp[] {
  const d = info.disc!;
  const byName = new Map<string, number[]>();
  const order: string[] = [];
  d.branches.forEach((b, bi) => {
    b.props!.forEach((p, j) => {
      if (p.name === d.property || droppedConst(p, model)) return;
      let at = byName.get(p.name);
      if (at === undefined) {
        at = d.branches.map(() => -1);
        byName.set(p.name, at);
        order.push(p.name);
      }
      at[bi] = j;
    });
  });
  return order.map((name) => {
    const at = byName.get(name)!;
    const text = at.every((j, b) => j < 0 || d.branches[b]!.propInfos![j]!.spelling === "text");
    return { name, at, cell: col(name, CELL_SPEC, -1, at, undefined, false, false), text };
  });
}

export interface VariantProp {
  name: string;
  at: number[];
  /** Its column when the cells are scalars (or JSON). */
  cell: Col;
  /** A scalar in every branch that has it: always a cell column. */
  text: boolean;
}

/** Whether the cells of a present value are not all empty (so that all-empty can mean absent). */
export function nonEmpty(spec: Spec, v: unknown): boolean {
  if (spec.t !== GROUP) return true;
  if (spec.info.disc !== undefined) return true; // the discriminator cell
  for (const c of spec.cols) {
    const x = (v as Record<string, unknown>)[c.key];
    // a required null is an empty cell where the group has more than one (write.ts groupCells)
    if (x !== undefined && !(x === null && c.nullEmpty && spec.leaves > 1) && hasOwn(v as object, c.key) && nonEmpty(c.spec, x)) return true;
  }
  return false;
}

export function leafCount(cols: Col[]): number {
  let n = 0;
  for (const c of cols) n += c.spec.t === GROUP ? c.spec.leaves : 1;
  return n;
}

/** Whether a spec holds an inline array of objects (then a lone object is better written as field lines). */
export function hasObjectArray(spec: Spec): boolean {
  if (spec.t === ARRAY) return spec.item.t !== CELL || hasObjectArray(spec.item);
  if (spec.t === GROUP) return spec.cols.some((c) => hasObjectArray(c.spec));
  return false;
}

/** The header text of a group's columns: `{a,b{c,d},e[]{f}}`. */
export function headerOf(cols: Col[], spellKey: (k: string) => string): string {
  let s = "{";
  for (let i = 0; i < cols.length; i++) {
    if (i > 0) s += ",";
    const c = cols[i]!;
    s += spellKey(c.key) + suffixOf(c.spec, spellKey);
  }
  return s + "}";
}

function suffixOf(spec: Spec, spellKey: (k: string) => string): string {
  if (spec.t === GROUP) return headerOf(spec.cols, spellKey);
  if (spec.t === ARRAY) return "[]" + suffixOf(spec.item, spellKey);
  return "";
}
