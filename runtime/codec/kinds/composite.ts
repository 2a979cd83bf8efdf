/**
 * The type checks that open object, array and tuple positions (see string.ts): the shape's own writer then walks
 * the contents. Discriminated unions open with `gObject` too.
 */
import { hasOwn } from "../../wire/objects.ts";
import type { Reader } from "../../wire/reader.ts";
import { isArrayAt } from "../../wire/errors.ts";
import { fail } from "./fail.ts";
import { EXPECTED_ARRAY, EXPECTED_OBJECT } from "../messages.ts";


/** An assertion, so generated code reads the properties of a value it got as `unknown` (`getOwn`). */
export function gObject(v: unknown, p: string, req?: number): asserts v is any {
  if (typeof v !== "object" || v === null || isArrayAt(v, p)) throw fail(p, EXPECTED_OBJECT, v, req);
}

export function gArray(v: unknown, p: string, req?: number): asserts v is any[] {
  if (!isArrayAt(v, p)) throw fail(p, EXPECTED_ARRAY, v, req);
}

/**
 * The key of an open object's next extra entry (its path is the entry's: the caller prefixes it). Only a real
 * duplicate is wrong: an extra named like a declared property that is absent comes from a writer of another
 * schema version (a property added or retired since), and is kept as it came.
 */
export function rKey(r: Reader, o: object): string {
  r.at = "";
  const k = r.string();
  if (hasOwn(o, k)) throw r.fail("INVALID_ENCODING", "duplicate key " + JSON.stringify(k));
  return k;
}
