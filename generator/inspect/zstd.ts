/**
 * zstd for the CLI, tests and benchmarks: the optional `zstd-napi` package, loaded on first use only (Node 20's
 * zlib has no zstd). The runtime itself stays dependency-free: this module hands it a Compressor.
 */
import { ToonError } from "../../runtime/wire/errors.ts";
import { getCompressor, setCompressor, type Compressor, type EncodeOptions } from "../../runtime/compression.ts";
import { Flag, MAGIC } from "../../runtime/wire/wire.ts";

let loaded: Compressor | undefined;

type Binding = typeof import("zstd-napi/binding.js");

/**
 * Inflate one zstd payload, never past `rawLength` bytes: the simple `decompress` of zstd-napi trusts the frame
 * (it allocates the content size the frame states, or streams without limit), so a 6 KB bomb would allocate
 * hundreds of megabytes before the runtime could compare the result with the declared length. The output
 * buffer grows by doubling, so a payload that lies about its length costs what it really inflates to, at most
 * `rawLength + 1` bytes.
 */
export function boundedDecompress(binding: Binding, data: Uint8Array, rawLength: number): Uint8Array {
  const dctx = new binding.DCtx();
  let out = new Uint8Array(Math.min(rawLength + 1, Math.max(65536, data.length * 4)));
  let produced = 0;
  let input = data;
  let ret = 1;
  while (input.length > 0 || ret !== 0) {
    if (produced === out.length) {
      const next = new Uint8Array(Math.min(rawLength + 1, out.length * 2));
      next.set(out);
      out = next;
    }
    const [r, n, consumed] = dctx.decompressStream(out.subarray(produced), input);
    ret = r;
    produced += n;
    input = input.subarray(consumed);
    if (produced > rawLength) throw new Error(`the frame inflates to more than the ${rawLength} bytes the message declares`);
    if (n === 0 && consumed === 0) throw new Error("the frame ends before its content does");
  }
  return out.subarray(0, produced);
}

/** A Compressor backed by zstd-napi (level 3, its default). CONFIG_ERROR when the package is not installed. */
export async function loadZstd(): Promise<Compressor> {
  if (loaded !== undefined) return loaded;
  let z: typeof import("zstd-napi");
  let binding: Binding;
  try {
    const mod = (await import("zstd-napi")) as typeof import("zstd-napi") & { default?: typeof import("zstd-napi") };
    z = typeof mod.compress === "function" ? mod : mod.default!;
    const b = (await import("zstd-napi/binding.js")) as Binding & { default?: Binding };
    binding = typeof b.DCtx === "function" ? b : b.default!;
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", `zstd needs the optional dependency zstd-napi (npm install zstd-napi): ${(e as Error).message}`);
  }
  loaded = {
    name: "zstd",
    compress: (data) => z.compress(data),
    decompress: (data, rawLength) => boundedDecompress(binding, data, rawLength),
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
