/**
 * TOON text is Unicode (UTF-8 on the wire): a lone surrogate code unit cannot be part of it, and a value holding
 * one is a value `encode` and `validate` refuse. The TOON v4 reader's checks of pieces and lines, and
 * `checkWellFormed` of a whole text (exported by runtime/text/decode.ts).
 */
import { ToonError } from "../../wire/errors.ts";
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

/**
 * Text is Unicode: a lone surrogate is TEXT_SYNTAX where it stands, raised when its line comes to be read, so that
 * text read in pieces fails where the same text read whole does. Each piece is checked once (natively, when it is
 * well-formed); the first lone surrogate's place is kept (`line` 0: none seen).
 */
export class SurrogateWatch {
  line = 0;
  private column = 0;
  private char = 0;
  /** A high surrogate ended the last piece: its pair must begin the next. */
  private high = false;

  reset(): void {
    this.line = this.column = this.char = 0;
    this.high = false;
  }

  /** `chunk` arrives after the lines `lexer` has handed on and its unfinished line. */
  piece(chunk: string, lexer: { readonly lines: number; readonly pending: string }): void {
    if (this.line > 0) return; // the first one is the one reported
    if (!this.high && isWellFormed(chunk)) return;
    let from = 0;
    if (this.high) {
      this.high = false;
      const c = chunk.charCodeAt(0);
      if (c >= 0xdc00 && c <= 0xdfff) from = 1; // the pair of the last piece's high surrogate
      else return this.lastHigh(lexer);
    }
    const i = loneSurrogate(chunk, from, chunk.length);
    if (i < 0) return;
    if (i === chunk.length - 1 && (chunk.charCodeAt(i) & 0xfc00) === 0xd800) {
      this.high = true; // its pair may begin the next piece
      return;
    }
    let line = lexer.lines + 1;
    for (let k = chunk.indexOf("\n"); k >= 0 && k < i; k = chunk.indexOf("\n", k + 1)) line++;
    const before = chunk.lastIndexOf("\n", i - 1);
    this.line = line;
    this.column = before < 0 ? lexer.pending.length + i + 1 : i - before;
    this.char = chunk.charCodeAt(i);
  }

  /** The text is over (before its last line is handed on): a high surrogate that ended it has no pair. */
  end(lexer: { readonly lines: number; readonly pending: string }): void {
    if (this.high && this.line === 0) this.lastHigh(lexer);
  }

  error(): ToonError {
    return loneSurrogateError(this.char, this.line, Math.max(1, this.column));
  }

  private lastHigh(lexer: { readonly lines: number; readonly pending: string }): void {
    const tail = lexer.pending;
    this.line = lexer.lines + 1;
    this.column = tail.length;
    this.char = tail.charCodeAt(tail.length - 1);
  }
}
