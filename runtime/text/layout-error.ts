/**
 * Which of two failures to report when text is neither valid dense nor valid TOON: the layout the text looks
 * like is the one its writer meant (kept apart from layout.ts: model-output uses it without the dense writer).
 */
import { ToonError } from "../errors.ts";
import { looksDense } from "./dense/syntax.ts";

/** The dense reader's failure when the text uses dense-only syntax, else TOON's. */
export function further(dense: ToonError, toon: unknown, text: string): unknown {
  if (!(toon instanceof ToonError)) return toon;
  return looksDense(text) ? dense : toon;
}
