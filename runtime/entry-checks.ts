/**
 * The main entry's versions of functions the runtime and generated code call with values of their own (so they
 * stay unchecked there, and out of the binary bundle): here an argument of the wrong kind is a ToonError naming
 * the function, never a TypeError from reading it.
 */
import { ToonError as $ToonError, pointerSegment as segment, type ToonErrorCode, type ToonErrorOptions } from "./wire/errors.ts";
import { kindOf as kind, refuse } from "./wire/arg-check.ts";
import { hex16 as hex, peekHeader as peek, type Header } from "./wire/header.ts";
import { formatDate as dateText, formatDateTime as dateTimeText, parseDate as date, parseDateTime as dateTime } from "./wire/dates.ts";
import type { Reader } from "./wire/reader.ts";
import { locateText as locate, offsetToLineColumn as lineColumn, type TextDecodeOptions } from "./text/decode.ts";

/** Escape one JSON-pointer reference token (RFC 6901). */
export function pointerSegment(key: string | number): string {
  if (typeof key !== "string" && typeof key !== "number") refuse("pointerSegment", "a key (string) or an index (number)", key);
  return segment(key);
}

/** Parse the header without judging flags or fingerprint (for `inspect` and dispatch). */
export function peekHeader(r: Reader): Header {
  if (typeof r !== "object" || r === null || typeof r.remaining !== "function") refuse("peekHeader", "a Reader over the message (new Reader(bytes))", r);
  return peek(r);
}

/** `0x1a2b`: how messages show a fingerprint. */
export function hex16(n: number): string {
  if (typeof n !== "number") refuse("hex16", "a number", n);
  return hex(n);
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date, or undefined when `s` is not one (not a string included). */
export function parseDate(s: string): number | undefined {
  return typeof s === "string" ? date(s) : undefined;
}

/** A date-time's milliseconds since 1970, or undefined when `s` is not one (not a string included). */
export function parseDateTime(s: string): { ms: number; withMillis: boolean } | undefined {
  return typeof s === "string" ? dateTime(s) : undefined;
}

/** `YYYY-MM-DD` of a day count since 1970-01-01, or undefined outside the supported years (not an integer included). */
export function formatDate(days: number): string | undefined {
  return Number.isInteger(days) ? dateText(days) : undefined;
}

/** An RFC 3339 date-time of milliseconds since 1970, or undefined outside the supported years (not a finite number included). */
export function formatDateTime(ms: number, withMillis: boolean): string | undefined {
  return Number.isFinite(ms) ? dateTimeText(ms, withMillis === true) : undefined;
}

/** Line and column of the value at JSON pointer `path` in TOON `text` (see runtime/text/decode.ts). */
export function locateText(text: string, path: string, options?: TextDecodeOptions): { line: number; column: number } | undefined {
  if (typeof path !== "string") refuse("locateText", "a JSON pointer (string)", path);
  return locate(text, path, options);
}

/** 1-based line and UTF-16 column of offset `pos` in `text`. */
export function offsetToLineColumn(text: string, pos: number): { line: number; column: number } {
  if (typeof text !== "string") refuse("offsetToLineColumn", "a string", text);
  return lineColumn(text, pos);
}

/** What a message shows of an argument that should have been a string: the string, else its kind. */
function text(v: unknown): string {
  return typeof v === "string" ? v : kind(v);
}

/**
 * The error class as the entries export it: the runtime's own, with the constructor's arguments taken as they
 * come (a code or reason that is not a string is named by its kind, options that are not an object are none), so
 * that building an error never throws one of its own. `instanceof` answers the same for both (a brand, not the
 * prototype chain), and the runtime throws its own: one class to catch.
 */
export class ToonError extends $ToonError {
  constructor(code: ToonErrorCode, reason: string, options?: ToonErrorOptions) {
    const o = typeof options === "object" && options !== null ? options : {};
    super(text(code) as ToonErrorCode, text(reason), typeof o.path === "string" || o.path === undefined ? o : { ...o, path: text(o.path) });
  }
}
