/**
 * The stream encoder: makes frames at a JSON pointer (`set`, `append`, `end`, `branch`, `json`, `text`), checked
 * against a mirror of the receiver's assembly before they are released. Whole values go through the value walker
 * (./walk-value.ts), JSON text in pieces through the JSON feed (./json-feed.ts), a model's text through
 * ./text.ts.
 */
// the path table first: its engine modules then come before the text reader's in a bundle (see ../stream.ts)
import { type PathTable, tableOf } from "./path-table.ts";
import { hostError, optionsArg, pointerSegment, rethrowAt, ToonError } from "../wire/errors.ts";
import { writeExtensionSection } from "../features/extensions.ts";
import { writeHeader } from "../wire/header.ts";
import { unknownPropertyMessage } from "../wire/objects.ts";
import { Reader } from "../wire/reader.ts";
import { TextFeed, type TextStreamOptions } from "./text.ts";
import { Writer } from "../wire/writer.ts";
import { FrameKind, type IncrementalOptions, MAX_STREAM_STEPS, type PathMap, type StreamEncoderOptions, streamFlags, type StreamSpec } from "./spec.ts";
import { Assembly, type Loc } from "./assembly.ts";
import { type Cursor, indexToken, P_COUNT, P_NONE, P_TEXT, P_VALUE, parsePointer, type Pointer, pointerOf, type Step, stepError, type Token } from "./cursor.ts";
import { Incremental } from "./walk-value.ts";
import { JsonFeed } from "./json-feed.ts";

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
        if (add === undefined) throw stepError(c, tok, unknownPropertyMessage(name));
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
