/**
 * Patterns that run on re2js in a generated module (generator/load/patterns.ts plans them): found in the shapes
 * whose constraints the module's checks run (a string shape's `constraints.pattern`, the descriptor's as the IR's),
 * declared once as a map from the pattern to its RE2 spelling compiled, and handed to the runtime's checks
 * (`toolSet`, `checkConstraints`, `engineCodec`), which run every other pattern on RegExp.
 */
import { code, join, lit, type Code } from "../../templates/code.ts";
import { someShape } from "../../runtime/codec/plan.ts";
import type { Shape } from "../../runtime/codec/descriptor.ts";
import { LINEAR_ENGINE_PACKAGE, PatternBudget, patternPlan } from "../load/patterns.ts";

/** The import a module with linear patterns adds. */
export const LINEAR_ENGINE_IMPORT: Code = code`import { RE2JS as $RE2JS } from ${LINEAR_ENGINE_PACKAGE};`;

/**
 * The patterns of the string shapes in `shapes` (and under them) planned `linear`, each once, as [the pattern, its
 * RE2 spelling], sorted for a stable module.
 */
export function linearPatternsOf(shapes: Iterable<Shape>): [string, string][] {
  const found = new Map<string, string>();
  const budget = new PatternBudget();
  someShape(shapes, (s) => {
    const pattern = s.kind === "string" ? s.constraints?.pattern : undefined;
    if (typeof pattern === "string" && !found.has(pattern)) {
      const plan = patternPlan(pattern, budget);
      if (plan.engine === "linear") found.set(pattern, plan.source);
    }
    return false;
  });
  return [...found].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** `const $linearPatterns = new Map([[pattern, $RE2JS.compile(re2)], ...]);` for `linear` (not empty). */
export function linearPatternsDeclaration(linear: readonly (readonly [string, string])[]): Code {
  return code`/** Patterns recheck does not certify, on re2js (time linear in the input): the pattern -> its RE2 spelling, compiled. */
const $linearPatterns = /*@__PURE__*/ new Map<string, $rt.PatternTest>([
${join(linear.map(([source, re2]) => code`  [${lit(source)}, $RE2JS.compile(${lit(re2)})],`))}
]);`;
}
