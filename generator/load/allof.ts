/**
 * `allOf` (and 2019+ `$ref` with sibling keywords): the intersection of shapes, computed on normalised shapes.
 * Objects merge property by property (required is the union), scalars merge their constraints (the tighter bound
 * wins), enums intersect, unions distribute (branches that cannot combine are dropped), refs are looked through.
 * Types that cannot be combined (string and object) are a clear SCHEMA_ERROR.
 *
 * "Loose" shapes are those whose type was only implied by keywords (`{ properties: ... }` without `type`): in
 * JSON Schema such a schema constrains objects and lets every other type through, so merging it into
 * `{ type: ["boolean", "object"] }` narrows the object branch and leaves the boolean one alone.
 */
import type { ArrayShape, JsonValue, ObjectShape, PropertyShape, RefShape, Shape, TupleShape } from "../ir/types.ts";
import { mergeConstraints } from "./constraints.ts";
import { canonicalJson, MAX_DEPTH } from "./json.ts";
import { makeUnion } from "./union.ts";
import { valueFits } from "./values.ts";

export interface MergeEnv {
  /** The shape a `ref` stands for (its target normalised now if needed). */
  deref(ref: RefShape): Shape;
  /** Report an impossible combination at the `allOf` node. */
  conflict(reason: string): never;
  /** Count one merge step against the work budget. */
  tick(): void;
  /** Was the shape's type only implied by its keywords? */
  isLoose(s: Shape): boolean;
  markLoose(s: Shape): void;
}

/** Thrown inside a merge; caught by union distribution (drop the branch) or turned into `env.conflict`. */
class Conflict extends Error {}

/** Past this many branches, a union-by-union `allOf` is refused rather than exploding. */
const MAX_PRODUCT = 256;

export function mergeShapes(a: Shape, b: Shape, env: MergeEnv): Shape {
  try {
    return merge(a, b, env, 0);
  } catch (e) {
    if (e instanceof Conflict) env.conflict(e.message);
    throw e;
  }
}

/** Merge two `any`-or-nothing annotations: description and default come from whichever side has one. */
function annotate<S extends Shape>(s: S, from: Shape): S {
  const out: S = { ...s };
  if (out.description === undefined && from.description !== undefined) out.description = from.description;
  if (out.default === undefined && from.default !== undefined && valueFits(from.default, s)) out.default = from.default;
  const c = mergeConstraints(s.constraints, from.constraints);
  if (c !== undefined) out.constraints = c;
  return out;
}

/** `annotate` keeping `s`'s looseness (the copy still has only an implied type). */
function keep<S extends Shape>(s: S, from: Shape, env: MergeEnv): S {
  const out = annotate(s, from);
  if (env.isLoose(s)) env.markLoose(out);
  return out;
}

/** `plain`: ignore the looseness of `a` and `b` themselves (set when called for one pair of branches). */
function merge(a: Shape, b: Shape, env: MergeEnv, depth: number, plain = false): Shape {
  if (depth > MAX_DEPTH) throw new Conflict("allOf merge nested too deeply");
  env.tick();
  if (b.kind === "any") return keep(a, b, env);
  if (a.kind === "any") return keep(b, a, env);
  if (a.kind === "ref" && b.kind === "ref" && a.name === b.name) return annotate(a, b);
  if (a.kind === "ref") return merge(env.deref(a), b, env, depth + 1, plain);
  if (b.kind === "ref") return merge(a, env.deref(b), env, depth + 1, plain);
  const aLoose = !plain && env.isLoose(a);
  const bLoose = !plain && env.isLoose(b);
  if (a.kind === "union" || b.kind === "union" || aLoose || bLoose) return mergeBranches(a, b, aLoose, bLoose, env, depth);
  if (a.kind === "enum" || a.kind === "const" || b.kind === "enum" || b.kind === "const") return mergeValues(a, b);

  if (a.kind === b.kind) {
    switch (a.kind) {
      case "string":
      case "integer":
      case "number": {
        const bb = b as typeof a;
        const out = annotate(a, b);
        if (out.format === undefined && bb.format !== undefined) out.format = bb.format;
        if (a.kind !== "number" && (bb as { int64?: boolean }).int64 === true) (out as { int64?: boolean }).int64 = true;
        return out;
      }
      case "boolean":
      case "null":
        return annotate(a, b);
      case "object":
        return mergeObjects(a, b as ObjectShape, env, depth);
      case "array":
        return { ...annotate(a, b), items: merge(a.items, (b as ArrayShape).items, env, depth + 1) };
      case "tuple":
        return mergeTuples(a, b as TupleShape, env, depth);
    }
  }
  // integer is a subset of number
  if (a.kind === "integer" && b.kind === "number") return annotate(a, b);
  if (a.kind === "number" && b.kind === "integer") return annotate(b, a);
  if (a.kind === "array" && b.kind === "tuple") return mergeTuples(asTuple(a), b, env, depth);
  if (a.kind === "tuple" && b.kind === "array") return mergeTuples(a, asTuple(b), env, depth);
  throw new Conflict(`allOf combines incompatible types ${a.kind} and ${b.kind}`);
}

function asTuple(a: ArrayShape): TupleShape {
  const { items, ...base } = a;
  return { ...base, kind: "tuple", items: [], minItems: 0, rest: items };
}

/**
 * `(A | B) & C` = `(A & C) | (B & C)`, dropping combinations that conflict. A branch of one side that meets no
 * branch of its kind on a loose other side passes unchanged (the loose side does not constrain its type).
 */
