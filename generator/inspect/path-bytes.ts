/**
 * Bytes per dictionary path, counted as the codec engine reads a message: a `ReadObserver`
 * (runtime/codec/engine/read-observed.ts) that records for every path how many values it had, the TOON bytes
 * they took (their own bytes: a scalar's encoding, a container's count and bitmap, a union's branch index, an open
 * object's keys at its `{}` path; the values inside count at their own paths) and the bytes the same values take in
 * compact JSON (the `"key":` of a property included, a container's brackets and commas). Rows add up: TOON rows sum
 * to the message length, JSON rows to the length of `JSON.stringify(value)`.
 *
 * When reading fails, `partial` gives the value read so far (a container that had begun holds what was read of it)
 * and `settle` counts the values left open.
 */
import type { Shape } from "../../runtime/codec/descriptor.ts";
import { mapSegment, propertySegment } from "../../runtime/codec/paths.ts";
import { objectLayout } from "../../runtime/codec/plan.ts";
import type { ReadObserver } from "../../runtime/codec/engine/read-observed.ts";
import type { Step } from "../../runtime/codec/engine/read.ts";
import { pointerSegment } from "../../runtime/wire/errors.ts";
import { getOwn, setOwn } from "../../runtime/wire/objects.ts";
// JSON.stringify escapes lone surrogates: its text is well-formed, which this count assumes
import { utf8Length, varintSize } from "../../runtime/schemaless/json-values.ts";

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

/** Compact JSON length of a value (bigints as their digits). */
export function jsonLength(v: unknown): number {
  if (typeof v === "bigint") return String(v).length;
  if (typeof v === "number") return JSON.stringify(v).length;
  if (typeof v === "boolean") return v ? 4 : 5;
  if (v === null) return 4;
  const s = JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? Number(x) : x));
  return s === undefined ? 0 : utf8Length(s);
}

