/**
 * Layout facts of a codec, as pure functions over its shapes: which definitions recurse, the fewest bytes a
 * value takes, the wire layout of an object (docs/FORMAT.md §4.5), how the encoder picks a union branch, which
 * positions go through a default-value table, and the extension properties. The engine (./engine), the
 * generator's emitter (generator/emit) and its tools (samples, inspect) all read them from here, so the
 * generated code and the engine cannot disagree.
 *
 * Every function takes shapes of any producer (`Shape<M>`): the generator's IR and a descriptor alike.
 */
import type { CodecDescriptor, ObjectShape, Shape, WireSlot } from "./descriptor.ts";
import { formatOf } from "./formats.ts";

/** How named definitions are found: a descriptor's definitions, or the generator's ModuleContext. */
export interface DefinitionLookup {
  def(name: string): { shape: Shape };
}

/** The definitions of a descriptor by name, with the facts the engine asks about them. */
export class CodecPlan implements DefinitionLookup {
  readonly defs = new Map<string, Shape>();
  /** Definitions that can reach themselves: their functions carry a depth guard. */
  readonly recursive: Set<string>;
  /** Some object has extension properties: writers track JSON pointers so records can name their object. */
  readonly evolved: boolean;

  constructor(readonly desc: CodecDescriptor) {
    for (const d of desc.definitions) this.defs.set(d.name, d.shape);
    this.recursive = recursiveDefinitions(this.defs);
    this.evolved = someObject([desc.root, ...this.defs.values()], (o) => o.wire !== undefined && o.wire.ext.length > 0);
  }

  def(name: string): { shape: Shape } {
    const shape = this.defs.get(name);
    if (shape === undefined) throw new Error(`internal: unknown definition ${name}`);
    return { shape };
  }

  minWidth(s: Shape): number {
    return minWidth(s, this);
  }
}

/** The definitions (by name) that can reach themselves through references. */
export function recursiveDefinitions(defs: ReadonlyMap<string, Shape>): Set<string> {
  const out = new Set<string>();
  for (const [name, shape] of defs) if (reaches(shape, name, defs, new Set())) out.add(name);
  return out;
}

function reaches(s: Shape, target: string, defs: ReadonlyMap<string, Shape>, seen: Set<string>): boolean {
  switch (s.kind) {
    case "ref":
      if (s.name === target) return true;
      if (seen.has(s.name)) return false;
      seen.add(s.name);
      return reaches(defs.get(s.name)!, target, defs, seen);
    case "object":
      return s.properties.some((p) => reaches(p.shape, target, defs, seen)) || (s.additional !== false && reaches(s.additional, target, defs, seen));
    case "array":
      return reaches(s.items, target, defs, seen);
    case "tuple":
      return s.items.some((i) => reaches(i, target, defs, seen)) || (s.rest !== false && reaches(s.rest, target, defs, seen));
    case "union":
      return s.branches.some((b) => reaches(b, target, defs, seen));
    default:
      return false;
  }
}

/** True when some object shape reachable from `roots` (not through references) satisfies `test`. */
export function someObject(roots: Iterable<Shape>, test: (s: ObjectShape) => boolean): boolean {
  return someShape(roots, (s) => s.kind === "object" && test(s));
}

/**
 * True when some shape reachable from `roots` satisfies `test`, each shape visited once; references are followed
 * through `resolve` when it is given (a ref it cannot resolve should come back as some other shape), else not.
 */
export function someShape(roots: Iterable<Shape>, test: (s: Shape) => boolean, resolve?: (s: Shape) => Shape): boolean {
  const seen = new Set<Shape>();
  const visit = (s0: Shape): boolean => {
    const s = resolve === undefined ? s0 : resolve(s0);
    if (seen.has(s)) return false;
    seen.add(s);
    if (test(s)) return true;
    switch (s.kind) {
      case "object":
        return s.properties.some((p) => visit(p.shape)) || (s.additional !== false && visit(s.additional));
      case "array":
        return visit(s.items);
      case "tuple":
        return s.items.some(visit) || (s.rest !== false && visit(s.rest));
      case "union":
        return s.branches.some(visit);
      default:
        return false;
    }
  };
  for (const s of roots) if (visit(s)) return true;
  return false;
}

