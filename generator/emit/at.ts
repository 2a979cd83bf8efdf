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

/** `call` (statements) with errors from inside it prefixed by the static path `p` (not ""). */
export function callAt(L: Locals, p: string, call: Code): Code {
  if ((loops.get(L) ?? 0) > 0) return ownTry(call, code`${p}`);
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

const MARKED = /^( *)\$at = ("(?:[^"\\]|\\.)*");\n([\s\S]*?)\n\1\$at = "";$/gm;

/**
 * A function's body (statements, not indented) with its `callAt`s resolved: two or more share one `try`; a
 * single one gets its own.
 */
export function functionBody(body: Code): Code {
  const n = body.text.match(MARKED)?.length ?? 0;
  if (n === 0) return body;
  if (n === 1) {
    return raw(
      body.text.replace(MARKED, (_m, indent: string, p: string, call: string) =>
        ownTry(raw(call.replace(new RegExp(`^${indent}`, "gm"), "")), raw(p)).text.replace(/^(?=.)/gm, indent),
      ),
    );
  }
  return code`let $at = "";
try {
${raw(body.text.replace(/^(?=.)/gm, "  "))}
} catch (e) {
  $rt.rethrowIn(e, $at);
}`;
}
