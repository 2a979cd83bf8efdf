/**
 * What every part of a stream agrees on (docs/FORMAT.md §10.3): the frame kinds and limits of the wire, the header
 * flags a stream carries, the `StreamSpec` a generated codec hands over (its descriptor and dictionary IDs), and the
 * options of the decoder, the encoder and `encodeIncremental`. Kept apart so the decoder and the encoder, which
 * share nothing else but the assembly, do not import each other.
 */
import type { CodecDescriptor } from "../codec/descriptor.ts";
import type { Reader } from "../wire/reader.ts";
import { DEFAULT_MAX_DEPTH, Flag } from "../wire/wire.ts";
import type { Writer } from "../wire/writer.ts";
import type { StreamEvent } from "./events.ts";

/** Frame kinds: the low two bits of a frame's head. */
export const FrameKind = { VALUE: 0, END: 1, TEXT: 2 } as const;

export type FrameKindName = "VALUE" | "END" | "TEXT";

 // column `flags` of the path table

/** Most steps one frame's address may have (each step after the first crosses a `$ref`). */
export const MAX_STREAM_STEPS = DEFAULT_MAX_DEPTH;

/** Rows (array and tuple-rest indices) must stay below this. */
export const MAX_STREAM_ROW = 2 ** 31 - 1;

/** Default bound on one frame's length: a longer length prefix is refused before anything is buffered. */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

export const HEADER_FLAGS = Flag.FIXED_DICTIONARY | Flag.STREAM;

/** The header flags of a stream of `spec`'s codec. */
export function streamFlags(spec: StreamSpec): number {
  return HEADER_FLAGS | ((spec.flags ?? 0) & Flag.DEFAULTS) | (spec.level > 0 ? Flag.EXTENSIONS : 0);
}

export const EMPTY = new Uint8Array(0);

export type StreamWriteFn = (w: Writer, v: any) => void;

export type StreamReadFn = (r: Reader) => any;

 // `StreamEncoder.text` (./text.ts)

export interface StreamSpec {
  name: string;
  fingerprint: number;
  /** The codec's extension level (dictionary extension segments). */
  level: number;
  /**
   * The codec's own header flags: DEFAULTS (its values may reference the dictionary's default-value tables,
   * docs/FORMAT.md §10.1) carries over to its streams; FIELD_INDEX and COMPRESSED do not.
   */
  flags?: number;
  /**
   * The codec's descriptor: the path table is derived from it (./codec/stream-rows.ts), and the engine builds each
   * path's writer and reader (VALUE frames) from it. Its `retired` IDs are the paths whose frames (from older
   * writers) are skipped.
   */
  descriptor: CodecDescriptor;
  /** The dictionary IDs of the descriptor's paths in walk order, as runs `[first, count, ...]` (`[0, n]` when fresh). */
  ids: readonly number[];
  /** Applies the extension records of VALUE payloads (evolved dictionaries). */
  applyExtensions?: (id: number, r: Reader, root: unknown) => boolean;
}

export type PathMap = Record<string, unknown>;

export interface StreamDecoderOptions<T = unknown, P extends PathMap = PathMap> {
  /** Called for every event, as frames complete (in addition to `push` returning them). */
  onEvent?: (event: StreamEvent<T, P>) => void;
  /** Refuse frames longer than this (default 16 MiB). */
  maxFrameBytes?: number;
  /**
   * Zero-width items the whole stream may decode to: items of null, const and empty closed object types, and the
   * rows a frame skips in an open array (holes a snapshot holds). Default 65,536.
   */
  maxZeroWidthItems?: number;
}

export interface StreamEncoderOptions {
  /** Called with every frame (the header first), in order, as soon as it is made. */
  onFrame?: (frame: Uint8Array) => void;
}

export interface IncrementalOptions {
  /** Where the value goes (JSON pointer or tokens; default the root). */
  at?: string | readonly (string | number)[];
  /**
   * Deepest JSON nesting level that is split into frames (the root is level 0): a container at this level
   * travels whole, as one VALUE frame. Default: no limit (one frame per scalar). 2 sends each item of a
   * top-level array whole.
   */
  depth?: number;
  /** Send plain strings longer than this as TEXT frames of this many characters, then END (default: never). */
  textChunk?: number;
}
