/**
 * Streaming frames (docs/FORMAT.md §10.3): a value sent as a sequence of small, self-contained frames so a
 * receiver can use each field as soon as its frame arrives.
 *
 *   stream := header (magic, version, flags with STREAM, fingerprint[, level]) ‖ frame*
 *   frame  := length:varint ‖ head:varint (steps·4 + kind) ‖ step^steps ‖ payload
 *   step   := path ID:varint ‖ one row (varint) per `[]` / `[...]` and one key (string) per `{}` of that path
 *
 * kind VALUE: the value at the address, in its ordinary encoding; END: the container (or TEXT string) at the
 * address is complete (arrays, tuples and maps give their count); TEXT: a piece of a string still arriving.
 * Every frame has its own string table, so frames stand alone and may be interleaved freely.
 *
 * The schema-specific part, the path table, is generated (generator/emit/stream.ts) next to the codec's
 * descriptor; the codec engine builds each path's writer and reader from the descriptor
 * (./codec/engine/stream.ts); everything else lives here. Zero dependencies; no Node APIs.
 */
import type { CodecDescriptor } from "./codec/descriptor.ts";
import { pathFunctions } from "./codec/engine/stream.ts";
import { streamPathRows, type StreamPathRow } from "./codec/stream-rows.ts";
import { ToonError, hostError, isArrayAt, optionsArg, pointerSegment, rethrowAt } from "./errors.ts";
import { readExtensionSection, writeExtensionSection } from "./extensions.ts";
import { hex16, peekHeader, writeHeader, type Header } from "./header.ts";
import { getOwn, hasOwn, setOwn } from "./objects.ts";
import { Reader, type ReadBudget } from "./reader.ts";
import { DEFAULT_MAX_ZERO_WIDTH_ITEMS, limitOf } from "./limits.ts";
import { StreamPathFlag, StreamSeg } from "./stream-seg.ts";
import { TextFeed, type TextStreamOptions } from "./stream-text.ts";
import { JsonReader, type JsonHandler } from "./text/reader/json.ts";
import { describeJsonFault, jsonFaultError, type JsonFault } from "./text/reader/json-fault.ts";
import { DEFAULT_MAX_DEPTH, FORMAT_VERSION, Flag } from "./wire.ts";
import { Writer } from "./writer.ts";

// ---------------------------------------------------------------------------------------------------------------
// Wire constants

/** Frame kinds: the low two bits of a frame's head. */
export const FrameKind = { VALUE: 0, END: 1, TEXT: 2 } as const;
export type FrameKindName = "VALUE" | "END" | "TEXT";

export { StreamSeg }; // how a path hangs off its parent (column `seg` of the path table)

export { StreamPathFlag }; // column `flags` of the path table

/** Most steps one frame's address may have (each step after the first crosses a `$ref`). */
export const MAX_STREAM_STEPS = DEFAULT_MAX_DEPTH;
/** Rows (array and tuple-rest indices) must stay below this. */
export const MAX_STREAM_ROW = 2 ** 31 - 1;
/** Default bound on one frame's length: a longer length prefix is refused before anything is buffered. */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

const HEADER_FLAGS = Flag.FIXED_DICTIONARY | Flag.STREAM;

/** The header flags of a stream of `spec`'s codec. */
function streamFlags(spec: StreamSpec): number {
  return HEADER_FLAGS | ((spec.flags ?? 0) & Flag.DEFAULTS) | (spec.level > 0 ? Flag.EXTENSIONS : 0);
}
const EMPTY = new Uint8Array(0);

// ---------------------------------------------------------------------------------------------------------------
// The generated part

export type StreamWriteFn = (w: Writer, v: any) => void;
export type StreamReadFn = (r: Reader) => any;

export type { StreamPathRow }; // the path table, derived from the descriptor (./codec/stream-rows.ts)

export type { TextStreamOptions }; // `StreamEncoder.text` (./stream-text.ts)

export interface StreamSpec {
  name: string;
  fingerprint: number;
  /** The codec's extension level (dictionary extension segments). */
  level: number;
  /**
   * The codec's own header flags: DEFAULTS (its values may reference the dictionary's default-value tables,
   * docs/FORMAT.md §10.1) carries over to its streams; FIELD_INDEX and COMPRESSED do not.
   */
  flags?: number;
  /**
   * The codec's descriptor: the path table is derived from it (./codec/stream-rows.ts), and the engine builds each
   * path's writer and reader (VALUE frames) from it. Its `retired` IDs are the paths whose frames (from older
   * writers) are skipped.
   */
  descriptor: CodecDescriptor;
  /** The dictionary IDs of the descriptor's paths in walk order, as runs `[first, count, ...]` (`[0, n]` when fresh). */
  ids: readonly number[];
  /** Applies the extension records of VALUE payloads (evolved dictionaries). */
  applyExtensions?: (id: number, r: Reader, root: unknown) => boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Events and options

type PathMap = Record<string, unknown>;

export type { FieldEvent, ElementEvent, TextEvent, ValueEvent, StreamEvent, PartialValue } from "./stream-events.ts";
import type { FieldEvent, ElementEvent, TextEvent, ValueEvent, StreamEvent, PartialValue } from "./stream-events.ts";

export interface StreamDecoderOptions<T = unknown, P extends PathMap = PathMap> {
  /** Called for every event, as frames complete (in addition to `push` returning them). */
  onEvent?: (event: StreamEvent<T, P>) => void;
  /** Refuse frames longer than this (default 16 MiB). */
  maxFrameBytes?: number;
  /**
   * Zero-width items the whole stream may decode to: items of null, const and empty closed object types, and the
   * rows a frame skips in an open array (holes a snapshot holds). Default 65,536.
   */
  maxZeroWidthItems?: number;
}

export interface StreamEncoderOptions {
  /** Called with every frame (the header first), in order, as soon as it is made. */
  onFrame?: (frame: Uint8Array) => void;
}

export interface IncrementalOptions {
  /** Where the value goes (JSON pointer or tokens; default the root). */
  at?: string | readonly (string | number)[];
  /**
   * Deepest JSON nesting level that is split into frames (the root is level 0): a container at this level
   * travels whole, as one VALUE frame. Default: no limit (one frame per scalar). 2 sends each item of a
   * top-level array whole.
   */
  depth?: number;
  /** Send plain strings longer than this as TEXT frames of this many characters, then END (default: never). */
  textChunk?: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The path table, compiled once per spec

const specTables = new WeakMap<StreamSpec, PathTable>();

function tableOf(spec: StreamSpec): PathTable {
  if (typeof spec !== "object" || spec === null || typeof spec.descriptor !== "object" || spec.descriptor === null || !Array.isArray(spec.ids)) {
    throw new ToonError("CONFIG_ERROR", `a stream needs its codec's StreamSpec (Codec.stream.spec), got ${spec === null ? "null" : Array.isArray(spec) ? "an array" : typeof spec}`);
  }
  let t = specTables.get(spec);
  if (t === undefined) specTables.set(spec, (t = new PathTable(spec)));
  return t;
}

class PathTable {
  readonly size: number;
  readonly path: string[] = [];
  readonly parent: number[] = [];
  readonly seg: number[] = [];
  readonly arg: (string | number | null)[] = [];
  readonly type: string[] = [];
  readonly flags: number[] = [];
  readonly extra: unknown[] = [];
  readonly write: StreamWriteFn[] = [];
  readonly read: StreamReadFn[] = [];
  readonly fallback: (readonly [unknown] | undefined)[] = [];
  readonly scope: number[] = [];
  readonly known: boolean[] = [];
  readonly props = new Map<number, Map<string, number>>();
  readonly additional = new Map<number, number>();
  readonly items = new Map<number, number>();
  readonly positions = new Map<number, number[]>();
  readonly rest = new Map<number, number>();
  readonly branches = new Map<number, number[]>();
  readonly retired: Set<number>;
  private chains: (number[] | undefined)[] = [];
  rootId = -1;

  constructor(readonly spec: StreamSpec) {
    const rows = streamPathRows(spec.descriptor, spec.ids);
    let max = -1;
    for (const row of rows) max = Math.max(max, row[0]);
    this.size = max + 1;
    const fns = pathFunctions(spec.descriptor, rows);
    for (const row of rows) {
      const [id, path, parent, seg, arg, type, flags, extra, fallback] = row;
      this.fallback[id] = fallback;
      this.known[id] = true;
      this.path[id] = path;
      this.parent[id] = parent;
      this.seg[id] = seg;
      this.arg[id] = arg;
      this.type[id] = type;
      this.flags[id] = flags;
      this.extra[id] = extra;
      this.write[id] = fns.write[id]!;
      this.read[id] = fns.read[id]!;
      if (path === "$") this.rootId = id;
    }
    for (const row of rows) {
      const [id, , parent, seg, arg] = row;
      switch (seg) {
        case StreamSeg.PROPERTY: {
          let m = this.props.get(parent);
          if (m === undefined) this.props.set(parent, (m = new Map()));
          m.set(arg as string, id);
          break;
        }
        case StreamSeg.ITEMS:
          this.items.set(parent, id);
          break;
        case StreamSeg.POSITION:
          (this.positions.get(parent) ?? this.positions.set(parent, []).get(parent)!)[arg as number] = id;
          break;
        case StreamSeg.REST:
          this.rest.set(parent, id);
          break;
        case StreamSeg.VALUES:
          this.additional.set(parent, id);
          break;
        case StreamSeg.BRANCH:
          (this.branches.get(parent) ?? this.branches.set(parent, []).get(parent)!)[arg as number] = id;
          break;
      }
    }
    for (const row of rows) {
      let id = row[0];
      while (this.parent[id]! >= 0) id = this.parent[id]!;
      this.scope[row[0]] = id;
    }
    if (this.rootId < 0) throw new ToonError("CONFIG_ERROR", `stream spec ${spec.name} has no root path`);
    this.retired = new Set(spec.descriptor.retired);
  }

  has(id: number): boolean {
    return id < this.size && this.known[id] === true;
  }

