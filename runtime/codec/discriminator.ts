/**
 * Discriminator detection, one definition for the generator (which sets `UnionShape.discriminator` on the unions
 * it builds) and the dense text layout (which also looks for one among the object branches of a union that has a
 * `null` branch, `oneOf: [{type: "null"}, Point, LineString]`, to write those objects as one table).
 */
import type { ObjectShape, Shape, UnionShape } from "./descriptor.ts";

type Scalar = string | number | boolean | null;

/**
 * The discriminator of a union of `branches`, if any: the first property (in the first branch's order) that every
 * branch, seen through `deref` (refs to definitions), declares as a required `const` with a scalar value, all
 * distinct.
 */
export function discriminatorOf<M extends object = {}>(branches: readonly Shape<M>[], deref: (s: Shape<M>) => Shape<M>): UnionShape["discriminator"] {
  const objects: ObjectShape<M>[] = [];
  for (const b of branches) {
    const s = deref(b);
    if (s.kind !== "object") return undefined;
    objects.push(s);
  }
  const first = objects[0];
  if (first === undefined) return undefined;
  for (const candidate of first.properties) {
    const values: Scalar[] = [];
    const seen = new Set<string>();
    let ok = true;
    for (const o of objects) {
      const p = o.properties.find((q) => q.name === candidate.name);
      const shape = p === undefined ? undefined : deref(p.shape);
      if (p === undefined || !p.required || shape === undefined || shape.kind !== "const") {
        ok = false;
        break;
      }
      const v = shape.value;
      if (v !== null && typeof v === "object") {
        ok = false;
        break;
      }
      // a scalar's canonical JSON is its JSON
      const k = JSON.stringify(v);
      if (seen.has(k)) {
        ok = false;
        break;
      }
      seen.add(k);
      values.push(v);
    }
    if (ok) return { property: candidate.name, values };
  }
  return undefined;
}
