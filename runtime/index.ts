/**
 * toon-gen/runtime: the one entry generated code imports. Its exports are a versioned contract: generated
 * modules call `requireContract(N)` at load, so a runtime too old or too new for them fails at import time
 * with a clear message instead of misreading bytes.
 */
import { ToonError } from "./errors.ts";

/** Bumped when generated code needs runtime exports that older runtimes lack, or their meaning changes. */
export const RUNTIME_CONTRACT = 1;

export function requireContract(version: number, module: string): void {
  if (version !== RUNTIME_CONTRACT) {
    throw new ToonError(
      "CONFIG_ERROR",
      `${module} was generated for runtime contract ${version}, but the installed toon-gen/runtime implements contract ${RUNTIME_CONTRACT}: regenerate it with the installed toon-gen`,
    );
  }
}

export { ToonError, pointerSegment, rethrowAt, rethrowAtIndex } from "./errors.ts";
export type { ToonErrorCode, ToonErrorDetail, ToonErrorOptions } from "./errors.ts";
export { Writer, invalid, describe, isCanonicalInteger, writeInt64 } from "./writer.ts";
export { validateWith } from "./validate.ts";
export type { ValidationResult, ValidateOptions } from "./validate.ts";
export { Reader } from "./reader.ts";
export { writeHeader, readHeader, peekHeader, hex16, registerDictionary } from "./header.ts";
export type { Header } from "./header.ts";
export { writeAny, readAny } from "./any.ts";
export { isJsonLike } from "./objects.ts";
export { hasOwn, setOwn, getOwn, isPlainObject, extraKeys, keyCount, checkClosed, jsonEquals, cloneJson, missing } from "./objects.ts";
export { MAGIC, FORMAT_VERSION, Flag, DEFAULT_MAX_DEPTH } from "./wire.ts";
export { parseDate, parseDateTime, formatDate, formatDateTime } from "./dates.ts";
export { parseToolCall, parseToolCalls, parseArgumentsJson, checkToolArguments, checkToolCall, checkShape, toolSet, ToolCallAccumulator, JsonScanner } from "./tools.ts";
export type { CheckShape, CheckDefs, CheckConstraints, ToolSpec, ToolSetSpec, ToolCall, PendingToolCall } from "./tools.ts";
export * from "./text/index.ts";
export { writeExtension, writeExtensionSection, readExtensionSection, resolveTarget, applyExtension, assertDecoded, unknownOf, UNKNOWN_KEY } from "./extensions.ts";
export type { DecodeOptions } from "./extensions.ts";
export { setCompressor, getCompressor, compressMessage, inflateMessage, DEFAULT_COMPRESS_THRESHOLD, CompressionAlgorithm } from "./compression.ts";
export type { Compressor, EncodeOptions } from "./compression.ts";
export { encodeSchemaless, decodeSchemaless, inferSchemaless, readSchemalessHeader, readSchemalessDictionary, readSchemalessValue, schemalessMinWidth, schemalessNodeBudget, SchemalessKind, SCHEMALESS_KIND_NAMES } from "./schemaless.ts";
export type { SchemalessType, SchemalessScalar, SchemalessDecodeOptions, SchemalessObjectType, SchemalessMapType, SchemalessUnionType, SchemalessEnumType, SchemalessArrayType, SchemalessConstType, SchemalessSimpleType } from "./schemaless.ts";
export { StreamEncoder, StreamDecoder, JsonDeltaParser, streamCodec, concatBytes, FrameKind, StreamSeg, StreamPathFlag, MAX_STREAM_STEPS, MAX_STREAM_ROW, DEFAULT_MAX_FRAME_BYTES } from "./stream.ts";
export type { StreamSpec, StreamPathRow, StreamWriteFn, StreamReadFn, StreamEvent, FieldEvent, ElementEvent, TextEvent, ValueEvent, PartialValue, StreamCodec, StreamDecoderOptions, StreamEncoderOptions, IncrementalOptions, FrameKindName, MissingPart } from "./stream.ts";
export { defaultTable, writeTabledString, readTabledString, writeTabledDateTime, readTabledDateTime, writeTabledDate, readTabledDate, writeTabledDecimalString, readTabledDecimalString, writeTabledNumber, readTabledNumber, writeTabledInt, readTabledInt, writeTabledInt64, readTabledInt64, MAX_DEFAULT_TABLE } from "./defaults.ts";
export type { DefaultTable } from "./defaults.ts";
export { beginFieldIndex, fieldStart, endFieldIndex, readFieldIndex, peekField, pickPath } from "./field-index.ts";
export type { FieldIndex, PeekSpec } from "./field-index.ts";
export { SSE_EVENT, SSE_HEADERS, toBase64, fromBase64, sseEvent, sseComment, SseParser, SseFrameReader } from "./sse.ts";
export type { SseMessage } from "./sse.ts";
