/**
 * Text mode of the stream encoder (`StreamEncoder.text`): a model's reply, or bare TOON v4, dense or JSON text,
 * read as it streams by the runtime's text reader (../text/reader/text-reader.ts), and made into self-contained
 * frames as its values complete: a table row or list item of an array that no other item holds, a member of the
 * root, each one VALUE frame; the value's end sends what did not go out yet and the END frames. What an item
 * holds (an order's line items) travels inside that item's frame.
 *
 * The reader is made from the codec's descriptor alone (the stream spec holds it): its text check (the one the
 * generated `$ck*` functions run), the payload hints of its root, and the model-output fill of its optional
 * properties (an empty TOON cell is absent). The descriptor keeps no schema defaults and no JSON Schema
 * constraints, so neither is applied here (as JSON mode applies neither): values read the way `fromText` and
 * `fromModelOutput` read them otherwise.
 */
import type { Shape } from "../codec/descriptor.ts";
import { textCheckOf } from "../codec/engine/text-check.ts";
import { ToonError, optionsArg, pointerSegment } from "../wire/errors.ts";
import { getOwn } from "../wire/objects.ts";
import type { StreamEncoder, StreamEvent, StreamSpec } from "../stream.ts";
import { fillSpecOf } from "../text/fill-spec.ts";
import { walkerOf, type ReaderSpec } from "../text/reader/payload-reader.ts";
import type { PathNode, PathWalker } from "../text/reader/paths.ts";
import type { PayloadHints } from "../text/reader/payload-rules.ts";
import { textReader, type TextReader } from "../text/reader/text-reader.ts";

/** Options of `StreamEncoder.text`: read by the call that starts the text (later calls' are ignored). */
export interface TextStreamOptions {
  /**
   * `"reply"` (default): a model's whole reply (prose, fences and reasoning blocks around the payload, which may
   * be JSON), as `fromModelOutput` reads it; `"text"`: the text is the payload, TOON v4 or dense, as `fromText`
   * reads it.
   */
  input?: "reply" | "text";
  /** Force a layout (`"toon"`, `"dense"`, `"json"`); by default the payload's first line decides. */
  layout?: "toon" | "dense" | "json";
  /**
   * A plain string the model is still writing goes out as TEXT frames as it grows (the reader's `partialText`), so
   * the receiver shows it as it is typed; its END (after the rest of its text) comes when the value holding it is
   * complete. Off: a string goes out with its row, field or item.
   */
  partialText?: boolean;
}

type Token = string | number;

/** What the text mode derives from a stream spec, once. */
interface TextSpec {
  reader: ReaderSpec;
  walker: PathWalker;
  defs: Map<string, Shape>;
}

const textSpecs = new WeakMap<StreamSpec, TextSpec>();

function textSpecOf(spec: StreamSpec): TextSpec {
  let t = textSpecs.get(spec);
  if (t === undefined) {
    const d = spec.descriptor;
    const defs = new Map(d.definitions.map((x) => [x.name, x.shape] as const));
    const root = resolve(d.root, defs);
    // (the generator's rule: generator/emit/text-shapes.ts `payloadHints`)
    const hints: PayloadHints =
      root?.kind === "object" ? { root: "object", keys: root.properties.map((p) => p.name) } : root?.kind === "array" || root?.kind === "tuple" ? { root: "array", keys: [] } : { root: "other", keys: [] };
    const fill = fillSpecOf(d.root, defs);
    const reader: ReaderSpec = { name: spec.name, descriptor: d, check: textCheckOf({ name: spec.name, root: d.root, definitions: d.definitions }), hints, ...(fill === undefined ? {} : { fill }) };
    textSpecs.set(spec, (t = { reader, walker: walkerOf(reader), defs }));
  }
  return t;
}

/** The shape behind refs (undefined for a ref cycle with nothing in between). */
function resolve(s: Shape, defs: ReadonlyMap<string, Shape>): Shape | undefined {
  const seen = new Set<string>();
  let cur: Shape | undefined = s;
  while (cur !== undefined && cur.kind === "ref") {
    if (seen.has(cur.name)) return undefined;
    seen.add(cur.name);
    cur = defs.get(cur.name);
  }
  return cur;
}

