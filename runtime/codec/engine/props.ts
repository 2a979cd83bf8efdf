/** Property access and static paths shared by the engine's writers, readers and predicates. */
import { getOwn } from "../../wire/objects.ts";

/**
 * `readProp` in the emitter: keys `Object.prototype` has (`__proto__`, `constructor`, `toString`, ...) are read
 * as own properties only, others with a plain property read.
 */
export function propReader(key: string): (o: any) => unknown {
  return key in Object.prototype ? (o) => getOwn(o, key) : (o) => o[key];
}

/** The static JSON pointer of a child, as generated code sees it. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}/${key}`;
  return `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** JSON primitives compare with `===` (a generated `switch`); other JSON values need `jsonEquals`. */
export function isPrimitive(v: unknown): v is string | number | boolean | null {
  return v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}
