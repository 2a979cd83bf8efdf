/**
 * Seeded mutations of valid inputs (issue 12): truncation, bit flips, splices, crafted varints and counts, huge
 * declared sizes, and random chunk splits for the incremental decoders. Deterministic for a seed.
 */
import { Rng } from "../support/rng.ts";

/** A varint of `n` (up to 2^53). */
export function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** Values a count, length or size field is most likely to break on. */
const HUGE = [2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, 65535, 65536, 65537, 1e6, 64 * 1024 * 1024 + 1, 2 ** 40];

function splice(a: Uint8Array, at: number, remove: number, insert: readonly number[]): Uint8Array {
  const out = new Uint8Array(a.length - remove + insert.length);
  out.set(a.subarray(0, at));
  out.set(insert, at);
  out.set(a.subarray(at + remove), at + insert.length);
  return out;
}

export type ByteMutation = "truncate" | "flip" | "byte" | "splice" | "duplicate" | "varint" | "huge" | "zeros" | "none";
const BYTE_MUTATIONS: readonly ByteMutation[] = ["truncate", "flip", "flip", "byte", "splice", "duplicate", "varint", "huge", "huge", "zeros", "none"];

/** One mutation of `input`: which, and the result. Header bytes (the first 9) are spared half the time. */
export function mutateBytes(rng: Rng, input: Uint8Array): { how: ByteMutation; bytes: Uint8Array } {
  const how = rng.pick(BYTE_MUTATIONS);
  const n = input.length;
  if (n === 0) return { how, bytes: new Uint8Array(rng.int(0, 3)).map(() => rng.int(0, 255)) };
  const lo = n > 9 && rng.chance(0.5) ? 9 : 0;
  const at = rng.int(lo, n - 1);
  switch (how) {
    case "truncate":
      return { how, bytes: input.slice(0, rng.int(0, n - 1)) };
    case "flip": {
      const out = input.slice();
      const flips = rng.int(1, 3);
      for (let i = 0; i < flips; i++) out[rng.int(lo, n - 1)]! ^= 1 << rng.int(0, 7);
      return { how, bytes: out };
    }
    case "byte": {
      const out = input.slice();
      out[at] = rng.pick([0x00, 0x01, 0x7f, 0x80, 0xff, rng.int(0, 255)]);
      return { how, bytes: out };
    }
    case "splice": {
      const len = rng.int(1, 16);
      return { how, bytes: splice(input, at, rng.int(0, Math.min(4, n - at)), Array.from({ length: len }, () => rng.int(0, 255))) };
    }
    case "duplicate": {
      const from = rng.int(lo, n - 1);
      const len = rng.int(1, Math.min(64, n - from));
      const copies = rng.int(1, 64);
      const piece = [...input.subarray(from, from + len)];
      return { how, bytes: splice(input, from, 0, Array.from({ length: copies }, () => piece).flat()) };
    }
    case "varint": {
      // an over-long or maximal varint where a count or tag may stand
      const v = rng.pick([[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], [0x80, 0x80, 0x80, 0x80, 0x00], [0xff, 0xff, 0xff, 0xff, 0x0f]]);
      return { how, bytes: splice(input, at, 1, v) };
    }
    case "huge":
      return { how, bytes: splice(input, at, rng.int(0, 1), varint(rng.pick(HUGE))) };
    case "zeros":
      return { how, bytes: splice(input, at, 0, new Array<number>(rng.int(1, 256)).fill(rng.pick([0, 1, 2]))) };
    case "none":
      return { how, bytes: input.slice() };
  }
}

/** Text mutations: the same ideas on characters (cuts, splices of structural characters, long runs). */
const TEXT_PIECES = ["{", "}", "[", "]", ":", ",", "|", "\t", "\n", "  ", "- ", '"', "\\", "\\u", "\ud800", "\udc00", "#", "[99999999]", "{a,b,a}", "[2]{", "0", "-0", "1e999", "null", "\r\n", "\u0000", "😀"];

export function mutateText(rng: Rng, input: string): { how: string; text: string } {
  const n = input.length;
  const at = n === 0 ? 0 : rng.int(0, n - 1);
  switch (rng.int(0, 5)) {
    case 0:
      return { how: "truncate", text: input.slice(0, rng.int(0, Math.max(0, n - 1))) };
    case 1:
      return { how: "insert", text: input.slice(0, at) + rng.pick(TEXT_PIECES) + input.slice(at) };
    case 2:
      return { how: "replace", text: input.slice(0, at) + rng.pick(TEXT_PIECES) + input.slice(at + 1) };
    case 3: {
      const piece = rng.pick(TEXT_PIECES);
      return { how: "run", text: input.slice(0, at) + piece.repeat(rng.int(2, 2000)) + input.slice(at) };
    }
    case 4: {
      const from = rng.int(0, Math.max(0, n - 1));
      return { how: "duplicate", text: input.slice(0, at) + input.slice(from, from + rng.int(1, 200)).repeat(rng.int(1, 20)) + input.slice(at) };
    }
    default:
      return { how: "none", text: input };
  }
}

/** Random cut points: the bytes in 1..8 chunks. */
export function chunks(rng: Rng, bytes: Uint8Array): Uint8Array[] {
  const cuts = new Set<number>();
  const k = rng.int(0, 7);
  for (let i = 0; i < k && bytes.length > 1; i++) cuts.add(rng.int(1, bytes.length - 1));
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  out.push(bytes.subarray(from));
  return out;
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, "hex"));
}
