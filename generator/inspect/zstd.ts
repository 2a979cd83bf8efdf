/**
 * zstd for the CLI, tests and benchmarks: the optional `zstd-napi` package, loaded on first use only (Node 20's
 * zlib has no zstd). The runtime itself stays dependency-free: this module hands it a Compressor.
 */
import { ToonError } from "../../runtime/errors.ts";
import { getCompressor, setCompressor, type Compressor, type EncodeOptions } from "../../runtime/compression.ts";
import { Flag, MAGIC } from "../../runtime/wire.ts";

let loaded: Compressor | undefined;

/** A Compressor backed by zstd-napi (level 3, its default). CONFIG_ERROR when the package is not installed. */
export async function loadZstd(): Promise<Compressor> {
  if (loaded !== undefined) return loaded;
  let z: typeof import("zstd-napi");
  try {
    const mod = (await import("zstd-napi")) as typeof import("zstd-napi") & { default?: typeof import("zstd-napi") };
    z = typeof mod.compress === "function" ? mod : mod.default!;
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", `zstd needs the optional dependency zstd-napi (npm install zstd-napi): ${(e as Error).message}`);
  }
  loaded = {
    name: "zstd",
    compress: (data) => z.compress(data),
    decompress: (data) => z.decompress(data),
  };
  return loaded;
}

/** Register zstd-napi as the runtime's compressor unless one is registered already. */
export async function useZstd(): Promise<void> {
  if (getCompressor() === undefined) setCompressor(await loadZstd());
}

/** True when `bytes` is a TOON message whose COMPRESSED flag is set. */
export function isCompressedMessage(bytes: Uint8Array): boolean {
  if (bytes.length < 7) return false;
  for (let i = 0; i < 4; i++) if (bytes[i] !== MAGIC[i]) return false;
  return (((bytes[5]! << 8) | bytes[6]!) & Flag.COMPRESSED) !== 0;
}

/** Encode options from the CLI flags `--compress [--compress-threshold N]` (registers zstd when compressing). */
export async function compressOptions(compress: boolean | undefined, threshold: string | undefined): Promise<EncodeOptions | undefined> {
  if (threshold !== undefined && !compress) throw new ToonError("CONFIG_ERROR", "--compress-threshold needs --compress");
  if (!compress) return undefined;
  const options: EncodeOptions = { compress: true };
  if (threshold !== undefined) {
    const n = Number(threshold);
    if (!Number.isInteger(n) || n < 0) throw new ToonError("CONFIG_ERROR", `--compress-threshold must be a whole number of bytes, got ${JSON.stringify(threshold)}`);
    options.threshold = n;
  }
  await useZstd();
  return options;
}
