/**
 * What `toon-gen inspect` reads of a message: its header (and, compressed, its inflated form), then the body
 * with bytes per dictionary path (./path-bytes.ts: how many values each path had, the TOON bytes they took and
 * the bytes the same values take in compact JSON; rows add up to the message length and to the length of
 * `JSON.stringify(value)`).
 *
 * A schema message's body is read by the codec engine itself, observed (runtime/codec/engine/read-observed.ts):
 * the values, errors and checks are those of `toon-gen decode --schema`, and the generated codecs' path is not
 * touched. A schemaless message (EMBEDDED_DICTIONARY) is walked here, the twin of the schemaless decoder. On bad
 * or truncated input the walk stops with the ToonError, keeping the value read so far (a container that had
 * begun holds what was read of it).
 */
import type { Dictionary } from "../dictionary/file.ts";
import type { SchemaIR } from "../ir/types.ts";
import { branchSegment, itemsSegment, mapSegment, propertySegment } from "../dictionary/paths.ts";
import { describeCodec } from "../emit/descriptor.ts";
import { byteMask } from "../../runtime/codec/plan.ts";
import type { BodyReader } from "../../runtime/codec/engine/codec.ts";
import { observedReader } from "../../runtime/codec/engine/read-observed.ts";
import { readFieldIndex } from "../../runtime/wire/field-index.ts";
import { readAny } from "../../runtime/wire/any.ts";
import { inflateAt, payloadStart } from "../../runtime/compression.ts";
import { ToonError, pointerSegment } from "../../runtime/wire/errors.ts";
import { peekHeader, type Header } from "../../runtime/wire/header.ts";
import { hasOwn, setOwn } from "../../runtime/wire/objects.ts";
import { Reader } from "../../runtime/wire/reader.ts";
import {
  SchemalessKind as K,
  SCHEMALESS_KIND_NAMES,
  readSchemalessDictionary,
  schemalessBodyReader,
  schemalessMinWidth,
  siteAt,
  type SchemalessBodyReader,
  type SchemalessSite,
  type SchemalessType,
} from "../../runtime/schemaless.ts";
import { DEFAULT_MAX_DEPTH, Flag } from "../../runtime/wire/wire.ts";
import { PathBytes, Tally, jsonLength, keyLength, type PathRow } from "./path-bytes.ts";

export { jsonLength, Tally, type PathRow };

export interface WalkError {
  code: string;
  message: string;
  /** Byte offset where decoding stopped (in the uncompressed message when it was compressed). */
  offset?: number;
  /** JSON pointer of the value being read when it stopped. */
  path: string;
}

export interface WalkResult {
  header?: Header;
  /** Header bytes (magic, version, flags, fingerprint, extension level). */
  headerBytes: number;
  /** The value decoded (partial when `error` is set; undefined when nothing of it was read). */
  value: unknown;
  complete: boolean;
  error?: WalkError;
  rows: PathRow[];
  /** Bytes of the message as decoded (the uncompressed form for a compressed message). */
  decodedBytes: number;
  /** Compressed messages: the stored size and the size inflated. */
  compression?: { storedBytes: number; inflatedBytes: number; algorithm: string };
  /** Schemaless messages: the embedded dictionary, its bytes and its table. */
  embedded?: { type?: SchemalessType; bytes: number; entries: { id: number; path: string; type: string }[] };
}

type Place = (v: unknown) => void;

/** The error where the walk stopped: at `at`, or where `at` says given the error's own path. */
function toWalkError(e: unknown, at: string | ((path: string) => string)): WalkError {
  const where = (path: string): string => (typeof at === "string" ? (path !== "" ? path : at) : at(path));
  if (e instanceof ToonError) {
    // the message without the path a decoder appends to it: the report gives the path on its own
    const out: WalkError = { code: e.code, message: `${e.code}: ${e.reason}`, path: where(e.path) };
    if (e.offset !== undefined) out.offset = e.offset;
    return out;
  }
  if (e instanceof RangeError) return { code: "DEPTH_LIMIT", message: "DEPTH_LIMIT: nesting too deep for the call stack", path: where("") };
  throw e;
}

