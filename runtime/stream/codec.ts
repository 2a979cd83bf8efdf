/** The `stream` member of a generated codec (`streamCodec(spec)`), and `concatBytes` for the frames it makes. */
import { optionsArg, ToonError } from "../wire/errors.ts";
import type { IncrementalOptions, PathMap, StreamDecoderOptions, StreamEncoderOptions, StreamSpec } from "./spec.ts";
import { StreamDecoder } from "./decoder.ts";
import { StreamEncoder } from "./encoder.ts";

export interface StreamCodec<T, P extends PathMap = PathMap> {
  /** The path table and per-path functions behind this codec's streams. */
  readonly spec: StreamSpec;
  /** A new stream to send. */
  encoder(options?: StreamEncoderOptions): StreamEncoder<T, P>;
  /** A new stream to receive. */
  decoder(options?: StreamDecoderOptions<T, P>): StreamDecoder<T, P>;
  /** The frames of a whole value (the header first), in field order. */
  frames(value: T, options?: IncrementalOptions): Uint8Array[];
  /** The frames of a whole value, concatenated: a complete stream. */
  encode(value: T, options?: IncrementalOptions): Uint8Array;
  /** Decode a complete stream (bytes, or chunks split anywhere); throws INCOMPLETE if it stops short. */
  decode(input: Uint8Array | Iterable<Uint8Array>): T;
}

export function streamCodec<T, P extends PathMap = PathMap>(spec: StreamSpec): StreamCodec<T, P> {
  return {
    spec,
    encoder: (options) => new StreamEncoder<T, P>(spec, optionsArg(options, "stream.encoder")),
    decoder: (options) => new StreamDecoder<T, P>(spec, optionsArg(options, "stream.decoder")),
    frames(value, options) {
      return new StreamEncoder<T, P>(spec).encodeIncremental(value, optionsArg(options, "stream.frames"));
    },
    encode(value, options) {
      return concatBytes(new StreamEncoder<T, P>(spec).encodeIncremental(value, optionsArg(options, "stream.encode")));
    },
    decode(input) {
      const d = new StreamDecoder<T, P>(spec);
      if (input instanceof Uint8Array) d.push(input);
      else if (isIterable(input)) for (const c of input) d.push(c);
      else throw new ToonError("INVALID_VALUE", `stream.decode expects bytes (a Uint8Array) or an iterable of them, got ${input === null ? "null" : typeof input}`);
      return d.end();
    },
  };
}

function isIterable(x: unknown): x is Iterable<unknown> {
  return typeof x === "object" && x !== null && typeof (x as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}

/** Concatenate byte chunks. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (!isIterable(chunks)) throw new ToonError("INVALID_VALUE", `concatBytes expects an array of Uint8Array, got ${chunks === null ? "null" : typeof chunks}`);
  let n = 0;
  for (const c of chunks) {
    if (!(c instanceof Uint8Array)) throw new ToonError("INVALID_VALUE", `concatBytes expects an array of Uint8Array, got an item that is ${c === null ? "null" : Array.isArray(c) ? "an array" : typeof c}`);
    n += c.length;
  }
  const out = new Uint8Array(n);
  let p = 0;
  for (const c of chunks) {
    out.set(c, p);
    p += c.length;
  }
  return out;
}
