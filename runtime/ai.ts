/**
 * The AI SDK adapter (`@toon-gen/runtime/ai`): `toonOutput(codec)` is an `Output` for the AI SDK's `streamText`
 * and `generateText` (AI SDK 7: `output: ...`), so that a codec's reply is streamed as typed partial values,
 * streamed element by element, and read whole as the checked value, in TOON v4, the dense layout or JSON:
 *
 * ```ts
 * import { streamText } from "ai";
 * import { toonOutput } from "@toon-gen/runtime/ai";
 * import { OrderList } from "./gen/order-list.js";
 *
 * const output = toonOutput(OrderList, { layout: "dense", elements: "orders" });
 * const result = streamText({ model, system: output.instructions, prompt: "My last orders?", output });
 * for await (const partial of result.partialOutputStream) render(partial.orders); // PartialValue<OrderList>
 * const orders: OrderList = await result.output; // checked; else a ToonError (INCOMPLETE, NO_PAYLOAD, ...)
 * ```
 *
 * - `partialOutputStream`: each partial holds only complete, checked parts (a table row once its line is read,
 *   never half a string); a new one whenever a part completes. With `partialText: true`, also the string the
 *   model is writing, as far as it came (as `Output.object()` shows it): a new partial as it grows.
 * - `elementStream`: the root's items (an array root), or with `elements: "key"` the items of that root property
 *   (`Order` above), each once, when complete and checked.
 * - `output`: the checked value, or a ToonError with its code (INCOMPLETE for a reply cut off, finishReason
 *   "length"; NO_PAYLOAD; TEXT_SYNTAX; INVALID_VALUE). The error also carries what the SDK's own
 *   `NoObjectGeneratedError` carries (`text`, `response`, `usage`, `finishReason`) and its marker, so
 *   `NoObjectGeneratedError.isInstance(e)` holds for it as for `Output.object()`'s failures.
 *
 * The reply stays plain text (`responseFormat` text): the instructions ask for the layout and a fence, and the
 * reader finds the payload in whatever the model writes around it (prose, fences, `<think>` blocks) and reads any
 * layout. The SDK passes the whole text so far at every delta; one reader per reply is given only what is new, so
 * each character is read once (a text that does not continue the last one is another reply: a new reader), and a
 * partial is made only when a part completed (the SDK compares each with the last as JSON; a partial holding a
 * bigint, from a codec generated with `int64: "bigint"`, gets a `toJSON` that writes it as a string).
 * Use one `toonOutput` per call: calls sharing one in parallel get their outputs right but restart each other's
 * reader (and their partials may mix). No dependency on `ai`: the SDK's shapes it needs are declared here.
 */
import { ToonError, optionsArg, pointerSegment, type ToonErrorOptions } from "./wire/errors.ts";
import type { PartialValue, PathMap, StreamEvent } from "./stream/events.ts";
import type { JsonRepair } from "./text/json-repair.ts";
import type { ModelOutput, ModelOutputOptions } from "./text/model-output.ts";
import type { TextReader, TextReaderOptions } from "./text/reader/text-reader.ts";
import { withFacts } from "./text/reader/facts.ts";

/** What `toonOutput` needs of a codec: its Prompt group (`OrderListPrompt`) or the codec object (`OrderList`). */
export interface ToonOutputCodec<T, P extends PathMap = PathMap> {
  reader(options?: TextReaderOptions): TextReader<T, P>;
  fromModelOutput(output: ModelOutput, options?: ModelOutputOptions): T;
  formatInstructions(options?: { layout?: "toon" | "dense" }): string;
}

export interface ToonOutputOptions<K = undefined> {
  /**
   * The layout the model is asked for (`instructions`): `"toon"` (TOON v4, the default), `"dense"` or `"json"`.
   * The reader reads whichever the model writes.
   */
  layout?: "toon" | "dense" | "json";
  /** Accept what `fromModelOutput(reply, { repair: true })` accepts (JSON slips, a miscounted `[N]`). */
  repair?: boolean;
  /** Called for each repair made (with `repair: true`), once the value has read. */
  onRepair?: (repair: JsonRepair) => void;
  /**
   * Partials show the string the model is still writing, as far as it came (in JSON, and in a TOON or dense line
   * not yet complete: a field's value, a table row's cell, a list item); by default only complete parts.
   */
  partialText?: boolean;
  /**
   * What `elementStream` yields: by default the root's items when the root is an array (nothing otherwise);
   * a root property's name (`"orders"`): that array's items; `false`: no element stream (the SDK then says so).
   */
  elements?: K;
}

