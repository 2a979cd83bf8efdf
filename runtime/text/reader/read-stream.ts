/**
 * `Codec.readStream(source)`: the events of a streamed reply as an async iterator, from whatever the stream is: an
 * `AsyncIterable<string>` of text deltas (the AI SDK's `textStream`, a `ReadableStream` of strings, read through
 * its reader where it is not async-iterable, as in Safari), or the provider SDKs' own stream events, whose text
 * deltas are read and everything else (reasoning, tool calls, usage) passed over:
 * - OpenAI Chat Completions chunks: the first choice's `delta.content` (`reasoning_content` skipped);
 * - OpenAI Responses events: `response.output_text.delta` (`delta`);
 * - Anthropic Messages events: `content_block_delta` with a `text_delta` (`thinking_delta` skipped);
 * - the AI SDK's `fullStream` parts: `text-delta` (`reasoning-delta` skipped).
 * Text blocks are joined by a line break, as `fromModelOutput` joins a reply's text parts (a fence that opens a
 * second block starts a line). An error the stream reports in band (an AI SDK `error` part, a Responses `error`
 * or `response.failed` event) ends the iteration with INCOMPLETE while the value is not whole; an error the
 * source throws passes through as it is. Once the value is whole, the rest of the source is still read (and
 * passed over), so that an SDK's stream helper finishes normally (`finalMessage()`, usage): break out of the loop
 * to stop it instead. Tool calls in these streams are the tool-call accumulator's (runtime/tools.ts).
 */
import { ToonError } from "../../wire/errors.ts";
import type { StreamEvent } from "../../stream/events.ts";
import type { ReaderSpec } from "./payload-reader.ts";
import { textReader, type TextReader, type TextReaderOptions } from "./text-reader.ts";

/** A streamed reply: text deltas, or an SDK's stream of events or chunks (anything async-iterable, a ReadableStream). */
export type TextSource = AsyncIterable<unknown> | Iterable<unknown> | StreamOfParts;

/**
 * What the runtime needs of a ReadableStream (written out: the runtime's types must not need the DOM's, which an
 * app compiled for Node without them does not have).
 */
export interface StreamOfParts {
  getReader(): { read(): Promise<{ done: boolean; value?: unknown }>; cancel(reason?: unknown): Promise<void>; releaseLock(): void };
}

type PathMap = Record<string, unknown>;

/**
 * The events of `source` read by `spec`'s reader, as they complete; the last is the whole value. The source and
 * the options are checked here, before the first `next()`.
 */
export function readTextStream<T, P extends PathMap = PathMap>(spec: ReaderSpec, source: TextSource, options?: TextReaderOptions): AsyncGenerator<StreamEvent<T, P>, void, undefined> {
  const parts = iterableOf(source);
  if (parts === undefined) throw new ToonError("INVALID_VALUE", "readStream expects an async iterable of text deltas or stream events (the AI SDK's textStream, an OpenAI or Anthropic stream)");
  // what `end()` completes (a last row, the whole value) comes through onEvent: `push` returns the rest
  const last: StreamEvent<T, P>[] = [];
  const ending = { now: false };
  const onEvent = options?.onEvent;
  const r = textReader<T, P>(spec, {
    ...options,
    onEvent: (e) => {
      if (ending.now) last.push(e as StreamEvent<T, P>);
      onEvent?.(e);
    },
  });
  return events(r, parts, last, ending);
}