/** Fewest bytes one encoded value of `s` can take (bounds the counts a decoder accepts). */
export function minWidth(s: Shape, cx: DefinitionLookup, seen: Set<string> = new Set()): number {
  switch (s.kind) {
    case "null":
    case "const":
      return 0;
    case "enum":
      return s.values.length > 1 ? 1 : 0;
    case "object": {
      if (s.wire !== undefined) {
        // a frozen layout (ObjectShape.wire): the bitmap when it has bits (retired slots have one), then the
        // positional required values; extension properties travel after the body, in the extension section
        const layout = objectLayout(s);
        if (layout.isMap) return 1;
        let w = layout.bits > 0 ? 1 : 0;
        for (const i of layout.order) if (s.properties[i]!.required) w += minWidth(s.properties[i]!.shape, cx, seen);
        return w;
      }
      const optional = s.properties.some((p) => !p.required) || s.additional !== false;
      let w = optional && !(s.properties.length === 0) ? 1 : 0;
      if (s.properties.length === 0 && s.additional !== false) return 1; // map: its count
      for (const p of s.properties) if (p.required) w += minWidth(p.shape, cx, seen);
      return w;
    }
    case "tuple":
    case "array":
    case "union":
      return 1;
    case "ref": {
      if (seen.has(s.name)) return 0;
      seen.add(s.name);
      const w = minWidth(cx.def(s.name).shape, cx, seen);
      seen.delete(s.name);
      return w;
    }
    default:
      return 1;
  }
}

/**
 * Object layout on the wire (docs/FORMAT.md §4.5):
 *
 *   [presence bitmap]  one bit per optional property (schema order), then one "has extras" bit when the
 *                      object is open; ceil(bits/8) bytes, LSB first; absent when there are no bits or the
 *                      object is a pure map
 *   values             required and present optional properties, in schema order
 *   [extras]           open objects: varint count then (key, value) pairs, when the extras bit is set;
 *                      pure maps (no declared properties): always
 */
export interface ObjectLayout<M extends object = {}> {
  /** Bit index of each optional property (by property index), -1 for required ones and extension properties. */
  bitOf: number[];
  /** Bit index of the extras flag, -1 when closed or a pure map. */
  extrasBit: number;
  /** Total bits (0 = no bitmap). */
  bits: number;
  isMap: boolean;
  /** Property indices in wire order (schema order, unless the dictionary froze another: ObjectShape.wire). */
  order: number[];
  /** Slots of retired properties: always written absent; when an older writer filled one, readers skip it. */
  retired: { bit: number; after: number; shape: Shape<M>; name: string }[];
  /** Properties added after the object's segment: they travel as extension records (runtime/features/extensions.ts). */
  ext: { prop: number; id: number; level: number }[];
}

/** The positional slots of a frozen layout; absent slots are the non-extension properties in schema order. */
export function wireSlots<M extends object>(s: ObjectShape<M>): WireSlot<M>[] {
  const wire = s.wire;
  if (wire === undefined) return s.properties.map((_, i) => ({ prop: i }));
  if (wire.slots !== undefined) return wire.slots;
  const ext = new Set(wire.ext.map((x) => x.prop));
  return s.properties.flatMap((_, i) => (ext.has(i) ? [] : [{ prop: i }]));
}

export function objectLayout<M extends object>(s: ObjectShape<M>): ObjectLayout<M> {
  const isMap = s.properties.length === 0 && s.additional !== false;
  let bits = 0;
  if (s.wire === undefined) {
    const bitOf = s.properties.map((p) => (p.required ? -1 : bits++));
    const extrasBit = s.additional !== false && !isMap ? bits++ : -1;
    return { bitOf, extrasBit, bits, isMap, order: s.properties.map((_, i) => i), retired: [], ext: [] };
  }
  // frozen layout: bits in slot order; `after` places a retired slot's skip after the slot before it
  const bitOf = s.properties.map(() => -1);
  const order: number[] = [];
  const retired: ObjectLayout<M>["retired"] = [];
  for (const slot of wireSlots(s)) {
    if ("prop" in slot) {
      if (!s.properties[slot.prop]!.required) bitOf[slot.prop] = bits++;
      order.push(slot.prop);
    } else {
      retired.push({ bit: bits++, after: order.length, shape: slot.shape, name: slot.retired });
    }
  }
  const extrasBit = s.additional !== false && !isMap ? bits++ : -1;
  return { bitOf, extrasBit, bits, isMap, order, retired, ext: s.wire.ext };
}

/** Mask of the valid bits of bitmap byte `i`. */
export function byteMask(bits: number, i: number): number {
  const inByte = Math.min(8, bits - i * 8);
  return inByte >= 8 ? 0xff : (1 << inByte) - 1;
}

