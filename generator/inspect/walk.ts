/**
 * Instrumented decoding for `toon-gen inspect`: walks a message with the runtime's bounds-checked Reader, over
 * the IR (schema messages) or the embedded dictionary (schemaless messages), and records for every dictionary
 * path how many values it had, the TOON bytes they took (their own bytes: a scalar's encoding, a container's
 * count and bitmap, a union's branch index; children count at their own paths) and the bytes the same values
 * take in compact JSON (the `"key":` of a property included, a container's brackets and commas). Rows add up:
 * TOON rows sum to the message length, JSON rows to the length of `JSON.stringify(value)`.
 *
 * Nothing here is on the generated codecs' path: they stay as fast as they are. The walk reads exactly what the
 * codec engine (runtime/codec/engine/read.ts) and the schemaless decoder read; tests check that the values
 * agree. On bad or truncated input the walk stops with the ToonError, keeping the value read so far (containers
 * are attached to their parent as soon as they start).
 */
import type { Dictionary } from "../dictionary/file.ts";
import type { SchemaIR, Shape, Source } from "../ir/types.ts";
import { branchSegment, definitionRoot, itemsSegment, mapSegment, propertySegment, tupleSegment } from "../dictionary/paths.ts";
import { ModuleContext } from "../emit/context.ts";
import { byteMask, objectLayout } from "../emit/layout.ts";
import { laidOut } from "../emit/descriptor.ts";
import { extensionsOf, type ExtensionProperty } from "../../runtime/codec/plan.ts";
import { scalarReader } from "../../runtime/codec/engine/read.ts";
import { countWidth } from "../../runtime/codec/zero-width.ts";
import { withDefaultTables } from "../samples/tables.ts";
import { withInterning } from "../dictionary/intern.ts";
import { readFieldIndex } from "../../runtime/field-index.ts";
import { readAny } from "../../runtime/any.ts";
import { inflateAt, payloadStart } from "../../runtime/compression.ts";
import { ToonError, pointerSegment } from "../../runtime/errors.ts";
import { peekHeader, type Header } from "../../runtime/header.ts";
import { cloneJson, getOwn, hasOwn, setOwn } from "../../runtime/objects.ts";
import { Reader } from "../../runtime/reader.ts";
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
import { DEFAULT_MAX_DEPTH, Flag } from "../../runtime/wire.ts";

export interface PathRow {
  /** A dictionary path (docs/FORMAT.md §5.1), or a pseudo-path in parentheses: `(header)`, `(dictionary)`, ... */
  path: string;
  /** Values met at the path. */
  count: number;
  /** TOON bytes the path's values take themselves (their children are rows of their own). */
  toonBytes: number;
  /** Bytes the same values take in compact JSON (keys, brackets and commas included). */
  jsonBytes: number;
}

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

/** UTF-8 length of a well-formed string (JSON.stringify escapes lone surrogates). */
function utf8(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c < 0x800 ? 1 : c >= 0xd800 && c < 0xdc00 ? 0 : 2;
  }
  return n;
}

/** Compact JSON length of a value (bigints as their digits). */
export function jsonLength(v: unknown): number {
  if (typeof v === "bigint") return String(v).length;
  if (typeof v === "number") return JSON.stringify(v).length;
  if (typeof v === "boolean") return v ? 4 : 5;
  if (v === null) return 4;
  const s = JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? Number(x) : x));
  return s === undefined ? 0 : utf8(s);
}

function keyLength(k: string): number {
  return utf8(JSON.stringify(k)) + 1;
}

export class Tally {
  private rows = new Map<string, PathRow>();

  row(path: string): PathRow {
    let r = this.rows.get(path);
    if (r === undefined) this.rows.set(path, (r = { path, count: 0, toonBytes: 0, jsonBytes: 0 }));
    return r;
  }

  add(path: string, toon: number, json: number, count = 0): void {
    const r = this.row(path);
    r.toonBytes += toon;
    r.jsonBytes += json;
    r.count += count;
  }

  list(): PathRow[] {
    return [...this.rows.values()];
  }
}

type Place = (v: unknown) => void;

function toWalkError(e: unknown, at: string): WalkError {
  if (e instanceof ToonError) {
    const out: WalkError = { code: e.code, message: e.message, path: e.path !== "" ? e.path : at };
    if (e.offset !== undefined) out.offset = e.offset;
    return out;
  }
  if (e instanceof RangeError) return { code: "DEPTH_LIMIT", message: "DEPTH_LIMIT: nesting too deep for the call stack", path: at };
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
    r.level = out.header!.level;
    const w = new SchemaWalker(r, compiled(schema, dict), tally);
    try {
      if (out.header!.flags & Flag.FIELD_INDEX) {
        // the offset table of O(1) field access (docs/FORMAT.md §10.2): skipped, as readHeader does
        const start = r.pos;
        readFieldIndex(r);
        tally.add("(field index)", r.pos - start, 0, 1);
      }
      w.root((v) => (out.value = v));
      if (out.header!.flags & Flag.EXTENSIONS) w.extensions(out.value);
      w.at = "";
      r.done();
      out.complete = true;
    } catch (e) {
      out.error = toWalkError(e, w.at);
    }
  }
  out.rows = tally.list();
  return out;
}

