/**
 * Tabled positions (docs/FORMAT.md §10.1): a string, integer or number shape with a default-value table
 * (`Shape.table`, set by generator/samples/tables.ts) is written and read through its wire format's tabled
 * functions (runtime/codec/formats.ts, runtime/wire/defaults.ts) by emitScalarWrite / emitScalarRead. The table
 * itself is a hoisted module constant, made here.
 */
import type { Shape } from "../ir/types.ts";
import { Code, code, jsonBlock, raw } from "../../templates/code.ts";
import type { ModuleContext } from "./context.ts";
import { isTabled } from "../../runtime/codec/plan.ts";

export { isTabled }; // the layout facts live in the runtime (runtime/codec/plan.ts)

/** The module constant holding the table of `s` (the caller checked `isTabled(s)`). */
export function tableConstant(s: Extract<Shape, { kind: "string" | "integer" | "number" }>, cx: ModuleContext): Code {
  const type = s.kind === "string" ? "string" : "number";
  return cx.constant("dt", code`/*@__PURE__*/ $rt.defaultTable<${raw(type)}>(${jsonBlock(s.table)})`, s);
}