/**
 * Header and (when compressed) inflation, shared by both walks. Returns the reader positioned after the header,
 * or undefined when the header itself cannot be read (the result then carries the error).
 */
function openMessage(bytes: Uint8Array, out: WalkResult, tally: Tally): Reader | undefined {
  const r = new Reader(bytes);
  try {
    out.header = peekHeader(r);
  } catch (e) {
    out.error = toWalkError(e, "");
    out.headerBytes = Math.min(bytes.length, 7);
    tally.add("(header)", out.headerBytes, 0, 1);
    return undefined;
  }
  out.headerBytes = r.pos;
  tally.add("(header)", r.pos, 0, 1);
  if (out.header.flags & Flag.COMPRESSED) {
    const start = payloadStart(bytes) ?? r.pos;
    let inflated: Uint8Array;
    try {
      inflated = inflateAt(bytes, 0, start);
    } catch (e) {
      out.error = toWalkError(e, "");
      return undefined;
    }
    out.compression = { storedBytes: bytes.length, inflatedBytes: inflated.length, algorithm: "zstd" };
    out.decodedBytes = inflated.length;
    const ir = new Reader(inflated);
    ir.pos = start;
    return ir;
  }
  return r;
}

// ------------------------------------------------------------------------------------------ schema messages

/** Walk a message of the schema `ir` with dictionary `dict` (the dictionary its codec was generated with). */
export function walkSchemaMessage(bytes: Uint8Array, schema: SchemaIR, dict: Dictionary): WalkResult {
  const tally = new Tally();
  const out: WalkResult = { headerBytes: 0, value: undefined, complete: false, rows: [], decodedBytes: bytes.length };
  const r = openMessage(bytes, out, tally);
  if (r !== undefined) {
    const flags = out.header!.flags;
    r.level = out.header!.level;
    const { read, paths } = compiled(schema, dict);
    paths.begin(tally);
    try {
      if (flags & Flag.FIELD_INDEX) {
        // the offset table of O(1) field access (docs/FORMAT.md §10.2): skipped, as readHeader does
        const start = r.pos;
        readFieldIndex(r);
        tally.add("(field index)", r.pos - start, 0, 1);
      }
      out.value = read(r, flags);
      if (flags & Flag.EXTENSIONS) paths.sectionEnd(r.pos);
      out.complete = true;
    } catch (e) {
      out.error = toWalkError(e, (enginePath) => paths.failedAt(enginePath));
      out.value = paths.settle(out.error.offset ?? -1);
    }
  }
  out.rows = tally.list();
  return out;
}

const compiledCache = new WeakMap<SchemaIR, WeakMap<Dictionary, { read: BodyReader; paths: PathBytes }>>();

/** The engine's reader of the codec of `schema` and `dict`, observed (kept per IR and dictionary). */
function compiled(schema: SchemaIR, dict: Dictionary): { read: BodyReader; paths: PathBytes } {
  let byDict = compiledCache.get(schema);
  if (byDict === undefined) compiledCache.set(schema, (byDict = new WeakMap()));
  let c = byDict.get(dict);
  if (c === undefined) {
    // what interpret() compiles: the dictionary's wire layout, default-value tables and interning
    const paths = new PathBytes();
    byDict.set(dict, (c = { read: observedReader(describeCodec(schema, dict), paths), paths }));
  }
  return c;
}

// ------------------------------------------------------------------------------------- schemaless messages

/** The embedded dictionary as a table: one row per path of the type tree (shared types under each path). */
export function schemalessEntries(t: SchemalessType, limit = 10000): { id: number; path: string; type: string }[] {
  const out: { id: number; path: string; type: string }[] = [];
  const visit = (t: SchemalessType, path: string, depth: number): void => {
    if (out.length >= limit || depth > 2 * DEFAULT_MAX_DEPTH + 2) return;
    out.push({ id: out.length, path, type: describeType(t) });
    switch (t.kind) {
      case K.ARRAY:
        return visit(t.items, itemsSegment(path), depth + 1);
      case K.OBJECT:
        t.keys.forEach((k, i) => visit(t.types[i]!, propertySegment(path, k), depth + 1));
        return;
      case K.MAP:
        return visit(t.values, mapSegment(path), depth + 1);
      case K.UNION:
        t.branches.forEach((b, i) => visit(b, branchSegment(path, i), depth + 1));
        return;
    }
  };
  visit(t, "$", 0);
  return out;
}