interface Compiled {
  ir: SchemaIR;
  dict: Dictionary;
  cx: ModuleContext;
  extensions: Map<number, ExtensionProperty<Source>>;
}

const compiledCache = new WeakMap<SchemaIR, WeakMap<Dictionary, Compiled>>();

/** The IR with the dictionary's wire layout, and what the walk needs of it (kept per IR and dictionary). */
function compiled(schema: SchemaIR, dict: Dictionary): Compiled {
  let byDict = compiledCache.get(schema);
  if (byDict === undefined) compiledCache.set(schema, (byDict = new WeakMap()));
  let c = byDict.get(dict);
  if (c === undefined) {
    // as interpret() compiles it: the dictionary's wire layout, then its default-value tables
    const ir = withInterning(withDefaultTables(laidOut(schema, dict), dict), dict);
    byDict.set(dict, (c = { ir, dict, cx: new ModuleContext(ir), extensions: extensionsOf<Source>(ir.root, ir.definitions) }));
  }
  return c;
}

class SchemaWalker {
  /** JSON pointer of the value being read. */
  at = "";
  private readonly cx: ModuleContext;
  private readonly ir: SchemaIR;
  private readonly dict: Dictionary;

  constructor(
    private readonly r: Reader,
    private readonly c: Compiled,
    private readonly tally: Tally,
  ) {
    this.cx = c.cx;
    this.ir = c.ir;
    this.dict = c.dict;
  }

  root(place: Place): void {
    this.read(this.ir.root, "$", "", 0, place);
  }

  private leaf(path: string, start: number, v: unknown, kb: number, place: Place): void {
    this.tally.add(path, this.r.pos - start, kb + jsonLength(v), 1);
    place(v);
  }

  read(s: Shape, path: string, ptr: string, kb: number, place: Place): void {
    const r = this.r;
    this.at = ptr;
    r.at = "";
    const start = r.pos;
    switch (s.kind) {
      case "string":
      case "integer":
      case "number":
        // the wire format's primitive (a default-table reference or the value where the path has a table), as the engine reads it
        return this.leaf(path, start, scalarReader(s, "")(r), kb, place);
      case "boolean":
        return this.leaf(path, start, r.bool(), kb, place);
      case "null":
        return this.leaf(path, start, null, kb, place);
      case "any":
        return this.leaf(path, start, readAny(r), kb, place);
      case "const":
        return this.leaf(path, start, cloneJson(s.value), kb, place);
      case "enum":
        return this.leaf(path, start, cloneJson(s.values.length === 1 ? s.values[0] : s.values[r.index(s.values.length)]), kb, place);
      case "ref": {
        const recursive = this.cx.recursive.has(s.name);
        this.tally.add(path, 0, 0, 1);
        if (recursive) r.enter();
        this.read(this.cx.def(s.name).shape, definitionRoot(s.name), ptr, kb, place);
        if (recursive) r.depth--;
        return;
      }
      case "array": {
        const n = r.count(countWidth(s.items, this.cx)); // zero-width items weigh in the budget, as in decode
        const a: unknown[] = [];
        place(a);
        this.tally.add(path, r.pos - start, kb + 2 + Math.max(0, n - 1), 1);
        for (let i = 0; i < n; i++) this.read(s.items, itemsSegment(path), ptr + "/" + i, 0, (v) => a.push(v));
        return;
      }
      case "tuple": {
        const count = s.items.length;
        const n = r.tupleCount(count, s.rest === false ? -1 : this.cx.minWidth(s.rest));
        if (n < s.minItems) throw r.fail("INVALID_ENCODING", "tuple length " + n + " below the schema's minimum");
        const a: unknown[] = [];
        place(a);
        this.tally.add(path, r.pos - start, kb + 2 + Math.max(0, n - 1), 1);
        for (let i = 0; i < count; i++) if (i < s.minItems || n > i) this.read(s.items[i]!, tupleSegment(path, i), ptr + "/" + i, 0, (v) => a.push(v));
        if (s.rest !== false) for (let i = count; i < n; i++) this.read(s.rest, tupleSegment(path, "rest"), ptr + "/" + i, 0, (v) => a.push(v));
        return;
      }
      case "object":
        return this.object(s, path, ptr, kb, place, start);
      case "union": {
        const i = r.index(s.branches.length);
        this.tally.add(path, r.pos - start, 0, 1);
        this.read(s.branches[i]!, branchSegment(path, i), ptr, kb, place);
        return;
      }
    }
  }

