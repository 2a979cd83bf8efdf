/**
 * Fingerprints: xxHash64 (seed 0) of the canonical form's UTF-8 bytes; the 16-bit fingerprint is its top
 * 16 bits. xxhash-wasm needs a one-time async init (about 4 ms), so the generator awaits `initHash()` once.
 */
import xxhash from "xxhash-wasm";

type Hasher = Awaited<ReturnType<typeof xxhash>>;
let hasher: Hasher | undefined;

export async function initHash(): Promise<void> {
  hasher ??= await xxhash();
}

export interface Fingerprint {
  /** 16-bit fingerprint written in every message header. */
  fingerprint: number;
  /** Full 64-bit hash, `0x` + 16 hex digits, kept in the dictionary file. */
  hash64: string;
}

export function fingerprintOf(canonical: string): Fingerprint {
  if (hasher === undefined) throw new Error("internal: initHash() was not awaited");
  const h = hasher.h64Raw(new TextEncoder().encode(canonical), 0n);
  return { fingerprint: Number(h >> 48n), hash64: "0x" + h.toString(16).padStart(16, "0") };
}