/** The names of `T`'s properties that hold arrays (what `elements` may name). */
export type ArrayKeys<T> = T extends readonly unknown[] ? never : { [K in keyof T & string]-?: NonNullable<T[K]> extends readonly unknown[] ? K : never }[keyof T & string];

/** What the element stream yields: the items of the root property `K`, else the root's items. */
export type ElementOf<T, K> = [K] extends [string] ? (K extends keyof T ? (NonNullable<T[K]> extends readonly (infer E)[] ? E : never) : never) : [K] extends [false] ? never : T extends readonly (infer E)[] ? E : never;

/** What the AI SDK passes along with the complete text: the step's response metadata, usage and finish reason. */
export interface ToonOutputContext {
  response?: unknown;
  usage?: unknown;
  finishReason?: unknown;
}

/** A part of the AI SDK's stream with the partial output it carries (the SDK's `EnrichedStreamPart`). */
export interface ToonOutputStreamPart<PARTIAL> {
  part: unknown;
  partialOutput: PARTIAL | undefined;
}

/** The AI SDK `Output<T, PartialValue<T>, E>` of a codec, and the prompt snippet that asks for its layout. */
export interface ToonOutput<T, E = never> {
  readonly name: "toon";
  /** Plain text: the reply is read out of the model's text (JSON mode or a schema would forbid the layout). */
  readonly responseFormat: PromiseLike<{ type: "text" }>;
  /** The layout asked for. */
  readonly layout: "toon" | "dense" | "json";
  /**
   * The prompt snippet (`codec.formatInstructions({ layout })`) that teaches the model the shape and the layout,
   * for the system prompt; undefined for `"json"` (no snippet: describe the JSON in the prompt).
   */
  readonly instructions: string | undefined;
  /** The SDK's: the value so far, when something new completed (complete, checked parts only). */
  parsePartialOutput(options: { text: string }): Promise<{ partial: PartialValue<T> } | undefined>;
  /** The SDK's: the checked value, or the ToonError. */
  parseCompleteOutput(options: { text: string }, context?: ToonOutputContext): Promise<T>;
  /** The SDK's: the elements as they complete (undefined with `elements: false`). */
  createElementStreamTransform(): TransformStream<ToonOutputStreamPart<PartialValue<T>>, E> | undefined;
}

/** What the element stream looks at in an event (the events' types depend on the module's stream paths). */
type EventFacts = { type: string; pointer: string; index?: number; value?: unknown };

/** The SDK's marker of `NoObjectGeneratedError` (its `isInstance` checks this global symbol, not the class). */
const NO_OBJECT = Symbol.for("vercel.ai.error.AI_NoObjectGeneratedError");

/** One reply as it streams: its reader and what has been read of it. */
class Reply<T, P extends PathMap> {
  /** The reply's text read so far (the SDK passes all of it each time). */
  text = "";
  /** The reader threw while the reply streamed: no more partials; the whole reading decides. */
  failed = false;
  /** The outcome at `text` once asked for (the reader's `end()`, or the whole reading). */
  settled: { text: string; value: T } | { text: string; error: unknown } | undefined;
  /** The elements completed so far, in order. */
  readonly elements: unknown[] = [];

  constructor(readonly reader: TextReader<T, P>) {}
}

