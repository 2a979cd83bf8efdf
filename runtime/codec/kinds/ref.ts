/**
 * Refs: a named definition's writer or reader called at a path. Errors from inside the definition carry paths
 * relative to it; these prefix them with the ref's own path, so a ref outside a loop is one call in generated
 * code and in the engine (a ref inside a loop is prefixed by the loop's own catch, with the index).
 */
import { rethrowAt } from "../../errors.ts";
import type { Reader } from "../../reader.ts";
import type { Writer } from "../../writer.ts";

export function writeRef<T>(w: Writer, write: (w: Writer, v: T) => void, v: T, path: string): void {
  try {
    write(w, v);
  } catch (e) {
    rethrowAt(e, path);
  }
}

export function readRef<T>(r: Reader, read: (r: Reader) => T, path: string): T {
  try {
    return read(r);
  } catch (e) {
    rethrowAt(e, path);
  }
}