/** `source` as something `for await` takes: itself, or the chunks of a ReadableStream that is not async-iterable (Safari's). */
function iterableOf(source: unknown): AsyncIterable<unknown> | Iterable<unknown> | undefined {
  if (source === null || typeof source !== "object") return undefined;
  if (typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function" || typeof (source as Iterable<unknown>)[Symbol.iterator] === "function") return source as AsyncIterable<unknown>;
  if (typeof (source as StreamOfParts).getReader === "function") return chunksOf(source as StreamOfParts);
  return undefined;
}

async function* chunksOf(stream: StreamOfParts): AsyncGenerator<unknown, void, undefined> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) {
        done = true;
        return;
      }
      yield r.value;
    }
  } finally {
    // left early (the loop broke, or threw): cancel the stream, as `for await` over a ReadableStream does
    // (an errored stream's cancel rejects with the error already on its way out)
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

async function* events<T, P extends PathMap>(r: TextReader<T, P>, source: AsyncIterable<unknown> | Iterable<unknown>, last: StreamEvent<T, P>[], ending: { now: boolean }): AsyncGenerator<StreamEvent<T, P>, void, undefined> {
  let block: unknown;
  let texts = 0;
  for await (const part of source as AsyncIterable<unknown>) {
    if (r.done) continue; // the value is whole: the rest of the reply is not ours (read on, see above)
    const p = partOf(part);
    if (p === undefined) continue;
    if (p.error !== undefined) throw p.error;
    if (p.text.length === 0) continue;
    if (texts++ > 0 && p.block !== block) yield* r.push("\n");
    block = p.block;
    yield* r.push(p.text);
  }
  if (!r.done) {
    ending.now = true;
    r.end();
    yield* last;
  }
}

/** A stream part's text and the block it belongs to (a new block starts a line), or the error it reports. */
type Part = { text: string; block: unknown; error?: undefined } | { text: ""; block?: undefined; error: ToonError };

/** The reply text a stream part carries (undefined: none, such as reasoning, tool calls or usage). */
export function textOf(part: unknown): string | undefined {
  const p = partOf(part);
  return p === undefined || p.error !== undefined ? undefined : p.text;
}

function partOf(part: unknown): Part | undefined {
  if (typeof part === "string") return { text: part, block: undefined };
  if (typeof part !== "object" || part === null) return undefined;
  if (ArrayBuffer.isView(part) || part instanceof ArrayBuffer) {
    // bytes never carry a reasoning part to pass over: passing them over would read nothing, silently
    throw new ToonError("INVALID_VALUE", "readStream reads text, got bytes: decode them first (response.body.pipeThrough(new TextDecoderStream()))");
  }
  const o = part as Record<string, unknown>;
  // OpenAI Chat Completions: the delta of the first choice (with n > 1 each chunk may carry another choice's)
  if (Array.isArray(o.choices)) {
    const choice = (o.choices as { index?: unknown; delta?: { content?: unknown } }[]).find((c) => c !== null && typeof c === "object" && (c.index ?? 0) === 0);
    const c = choice?.delta?.content;
    return typeof c === "string" ? { text: c, block: undefined } : undefined;
  }
  switch (o.type) {
    // OpenAI Responses: one block per output item's content part
    case "response.output_text.delta":
      return typeof o.delta === "string" ? { text: o.delta, block: `${String(o.item_id ?? o.output_index)}:${String(o.content_index)}` } : undefined;
    // Anthropic Messages: one block per content block
    case "content_block_delta": {
      const d = o.delta as { type?: unknown; text?: unknown } | undefined;
      return d?.type === "text_delta" && typeof d.text === "string" ? { text: d.text, block: o.index } : undefined;
    }
    // the AI SDK's fullStream parts (`text`), its UI message chunks (`delta`): one block per id
    case "text-delta": {
      const t = typeof o.text === "string" ? o.text : typeof o.delta === "string" ? o.delta : undefined;
      return t === undefined ? undefined : { text: t, block: o.id };
    }
    // errors reported in band (the AI SDK's `error` part, an OpenAI Responses `error` event, Anthropic's `error`)
    case "error":
      return failed(o.error ?? o);
    case "response.failed":
      return failed((o.response as { error?: unknown } | undefined)?.error ?? o);
    default:
      return undefined;
  }
}

/** INCOMPLETE, with the stream's error as its cause (and its message in the reason). */
function failed(error: unknown): Part {
  const m = error instanceof Error ? error.message : typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string" ? (error as { message: string }).message : undefined;
  const reason = `the stream reported an error before the value was complete${m === undefined ? "" : `: ${m}`}`;
  return { text: "", error: new ToonError("INCOMPLETE", reason, { cause: error }) };
}
