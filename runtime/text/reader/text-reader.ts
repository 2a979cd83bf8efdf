/**
 * A codec's streaming reader of model output (`Codec.reader()`): push the reply's text as it arrives, get back
 * typed events for what each piece completed (a field, a table row or list item, the whole value), read a
 * snapshot of the value so far, and `end()` for the final value, checked as `fromModelOutput` checks it. The
 * payload is found while the reply streams (./payload.ts); its layout (JSON, TOON v4, dense) is decided by its
 * first line; the events have the shapes of the binary stream decoder's (`field`, `element`, `value`), typed by
 * the module's stream paths. The cost stays linear in the reply: every character is read once (a payload whose
 * layout is not decided yet is read a second time only when the dense reading of it fails).
 */
import { ToonError, optionsArg, pointerSegment } from "../../wire/errors.ts";
import { shiftLines } from "./shift.ts";
import type { ElementEvent, FieldEvent, PartialValue, StreamEvent, TextEvent, ValueEvent } from "../../stream/events.ts";
import type { Keys, OpenText } from "./partial-text.ts";
import type { JsonRepair } from "../json-repair.ts";
import { PayloadFinder, type PayloadSink } from "./payload.ts";
import { PayloadReader, type ReadValue, type ReaderLayout, type ReaderSpec } from "./payload-reader.ts";

type PathMap = Record<string, unknown>;

/** Characters of one line read before its break comes (a long line's cells may complete a value earlier in JSON). */
const PENDING_MAX = 512;

export interface TextReaderOptions {
  /** Force a layout (`"toon"`, `"dense"`, `"json"`); by default the payload's first line decides. */
  layout?: ReaderLayout;
  /**
   * Accept what `fromModelOutput(reply, { repair: true })` accepts: JSON's common slips, and a table's or list's
   * miscounted `[N]` once the payload is complete (repaired counts read the payload's text again).
   */
  repair?: boolean;
  /** Called for each repair made (with `repair: true`), once the value has read. */
  onRepair?: (repair: JsonRepair) => void;
  /**
   * Called with every event as it completes: those `push` returns, and those `end()` completes (a table's last
   * row, the whole value), which it does not return.
   */
  onEvent?: (event: StreamEvent<any, any>) => void;
  /**
   * Tell text growing inside a string as it arrives: `push` returns a `text` event (pointer, all the text so far,
   * what is new) for the string still open at the end of each piece, in JSON and in a TOON or dense line not yet
   * complete (a field's value, a list item, a table row's cell); `snapshot({ partialText: true })` shows it. Only
   * plain strings (no format) are told; the value is final in the field or element event that completes it.
   */
  partialText?: boolean;
  /**
   * `"reply"` (default): a model's reply: prose, fences and reasoning blocks around the payload, which may be JSON;
   * `"text"`: the text is the payload, TOON v4 or dense, as `fromText` reads it.
   */
  input?: "reply" | "text";
}

/** A streaming reader of one reply (or text): see the module's `reader()`. */
export interface TextReader<T, P extends PathMap = PathMap> {
  /** Read `delta`: the events it completed (values of fields, rows or items, in the order they completed). */
  push(delta: string): StreamEvent<T, P>[];
  /** The reply is over: the whole value (checked), or ToonError (INCOMPLETE when it was cut off, naming what). */
  end(): T;
  /**
   * The value so far: every part complete and checked, the rest absent (undefined before the first part);
   * `partialText` (with the reader's `partialText`): with the string still arriving, as far as it was told.
   */
  snapshot(options?: { partialText?: boolean }): PartialValue<T> | undefined;
  /** True once the value is complete (its fence closed, its JSON ended, or `end()` returned it). */
  readonly done: boolean;
}

/** Index of the last line break in `s`, or -1 (a loop for the short pieces of a stream: no call into the engine). */
function lastBreak(s: string): number {
  if (s.length > 16) return s.lastIndexOf("\n");
  for (let i = s.length - 1; i >= 0; i--) if (s.charCodeAt(i) === 10) return i;
  return -1;
}

