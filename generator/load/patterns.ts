/**
 * Pattern safety at generation time (issue 12): every schema `pattern` and `patternProperties` key is checked
 * with recheck, a ReDoS checker (automaton analysis, fuzzing where that does not apply). Generated `validate`
 * runs patterns on the native RegExp engine, which backtracks: `(a+)+$` takes half a second on 25 characters and
 * doubles with each one more, and tool definitions from a third-party MCP server reach `validate` through
 * `parseToolCall`. So a pattern recheck does not certify safe (vulnerable, or undecided) is a generation error
 * naming the pattern and its schema path, unless the user opts in with `"unsafePatterns": "allow"` (then a
 * warning). A certified pattern runs in linear time on the native engine.
 */
import { checkSync, type Diagnostics } from "recheck";
import type { Doc, LoadContext } from "./context.ts";

/** What to do with a pattern recheck does not certify: fail generation (default) or warn and keep it. */
export type UnsafePatterns = "error" | "allow";

/** recheck costs ~33 ms per pattern: one verdict per pattern string and flags for the whole process. */
const verdicts = new Map<string, Diagnostics>();

/** recheck's verdict on `source` (with `flags`), cached. */
export function patternVerdict(source: string, flags: string): Diagnostics {
  const key = flags + "/" + source;
  let d = verdicts.get(key);
  if (d === undefined) {
    // a generous timeout: an undecided pattern is not certified, and a loaded machine must not decide that
    // (Zod's date-time pattern takes ~1 s on recheck's native agent, ~5 s with RECHECK_SYNC_BACKEND=pure)
    d = checkSync(source, flags, { timeout: 30_000 });
    verdicts.set(key, d);
  }
  return d;
}

/** Why `source` is not safe, or undefined when recheck certifies it. */
export function patternRisk(source: string, flags: string): string | undefined {
  const d = patternVerdict(source, flags);
  if (d.status === "safe") return undefined;
  if (d.status === "vulnerable") {
    const attack = d.attack.string.length > 40 ? JSON.stringify(d.attack.string.slice(0, 40)) + "..." : JSON.stringify(d.attack.string);
    return `it can backtrack ${d.complexity.type === "exponential" ? "exponentially" : `polynomially (degree ${d.complexity.degree})`} (recheck; e.g. on ${attack})`;
  }
  const e = d.error as { kind: string; message?: string };
  return `recheck cannot certify it (${e.kind}${e.message === undefined ? "" : ": " + e.message})`;
}

/** The flags the runtime compiles patterns with: `u` when the pattern is valid with it (constraints.ts). */
function flagsOf(source: string): string {
  try {
    new RegExp(source, "u");
    return "u";
  } catch {
    return "";
  }
}

/**
 * Check one pattern found at `ptr` (keyword `keyword`: `pattern`, or `patternProperties` for a key): a
 * SCHEMA_ERROR naming it unless the context allows unsafe patterns.
 */
export function checkPattern(ctx: LoadContext, doc: Doc, ptr: string, keyword: string, source: string): void {
  const risk = patternRisk(source, flagsOf(source));
  if (risk === undefined) return;
  const what = `${keyword} ${JSON.stringify(source)}: ${risk}`;
  if (ctx.unsafePatterns === "allow") {
    ctx.warn(doc, ptr, keyword, `kept by "unsafePatterns": "allow": ${what}`);
    return;
  }
  ctx.fail("SCHEMA_ERROR", doc, ptr, `${what}; rewrite it, or set "unsafePatterns": "allow" (toon.config.json, or generate()) to accept the risk`);
}
