/**
 * Unions: building them (flatten nested unions, drop identical branches, a union of one branch is that branch),
 * and structural identity of shapes (discriminator detection: runtime/codec/discriminator.ts).
 */
import type { ObjectShape, Shape } from "../ir/types.ts";
import { canonicalJson, toJson } from "./json.ts";

/** Fields that do not change what a shape accepts or how it travels. */
const COSMETIC = new Set(["schemaPath", "description", "default"]);

/**
 * Structural identity of shapes: two shapes get the same id exactly when they accept and encode the same values
 * (paths, descriptions and defaults aside). Children are referred to by id (hash-consing), so the cost stays
 * linear even when shapes share subtrees; ids are only comparable within one `ShapeKeys`.
 */
export class ShapeKeys {
  private readonly ids = new Map<Shape, number>();
  private readonly table = new Map<string, number>();

  id(s: Shape): number {
    const cached = this.ids.get(s);
    if (cached !== undefined) return cached;
    const parts: string[] = [];
    const fields = s as unknown as Record<string, unknown>;
    for (const f of Object.keys(fields).sort()) {
      const v = fields[f];
      if (v === undefined || COSMETIC.has(f)) continue;
      let text: string;
      if (f === "properties") {
        text = (v as ObjectShape["properties"]).map((p) => JSON.stringify(p.name) + (p.required ? "!" : "?") + this.id(p.shape)).join(",");
      } else if (f === "branches" || (f === "items" && Array.isArray(v))) {
        text = (v as Shape[]).map((b) => this.id(b)).join(",");
      } else if (f === "items" || f === "additional" || f === "rest") {
        text = v === false ? "false" : String(this.id(v as Shape));
      } else {
        text = canonicalJson(toJson(v) ?? null);
      }
      parts.push(`${f}:[${text}]`);
    }
    const key = parts.join(";");
    let id = this.table.get(key);
    if (id === undefined) {
      id = this.table.size;
      this.table.set(key, id);
    }
    this.ids.set(s, id);
    return id;
  }
}

/**
 * A union of `branches` in order: nested unions are flattened into it, identical branches kept once, and a
 * single remaining branch returned as is.
 */
export function makeUnion(branches: readonly Shape[], schemaPath: string): Shape {
  const flat: Shape[] = [];
  for (const b of branches) {
    if (b.kind === "union") flat.push(...b.branches);
    else flat.push(b);
  }
  const keys = new ShapeKeys();
  const seen = new Set<number>();
  const distinct: Shape[] = [];
  for (const b of flat) {
    const k = keys.id(b);
    if (seen.has(k)) continue;
    seen.add(k);
    distinct.push(b);
  }
  if (distinct.length === 1) return distinct[0]!;
  return { kind: "union", schemaPath, branches: distinct };
}