  /** Paths from the scope root (exclusive) down to `id` (inclusive). */
  chainOf(id: number): number[] {
    let c = this.chains[id];
    if (c === undefined) {
      c = [];
      for (let e = id; this.parent[e]! >= 0; e = this.parent[e]!) c.push(e);
      c.reverse();
      this.chains[id] = c;
    }
    return c;
  }

  /** Number of tuple positions (rest rows start there). */
  positional(tuple: number): number {
    return (this.extra[tuple] as [number, number])[1];
  }

  /** Level a property was added at (0: the base dictionary). */
  levelOf(id: number): number {
    return this.flags[id]! >>> 8;
  }

  /** The container or leaf type behind refs and the branches chosen so far; -1 when a union's branch is open. */
  concrete(entry: number, branches: ReadonlyMap<number, number> | null | undefined, branchOf?: (union: number) => number | undefined): number {
    let e = entry;
    for (let guard = 0; guard < 1000; guard++) {
      const ty = this.type[e];
      if (ty === "ref") e = this.extra[e] as number;
      else if (ty === "union") {
        const b = branches?.get(e) ?? branchOf?.(e);
        if (b === undefined) return -1;
        e = this.branches.get(e)![b]!;
      } else return e;
    }
    return -1;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The assembly: what the frames so far have built. Shared by the decoder and by the encoder (which applies every
// frame it makes to a mirror of the receiver's state, so it cannot send a stream the receiver would refuse).

class Loc {
  /** The concrete container type (object, map, array, tuple) or string (TEXT) at this location, -1 unknown. */
  conc = -1;
  /** An open array or tuple: one past the highest row a frame has named (holes below it are budgeted). */
  rows = 0;
  kids: Map<string | number, Loc> | null = null;
  /** Union path ID -> chosen branch, for the unions at this location. */
  branches: Map<number, number> | null = null;
  done = false;
  value: unknown = undefined;
  text: string | null = null;
  private ptr: string | undefined;

  constructor(
    readonly parent: Loc | null,
    readonly key: string | number,
    /** The path ID this location hangs off its parent by (the root: `$`). */
    readonly outer: number,
  ) {}

  get started(): boolean {
    return this.done || this.kids !== null || this.text !== null;
  }

  pointer(): string {
    if (this.ptr === undefined) this.ptr = this.parent === null ? "" : this.parent.pointer() + pointerSegment(this.key);
    return this.ptr;
  }

  tokens(): (string | number)[] {
    const out: (string | number)[] = [];
    for (let l: Loc | null = this; l !== null && l.parent !== null; l = l.parent) out.push(l.key);
    return out.reverse();
  }
}

/** Undo records (op, location, a, b): what a frame changed, so a frame that fails changes nothing. */
const U_CONC = 0;
const U_KIDS = 1;
const U_KID = 2;
const U_BRANCH = 3;
const U_TEXT = 4;
const U_DONE = 5;

class Assembly<T, P extends PathMap> {
  readonly root: Loc;
  finished = false;
  /** The writer's extension level (header). */
  level = 0;
  ext = false;
  events: StreamEvent<T, P>[] | null = null;
  /** Undo log of the frame (or, while `hold`, the frames) being applied: 4 slots per record. */
  private undo: unknown[] = [];
  hold = false;
  /** The location the frame being applied has reached (errors without a path are placed there). */
  private cursor: Loc | null = null;

  /**
   * Zero-width items over the whole stream: items of zero-width types in VALUE frames, and the holes rows leave
   * in open arrays (a snapshot holds them, so a row of 2^31 - 2 must not cost the receiver an array that long).
   */
  readonly budget: ReadBudget;

  constructor(
    readonly t: PathTable,
    /** Build values (decoder) or only track structure (the encoder's mirror). */
    readonly keep: boolean,
    zeroWidth = DEFAULT_MAX_ZERO_WIDTH_ITEMS,
  ) {
    this.root = new Loc(null, "", t.rootId);
    this.budget = { zeroWidth };
  }

  rollback(): void {
    this.rollbackTo(0);
  }

  private log(op: number, node: Loc, a: unknown, b: unknown): void {
    const u = this.undo;
    u.push(op, node, a, b);
  }

  commit(): void {
    if (!this.hold && this.undo.length !== 0) this.undo.length = 0;
  }

  /** Apply several frames as one: all or none. */
  applyAll(readers: Reader[]): void {
    this.hold = true;
    try {
      for (const r of readers) this.apply(r);
    } catch (e) {
      this.hold = false;
      this.rollback();
      throw e;
    }
    this.hold = false;
    this.undo.length = 0;
  }

  /**
   * Apply one frame body (from `r.pos` to `r.end`). Returns false when the frame was skipped (a path the writer's
   * newer dictionary has and this one does not). Leaves the state unchanged when it throws.
   */
  apply(r: Reader): boolean {
    r.at = "";
    r.budget = this.budget;
    const head = r.varint();
    const kind = head & 3;
    const steps = (head - kind) / 4;
    if (kind === 3) {
      r.pos--;
      throw r.fail("INVALID_ENCODING", "frame kind 3 is reserved");
    }
    if (steps < 1 || steps > MAX_STREAM_STEPS) throw r.fail("INVALID_ENCODING", `a frame address of ${steps} steps (1..${MAX_STREAM_STEPS})`);
    if (this.finished) throw r.fail("TRAILING_BYTES", "a frame after the value was complete");
    this.cursor = this.root;
    try {
      const mark = this.undo.length;
      const node = this.locate(r, steps);
      if (node === null) {
        this.rollbackTo(mark);
        return false;
      }
      const entry = this.target;
      r.at = "";
      if (kind === FrameKind.VALUE) this.value(r, node, entry);
      else if (kind === FrameKind.END) this.end(r, node, entry);
      else this.textFrame(r, node, entry);
      this.commit();
      return true;
    } catch (e) {
      if (!this.hold) this.rollback();
      // reader errors carry no path: they happened at the location reached so far
      if (e instanceof ToonError && e.path === "" && this.cursor !== null) e.prefixPath(this.cursor.pointer());
      throw e;
    }
  }

  private rollbackTo(mark: number): void {
    const u = this.undo;
    for (let i = u.length - 4; i >= mark; i -= 4) {
      const node = u[i + 1] as Loc;
      const a = u[i + 2];
      const b = u[i + 3];
      switch (u[i] as number) {
        case U_CONC:
          node.conc = a as number;
          break;
        case U_KIDS:
          node.kids = null;
          break;
        case U_KID:
          node.kids!.delete(a as string | number);
          break;
        case U_BRANCH:
          node.branches!.delete(a as number);
          break;
        case U_TEXT:
          node.conc = a as number;
          node.text = b as string | null;
          break;
        case U_DONE:
          node.done = false;
          node.value = undefined;
          node.kids = a as Map<string | number, Loc> | null;
          node.text = b as string | null;
          if (node === this.root) this.finished = false;
          break;
      }
    }
    u.length = mark;
  }

  private target = -1;

  private fail(r: Reader, at: Loc, reason: string): ToonError {
    return new ToonError("INVALID_ENCODING", `${reason} (byte ${r.pos})`, { path: at.pointer(), offset: r.pos });
  }

  private locate(r: Reader, steps: number): Loc | null {
    const t = this.t;
    let node = this.root;
    let prev = -1;
    for (let s = 0; s < steps; s++) {
      const idAt = r.pos;
      const id = r.varint();
      if (!t.has(id)) {
        if (t.retired.has(id) || this.level > t.spec.level) return null;
        r.pos = idAt;
        throw this.fail(r, node, `unknown path ID ${id}`);
      }
      const scope = t.scope[id]!;
      if (s === 0) {
        if (scope !== t.rootId) {
          r.pos = idAt;
          throw this.fail(r, node, `a frame address must start under the root, not at ${t.path[id]}`);
        }
      } else if (t.type[prev] !== "ref" || t.extra[prev] !== scope) {
        r.pos = idAt;
        throw this.fail(r, node, `step ${t.path[id]} does not continue ${t.path[prev]}`);
      }
      for (const e of t.chainOf(id)) {
        const pe = t.parent[e]!;
        const seg = t.seg[e]!;
        if (seg === StreamSeg.BRANCH) {
          this.branch(r, node, pe, t.arg[e] as number);
          continue;
        }
        let key: string | number;
        if (seg === StreamSeg.PROPERTY || seg === StreamSeg.POSITION) key = t.arg[e]!;
        else if (seg === StreamSeg.ITEMS || seg === StreamSeg.REST) {
          const min = seg === StreamSeg.REST ? t.positional(pe) : 0;
          const row = r.varint();
          if (row < min || row > MAX_STREAM_ROW) {
            r.pos--;
            throw this.fail(r, node, `row ${row} out of range ${min}..${MAX_STREAM_ROW}`);
          }
          if (row >= node.rows) {
            const gap = row - Math.max(node.rows, min);
            if (gap > this.budget.zeroWidth) {
              r.pos--;
              throw this.fail(r, node, `row ${row} leaves ${gap} rows empty, more than the stream's budget of zero-width items allows (maxZeroWidthItems, default ${DEFAULT_MAX_ZERO_WIDTH_ITEMS})`);
            }
            this.budget.zeroWidth -= gap;
            node.rows = row + 1;
          }
          key = row;
        } else {
          key = r.string();
          if (t.props.get(pe)?.has(key)) throw this.fail(r, node, `additional key ${JSON.stringify(key)} repeats a declared property`);
        }
        node = this.child(r, node, pe, e, key);
        this.cursor = node;
      }
      prev = id;
    }
    this.target = prev;
    return node;
  }

  private child(r: Reader, node: Loc, container: number, entry: number, key: string | number): Loc {
    if (node.done) throw this.fail(r, node, "a frame inside a value that is already complete");
    if (node.text !== null) throw this.fail(r, node, "a frame inside a string");
    if (node.conc === -1) {
      node.conc = container;
      this.log(U_CONC, node, -1, null);
    } else if (node.conc !== container) {
      throw this.fail(r, node, `${this.t.path[container]} where ${this.t.path[node.conc]} was already used`);
    }
    let kids = node.kids;
    if (kids === null) {
      kids = node.kids = new Map();
      this.log(U_KIDS, node, null, null);
    }
    let c = kids.get(key);
    if (c === undefined) {
      c = new Loc(node, key, entry);
      kids.set(key, c);
      this.log(U_KID, node, key, null);
    }
    return c;
  }

  private branch(r: Reader, node: Loc, union: number, i: number): void {
    if (node.done) throw this.fail(r, node, "a frame inside a value that is already complete");
    const b = node.branches?.get(union);
    if (b === undefined) {
      (node.branches ??= new Map()).set(union, i);
      this.log(U_BRANCH, node, union, null);
    } else if (b !== i) {
      throw this.fail(r, node, `union branch ${i} of ${this.t.path[union]} where branch ${b} was already used`);
    }
  }

  private concOf(node: Loc, entry: number): number {
    return node.conc !== -1 ? node.conc : this.t.concrete(entry, node.branches);
  }

  private value(r: Reader, node: Loc, entry: number): void {
    if (node.started) throw this.fail(r, node, "VALUE for a location that already has frames");
    let v: unknown;
    if (this.keep) {
      try {
        r.at = "";
        v = this.t.read[entry]!(r);
        if (this.ext) readExtensionSection(r, v, this.t.spec.applyExtensions ?? (() => false), { unknown: "discard" });
        r.at = "";
        r.done();
      } catch (e) {
        rethrowAt(e, node.pointer());
      }
    } else r.pos = r.end;
    this.complete(node, v);
  }

  private textFrame(r: Reader, node: Loc, entry: number): void {
    if (node.done) throw this.fail(r, node, "TEXT for a value that is already complete");
    const c = this.concOf(node, entry);
    if (c < 0 || this.t.type[c] !== "string") throw this.fail(r, node, `TEXT for a location of type ${c < 0 ? "union (branch unknown)" : this.t.type[c]}`);
    const delta = r.string();
    r.done();
    this.log(U_TEXT, node, node.conc, node.text);
    if (node.text === null) node.conc = c;
    node.text = (node.text ?? "") + delta;
    if (this.events !== null) this.events.push({ type: "text", path: this.t.path[node.outer]!, pointer: node.pointer(), delta, text: node.text });
  }

  private end(r: Reader, node: Loc, entry: number): void {
    const t = this.t;
    if (node.done) throw this.fail(r, node, "END for a value that is already complete");
    const c = this.concOf(node, entry);
    if (c < 0) throw this.fail(r, node, "END for a union whose branch no frame has chosen");
    const ty = t.type[c]!;
    let count = -1;
    if (ty === "array" || ty === "tuple" || ty === "map") {
      count = r.varint();
    } else if (ty !== "object" && ty !== "string") {
      throw this.fail(r, node, `END for a location of type ${ty}`);
    }
    r.done();
    const kids = node.kids;
    let v: unknown;
    switch (ty) {
      case "string":
        v = node.text ?? "";
        break;
      case "object": {
        const o: Record<string, unknown> | undefined = this.keep ? {} : undefined;
        const props = (t.extra[c] as number[] | undefined) ?? [];
        const declared = t.props.get(c);
        for (const pid of props) {
          const name = t.arg[pid] as string;
          const kid = kids?.get(name);
          if (kid !== undefined) {
            if (!kid.done) throw this.unfinished(r, node, kid);
            if (o) setOwn(o, name, kid.value);
          } else if (t.flags[pid]! & StreamPathFlag.REQUIRED) {
            const pty = t.type[pid];
            if (pty === "const" || pty === "null") {
              if (o) setOwn(o, name, t.read[pid]!(new Reader(EMPTY)));
            } else if (t.levelOf(pid) <= this.level) {
              throw this.fail(r, node, `object ended without its required property ${JSON.stringify(name)}`);
            }
          }
          // a property added after the writer's dictionary: its default, as whole messages get it
          if (kid === undefined && o && t.levelOf(pid) > this.level && t.fallback[pid] !== undefined) setOwn(o, name, cloneValue(t.fallback[pid]![0]));
        }
        if (kids !== null) {
          for (const [k, kid] of kids) {
            if (declared?.has(k as string)) continue;
            if (!kid.done) throw this.unfinished(r, node, kid);
            if (o) setOwn(o, k as string, kid.value);
          }
        }
        v = o;
        break;
      }
      case "map": {
        const n = kids?.size ?? 0;
        if (count !== n) throw this.fail(r, node, `END says ${count} entries, ${n} arrived`);
        const o: Record<string, unknown> | undefined = this.keep ? {} : undefined;
        if (kids !== null) {
          for (const [k, kid] of kids) {
            if (!kid.done) throw this.unfinished(r, node, kid);
            if (o) setOwn(o, k as string, kid.value);
          }
        }
        v = o;
        break;
      }
      default: {
        // array, tuple
        const n = kids?.size ?? 0;
        if (ty === "tuple") {
          const [min, k] = t.extra[c] as [number, number];
          if (count < min || (!t.rest.has(c) && count > k)) throw this.fail(r, node, `tuple of ${count} items where the schema allows ${min}${t.rest.has(c) ? " or more" : `..${k}`}`);
        }
        if (count !== n) throw this.fail(r, node, `END says ${count} items, ${n} arrived`);
        const a: unknown[] | undefined = this.keep ? [] : undefined;
        for (let i = 0; i < count; i++) {
          const kid = kids!.get(i);
          if (kid === undefined) throw this.fail(r, node, `END says ${count} items, item ${i} never arrived`);
          if (!kid.done) throw this.unfinished(r, node, kid);
          if (a) a.push(kid.value);
        }
        v = a;
      }
    }
    this.log(U_CONC, node, node.conc, null);
    node.conc = c;
    this.complete(node, v);
  }

  private unfinished(r: Reader, node: Loc, kid: Loc): ToonError {
    return this.fail(r, kid, `${node.pointer() || "the root"} ended while ${kid.pointer()} is incomplete`);
  }

  private complete(node: Loc, v: unknown): void {
    this.log(U_DONE, node, node.kids, node.text);
    node.done = true;
    node.value = v;
    node.kids = null;
    node.text = null;
    if (node === this.root) this.finished = true;
    if (this.events === null) return;
    const t = this.t;
    const pointer = node.pointer();
    const parent = node.parent;
    if (parent === null) {
      this.events.push({ type: "value", path: "$", pointer: "", value: v as T });
      return;
    }
    const path = t.path[node.outer]!;
    const seg = t.seg[node.outer];
    if (seg === StreamSeg.ITEMS || seg === StreamSeg.REST) {
      this.events.push({ type: "element", path, pointer, index: node.key as number, value: v } as ElementEvent<P>);
    } else {
      this.events.push({ type: "field", path, pointer, value: v } as FieldEvent<P>);
    }
  }

  // ---- views

  snapshot(node: Loc, partialText: boolean): unknown {
    if (node.done) return cloneValue(node.value);
    if (node.text !== null) return partialText ? node.text : undefined;
    const t = this.t;
    const ty = node.conc >= 0 ? t.type[node.conc] : undefined;
    if (ty === "array" || ty === "tuple") {
      const a: unknown[] = [];
      if (node.kids !== null) {
        for (const [k, kid] of node.kids) {
          const v = this.snapshot(kid, partialText);
          if (v !== undefined) a[k as number] = v;
        }
      }
      return a;
    }
    if (ty === "object" || ty === "map") {
      const o: Record<string, unknown> = {};
      if (node.kids === null) return o;
      if (ty === "object") {
        for (const pid of (t.extra[node.conc] as number[] | undefined) ?? []) {
          const kid = node.kids.get(t.arg[pid] as string);
          if (kid === undefined) continue;
          const v = this.snapshot(kid, partialText);
          if (v !== undefined) setOwn(o, t.arg[pid] as string, v);
        }
      }
      const declared = ty === "object" ? t.props.get(node.conc) : undefined;
      for (const [k, kid] of node.kids) {
        if (declared?.has(k as string)) continue;
        const v = this.snapshot(kid, partialText);
        if (v !== undefined) setOwn(o, k as string, v);
      }
      return o;
    }
    return undefined;
  }

  /** What the value still lacks: required properties not there, and locations not finished (innermost first). */
  missing(): MissingPart[] {
    const out: MissingPart[] = [];
    const t = this.t;
    const visit = (node: Loc): void => {
      if (node.done) return;
      const entry = node.conc >= 0 ? node.conc : t.concrete(node.outer, node.branches);
      const ty = entry >= 0 ? t.type[entry] : "union";
      const where = t.path[node.outer]!;
      if (node.text !== null) {
        out.push({ path: node.pointer(), dictionaryPath: where, kind: "unfinished", message: `string still arriving (${node.text.length} characters so far)` });
        return;
      }
      if (ty === "object") {
        for (const pid of (t.extra[entry] as number[] | undefined) ?? []) {
          const name = t.arg[pid] as string;
          const kid = node.kids?.get(name);
          if (kid !== undefined) visit(kid);
          else if (t.flags[pid]! & StreamPathFlag.REQUIRED && t.type[pid] !== "const" && t.type[pid] !== "null") {
            out.push({ path: node.pointer() + pointerSegment(name), dictionaryPath: t.path[pid]!, kind: "required", message: "required, never arrived" });
          }
        }
        const declared = t.props.get(entry);
        if (node.kids !== null) for (const [k, kid] of node.kids) if (!declared?.has(k as string)) visit(kid);
      } else if (node.kids !== null) {
        for (const kid of node.kids.values()) visit(kid);
      }
      out.push({ path: node.pointer(), dictionaryPath: where, kind: node.started ? "unfinished" : "required", message: node.started ? "not ended" : "never arrived" });
    };
    visit(this.root);
    return out;
  }
}

/** One thing an incomplete stream lacks (`StreamDecoder.missing()`, and the details of INCOMPLETE). */
export interface MissingPart {
  /** JSON pointer of the location. */
  path: string;
  /** Its dictionary path (`calls[].args.date`). */
  dictionaryPath: string;
  /** `required`: a required value none of whose frames arrived; `unfinished`: started, not complete; `stream`: the transport. */
  kind: "required" | "unfinished" | "stream";
  message: string;
}

function cloneValue(v: unknown): unknown {
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) return v.map(cloneValue);
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(v)) setOwn(o, k, cloneValue((v as Record<string, unknown>)[k]));
  return o;
}

/** Rebase a decoding error onto the stream: absolute byte offset, frame number. */
function streamError(e: unknown, offset: number, frame: number): ToonError {
  if (!(e instanceof ToonError)) {
    if (e instanceof RangeError) return new ToonError("DEPTH_LIMIT", "nesting too deep for the call stack", { cause: e, offset });
    throw e;
  }
  const reason = e.reason.replace(/ \(byte \d+\)$/, "");
  const at = e.offset !== undefined ? offset + e.offset : offset;
  return new ToonError(e.code, `${reason} (frame ${frame}, stream byte ${at})`, { path: e.path, offset: at, cause: e, ...(e.details ? { details: e.details } : {}) });
}

// ---------------------------------------------------------------------------------------------------------------
// Decoder

export class StreamDecoder<T = unknown, P extends PathMap = PathMap> {
  /** The stream header, once its bytes have arrived. */
  header: Header | undefined;
  /** Complete frames applied so far (the header not counted). */
  frames = 0;
  /** Bytes consumed so far (header and complete frames). */
  bytes = 0;
  private readonly asm: Assembly<T, P>;
  private readonly t: PathTable;
  private acc: Uint8Array = EMPTY;
  private accLen = 0;
  private failed: ToonError | undefined;
  private readonly maxFrame: number;
  private readonly onEvent: ((e: StreamEvent<T, P>) => void) | undefined;