/** The reader behind `Codec.reader(options)`. */
export function textReader<T, P extends PathMap = PathMap>(spec: ReaderSpec, options: TextReaderOptions = {}): TextReader<T, P> {
  optionsArg(options, "reader");
  const layout = options.layout;
  if (layout !== undefined && layout !== "toon" && layout !== "dense" && layout !== "json") throw new ToonError("CONFIG_ERROR", `layout must be "toon", "dense" or "json", got ${String(layout)}`);
  return new StreamingReader<T, P>(spec, options);
}

class StreamingReader<T, P extends PathMap> implements TextReader<T, P> {
  private readonly finder: PayloadFinder | undefined;
  private payload: PayloadReader | undefined;
  /** The reply's line of the payload's first line: errors count lines from the reply's start. */
  private line0 = 0;
  private events: StreamEvent<T, P>[] = [];
  /** The value so far, from the values told (only checked parts). */
  private tree: unknown = undefined;
  /** The containers of `tree` the reader made (the values told are whole; these fill in as more are). */
  private readonly made = new WeakSet<object>();
  private result: { value: T } | undefined;
  private failed: unknown;
  private unclosed: { label: string; line: number } | undefined;
  private readonly onValue = (v: ReadValue): void => this.tell(v);
  /** Values told since the last snapshot, to put in its tree. */
  private told: ReadValue[] = [];
  /** Text of a TOON or dense payload waiting for its line's break. */
  private pending = "";
  /**
   * Read each piece as it comes: before a payload begins (JSON may begin inside a line, and its first items should
   * not wait for the line's end) and in a JSON payload, which completes values inside a line.
   */
  private charwise = true;

  constructor(
    private readonly spec: ReaderSpec,
    private readonly options: TextReaderOptions,
  ) {
    this.partialText = options.partialText === true;
    if (options.input === "text") {
      this.payload = new PayloadReader(spec, { layout: options.layout, repair: options.repair, onValue: this.onValue, partialText: this.partialText });
      this.charwise = options.layout === "json";
    } else {
      const sink: PayloadSink = {
        begin: (kind, line, _column, fence) => this.begin(kind, line, fence),
        text: (chunk) => this.payload!.text(chunk),
        end: (complete, unclosed) => {
          this.unclosed = unclosed;
          this.finish(complete);
        },
      };
      this.finder = new PayloadFinder(spec.hints, sink);
    }
  }

  get done(): boolean {
    return this.result !== undefined;
  }

  push(delta: string): StreamEvent<T, P>[] {
    if (this.failed !== undefined) throw this.failed;
    if (typeof delta !== "string") throw new ToonError("INVALID_VALUE", `push expects the reply's text (a string), got ${delta === null ? "null" : typeof delta}`);
    // TOON and dense complete nothing before a line ends: pieces wait for their line's break (or a few hundred
    // characters of a long line), so that a reply in a thousand small pieces is read as a few dozen lines are;
    // what follows the last break waits too, so that the lines handed on are ranges of one string (the lexer
    // keeps no unfinished line to join to them)
    let text: string;
    if (!this.charwise && !this.partialText) {
      const nl = lastBreak(delta);
      if (nl < 0 && this.pending.length + delta.length < PENDING_MAX) {
        this.pending += delta;
        return [];
      }
      if (nl < 0) text = this.takePending(delta);
      else {
        text = this.takePending(delta.slice(0, nl + 1));
        this.pending = delta.slice(nl + 1);
      }
    } else text = this.takePending(delta);
    this.events = [];
    try {
      this.read(text);
      // (the payload began as JSON, which is read as it comes: what waited goes on now)
      if (this.charwise && this.pending.length > 0) this.read(this.takePending(""));
      if (this.partialText && this.payload !== undefined && this.result === undefined) this.openText();
    } catch (e) {
      this.fail(e);
    }
    return this.take();
  }

  private readonly partialText: boolean;

