/**
 * `toonOutput(codec)` (runtime/ai.ts) under the AI SDK's own `streamText` and `generateText`, with its mock
 * language model streaming replies written here from the orders example (dense, TOON v4 and JSON in a fence,
 * with prose and a reasoning block around them, in deltas of a few characters). Checked: `partialOutputStream`
 * yields growing partial values that hold only what the final value holds; `elementStream` yields each order (or
 * each item of an array root) once, complete; `output` is the value `fromModelOutput` reads; the reader is fed
 * each character of the reply once; an invalid reply and a cut one (finishReason "length") reject `output` with
 * the ToonError (INVALID_VALUE, NO_PAYLOAD, INCOMPLETE), which the SDK's `NoObjectGeneratedError.isInstance`
 * recognises; a codec generated with `int64: "bigint"` streams partials the SDK can compare. The snippets
 * assigning the results to typed variables, and the `Equal` checks, are the type-level check (npm test
 * type-checks test/).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { generateText, NoObjectGeneratedError, simulateReadableStream, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { toonOutput, type ToonOutputCodec } from "../runtime/ai.ts";
import { generate } from "../generator/pipeline.ts";
import { ToonError } from "../runtime/wire/errors.ts";
import type { PartialValue } from "../runtime/stream/events.ts";
import type { TextReaderOptions } from "../runtime/text/reader/text-reader.ts";
import { OrderList, type Order } from "../examples/orders/gen/order-list.ts";
import { AgentToolsBatch } from "../examples/agent-loop/gen/agent-tools/batch.ts";
import { suiteDir } from "./support/gen.ts";
import { deltas, firstOrders, LAYOUTS, ORDERS, payloadOf, replyOf } from "./support/stream-replies.ts";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type StreamItem<S> = S extends AsyncIterable<infer X> ? X : never;
type StreamPart = Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;
type FinishReason = "stop" | "length";

const USAGE = { inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 480, text: 470, reasoning: 10 } };

/** A model that streams `parts` as one text block, after a reasoning block, and finishes with `finish`. */
function streamingModel(parts: readonly string[], finish: FinishReason = "stop"): MockLanguageModelV4 {
  const chunks: StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "reasoning-start", id: "r0" },
    { type: "reasoning-delta", id: "r0", delta: "The user wants a table. orders[1]{id}:" },
    { type: "reasoning-end", id: "r0" },
    { type: "text-start", id: "t0" },
    ...parts.map((delta): StreamPart => ({ type: "text-delta", id: "t0", delta })),
    { type: "text-end", id: "t0" },
    { type: "finish", finishReason: { unified: finish, raw: finish }, usage: USAGE },
  ];
  return new MockLanguageModelV4({ doStream: async () => ({ stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) }) });
}

/** A model that answers `text` whole (generateText). */
function generatingModel(text: string, finish: FinishReason = "stop"): MockLanguageModelV4 {
  return new MockLanguageModelV4({ doGenerate: async () => ({ content: [{ type: "text", text }], finishReason: { unified: finish, raw: finish }, usage: USAGE, warnings: [] }) });
}

/** `codec` with its readers counted: how many were made and how many characters they were given. */
function counted<T, C extends ToonOutputCodec<T>>(codec: C): C & { readers: number; fed: number } {
  const c = {
    ...codec,
    readers: 0,
    fed: 0,
    reader(options?: TextReaderOptions) {
      c.readers++;
      const r = codec.reader(options);
      return {
        push(delta: string) {
          c.fed += delta.length;
          return r.push(delta);
        },
        end: () => r.end(),
        snapshot: (o?: { partialText?: boolean }) => r.snapshot(o),
        get done() {
          return r.done;
        },
      };
    },
  };
  return c as C & { readers: number; fed: number };
}

/** Whether `partial` holds only what `whole` holds: every present property and item equal or itself partial. */
function isPartialOf(partial: unknown, whole: unknown): boolean {
  if (partial === null || typeof partial !== "object") return Object.is(partial, whole);
  if (whole === null || typeof whole !== "object" || Array.isArray(partial) !== Array.isArray(whole)) return false;
  if (Array.isArray(partial)) return partial.length <= (whole as unknown[]).length && partial.every((x, i) => isPartialOf(x, (whole as unknown[])[i]));
  return Object.entries(partial).every(([k, v]) => Object.hasOwn(whole, k) && isPartialOf(v, (whole as Record<string, unknown>)[k]));
}