  constructor(
    readonly spec: StreamSpec,
    options: StreamDecoderOptions<T, P> = {},
  ) {
    this.t = tableOf(spec);
    optionsArg(options, "StreamDecoder");
    this.asm = new Assembly<T, P>(this.t, true, limitOf(options.maxZeroWidthItems, DEFAULT_MAX_ZERO_WIDTH_ITEMS, "maxZeroWidthItems"));
    this.maxFrame = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.onEvent = options.onEvent;
  }

  /** True once the whole value has arrived. */
  get done(): boolean {
    return this.asm.finished;
  }

  /** The complete value (throws INCOMPLETE until `done`). */
  get value(): T {
    if (!this.asm.finished) throw this.incomplete();
    return this.asm.root.value as T;
  }

  /**
   * Feed bytes, split anywhere (a frame may span chunks, a chunk may hold many frames). Returns the events of
   * the frames this chunk completed. A decoding error is thrown now and again by every later call.
   */
  push(chunk: Uint8Array): StreamEvent<T, P>[] {
    if (this.failed) throw this.failed;
    if (!(chunk instanceof Uint8Array)) {
      throw (this.failed = new ToonError("INVALID_ENCODING", "expected a Uint8Array chunk, got " + typeof chunk));
    }
    const events: StreamEvent<T, P>[] = [];
    this.asm.events = events;
    let buf: Uint8Array;
    let end: number;
    if (this.accLen === 0) {
      buf = chunk;
      end = chunk.length;
    } else {
      this.reserve(this.accLen + chunk.length);
      this.acc.set(chunk, this.accLen);
      this.accLen += chunk.length;
      buf = this.acc;
      end = this.accLen;
    }
    let pos = 0;
    const base = this.bytes;
    try {
      pos = this.consume(buf, end);
    } catch (e) {
      this.failed = streamError(e, base, this.frames + 1);
      this.asm.events = null;
      throw this.failed;
    }
    const left = end - pos;
    if (left === 0) this.accLen = 0;
    else if (buf === chunk) {
      this.reserve(left);
      this.acc.set(chunk.subarray(pos, end), 0);
      this.accLen = left;
    } else {
      this.acc.copyWithin(0, pos, end);
      this.accLen = left;
    }
    this.asm.events = null;
    if (this.onEvent) for (const e of events) this.onEvent(e);
    return events;
  }

