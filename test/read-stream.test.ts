/**
 * `Codec.readStream(source)` (runtime/text/reader/read-stream.ts) on the streams it is given in practice: an async
 * generator of text deltas, and the real `openai` (Chat Completions, Responses) and `@anthropic-ai/sdk` (Messages)
 * clients reading recorded SSE bodies offline through a custom `fetch`. The bodies are built here from the orders
 * example (dense and TOON v4 text in small deltas, after a reasoning delta that must be passed over). Checked: one
 * element event per order in order (pointer `/orders/<i>`, the typed, checked order), the last event the value
 * `fromModelOutput` reads from the joined text, an error in the middle thrown after the events before it, and the
 * SDK's stream helpers still finishing normally (`finalMessage()`) after the value.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { ToonError } from "../runtime/wire/errors.ts";
import { textOf } from "../runtime/text/reader/read-stream.ts";
import { OrderList, type Order } from "../examples/orders/gen/order-list.ts";
import { deltas, firstOrders, ORDERS, payloadOf, replyOf, type Layout } from "./support/stream-replies.ts";

/** The orders' events, typed by the module's stream paths. */
type OrderEvent = ReturnType<ReturnType<typeof OrderList.reader>["push"]>[number];

/** The events of a stream, all of them. */
async function collect(source: AsyncIterable<OrderEvent>): Promise<OrderEvent[]> {
  const out: OrderEvent[] = [];
  for await (const e of source) out.push(e);
  return out;
}

async function* strings(parts: readonly string[]): AsyncGenerator<string> {
  for (const p of parts) yield p;
}

/**
 * What the events must be: an element event per order, in order (`orders[]`, `/orders/<i>`, the order itself: a
 * dense table row is told when its line ends, a TOON list item when the next begins or the fence closes), and
 * the last event the value. `told`: how many orders come as element events (an unfenced reply's last row ends
 * with the reply, and comes only in the value: the reader's `end()` returns no events).
 */
function checkEvents(events: OrderEvent[], expected: OrderList, joined: string, told = expected.orders.length): void {
  const elements = events.filter((e) => e.type === "element" && /^\/orders\/\d+$/.test(e.pointer));
  const orders: Order[] = [];
  for (const [i, e] of elements.entries()) {
    assert.equal(e.type === "element" && e.path, "orders[]");
    assert.equal(e.pointer, `/orders/${i}`);
    if (e.type === "element" && e.path === "orders[]") {
      assert.equal(e.index, i);
      const order: Order = e.value; // typed by the module's stream paths
      orders.push(order);
    }
  }
  assert.deepEqual(orders, expected.orders.slice(0, orders.length));
  assert.equal(orders.length, told);
  const last = events[events.length - 1]!;
  assert.equal(last.type, "value");
  assert.equal(events.filter((e) => e.type === "value").length, 1);
  if (last.type === "value") {
    const value: OrderList = last.value;
    assert.deepEqual(value, OrderList.fromModelOutput(joined));
    assert.deepEqual(value, expected);
  }
}

// ------------------------------------------------------------------------------------------------ recorded SSE

/** A fetch that answers every request with `body` (SSE), in pieces of `size` bytes. */
function replay(body: string, size = 13): typeof fetch {
  const bytes = new TextEncoder().encode(body);
  return (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < bytes.length; i += size) c.enqueue(bytes.subarray(i, i + size));
          c.close();
        },
      }),
      { status: 200, headers: { "content-type": "text/event-stream" } },
    )) as typeof fetch;
}

/** A reasoning delta written to break the payload search if it were read as text. */
const REASONING = "The user wants orders. ```toon\norders[99]{id}:\n  oops";

