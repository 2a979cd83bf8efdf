/**
 * The one failure path of the binary writer guards (runtime/codec/kinds/*). A guard gets the value's path and,
 * for a required property, `req` = 1: then an `undefined` value is the property missing (the error
 * `missing(parent, key)` gives, whose path is this same field path) instead of a value of the wrong type.
 * Kept out of line so the guards stay small enough for V8 to inline.
 */
import { ToonError } from "../../wire/errors.ts";
import { missingMessage } from "../../wire/objects.ts";
import { invalid } from "../../wire/writer.ts";

export function fail(p: string, expected: string, v: unknown, req: number | undefined): ToonError {
  return req === 1 && v === undefined ? missingAt(p) : invalid(p, expected, v);
}

/** `missing(parent, key)` from the field's path `parent + pointerSegment(key)`: the key is its last segment, unescaped. */
export function missingAt(p: string): ToonError {
  const key = p.slice(p.lastIndexOf("/") + 1).replace(/~1/g, "/").replace(/~0/g, "~");
  return new ToonError("INVALID_VALUE", missingMessage(key), { path: p });
}
