/**
 * Emission of tabled positions (docs/FORMAT.md §10.1): a string, integer or number shape with a
 * default-value table (`Shape.table`, set by generator/samples/tables.ts) is written and read through the
 * runtime's tabled functions (runtime/defaults.ts), with the same checks, paths and messages as the plain
 * statements of write.ts / read.ts. The table itself is a hoisted module constant.
 */
import type { Shape } from "../ir/types.ts";
import { Code, code, jsonBlock, raw } from "../../templates/code.ts";
import type { ModuleContext } from "./context.ts";
import type { ReadCode } from "./read.ts";
import { isTabled, tabledKind } from "../../runtime/codec/plan.ts";
import { scalarGuardName } from "../../runtime/codec/kinds/scalar.ts";

type Tabled = Extract<Shape, { kind: "string" | "integer" | "number" }>;

export { isTabled, tabledKind }; // the layout facts live in the runtime (runtime/codec/plan.ts)

function table(s: Tabled, cx: ModuleContext): Code {
  const type = s.kind === "string" ? "string" : "number";
  return cx.constant("dt", code`/*@__PURE__*/ $rt.defaultTable<${raw(type)}>(${jsonBlock(s.table)})`, s);
}

/** `emitWrite` of a tabled shape (the caller checked `s.table`): the tabled guard of its form (runtime/codec/kinds). */
export function emitTabledWrite(s: Tabled, v: Code, p: string, cx: ModuleContext, req: Code): Code {
  return code`$rt.${raw(scalarGuardName(tabledKind(s), true))}(w, ${v}, ${table(s, cx)}, ${p}${req});`;
}

/** `emitRead` of a tabled shape. */
export function emitTabledRead(s: Tabled, p: string, cx: ModuleContext): ReadCode {
  return { stmts: raw(""), expr: code`(r.at = ${p}, ${raw(`$rt.readTabled${tabledKind(s)}`)}(r, ${table(s, cx)}))` };
}
