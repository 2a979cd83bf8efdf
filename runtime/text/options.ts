/**
 * The option checks the TOON text encoder and decoder share (one copy of each message in a bundle with both).
 */
import { ToonError } from "../wire/errors.ts";

/** `indentSize` and `maxDepth` as given (defaults 2 and 1000 applied by the caller); CONFIG_ERROR when out of range. */
export function checkSizeAndDepth(size: number, max: number): void {
  if (!Number.isInteger(size) || size < 1) throw new ToonError("CONFIG_ERROR", `indentSize must be a positive integer, got ${String(size)}`);
  if (!(max >= 1)) throw new ToonError("CONFIG_ERROR", `maxDepth must be at least 1, got ${String(max)}`);
}
