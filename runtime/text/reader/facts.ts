/**
 * A text reader's error facts (`ToonError.count`, `ToonError.atEnd`): set on the error here, not by its
 * constructor, so that the core wire layer (which every bundle carries) has no code for them.
 */
import type { CountMismatch, ToonError } from "../../wire/errors.ts";

type Facts = { count?: CountMismatch; atEnd?: boolean };

/** `e` with its facts: the count that did not match, whether it was raised where the input ended. */
export function withFacts(e: ToonError, count: CountMismatch | undefined, atEnd: boolean | undefined): ToonError {
  if (count !== undefined) (e as Facts).count = count;
  if (atEnd === true) (e as Facts).atEnd = true;
  return e;
}
