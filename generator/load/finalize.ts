/**
 * After every target is normalised: decide what each `$ref` becomes, name the definitions, and tidy the tree.
 *
 * - A target whose shape is itself a ref (an alias) stands for what that ref stands for.
 * - A target whose shape is a plain scalar, enum, const or any is inlined at every use: no definition.
 * - Every other target reachable from the root is a `Definition`, named (unique, never the codec name) in the
 *   order it is first met walking from the root; the root target keeps the codec name when it is referenced.
 * - Unions are rebuilt after inlining (branches may have become identical), then discriminators are detected,
 *   looking through refs.
 */
import type { Definition, Shape, UnionShape } from "../ir/types.ts";
import { uniqueName } from "../ir/names.ts";
import type { LoadContext, Target } from "./context.ts";
import { valueFits } from "./values.ts";
import { discriminatorOf } from "../../runtime/codec/discriminator.ts";
import { makeUnion } from "./union.ts";

type Resolution = { kind: "keep"; target: Target } | { kind: "inline"; shape: Shape };

/** Kinds a definition of which is inlined where it is used (a name buys nothing for a scalar). */
export const INLINE_KINDS: ReadonlySet<Shape["kind"]> = new Set<Shape["kind"]>(["string", "integer", "number", "boolean", "null", "any", "enum", "const"]);

export interface Finalized {
  root: Shape;
  definitions: Definition[];
}

export function finalize(ctx: LoadContext, rootTarget: Target): Finalized {
  const resolutions = new Map<Target, Resolution>();

  function resolve(t: Target): Resolution {
    const known = resolutions.get(t);
    if (known !== undefined) return known;
    // follow alias chains iteratively (they can be long), detecting cycles
    const chain: Target[] = [];
    let cur = t;
    let r: Resolution | undefined;
    for (;;) {
      const k = resolutions.get(cur);
      if (k !== undefined) {
        r = k;
        break;
      }
      if (chain.includes(cur)) ctx.fail("SCHEMA_ERROR", cur.doc, cur.pointer, "circular $ref (a chain of references that never reaches a schema)");
      chain.push(cur);
      if (cur.state === "failed") throw cur.error;
      const shape = cur.shape!;
      if (shape.kind === "ref") {
        cur = ctx.targets.get(shape.name)!;
        continue;
      }
      r = INLINE_KINDS.has(shape.kind) ? { kind: "inline", shape } : { kind: "keep", target: cur };
      break;
    }
    for (const c of chain) resolutions.set(c, r);
    return r;
  }

  const used = new Set([ctx.codecName]);
  const names = new Map<Target, string>();
  const definitions: Definition[] = [];
  const defOf = new Map<string, Definition>();
  const pending: Target[] = [];

  function nameOf(t: Target): string {
    const known = names.get(t);
    if (known !== undefined) return known;
    const name = t === rootTarget ? ctx.codecName : uniqueName(t.hint, used);
    names.set(t, name);
    const def: Definition = { name, origin: `${t.doc.label}#${t.pointer}`, shape: t.shape! };
    definitions.push(def);
    defOf.set(name, def);
    if (t !== rootTarget) pending.push(t);
    return name;
  }

  const memo = new Map<Shape, Shape>();
  const unions: UnionShape[] = [];

  function visit(s0: Shape): Shape {
    const done = memo.get(s0);
    if (done !== undefined) return done;
    const s = widened(ctx, s0);
    let out: Shape = s;
    switch (s.kind) {
      case "ref": {
        const r = resolve(ctx.targets.get(s.name)!);
        if (r.kind === "inline") {
          // the use site's annotations win over the definition's
          out = { ...widened(ctx, r.shape) };
          if (s.description !== undefined) out.description = s.description;
          if (s.default !== undefined && valueFits(s.default, out)) out.default = s.default;
        } else {
          // a fresh node: the provisional one (named by target key) may be shared and is still read by `resolve`
          out = { ...s, name: nameOf(r.target) };
        }
        break;
      }
      case "object": {
        const kept: typeof s.properties = [];
        for (const p of s.properties) {
          try {
            p.shape = visit(p.shape);
            kept.push(p);
          } catch (e) {
            // an optional property whose `$ref` target accepts no value (`"$defs": { "no": false }`) can never be
            // present: left out, as a `false` property schema is (normalize.ts); anywhere else it stays the error
            const t = p.shape.kind === "ref" ? ctx.targets.get(p.shape.name) : undefined;
            if (p.required || t === undefined || !ctx.isNever(e)) throw e;
            ctx.warn(t.doc, t.pointer, "$ref", `accepts no value, so the optional property ${JSON.stringify(p.name)} is left out of the shape (${e.message})`);
          }
        }
        if (kept.length !== s.properties.length) s.properties = kept;
        if (s.additional !== false) s.additional = visit(s.additional);
        break;
      }
      case "array":
        s.items = visit(s.items);
        break;
      case "tuple":
        s.items = s.items.map(visit);
        if (s.rest !== false) s.rest = visit(s.rest);
        break;
      case "union": {
        const rebuilt = makeUnion(s.branches.map(visit), s.schemaPath);
        if (rebuilt.kind === "union") {
          for (const k of ["description", "default", "constraints"] as const) if (s[k] !== undefined) (rebuilt as unknown as Record<string, unknown>)[k] = s[k];
          unions.push(rebuilt);
        } else if (s.description !== undefined && rebuilt.description === undefined) {
          out = { ...rebuilt, description: s.description };
          break;
        }
        out = rebuilt;
        break;
      }
      default:
        break;
    }
    memo.set(s0, out);
    // outputs can be met again (merged objects share property records with their sources): leave them as they are
    memo.set(out, out);
    return out;
  }

  const rootShape = visit(rootTarget.shape!);
  for (let i = 0; i < pending.length; i++) {
    const t = pending[i]!;
    defOf.get(names.get(t)!)!.shape = visit(t.shape!);
  }
  const rootDef = names.has(rootTarget) ? defOf.get(ctx.codecName) : undefined;
  if (rootDef !== undefined) rootDef.shape = rootShape;

  const deref = (s: Shape): Shape => {
    let cur = s;
    for (let hops = 0; cur.kind === "ref" && hops < 64; hops++) {
      const def = defOf.get(cur.name);
      if (def === undefined) break;
      cur = def.shape;
    }
    return cur;
  };
  for (const u of unions) {
    const d = discriminatorOf(u.branches, deref);
    if (d !== undefined) u.discriminator = d;
  }

  const root: Shape = rootDef !== undefined ? { kind: "ref", schemaPath: rootShape.schemaPath, name: ctx.codecName } : rootShape;
  if (rootDef !== undefined && rootShape.description !== undefined) root.description = rootShape.description;
  return { root, definitions };
}

