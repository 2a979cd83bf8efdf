/**
 * The weight of zero-width items in a message's budget (runtime/wire/limits.ts, maxZeroWidthItems): what an array's
 * count is checked with, shared by generated decoders (emitted at generation time) and the engine (at plan time).
 */
import { minWidth, type DefinitionLookup } from "./plan.ts";
import type { Shape } from "./descriptor.ts";

/**
 * What an array's count is checked with (`Reader.count`): the fewest bytes an item takes when that is more than
 * zero, else minus the item's weight in the zero-width budget. Generated decoders and the engine both call this
 * (at generation time and at plan time), so the two charge the same. An older runtime reads a negative width as
 * zero-width, as before.
 */
export function countWidth(s: Shape, cx: DefinitionLookup): number {
  const w = minWidth(s, cx);
  return w > 0 ? w : -zeroWidthWeight(s, cx, new Set());
}

/** Heap slots (8 bytes) one decoded value of the zero-width shape `s` costs, roughly; at least 1. */
export function zeroWidthWeight(s: Shape, cx: DefinitionLookup, seen: Set<string>): number {
  switch (s.kind) {
    case "null":
      return 1;
    case "const":
      return 1 + 8 * jsonNodes(s.value);
    case "enum":
      return 1 + 8 * jsonNodes(s.values[0]);
    case "object": {
      let w = 8;
      for (const p of s.properties) if (p.required) w += zeroWidthWeight(p.shape, cx, seen);
      return w;
    }
    case "ref": {
      if (seen.has(s.name)) return 8;
      seen.add(s.name);
      const w = zeroWidthWeight(cx.def(s.name).shape, cx, seen);
      seen.delete(s.name);
      return w;
    }
    default:
      return 8;
  }
}

/** Objects and arrays inside a JSON value (what cloning it allocates; primitives are shared). */
function jsonNodes(v: unknown): number {
  if (v === null || typeof v !== "object") return 0;
  let n = 1;
  for (const x of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) n += jsonNodes(x);
  return n;
}