  /** The strings arriving (`partialText`): their events. */
  private openText(): void {
    const p = this.payload!;
    const out: OpenText[] = [];
    const f = this.finder;
    if (f === undefined) p.openText("", "", 0, out);
    else p.openText(f.held, f.takeGrown(), f.lines, out);
    for (const o of out) {
      const node = p.nodeAt(o.keys);
      if (node === null) continue;
      const pointer = pointerOf(o.keys);
      // a string that ended in this piece inside a value this piece completed: that value's event told it whole
      if (this.toldHere(pointer)) continue;
      this.emit({ type: "text", path: node.path, pointer, delta: o.delta, text: o.text } satisfies TextEvent);
    }
  }

  /** Whether an event of this piece told the value at `pointer` or one holding it. */
  private toldHere(pointer: string): boolean {
    for (const e of this.events) {
      if (e.type !== "field" && e.type !== "element") continue;
      const p = e.pointer;
      if (pointer.startsWith(p) && (pointer.length === p.length || pointer.charCodeAt(p.length) === 47)) return true;
    }
    return false;
  }

  /** The text waiting and `last`, which no longer wait. */
  private takePending(last: string): string {
    const p = this.pending;
    if (p.length === 0) return last;
    this.pending = "";
    return p + last;
  }

  private read(text: string): void {
    if (this.finder !== undefined) this.finder.push(text);
    else if (this.result === undefined) this.payload!.text(text);
  }

  end(): T {
    if (this.failed !== undefined) throw this.failed;
    if (this.result !== undefined) return this.result.value;
    try {
      if (this.pending.length > 0) this.read(this.takePending(""));
      // (the last line may have closed the payload: its fence)
      const closed = this.result as { value: T } | undefined;
      if (closed !== undefined) return closed.value;
      if (this.finder !== undefined) {
        this.finder.end();
        if (this.result === undefined) {
          if (this.finder.found) throw new Error("internal: a payload that never ended");
          if (this.finder.inReasoning) throw new ToonError("INCOMPLETE", "the output ends inside a reasoning block (<think>, <thinking> or <reasoning> never closed): it looks truncated");
          throw new ToonError("NO_PAYLOAD", "no TOON or JSON payload found in the model output");
        }
      } else this.finish(false);
    } catch (e) {
      this.fail(e);
    }
    return this.result!.value;
  }

  snapshot(options?: { partialText?: boolean }): PartialValue<T> | undefined {
    if (this.result !== undefined) return this.result.value as PartialValue<T>;
    for (const v of this.told) this.tree = setAt(this.tree, v.keys, v.value, this.made);
    this.told = [];
    const copy = copyTree(this.tree, this.made);
    const open = options?.partialText === true && this.failed === undefined ? this.payload?.openString() : undefined;
    return (open === undefined ? copy : withText(this.tree, copy, open.keys, open.text, this.made)) as PartialValue<T> | undefined;
  }

  // ------------------------------------------------------------------------------------------ the payload

  private begin(kind: "json" | "text", line: number, fence: string | undefined): void {
    this.line0 = line;
    const layout = kind === "json" ? "json" : this.options.layout;
    this.charwise = layout === "json";
    this.payload = new PayloadReader(this.spec, { layout, repair: this.options.repair, reply: true, fence, onValue: this.onValue, partialText: this.partialText });
  }

  private finish(complete: boolean): void {
    if (this.unclosed !== undefined) {
      const u = this.unclosed;
      this.line0 = 0; // (the fence's own line, counted from the reply's start)
      throw new ToonError("INCOMPLETE", `the ${u.label === "toon" ? "```toon" : u.label === "json" ? "```json" : "fenced"} block is never closed: the output looks truncated`, { line: u.line + 1, column: 1 });
    }
    const value = this.payload!.end(complete) as T;
    const onRepair = this.options.onRepair;
    if (onRepair !== undefined) for (const r of this.payload!.repaired) onRepair({ ...r, line: r.line + this.line0 });
    this.result = { value };
    this.emit({ type: "value", path: "$", pointer: "", value } as ValueEvent<T>);
  }

