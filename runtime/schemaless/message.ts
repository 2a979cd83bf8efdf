/**
 * A whole schemaless message: the header (EMBEDDED_DICTIONARY, maybe COMPRESSED), the dictionary, the body.
 * `encodeSchemaless` retries with safer types when a value would pass the node budget; `decodeSchemaless` reads it
 * back.
 */
import { rethrowAt, ToonError } from "../wire/errors.ts";
import { writeAny } from "../wire/any.ts";
import { compressMessage, type EncodeOptions, inflateReader } from "../compression.ts";
import { hex16, peekHeader, writeHeader } from "../wire/header.ts";
import { Reader } from "../wire/reader.ts";
import { Writer } from "../wire/writer.ts";
import { DEFAULT_MAX_DEPTH, Flag, FORMAT_VERSION, SCHEMALESS_FLAGS } from "../wire/wire.ts";
import { K, type SchemalessDecodeOptions, schemalessNodeBudget, type SchemalessType } from "./types.ts";
import { Inferrer, prewalk, type Prewalk } from "./infer.ts";
import { StrWriter } from "./strings.ts";
import { DictionaryWriter, readSchemalessDictionary } from "./dictionary.ts";
import { readSchemalessValue, schemalessBodyReader, writeValue } from "./body.ts";

// ------------------------------------------------------------------------------------------------ encoding

/** Encode any JSON value with an embedded dictionary. Throws ToonError INVALID_VALUE / DEPTH_LIMIT with a path. */
export function encodeSchemaless(value: unknown, options?: EncodeOptions): Uint8Array {
  const pre: Prewalk = { nodes: 0, strings: new Set(), stringCap: 1 << 16 };
  try {
    prewalk(value, 0, pre);
  } catch (e) {
    rethrowAt(e, "");
  }
  const w = Writer.shared();
  for (let attempt = 0; ; attempt++) {
    w.reset();
    writeHeader(w, Flag.EMBEDDED_DICTIONARY, 0);
    if (attempt === 2) {
      // the last resort, at most one value per byte: the whole value self-describing
      w.byte(K.ANY);
      writeAny(w, value);
      break;
    }
    // attempt 1: no zero-width types for scalars (constants become one-value enums), see "Bounds"
    const root = new Inferrer(pre.strings.size, attempt === 1).infer([value], 0);
    const sw = new StrWriter();
    const dw = new DictionaryWriter(w, sw);
    sw.canon = (t) => dw.canon(t);
    dw.type(root);
    writeValue(w, value, root, sw, { prev: "" });
    // a decoder refuses messages that decode to more values than their length allows (zero-width amplification)
    if (pre.nodes <= schemalessNodeBudget(w.pos)) break;
  }
  return compressMessage(w.finish(), options);
}

/** The dictionary `encodeSchemaless` would embed for `value` (for tools and tests). */
export function inferSchemaless(value: unknown): SchemalessType {
  const pre: Prewalk = { nodes: 0, strings: new Set(), stringCap: 1 << 16 };
  try {
    prewalk(value, 0, pre);
  } catch (e) {
    rethrowAt(e, "");
  }
  return new Inferrer(pre.strings.size).infer([value], 0);
}

// ------------------------------------------------------------------------------------------------ decoding

/**
 * Check the header of a schemaless message and position `r` after it (on the uncompressed form when the
 * COMPRESSED flag is set). Returns the flags.
 */
export function readSchemalessHeader(r: Reader): number {
  const start = r.pos;
  const h = peekHeader(r);
  if (h.version !== FORMAT_VERSION) {
    throw new ToonError("UNSUPPORTED_VERSION", `format version ${h.version}; this runtime reads version ${FORMAT_VERSION}`, { offset: start + 4 });
  }
  if ((h.flags & Flag.EMBEDDED_DICTIONARY) === 0) {
    throw new ToonError(
      "FINGERPRINT_MISMATCH",
      h.fingerprint === undefined
        ? "message has no embedded dictionary (and no fingerprint): not a schemaless message"
        : `message was written with the fixed dictionary ${hex16(h.fingerprint)}, not schemaless: decode it with its generated codec (toon-gen decode --schema)`,
      { offset: start + 5 },
    );
  }
  const unknown = h.flags & ~SCHEMALESS_FLAGS;
  if (unknown !== 0) throw new ToonError("UNSUPPORTED_FLAGS", `header flags ${hex16(unknown)} are not supported by the schemaless decoder`, { offset: start + 5 });
  if (h.flags & Flag.COMPRESSED) inflateReader(r, start);
  return h.flags;
}

/** Decode a schemaless message (EMBEDDED_DICTIONARY) back to the JSON value it was encoded from. */
export function decodeSchemaless(bytes: Uint8Array, options?: SchemalessDecodeOptions): unknown {
  const r = new Reader(bytes, 0, undefined, options);
  readSchemalessHeader(r);
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
  const cx = schemalessBodyReader(r.end, maxDepth);
  const root = readSchemalessDictionary(r, cx);
  r.maxDepth = maxDepth;
  const v = readSchemalessValue(r, root, cx, 0, { prev: "" });
  r.done();
  return v;
}
