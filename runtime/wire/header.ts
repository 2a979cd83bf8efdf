/**
 * The message header: magic `TOON`, format version, 16-bit flags, and (fixed dictionary) the 16-bit
 * fingerprint. See docs/FORMAT.md §2.
 */
import { ToonError } from "./errors.ts";
import type { Reader } from "./reader.ts";
import { readFieldIndex } from "./field-index.ts";
import type { Writer } from "./writer.ts";
import { FORMAT_VERSION, Flag, KNOWN_FLAGS, MAGIC } from "./wire.ts";
import { inflateIfRegistered } from "./compress-hook.ts";

export function writeHeader(w: Writer, flags: number, fingerprint: number, level = 0): void {
  w.ensure(9);
  const b = w.buf;
  let p = w.pos;
  b[p++] = MAGIC[0];
  b[p++] = MAGIC[1];
  b[p++] = MAGIC[2];
  b[p++] = MAGIC[3];
  b[p++] = FORMAT_VERSION;
  b[p++] = flags >>> 8;
  b[p++] = flags & 0xff;
  if (flags & Flag.FIXED_DICTIONARY) {
    b[p++] = fingerprint >>> 8;
    b[p++] = fingerprint & 0xff;
  }
  w.pos = p;
  if (flags & Flag.EXTENSIONS) w.varint(level);
}

/**
 * Fingerprint -> dictionary name of every generated module loaded in this process, so a mismatch can say
 * which dictionary a message was written with, not only its number.
 */
const known = new Map<number, string>();

export function registerDictionary(fingerprint: number, name: string): void {
  const had = known.get(fingerprint);
  known.set(fingerprint, had === undefined || had === name ? name : `${had} or ${name}`);
}

export interface Header {
  version: number;
  flags: number;
  /** Present when the FIXED_DICTIONARY flag is set. */
  fingerprint?: number;
  /** The writer's extension level (EXTENSIONS flag), else 0. */
  level: number;
}

export function hex16(n: number): string {
  return "0x" + n.toString(16).padStart(4, "0");
}

/** Parse the header without judging flags or fingerprint (for `inspect` and dispatch). */
export function peekHeader(r: Reader): Header {
  if (r.remaining() < 7) {
    if (r.remaining() < 4 || !hasMagic(r)) throw badMagicOrTruncated(r);
    throw r.truncated();
  }
  if (!hasMagic(r)) throw badMagicOrTruncated(r);
  r.pos += 4;
  const version = r.byte();
  const flags = (r.byte() << 8) | r.byte();
  const h: Header = { version, flags, level: 0 };
  if (flags & Flag.FIXED_DICTIONARY) h.fingerprint = (r.byte() << 8) | r.byte();
  if (flags & Flag.EXTENSIONS) h.level = r.varint();
  return h;
}

function hasMagic(r: Reader): boolean {
  const b = r.buf;
  const p = r.pos;
  for (let i = 0; i < 4; i++) if (p + i < r.end && b[p + i] !== MAGIC[i]) return false;
  return true;
}

function badMagicOrTruncated(r: Reader): ToonError {
  if (hasMagic(r)) return r.truncated();
  return r.fail("BAD_MAGIC", "not a TOON message (expected the magic bytes 54 4F 4F 4E, \"TOON\")");
}

/**
 * Read and check the header of a message for the codec `name` with dictionary `fingerprint`.
 * Returns the flags.
 */
export function readHeader(r: Reader, fingerprint: number, name: string, extra = 0): number {
  const start = r.pos;
  const h = peekHeader(r);
  if (h.version !== FORMAT_VERSION) {
    throw new ToonError("UNSUPPORTED_VERSION", `format version ${h.version}; this runtime reads version ${FORMAT_VERSION}`, { offset: 4 });
  }
  if (h.fingerprint === undefined && (h.flags & ~KNOWN_FLAGS) !== 0) {
    const schemaless = h.flags & Flag.EMBEDDED_DICTIONARY ? ` (a schemaless message with an embedded dictionary: decode it with decodeSchemaless, or toon-gen decode without --schema)` : "";
    throw new ToonError("UNSUPPORTED_FLAGS", `header flags ${hex16(h.flags & ~KNOWN_FLAGS)} are not supported by this decoder${schemaless}`, { offset: 5 });
  }
  if (h.fingerprint === undefined) {
    throw new ToonError("FINGERPRINT_MISMATCH", `message has no dictionary fingerprint; ${name} expects ${hex16(fingerprint)}`, { offset: 5 });
  }
  if (h.fingerprint !== fingerprint) {
    const writer = known.get(h.fingerprint);
    throw new ToonError(
      "FINGERPRINT_MISMATCH",
      `message was written with dictionary fingerprint ${hex16(h.fingerprint)}${writer === undefined ? "" : ` (${writer})`}, but ${name} expects ${hex16(fingerprint)}: the sender and receiver use different dictionaries (regenerate one side, or rebase both)`,
      { offset: 7 },
    );
  }
  if (extra & Flag.DEFAULTS && !(h.flags & Flag.DEFAULTS)) {
    // the fingerprint of a codec with a default-value table covers the table: only DEFAULTS messages carry it
    throw new ToonError("FINGERPRINT_MISMATCH", `message has fingerprint ${hex16(h.fingerprint)} but not the DEFAULTS flag, and ${name} reads only messages written with its default-value table`, { offset: 5 });
  }
  const unknown = h.flags & ~(KNOWN_FLAGS | extra);
  if (unknown !== 0) {
    throw new ToonError("UNSUPPORTED_FLAGS", `header flags ${hex16(unknown)} are not supported by this decoder`, { offset: 5 });
  }
  r.level = h.level;
  if (h.flags & Flag.COMPRESSED) inflateIfRegistered(r, start);
  if (h.flags & Flag.FIELD_INDEX) r.fieldIndex = readFieldIndex(r);
  return h.flags;
}
