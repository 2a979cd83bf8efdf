/**
 * The fill spec of `fromModelOutput` (runtime/text/model-fill.ts) as a module writes it: derived from the IR by
 * the runtime's one derivation (runtime/text/fill-spec.ts, which a stream's text mode runs on a descriptor), its
 * definitions sorted by name and laid out a line each, so the module's text follows the schema, not the walk.
 */
import type { SchemaIR } from "../ir/types.ts";
import type { FillShape, FillSpec } from "../../runtime/text/model-fill.ts";
import { fillSpecOf } from "../../runtime/text/fill-spec.ts";
import { code, join, jsonLit, type Code } from "../../templates/code.ts";

/** The fill spec of `ir` (root and the definitions it needs), or undefined when nothing is to be filled. */
export function moduleFillSpec(ir: SchemaIR): FillSpec | undefined {
  const spec = fillSpecOf(ir.root, new Map(ir.definitions.map((d) => [d.name, d.shape])));
  if (spec === undefined) return undefined;
  const defs: Record<string, FillShape> = {};
  for (const n of Object.keys(spec.defs).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) defs[n] = spec.defs[n]!;
  return { root: spec.root, defs };
}

/** A fill spec `{ root, defs }` with `root` and each definition of `defs` on a line of its own. */
export function fillBlock(spec: { root?: unknown; defs?: Record<string, unknown> }): Code {
  const lines: Code[] = [];
  for (const [k, v] of Object.entries(spec)) {
    if (k === "defs" && typeof v === "object" && v !== null && !Array.isArray(v)) {
      // a definition named __proto__ stays an own property (a computed key)
      const key = (n: string): Code => (n === "__proto__" ? code`[${jsonLit(n)}]` : jsonLit(n));
      const defs = Object.entries(v as Record<string, unknown>).map(([n, d]) => code`    ${key(n)}: ${jsonLit(d)},`);
      lines.push(code`  "defs": {\n${join(defs, "\n")}\n  },`);
    } else lines.push(code`  ${jsonLit(k)}: ${jsonLit(v)},`);
  }
  return code`{\n${join(lines, "\n")}\n}`;
}
