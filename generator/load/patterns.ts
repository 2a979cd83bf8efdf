/**
 * Which engine runs each schema pattern (issues 12 and 26). Generated `validate` and tool-argument checks run
 * schema patterns on input from outside (tool definitions from a third-party MCP server reach them through
 * `parseToolCall`), and the native RegExp engine backtracks: `(a+)+$` takes half a second on 25 characters and
 * doubles with each one more. So every `pattern`, `patternProperties` key and `propertyNames` pattern gets a plan:
 *
 * - `native`: recheck (a ReDoS checker: automaton analysis, fuzzing where that does not apply) certifies it
 *   linear; the generated code uses RegExp and the runtime stays dependency-free.
 * - `linear`: recheck does not certify it (vulnerable, undecided, crashed, out of time) but RE2 syntax can say it
 *   (./linear-pattern.ts); the generated code runs it on re2js, which the app then installs.
 * - `refused`: neither. A SCHEMA_ERROR naming the pattern and its schema path, unless the user opts in with
 *   `"unsafePatterns": "allow"` (then a warning, and RegExp).
 *
 * recheck is asked with a deadline it cannot overrun (./recheck-client.ts), from a time budget per schema, so
 * generation ends however many or however hostile the patterns: once the budget is spent, the remaining patterns
 * are planned without recheck. A plan is kept per pattern for the process, so the loader, the validator compiler
 * and the tool-set emitter agree on it.
 */
import type { Diagnostics } from "recheck";
import type { Doc, LoadContext } from "./context.ts";
import { linearPattern } from "./linear-pattern.ts";
import { recheckWithin } from "./recheck-client.ts";

/** What to do with a pattern neither recheck nor RE2 can vouch for: fail generation (default) or warn and keep it. */
export type UnsafePatterns = "error" | "allow";

export type PatternPlan =
  | { engine: "native" }
  /** `source`: the pattern in RE2 syntax; `why`: what recheck said. */
  | { engine: "linear"; source: string; why: string }
  | { engine: "refused"; why: string };

/** recheck time one schema may spend (a Zod date-time pattern takes ~1 s alone; issue 26 bounds a whole generation at 10 s); then patterns skip recheck. */
const BUDGET_MS = 2_000;

/** Time left for recheck, shared by the patterns of one schema (one loader or validator compilation). */
export class PatternBudget {
  private spent = 0;
  /** Milliseconds recheck may still take. */
  left(): number {
    return BUDGET_MS - this.spent;
  }
  charge(ms: number): void {
    this.spent += ms;
  }
}

/** One plan per pattern string for the whole process: recheck costs ~10-50 ms a pattern, more for some. */
const plans = new Map<string, PatternPlan>();

/** The flags the runtime compiles patterns with: `u` when the pattern is valid with it. */
function flagsOf(source: string): string {
  try {
    new RegExp(source, "u");
    return "u";
  } catch {
    return "";
  }
}

/** Unbounded repetitions (`*`, `+`, `{n,}`) a pattern may have for recheck's "safe" to be taken. */
const MAX_UNBOUNDED = 8;

/** How many `*`, `+` and `{n,}` the pattern has outside classes (escapes skipped). */
function unboundedRepetitions(source: string): number {
  let n = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "*" || c === "+") n++;
    else if (c === "{") {
      // `{digits,}`, looked at no further than its own characters
      let j = i + 1;
      while (j < source.length && source[j]! >= "0" && source[j]! <= "9") j++;
      if (j > i + 1 && source[j] === "," && source[j + 1] === "}") n++;
    }
  }
  return n;
}

/** Why recheck does not certify `source`, undefined when it does. */
function recheckRisk(source: string, budget: PatternBudget): string | undefined {
  // recheck's parser dies on a repetition count of 2^31 or more (NumberFormatException on its agent's thread)
  if (/\{\d{10,}/.test(source)) return "recheck cannot read its repetition counts (2^31 or more)";
  // recheck's analysis called `\S+\p{L}?` twenty times over linear, which RegExp takes 1.2 s on 30 characters
  // for: past a few unbounded repetitions its "safe" is not taken
  const unbounded = unboundedRepetitions(source);
  if (unbounded > MAX_UNBOUNDED) return `${unbounded} unbounded repetitions (recheck's verdict is taken up to ${MAX_UNBOUNDED})`;
  const left = budget.left();
  if (left <= 0) return `not checked by recheck: the schema's patterns used its ${BUDGET_MS / 1000} s budget`;
  const started = performance.now();
  const d: Diagnostics | undefined = recheckWithin(source, flagsOf(source), left);
  budget.charge(performance.now() - started);
  if (d === undefined) return "recheck gave no answer (it crashed or ran out of time)";
  if (d.status === "safe") return undefined;
  if (d.status === "vulnerable") {
    const attack = d.attack.string.length > 40 ? JSON.stringify(d.attack.string.slice(0, 40)) + "..." : JSON.stringify(d.attack.string);
    return `it can backtrack ${d.complexity.type === "exponential" ? "exponentially" : `polynomially (degree ${d.complexity.degree})`} (recheck; e.g. on ${attack})`;
  }
  const e = d.error as { kind: string; message?: string };
  return `recheck cannot certify it (${e.kind}${e.message === undefined ? "" : ": " + e.message})`;
}

/** The engine `source` runs on (see the file comment), decided once per process. */
export function patternPlan(source: string, budget: PatternBudget): PatternPlan {
  let plan = plans.get(source);
  if (plan === undefined) {
    const risk = recheckRisk(source, budget);
    if (risk === undefined) plan = { engine: "native" };
    else {
      const linear = linearPattern(source);
      plan = linear.ok ? { engine: "linear", source: linear.source, why: risk } : { engine: "refused", why: `${risk}; ${linear.why}` };
    }
    // kept even when the budget decided it: the validator compiler and the emitters must not ask again
    plans.set(source, plan);
  }
  return plan;
}

/** The package generated code imports for patterns planned `linear`. */
export const LINEAR_ENGINE_PACKAGE = "re2js";

/**
 * Plan one pattern found at `ptr` (keyword `keyword`: `pattern`, `patternProperties` for a key, `propertyNames`):
 * a warning naming re2js when it will run there, a SCHEMA_ERROR when refused (a warning if the user allows it).
 */
export function checkPattern(ctx: LoadContext, doc: Doc, ptr: string, keyword: string, source: string): void {
  const plan = patternPlan(source, ctx.patternBudget);
  if (plan.engine === "native") return;
  const what = `${keyword} ${JSON.stringify(source)}: ${plan.why}`;
  if (plan.engine === "linear") {
    ctx.warn(doc, ptr, keyword, `runs on ${LINEAR_ENGINE_PACKAGE} (linear time): ${what}; the generated module imports "${LINEAR_ENGINE_PACKAGE}", add it to the app's dependencies`);
    return;
  }
  if (ctx.unsafePatterns === "allow") {
    ctx.warn(doc, ptr, keyword, `kept on RegExp by "unsafePatterns": "allow": ${what}`);
    return;
  }
  ctx.fail("SCHEMA_ERROR", doc, ptr, `${what}; rewrite it, or set "unsafePatterns": "allow" (toon.config.json, or generate()) to accept the risk`);
}