export type Category = "string" | "number" | "bigint" | "boolean" | "null" | "array" | "object" | "*";

function categories(s: Shape, cx: DefinitionLookup, seen = new Set<string>()): Set<Category> {
  switch (s.kind) {
    case "string":
    case "integer":
    case "number":
      return new Set(formatOf(s).categories);
    case "boolean":
      return new Set(["boolean"]);
    case "null":
      return new Set(["null"]);
    case "any":
      return new Set(["*"]);
    case "const":
      return new Set([valueCategory(s.value)]);
    case "enum":
      return new Set(s.values.map(valueCategory));
    case "object":
      return new Set(["object"]);
    case "array":
    case "tuple":
      return new Set(["array"]);
    case "union": {
      const out = new Set<Category>();
      for (const b of s.branches) for (const c of categories(b, cx, seen)) out.add(c);
      return out;
    }
    case "ref": {
      if (seen.has(s.name)) return new Set(["*"]);
      seen.add(s.name);
      return categories(cx.def(s.name).shape, cx, seen);
    }
  }
}

function valueCategory(v: unknown): Category {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v as Category;
}

/**
 * How the encoder picks a union branch, as data: arms are tried in order; `categories` is a cheap JSON-type
 * test, `predicate` a full structural check of the branch, and `else` (only ever the last arm) takes whatever
 * is left.
 */
export type BranchPlan =
  | { index: number; test: "categories"; categories: Category[] }
  | { index: number; test: "predicate" }
  | { index: number; test: "else" };

export function planBranches(branches: readonly Shape[], cx: DefinitionLookup): BranchPlan[] {
  const cats = branches.map((b) => categories(b, cx));
  const overlaps = (i: number): boolean =>
    cats[i]!.has("*") || cats.some((other, j) => j !== i && (other.has("*") || [...cats[i]!].some((c) => other.has(c))));
  const cheap = branches.map((_, i) => !overlaps(i));
  const plan: BranchPlan[] = branches.map((_, i) => (cheap[i] ? { index: i, test: "categories", categories: [...cats[i]!] } : { index: i, test: "predicate" }));
  if (cheap.every(Boolean) && plan.length > 1) plan[plan.length - 1] = { index: plan.length - 1, test: "else" };
  return plan;
}

export type Tabled = Extract<Shape, { kind: "string" | "integer" | "number" }>;

/** Whether `s` is written through a default-value table (docs/FORMAT.md §10.1). */
export function isTabled(s: Shape): s is Tabled & { table: (string | number)[] } {
  return (s.kind === "string" || s.kind === "integer" || s.kind === "number") && s.table !== undefined && s.table.length > 0;
}

export interface ExtensionProperty<M extends object = {}> {
  /** The property's key in its object. */
  key: string;
  /** The dictionary path of its object (`WireLayout.path`). */
  object: string;
  shape: Shape<M>;
  /** The dictionary level it was added at. */
  level: number;
  /** Required: writers at its level or later always send its record. */
  required: boolean;
}

/**
 * Every extension property by dictionary ID, found in the root, then each definition (what the emitter
 * registers while it writes them): the first registration of an ID wins, as in `ModuleContext.extension`.
 */
export function extensionsOf<M extends object>(root: Shape<M>, definitions: Iterable<{ shape: Shape<M> }>): Map<number, ExtensionProperty<M>> {
  const out = new Map<number, ExtensionProperty<M>>();
  const seen = new Set<Shape<M>>();
  const visit = (s: Shape<M>): void => {
    if (seen.has(s)) return;
    seen.add(s);
    switch (s.kind) {
      case "object":
        if (s.wire !== undefined) {
          for (const x of s.wire.ext) {
            const q = s.properties[x.prop]!;
            if (!out.has(x.id)) out.set(x.id, { key: q.name, object: s.wire.path, shape: q.shape, level: x.level, required: q.required });
          }
        }
        for (const p of s.properties) visit(p.shape);
        if (s.additional !== false) visit(s.additional);
        return;
      case "array":
        return visit(s.items);
      case "tuple":
        s.items.forEach(visit);
        if (s.rest !== false) visit(s.rest);
        return;
      case "union":
        s.branches.forEach(visit);
        return;
      default:
        return;
    }
  };
  visit(root);
  for (const d of definitions) visit(d.shape);
  return out;
}
