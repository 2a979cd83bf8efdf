/**
 * Schemaless TOON text decoding (TOON spec v4.0) of a whole text: the resumable reader (runtime/text/reader/toon.ts,
 * where the implementation choices are listed) given the text as its one and last piece (`end(text)`).
 */

import { ToonError } from "../wire/errors.ts";
import { endText, locateState, type TextDecodeOptions, type ToonReaderOptions } from "./reader/toon.ts";
import { newState, type R } from "./reader/toon-read.ts";
import { checkWellFormed } from "./reader/well-formed.ts";

export type { TextDecodeOptions } from "./reader/toon.ts";
export { TextNumber } from "./reader/text-number.ts";
export { checkWellFormed, offsetToLineColumn } from "./reader/well-formed.ts";

/**
 * The state of a reader of `text` with the decoding options only (whatever else `options` holds is not the
 * reader's); read through the functions behind ToonTextReader's methods, not the class, so that a bundle decoding
 * whole texts carries none of the streaming ones.
 */
function readerOf(text: string, options: TextDecodeOptions | undefined, exact: boolean, track: boolean): R {
  if (typeof text !== "string") throw new ToonError("INVALID_VALUE", "decodeText expects a string");
  const o: ToonReaderOptions = { indentSize: options?.indentSize, strict: options?.strict, maxDepth: options?.maxDepth, exact, track };
  try {
    return newState(o);
  } catch (e) {
    // a lone surrogate in the text is reported before bad options, as it always was
    checkWellFormed(text);
    throw e;
  }
}

/**
 * Decode TOON text (spec v4.0) into a JSON value (plain objects and arrays, like `JSON.parse` output).
 * Throws `ToonError` with code `TEXT_SYNTAX` (with `line`/`column`, and `path` when inside a value) on malformed
 * text, or `DEPTH_LIMIT` beyond `maxDepth` nesting levels.
 */
export function decodeText(text: string, options?: TextDecodeOptions): unknown {
  return endText(readerOf(text, options, false, false), text);
}

/**
 * Like {@link decodeText}, but number tokens that a JS number does not carry exactly decode to `TextNumber`
 * (see there); `raws` counts them (0: the value is plain JSON data).
 */
export function decodeTextExact(text: string, options?: TextDecodeOptions): { value: unknown; raws: number } {
  const r = readerOf(text, options, true, false);
  const value = endText(r, text);
  return { value, raws: r.raws };
}

/**
 * Line and column (1-based, as in decoder errors) of the value at JSON pointer `path` in TOON `text`: for a path
 * that goes past the decoded value (a missing property), the position of the deepest container on the way.
 * Undefined when the text does not decode. Slow (decodes again, recording positions): for error reporting.
 */
export function locateText(text: string, path: string, options?: TextDecodeOptions): { line: number; column: number } | undefined {
  const r = readerOf(text, options, false, true);
  // a lone surrogate is an error here, not a text that does not decode
  checkWellFormed(text);
  try {
    endText(r, text);
  } catch {
    return undefined;
  }
  return locateState(r, path);
}
