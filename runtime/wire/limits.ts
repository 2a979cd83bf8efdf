/**
 * The per-call bounds of binary decoding (docs/FORMAT.md, "Limits"). Untrusted bytes must cost the receiver no
 * more than they weigh: most of what a decoder builds is paid for by input bytes (counts are checked against
 * what is left), and these limits bound the rest: items that take no bytes, inflated payloads, records kept
 * for re-encoding. Every one is configurable per `decode(bytes, options)` call.
 */
import { ToonError } from "./errors.ts";
import { MAX_ZERO_WIDTH_ITEMS } from "./wire.ts";

/** Decoders refuse a compressed payload that declares more than this many inflated bytes (64 MiB). */
export const DEFAULT_MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/**
 * The budget of zero-width items one message may decode to, over all its arrays, in 8-byte slots (an item of
 * null or a primitive const costs 1, an empty object 8, a const object or array 1 + 8 per node it clones):
 * 512 KiB of items, under 1 MiB with the slack of growing arrays. 65,536 nulls fit, as many as one array may
 * hold (MAX_ZERO_WIDTH_ITEMS).
 */
export const DEFAULT_MAX_ZERO_WIDTH_ITEMS = MAX_ZERO_WIDTH_ITEMS;

/** Unknown extension records one message may carry (each is kept on the value for re-encoding). */
export const DEFAULT_MAX_UNKNOWN_RECORDS = 4096;

export interface DecodeLimits {
  /**
   * Items of zero-width types (null, const, empty closed objects) the whole message may decode to, summed over
   * every array, tuple and map (default 65,536). Items that take bytes are bounded by the input already.
   */
  maxZeroWidthItems?: number;
  /** Largest inflated payload a COMPRESSED message may declare, checked before decompressing (default 64 MiB). */
  maxInflatedBytes?: number;
  /** Unknown extension records a message may carry (default 4,096); more is INVALID_ENCODING. */
  maxUnknownRecords?: number;
}

/** A limit from the options (`name` for the message), or its default when absent. */
export function limitOf(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value >= 0)) throw new ToonError("CONFIG_ERROR", `${name} must be a non-negative number, got ${String(value)}`);
  return value;
}
