/**
 * The tokenizer's face (./json.ts): what it tells as it reads, the options it is made with, and where an offset
 * is once the text is gone (the starts of lines it notes).
 */
import type { JsonRepair } from "../json-repair.ts";
import type { JsonFault } from "./json-fault.ts";

export type JsonContainer = "object" | "array";

/**
 * What the reader tells as it reads (SAX style). Offsets `at` count characters from the start of the first
 * piece pushed. A string value comes as `stringStart`, its text in one or more `stringChunk`s (escapes decoded,
 * a chunk per piece it spans), `stringEnd`; a key comes whole.
 */
export interface JsonHandler {
  /** A `{` or `[` at `at`. */
  open(kind: JsonContainer, at: number): void;
  /** An object's key (its opening quote at `at`); the value follows. */
  key(key: string, at: number): void;
  /** A number (`Number(raw)`), `true`, `false` or `null`, and its token as written. */
  scalar(value: number | boolean | null, raw: string, at: number): void;
  stringStart(at: number): void;
  stringChunk(text: string): void;
  stringEnd(): void;
  /** The `}` or `]` of the innermost open container. */
  close(): void;
}

export interface JsonReaderOptions {
  /** Containers open at once at most (deeper is DEPTH_LIMIT); default JSON_MAX_DEPTH (./json.ts). */
  maxDepth?: number;
  /**
   * Stop where the root value ends (`push` returns the index there and reads no further): for a value embedded
   * in other text. Off: the rest may only be whitespace (and comments, with `repair`).
   */
  stopAtEnd?: boolean;
  /** Take strings holding lone surrogates (as `JSON.parse` does); off: they are faults. */
  loneSurrogates?: boolean;
  /** Read the slips models make too (./json.ts lists them), reporting each to `onRepair`. */
  repair?: boolean;
  onRepair?: (repair: JsonRepair) => void;
  /** Turns a fault into the error thrown (default: the strict reader's ToonError, ./json-fault.ts). */
  raise?: (fault: JsonFault) => never;
  /**
   * Where each line after the first starts (offsets, appended as the reader passes line breaks): what places an
   * offset at a line and column once the text is gone ({@link lineColumnAt}), for a reader that keeps no text.
   */
  lineStarts?: number[];
}

/** Line (1-based) and column of offset `pos`, from the starts of the lines after the first (`lineStarts`). */
export function lineColumnAt(lineStarts: readonly number[], pos: number): { line: number; column: number } {
  let lo = 0;
  let hi = lineStarts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lineStarts[mid]! <= pos) lo = mid + 1;
    else hi = mid;
  }
  return { line: lo + 1, column: pos - (lo === 0 ? 0 : lineStarts[lo - 1]!) + 1 };
}
