/** Small structural queries over a SchemaIR, shared by the emitter, the interpreter and the sample profiler. */
import type { Definition, ObjectShape, SchemaIR, Shape } from "./types.ts";

/** Where a stage finds the IR's definitions by name (the emitter's ModuleContext, or definitionLookup). */
export interface Definitions {
  def(name: string): Definition;
}

/**
 * The IR's definitions by name, as the runtime's plan functions (planBranches, the predicate compiler) look them
 * up: what a stage needs that reads shapes without emitting code (the emitter's ModuleContext is one too).
 */
export function definitionLookup(ir: SchemaIR): Definitions {
  const defs = new Map(ir.definitions.map((d) => [d.name, d]));
  return {
    def(n: string): Definition {
      const d = defs.get(n);
      if (d === undefined) throw new Error(`internal: unknown definition ${n}`);
      return d;
    },
  };
}

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