/** `"key":` in compact JSON. */
export function keyLength(k: string): number {
  return utf8Length(JSON.stringify(k)) + 1;
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

/** What a value is to the count: a leaf (its bytes and JSON are its own), a list, an object, or in its parent's place. */
const enum Role {
  Leaf,
  List,
  Object,
  /** A union (its own bytes: the branch index) or a reference: the value read inside takes its place. */
  Pass,
}

function roleOf(s: Shape): Role {
  switch (s.kind) {
    case "array":
    case "tuple":
      return Role.List;
    case "object":
      return Role.Object;
    case "union":
    case "ref":
      return Role.Pass;
    default:
      return Role.Leaf;
  }
}

interface Frame {
  path: string;
  role: Role;
  start: number;
  /** Bytes of the values (and keys) read inside it so far. */
  inner: number;
  /** Where the last value (or key) inside it started or ended. */
  mark: number;
  /** `"key":` bytes of the JSON it is written under (a union or reference hands them to what it reads). */
  kb: number;
  /** A retired slot, or inside one: read and dropped, so no JSON. */
  dropped: boolean;
  /** Its JSON pointer segment in its parent (undefined: its parent's place). */
  seg: string | number | undefined;
  /** A list or object: what was read of it so far; a union or reference: the value read inside, once read. */
  partial: unknown;
  /** Values entered inside it. */
  children: number;
  /** A list or object: values held in `partial`. */
  held: number;
  /** An object: its presence bitmap's bytes (once read, the object has begun). */
  bitmap: number;
  /** An object: the keys read (a key in the value that was never read is a default filled in). */
  read: Set<string> | undefined;
  /** An open object: the key read last (its value comes next). */
  key: string;
}

/** The ReadObserver of `toon-gen inspect`: call `begin` before each message. */
export class PathBytes implements ReadObserver {
  private tally = new Tally();
  private stack: Frame[] = [];
  private root: { value: unknown } | undefined;
  /** Where the bytes not yet counted begin once the root is read: the extension section's. */
  private uncounted = 0;
  /** Bytes of the extension values read since the last record. */
  private recordValues = 0;

  begin(tally: Tally): void {
    this.tally = tally;
    this.stack = [];
    this.root = undefined;
    this.uncounted = 0;
    this.recordValues = 0;
  }

  enter(path: string, shape: Shape, step: Step, pos: number): void {
    const parent = this.stack[this.stack.length - 1];
    let kb = 0;
    let seg: string | number | undefined;
    let dropped = false;
    if (parent === undefined) {
      if (typeof step === "object" && "ext" in step) {
        kb = keyLength(step.key);
        seg = step.key;
      }
    } else {
      parent.children++;
      parent.mark = pos;
      dropped = parent.dropped;
      if (parent.role === Role.Pass) kb = parent.kb;
      else if (parent.role === Role.List) seg = parent.children - 1;
      else if (typeof step === "object" && "retired" in step) {
        dropped = true;
        seg = step.retired;
      } else {
        const k = typeof step === "object" && "prop" in step ? step.prop : parent.key;
        kb = keyLength(k);
        seg = k;
        parent.read!.add(k);
      }
    }
    const role = roleOf(shape);
    const partial = role === Role.List ? [] : role === Role.Object ? {} : undefined;
    this.stack.push({ path, role, start: pos, inner: 0, mark: pos, kb, dropped, seg, partial, children: 0, held: 0, bitmap: role === Role.Object ? bitmapBytes(shape) : 0, read: role === Role.Object ? new Set() : undefined, key: "" });
  }

  leave(value: unknown, pos: number): void {
    const f = this.stack.pop()!;
    const total = pos - f.start;
    const row = this.tally.row(f.path);
    row.count++;
    row.toonBytes += total - f.inner;
    if (!f.dropped) {
      switch (f.role) {
        case Role.Leaf:
          row.jsonBytes += f.kb + jsonLength(value);
          break;
        case Role.List:
          row.jsonBytes += f.kb + 2 + Math.max(0, (value as unknown[]).length - 1);
          break;
        case Role.Object: {
          const keys = Object.keys(value as object);
          row.jsonBytes += f.kb + 2 + Math.max(0, keys.length - 1);
          // an extension property newer than the writer: its default, filled in without bytes
          for (const k of keys) if (!f.read!.has(k)) this.tally.add(propertySegment(f.path, k), 0, keyLength(k) + jsonLength(getOwn(value as object, k)), 1);
          break;
        }
        case Role.Pass:
          break;
      }
    }
    const parent = this.stack[this.stack.length - 1];
    if (parent !== undefined) {
      parent.inner += total;
      parent.mark = pos;
      if (!f.dropped) place(parent, f.seg, value);
    } else if (this.root === undefined) {
      this.root = { value };
      this.uncounted = pos;
    } else this.recordValues += total;
  }

  key(key: string, from: number, to: number): void {
    const f = this.stack[this.stack.length - 1]!;
    f.key = key;
    f.inner += to - from;
    f.mark = to;
    this.tally.add(mapSegment(f.path), to - from, 0);
  }

  record(id: number, start: number, end: number): void {
    // the record's ID and length before its payload (as a writer spells them: the shortest varints)
    const from = start - varintSize(id) - varintSize(end - start);
    // what lies before the record (the section's count, before the first) and the record's own framing: its ID,
    // length and object pointer; a record no value was read from (unknown to this codec, or retired) on its own row
    this.tally.add("(extension records)", from - this.uncounted, 0);
    if (this.recordValues > 0) this.tally.add("(extension records)", end - from - this.recordValues, 0);
    else this.tally.add("(unknown extension records)", end - from, 0, 1);
    this.uncounted = end;
    this.recordValues = 0;
  }

  /** The extension section ended at `end`: its count (and whatever no record holds) counted once. */
  sectionEnd(end: number): void {
    this.tally.add("(extension records)", end - this.uncounted, 0, 1);
    this.uncounted = end;
  }

  /**
   * Where reading failed, given the path of the engine's error: the JSON pointer of the value being read (a
   * container's own bytes failed: the container, where a decoder names the key read before a map key that failed;
   * deeper only inside an `any` value), or, once the root is read, the engine's (an extension record's value sits
   * where its record says).
   */
  failedAt(enginePath: string): string {
    if (this.root !== undefined) return enginePath;
    let p = "";
    for (const f of this.stack) if (f.seg !== undefined) p += pointerSegment(f.seg);
    const top = this.stack[this.stack.length - 1];
    return top !== undefined && top.role === Role.Leaf && enginePath.startsWith(p) ? enginePath : p;
  }

  /**
   * Reading stopped at byte `stop` with values still open: each list or object that had begun (something read
   * inside it, or bytes past its start) is counted with the bytes read of it, and held by its parent; returns the
   * root value so far (undefined when nothing of it was read).
   */
  settle(stop: number): unknown {
    if (this.root !== undefined) return this.root.value;
    let held: { value: unknown } | undefined;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const f = this.stack[i]!;
      const inside = this.stack[i + 1];
      if (f.role === Role.Leaf) continue;
      if (f.role === Role.Pass) {
        if (inside !== undefined) this.tally.add(f.path, f.mark - f.start - f.inner, 0, 1);
        continue;
      }
      // a list begins with its first item (its count is checked against the bytes left), an object after its bitmap
      if (inside === undefined && f.children === 0 && (f.role === Role.List || stop < f.start + f.bitmap)) continue;
      if (held !== undefined && inside !== undefined && !inside.dropped) place(f, inside.seg, held.value);
      // its JSON is that of what it holds: the rows of a failed read add up to the JSON of the value read so far
      this.tally.add(f.path, f.mark - f.start - f.inner, f.dropped ? 0 : f.kb + 2 + Math.max(0, f.held - 1), 1);
      held = { value: f.partial };
    }
    const bottom = this.stack[0];
    // an extension value left open: the root was read whole (above); anything else is the root's
    return bottom === undefined ? undefined : held?.value;
  }
}

function bitmapBytes(s: Shape): number {
  return s.kind === "object" ? Math.ceil(objectLayout(s).bits / 8) : 0;
}

function place(parent: Frame, seg: string | number | undefined, value: unknown): void {
  parent.held++;
  if (parent.role === Role.List) (parent.partial as unknown[]).push(value);
  else if (parent.role === Role.Object) setOwn(parent.partial as Record<string, unknown>, seg as string, value);
  else parent.partial = value;
}
