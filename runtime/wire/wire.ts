/**
 * Wire constants shared by the writer, the reader and docs/FORMAT.md. Changing any of these is a new format
 * version.
 */

/** `TOON` in ASCII. */
export const MAGIC = [0x54, 0x4f, 0x4f, 0x4e] as const;
export const FORMAT_VERSION = 1;

/** Header flag bits (16-bit, big-endian on the wire). Unknown bits make a decoder fail with UNSUPPORTED_FLAGS. */
export const Flag = {
  /** A 2-byte dictionary fingerprint follows the flags. */
  FIXED_DICTIONARY: 0x0001,
  /** A varint extension level follows the fingerprint and an extension section follows the body. */
  EXTENSIONS: 0x0002,
  /** Values may be references into the dictionary's default-value table. */
  DEFAULTS: 0x0004,
  /** A field offset table follows the header (O(1) field access). */
  FIELD_INDEX: 0x0008,
  /** The body is a sequence of self-contained stream frames. */
  STREAM: 0x0010,
  /** The dictionary travels inside the message (schemaless mode). */
  EMBEDDED_DICTIONARY: 0x0020,
  /** The body is compressed (zstd). */
  COMPRESSED: 0x0040,
} as const;

/** Flags this runtime version knows how to read. */
// FIELD_INDEX is skippable: readHeader steps over the offset table (docs/FORMAT.md §10.2). DEFAULTS is not
// here: only a codec generated with a default-value table reads it, and tells readHeader so (docs/FORMAT.md §10.1).
export const KNOWN_FLAGS = Flag.FIXED_DICTIONARY | Flag.EXTENSIONS | Flag.COMPRESSED | Flag.FIELD_INDEX;
/** Flags a schemaless decoder (runtime/schemaless.ts) accepts: no fingerprint, the dictionary travels inside. */
export const SCHEMALESS_FLAGS = Flag.EMBEDDED_DICTIONARY | Flag.COMPRESSED;

/** Literal strings of 1..INTERN_MAX_BYTES UTF-8 bytes enter the per-message string table. */
export const INTERN_MAX_BYTES = 256;

/**
 * `number` values: varint v = zigzag(m) * 16 + s. s = 0: the integer m; s = 1..14: the decimal m / 10^s;
 * s = 15 (and m = 0): an IEEE 754 float64 follows, little-endian.
 */
export const NUM_FLOAT64 = 15;
/** |m| must stay below this so v stays a safe integer. */
export const NUM_MANTISSA_LIMIT = 2 ** 48;

/** Tags of self-describing (`any`) values. Tags 0x20..0x3f are the small integers 0..31. */
export const AnyTag = {
  NULL: 0x00,
  FALSE: 0x01,
  TRUE: 0x02,
  STRING: 0x03,
  NUMBER: 0x04,
  ARRAY: 0x05,
  OBJECT: 0x06,
  SMALL_INT: 0x20,
  SMALL_INT_END: 0x3f,
} as const;

/** Default nesting limit for decoding (named definitions that recurse, and `any` values). */
export const DEFAULT_MAX_DEPTH = 256;

/** Arrays whose items take zero bytes (null, const, empty closed objects) may hold at most this many. */
export const MAX_ZERO_WIDTH_ITEMS = 65536;

/**
 * docs/FORMAT.md §3.2, integers beyond 64 bits: the wide varint u = 2^64 + 1 (zz(−2^63 − 1), a value no 64-bit
 * integer takes) says that the integer follows as 8 bytes of float64, little-endian. Every integer `JSON.parse`
 * yields outside [−2^63, 2^64) is such a double, exactly, so this keeps it exactly; nothing else changes on the wire.
 */
export const WIDE_INT_ESCAPE = 2n ** 64n + 1n;

/** An integral double outside [−2^63, 2^64): what travels after `WIDE_INT_ESCAPE` (and nothing else does). */
export function isWideInteger(x: number): boolean {
  return Number.isInteger(x) && (x < -9223372036854775808 || x >= 18446744073709551616);
}

/** The safe integers' bounds as bigints: an int64 within them is read (and tabled) as a number. */
export const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
export const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