/** `isPartialOf`, where a string may also be the start of its whole one; `cut` counts those that are. */
function isGrowingPartialOf(partial: unknown, whole: unknown, cut: { n: number }): boolean {
  if (typeof partial === "string" && typeof whole === "string" && partial !== whole && whole.startsWith(partial)) return (cut.n++, true);
  if (partial === null || typeof partial !== "object") return Object.is(partial, whole);
  if (whole === null || typeof whole !== "object" || Array.isArray(partial) !== Array.isArray(whole)) return false;
  if (Array.isArray(partial)) return partial.length <= (whole as unknown[]).length && partial.every((x, i) => isGrowingPartialOf(x, (whole as unknown[])[i], cut));
  return Object.entries(partial).every(([k, v]) => Object.hasOwn(whole, k) && isGrowingPartialOf(v, (whole as Record<string, unknown>)[k], cut));
}

/** Rejects with a ToonError of `code` that the SDK takes for its NoObjectGeneratedError, with the reply's facts. */
function outputFailure(code: string, text: string, finishReason: FinishReason): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof ToonError, String(e));
    assert.equal(e.code, code);
    assert.ok(NoObjectGeneratedError.isInstance(e), "NoObjectGeneratedError.isInstance");
    if (NoObjectGeneratedError.isInstance(e)) {
      assert.equal(e.text, text);
      assert.equal(e.finishReason, finishReason);
      assert.equal(e.usage?.outputTokens, USAGE.outputTokens.total);
      assert.equal(typeof e.response?.modelId, "string");
    }
    return true;
  };
}

