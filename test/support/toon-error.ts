/** The ToonError `f` throws (any other error is rethrown; no error fails the test). */
import assert from "node:assert/strict";
import { ToonError } from "../../runtime/errors.ts";

export function catchToon(f: () => unknown): ToonError {
  try {
    f();
  } catch (e) {
    if (e instanceof ToonError) return e;
    throw e;
  }
  assert.fail("expected a ToonError");
}
