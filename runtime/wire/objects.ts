/**
 * Object helpers for generated code, written once so that keys from schemas and data (which may be
 * `__proto__`, `constructor`, anything) are always own data properties, as in `JSON.parse` output.
 */
import { ToonError, pointerSegment } from "./errors.ts";
import { describe } from "./writer.ts";

const hasOwnProperty = Object.prototype.hasOwnProperty;

export function hasOwn(o: object, key: string): boolean {
  return hasOwnProperty.call(o, key);
}

/** `o[key] = value`, except that `__proto__` becomes an own property instead of replacing the prototype. */
export function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}

/** Read an own property only (for keys like `__proto__` where `o[key]` would find the prototype). */
export function getOwn(o: object, key: string): unknown {
  return hasOwnProperty.call(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

/** True for a non-null, non-array object: what a JSON object decodes to. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Own enumerable keys of `o` outside `known` whose value is not undefined; `undefined` when there are none. */
export function extraKeys(o: object, known: ReadonlySet<string>): string[] | undefined {
  let out: string[] | undefined;
  for (const k in o) {
    if (known.has(k) || !hasOwnProperty.call(o, k) || (o as Record<string, unknown>)[k] === undefined) continue;
    (out ??= []).push(k);
  }
  return out;
}

/**
 * Whether every extra key of `o` (own, enumerable, outside `known`, not undefined) holds a JSON value: a union's
 * test of an open object branch, whose extra keys are `any` (a bigint among them belongs to another branch).
 */
export function extrasAreJson(o: object, known: ReadonlySet<string>): boolean {
  for (const k in o) {
    if (known.has(k) || !hasOwnProperty.call(o, k)) continue;
    const v = (o as Record<string, unknown>)[k];
    if (v !== undefined && !isJsonLike(v)) return false;
  }
  return true;
}

/** Count of own enumerable keys: compared against the declared keys present to spot unknown ones cheaply. */
export function keyCount(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/** Slow path of the closed-object check: throw for the first unknown key with a defined value. */
export function checkClosed(o: object, known: ReadonlySet<string>, path: string): void {
  const extra = extraKeys(o, known);
  if (extra !== undefined) {
    throw new ToonError("INVALID_VALUE", unknownPropertyMessage(extra[0]!), {
      path: path + pointerSegment(extra[0]!),
    });
  }
}

/** Structural equality of JSON values (enum and const matching). */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEquals(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!hasOwnProperty.call(b, k) || !jsonEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** A fresh deep copy of a JSON constant, so decoded values never share structure with the codec's tables. */
export function cloneJson<T>(v: T): T {
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) return v.map(cloneJson) as T;
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(v)) setOwn(o, k, cloneJson((v as Record<string, unknown>)[k]));
  return o as T;
}

/** Error for a required property that is missing. */
export function missing(path: string, key: string): ToonError {
  return new ToonError("INVALID_VALUE", missingMessage(key), { path: path + pointerSegment(key) });
}

/** The message of a required property that is missing (its path is the property's: runtime/codec/messages.ts). */
export function missingMessage(key: string): string {
  return `required property ${JSON.stringify(key)} is missing`;
}

/** The message of a property a closed object does not declare (its path is the property's). */
export function unknownPropertyMessage(key: string): string {
  return `unknown property ${JSON.stringify(key)} (the schema allows no additional properties)`;
}

export { describe };

/**
 * Whether `v` can be a JSON value all the way down (what an `any` position accepts): used to pick a union branch,
 * so a value holding a bigint, a function or `undefined` anywhere moves on to the next branch (an int64 field of
 * a later object branch) instead of failing in this one. Nested deeper than 256 levels it answers true and
 * leaves the writer's DEPTH_LIMIT to say so.
 */
export function isJsonLike(v: unknown, depth = 0): boolean {
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return v - v === 0;
    case "object": {
      if (v === null || depth >= 256) return true;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!isJsonLike(v[i], depth + 1)) return false;
        return true;
      }
      const o = v as Record<string, unknown>;
      for (const k in o) if (hasOwnProperty.call(o, k) && o[k] !== undefined && !isJsonLike(o[k], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
