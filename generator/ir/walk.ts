/** Small structural queries over a SchemaIR, shared by the emitter and the interpreter. */
import type { ObjectShape, SchemaIR, Shape } from "./types.ts";

/** True when some object shape reachable from the root or a definition satisfies `test`. */
export function someObject(ir: SchemaIR, test: (s: ObjectShape) => boolean): boolean {
  const seen = new Set<Shape>();
  const visit = (s: Shape): boolean => {
    if (seen.has(s)) return false;
    seen.add(s);
    switch (s.kind) {
      case "object":
        return test(s) || s.properties.some((p) => visit(p.shape)) || (s.additional !== false && visit(s.additional));
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
  return visit(ir.root) || ir.definitions.some((d) => visit(d.shape));
}
