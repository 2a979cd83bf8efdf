/**
 * Which of two failures to report when text is neither valid dense nor valid TOON: the layout the text looks
 * like is the one its writer meant (kept apart from layout.ts: model-output uses it without the dense writer).
 */
import { ToonError } from "../wire/errors.ts";
import { looksDense } from "./dense/syntax.ts";

/**
 * The dense reader's failure when the text uses dense-only syntax, else TOON's. Only the text up to the later of
 * the two failures counts: what a reader in pieces has seen when it must decide is what a whole reading decides by.
 */
export function further(dense: ToonError, toon: unknown, text: string): unknown {
  if (!(toon instanceof ToonError)) return toon;
  const line = Math.max(dense.line ?? Infinity, toon.line ?? Infinity);
  return looksDense(line === Infinity ? text : linesUpTo(text, line)) ? dense : toon;
}

/** `text`'s first `n` lines. */
function linesUpTo(text: string, n: number): string {
  let at = -1;
  for (let k = 0; k < n; k++) {
    at = text.indexOf("\n", at + 1);
    if (at < 0) return text;
  }
  return text.slice(0, at);
}