/** `codec` as an AI SDK `Output`: see the module's comment. */
export function toonOutput<T, P extends PathMap = PathMap, K extends ArrayKeys<T> | false | undefined = undefined>(codec: ToonOutputCodec<T, P>, options: ToonOutputOptions<K> = {}): ToonOutput<T, ElementOf<T, K>> {
  if (codec === null || typeof codec !== "object" || typeof codec.reader !== "function" || typeof codec.fromModelOutput !== "function" || typeof codec.formatInstructions !== "function") {
    throw new ToonError("CONFIG_ERROR", "toonOutput expects a generated codec (or its Prompt group): an object with reader, fromModelOutput and formatInstructions");
  }
  optionsArg(options, "toonOutput");
  const layout = options.layout ?? "toon";
  if (layout !== "toon" && layout !== "dense" && layout !== "json") throw new ToonError("CONFIG_ERROR", `layout must be "toon", "dense" or "json", got ${String(layout)}`);
  const key = options.elements;
  if (key !== undefined && key !== false && typeof key !== "string") throw new ToonError("CONFIG_ERROR", `elements must be a root property's name or false, got ${typeof key}`);
  const read: ModelOutputOptions = { repair: options.repair === true };
  if (options.onRepair !== undefined) read.onRepair = options.onRepair;
  const partialText = options.partialText === true;
  // an element's pointer: `/<index>` at the root, `/<key>/<index>` under a root property
  const prefix = typeof key === "string" ? pointerSegment(key) : "";

  let current: Reply<T, P> | undefined;
  /** Parts of partials known to hold no bigint (see `comparable`). */
  const clean = new WeakSet<object>();
  /** Which reply a partial came from and how many elements were complete then (for the element stream). */
  const marks = new WeakMap<object, { reply: Reply<T, P>; count: number }>();

  /** The reply `text` continues (the SDK appends to it), or a new one. */
  const replyOf = (text: string): Reply<T, P> => {
    const r = current;
    if (r !== undefined && r.settled === undefined && continues(text, r.text)) return r;
    return (current = new Reply<T, P>(codec.reader(partialText ? { ...read, partialText } : read)));
  };

  /** The checked value of `text`, read by `r` when it has read the start of it, else whole. */
  const settle = (r: Reply<T, P> | undefined, text: string): T => {
    if (r !== undefined && r.settled !== undefined && r.settled.text === text) {
      if ("value" in r.settled) return r.settled.value;
      throw r.settled.error;
    }
    // the reply `r` has read the start of (checked whole, once: this runs once or twice per reply)
    const mine = r !== undefined && r.settled === undefined && text.startsWith(r.text);
    try {
      if (mine && !r.failed) {
        try {
          if (text.length > r.text.length) r.reader.push(text.slice(r.text.length));
          r.text = text;
          const value = r.reader.end();
          r.settled = { text, value };
          return value;
        } catch (e) {
          if (!(e instanceof ToonError)) throw e;
          // the whole reading decides: it may find a payload the streaming search could not look ahead to
          // (a ```toon fence after a JSON-looking line), and its error is the one generateText gives
        }
      }
      const value = codec.fromModelOutput(text, read);
      if (r !== undefined && mine) r.settled = { text, value };
      return value;
    } catch (e) {
      if (r !== undefined && mine) r.settled = { text, error: e };
      throw e;
    }
  };

  const output: ToonOutput<T, ElementOf<T, K>> = {
    name: "toon",
    responseFormat: Promise.resolve({ type: "text" as const }),
    layout,
    instructions: layout === "json" ? undefined : codec.formatInstructions({ layout }),

    async parsePartialOutput({ text }) {
      const r = replyOf(text);
      if (text.length === r.text.length) return undefined;
      const delta = text.slice(r.text.length);
      r.text = text;
      if (r.failed) return undefined;
      let events: StreamEvent<T, P>[];
      try {
        events = r.reader.push(delta);
      } catch (e) {
        if (!(e instanceof ToonError)) throw e;
        // no more partials: parseCompleteOutput reports the error (a partial stream never throws, as the SDK's own)
        r.failed = true;
        return undefined;
      }
      // nothing completed: no partial (the SDK would only compare it with the last one)
      if (events.length === 0) return undefined;
      if (key !== false) {
        for (const e of events as readonly EventFacts[]) if (e.type === "element" && e.pointer === `${prefix}/${e.index}`) r.elements[e.index!] = e.value;
      }
      const snapshot = r.reader.snapshot({ partialText });
      if (snapshot === undefined || typeof snapshot === "bigint") return undefined; // (a bigint root: nothing to compare it by)
      const partial = comparable(snapshot, clean);
      if (typeof partial === "object" && partial !== null) marks.set(partial, { reply: r, count: r.elements.length });
      return { partial };
    },

    async parseCompleteOutput({ text }, context) {
      try {
        return settle(current, text);
      } catch (e) {
        throw e instanceof ToonError ? outputError(e, text, context) : e;
      }
    },

    createElementStreamTransform() {
      if (key === false) return undefined;
      let published = 0;
      let seen: Reply<T, P> | undefined;
      return new TransformStream<ToonOutputStreamPart<PartialValue<T>>, ElementOf<T, K>>({
        transform({ partialOutput }, controller) {
          if (partialOutput === null || typeof partialOutput !== "object") return;
          const mark = marks.get(partialOutput);
          if (mark === undefined) return;
          seen = mark.reply;
          // (one count across replies, as Output.array keeps it: a retried reply's first elements are not sent twice)
          for (; published < mark.count; published++) controller.enqueue(mark.reply.elements[published] as ElementOf<T, K>);
        },
        flush(controller) {
          // the last elements complete with the value (at the closing fence, or the end of the reply)
          const r = seen ?? current;
          if (r === undefined) return;
          let value: T;
          try {
            value = settle(r, r.text);
          } catch (e) {
            if (e instanceof ToonError) return; // the element stream ends; `output` rejects with the error (as Output.array)
            throw e;
          }
          const items = typeof key === "string" ? (value as Record<string, unknown> | null)?.[key] : value;
          if (!Array.isArray(items)) return;
          for (; published < items.length; published++) controller.enqueue(items[published] as ElementOf<T, K>);
        },
      });
    },
  };
  return output;
}

