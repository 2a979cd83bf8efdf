/**
 * TOON text is Unicode (UTF-8 on the wire): a lone surrogate code unit cannot be part of it, and a value holding
 * one is a value `encode` and `validate` refuse. The TOON v4 reader's checks of pieces and lines, and
 * `checkWellFormed` of a whole text (exported by runtime/text/decode.ts).
 */
import { ToonError } from "../../errors.ts";
import { withFacts } from "./facts.ts";

const hasIsWellFormed = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function";

/** Whether `s` has no lone surrogate (native where the engine has `isWellFormed`: one-byte text costs nothing). */
export function isWellFormed(s: string): boolean {
  return hasIsWellFormed ? (s as string & { isWellFormed(): boolean }).isWellFormed() : loneSurrogate(s, 0, s.length) < 0;
}

/** Index of the first lone surrogate in `s[from, to)` (a high half at `to - 1` is lone), or -1. */
export function loneSurrogate(s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < to) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/** The error for a lone surrogate `c` at `line`/`column`. */
export function loneSurrogateError(c: number, line: number, column: number, atEnd = false): ToonError {
  return withFacts(new ToonError("TEXT_SYNTAX", `lone surrogate U+${c.toString(16).toUpperCase()} (text must be well-formed Unicode)`, { line, column }), undefined, atEnd);
}

/** TEXT_SYNTAX at the first lone surrogate of a whole text, before anything is read. */
export function checkWellFormed(text: string): void {
  if (isWellFormed(text)) return;
  const i = loneSurrogate(text, 0, text.length);
  const { line, column } = offsetToLineColumn(text, i);
  throw loneSurrogateError(text.charCodeAt(i), line, column);
}

/** 1-based line and UTF-16 column of offset `pos` (a leading byte-order mark does not count as a column). */
export function offsetToLineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < pos; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  if (line === 1 && text.charCodeAt(0) === 0xfeff) start = 1;
  return { line, column: pos - start + 1 };
}
