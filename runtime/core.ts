/**
 * toon-gen/runtime/wire: the core layer every other one builds on. The byte writer and reader (varints, strings,
 * numbers, dates), the message header, self-describing `any` values, the wire constants and the errors.
 *
 * The functions that take a Writer or a Reader are checked copies (runtime/wire/arg-check.ts): an argument of the
 * wrong kind is a ToonError. The runtime and generated code call the unchecked originals.
 */
import { checked, refuse } from "./wire/arg-check.ts";
import { rethrowAt as $rethrowAt, rethrowAtIndex as $rethrowAtIndex } from "./wire/errors.ts";
import { Writer as $Writer, invalid as $invalid, isCanonicalInteger as $isCanonicalInteger, writeInt64 as $writeInt64 } from "./wire/writer.ts";
import { writeHeader as $writeHeader, readHeader as $readHeader } from "./wire/header.ts";
import { writeAny as $writeAny, readAny as $readAny } from "./wire/any.ts";

export { ToonError } from "./entry-checks.ts";
export type { ToonErrorCode, ToonErrorDetail, ToonErrorOptions } from "./wire/errors.ts";
export { describe } from "./wire/writer.ts";

/**
 * The Writer with its size checked: not a byte count would be a RangeError from Uint8Array, or gigabytes from an
 * array-like's length. Generated code and the runtime construct the internal one, unchecked.
 */
export class Writer extends $Writer {
  constructor(size?: number) {
    if (size !== undefined && (typeof size !== "number" || !(size >= 0 && size <= 2 ** 30))) refuse("Writer", "size to be a byte count up to 2^30", size);
    super(size);
  }
}
export const invalid = /*@__PURE__*/ checked($invalid, "invalid(path: string, expected: string, value)");
export { Reader } from "./wire/reader.ts";
export { registerDictionary } from "./wire/header.ts";
export type { Header } from "./wire/header.ts";
export { MAGIC, FORMAT_VERSION, Flag, DEFAULT_MAX_DEPTH } from "./wire/wire.ts";
export { formatDate, formatDateTime } from "./entry-checks.ts";
export { pointerSegment, peekHeader, hex16, parseDate, parseDateTime } from "./entry-checks.ts";

/** Rethrow `e` with `prefix` in front of its path (runtime/wire/errors.ts). */
export const rethrowAt = /*@__PURE__*/ checked($rethrowAt, "rethrowAt(e, prefix: string)");
/** Rethrow `e` with an array index (or map key) prepended to its path. */
export const rethrowAtIndex = /*@__PURE__*/ checked($rethrowAtIndex, "rethrowAtIndex(e, prefix: string, index: string | number)");
/** Write an int64 value (a number or bigint); false when it is neither. */
export const writeInt64 = /*@__PURE__*/ checked($writeInt64, "writeInt64(w: Writer, v)");
/** Write the message header (runtime/wire/header.ts). */
export const writeHeader = /*@__PURE__*/ checked($writeHeader, "writeHeader(w: Writer, flags: number, fingerprint: number, level?: number)");
/** Read and check the message header; returns the flags (runtime/wire/header.ts). */
export const readHeader = /*@__PURE__*/ checked($readHeader, "readHeader(r: Reader, fingerprint: number, name: string, extra?: number)");
/** Write a self-describing `any` value. */
export const writeAny = /*@__PURE__*/ checked($writeAny, "writeAny(w: Writer, v)");
/** Read a self-describing `any` value. */
export const readAny = /*@__PURE__*/ checked($readAny, "readAny(r: Reader)");

/** `0`, `-12`, `345`: what `String(BigInt(s))` gives back unchanged (false for what is not a string). */
export function isCanonicalInteger(s: string): boolean {
  return typeof s === "string" && $isCanonicalInteger(s);
}
