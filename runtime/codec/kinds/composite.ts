/**
 * The type checks that open object, array and tuple positions (see string.ts): the shape's own writer then walks
 * the contents. Discriminated unions open with `gObject` too.
 */
import { fail } from "./fail.ts";

const isArray = Array.isArray;

/** An assertion, so generated code reads the properties of a value it got as `unknown` (`getOwn`). */
export function gObject(v: unknown, p: string, req?: number): asserts v is { [key: string]: any } {
  if (typeof v !== "object" || v === null || isArray(v)) throw fail(p, "an object", v, req);
}

export function gArray(v: unknown, p: string, req?: number): asserts v is any[] {
  if (!isArray(v)) throw fail(p, "an array", v, req);
}
