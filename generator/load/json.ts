/**
 * Safe access to untrusted JSON. Schema documents are attacker-shaped data: keys like `__proto__` or
 * `constructor` must be read as data and never resolve through the prototype chain, and values that came from
 * an in-memory object (Zod adapters) may not be JSON at all.
 */
import type { JsonValue } from "../ir/types.ts";

export type JsonObject = Record<string, unknown>;

const hasOwn = Object.prototype.hasOwnProperty;

/** A non-array object (what a schema node or a `properties` map must be). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The own property `key` of `obj`, or `undefined` (never an inherited one such as `constructor`). */
export function own(obj: JsonObject, key: string): unknown {
  return hasOwn.call(obj, key) ? obj[key] : undefined;
}

export function has(obj: JsonObject, key: string): boolean {
  return hasOwn.call(obj, key);
}

/** Nesting deeper than this is rejected with SCHEMA_ERROR rather than risking a stack overflow. */
export const MAX_DEPTH = 500;

/** Keywords whose values are data, not schemas (no anchors, no `$id`s in there). */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(["enum", "const", "default", "examples", "example"]);

/**
 * A fresh deep copy of `value` if it is JSON (finite numbers, plain objects, arrays...), else `undefined`.
 * Keys are defined, not assigned, so `__proto__` stays an ordinary own key. Too-deep or cyclic values are not JSON.
 */
export function toJson(value: unknown, depth = 0): JsonValue | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "object" || depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    const out: JsonValue[] = [];
    for (let i = 0; i < value.length; i++) {
      const v = toJson(value[i], depth + 1);
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value)) {
    const v = toJson((value as JsonObject)[key], depth + 1);
    if (v === undefined) return undefined;
    Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Canonical text of a JSON value (object keys sorted) for equality and dedupe. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return "[" + value.map(canonicalJson).join(",") + "]";
  const keys = Object.keys(value).sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalJson(value[k] as JsonValue)).join(",") + "}";
}

export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** JSON type name of a value, for messages and type checks (`integer` for whole numbers). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Does a JSON value match a JSON Schema primitive type name? */
export function valueHasType(value: JsonValue, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return true;
  }
}