  private reserve(n: number): void {
    if (this.acc.length >= n) return;
    const next = new Uint8Array(Math.max(n, this.acc.length * 2, 256));
    next.set(this.acc.subarray(0, this.accLen));
    this.acc = next;
  }

  /** Process the header and every complete frame in buf[0, end); returns where the unprocessed bytes start. */
  private consume(buf: Uint8Array, end: number): number {
    let pos = 0;
    if (this.header === undefined) {
      const r = new Reader(buf, 0, end);
      let h: Header;
      try {
        h = peekHeader(r);
      } catch (e) {
        if (e instanceof ToonError && e.code === "TRUNCATED") return 0;
        throw e;
      }
      this.checkHeader(h);
      this.header = h;
      this.asm.level = h.level;
      this.asm.ext = (h.flags & Flag.EXTENSIONS) !== 0;
      pos = r.pos;
      this.bytes += pos;
    }
    while (pos < end) {
      if (this.asm.finished) {
        throw new ToonError("TRAILING_BYTES", `${end - pos} bytes after the complete value`, { offset: pos });
      }
      // length prefix
      let len = 0;
      let p = pos;
      let shift = 1;
      for (;;) {
        if (p >= end) return pos;
        const b = buf[p++]!;
        len += (b & 0x7f) * shift;
        if (b < 0x80) break;
        shift *= 128;
        if (shift > 2 ** 35) throw new ToonError("INVALID_ENCODING", "frame length varint too long", { offset: pos });
      }
      if (len === 0) throw new ToonError("INVALID_ENCODING", "empty frame", { offset: pos });
      if (len > this.maxFrame) throw new ToonError("INVALID_ENCODING", `frame of ${len} bytes exceeds the limit of ${this.maxFrame}`, { offset: pos });
      if (end - p < len) return pos;
      const r = new Reader(buf, p, p + len);
      r.level = this.asm.level;
      this.asm.apply(r);
      this.frames++;
      this.bytes += p + len - pos;
      pos = p + len;
    }
    return pos;
  }

  private checkHeader(h: Header): void {
    if (h.version !== FORMAT_VERSION) {
      throw new ToonError("UNSUPPORTED_VERSION", `format version ${h.version}; this runtime reads version ${FORMAT_VERSION}`, { offset: 4 });
    }
    if (h.fingerprint === undefined) {
      throw new ToonError("FINGERPRINT_MISMATCH", `stream has no dictionary fingerprint; ${this.spec.name} expects ${hex16(this.spec.fingerprint)}`, { offset: 5 });
    }
    if (h.fingerprint !== this.spec.fingerprint) {
      throw new ToonError(
        "FINGERPRINT_MISMATCH",
        `stream was written with dictionary fingerprint ${hex16(h.fingerprint)}, but ${this.spec.name} expects ${hex16(this.spec.fingerprint)}: the sender and receiver use different dictionaries`,
        { offset: 7 },
      );
    }
    if ((h.flags & Flag.STREAM) === 0) {
      throw new ToonError("UNSUPPORTED_FLAGS", `header flags ${hex16(h.flags)} lack STREAM (0x0010): this is a whole message, decode it with ${this.spec.name}.decode()`, { offset: 5 });
    }
    const defaults = (this.spec.flags ?? 0) & Flag.DEFAULTS;
    if (defaults !== 0 && (h.flags & Flag.DEFAULTS) === 0) {
      // as for whole messages: the fingerprint of a codec with default-value tables covers them
      throw new ToonError("FINGERPRINT_MISMATCH", `stream has fingerprint ${hex16(h.fingerprint)} but not the DEFAULTS flag, and ${this.spec.name} reads only values written with its default-value tables`, { offset: 5 });
    }
    const unknown = h.flags & ~(HEADER_FLAGS | Flag.EXTENSIONS | defaults);
    if (unknown !== 0) throw new ToonError("UNSUPPORTED_FLAGS", `header flags ${hex16(unknown)} are not supported in a stream`, { offset: 5 });
  }

  /**
   * The value as far as it has arrived: completed parts are final (and copies); parts still missing are absent
   * (array items not started are holes). `partialText` includes strings still arriving through TEXT frames.
   * Undefined before anything of the value has arrived.
   */
  snapshot(options: { partialText?: boolean } = {}): PartialValue<T> | undefined {
    const root = this.asm.root;
    if (!root.started) return undefined;
    return this.asm.snapshot(root, options.partialText === true) as PartialValue<T>;
  }

  /** What is still missing: required values that never arrived, locations not finished (empty once `done`). */
  missing(): MissingPart[] {
    if (this.asm.finished) return [];
    const out: MissingPart[] = [];
    if (this.header === undefined) out.push({ path: "", dictionaryPath: "$", kind: "stream", message: "the stream header never arrived" });
    if (this.accLen > 0 && this.header !== undefined) out.push({ path: "", dictionaryPath: "$", kind: "stream", message: `the last frame was cut off after ${this.accLen} bytes` });
    out.push(...this.asm.missing());
    return out;
  }

  /**
   * The transport is closed: returns the value if it is complete, else throws INCOMPLETE naming what is
   * missing (required values that never arrived, locations not finished, a cut-off frame; all of them in
   * `details`). The partial state stays readable through `snapshot()`.
   */
  end(): T {
    if (this.failed) throw this.failed;
    if (!this.asm.finished) throw this.incomplete();
    return this.asm.root.value as T;
  }

