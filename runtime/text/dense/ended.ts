/**
 * Dense reader errors raised where the text ran out (the reader's position at its very end): what a reply cut
 * off mid-line gives, which `fromModelOutput` reports as INCOMPLETE. A tiny module of its own, so that the
 * model-output code can ask without importing the dense reader.
 */
import type { ToonError } from "../../errors.ts";

const ended = new WeakSet<ToonError>();

export function markEnded(e: ToonError): void {
  ended.add(e);
}

/** Whether the dense reader raised `e` at the end of its text. */
export function endedWithText(e: unknown): boolean {
  return typeof e === "object" && e !== null && ended.has(e as ToonError);
}
