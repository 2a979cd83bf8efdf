/**
 * A payload's error with its lines counted from the start of the reply it came in (a payload read alone counts
 * from its own first line).
 */
import { ToonError, type ToonErrorOptions } from "../../wire/errors.ts";
import { withFacts } from "./facts.ts";

export function shiftLines(e: ToonError, lines: number): ToonError {
  if (e.line === undefined || lines === 0) return e;
  const opts: ToonErrorOptions = { path: e.path, line: e.line + lines, cause: e.cause ?? e };
  if (e.column !== undefined) opts.column = e.column;
  if (e.details !== undefined) opts.details = e.details;
  return withFacts(new ToonError(e.code, e.reason, opts), e.count === undefined ? undefined : { ...e.count, line: e.count.line + lines }, e.atEnd);
}