export function describeType(t: SchemalessType): string {
  const name = SCHEMALESS_KIND_NAMES[t.kind]!;
  switch (t.kind) {
    case K.CONST:
      return `const ${JSON.stringify(t.value)}`;
    case K.ENUM: {
      const shown = t.values.slice(0, 4).map((v) => JSON.stringify(v)).join(", ");
      return `enum (${t.values.length}: ${shown}${t.values.length > 4 ? ", ..." : ""})`;
    }
    case K.OBJECT:
      return `object (${t.keys.length} keys${t.optionalCount ? `, ${t.optionalCount} optional` : ""})`;
    case K.MAP:
      return `map (${t.keyKind === K.DECSTR ? "decimal-string" : "string"} keys)`;
    case K.UNION:
      return `union (${t.branches.length} branches)`;
    default:
      return name;
  }
}

/** Walk a schemaless message (EMBEDDED_DICTIONARY). */
export function walkSchemalessMessage(bytes: Uint8Array): WalkResult {
  const tally = new Tally();
  const out: WalkResult = { headerBytes: 0, value: undefined, complete: false, rows: [], decodedBytes: bytes.length };
  const r = openMessage(bytes, out, tally);
  if (r !== undefined) {
    const cx = schemalessBodyReader(r.end);
    const w = new SchemalessWalker(r, tally, cx);
    const dstart = r.pos;
    try {
      const t = readSchemalessDictionary(r, cx);
      out.embedded = { type: t, bytes: r.pos - dstart, entries: schemalessEntries(t) };
      tally.add("(dictionary)", r.pos - dstart, 0, 1);
      w.read(t, "$", "", 0, 0, (v) => (out.value = v), { prev: "" });
      w.at = "";
      r.done();
      out.complete = true;
    } catch (e) {
      if (out.embedded === undefined) {
        out.embedded = { bytes: r.pos - dstart, entries: [] };
        tally.add("(dictionary)", r.pos - dstart, 0, 1);
      }
      out.error = toWalkError(e, w.at);
    }
  }
  out.rows = tally.list();
  return out;
}

/** The twin of readSchemalessValue (runtime/schemaless.ts), recording bytes per path. */
class SchemalessWalker {
  at = "";

  constructor(
    private readonly r: Reader,
    private readonly tally: Tally,
    private readonly cx: SchemalessBodyReader,
  ) {}

  private leaf(path: string, start: number, v: unknown, kb: number, place: Place): void {
    this.tally.add(path, this.r.pos - start, kb + jsonLength(v), 1);
    place(v);
  }

