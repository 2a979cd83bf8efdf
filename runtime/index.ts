/**
 * toon-gen/runtime: the user API. What an app calls besides its generated codecs: errors, the header peek,
 * schemaless TOON (binary and text), streams' events and SSE framing, compression, dates.
 *
 * Layered subpaths hold the rest, so an app imports only the layer it uses: `toon-gen/runtime/wire` (writer,
 * reader, header: the core), `/text`, `/stream`, `/schemaless`, `/tools`, `/compression`, `/sse`, `/codec` (the
 * engine that runs a codec from its descriptor). Generated modules import the versioned generated-code surface
 * (runtime/codegen.ts, runtime/wire/contract.ts), which apps do not use.
 */
export { RUNTIME_CONTRACT } from "./wire/contract.ts";
export { ToonError } from "./entry-checks.ts";
export type { ToonErrorCode, ToonErrorDetail, ToonErrorOptions, ToolCallRef, CountMismatch } from "./wire/errors.ts";
export type { ValidationResult, ValidateOptions, ValidationIssue } from "./features/validate.ts";
export { pointerSegment, peekHeader, hex16, parseDate, parseDateTime, formatDate, formatDateTime, locateText, offsetToLineColumn } from "./entry-checks.ts";
export type { Header } from "./wire/header.ts";
export { MAGIC, FORMAT_VERSION, Flag, DEFAULT_MAX_DEPTH } from "./wire/wire.ts";
export type { ToolCall, PendingToolCall, ToolCallOutcome } from "./tools.ts";
export { encodeText } from "./text/encode.ts";
export { decodeText, decodeTextExact } from "./text/decode.ts";
export type { TextEncodeOptions } from "./text/encode-state.ts";
export type { TextDelimiter } from "./text/primitives.ts";
export type { TextDecodeOptions } from "./text/decode.ts";
export type { TextReader, TextReaderOptions } from "./text/reader/text-reader.ts";
export type { TextSource } from "./text/reader/read-stream.ts";
export { UNKNOWN_KEY } from "./features/extensions.ts";
export type { DecodeOptions } from "./features/extensions.ts";
export { setCompressor, getCompressor, DEFAULT_COMPRESS_THRESHOLD, CompressionAlgorithm } from "./compression.ts";
export type { Compressor, EncodeOptions } from "./compression.ts";
export { encodeSchemaless, decodeSchemaless, inferSchemaless } from "./schemaless.ts";
export type { SchemalessType, SchemalessDecodeOptions } from "./schemaless.ts";
export { StreamEncoder, StreamDecoder, concatBytes, FrameKind, DEFAULT_MAX_FRAME_BYTES } from "./stream.ts";
export type { StreamEvent, FieldEvent, ElementEvent, TextEvent, ValueEvent, PartialValue, StreamCodec, StreamDecoderOptions, StreamEncoderOptions, IncrementalOptions, FrameKindName, MissingPart } from "./stream.ts";
export { SSE_EVENT, SSE_HEADERS, toBase64, fromBase64, sseEvent, sseComment, SseParser, SseFrameReader } from "./sse.ts";
export type { SseMessage } from "./sse.ts";