const SCALAR_KINDS = new Set<Shape["kind"]>(["string", "integer", "number"]);

/** The JSON types a widened shape adds, in this order, when no branch covers them (fixed: the wire carries the index). */
const OTHER_TYPES: { covers: Shape["kind"][]; make: (schemaPath: string) => Shape }[] = [
  { covers: ["null"], make: (schemaPath) => ({ kind: "null", schemaPath }) },
  { covers: ["boolean"], make: (schemaPath) => ({ kind: "boolean", schemaPath }) },
  { covers: ["number"], make: (schemaPath) => ({ kind: "number", schemaPath }) },
  { covers: ["string"], make: (schemaPath) => ({ kind: "string", schemaPath }) },
  { covers: ["array"], make: (schemaPath) => ({ kind: "array", schemaPath, items: { kind: "any", schemaPath } }) },
  { covers: ["object"], make: (schemaPath) => ({ kind: "object", schemaPath, properties: [], additional: { kind: "any", schemaPath } }) },
];

/**
 * A shape only keywords implied (no `type`) that no `allOf` merged into a typed one: JSON Schema applies those
 * keywords to their type and accepts every other value. A scalar (`{ "minLength": 2 }`, `{ "maximum": 3 }`) becomes
 * any value (the validator module checks the keywords where they apply); an object or array implied by
 * `properties` / `items` / `required` keeps its shape as the first branch of a union by JSON type, the other
 * types after it, so encode takes every value validate takes and the common case (an object) keeps its fields.
 */
function widened(ctx: LoadContext, s: Shape): Shape {
  if (!ctx.loose.has(s)) return s;
  const scalar = SCALAR_KINDS.has(s.kind) || (s.kind === "union" && s.branches.every((b) => SCALAR_KINDS.has(b.kind)));
  if (scalar) {
    const out: Shape = { kind: "any", schemaPath: s.schemaPath };
    if (s.description !== undefined) out.description = s.description;
    if (s.default !== undefined) out.default = s.default;
    return out;
  }
  // the shape itself as a fresh node (not loose: visiting it must not widen it again)
  const own: Shape[] = s.kind === "union" ? [...s.branches] : [{ ...s }];
  const kinds = new Set<Shape["kind"]>(own.map((b) => (b.kind === "tuple" ? "array" : b.kind)));
  const others = OTHER_TYPES.filter((t) => !t.covers.some((k) => kinds.has(k))).map((t) => t.make(s.schemaPath));
  const out = makeUnion([...own, ...others], s.schemaPath);
  if (s.description !== undefined) out.description = s.description;
  if (s.default !== undefined) out.default = s.default;
  return out;
}
