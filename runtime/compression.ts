/**
 * Compression on top (docs/FORMAT.md §10.5): the payload of a message (every byte after the header's
 * fingerprint and extension level) compressed with zstd when it is at least `threshold` bytes (default 8 KiB),
 * recorded in the COMPRESSED header flag. Below the threshold a message is never compressed.
 *
 *   compressed message := header (flags | COMPRESSED) ‖ algorithm:u8 (01 = zstd) ‖ rawLength:varint ‖ zstd frame
 *
 * The runtime has no dependencies, so the compressor is pluggable: register one once per process with
 * `setCompressor({ name: "zstd", compress, decompress })` (for Node, e.g. the `zstd-napi` package). Encoders
 * only compress when asked (`encode(value, { compress: true })`); decoders decompress whenever the flag is
 * set, and without a registered compressor fail with UNSUPPORTED_FLAGS saying how to register one.
 */
import { ToonError, optionsArg } from "./wire/errors.ts";
import { refuse } from "./wire/arg-check.ts";
import type { Reader } from "./wire/reader.ts";
import { Flag, MAGIC } from "./wire/wire.ts";
import { DEFAULT_MAX_INFLATED_BYTES } from "./wire/limits.ts";
import { noCompressor, noDecompressor, setCompressionHook } from "./wire/compress-hook.ts";

/** The compression algorithm byte after the header. Only zstd is specified. */
export const CompressionAlgorithm = { ZSTD: 0x01 } as const;

/** Payloads smaller than this many bytes are never compressed (unless an encoder is given another threshold). */
export const DEFAULT_COMPRESS_THRESHOLD = 8192;

/**
 * Decoders refuse a compressed payload that claims to inflate to more than this (a decompression bomb), before
 * decompressing; per call: `decode(bytes, { maxInflatedBytes })` (runtime/wire/limits.ts).
 */
export const MAX_INFLATED_BYTES = DEFAULT_MAX_INFLATED_BYTES;

export interface Compressor {
  /** The algorithm: only `"zstd"` is specified (docs/FORMAT.md §10.5). */
  name: "zstd";
  /** Compress one payload into a single zstd frame. */
  compress(data: Uint8Array): Uint8Array;
  /**
   * Decompress one zstd frame. `rawLength` is the size the message declares (already checked against the
   * decoder's maxInflatedBytes, and against the frame's own content size when the frame states one). An
   * implementation must not produce more than `rawLength` bytes: stop and throw once the output would exceed
   * it (a frame that omits its content size can still be a bomb). Throw on a malformed frame.
   */
  decompress(data: Uint8Array, rawLength: number): Uint8Array;
}

/** Options of generated `encode(value, options)` (and of `encodeSchemaless`). */
export interface EncodeOptions {
  /** Compress the payload with the registered compressor when it is at least `threshold` bytes. */
  compress?: boolean;
  /** Smallest payload (bytes after the header) that is compressed; default DEFAULT_COMPRESS_THRESHOLD (8192). */
  threshold?: number;
}

/**
 * The registered compressor lives on globalThis under a registry symbol, so that two copies of the runtime in
 * one process (two bundles, the dev and dist builds) share it, as they share ToonError's brand.
 */
const REGISTRY = Symbol.for("toon-gen.compressor");
type Registry = { [REGISTRY]?: Compressor };

/** Register (or, with `undefined`, remove) the process-wide compressor. */
export function setCompressor(c: Compressor | undefined): void {
  if (c !== undefined) {
    if (typeof c !== "object" || c === null) throw new ToonError("CONFIG_ERROR", `setCompressor expects a compressor object (or undefined to remove one), got ${c === null ? "null" : typeof c}`);
    if (c.name !== "zstd") throw new ToonError("CONFIG_ERROR", `compressor ${JSON.stringify(c.name)}: only "zstd" is specified for the COMPRESSED flag`);
    if (typeof c.compress !== "function" || typeof c.decompress !== "function") {
      throw new ToonError("CONFIG_ERROR", "a compressor needs compress(data) and decompress(data, rawLength) functions");
    }
  }
  (globalThis as Registry)[REGISTRY] = c;
  // encode and decode reach the code below through the hook (./wire/compress-hook.ts): installed with a compressor
  setCompressionHook(c === undefined ? undefined : { compress: compressMessage, inflate: inflateReader });
}

export function getCompressor(): Compressor | undefined {
  return (globalThis as Registry)[REGISTRY];
}


