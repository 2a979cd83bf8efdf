/**
 * Path prefixes of calls, one `try` per function. A definition call (or `writeAny`) at a static path `p` must
 * prefix the path of any error from inside it with `p`. Instead of a `try`/`catch` around every such call, a
 * function sets `$at = p` before the call and `$at = ""` after it, and one `catch` around its whole body prefixes
 * with `$at` (nothing when it is "", so its own errors, which carry their paths already, pass unchanged).
 * Inside loops the loop's own `catch` must see the call's prefix first, so calls there keep their own `try`.
 * A function with one such call keeps the `try` around it (smaller than wrapping the body).
 */
import { Code, code, raw } from "../../templates/code.ts";
import type { Locals } from "./context.ts";

const loops = new WeakMap<Locals, number>();

/** Emit a loop body: calls inside it keep their own `try`. */
export function inLoop<T>(L: Locals, emit: () => T): T {
  loops.set(L, (loops.get(L) ?? 0) + 1);
  try {
    return emit();
  } finally {
    loops.set(L, loops.get(L)! - 1);
  }
}

/** Whether code emitted now is inside a loop body (`inLoop`). */
export function insideLoop(L: Locals): boolean {
  return (loops.get(L) ?? 0) > 0;
}

/** `call` (statements) with errors from inside it prefixed by the static path `p` (not ""). */
export function callAt(L: Locals, p: string, call: Code): Code {
  if ((loops.get(L) ?? 0) > 0) return ownTry(call, code`${p}`);
  // one call: one expression statement (so `if (...) stmt` and one-line tests still see one statement)
  if (!call.text.includes("\n") && call.text.endsWith(";")) return code`($at = ${p}, ${raw(call.text.slice(0, -1))}, $at = "");`;
  return code`$at = ${p};
${call}
$at = "";`;
}

function ownTry(call: Code, p: Code): Code {
  return code`try {
${raw(call.text.replace(/^(?=.)/gm, "  "))}
} catch (e) {
  $rt.rethrowAt(e, ${p});
}`;
}

const PATH = String.raw`"(?:[^"\\]|\\.)*"`;
const ONE_LINE = new RegExp(String.raw`^( *)\(\$at = (${PATH}), (.*), \$at = ""\);$`, "gm");
const LINES = new RegExp(String.raw`^( *)\$at = (${PATH});\n([\s\S]*?)\n\1\$at = "";$`, "gm");

/**
 * A function's body (statements, not indented) with its `callAt`s resolved: they share one `try` around the body
 * when that is smaller (the body's lines each get two spaces more), else each gets its own.
 */
export function functionBody(body: Code): Code {
  const n = (body.text.match(ONE_LINE)?.length ?? 0) + (body.text.match(LINES)?.length ?? 0);
  // every call at a path must be on lines of its own, or a `$at` would stay unresolved
  if (body.text.split("$at = ").length - 1 !== 2 * n) throw new Error("internal: a call at a path not on lines of its own");
  if (n === 0) return body;
  const lines = body.text.split("\n").length;
  // a call's own try costs about 30 bytes more than its `$at` assignments; the shared try, 2 per line and ~60
  if (n * 30 <= 2 * lines + 60) {
    const own = (indent: string, p: string, call: string): string =>
      ownTry(raw(call.replace(new RegExp(`^${indent}`, "gm"), "")), raw(p)).text.replace(/^(?=.)/gm, indent);
    return raw(
      body.text
        .replace(ONE_LINE, (_m, indent: string, p: string, call: string) => own(indent, p, call + ";"))
        .replace(LINES, (_m, indent: string, p: string, call: string) => own(indent, p, call)),
    );
  }
  return code`let $at = "";
try {
${raw(body.text.replace(/^(?=.)/gm, "  "))}
} catch (e) {
  $rt.rethrowIn(e, $at);
}`;
}
