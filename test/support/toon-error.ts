/** The ToonError `f` throws (any other error is rethrown; no error fails the test). */
import assert from "node:assert/strict";
import { ToonError } from "../../runtime/wire/errors.ts";

export function catchToon(f: () => unknown): ToonError {
  try {
    f();
  } catch (e) {
    if (e instanceof ToonError) return e;
    throw e;
  }
  assert.fail("expected a ToonError");
}

/** What `f` did: returned a value, or threw a ToonError (its code, path, message and offset; any other error is rethrown). */
export type Outcome = { ok: true; value: unknown } | { ok: false; code: string; path: string; message: string; offset: number | undefined };

export function outcome(f: () => unknown): Outcome {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (!(e instanceof ToonError)) throw e;
    return { ok: false, code: e.code, path: e.path, message: e.message, offset: e.offset };
  }
}