/**
 * Where the payload starts: after magic, version, flags, the fingerprint (FIXED_DICTIONARY) and the extension
 * level (EXTENSIONS). Undefined when `bytes` is not a complete header.
 */
export function payloadStart(bytes: Uint8Array, start = 0): number | undefined {
  if (!(bytes instanceof Uint8Array)) refuse("payloadStart", "bytes (a Uint8Array)", bytes);
  if (typeof start !== "number") refuse("payloadStart", "start to be an offset (a number)", start);
  if (bytes.length - start < 7) return undefined;
  for (let i = 0; i < 4; i++) if (bytes[start + i] !== MAGIC[i]) return undefined;
  const flags = (bytes[start + 5]! << 8) | bytes[start + 6]!;
  let p = start + 7;
  if (flags & Flag.FIXED_DICTIONARY) p += 2;
  if (flags & Flag.EXTENSIONS) {
    for (;;) {
      if (p >= bytes.length) return undefined;
      if (bytes[p++]! < 0x80) break;
    }
  }
  return p > bytes.length ? undefined : p;
}

function varintBytes(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/**
 * Compress a complete, uncompressed message when `options.compress` is set and its payload is at least the
 * threshold; otherwise return it unchanged. Also unchanged when compression would not make it smaller.
 * Throws CONFIG_ERROR when compression is asked for and no compressor is registered.
 */
export function compressMessage(message: Uint8Array, options: EncodeOptions | undefined): Uint8Array {
  if (options === undefined || !optionsArg(options, "encode")!.compress) return message;
  const c = getCompressor();
  if (c === undefined) throw noCompressor();
  const threshold = options.threshold ?? DEFAULT_COMPRESS_THRESHOLD;
  if (!(threshold >= 0)) throw new ToonError("CONFIG_ERROR", `compression threshold must be a non-negative number of bytes, got ${threshold}`);
  const start = payloadStart(message);
  if (start === undefined) throw new ToonError("INVALID_VALUE", "not a complete TOON message");
  const flags = (message[5]! << 8) | message[6]!;
  if (flags & (Flag.COMPRESSED | Flag.STREAM)) return message;
  const rawLength = message.length - start;
  if (rawLength === 0 || rawLength < threshold) return message;
  const frame = c.compress(message.subarray(start));
  const len = varintBytes(rawLength);
  const size = start + 1 + len.length + frame.length;
  if (size >= message.length) return message;
  const out = new Uint8Array(size);
  out.set(message.subarray(0, start));
  const f = flags | Flag.COMPRESSED;
  out[5] = f >>> 8;
  out[6] = f & 0xff;
  let p = start;
  out[p++] = CompressionAlgorithm.ZSTD;
  for (const b of len) out[p++] = b;
  out.set(frame, p);
  return out;
}

/**
 * The uncompressed equivalent of a message whose COMPRESSED flag is set: the same header with the flag cleared,
 * then the inflated payload. `headerEnd` is where the compressed section starts (after fingerprint and level).
 * Byte offsets in errors raised while decoding the result refer to this uncompressed form.
 */
export function inflateAt(bytes: Uint8Array, start: number, headerEnd: number, end = bytes?.length, maxInflated = DEFAULT_MAX_INFLATED_BYTES): Uint8Array {
  if (!(bytes instanceof Uint8Array)) refuse("inflateAt", "bytes (a Uint8Array)", bytes);
  if (typeof headerEnd !== "number" || typeof end !== "number" || typeof maxInflated !== "number") refuse("inflateAt", "offsets and a limit (numbers)", typeof headerEnd !== "number" ? headerEnd : typeof end !== "number" ? end : maxInflated);
  let p = headerEnd;
  const fail = (reason: string, code: "TRUNCATED" | "INVALID_ENCODING" = "INVALID_ENCODING"): ToonError =>
    new ToonError(code, `${reason} (byte ${p})`, { offset: p });
  if (p >= end) throw fail("input ended in the middle of a value", "TRUNCATED");
  const algorithm = bytes[p]!;
  if (algorithm !== CompressionAlgorithm.ZSTD) throw fail(`unknown compression algorithm ${algorithm} (01 = zstd)`);
  p++;
  let rawLength = 0;
  for (let shift = 0; ; shift += 7) {
    if (p >= end) throw fail("input ended in the middle of a value", "TRUNCATED");
    if (shift > 28) throw fail("compressed length varint too long");
    const b = bytes[p++]!;
    rawLength += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  if (rawLength === 0) throw fail("compressed payload declares 0 bytes");
  if (rawLength > maxInflated) throw fail(`compressed payload declares ${rawLength} bytes, above the limit of ${maxInflated} (maxInflatedBytes)`);
  // a frame that states its content size must agree with the message before anything is inflated: a
  // decompressor trusting the frame would otherwise allocate what the frame claims
  const stated = zstdContentSize(bytes, p, end);
  if (stated !== undefined && stated !== rawLength) {
    throw fail(`zstd frame declares ${stated} bytes of content, but the message declares ${rawLength}`);
  }
  const c = getCompressor();
  if (c === undefined) throw noDecompressor(start);
  let raw: Uint8Array;
  try {
    raw = c.decompress(bytes.subarray(p, end), rawLength);
  } catch (e) {
    if (e instanceof ToonError) throw e;
    throw fail(`compressed payload is not a valid zstd frame: ${(e as Error)?.message ?? String(e)}`);
  }
  if (!(raw instanceof Uint8Array) || raw.length !== rawLength) {
    throw fail(`compressed payload inflates to ${raw instanceof Uint8Array ? raw.length : "no"} bytes, but the message declares ${rawLength}`);
  }
  const out = new Uint8Array(headerEnd - start + rawLength);
  out.set(bytes.subarray(start, headerEnd));
  const f = ((out[5]! << 8) | out[6]!) & ~Flag.COMPRESSED;
  out[5] = f >>> 8;
  out[6] = f & 0xff;
  out.set(raw, headerEnd - start);
  return out;
}

/** A whole message, uncompressed when its COMPRESSED flag is set (otherwise returned as is). */
export function inflateMessage(bytes: Uint8Array, maxInflated = DEFAULT_MAX_INFLATED_BYTES): Uint8Array {
  if (!(bytes instanceof Uint8Array)) refuse("inflateMessage", "bytes (a Uint8Array)", bytes);
  const start = payloadStart(bytes);
  if (start === undefined) return bytes; // not a complete header: the decoder reports it
  if ((((bytes[5]! << 8) | bytes[6]!) & Flag.COMPRESSED) === 0) return bytes;
  return inflateAt(bytes, 0, start, bytes.length, maxInflated);
}

/**
 * The Frame_Content_Size a zstd frame header at `p` states (RFC 8878 §3.1.1.1), or undefined when the frame
 * omits it or the bytes are not a zstd frame header (the decompressor then reports the frame).
 */
export function zstdContentSize(bytes: Uint8Array, p: number, end: number): number | undefined {
  if (!(bytes instanceof Uint8Array)) refuse("zstdContentSize", "bytes (a Uint8Array)", bytes);
  if (end - p < 5 || bytes[p] !== 0x28 || bytes[p + 1] !== 0xb5 || bytes[p + 2] !== 0x2f || bytes[p + 3] !== 0xfd) return undefined;
  const fhd = bytes[p + 4]!;
  const fcsFlag = fhd >> 6;
  const single = (fhd >> 5) & 1;
  const didFlag = fhd & 3;
  const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
  if (fcsBytes === 0) return undefined;
  let q = p + 5 + (single ? 0 : 1) + (didFlag === 0 ? 0 : 1 << (didFlag - 1));
  if (end - q < fcsBytes) return undefined;
  let v = 0;
  for (let i = 0; i < fcsBytes; i++) v += bytes[q++]! * 2 ** (8 * i);
  return fcsBytes === 2 ? v + 256 : v;
}

/**
 * Called by `readHeader` once the header of a COMPRESSED message has been checked (`r.pos` at the compressed
 * section, `start` where the message began): the reader continues on the uncompressed form, at the same offset.
 */
export function inflateReader(r: Reader, start: number): void {
  if (typeof r !== "object" || r === null || !(r.buf instanceof Uint8Array)) refuse("inflateReader", "a Reader (new Reader(bytes))", r);
  const headerEnd = r.pos;
  const buf = inflateAt(r.buf, start, headerEnd, r.end, r.maxInflated);
  // Reader keeps buf/view read-only for generated code; only this hand-over replaces them
  Object.assign(r as { buf: Uint8Array; view: DataView; pos: number; end: number }, {
    buf,
    view: new DataView(buf.buffer, buf.byteOffset, buf.byteLength),
    pos: headerEnd - start,
    end: buf.length,
  });
}
