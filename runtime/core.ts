/**
 * toon-gen/runtime/wire: the core layer every other one builds on. The byte writer and reader (varints, strings,
 * numbers, dates), the message header, self-describing `any` values, the wire constants and the errors.
 */
export { ToonError, pointerSegment, rethrowAt, rethrowAtIndex } from "./errors.ts";
export type { ToonErrorCode, ToonErrorDetail, ToonErrorOptions } from "./errors.ts";
export { Writer, invalid, describe, isCanonicalInteger, writeInt64 } from "./writer.ts";
export { Reader } from "./reader.ts";
export { writeHeader, readHeader, peekHeader, hex16, registerDictionary } from "./header.ts";
export type { Header } from "./header.ts";
export { writeAny, readAny } from "./any.ts";
export { MAGIC, FORMAT_VERSION, Flag, DEFAULT_MAX_DEPTH } from "./wire.ts";
export { parseDate, parseDateTime, formatDate, formatDateTime } from "./dates.ts";
