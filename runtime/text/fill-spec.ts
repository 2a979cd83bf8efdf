/**
 * The fill spec `fromModelOutput` applies (./model-fill.ts), derived from a codec's shapes: by the generator, which
 * writes it into a module (generator/emit/model-fill.ts), and by a stream's text mode from its descriptor
 * (runtime/stream/text.ts). One derivation, so a module and a stream fill a model's reply alike.
 */
import type { Shape } from "../codec/descriptor.ts";
import type { FillProp, FillShape, FillSpec } from "./model-fill.ts";

/**
 * The model-output fill spec (./model-fill.ts) of shapes `root` and `defs`: the objects with an optional property
 * or a property with a default, and the arrays, definitions and unions leading to them; undefined when nothing is
 * to be filled. Definitions come in the order the walk meets them.
 */
export function fillSpecOf(root: Shape, defs: ReadonlyMap<string, Shape>): FillSpec | undefined {
  const memo = new Map<string, FillShape | null | undefined>();
  const of = (s: Shape): FillShape | undefined => {
    switch (s.kind) {
      case "ref": {
        if (!memo.has(s.name)) {
          memo.set(s.name, null); // a recursive ref: assumed to have something
          const def = defs.get(s.name);
          memo.set(s.name, def === undefined ? undefined : of(def));
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
  const top = of(root);
  if (top === undefined) return undefined;
  const out: Record<string, FillShape> = {};
  for (const [n, s] of memo) if (s) out[n] = s;
  return { root: top, defs: out };
}