/**
 * `partial` as the SDK can compare it: it compares each partial with the last by `JSON.stringify`, which throws
 * on a bigint (a codec generated with `int64: "bigint"`) and so fails the whole call. A partial holding one is a
 * copy of its root with a `toJSON` (not enumerable) that writes each bigint as its decimal string.
 */
function comparable<V>(partial: V, clean: WeakSet<object>): V {
  if (partial === null || typeof partial !== "object" || !holdsBigInt(partial, clean)) return partial;
  const copy = (Array.isArray(partial) ? [...partial] : Object.defineProperties({}, Object.getOwnPropertyDescriptors(partial))) as object;
  Object.defineProperty(copy, "toJSON", { value: () => bigintsAsStrings(partial), configurable: true, writable: true });
  return copy as V;
}

/**
 * Whether a bigint is anywhere in `v` (an explicit stack: no recursion on a deep value). `clean`: objects known
 * to hold none, passed over: the values a reader tells are never changed again and every later partial shares
 * them, so each is looked through once.
 */
function holdsBigInt(v: object, clean: WeakSet<object>): boolean {
  const stack: unknown[] = [v];
  const seen: object[] = [];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === "bigint") return true;
    if (x === null || typeof x !== "object" || clean.has(x)) continue;
    seen.push(x);
    for (const k of Object.keys(x)) stack.push((x as Record<string, unknown>)[k]);
  }
  for (const x of seen) clean.add(x);
  return false;
}

/** `v` as JSON-safe data: bigints as decimal strings (what a JSON reader of the value's text would keep). */
function bigintsAsStrings(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)));
}

/** Characters compared at each end of the text read so far (see `continues`). */
const WINDOW = 64;

/**
 * Whether `text` continues `before` (the SDK appended to it), compared at both ends of `before` only: comparing
 * all of it at every delta costs the square of the reply's length (measured on a 107,000-character reply in
 * 4-character deltas: 6 to 10 s, where reading the new characters of the SDK's text, which V8 copies flat at
 * each delta, costs 1.5 s). A text that merely agrees there (another reply sharing its start, and the characters
 * where `before` ends) is taken as a continuation while it streams; the final value is read only from a reader
 * whose whole text matches (`settle`), else from the reply whole.
 */
function continues(text: string, before: string): boolean {
  const n = before.length;
  if (text.length < n) return false;
  if (n <= 2 * WINDOW) return text.startsWith(before);
  return text.startsWith(before.slice(0, WINDOW)) && text.startsWith(before.slice(n - WINDOW), n - WINDOW);
}

/**
 * The ToonError of a failed reply, as the SDK's `NoObjectGeneratedError` describes one: the reply's text, the
 * response metadata, usage and finish reason, and the SDK's marker (its `isInstance` then holds). A copy: the
 * reader's own error is thrown again by later calls.
 */
function outputError(e: ToonError, text: string, context: ToonOutputContext | undefined): ToonError {
  const opts: ToonErrorOptions = { path: e.path, cause: e.cause };
  if (e.offset !== undefined) opts.offset = e.offset;
  if (e.line !== undefined) opts.line = e.line;
  if (e.column !== undefined) opts.column = e.column;
  if (e.details !== undefined) opts.details = e.details;
  const x = withFacts(new ToonError(e.code, e.reason, opts), e.count, e.atEnd);
  const facts = { text, response: context?.response, usage: context?.usage, finishReason: context?.finishReason };
  for (const [k, v] of Object.entries(facts)) Object.defineProperty(x, k, { value: v, enumerable: true, configurable: true, writable: true });
  Object.defineProperty(x, NO_OBJECT, { value: true });
  return x;
}