/** One text being turned into frames (the encoder holds at most one, at the root). */
export class TextFeed {
  /** The value is complete and its frames are out (its fence closed, its JSON ended, or `end()`). */
  complete = false;
  private readonly reader: TextReader<unknown>;
  private readonly ts: TextSpec;
  /** Frames of the call in progress. */
  private out: Uint8Array[] = [];
  /** The error that stopped the feed (the reader's, or the encoder's refusal of a frame); thrown by every later call. */
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly enc: StreamEncoder<any, any>,
    options: TextStreamOptions,
  ) {
    optionsArg(options, "text");
    const input = options.input;
    if (input !== undefined && input !== "reply" && input !== "text") throw new ToonError("CONFIG_ERROR", `input must be "reply" or "text", got ${String(input)}`);
    this.ts = textSpecOf(enc.spec);
    // events come through onEvent: those `end()` completes, and those a piece completed before an error in it
    this.reader = textReader(this.ts.reader, { input, layout: options.layout, partialText: options.partialText === true, onEvent: (e) => this.event(e) });
  }

  /** More of the text: the frames of what it completed. */
  push(delta: string): Uint8Array[] {
    return this.run(() => void this.reader.push(delta));
  }

  /** The text is over: the frames of what its end completed (the value's remaining parts, its END frames). */
  end(): Uint8Array[] {
    return this.run(() => void this.reader.end());
  }

  private run(read: () => void): Uint8Array[] {
    if (this.failure !== undefined) throw this.failure.error;
    this.out = [];
    try {
      read();
    } catch (e) {
      this.failure ??= { error: e };
    }
    if (this.failure !== undefined) throw this.failure.error;
    return this.out;
  }

  private event(e: StreamEvent<unknown, any>): void {
    // after an error or the value's end (a second payload in the reply), nothing more is sent
    if (this.failure !== undefined || this.complete) return;
    try {
      if (e.type === "value") {
        this.finish([], e.value);
        this.complete = true;
      } else if (e.type === "element" || e.type === "field") {
        const keys = this.place(e.pointer);
        if (keys !== undefined) this.finish(keys, e.value);
      } else if (e.type === "text") {
        // (the string's own place: what holds it goes out around it when complete, `finish`); a string or null
        // is a union whose branch the encoder is told: the string's
        if (e.text.length === e.delta.length) {
          const union = this.shapeAt(e.pointer);
          if (union?.kind === "union") this.enc.branch(e.pointer, union.branches.findIndex((b) => resolve(b, this.ts.defs)?.kind === "string"));
        }
        this.add(this.enc.append(e.pointer, e.delta));
      }
    } catch (x) {
      // not thrown into the reader (it would take the encoder's error for its own): thrown once the read returns
      this.failure = { error: x };
    }
  }

  /**
   * The value at `keys` is complete: one VALUE frame when none of its parts went out yet; otherwise the parts that
   * did not (members, items: each the same way), then its END.
   */
  private finish(keys: readonly Token[], value: unknown): void {
    const node = this.enc.find(keys);
    if (node === undefined || !node.started) {
      this.add(this.enc.set(keys, value));
      return;
    }
    if (node.done) return;
    // a string that went out in part (partialText): the rest of its text, then its END
    if (typeof value === "string" && node.text !== null) {
      const sent = node.text;
      const pointer = keys.map(pointerSegment).join("");
      if (!value.startsWith(sent)) throw new ToonError("INVALID_VALUE", "internal: the text sent of a string is not the start of its value", { path: pointer });
      if (value.length > sent.length) this.add(this.enc.append(pointer, value.slice(sent.length)));
    }
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) this.finish([...keys, i], value[i]);
    else if (value !== null && typeof value === "object") for (const k of Object.keys(value)) this.finish([...keys, k], getOwn(value, k));
    this.add(this.enc.endOpen(keys));
  }

  /** The shape (refs followed) at `pointer`, undefined where the schema names no position. */
  private shapeAt(pointer: string): Shape | undefined {
    const node = this.walk(pointer, false)?.node;
    return node === undefined || node === null ? undefined : resolve(node.shape, this.ts.defs);
  }

  /** The keys of the value at `pointer`, or undefined when an array item holds it (it goes out with the item). */
  private place(pointer: string): Token[] | undefined {
    return this.walk(pointer, true)?.keys;
  }

  /**
   * `pointer` as keys (indices where the schema has an array) and the schema's node there; undefined past a
   * position the schema names none below, or (`own`) past an array item, which holds what is below it.
   */
  private walk(pointer: string, own: boolean): { keys: Token[]; node: PathNode | null } | undefined {
    const walker = this.ts.walker;
    const keys: Token[] = [];
    let node: PathNode | null = walker.root;
    let at = 0;
    while (at < pointer.length) {
      if (node === null || (own && keys.length > 0 && node.item)) return undefined;
      const next = pointer.indexOf("/", at + 1);
      const seg = pointer.slice(at + 1, next < 0 ? pointer.length : next);
      at = next < 0 ? pointer.length : next;
      const raw = seg.indexOf("~") < 0 ? seg : seg.replace(/~1/g, "/").replace(/~0/g, "~");
      const kind = resolve(node.shape, this.ts.defs)?.kind;
      const key: Token = kind === "array" || kind === "tuple" ? Number(raw) : raw;
      keys.push(key);
      node = walker.child(node, key);
    }
    return { keys, node };
  }

  private add(frames: Uint8Array[]): void {
    for (const f of frames) this.out.push(f);
  }
}
