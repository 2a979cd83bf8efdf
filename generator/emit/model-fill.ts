/**
 * The fill spec of `fromModelOutput` (runtime/text/model-fill.ts) from the IR: the objects with an optional
 * property (an empty TOON cell there is absent) or a property with a schema default (filled when missing),
 * and the arrays, definitions and unions that lead to them. Nothing else: a schema with neither gets no spec.
 */
import type { Shape, SchemaIR } from "../ir/types.ts";
import type { FillProp, FillShape, FillSpec } from "../../runtime/text/model-fill.ts";

interface Defs {
  def(name: string): { shape: Shape };
}

/** The fill spec of `ir` (root and the definitions it needs), or undefined when nothing is to be filled. */
export function fillSpecOf(ir: SchemaIR, cx: Defs): FillSpec | undefined {
  // per definition: its spec, null while being computed (a recursive ref: assumed non-empty), or undefined (none)
  const memo = new Map<string, FillShape | null | undefined>();
  const of = (s: Shape): FillShape | undefined => {
    switch (s.kind) {
      case "ref": {
        if (!memo.has(s.name)) {
          memo.set(s.name, null);
          memo.set(s.name, of(cx.def(s.name).shape));
        }
        return memo.get(s.name) === undefined ? undefined : { r: s.name };
      }
      case "array": {
        const items = of(s.items);
        return items === undefined ? undefined : { a: items };
      }
      case "object": {
        const props: FillProp[] = [];
        for (const p of s.properties) {
          const sub = of(p.shape);
          const dflt = p.shape.default;
          if (p.required && sub === undefined && dflt === undefined) continue;
          const entry: FillProp = [p.name, p.required ? 0 : 1, sub ?? 0];
          if (dflt !== undefined) entry.push(dflt);
          props.push(entry);
        }
        return props.length === 0 ? undefined : { o: props };
      }
      case "union": {
        const branches = s.branches.map(of);
        if (branches.every((b) => b === undefined)) return undefined;
        if (s.discriminator !== undefined) {
          const b: [unknown, FillShape][] = [];
          branches.forEach((x, i) => x !== undefined && b.push([s.discriminator!.values[i], x]));
          return { u: s.discriminator.property, b };
        }
        return { v: branches.filter((x): x is FillShape => x !== undefined) };
      }
      default:
        return undefined;
    }
  };
  const root = of(ir.root);
  if (root === undefined) return undefined;
  const defs: Record<string, FillShape> = {};
  for (const [n, s] of [...memo].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) if (s) defs[n] = s;
  return { root, defs };
}