  private object(s: Extract<Shape, { kind: "object" }>, path: string, ptr: string, kb: number, place: Place, start: number): void {
    const r = this.r;
    const layout = objectLayout(s);
    const m: number[] = [];
    for (let b = 0; b * 8 < layout.bits; b++) m.push(r.bits(byteMask(layout.bits, b)));
    const has = (bit: number): boolean => (m[bit >> 3]! & (1 << (bit & 7))) !== 0;
    const o: Record<string, unknown> = {};
    place(o);
    const self = this.tally.row(path);
    self.count++;
    self.toonBytes += r.pos - start;
    self.jsonBytes += kb + 2;
    let entries = 0;
    const skip = (at: number): void => {
      for (const x of layout.retired) {
        if (x.after !== at || !has(x.bit)) continue;
        // a retired slot an older writer filled: read and dropped (not part of the value)
        const save = this.tally.row(propertySegment(path, x.name));
        const before = save.jsonBytes;
        this.read(x.shape, propertySegment(path, x.name), ptr + pointerSegment(x.name), 0, () => undefined);
        save.jsonBytes = before;
      }
    };
    for (let at = 0; at < layout.order.length; at++) {
      skip(at);
      const i = layout.order[at]!;
      const bit = layout.bitOf[i]!;
      if (bit >= 0 && !has(bit)) continue;
      const p = s.properties[i]!;
      entries++;
      this.read(p.shape, propertySegment(path, p.name), ptr + pointerSegment(p.name), keyLength(p.name), (v) => setOwn(o, p.name, v));
    }
    skip(layout.order.length);
    for (const x of layout.ext) {
      const p = s.properties[x.prop]!;
      if (r.level < x.level && p.shape.default !== undefined) {
        const v = cloneJson(p.shape.default);
        setOwn(o, p.name, v);
        entries++;
        this.tally.add(propertySegment(path, p.name), 0, keyLength(p.name) + jsonLength(v), 1);
      }
    }
    if (s.additional !== false && (layout.isMap || has(layout.extrasBit))) {
      const known = new Set(s.properties.map((q) => q.name));
      this.at = ptr;
      const from = r.pos;
      const n = r.count(1 + this.cx.minWidth(s.additional));
      self.toonBytes += r.pos - from;
      const mp = mapSegment(path);
      for (let j = 0; j < n; j++) {
        const kstart = r.pos;
        const k = r.string();
        if (known.has(k) || hasOwn(o, k)) throw r.fail("INVALID_ENCODING", "duplicate key " + JSON.stringify(k));
        this.tally.add(mp, r.pos - kstart, 0);
        entries++;
        this.read(s.additional, mp, ptr + pointerSegment(k), keyLength(k), (v) => setOwn(o, k, v));
      }
    }
    self.jsonBytes += Math.max(0, entries - 1);
  }

  /** The extension section (EXTENSIONS flag): records of properties added after the dictionary's base. */
  extensions(root: unknown): void {
    const r = this.r;
    this.at = "";
    const start = r.pos;
    const n = r.count(2);
    this.tally.add("(extension records)", r.pos - start, 0, 1);
    const known = this.c.extensions;
    const pathOf = new Map<number, string>();
    for (const seg of [this.dict.base, ...this.dict.extensions]) for (const e of seg.entries) pathOf.set(e.id, e.path);
    for (let i = 0; i < n; i++) {
      const from = r.pos;
      const id = r.varint();
      const len = r.varint();
      if (len > r.end - r.pos) throw r.truncated();
      const x = known.get(id);
      if (x === undefined) {
        r.pos += len;
        this.tally.add("(unknown extension records)", r.pos - from, 0, 1);
        continue;
      }
      const path = pathOf.get(id) ?? `(extension ${id})`;
      this.tally.add("(extension records)", r.pos - from, 0);
      const end = r.pos + len;
      const saveEnd = r.end;
      r.end = end;
      const pstart = r.pos;
      const pointer = r.string();
      this.tally.add("(extension records)", r.pos - pstart, 0);
      const target = resolvePointer(root, pointer);
      if (target === undefined) throw r.fail("INVALID_ENCODING", `extension record names ${JSON.stringify(pointer)}, which is not an object in the decoded value`);
      this.read(x.shape, path, pointer + pointerSegment(x.key), keyLength(x.key), (v) => setOwn(target, x.key, v));
      if (r.pos !== end) throw r.fail("TRAILING_BYTES", `${end - r.pos} bytes left in an extension record`);
      r.end = saveEnd;
    }
  }
}

function resolvePointer(root: unknown, pointer: string): Record<string, unknown> | undefined {
  let v: unknown = root;
  if (pointer !== "") {
    if (!pointer.startsWith("/")) return undefined;
    for (const raw of pointer.slice(1).split("/")) {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      v = typeof v === "object" && v !== null ? (Array.isArray(v) ? v[Number(key)] : getOwn(v, key)) : undefined;
    }
  }
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
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
