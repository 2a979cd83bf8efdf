/**
 * A shape trimmed to what value checking needs (runtime/validate/constraints.ts `CheckShape`): the data behind every codec's
 * `validate()` constraint check and the tool-call argument checks. The engine builds it from a descriptor; the
 * generator embeds it in generated modules (generator/emit/check-shape.ts).
 */
import type { CodecDescriptor, Shape } from "./descriptor.ts";
import { formatOf } from "./formats.ts";
import { checkShape, type CheckDefs, type CheckShape, type PatternTests } from "../validate/constraints.ts";
import type { ToonErrorDetail } from "../errors.ts";

const described = new WeakMap<CodecDescriptor, [CheckShape, CheckDefs]>();

/** The check shapes of a codec (its root and every definition), built from its descriptor once. */
export function checkShapesOf(d: CodecDescriptor): [CheckShape, CheckDefs] {
  let c = described.get(d);
  if (c === undefined) {
    c = [checkShapeOf(d.root) as CheckShape, Object.fromEntries(d.definitions.map((x) => [x.name, checkShapeOf(x.shape)])) as CheckDefs];
    described.set(d, c);
  }
  return c;
}

/**
 * Every value-constraint violation of `value` (minLength, pattern, minimum, ...) against the codec's descriptor:
 * what a generated `validate()` runs after the shape check, from the descriptor the module embeds anyway.
 * `patterns`: the patterns that run on another engine than RegExp (re2js, generator/load/patterns.ts).
 */
export function checkConstraints(value: unknown, d: CodecDescriptor, patterns?: PatternTests): ToonErrorDetail[] {
  const [root, defs] = checkShapesOf(d);
  return checkShape(value, root, defs, "", patterns);
}

export function checkShapeOf(s: Shape): unknown {
  const c = constraintsOf(s);
  const withC = (o: Record<string, unknown>): Record<string, unknown> => (c === undefined ? o : { ...o, c });
  switch (s.kind) {
    case "string":
    case "integer":
    case "number":
      return withC({ kind: s.kind, ...formatOf(s).check });
    case "boolean":
    case "null":
    case "any":
      return { kind: s.kind };
    case "enum":
      return { kind: "enum", values: s.values };
    case "const":
      return { kind: "const", value: s.value };
    case "ref":
      return { kind: "ref", name: s.name };
    case "object":
      return withC({
        kind: "object",
        properties: s.properties.map((p) => [p.name, p.required, checkShapeOf(p.shape)]),
        additional: s.additional === false ? false : checkShapeOf(s.additional),
      });
    case "array":
      return withC({ kind: "array", items: checkShapeOf(s.items) });
    case "tuple":
      return withC({ kind: "tuple", items: s.items.map(checkShapeOf), minItems: s.minItems, rest: s.rest === false ? false : checkShapeOf(s.rest) });
    case "union":
      return s.discriminator === undefined ? { kind: "union", branches: s.branches.map(checkShapeOf) } : { kind: "union", branches: s.branches.map(checkShapeOf), discriminator: s.discriminator.property };
  }
}

const CONSTRAINT_KEYS = [
  "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
] as const;

function constraintsOf(s: Shape): Record<string, unknown> | undefined {
  const c = s.constraints;
  if (c === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const k of CONSTRAINT_KEYS) if (c[k] !== undefined) out[k] = c[k];
  return Object.keys(out).length === 0 ? undefined : out;
}