  private emit(e: StreamEvent<T, P>): void {
    this.events.push(e);
    this.options.onEvent?.(e);
  }

  private tell(v: ReadValue): void {
    const pointer = pointerOf(v.keys);
    const key = v.keys[v.keys.length - 1]!;
    const e = v.node.item
      ? ({ type: "element", path: v.node.path, pointer, index: key as number, value: v.value } as ElementEvent<P>)
      : ({ type: "field", path: v.node.path, pointer, value: v.value } as FieldEvent<P>);
    this.emit(e);
    // the snapshot is built when asked for (a reader nobody asks costs no tree)
    this.told.push(v);
  }

  private take(): StreamEvent<T, P>[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  /** An error: its lines counted from the reply's start; every later call throws it again. */
  private fail(e: unknown): never {
    const x = e instanceof ToonError ? shiftLines(e, this.line0) : e;
    this.failed = x;
    throw x;
  }
}

/** `tree` with `value` at `keys` (containers made where missing: an array for an index, else an object). */
function setAt(tree: unknown, keys: readonly (string | number)[], value: unknown, made: WeakSet<object>): unknown {
  let root = tree;
  if (root === undefined) made.add((root = typeof keys[0] === "number" ? [] : {}) as object);
  let c = root as Record<string | number, unknown>;
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i]!;
    // (own members only: `__proto__` is a key like any other, never the prototype)
    let next = (Object.prototype.hasOwnProperty.call(c, k) ? c[k] : undefined) as Record<string | number, unknown> | undefined;
    if (next === undefined || next === null || typeof next !== "object") {
      next = (typeof keys[i + 1] === "number" ? [] : {}) as Record<string | number, unknown>;
      made.add(next);
      put(c, k, next);
    }
    c = next;
  }
  put(c, keys[keys.length - 1]!, value);
  return root;
}

/**
 * A snapshot's `copy` of `tree` with the string still arriving at `keys`: the containers on the way are the copy's
 * own (copies of those the reader made) or new ones; a value already told is final, and nothing is put inside it.
 */
function withText(tree: unknown, copy: unknown, keys: Keys, text: string, made: WeakSet<object>): unknown {
  let root = copy;
  if (root === undefined) root = typeof keys[0] === "number" ? [] : {};
  let c = root as Record<string | number, unknown>;
  // the tree's container at the same place: the copy's is a copy of it (when the reader made it) or a told value
  let t = tree as Record<string | number, unknown> | undefined;
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i]!;
    const tn = t !== undefined && Object.prototype.hasOwnProperty.call(t, k) ? (t[k] as Record<string | number, unknown>) : undefined;
    if (tn !== undefined && tn !== null && typeof tn === "object") {
      if (!made.has(tn)) return copy;
      c = c[k] as Record<string | number, unknown>;
      t = tn;
      continue;
    }
    const next = (typeof keys[i + 1] === "number" ? [] : {}) as Record<string | number, unknown>;
    put(c, k, next);
    c = next;
    t = undefined;
  }
  put(c, keys[keys.length - 1]!, text);
  return root;
}

function put(c: Record<string | number, unknown>, k: string | number, v: unknown): void {
  if (k === "__proto__") Object.defineProperty(c, k, { value: v, enumerable: true, writable: true, configurable: true });
  else c[k] = v;
}

/**
 * A copy of the containers the reader made (a snapshot is a value of its own: the next one is another, as a UI
 * comparing them expects); the values told are whole, never changed again, and shared.
 */
function copyTree(t: unknown, made: WeakSet<object>): unknown {
  if (t === null || typeof t !== "object" || !made.has(t)) return t;
  if (Array.isArray(t)) return t.map((x) => copyTree(x, made));
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(t)) put(o, k, copyTree((t as Record<string, unknown>)[k], made));
  return o;
}

function pointerOf(keys: readonly (string | number)[]): string {
  let p = "";
  for (const k of keys) p += pointerSegment(k);
  return p;
}
