/**
 * What a schema proves about the TOON text of its values, before any value is seen: which positions only ever hold
 * a primitive, an object or an array, which arrays of objects always fit a table (and their header), which
 * properties keep rows from forming one, and what a reply's payload looks like at its root. The encoder emitter
 * (./text-encoder.ts) specialises on these facts; the check emitter and the module's reader spec read them too.
 */
import type { ObjectShape, Shape } from "../ir/types.ts";
import type { Definitions } from "../ir/walk.ts";
import type { TextField } from "../../runtime/text/headers.ts";
import type { PayloadHints } from "../../runtime/text/model-output.ts";
import { isPrimitive } from "./context.ts";

/** The shape behind refs (undefined for a ref cycle with nothing in between). */
export function resolve(s: Shape, cx: Definitions, seen: Set<string> = new Set()): Shape | undefined {
  while (s.kind === "ref") {
    if (seen.has(s.name)) return undefined;
    seen.add(s.name);
    s = cx.def(s.name).shape;
  }
  return s;
}

/** Only ever a primitive (string, number, boolean, null). */
export function primOnly(s: Shape, cx: Definitions, seen: Set<string> = new Set()): boolean {
  const r = resolve(s, cx, seen);
  if (r === undefined) return false;
  switch (r.kind) {
    case "string":
    case "integer":
    case "number":
    case "boolean":
    case "null":
      return true;
    case "const":
      return isPrimitive(r.value);
    case "enum":
      return r.values.every(isPrimitive);
    case "union":
      return r.branches.every((b) => primOnly(b, cx, new Set(seen)));
    default:
      return false;
  }
}

/** Only ever a (non-array) object. */
export function objOnly(s: Shape, cx: Definitions, seen: Set<string> = new Set()): boolean {
  const r = resolve(s, cx, seen);
  if (r === undefined) return false;
  if (r.kind === "object") return true;
  if (r.kind === "union") return r.branches.every((b) => objOnly(b, cx, new Set(seen)));
  return false;
}

/** Only ever an array. */
export function arrOnly(s: Shape, cx: Definitions): boolean {
  const r = resolve(s, cx);
  return r !== undefined && (r.kind === "array" || r.kind === "tuple");
}

/**
 * The header fields when every value of `s` is an object the schema proves fits a table row: at least one
 * property, all required, each a primitive or (a nested group) such an object. Null otherwise.
 */
export function tabularFields(s: Shape, cx: Definitions, depth = 0): { fields: TextField[]; shape: ObjectShape; depth: number } | null {
  const r = resolve(s, cx);
  if (r === undefined || r.kind !== "object" || r.properties.length === 0 || depth > 8) return null;
  const fields: TextField[] = [];
  let deepest = 1;
  for (const p of r.properties) {
    if (!p.required || p.name === "__proto__") return null;
    if (primOnly(p.shape, cx)) fields.push(p.name);
    else {
      const sub = tabularFields(p.shape, cx, depth + 1);
      if (sub === null) return null;
      fields.push({ name: p.name, fields: sub.fields });
      deepest = Math.max(deepest, sub.depth + 1);
    }
  }
  return { fields, shape: r, depth: deepest };
}

/**
 * Up to 8 property names that a value of object (or object union) `s` may or may not have: rows that differ in
 * one of them have different keys, so they cannot form a table.
 */
export function probeProperties(s: Shape, cx: Definitions): string[] {
  const r = resolve(s, cx);
  if (r === undefined) return [];
  const objects: ObjectShape[] = [];
  const collect = (x: Shape): void => {
    const y = resolve(x, cx);
    if (y?.kind === "object") objects.push(y);
    else if (y?.kind === "union") y.branches.forEach(collect);
  };
  collect(r);
  const names = new Set<string>();
  for (const o of objects) for (const p of o.properties) names.add(p.name);
  const always = (n: string): boolean => objects.every((o) => o.properties.some((p) => p.name === n && p.required));
  return [...names].filter((n) => !always(n)).slice(0, 8);
}

/** A required property of object `s` that is always an array (so rows of `s` never form a table). */
export function arrayProperty(s: Shape, cx: Definitions): string | undefined {
  const r = resolve(s, cx);
  if (r === undefined || r.kind !== "object") return undefined;
  return r.properties.find((p) => p.required && p.name !== "__proto__" && arrOnly(p.shape, cx))?.name;
}

/** The payload's root as the reply search expects it (runtime/stream/text.ts derives the same from a descriptor). */
export function payloadHints(shape: Shape, cx: Definitions): PayloadHints {
  const r = resolve(shape, cx);
  if (r?.kind === "object") return { root: "object", keys: r.properties.map((p) => p.name) };
  if (r?.kind === "array" || r?.kind === "tuple") return { root: "array", keys: [] };
  return { root: "other", keys: [] };
}
