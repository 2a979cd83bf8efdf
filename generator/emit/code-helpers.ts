/**
 * Small pieces of emitted code every emitter shares (the writers, readers, text and type emitters): indentation,
 * a guarded block, a property read that is safe for `__proto__`-like keys, an enum's value table. Apart from the
 * emitters so that none imports another for them.
 */
import type { Shape } from "../ir/types.ts";
import { code, jsonBlock, prop, raw, type Code } from "../../templates/code.ts";
import type { ModuleContext } from "./context.ts";

/** `c` with every non-empty line indented by `by`. */
export function indentBy(c: Code, by: string): Code {
  return raw(c.text.replace(/^(?=.)/gm, by));
}

/** `body`, under `if (test)` when there is a test, braced when it is more than one line (or declares). */
export function block(test: Code | undefined, body: Code): Code {
  const oneLine = !body.text.includes("\n");
  if (test === undefined) return oneLine && !/^(const|let) /.test(body.text) ? body : code`{
${indentBy(body, "  ")}
}`;
  return oneLine && !/^(const|let) /.test(body.text) ? code`if (${test}) ${body}` : code`if (${test}) {
${indentBy(body, "  ")}
}`;
}

/** `obj.key`, or an own-property read where `key` names something every object inherits (`toString`, `__proto__`). */
export function readProp(obj: Code, key: string): Code {
  return key in Object.prototype ? code`$rt.getOwn(${obj}, ${key})` : prop(obj, key);
}

/** The module constant holding an enum's values (shared by its writer and reader). */
export function enumTable(values: unknown[], cx: ModuleContext, at: Shape): Code {
  return cx.constant("enum", code`${jsonBlock(values)} as const`, at);
}