describe("toonOutput with streamText", () => {
  for (const layout of LAYOUTS) {
    test(`${layout}: growing typed partials, each character read once, the output fromModelOutput reads`, async () => {
      const reply = replyOf(ORDERS, layout);
      const codec = counted(OrderList);
      const result = streamText({ model: streamingModel(deltas(reply, 5)), prompt: "My orders?", output: toonOutput(codec, { layout }) });
      const partials: PartialValue<OrderList>[] = [];
      for await (const partial of result.partialOutputStream) partials.push(partial);
      const output: OrderList = await result.output;

      assert.deepEqual(output, ORDERS);
      assert.deepEqual(output, OrderList.fromModelOutput(reply));
      assert.equal(await result.text, reply);
      // linear: one reader, given each character of the reply once
      assert.equal(codec.readers, 1);
      assert.equal(codec.fed, reply.length);
      // growing partials: complete orders, in order, the last one complete too
      assert.ok(partials.length >= ORDERS.orders.length, `${partials.length} partials`);
      let rows = 0;
      for (const p of partials) {
        assert.ok(isPartialOf(p, ORDERS), JSON.stringify(p).slice(0, 200));
        const n = p.orders?.length ?? 0;
        assert.ok(n >= rows, "the orders never shrink");
        rows = n;
        // every order but the one being read is whole (dense: each row arrives whole)
        const whole = layout === "dense" ? n : n - 1;
        assert.deepEqual(p.orders?.slice(0, whole), ORDERS.orders.slice(0, whole));
      }
      assert.deepEqual(partials[partials.length - 1], ORDERS);
    });
  }

  test("partialText: partials show the string the model is writing as far as it came, in every layout", async () => {
    const value = firstOrders(4);
    for (const layout of LAYOUTS) {
      const reply = replyOf(value, layout);
      const count = async (partialText: boolean): Promise<{ partials: number; cut: number }> => {
        const result = streamText({ model: streamingModel(deltas(reply, 11, 3)), prompt: "My orders?", output: toonOutput(OrderList, { layout, partialText }) });
        const cut = { n: 0 };
        let partials = 0;
        for await (const p of result.partialOutputStream) {
          partials++;
          assert.ok(isGrowingPartialOf(p, value, cut), `${layout}: ${JSON.stringify(p).slice(0, 300)}`);
        }
        assert.deepEqual(await result.output, value);
        return { partials, cut: cut.n };
      };
      const plain = await count(false);
      const growing = await count(true);
      assert.equal(plain.cut, 0, `${layout}: without partialText no string is shown cut`);
      assert.ok(growing.cut > 20, `${layout}: ${growing.cut} strings shown as they grow`);
      assert.ok(growing.partials > plain.partials * 2, `${layout}: ${growing.partials} partials against ${plain.partials}`);
    }
  });

  test("elementStream: each order once, complete and typed, with elements: 'orders'", async () => {
    for (const layout of LAYOUTS) {
      const reply = replyOf(firstOrders(8), layout);
      const result = streamText({ model: streamingModel(deltas(reply, 6)), prompt: "x", output: toonOutput(OrderList, { layout, elements: "orders" }) });
      const orders: Order[] = [];
      for await (const order of result.elementStream) orders.push(order);
      assert.deepEqual(orders, firstOrders(8).orders, layout);
      assert.deepEqual(await result.output, firstOrders(8));
    }
  });

  test("elementStream of an array root: every item, the last one too when the reply ends with it (unfenced)", async () => {
    const calls: AgentToolsBatch = [
      { name: "lookup_order", arguments: { orderId: "ORD-1001" } },
      { name: "search_docs", arguments: { query: "refund to card", limit: 2 } },
      { name: "refund", arguments: { orderId: "ORD-1001", amount: 25 } },
    ];
    for (const text of [AgentToolsBatch.toText(calls, { layout: "dense" }), AgentToolsBatch.toText(calls), "```toon\n" + AgentToolsBatch.toText(calls) + "\n```"]) {
      const result = streamText({ model: streamingModel(deltas(text, 7, 4)), prompt: "x", output: toonOutput(AgentToolsBatch) });
      const items: AgentToolsBatch[number][] = [];
      for await (const call of result.elementStream) items.push(call);
      assert.deepEqual(items, calls, text);
      assert.deepEqual(await result.output, calls);
    }
  });

  test("an object root without elements: the element stream yields nothing; elements: false: the SDK says there is none", async () => {
    const reply = replyOf(firstOrders(2), "dense");
    const result = streamText({ model: streamingModel(deltas(reply, 8)), prompt: "x", output: toonOutput(OrderList) });
    const none: never[] = [];
    for await (const x of result.elementStream) none.push(x);
    assert.deepEqual(none, []);
    assert.deepEqual(await result.output, firstOrders(2));
    const off = streamText({ model: streamingModel(deltas(reply, 8)), prompt: "x", output: toonOutput(OrderList, { elements: false }) });
    assert.throws(() => off.elementStream, /element streams in toon mode/);
    await off.consumeStream();
  });

  test("an invalid reply: partials up to the bad row, then output rejects with INVALID_VALUE (and the SDK's facts)", async () => {
    const good = replyOf(firstOrders(4), "dense");
    const bad = good.replace(",CNY,delivered,20250104T113111Z", ",XXX,delivered,20250104T113111Z"); // the fourth order's currency
    assert.notEqual(bad, good);
    const result = streamText({ model: streamingModel(deltas(bad, 9)), prompt: "x", output: toonOutput(OrderList, { layout: "dense" }) });
    const partials: PartialValue<OrderList>[] = [];
    for await (const p of result.partialOutputStream) partials.push(p);
    assert.deepEqual(partials[partials.length - 1], firstOrders(3));
    await assert.rejects(Promise.resolve(result.output), outputFailure("INVALID_VALUE", bad, "stop"));
  });

  test("a reply with no payload: output rejects with NO_PAYLOAD, no partials", async () => {
    const text = "I'm sorry, I can't look up orders.";
    const result = streamText({ model: streamingModel(deltas(text, 10)), prompt: "x", output: toonOutput(OrderList) });
    const partials: unknown[] = [];
    for await (const p of result.partialOutputStream) partials.push(p);
    assert.deepEqual(partials, []);
    await assert.rejects(Promise.resolve(result.output), outputFailure("NO_PAYLOAD", text, "stop"));
  });

  for (const layout of LAYOUTS) {
    test(`${layout}, cut off (finishReason "length"): the complete orders as partials, output rejects with INCOMPLETE`, async () => {
      const reply = replyOf(firstOrders(6), layout);
      const id = ORDERS.orders[4]!.id;
      const cut = reply.slice(0, reply.indexOf(id) + id.length + 2); // in the fifth order, past the line of its id
      const result = streamText({ model: streamingModel(deltas(cut, 11), "length"), prompt: "x", output: toonOutput(OrderList, { layout }) });
      const partials: PartialValue<OrderList>[] = [];
      for await (const p of result.partialOutputStream) partials.push(p);
      const last = partials[partials.length - 1]!;
      assert.ok(isPartialOf(last, firstOrders(6)));
      assert.deepEqual(last.orders?.slice(0, 4), firstOrders(4).orders);
      await assert.rejects(Promise.resolve(result.output), outputFailure("INCOMPLETE", cut, "length"));
    });
  }

  test("the request: plain text (no JSON mode), and the instructions to put in the system prompt", async () => {
    const model = streamingModel(deltas(replyOf(firstOrders(1), "dense"), 12));
    const output = toonOutput(OrderList, { layout: "dense" });
    assert.equal(output.instructions, OrderList.formatInstructions({ layout: "dense" }));
    assert.equal(toonOutput(OrderList).instructions, OrderList.formatInstructions());
    assert.equal(toonOutput(OrderList, { layout: "json" }).instructions, undefined);
    const result = streamText({ model, system: output.instructions, prompt: "x", output });
    assert.deepEqual(await result.output, firstOrders(1));
    assert.deepEqual(model.doStreamCalls[0]!.responseFormat, { type: "text" });
    assert.match(JSON.stringify(model.doStreamCalls[0]!.prompt[0]), /Reply with dense TOON/);
  });
});

