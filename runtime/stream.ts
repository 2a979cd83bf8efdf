/**
 * Streaming frames (docs/FORMAT.md §10.3): a value sent as a sequence of small, self-contained frames so a
 * receiver can use each field as soon as its frame arrives.
 *
 *   stream := header (magic, version, flags with STREAM, fingerprint[, level]) ‖ frame*
 *   frame  := length:varint ‖ head:varint (steps·4 + kind) ‖ step^steps ‖ payload
 *   step   := path ID:varint ‖ one row (varint) per `[]` / `[...]` and one key (string) per `{}` of that path
 *
 * kind VALUE: the value at the address, in its ordinary encoding; END: the container (or TEXT string) at the
 * address is complete (arrays, tuples and maps give their count); TEXT: a piece of a string still arriving.
 * Every frame has its own string table, so frames stand alone and may be interleaved freely.
 *
 * The schema-specific part, the path table, is derived from the codec's descriptor (./codec/stream-rows.ts); the
 * codec engine builds each path's writer and reader from the descriptor (./codec/engine/stream.ts). Everything else
 * lives in ./stream/, one job a file: the wire constants, spec and options (spec.ts), the path table compiled once
 * per spec (path-table.ts), what the frames so far have built (assembly.ts, shared by both ends), the decoder
 * (decoder.ts), the encoder (encoder.ts, with its cursors in cursor.ts), the walk of a whole value into frames
 * (walk-value.ts), JSON text in pieces into frames (json-feed.ts) and a generated codec's `stream` member
 * (codec.ts). This file is the public entry (`@toon-gen/runtime/stream`) and names what it exports.
 * Zero dependencies; no Node APIs.
 */
// The order of these lines is the order a bundler meets the modules in, and so where it puts their code: this one
// keeps the stream's modules together after the text reader the encoder uses (gzip finds more to share; orders-all,
// bench/size: about 250 bytes fewer than decoder-first)
export { StreamSeg, StreamPathFlag } from "./codec/stream-seg.ts"; // how a path hangs off its parent, and the `flags` column of the path table
export { StreamEncoder } from "./stream/encoder.ts";
export { StreamDecoder } from "./stream/decoder.ts";
export { streamCodec, concatBytes } from "./stream/codec.ts";
export { FrameKind, MAX_STREAM_STEPS, MAX_STREAM_ROW, DEFAULT_MAX_FRAME_BYTES } from "./stream/spec.ts";
export type { StreamCodec } from "./stream/codec.ts";
export type { FrameKindName, StreamWriteFn, StreamReadFn, StreamSpec, StreamDecoderOptions, StreamEncoderOptions, IncrementalOptions } from "./stream/spec.ts";
export type { MissingPart } from "./stream/assembly.ts";
export type { StreamPathRow } from "./codec/stream-rows.ts"; // the path table, derived from the descriptor
export type { TextStreamOptions } from "./stream/text.ts"; // `StreamEncoder.text`
export type { FieldEvent, ElementEvent, TextEvent, ValueEvent, StreamEvent, PartialValue } from "./stream/events.ts";
