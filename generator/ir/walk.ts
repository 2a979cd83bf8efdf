/** Small structural queries over a SchemaIR, shared by the emitter, the interpreter and the sample profiler. */
import { someObject as someObjectOf } from "../../runtime/codec/plan.ts";
import type { Definition, ObjectShape, SchemaIR } from "./types.ts";

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

/** True when some object shape reachable from the root or a definition satisfies `test` (the runtime's walk). */
export function someObject(ir: SchemaIR, test: (s: ObjectShape) => boolean): boolean {
  // the walk hands back the shapes it was given: the IR's
  return someObjectOf([ir.root, ...ir.definitions.map((d) => d.shape)], (o) => test(o as ObjectShape));
}