  read(t: SchemalessType, path: string, ptr: string, kb: number, depth: number, place: Place, site?: SchemalessSite): void {
    const r = this.r;
    this.at = ptr;
    r.at = "";
    while (t.kind === K.UNION) {
      const start = r.pos;
      const i = r.index(t.branches.length);
      this.tally.add(path, r.pos - start, 0, 1);
      site = siteAt((t.sites ??= []), i);
      t = t.branches[i]!;
      path = branchSegment(path, i);
    }
    const cx = this.cx;
    if (++cx.nodes > cx.budget) throw r.fail("INVALID_ENCODING", `message decodes to more than ${cx.budget} values (its length allows no more)`);
    const start = r.pos;
    switch (t.kind) {
      case K.ANY:
        r.depth = depth;
        return this.leaf(path, start, readAny(r), kb, place);
      case K.NULL:
        return this.leaf(path, start, null, kb, place);
      case K.BOOL:
        return this.leaf(path, start, r.bool(), kb, place);
      case K.INT:
        return this.leaf(path, start, r.int(), kb, place);
      case K.INT64:
        return this.leaf(path, start, r.int64(), kb, place);
      case K.NUM:
        return this.leaf(path, start, r.num(), kb, place);
      case K.STR:
        return this.leaf(path, start, cx.strings.read(r, site ?? { prev: "" }), kb, place);
      case K.DATETIME:
        return this.leaf(path, start, r.dateTime(), kb, place);
      case K.DATE:
        return this.leaf(path, start, r.date(), kb, place);
      case K.DECSTR:
        return this.leaf(path, start, r.decimalString(), kb, place);
      case K.CONST:
        return this.leaf(path, start, t.value, kb, place);
      case K.ENUM:
        return this.leaf(path, start, t.values[r.index(t.values.length)], kb, place);
      case K.ARRAY: {
        if (depth >= DEFAULT_MAX_DEPTH) throw r.fail("DEPTH_LIMIT", `nesting deeper than ${DEFAULT_MAX_DEPTH}`);
        const n = r.varint();
        const width = schemalessMinWidth(t.items);
        if (width > 0 ? n * width > r.end - r.pos : n > cx.budget - cx.nodes) {
          throw r.fail(width > 0 ? "TRUNCATED" : "INVALID_ENCODING", `count ${n} exceeds what the input can hold`);
        }
        const a: unknown[] = [];
        place(a);
        this.tally.add(path, r.pos - start, kb + 2 + Math.max(0, n - 1), 1);
        const s = t.items.kind === K.STR ? siteAt((t.sites ??= []), 0) : undefined;
        for (let i = 0; i < n; i++) this.read(t.items, itemsSegment(path), ptr + "/" + i, 0, depth + 1, (v) => a.push(v), s);
        return;
      }
      case K.OBJECT: {
        if (depth >= DEFAULT_MAX_DEPTH) throw r.fail("DEPTH_LIMIT", `nesting deeper than ${DEFAULT_MAX_DEPTH}`);
        const bits: number[] = [];
        for (let b = 0; b < t.optionalCount; b += 8) bits.push(r.bits(byteMask(t.optionalCount, b / 8)));
        const o: Record<string, unknown> = {};
        place(o);
        const self = this.tally.row(path);
        self.count++;
        self.toonBytes += r.pos - start;
        self.jsonBytes += kb + 2;
        let entries = 0;
        const sites = (t.sites ??= []);
        for (let i = 0, bit = 0; i < t.keys.length; i++) {
          if (t.optional[i]) {
            const present = (bits[bit >> 3]! & (1 << (bit & 7))) !== 0;
            bit++;
            if (!present) continue;
          }
          const k = t.keys[i]!;
          entries++;
          const ct = t.types[i]!;
          this.read(ct, propertySegment(path, k), ptr + pointerSegment(k), keyLength(k), depth + 1, (v) => setOwn(o, k, v), ct.kind === K.STR ? siteAt(sites, i) : undefined);
        }
        self.jsonBytes += Math.max(0, entries - 1);
        return;
      }
      case K.MAP: {
        if (depth >= DEFAULT_MAX_DEPTH) throw r.fail("DEPTH_LIMIT", `nesting deeper than ${DEFAULT_MAX_DEPTH}`);
        const n = r.varint();
        if (n * (1 + schemalessMinWidth(t.values)) > r.end - r.pos) throw r.fail("TRUNCATED", `count ${n} exceeds what the input can hold`);
        const o: Record<string, unknown> = {};
        place(o);
        this.tally.add(path, r.pos - start, kb + 2 + Math.max(0, n - 1), 1);
        const mp = mapSegment(path);
        const sites = (t.sites ??= []);
        const valueSite = t.values.kind === K.STR ? siteAt(sites, 0) : undefined;
        for (let i = 0; i < n; i++) {
          const kstart = r.pos;
          this.at = ptr;
          const k = t.keyKind === K.DECSTR ? r.decimalString() : cx.strings.read(r, siteAt(sites, 1));
          if (hasOwn(o, k)) throw r.fail("INVALID_ENCODING", `duplicate key ${JSON.stringify(k)}`);
          this.tally.add(mp, r.pos - kstart, 0);
          this.read(t.values, mp, ptr + pointerSegment(k), keyLength(k), depth + 1, (v) => setOwn(o, k, v), valueSite);
        }
        return;
      }
    }
    throw r.fail("INVALID_ENCODING", "unknown type");
  }
}