  private incomplete(): ToonError {
    const parts = this.missing();
    const name = (m: MissingPart): string => (m.path === "" ? `the root (${m.dictionaryPath})` : `${m.path} (${m.dictionaryPath})`);
    const list = (ms: MissingPart[], max: number): string =>
      ms
        .slice(0, max)
        .map((m) => (m.kind === "unfinished" && m.message !== "not ended" ? `${name(m)}: ${m.message}` : name(m)))
        .join(", ") + (ms.length > max ? ` and ${ms.length - max} more` : "");
    const required = parts.filter((m) => m.kind === "required");
    const unfinished = parts.filter((m) => m.kind === "unfinished");
    const stream = parts.filter((m) => m.kind === "stream");
    const what = [
      ...stream.map((m) => m.message),
      ...(required.length > 0 ? [`missing ${list(required, 8)}`] : []),
      ...(unfinished.length > 0 ? [`not finished: ${list(unfinished, 6)}`] : []),
    ].join("; ");
    return new ToonError("INCOMPLETE", `${this.spec.name} stream ended before the value was complete (${this.frames} frames): ${what}`, {
      path: (required[0] ?? unfinished[0])?.path ?? "",
      details: parts.map((m) => ({ path: m.path, message: `${m.dictionaryPath}: ${m.message}` })),
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Encoder

type Token = string | number;
type Pointer = string | readonly Token[];

interface Step {
  id: number;
  dyn: readonly Token[];
}

/**
 * Where the encoder is in the schema: the address of a location built so far. `closed` are the steps that end
 * at a ref, `dyn` the rows and keys of the open step, `entry` the path ID the location hangs off its parent by.
 * Cursors are immutable (a child copies what it changes), so a container's cursor can be kept and reused.
 */
interface Cursor {
  closed: readonly Step[];
  dyn: readonly Token[];
  entry: number;
  tokens: readonly Token[];
  /** The mirror location when the cursor was made (for branches earlier frames chose). */
  node: Loc | undefined;
}

function parsePointer(p: Pointer): Token[] {
  if (typeof p !== "string") return [...p];
  if (p === "") return [];
  if (p.charCodeAt(0) !== 47) throw new ToonError("INVALID_VALUE", `${JSON.stringify(p)} is not a JSON pointer (it must be "" or start with "/")`);
  return p
    .slice(1)
    .split("/")
    .map((s) => (s.indexOf("~") === -1 ? s : s.replace(/~1/g, "/").replace(/~0/g, "~")));
}

function pointerOf(tokens: readonly Token[]): string {
  let s = "";
  for (const t of tokens) s += pointerSegment(t);
  return s;
}

function indexToken(tok: Token): number {
  if (typeof tok === "number") return Number.isInteger(tok) && tok >= 0 && tok <= MAX_STREAM_ROW ? tok : -1;
  if (!/^(0|[1-9][0-9]{0,9})$/.test(tok)) return -1;
  const n = Number(tok);
  return n <= MAX_STREAM_ROW ? n : -1;
}

const scratch = new Writer(256);

/** Payload kinds of `StreamEncoder.make`. */
const P_NONE = 0;
const P_VALUE = 1;
const P_COUNT = 2;
const P_TEXT = 3;

/**
 * Makes the frames of one stream. Each method returns the frames it made (the first call also returns the
 * header) and hands them to `onFrame`. Frames are checked against a mirror of the receiver's state before they
 * are released, so a call that throws (INVALID_VALUE) sends nothing and leaves the stream usable.
 */
export class StreamEncoder<T = unknown, P extends PathMap = PathMap> {
  /** Frames made so far (the header counted). */
  frames = 0;
  /** Bytes made so far. */
  bytes = 0;
  /** @internal */
  readonly t: PathTable;
  private readonly mirror: Assembly<T, P>;
  private readonly w = new Writer(512);
  private headerSent = false;
  private readonly pins = new Map<string, number>();
  private readonly onFrame: ((f: Uint8Array) => void) | undefined;
  private readonly feeds = new Map<string, JsonFeed>();
  /** The text being read (`text()`), until `end()`. */
  private textFeed: TextFeed | undefined;

  constructor(
    readonly spec: StreamSpec,
    options: StreamEncoderOptions = {},
  ) {
    this.t = tableOf(spec);
    optionsArg(options, "StreamEncoder");
    // the mirror checks structure only: the receiver's budgets are its own choice
    this.mirror = new Assembly<T, P>(this.t, false, Infinity);
    this.mirror.level = spec.level;
    this.onFrame = options.onFrame;
  }

  /** True once the root is complete (nothing more may be sent). */
  get done(): boolean {
    return this.mirror.finished;
  }

  /** The header frame (made once; the first frame-making call includes it when it was not taken here). */
  header(): Uint8Array[] {
    if (this.headerSent) return [];
    return this.release([]);
  }

  /** The value at `pointer` is complete: one VALUE frame. */
  set(pointer: Pointer, value: unknown): Uint8Array[] {
    return this.setAt(this.address(parsePointer(pointer), { value, final: true }), value);
  }

  /** More text of the string at `pointer` (a TEXT frame); finish it with `end(pointer)`. */
  append(pointer: Pointer, text: string): Uint8Array[] {
    return this.appendAt(this.address(parsePointer(pointer), {}), text);
  }

  /**
   * The container (or TEXT string) at `pointer` is complete: its END frame, after the END frames of whatever
   * inside it is still open. `end()` finishes the whole value (after `text()`: the text is over, see there).
   */
  end(pointer: Pointer = ""): Uint8Array[] {
    const tokens = parsePointer(pointer);
    const feed = this.textFeed;
    if (tokens.length === 0 && feed !== undefined) {
      // the text is over: what its end completes, or nothing when the value already completed (a closed fence)
      const frames = feed.complete ? [] : feed.end();
      this.textFeed = undefined;
      return frames;
    }
    return this.endOpen(tokens);
  }

  /** @internal END frames of the location at `tokens` and whatever inside it is still open. */
  endOpen(tokens: readonly Token[]): Uint8Array[] {
    const node = this.find(tokens);
    if (node !== undefined && node.done) throw new ToonError("INVALID_VALUE", "already complete", { path: pointerOf(tokens) });
    // inner open locations first, deepest first
    const inner: Loc[] = [];
    const collect = (n: Loc): void => {
      if (n.kids === null) return;
      for (const k of n.kids.values()) {
        if (k.done) continue;
        collect(k);
        inner.push(k);
      }
    };
    if (node !== undefined) collect(node);
    const frames: Uint8Array[] = [];
    for (const n of inner) frames.push(this.endFrame(this.address(n.tokens(), {}), n));
    frames.push(this.endFrame(this.address(tokens, {}), node));
    return this.release(this.check(frames));
  }

  /** Choose the branch of the union at `pointer` before its first frame (when the encoder cannot tell). */
  branch(pointer: Pointer, index: number): void {
    this.pins.set(pointerOf(parsePointer(pointer)), index);
  }

  /**
   * Frames for a whole value (at the root, or `options.at`), in field order: one VALUE per scalar (or per
   * container at `options.depth`), END after each container. The frames are released only if the whole value
   * is valid.
   */
  encodeIncremental(value: unknown, options: IncrementalOptions = {}): Uint8Array[] {
    if (options.at !== undefined && typeof options.at !== "string") throw new ToonError("CONFIG_ERROR", `frames options: "at" must be a JSON pointer (a string), got ${options.at === null ? "null" : typeof options.at}`);
    const tokens = options.at === undefined ? [] : parsePointer(options.at);
    const c = this.address(tokens, { value, final: true });
    const node = this.find(tokens);
    if (node !== undefined && node.started) throw new ToonError("INVALID_VALUE", "location already has frames", { path: pointerOf(tokens) });
    const inc = new Incremental(this, options, c);
    try {
      inc.walk(value, c.entry, tokens.length);
    } catch (e) {
      // a revoked Proxy or a stack overflow met outside the walk's own catches; the user's errors pass unchanged
      throw e instanceof ToonError ? e : hostError(e, pointerOf(tokens));
    }
    // the mirror takes the subtree as one complete location
    this.applyMirror([this.make(FrameKind.VALUE, c.closed, c.entry, c.dyn, P_NONE, null, 0, tokens)]);
    return this.release(inc.frames);
  }

  /**
   * JSON text of the value at `at` (default the root), in pieces split anywhere, as a model streams tool-call
   * arguments: plain strings go out as TEXT frames while they arrive, other scalars as VALUE frames when they
   * end, containers get their END when they close. Parts the schema cannot place before they end (a union whose
   * branch the JSON type does not decide, `any`) are sent whole once complete.
   */
  json(delta: string, at: Pointer = ""): Uint8Array[] {
    const tokens = parsePointer(at);
    const key = pointerOf(tokens);
    let feed = this.feeds.get(key);
    if (feed === undefined) this.feeds.set(key, (feed = new JsonFeed(this, this.address(tokens, {}))));
    const frames = feed.push(delta);
    if (feed.finished) this.feeds.delete(key);
    return frames;
  }

  /**
   * A model's reply (or, with `{ input: "text" }`, bare TOON v4, dense or JSON text) in pieces split anywhere, as
   * the model streams it, made into frames as its values complete. Each piece is read by the codec's streaming
   * text reader (`Codec.reader()`): an item of an array that no other array item holds (a table row or list item:
   * an order of `orders`, its line items inside it) and a member of the root each go out as one VALUE frame as
   * soon as they are read and checked; when a container some of whose parts went out is complete (the table, the
   * root), the parts that did not go out follow, then its END. The receiver's value is the one `fromModelOutput`
   * (or `fromText`) reads, except that schema defaults and JSON Schema constraints, which the stream spec does not
   * carry, are not applied.
   *
   * A reply's value is complete once its payload is (a closed fence, say): the END frames go out then, and the
   * rest of the reply is read and ignored. `end()` says the text is over: it sends what the end completes (the
   * last row of unfenced text, the END frames), or nothing when the value is complete already; without it the
   * receiver's value stays INCOMPLETE. The reader's errors (ToonError with code, path, line and column: a
   * malformed line, a value the schema refuses, INCOMPLETE or NO_PAYLOAD from `end()`) are thrown by the call
   * that reads them; what completed before the error went out (frames the failing call made before it are given
   * to `onFrame`), and the text makes no more frames: later calls throw the same error. `options` are read by the
   * call that starts the text. The text is the whole value: the root must have no frames yet, and `text()` after
   * `end()` is INVALID_VALUE.
   */
  text(delta: string, options: TextStreamOptions = {}): Uint8Array[] {
    let feed = this.textFeed;
    if (feed === undefined) {
      if (this.done) throw new ToonError("INVALID_VALUE", "the value is complete: no more text is read into it");
      if (this.mirror.root.started) throw new ToonError("INVALID_VALUE", "the root already has frames: text() feeds a whole value");
      this.textFeed = feed = new TextFeed(this, options);
    }
    return feed.push(delta);
  }

  // ---- internals (used by Incremental, JsonFeed and TextFeed)

  /** @internal VALUE at a cursor. */
  setAt(c: Cursor, value: unknown): Uint8Array[] {
    return this.release(this.check([this.make(FrameKind.VALUE, c.closed, c.entry, c.dyn, P_VALUE, value, c.entry, c.tokens)]));
  }

  /** @internal TEXT at a cursor. */
  appendAt(c: Cursor, text: string): Uint8Array[] {
    if (typeof text !== "string") throw new ToonError("INVALID_VALUE", `expected text, got ${typeof text}`, { path: pointerOf(c.tokens) });
    const k = this.concrete(c);
    return this.release(this.check([this.make(FrameKind.TEXT, k.closed, k.entry, k.dyn, P_TEXT, text, 0, c.tokens)]));
  }

  /** @internal END at a cursor (its inner locations must be complete). */
  endAt(c: Cursor): Uint8Array[] {
    return this.release(this.check([this.endFrame(c, this.find(c.tokens))]));
  }

  /** @internal */
  release(frames: Uint8Array[]): Uint8Array[] {
    if (!this.headerSent) {
      this.headerSent = true;
      const w = this.w;
      w.reset();
      writeHeader(w, streamFlags(this.spec), this.spec.fingerprint, this.spec.level);
      frames = [w.buf.slice(0, w.pos), ...frames];
    }
    for (const f of frames) {
      this.frames++;
      this.bytes += f.length;
      if (this.onFrame) this.onFrame(f);
    }
    return frames;
  }

  /** @internal Apply frames to the mirror (all or none); a refusal is INVALID_VALUE. */
  check(frames: Uint8Array[]): Uint8Array[] {
    this.applyMirror(frames);
    return frames;
  }

  private applyMirror(frames: Uint8Array[]): void {
    const readers: Reader[] = [];
    for (const f of frames) {
      // skip the length prefix
      let p = 0;
      while (f[p]! >= 0x80) p++;
      readers.push(new Reader(f, p + 1, f.length));
    }
    try {
      this.mirror.applyAll(readers);
    } catch (e) {
      if (e instanceof ToonError && e.code !== "INVALID_VALUE") {
        throw new ToonError("INVALID_VALUE", e.reason.replace(/ \(byte \d+\)$/, ""), { path: e.path, cause: e });
      }
      throw e;
    }
  }

  /** @internal The mirror location at `tokens`, if it exists. */
  find(tokens: readonly Token[]): Loc | undefined {
    let n: Loc | undefined = this.mirror.root;
    for (const tok of tokens) {
      if (n === undefined || n.kids === null) return undefined;
      const k: Token = typeof tok === "number" ? tok : n.kids.has(tok) ? tok : indexToken(tok) >= 0 ? indexToken(tok) : tok;
      n = n.kids.get(k);
    }
    return n;
  }

  private endFrame(c: Cursor, node: Loc | undefined): Uint8Array {
    const k = node === undefined || node.conc < 0 ? this.concrete(c) : c;
    const conc = node !== undefined && node.conc >= 0 ? node.conc : this.t.concrete(k.entry, node?.branches, (u) => this.branchAt(c.tokens, node, u));
    const ty = conc >= 0 ? this.t.type[conc] : undefined;
    const count = ty === "array" || ty === "tuple" || ty === "map" ? (node?.kids?.size ?? 0) : -1;
    return this.make(FrameKind.END, k.closed, k.entry, k.dyn, count < 0 ? P_NONE : P_COUNT, null, count, c.tokens);
  }

  private branchAt(tokens: readonly Token[], node: Loc | undefined, union: number): number | undefined {
    return node?.branches?.get(union) ?? this.pins.get(pointerOf(tokens) + "\u0000" + union) ?? this.pins.get(pointerOf(tokens));
  }

  /** @internal Pin the branch of `union` at a location (JSON mode). */
  pin(tokens: readonly Token[], union: number, branch: number): void {
    this.pins.set(pointerOf(tokens) + "\u0000" + union, branch);
  }

  /**
   * @internal One frame: length, head, address (`closed` steps, then `id` with `dyn`), payload: nothing, the
   * value `x` at path `entry` (its ordinary encoding), a count `n`, or the text `x`.
   */
  make(kind: number, closed: readonly Step[], id: number, dyn: readonly Token[], payload: number, x: unknown, n: number, tokens: readonly Token[] | (() => readonly Token[])): Uint8Array {
    const w = this.w;
    w.reset();
    w.ensure(8);
    w.pos = 5;
    w.varint((closed.length + 1) * 4 + kind);
    for (let i = 0; i < closed.length; i++) this.step(w, closed[i]!.id, closed[i]!.dyn);
    this.step(w, id, dyn);
    switch (payload) {
      case P_VALUE:
        try {
          this.t.write[n]!(w, x);
        } catch (e) {
          rethrowAt(e, pointerOf(typeof tokens === "function" ? tokens() : tokens));
        }
        if (this.spec.level > 0) writeExtensionSection(w, undefined);
        break;
      case P_COUNT:
        w.varint(n);
        break;
      case P_TEXT:
        if (!w.string(x as string)) throw new ToonError("INVALID_VALUE", "text holds a lone surrogate", { path: pointerOf(typeof tokens === "function" ? tokens() : tokens) });
        break;
    }
    const len = w.pos - 5;
    let size = 1;
    for (let m = len; m >= 0x80; m = Math.floor(m / 128)) size++;
    let p = 5 - size;
    const start = p;
    let m = len;
    while (m >= 0x80) {
      w.buf[p++] = (m % 128) | 0x80;
      m = Math.floor(m / 128);
    }
    w.buf[p] = m;
    return w.buf.slice(start, w.pos);
  }

  private step(w: Writer, id: number, dyn: readonly Token[]): void {
    w.varint(id);
    for (let i = 0; i < dyn.length; i++) {
      const d = dyn[i]!;
      if (typeof d === "number") w.varint(d);
      else if (!w.string(d)) throw new ToonError("INVALID_VALUE", "key holds a lone surrogate");
    }
  }

  /** @internal The cursor of the root. */
  root(): Cursor {
    return { closed: [], dyn: [], entry: this.t.rootId, tokens: [], node: this.mirror.root };
  }

  /**
   * @internal The address of the location at `tokens`. Union branches come from earlier frames, `branch()`,
   * the discriminator (when the frame sets it), or the only branch that can hold the next token.
   */
  address(tokens: readonly Token[], op: { value?: unknown; final?: boolean }): Cursor {
    let c = this.root();
    for (let i = 0; i < tokens.length; i++) c = this.child(c, tokens[i]!, i === tokens.length - 1 && op.final === true, op.value);
    return c;
  }

  /** @internal Down from a container's cursor by one token: through refs (a new step) and unions (a branch). */
  child(c: Cursor, tok: Token, final: boolean, value?: unknown): Cursor {
    return this.stepIn(this.enter(c, tok, final, value), tok);
  }

  /** @internal From a location to its container type: through refs (a new step each) and unions (a branch). */
  enter(c: Cursor, tok: Token, final: boolean, value?: unknown): Cursor {
    const t = this.t;
    let closed = c.closed;
    let dyn = c.dyn;
    let entry = c.entry;
    for (let guard = 0; ; guard++) {
      if (guard > 1000) throw new ToonError("INVALID_VALUE", "cannot resolve the schema at this location", { path: pointerOf(c.tokens) });
      const ty = t.type[entry];
      if (ty === "ref") {
        if (closed.length >= MAX_STREAM_STEPS - 1) throw new ToonError("DEPTH_LIMIT", `more than ${MAX_STREAM_STEPS} steps`, { path: pointerOf(c.tokens) });
        closed = [...closed, { id: entry, dyn }];
        dyn = [];
        entry = t.extra[entry] as number;
      } else if (ty === "union") {
        entry = t.branches.get(entry)![this.chooseBranch(entry, c.node, c.tokens, tok, final, value)]!;
      } else break;
    }
    return closed === c.closed && entry === c.entry ? c : { closed, dyn, entry, tokens: c.tokens, node: c.node };
  }

  /** @internal One token down from a cursor at a container type (object, map, array, tuple). */
  stepIn(c: Cursor, tok: Token): Cursor {
    const t = this.t;
    let dyn = c.dyn;
    let entry = c.entry;
    const ty = t.type[entry];
    let key: Token;
    if (ty === "object" || ty === "map") {
      const name = String(tok);
      const pid = ty === "object" ? t.props.get(entry)?.get(name) : undefined;
      if (pid !== undefined) entry = pid;
      else {
        const add = t.additional.get(entry);
        if (add === undefined) throw stepError(c, tok, `unknown property ${JSON.stringify(name)} (the schema allows no additional properties)`);
        entry = add;
        dyn = [...dyn, name];
      }
      key = name;
    } else if (ty === "array") {
      const row = indexToken(tok);
      if (row < 0) throw stepError(c, tok, `${JSON.stringify(tok)} is not an array index`);
      entry = t.items.get(entry)!;
      dyn = [...dyn, row];
      key = row;
    } else if (ty === "tuple") {
      const idx = indexToken(tok);
      if (idx < 0) throw stepError(c, tok, `${JSON.stringify(tok)} is not an array index`);
      const pos = t.positions.get(entry) ?? [];
      if (idx < pos.length) entry = pos[idx]!;
      else {
        const rest = t.rest.get(entry);
        if (rest === undefined) throw stepError(c, tok, `index ${idx} beyond the tuple's ${pos.length} items`);
        entry = rest;
        dyn = [...dyn, idx];
      }
      key = idx;
    } else {
      throw stepError(c, tok, `cannot address inside a value of type ${ty}`);
    }
    return { closed: c.closed, dyn, entry, tokens: [...c.tokens, key], node: c.node?.kids?.get(key) };
  }

  /**
   * @internal TEXT and END must name the location's type: on through unions whose branch is known, and through
   * a ref whose definition is a union.
   */
  concrete(c: Cursor): Cursor {
    const t = this.t;
    let { closed, dyn, entry } = c;
    const node = c.node ?? this.find(c.tokens);
    for (let guard = 0; guard < 1000; guard++) {
      const ty = t.type[entry];
      if (ty === "union") {
        const b = this.branchAt(c.tokens, node, entry);
        if (b === undefined) break;
        entry = t.branches.get(entry)![b]!;
      } else if (ty === "ref" && t.type[t.extra[entry] as number] === "union") {
        closed = [...closed, { id: entry, dyn }];
        dyn = [];
        entry = t.extra[entry] as number;
      } else break;
    }
    return { closed, dyn, entry, tokens: c.tokens, node };
  }

  private chooseBranch(union: number, node: Loc | undefined, here: readonly Token[], tok: Token, final: boolean, value: unknown): number {
    const t = this.t;
    const chosen = node?.branches?.get(union);
    if (chosen !== undefined) return chosen;
    const ptr = pointerOf(here);
    const pinned = this.pins.get(ptr + "\u0000" + union) ?? this.pins.get(ptr);
    const branches = t.branches.get(union)!;
    if (pinned !== undefined) {
      if (!(pinned >= 0 && pinned < branches.length)) throw new ToonError("INVALID_VALUE", `branch ${pinned} out of range`, { path: ptr });
      return pinned;
    }
    const disc = t.extra[union] as [string, unknown[]] | null;
    if (disc !== null && disc !== undefined && final && tok === disc[0]) {
      const i = disc[1].indexOf(value);
      if (i < 0) {
        throw new ToonError("INVALID_VALUE", `expected one of ${disc[1].map((x) => JSON.stringify(x)).join(", ")}, got ${JSON.stringify(value)}`, {
          path: ptr + pointerSegment(tok),
        });
      }
      return i;
    }
    // the only branch that can hold this token
    const fits: number[] = [];
    branches.forEach((b, i) => {
      const c = t.concrete(b, null);
      const ty = c >= 0 ? t.type[c] : "union";
      if (ty === "object" ? t.props.get(c)?.has(String(tok)) || t.additional.has(c) : ty === "map" ? true : ty === "array" || ty === "tuple" ? indexToken(tok) >= 0 : ty === "union") fits.push(i);
    });
    if (fits.length === 1) return fits[0]!;
    throw new ToonError(
      "INVALID_VALUE",
      `cannot tell which branch of ${t.path[union]} holds ${JSON.stringify(tok)}: ${disc ? `set the discriminator ${JSON.stringify(disc[0])} first, or ` : ""}call branch(${JSON.stringify(ptr)}, index)`,
      { path: ptr },
    );
  }
}

function stepError(c: Cursor, tok: Token, why: string): ToonError {
  return new ToonError("INVALID_VALUE", why, { path: pointerOf([...c.tokens, tok]) });
}

/** `encodeIncremental`: walks a value along the path table, making frames in field order. */
class Incremental {
  readonly frames: Uint8Array[] = [];
  /** Closed steps (each ends at a ref), then the open one's dynamic parts. */
  private readonly closed: Step[];
  private open: Token[];
  /** JSON pointer tokens of the location being walked (for errors). */
  private readonly path: Token[];
  private readonly maxDepth: number;
  private readonly textChunk: number;
  private readonly t: PathTable;
  private readonly tokens = (): readonly Token[] => this.path;
  /** The location being walked as a JSON pointer, built only when an error needs it. */
  private readonly here = (): string => pointerOf(this.path);

  constructor(
    private readonly enc: StreamEncoder<any, any>,
    options: IncrementalOptions,
    c: Cursor,
  ) {
    this.t = enc.t;
    this.closed = [...c.closed];
    this.open = [...c.dyn];
    this.path = [...c.tokens];
    this.maxDepth = options.depth ?? Infinity;
    this.textChunk = options.textChunk ?? 0;
  }

  private fail(code: "INVALID_VALUE" | "DEPTH_LIMIT", reason: string, key?: Token): ToonError {
    return new ToonError(code, reason, { path: pointerOf(key === undefined ? this.path : [...this.path, key]) });
  }

  private valueFrame(v: unknown, entry: number): void {
    this.frames.push(this.enc.make(FrameKind.VALUE, this.closed, entry, this.open, P_VALUE, v, entry, this.tokens));
  }

  walk(v: unknown, outer: number, depth: number): void {
    const t = this.t;
    if (depth >= this.maxDepth) return this.valueFrame(v, outer);
    const mark = this.closed.length;
    const savedOpen = this.open;
    // resolve refs (a new step each) and unions (the branch the ordinary encoder picks)
    let entry = outer;
    let viaUnion = false;
    try {
      for (;;) {
        const ty = t.type[entry];
        if (ty === "ref") {
          if (this.closed.length >= DEFAULT_MAX_DEPTH) throw this.fail("DEPTH_LIMIT", `value nested deeper than ${DEFAULT_MAX_DEPTH} (a cycle?)`);
          this.closed.push({ id: entry, dyn: this.open });
          this.open = [];
          entry = t.extra[entry] as number;
          continue;
        }
        if (ty === "union") {
          scratch.reset();
          try {
            t.write[entry]!(scratch, v);
          } catch (e) {
            rethrowAt(e, pointerOf(this.path));
          }
          // the union's encoding starts with the branch index
          entry = t.branches.get(entry)![new Reader(scratch.buf, 0, scratch.pos).varint()]!;
          viaUnion = true;
          continue;
        }
        break;
      }
      const ty = t.type[entry]!;
      let count = -1;
      if (ty === "object") this.object(v, entry, depth);
      else if (ty === "map") count = this.map(v, entry, depth);
      else if (ty === "array") count = this.array(v, entry, depth);
      else if (ty === "tuple") count = this.tuple(v, entry, depth);
      else if (ty === "string" && this.textChunk > 0 && t.flags[entry]! & StreamPathFlag.PLAIN && typeof v === "string" && v.length > this.textChunk) {
        this.text(v, entry);
      } else {
        this.closed.length = mark;
        this.open = savedOpen;
        return this.valueFrame(v, outer);
      }
      // END at the shortest address that names the location's type: through the branch when a union decided it
      const payload = count < 0 ? P_NONE : P_COUNT;
      if (viaUnion) this.frames.push(this.enc.make(FrameKind.END, this.closed, entry, this.open, payload, null, count, this.tokens));
      this.closed.length = mark;
      this.open = savedOpen;
      if (!viaUnion) this.frames.push(this.enc.make(FrameKind.END, this.closed, outer, this.open, payload, null, count, this.tokens));
    } finally {
      this.closed.length = mark;
      this.open = savedOpen;
    }
  }

  private child(key: Token, dynamic: boolean, v: unknown, entry: number, depth: number): void {
    if (dynamic) this.open.push(key);
    this.path.push(key);
    this.walk(v, entry, depth + 1);
    this.path.pop();
    if (dynamic) this.open.pop();
  }

  private object(v: unknown, entry: number, depth: number): void {
    const t = this.t;
    if (typeof v !== "object" || v === null || isArrayAt(v, this.here)) throw this.fail("INVALID_VALUE", `expected an object, got ${describeValue(v)}`);
    const o = v as Record<string, unknown>;
    const props = (t.extra[entry] as number[] | undefined) ?? [];
    const declared = t.props.get(entry);
    for (let i = 0; i < props.length; i++) {
      const pid = props[i]!;
      const name = t.arg[pid] as string;
      const f = hasOwn(o, name) ? o[name] : undefined;
      const required = (t.flags[pid]! & StreamPathFlag.REQUIRED) !== 0;
      if (f === undefined) {
        if (required) throw this.fail("INVALID_VALUE", `missing required property ${JSON.stringify(name)}`, name);
        continue;
      }
      const pty = t.type[pid];
      if (required && (pty === "const" || pty === "null")) {
        // implied by the schema: checked, not sent (the receiver fills it in at END)
        scratch.reset();
        try {
          t.write[pid]!(scratch, f);
        } catch (e) {
          rethrowAt(e, pointerOf([...this.path, name]));
        }
        continue;
      }
      this.child(name, false, f, pid, depth);
    }
    const add = t.additional.get(entry);
    for (const k in o) {
      if (!hasOwn(o, k) || declared?.has(k) || o[k] === undefined) continue;
      if (add === undefined) throw this.fail("INVALID_VALUE", `unknown property ${JSON.stringify(k)} (the schema allows no additional properties)`, k);
      this.child(k, true, o[k], add, depth);
    }
  }

  private map(v: unknown, entry: number, depth: number): number {
    if (typeof v !== "object" || v === null || isArrayAt(v, this.here)) throw this.fail("INVALID_VALUE", `expected an object, got ${describeValue(v)}`);
    const o = v as Record<string, unknown>;
    const add = this.t.additional.get(entry)!;
    let n = 0;
    for (const k of Object.keys(o)) {
      if (o[k] === undefined) continue;
      this.child(k, true, o[k], add, depth);
      n++;
    }
    return n;
  }

  private array(v: unknown, entry: number, depth: number): number {
    if (!isArrayAt(v, this.here)) throw this.fail("INVALID_VALUE", `expected an array, got ${describeValue(v)}`);
    const items = this.t.items.get(entry)!;
    for (let i = 0; i < v.length; i++) this.child(i, true, v[i], items, depth);
    return v.length;
  }

  private tuple(v: unknown, entry: number, depth: number): number {
    const t = this.t;
    if (!isArrayAt(v, this.here)) throw this.fail("INVALID_VALUE", `expected an array, got ${describeValue(v)}`);
    const [min, k] = t.extra[entry] as [number, number];
    const rest = t.rest.get(entry);
    if (v.length < min || (rest === undefined && v.length > k)) {
      throw this.fail("INVALID_VALUE", `expected an array of ${rest === undefined ? `${min}..${k}` : `at least ${min}`} items, got ${v.length}`);
    }
    const pos = t.positions.get(entry) ?? [];
    for (let i = 0; i < v.length; i++) {
      if (i < k) this.child(i, false, v[i], pos[i]!, depth);
      else this.child(i, true, v[i], rest!, depth);
    }
    return v.length;
  }

  private text(s: string, entry: number): void {
    for (let i = 0; i < s.length; ) {
      let j = Math.min(s.length, i + this.textChunk);
      // never split a surrogate pair
      if (j < s.length && s.charCodeAt(j - 1) >= 0xd800 && s.charCodeAt(j - 1) <= 0xdbff) j++;
      this.frames.push(this.enc.make(FrameKind.TEXT, this.closed, entry, this.open, P_TEXT, s.slice(i, j), 0, this.tokens));
      i = j;
    }
  }
}

function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : typeof v === "string" ? "a string" : `${typeof v} ${String(v)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// JSON text in pieces -> frames

/** JSON mode of the encoder: one per location being fed. */
class JsonFeed implements JsonHandler {
  finished = false;
  // strings as JSON.parse takes them (a lone surrogate is the encoder's to refuse, at its path)
  private readonly parser = new JsonReader(this, { loneSurrogates: true, raise: malformedJson });
  private frames: Uint8Array[] = [];
  /**
   * Open containers: streamed ones (frames per child; `inner` caches the cursor after the container's refs and
   * union, once the first child has resolved it) or buffered ones (built, then sent whole).
   */
  private stack: { at: Cursor; inner: Cursor | undefined; kind: "object" | "array"; index: number; key: string | null; buffered: unknown }[] = [];
  /** The string being streamed as TEXT: its cursor, text not yet sent, whether any TEXT went out. */
  private str: { at: Cursor | undefined; pending: string; sent: boolean; buffered: boolean; whole: string } | null = null;
  private bufDepth = 0;

  constructor(
    private readonly enc: StreamEncoder<any, any>,
    private readonly base: Cursor,
  ) {}

  push(delta: string): Uint8Array[] {
    this.frames = [];
    this.parser.push(delta);
    // what has arrived of a streamed string goes out now
    const s = this.str;
    if (s !== null && !s.buffered) this.flushText(false);
    if (this.parser.done) this.finished = true;
    return this.frames;
  }

  private add(frames: Uint8Array[]): void {
    for (const f of frames) this.frames.push(f);
  }

  /** The cursor of the value that starts now (undefined inside a buffered container). */
  private next(): Cursor | undefined {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) return this.base;
    if (top.buffered !== undefined) return undefined;
    const tok: Token = top.kind === "object" ? top.key! : top.index;
    // the container's refs and union are resolved once, for its first child
    top.inner ??= this.enc.enter(top.at, tok, false);
    return this.enc.stepIn(top.inner, tok);
  }

  /** The concrete path type at a cursor for a JSON value of `kind`, choosing (and pinning) a union branch by it. */
  private typeAt(c: Cursor, kind: string): { type: string; flags: number } | undefined {
    const t = this.enc.t;
    let entry = c.entry;
    const node = c.node ?? this.enc.find(c.tokens);
    for (let guard = 0; guard < 1000; guard++) {
      const ty = t.type[entry]!;
      if (ty === "ref") {
        entry = t.extra[entry] as number;
        continue;
      }
      if (ty === "union") {
        const have = node?.branches?.get(entry);
        if (have !== undefined) {
          entry = t.branches.get(entry)![have]!;
          continue;
        }
        const fits: number[] = [];
        t.branches.get(entry)!.forEach((b, i) => {
          const cc = t.concrete(b, null);
          if (jsonKindFits(cc >= 0 ? t.type[cc]! : "union", kind)) fits.push(i);
        });
        if (fits.length !== 1) return undefined;
        this.enc.pin(c.tokens, entry, fits[0]!);
        entry = t.branches.get(entry)![fits[0]!]!;
        continue;
      }
      return { type: ty, flags: t.flags[entry]! };
    }
    return undefined;
  }

  /** Put a finished value into the buffered container on top, or send it. */
  private deliver(at: Cursor | undefined, v: unknown): void {
    if (at === undefined) {
      const top = this.stack[this.stack.length - 1]!;
      if (top.kind === "object") setOwn(top.buffered as Record<string, unknown>, top.key!, v);
      else (top.buffered as unknown[]).push(v);
      return;
    }
    this.add(this.enc.setAt(at, v));
  }

  private bump(): void {
    const top = this.stack[this.stack.length - 1];
    if (top !== undefined && top.kind === "array") top.index++;
  }

  open(kind: "object" | "array"): void {
    const at = this.next();
    if (at !== undefined) {
      const ty = this.typeAt(at, kind)?.type;
      const streams = kind === "object" ? ty === "object" || ty === "map" : ty === "array" || ty === "tuple";
      if (streams) {
        this.stack.push({ at, inner: undefined, kind, index: 0, key: null, buffered: undefined });
        return;
      }
      this.bufDepth++;
      this.stack.push({ at, inner: undefined, kind, index: 0, key: null, buffered: kind === "object" ? {} : [] });
      return;
    }
    this.bufDepth++;
    // nested in a buffered container: its cursor is that of the outermost buffered one (never used)
    this.stack.push({ at: this.base, inner: undefined, kind, index: 0, key: null, buffered: kind === "object" ? {} : [] });
  }

  key(k: string): void {
    this.stack[this.stack.length - 1]!.key = k;
  }

  close(): void {
    const top = this.stack.pop()!;
    if (top.buffered !== undefined) {
      this.bufDepth--;
      // the outermost buffered container is sent; inner ones go into their parent
      this.deliver(this.bufDepth === 0 ? top.at : undefined, top.buffered);
    } else {
      this.add(this.enc.endAt(top.at));
    }
    this.bump();
  }

  scalar(v: unknown, raw: string): void {
    const at = this.next();
    let value = v;
    if (at !== undefined && typeof v === "number" && /^-?[0-9]+$/.test(raw) && !Number.isSafeInteger(v)) {
      const ty = this.typeAt(at, "number");
      if (ty !== undefined && ty.flags & StreamPathFlag.INT64) value = BigInt(raw);
    }
    this.deliver(at, value);
    this.bump();
  }

  stringStart(): void {
    const at = this.next();
    let buffered = true;
    if (at !== undefined) {
      const ty = this.typeAt(at, "string");
      buffered = !(ty !== undefined && ty.type === "string" && ty.flags & StreamPathFlag.PLAIN);
    }
    this.str = { at, pending: "", sent: false, buffered, whole: "" };
  }

  stringChunk(s: string): void {
    const st = this.str!;
    if (st.buffered) st.whole += s;
    else st.pending += s;
  }

  stringEnd(): void {
    const st = this.str!;
    this.str = null;
    if (st.buffered) this.deliver(st.at, st.whole);
    else if (!st.sent) this.add(this.enc.setAt(st.at!, st.pending));
    else {
      this.str = st;
      this.flushText(true);
      this.str = null;
      this.add(this.enc.endAt(st.at!));
    }
    this.bump();
  }

  private flushText(all: boolean): void {
    const st = this.str!;
    let send = st.pending;
    // a high surrogate at the end waits for its pair
    if (!all && send.length > 0) {
      const last = send.charCodeAt(send.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) send = send.slice(0, -1);
    }
    if (send === "") return;
    st.pending = st.pending.slice(send.length);
    st.sent = true;
    this.add(this.enc.appendAt(st.at!, send));
  }
}

/** The encoder's error for JSON text that is not JSON (nesting too deep stays DEPTH_LIMIT). */
function malformedJson(f: JsonFault): never {
  throw jsonFaultError(f, f.kind === "depth" ? "DEPTH_LIMIT" : "INVALID_VALUE", `malformed JSON: ${describeJsonFault(f)}`);
}

function jsonKindFits(type: string, kind: string): boolean {
  switch (type) {
    case "object":
    case "map":
      return kind === "object";
    case "array":
    case "tuple":
      return kind === "array";
    case "string":
      return kind === "string";
    case "integer":
    case "number":
      return kind === "number";
    case "boolean":
      return kind === "boolean";
    case "null":
      return kind === "null";
    default:
      return true; // enum, const, any, nested union: cannot rule out
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The `stream` member of a generated codec

export interface StreamCodec<T, P extends PathMap = PathMap> {
  /** The path table and per-path functions behind this codec's streams. */
  readonly spec: StreamSpec;
  /** A new stream to send. */
  encoder(options?: StreamEncoderOptions): StreamEncoder<T, P>;
  /** A new stream to receive. */
  decoder(options?: StreamDecoderOptions<T, P>): StreamDecoder<T, P>;
  /** The frames of a whole value (the header first), in field order. */
  frames(value: T, options?: IncrementalOptions): Uint8Array[];
  /** The frames of a whole value, concatenated: a complete stream. */
  encode(value: T, options?: IncrementalOptions): Uint8Array;
  /** Decode a complete stream (bytes, or chunks split anywhere); throws INCOMPLETE if it stops short. */
  decode(input: Uint8Array | Iterable<Uint8Array>): T;
}

export function streamCodec<T, P extends PathMap = PathMap>(spec: StreamSpec): StreamCodec<T, P> {
  return {
    spec,
    encoder: (options) => new StreamEncoder<T, P>(spec, optionsArg(options, "stream.encoder")),
    decoder: (options) => new StreamDecoder<T, P>(spec, optionsArg(options, "stream.decoder")),
    frames(value, options) {
      return new StreamEncoder<T, P>(spec).encodeIncremental(value, optionsArg(options, "stream.frames"));
    },
    encode(value, options) {
      return concatBytes(new StreamEncoder<T, P>(spec).encodeIncremental(value, optionsArg(options, "stream.encode")));
    },
    decode(input) {
      const d = new StreamDecoder<T, P>(spec);
      if (input instanceof Uint8Array) d.push(input);
      else if (isIterable(input)) for (const c of input) d.push(c);
      else throw new ToonError("INVALID_VALUE", `stream.decode expects bytes (a Uint8Array) or an iterable of them, got ${input === null ? "null" : typeof input}`);
      return d.end();
    },
  };
}

function isIterable(x: unknown): x is Iterable<unknown> {
  return typeof x === "object" && x !== null && typeof (x as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}

/** Concatenate byte chunks. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (!isIterable(chunks)) throw new ToonError("INVALID_VALUE", `concatBytes expects an array of Uint8Array, got ${chunks === null ? "null" : typeof chunks}`);
  let n = 0;
  for (const c of chunks) {
    if (!(c instanceof Uint8Array)) throw new ToonError("INVALID_VALUE", `concatBytes expects an array of Uint8Array, got an item that is ${c === null ? "null" : Array.isArray(c) ? "an array" : typeof c}`);
    n += c.length;
  }
  const out = new Uint8Array(n);
  let p = 0;
  for (const c of chunks) {
    out.set(c, p);
    p += c.length;
  }
  return out;
}

void getOwn;