/** Chat Completions chunks: role, a `reasoning_content` delta, the content deltas, finish, usage; `data: [DONE]`. */
function chatSse(parts: readonly string[], opts: { otherChoice?: boolean } = {}): string {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1767225600, model: "gpt-4.1-mini", choices, ...extra })}\n\n`;
  const delta = (d: Record<string, unknown>, index = 0, finish: string | null = null) => ({ index, delta: d, logprobs: null, finish_reason: finish });
  let out = chunk([delta({ role: "assistant", content: "" })]);
  out += chunk([delta({ reasoning_content: REASONING })]);
  for (const p of parts) {
    out += chunk([delta({ content: p })]);
    // with n = 2, chunks of the second choice interleave: never read
    if (opts.otherChoice === true) out += chunk([delta({ content: "{not json" }, 1)]);
  }
  out += chunk([delta({}, 0, "stop")]);
  out += chunk([], { usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } });
  return out + "data: [DONE]\n\n";
}

/** Responses events: a reasoning item with a summary delta, then a message whose text arrives in deltas. */
function responsesSse(parts: readonly string[]): string {
  const response = { id: "resp_1", object: "response", created_at: 1767225600, status: "in_progress", model: "gpt-4.1-mini", output: [] };
  const text = parts.join("");
  const msg = { type: "message", id: "msg_1", role: "assistant", status: "in_progress", content: [] };
  const reasoning = { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: REASONING }] };
  const done = { ...msg, status: "completed", content: [{ type: "output_text", text, annotations: [] }] };
  const events: Record<string, unknown>[] = [
    { type: "response.created", response },
    { type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_1", summary: [] } },
    { type: "response.reasoning_summary_part.added", item_id: "rs_1", output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } },
    { type: "response.reasoning_summary_text.delta", item_id: "rs_1", output_index: 0, summary_index: 0, delta: REASONING },
    { type: "response.reasoning_summary_part.done", item_id: "rs_1", output_index: 0, summary_index: 0, part: { type: "summary_text", text: REASONING } },
    { type: "response.output_item.done", output_index: 0, item: reasoning },
    { type: "response.output_item.added", output_index: 1, item: msg },
    { type: "response.content_part.added", item_id: "msg_1", output_index: 1, content_index: 0, part: { type: "output_text", text: "", annotations: [] } },
    ...parts.map((delta) => ({ type: "response.output_text.delta", item_id: "msg_1", output_index: 1, content_index: 0, delta, logprobs: [] })),
    { type: "response.output_text.done", item_id: "msg_1", output_index: 1, content_index: 0, text, logprobs: [] },
    { type: "response.content_part.done", item_id: "msg_1", output_index: 1, content_index: 0, part: { type: "output_text", text, annotations: [] } },
    { type: "response.output_item.done", output_index: 1, item: done },
    { type: "response.completed", response: { ...response, status: "completed", output: [reasoning, done] } },
  ];
  return events.map((e, n) => `event: ${String(e.type)}\ndata: ${JSON.stringify({ ...e, sequence_number: n })}\n\n`).join("");
}

/** Messages events: a thinking block (thinking and signature deltas), then text blocks whose text arrives in deltas. */
function anthropicEvents(blocks: readonly (readonly string[])[], opts: { errorAfter?: number } = {}): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [
    { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-6", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: REASONING } },
    { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQBCgIYAh" } },
    { type: "content_block_stop", index: 0 },
  ];
  let n = 0;
  blocks.forEach((parts, b) => {
    events.push({ type: "content_block_start", index: b + 1, content_block: { type: "text", text: "" } });
    for (const text of parts) {
      if (n++ === opts.errorAfter) events.push({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
      events.push({ type: "content_block_delta", index: b + 1, delta: { type: "text_delta", text } });
    }
    events.push({ type: "content_block_stop", index: b + 1 });
  });
  events.push({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 321 } }, { type: "message_stop" });
  return events;
}

const anthropicSse = (events: Record<string, unknown>[]): string => events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join("");

const openai = (body: string): OpenAI => new OpenAI({ apiKey: "offline", baseURL: "http://offline.invalid/v1", fetch: replay(body), maxRetries: 0 });
const anthropic = (body: string): Anthropic => new Anthropic({ apiKey: "offline", baseURL: "http://offline.invalid", fetch: replay(body), maxRetries: 0 });

// ------------------------------------------------------------------------------------------------ tests

describe("readStream: text deltas", () => {
  for (const layout of ["dense", "toon"] as const satisfies readonly Layout[]) {
    test(`an async generator of ${layout} deltas: an element per order, then the value`, async () => {
      const reply = replyOf(ORDERS, layout);
      for (const seed of [1, 2, 3]) checkEvents(await collect(OrderList.readStream(strings(deltas(reply, seed)))), ORDERS, reply);
      // one character at a time, and the whole reply in one delta
      checkEvents(await collect(OrderList.readStream(strings(reply.split("")))), ORDERS, reply);
      checkEvents(await collect(OrderList.readStream(strings([reply]))), ORDERS, reply);
    });
  }

  test("a plain array of deltas (a sync iterable) reads the same", async () => {
    const reply = replyOf(firstOrders(4), "dense");
    checkEvents(await collect(OrderList.readStream(deltas(reply, 9))), firstOrders(4), reply);
  });

  test("JSON in a fence: the orders as they complete, then the value", async () => {
    const reply = replyOf(firstOrders(5), "json");
    checkEvents(await collect(OrderList.readStream(strings(deltas(reply, 4)))), firstOrders(5), reply);
  });

  test("an error in the middle of the source: thrown by the iterator after the events before it", async () => {
    const reply = replyOf(firstOrders(6), "dense");
    const cut = reply.indexOf(ORDERS.orders[4]!.id); // inside the fifth row
    const boom = new Error("connection reset");
    async function* failing(): AsyncGenerator<string> {
      yield* deltas(reply.slice(0, cut), 5);
      throw boom;
    }
    const seen: OrderEvent[] = [];
    await assert.rejects(async () => {
      for await (const e of OrderList.readStream(failing())) seen.push(e);
    }, (e) => e === boom);
    assert.deepEqual(
      seen.map((e) => e.pointer),
      ["/orders/0", "/orders/1", "/orders/2", "/orders/3"],
    );
  });

  test("a stream that ends inside the payload: the iterator throws INCOMPLETE after the complete rows", async () => {
    const reply = replyOf(firstOrders(3), "dense");
    const cut = reply.indexOf(ORDERS.orders[2]!.id) + 5;
    const seen: OrderEvent[] = [];
    await assert.rejects(async () => {
      for await (const e of OrderList.readStream(strings(deltas(reply.slice(0, cut), 6)))) seen.push(e);
    }, (e) => e instanceof ToonError && e.code === "INCOMPLETE");
    assert.deepEqual(
      seen.map((e) => e.pointer),
      ["/orders/0", "/orders/1"],
    );
  });

  test("the AI SDK's fullStream parts: text-delta read, reasoning passed over, an error part ends it as INCOMPLETE", async () => {
    const reply = replyOf(firstOrders(3), "dense");
    const parts = (upTo: number): unknown[] => [
      { type: "start" },
      { type: "reasoning-delta", id: "r", text: REASONING },
      { type: "text-start", id: "t" },
      ...deltas(reply.slice(0, upTo), 3).map((text) => ({ type: "text-delta", id: "t", text })),
    ];
    checkEvents(await collect(OrderList.readStream(parts(reply.length))), firstOrders(3), reply);
    const cause = new Error("rate limited");
    const failing = [...parts(reply.indexOf(ORDERS.orders[2]!.id)), { type: "error", error: cause }, { type: "text-delta", id: "t", text: "never read" }];
    const seen: OrderEvent[] = [];
    await assert.rejects(async () => {
      for await (const e of OrderList.readStream(failing)) seen.push(e);
    }, (e) => e instanceof ToonError && e.code === "INCOMPLETE" && e.cause === cause && /rate limited/.test(e.reason));
    assert.deepEqual(
      seen.map((e) => e.pointer),
      ["/orders/0", "/orders/1"],
    );
    // after the value, the rest of the stream is read and passed over (an error there takes nothing back)
    const late = [...parts(reply.length), { type: "error", error: cause }];
    checkEvents(await collect(OrderList.readStream(late)), firstOrders(3), reply);
  });

  test("a ReadableStream without async iteration (Safari's): read through its reader, cancelled when left early", async () => {
    const reply = replyOf(firstOrders(3), "dense");
    let cancelled = 0;
    const stream = (): { getReader(): ReadableStreamDefaultReader<string> } => {
      const s = new ReadableStream<string>({
        start(c) {
          for (const d of deltas(reply, 15)) c.enqueue(d);
          c.close();
        },
        cancel() {
          cancelled++;
        },
      });
      return { getReader: () => s.getReader() };
    };
    checkEvents(await collect(OrderList.readStream(stream() as never)), firstOrders(3), reply);
    assert.equal(cancelled, 0);
    for await (const e of OrderList.readStream(stream() as never)) if (e.type === "element") break;
    assert.equal(cancelled, 1);
  });

  test("the source is checked when readStream is called, bytes are refused", async () => {
    assert.throws(() => OrderList.readStream(null as never), (e) => e instanceof ToonError && e.code === "INVALID_VALUE");
    assert.throws(() => OrderList.readStream(42 as never), (e) => e instanceof ToonError && e.code === "INVALID_VALUE");
    await assert.rejects(collect(OrderList.readStream([new TextEncoder().encode("orders[0]:")])), (e) => e instanceof ToonError && e.code === "INVALID_VALUE" && /TextDecoderStream/.test(e.reason));
  });

  test("textOf: the text deltas of each SDK's parts, nothing from the others", () => {
    const cases: [unknown, string | undefined][] = [
      ["abc", "abc"],
      [{ choices: [{ index: 0, delta: { content: "x" } }] }, "x"],
      [{ choices: [{ index: 1, delta: { content: "x" } }] }, undefined],
      [{ choices: [{ index: 0, delta: { reasoning_content: "r" } }] }, undefined],
      [{ choices: [] }, undefined],
      [{ type: "response.output_text.delta", delta: "y" }, "y"],
      [{ type: "response.reasoning_summary_text.delta", delta: "r" }, undefined],
      [{ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "z" } }, "z"],
      [{ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "r" } }, undefined],
      [{ type: "text-delta", id: "t", text: "w" }, "w"],
      [{ type: "text-delta", id: "t", delta: "v" }, "v"],
      [{ type: "reasoning-delta", id: "r", text: "r" }, undefined],
      [{ type: "error", error: new Error("x") }, undefined],
      [null, undefined],
      [7, undefined],
    ];
    for (const [part, text] of cases) assert.equal(textOf(part), text, JSON.stringify(part));
  });
});

describe("readStream: the openai client, recorded streams", () => {
  for (const layout of ["dense", "toon"] as const satisfies readonly Layout[]) {
    test(`Chat Completions (create, stream: true), ${layout}: reasoning_content passed over`, async () => {
      const reply = replyOf(ORDERS, layout);
      const stream = await openai(chatSse(deltas(reply, 11))).chat.completions.create({ model: "gpt-4.1-mini", messages: [{ role: "user", content: "x" }], stream: true, stream_options: { include_usage: true } });
      checkEvents(await collect(OrderList.readStream(stream)), ORDERS, reply);
    });
  }

  test("Chat Completions with n = 2: only the first choice is read", async () => {
    const reply = replyOf(firstOrders(3), "dense");
    const stream = await openai(chatSse(deltas(reply, 12), { otherChoice: true })).chat.completions.create({ model: "gpt-4.1-mini", n: 2, messages: [{ role: "user", content: "x" }], stream: true });
    checkEvents(await collect(OrderList.readStream(stream)), firstOrders(3), reply);
  });

  test("Chat Completions stream helper: finalChatCompletion() still resolves after the value", async () => {
    const reply = replyOf(firstOrders(4), "dense");
    const stream = openai(chatSse(deltas(reply, 13))).chat.completions.stream({ model: "gpt-4.1-mini", messages: [{ role: "user", content: "x" }] });
    checkEvents(await collect(OrderList.readStream(stream)), firstOrders(4), reply);
    const final = await stream.finalChatCompletion();
    assert.equal(final.choices[0]!.message.content, reply);
  });

  for (const layout of ["dense", "toon"] as const satisfies readonly Layout[]) {
    test(`Responses (create, stream: true), ${layout}: the reasoning summary passed over`, async () => {
      const reply = replyOf(ORDERS, layout);
      const stream = await openai(responsesSse(deltas(reply, 21))).responses.create({ model: "gpt-4.1-mini", input: "x", stream: true });
      checkEvents(await collect(OrderList.readStream(stream)), ORDERS, reply);
    });
  }

  test("Responses stream helper; an error event in the middle ends it as INCOMPLETE after the orders before it", async () => {
    const reply = replyOf(firstOrders(4), "dense");
    const stream = openai(responsesSse(deltas(reply, 22))).responses.stream({ model: "gpt-4.1-mini", input: "x" });
    checkEvents(await collect(OrderList.readStream(stream)), firstOrders(4), reply);
    assert.equal((await stream.finalResponse()).output_text, reply);

    const cut = reply.indexOf(ORDERS.orders[3]!.id);
    const body = responsesSse(deltas(reply.slice(0, cut), 23)).replace(/event: response\.output_text\.done[\s\S]*$/, `event: error\ndata: ${JSON.stringify({ type: "error", code: "server_error", message: "The server had an error", param: null, sequence_number: 999 })}\n\n`);
    const failing = await openai(body).responses.create({ model: "gpt-4.1-mini", input: "x", stream: true });
    const seen: OrderEvent[] = [];
    await assert.rejects(async () => {
      for await (const e of OrderList.readStream(failing)) seen.push(e);
    }, (e) => e instanceof ToonError && e.code === "INCOMPLETE" && /server had an error/.test(e.reason));
    assert.deepEqual(
      seen.map((e) => e.pointer),
      ["/orders/0", "/orders/1", "/orders/2"],
    );
  });
});

describe("readStream: the anthropic client, recorded streams", () => {
  for (const layout of ["dense", "toon"] as const satisfies readonly Layout[]) {
    test(`Messages (create, stream: true), ${layout}: thinking passed over`, async () => {
      const reply = replyOf(ORDERS, layout);
      const stream = await anthropic(anthropicSse(anthropicEvents([deltas(reply, 31)]))).messages.create({ model: "claude-sonnet-4-6", max_tokens: 4096, messages: [{ role: "user", content: "x" }], stream: true });
      checkEvents(await collect(OrderList.readStream(stream)), ORDERS, reply);
    });
  }

  test("the stream helper: finalMessage() still resolves (usage included) after the value", async () => {
    const reply = replyOf(firstOrders(5), "dense");
    const stream = anthropic(anthropicSse(anthropicEvents([deltas(reply, 32)]))).messages.stream({ model: "claude-sonnet-4-6", max_tokens: 4096, messages: [{ role: "user", content: "x" }] });
    checkEvents(await collect(OrderList.readStream(stream)), firstOrders(5), reply);
    const message = await stream.finalMessage();
    assert.equal(message.usage.output_tokens, 321);
  });

  test("two text blocks: joined by a line break, as fromModelOutput joins the message's content", async () => {
    // the second block is the bare dense table: its header must start a line (run on, it is no payload at all)
    const payload = payloadOf(firstOrders(3), "dense");
    const blocks = [deltas("Let me look these up:", 33), deltas(payload, 34)];
    const stream = anthropic(anthropicSse(anthropicEvents(blocks))).messages.stream({ model: "claude-sonnet-4-6", max_tokens: 4096, messages: [{ role: "user", content: "x" }] });
    const events = await collect(OrderList.readStream(stream));
    const message = await stream.finalMessage();
    const value = events[events.length - 1]!;
    assert.equal(value.type, "value");
    assert.deepEqual(value.type === "value" && value.value, OrderList.fromModelOutput(message.content));
    checkEvents(events, firstOrders(3), "Let me look these up:\n" + payload, 2);
  });

  test("an error event in the middle: the SDK's error thrown after the orders before it", async () => {
    const reply = replyOf(firstOrders(4), "dense");
    const parts = deltas(reply, 35);
    let at = 0;
    // (inside order 2's id: the line break that ends order 1's row comes before, in a delta the stream delivers)
    const cut = reply.indexOf(ORDERS.orders[2]!.id) + ORDERS.orders[2]!.id.length;
    for (let len = 0; len + parts[at]!.length <= cut; at++) len += parts[at]!.length;
    const stream = await anthropic(anthropicSse(anthropicEvents([parts], { errorAfter: at }))).messages.create({ model: "claude-sonnet-4-6", max_tokens: 4096, messages: [{ role: "user", content: "x" }], stream: true });
    const seen: OrderEvent[] = [];
    await assert.rejects(async () => {
      for await (const e of OrderList.readStream(stream)) seen.push(e);
    }, (e) => e instanceof Anthropic.APIError && /Overloaded/.test(e.message));
    assert.deepEqual(
      seen.map((e) => e.pointer),
      ["/orders/0", "/orders/1"],
    );
  });
});
