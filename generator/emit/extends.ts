/**
 * `allOf` inheritance in unrolled code: an object whose properties begin with all of a definition's (`allOf:
 * [{ $ref: Parent }, { properties }]`, the tslint rule chains) writes and reads that prefix through the parent's
 * helpers instead of unrolling it again, so a chain of n definitions costs n parts, not 1 + 2 + ... + n.
 *
 * The bytes are the same by construction: a fresh object layout (runtime/codec/plan.ts `objectLayout`) puts the
 * presence bits in property order and the fields in property order, so the parent's properties are the first bits
 * and the first fields of the child, and the parent's helpers write exactly those (the bitmap byte they share is
 * finished by the child). Keys are assigned in schema order on both paths. Only objects with nothing that moves
 * bits or fields are eligible: no frozen or evolved layout (`wire`), no indexed fields, no pointer tracking, a
 * parent that is not recursive, and an object at the root of its function (path "": the parent's helpers use the
 * parent's relative paths, which are the child's there).
 */
import type { ObjectShape } from "../ir/types.ts";
import type { ModuleContext } from "./context.ts";
import { wireShapeOf } from "./descriptor.ts";
import { hasIndexMarks } from "./index-marks.ts";

/** A parent with fewer properties is written out again: a helper call would save little. */
export const MIN_INHERITED = 2;

export interface Extension {
  /** The parent definition. */
  name: string;
  shape: ObjectShape;
  /** How many leading properties are the parent's. */
  k: number;
  /** How many of them are optional (the parent's presence bits, the first of the child's bitmap). */
  bits: number;
}

const keysOf = new WeakMap<ObjectShape, string[]>();

/** Each property as the wire sees it (name, required, shape without source facts). */
function propertyKeys(s: ObjectShape): string[] {
  let k = keysOf.get(s);
  if (k === undefined) {
    k = s.properties.map((p) => JSON.stringify([p.name, p.required, wireShapeOf(p.shape)]));
    keysOf.set(s, k);
  }
  return k;
}

function eligible(s: ObjectShape, cx: ModuleContext): boolean {
  return s.wire === undefined && !hasIndexMarks(cx, s) && !cx.tracksPointers(s);
}

/** The definition whose properties `s` begins with (the one with the most), whatever it would save. */
function candidateOf(s: ObjectShape, cx: ModuleContext): Extension | undefined {
  if (s.properties.length <= MIN_INHERITED || !eligible(s, cx)) return undefined;
  const mine = propertyKeys(s);
  let best: Extension | undefined;
  for (const d of cx.defs.values()) {
    const b = d.shape;
    if (b === s || b.kind !== "object" || cx.recursive.has(d.name)) continue;
    const k = b.properties.length;
    if (k < MIN_INHERITED || k >= s.properties.length || (best !== undefined && best.k >= k)) continue;
    if (!eligible(b, cx)) continue;
    const theirs = propertyKeys(b);
    if (theirs.every((x, i) => x === mine[i])) best = { name: d.name, shape: b, k, bits: b.properties.filter((p) => !p.required).length };
  }
  return best;
}

const children = new WeakMap<ModuleContext, Map<string, number>>();

/** How many definitions begin with all of definition `n`'s properties. */
function childrenOf(n: string, cx: ModuleContext): number {
  let counts = children.get(cx);
  if (counts === undefined) {
    counts = new Map();
    for (const d of cx.defs.values()) {
      const c = d.shape.kind === "object" ? candidateOf(d.shape, cx) : undefined;
      if (c !== undefined) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
    }
    children.set(cx, counts);
  }
  return counts.get(n) ?? 0;
}

/**
 * The parent `s` is written through, if any. The parent's helpers repeat what its own writer unrolls, so they pay
 * only when more than one definition uses them, or when the parent is itself a link of a chain (its helpers then
 * hold its own properties only, and each link saves all of the ones before it).
 */
export function extensionOf(s: ObjectShape, cx: ModuleContext): Extension | undefined {
  const c = candidateOf(s, cx);
  if (c === undefined) return undefined;
  return candidateOf(c.shape, cx) !== undefined || childrenOf(c.name, cx) >= 2 ? c : undefined;
}
