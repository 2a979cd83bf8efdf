/**
 * The seam between the core wire and compression (docs/FORMAT.md §10.5). Generated `encode`/`decode` and
 * `readHeader` reach compression through this hook, which `setCompressor` (../compression.ts) installs with the
 * compressor: without a registered compressor a message can be neither compressed nor inflated, so a bundle
 * that never registers one carries none of the compression code (about 3 KB minified), only these lines.
 */
import type { EncodeOptions } from "../compression.ts";
import { ToonError, optionsArg } from "./errors.ts";
import type { Reader } from "./reader.ts";

export interface CompressionHook {
  compress(message: Uint8Array, options: EncodeOptions): Uint8Array;
  inflate(r: Reader, start: number): void;
}

/** On globalThis, like the compressor itself: two copies of the runtime in one process share it. */
const HOOK = Symbol.for("toon-gen.compression-hook");
type Registry = { [HOOK]?: CompressionHook };

export function setCompressionHook(h: CompressionHook | undefined): void {
  (globalThis as Registry)[HOOK] = h;
}

const HOW_TO_REGISTER =
  'register one with setCompressor from @toon-gen/runtime, e.g. with the zstd-napi package: import * as zstd from "zstd-napi"; setCompressor({ name: "zstd", compress: (b) => zstd.compress(b), decompress: (b) => zstd.decompress(b) })';

/** CONFIG_ERROR: compression was asked for and no compressor is registered (here and in ../compression.ts). */
export function noCompressor(): ToonError {
  return new ToonError("CONFIG_ERROR", `encode with { compress: true } needs a compressor: ${HOW_TO_REGISTER}`);
}

/** UNSUPPORTED_FLAGS: a COMPRESSED message (starting at `start`) and no compressor registered to inflate it. */
export function noDecompressor(start: number): ToonError {
  return new ToonError("UNSUPPORTED_FLAGS", `header flag 0x0040 (COMPRESSED, zstd): the body is compressed and no decompressor is registered; ${HOW_TO_REGISTER}`, {
    offset: start + 5,
  });
}

/** `encode(value, options)`: the message, compressed when `options.compress` asks (CONFIG_ERROR without a compressor). */
export function compressIfAsked(message: Uint8Array, options: EncodeOptions | undefined): Uint8Array {
  if (options === undefined || !optionsArg(options, "encode")!.compress) return message;
  const h = (globalThis as Registry)[HOOK];
  if (h === undefined) throw noCompressor();
  return h.compress(message, options);
}

/** `readHeader` of a COMPRESSED message: inflate it in place, or UNSUPPORTED_FLAGS when no compressor is registered. */
export function inflateIfRegistered(r: Reader, start: number): void {
  const h = (globalThis as Registry)[HOOK];
  if (h === undefined) throw noDecompressor(start);
  h.inflate(r, start);
}