test("a codec generated with int64: 'bigint': its partials hold bigints, and the SDK can still compare them", async () => {
  const dir = suiteDir("ai-sdk");
  const schema = {
    type: "object",
    required: ["entries"],
    additionalProperties: false,
    properties: { entries: { type: "array", items: { type: "object", required: ["id", "cents"], additionalProperties: false, properties: { id: { type: "integer", format: "int64" }, cents: { type: "integer" } } } } },
  };
  writeFileSync(path.join(dir, "ledger.schema.json"), JSON.stringify(schema));
  await generate({ inputs: ["ledger.schema.json"], outDir: "gen", dictionaryDir: "dict", int64: "bigint" }, { cwd: dir });
  const { Ledger } = (await import(pathToFileURL(path.join(dir, "gen", "ledger.ts")).href)) as { Ledger: ToonOutputCodec<unknown> & { toText(v: unknown, o?: object): string } };
  const value = { entries: [{ id: 9007199254740993n, cents: 5 }, { id: 2n ** 63n - 1n, cents: 7 }, { id: 12n, cents: 0 }] };
  const reply = "```toon\n" + Ledger.toText(value, { layout: "dense" }) + "\n```";
  const result = streamText({ model: streamingModel(deltas(reply, 14, 3)), prompt: "x", output: toonOutput(Ledger) });
  const partials: unknown[] = [];
  for await (const p of result.partialOutputStream) partials.push(p);
  assert.deepStrictEqual(await result.output, value);
  assert.deepStrictEqual(partials[partials.length - 1], value);
  assert.deepStrictEqual(partials[0], { entries: value.entries.slice(0, 1) });
  assert.equal(JSON.stringify(partials[0]), '{"entries":[{"id":"9007199254740993","cents":5}]}');
});

describe("toonOutput with generateText", () => {
  for (const layout of LAYOUTS) {
    test(`${layout}: the output is the value fromModelOutput reads`, async () => {
      const reply = replyOf(ORDERS, layout);
      const result = await generateText({ model: generatingModel(reply), prompt: "x", output: toonOutput(OrderList, { layout }) });
      const output: OrderList = result.output;
      assert.deepEqual(output, ORDERS);
      assert.deepEqual(output, OrderList.fromModelOutput(reply));
    });
  }

  test("cut off (finishReason length): generateText rejects with INCOMPLETE", async () => {
    const reply = replyOf(firstOrders(3), "toon");
    const cut = reply.slice(0, reply.length - 40);
    await assert.rejects(generateText({ model: generatingModel(cut, "length"), prompt: "x", output: toonOutput(OrderList) }), outputFailure("INCOMPLETE", cut, "length"));
  });

  test("repair: a miscounted table read with { repair: true }, reported through onRepair", async () => {
    const reply = replyOf(firstOrders(3), "dense").replace("orders[3]", "orders[4]");
    await assert.rejects(generateText({ model: generatingModel(reply), prompt: "x", output: toonOutput(OrderList) }), outputFailure("TEXT_SYNTAX", reply, "stop"));
    const repairs: string[] = [];
    const result = await generateText({ model: generatingModel(reply), prompt: "x", output: toonOutput(OrderList, { repair: true, onRepair: (r) => repairs.push(r.kind) }) });
    assert.deepEqual(result.output, firstOrders(3));
    assert.deepEqual(repairs, ["count"]);
  });
});