function mergeBranches(a: Shape, b: Shape, aLoose: boolean, bLoose: boolean, env: MergeEnv, depth: number): Shape {
  const left = a.kind === "union" ? a.branches : [a];
  const right = b.kind === "union" ? b.branches : [b];
  if (left.length * right.length > MAX_PRODUCT) throw new Conflict(`allOf of unions with ${left.length} x ${right.length} branches is too large`);
  const out: Shape[] = [];
  let lastConflict: Conflict | undefined;
  const pair = (l: Shape, r: Shape): Shape | undefined => {
    try {
      return merge(l, r, env, depth + 1, true);
    } catch (e) {
      if (!(e instanceof Conflict)) throw e;
      lastConflict = e;
      return undefined;
    }
  };
  if (aLoose && !bLoose) {
    // the typed side drives the order (`{ properties, oneOf: [string, object] }` stays string | object)
    for (const r of right) {
      let matched = false;
      for (const l of left) {
        const m = pair(l, r);
        if (m !== undefined) {
          out.push(m);
          matched = true;
        } else if (env.isLoose(r)) out.push(l);
      }
      // a loose side as a whole (`{ properties, items }`) constrains only the types it implies
      if (!matched) out.push(r);
    }
  } else {
    const rightMatched = new Set<number>();
    for (const l of left) {
      let matched = false;
      right.forEach((r, j) => {
        const m = pair(l, r);
        if (m !== undefined) {
          out.push(m);
          matched = true;
          rightMatched.add(j);
        } else if (!bLoose && env.isLoose(r)) out.push(l); // one loose branch (`anyOf: [{ required }]`) lets other types through
        else if (!aLoose && env.isLoose(l)) out.push(r);
      });
      if (!matched && bLoose) out.push(l);
    }
    if (aLoose) right.forEach((r, j) => rightMatched.has(j) || out.push(r));
  }
  if (out.length === 0) throw lastConflict ?? new Conflict("allOf leaves no union branch");
  // constraints of either side are already in every merged branch; only the description is the union's own
  let union = makeUnion(out, a.schemaPath);
  const description = a.description ?? b.description;
  if (union.description === undefined && description !== undefined) union = { ...union, description };
  if (aLoose && bLoose) env.markLoose(union);
  return union;
}

/** enum/const with anything: the values both sides accept, in the first side's order. */
function mergeValues(a: Shape, b: Shape): Shape {
  const valuesOf = (s: Shape): JsonValue[] | undefined => (s.kind === "enum" ? s.values : s.kind === "const" ? [s.value] : undefined);
  const av = valuesOf(a);
  const bv = valuesOf(b);
  let values: JsonValue[];
  if (av !== undefined && bv !== undefined) {
    const keep = new Set(bv.map(canonicalJson));
    values = av.filter((v) => keep.has(canonicalJson(v)));
  } else if (av !== undefined) {
    values = av.filter((v) => valueFits(v, b));
  } else {
    values = bv!.filter((v) => valueFits(v, a));
  }
  if (values.length === 0) throw new Conflict(`allOf leaves no allowed value (${a.kind} and ${b.kind})`);
  const base = av !== undefined ? a : b;
  const other = base === a ? b : a;
  const merged = annotate(base, other);
  const { schemaPath, description, default: dflt, constraints } = merged;
  const out: Shape = values.length === 1 ? { kind: "const", schemaPath, value: values[0]! } : { kind: "enum", schemaPath, values };
  if (description !== undefined) out.description = description;
  if (dflt !== undefined && valueFits(dflt, out)) out.default = dflt;
  if (constraints !== undefined) out.constraints = constraints;
  return out;
}

/**
 * Properties of both, in `a`'s order then `b`'s new ones; a property on both sides is the merge of the two and
 * required if either says so. The object is closed if either side closes it (the intent of
 * `allOf: [{ $ref: Base }, { properties: ..., additionalProperties: false }]` in practice).
 */
function mergeObjects(a: ObjectShape, b: ObjectShape, env: MergeEnv, depth: number): ObjectShape {
  const byName = new Map<string, PropertyShape>();
  const order: string[] = [];
  for (const p of [...a.properties, ...b.properties]) {
    const prev = byName.get(p.name);
    if (prev === undefined) {
      byName.set(p.name, p);
      order.push(p.name);
    } else {
      byName.set(p.name, { name: p.name, required: prev.required || p.required, shape: merge(prev.shape, p.shape, env, depth + 1) });
    }
  }
  let additional: Shape | false;
  if (a.additional === false || b.additional === false) additional = false;
  else additional = merge(a.additional, b.additional, env, depth + 1);
  return { ...annotate(a, b), properties: order.map((n) => byName.get(n)!), additional };
}

function mergeTuples(a: TupleShape, b: TupleShape, env: MergeEnv, depth: number): TupleShape {
  // a side with `rest: false` caps the length
  let n = Math.max(a.items.length, b.items.length);
  if (a.rest === false) n = Math.min(n, a.items.length);
  if (b.rest === false) n = Math.min(n, b.items.length);
  const items: Shape[] = [];
  for (let i = 0; i < n; i++) {
    const x = a.items[i] ?? (a.rest as Shape);
    const y = b.items[i] ?? (b.rest as Shape);
    items.push(merge(x, y, env, depth + 1));
  }
  const minItems = Math.min(n, Math.max(a.minItems, b.minItems));
  if (Math.max(a.minItems, b.minItems) > n) throw new Conflict("allOf requires more tuple items than it allows");
  const rest = a.rest === false || b.rest === false ? false : merge(a.rest, b.rest, env, depth + 1);
  return { ...annotate(a, b), items, minItems, rest };
}
