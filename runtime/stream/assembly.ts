/**
 * The assembly: what the frames so far have built. Shared by the decoder and by the encoder (which applies every
 * frame it makes to a mirror of the receiver's state, so it cannot send a stream the receiver would refuse). A frame
 * that fails is undone from its undo records, so it changes nothing.
 */
import { pointerSegment, rethrowAt, ToonError } from "../wire/errors.ts";
import { readExtensionSection } from "../features/extensions.ts";
import { setOwn } from "../wire/objects.ts";
import { type ReadBudget, Reader } from "../wire/reader.ts";
import { DEFAULT_MAX_ZERO_WIDTH_ITEMS } from "../wire/limits.ts";
import { StreamPathFlag, StreamSeg } from "../codec/stream-seg.ts";
import type { ElementEvent, FieldEvent, StreamEvent } from "./events.ts";
import { EMPTY, FrameKind, MAX_STREAM_ROW, MAX_STREAM_STEPS, type PathMap } from "./spec.ts";
import type { PathTable } from "./path-table.ts";

export class Loc {
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

export class Assembly<T, P extends PathMap> {
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