describe("toonOutput: the Output methods called directly", () => {
  test("one reader per reply: a text that does not continue the last one starts another", async () => {
    const codec = counted(OrderList);
    const output = toonOutput(codec);
    const a = replyOf(firstOrders(2), "dense");
    const b = replyOf(firstOrders(3), "toon");
    for (let i = 1; i <= a.length; i += 3) await output.parsePartialOutput({ text: a.slice(0, i) });
    await output.parsePartialOutput({ text: a });
    // a retry: the text starts again
    for (let i = 1; i <= b.length; i += 5) await output.parsePartialOutput({ text: b.slice(0, i) });
    await output.parsePartialOutput({ text: b });
    assert.deepEqual(await output.parseCompleteOutput({ text: b }), firstOrders(3));
    assert.deepEqual(await output.parseCompleteOutput({ text: b }), firstOrders(3), "asked again");
    assert.equal(codec.readers, 2);
    assert.equal(codec.fed, a.length + b.length);
    // the complete text of another reply is read whole
    assert.deepEqual(await output.parseCompleteOutput({ text: a }), firstOrders(2));
    assert.equal(codec.fed, a.length + b.length);
  });

  test("a partial only when something completed; the same text twice gives nothing new", async () => {
    const output = toonOutput(OrderList);
    const text = replyOf(firstOrders(2), "dense");
    const firstRowEnd = text.indexOf("\n", text.indexOf(ORDERS.orders[0]!.id)) + 1;
    assert.equal(await output.parsePartialOutput({ text: text.slice(0, firstRowEnd - 1) }), undefined);
    assert.deepEqual(await output.parsePartialOutput({ text: text.slice(0, firstRowEnd) }), { partial: firstOrders(1) });
    assert.equal(await output.parsePartialOutput({ text: text.slice(0, firstRowEnd) }), undefined);
    assert.equal(await output.parsePartialOutput({ text: text.slice(0, firstRowEnd + 3) }), undefined);
  });

  test("the streaming search took a JSON-looking line, the whole reading finds the fence: output as generateText's", async () => {
    const text = `{"note": "draft"}\n\n\`\`\`toon\n${payloadOf(firstOrders(2), "dense")}\n\`\`\``;
    const output = toonOutput(OrderList);
    for (let i = 1; i <= text.length; i += 4) await output.parsePartialOutput({ text: text.slice(0, i) });
    await output.parsePartialOutput({ text });
    assert.deepEqual(await output.parseCompleteOutput({ text }), OrderList.fromModelOutput(text));
  });

  test("bad arguments are CONFIG_ERROR", () => {
    const config = (e: unknown) => e instanceof ToonError && e.code === "CONFIG_ERROR";
    assert.throws(() => toonOutput({} as never), config);
    assert.throws(() => toonOutput(OrderList, { layout: "yaml" as never }), config);
    assert.throws(() => toonOutput(OrderList, { elements: 3 as never }), config);
    assert.throws(() => toonOutput(OrderList, null as never), config);
  });

  test("types: streamText's partials, elements and output are the codec's types", async () => {
    const result = streamText({ model: streamingModel(deltas(replyOf(firstOrders(2), "dense"), 13)), prompt: "x", output: toonOutput(OrderList, { layout: "dense", elements: "orders" }) });
    const partialType: Equal<StreamItem<typeof result.partialOutputStream>, PartialValue<OrderList>> = true;
    const elementType: Equal<StreamItem<typeof result.elementStream>, Order> = true;
    const outputType: Equal<Awaited<typeof result.output>, OrderList> = true;
    const batchElement: Equal<StreamItem<ReturnType<typeof streamText<{}, {}, ReturnType<typeof toonOutput<AgentToolsBatch>>>>["elementStream"]>, AgentToolsBatch[number]> = true;
    const noElement: Equal<ReturnType<typeof toonOutput<OrderList>> extends { createElementStreamTransform(): TransformStream<never, infer E> | undefined } ? E : 0, never> = true;
    // @ts-expect-error: only a property holding an array names the elements
    const misnamed = (): unknown => toonOutput(OrderList, { elements: "order" });
    assert.equal(typeof misnamed, "function");
    assert.ok(partialType && elementType && outputType && batchElement && noElement);
    const output: OrderList = await result.output;
    assert.deepEqual(output, firstOrders(2));
  });
});
