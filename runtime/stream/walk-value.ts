/**
 * `encodeIncremental`: walks a whole value along the path table and makes its frames in field order, down to the
 * `depth` the caller asked for (deeper containers travel whole) and with long strings as TEXT pieces.
 */
import { isArrayAt, rethrowAt, ToonError } from "../wire/errors.ts";
import { hasOwn, unknownPropertyMessage } from "../wire/objects.ts";
import { Reader } from "../wire/reader.ts";
import { StreamPathFlag } from "../codec/stream-seg.ts";
import { DEFAULT_MAX_DEPTH } from "../wire/wire.ts";
import { FrameKind, type IncrementalOptions } from "./spec.ts";
import type { PathTable } from "./path-table.ts";
import { type Cursor, P_COUNT, P_NONE, P_TEXT, P_VALUE, pointerOf, scratch, type Step, type Token } from "./cursor.ts";
import type { StreamEncoder } from "./encoder.ts";

/** `encodeIncremental`: walks a value along the path table, making frames in field order. */
export class Incremental {
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
      if (add === undefined) throw this.fail("INVALID_VALUE", unknownPropertyMessage(k), k);
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
