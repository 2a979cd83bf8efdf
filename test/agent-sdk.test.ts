/**
 * Issue 13 with the real clients, offline: the `openai` and `@anthropic-ai/sdk` clients read the recorded streams
 * of examples/agent-loop through a custom `fetch` (split into one-byte reads, and cut at every byte boundary in a
 * few strided runs: mid-UTF-8, mid-escape, mid-`data:` line), their events go to the accumulator, and the calls come out
 * the same every time: parallel calls interleaved, the bad one in the middle reported by id while the valid ones
 * after it still come out. The MCP client and server talk over the SDK's in-memory transport: `tools/list`
 * serves the tool set's MCP definitions, `tools/call` parses with the tool set and answers with its result
 * messages, a bad call as `isError`.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AgentTools, type AgentToolsOutcome } from "../examples/agent-loop/gen/agent-tools.ts";
import { REPO } from "./support/tools-gen.ts";

const recording = (rel: string): Uint8Array => new Uint8Array(readFileSync(path.join(REPO, "examples", "agent-loop", "recorded", rel)));

/** A fetch that answers every request with `body`, delivered as the given pieces. */
function replay(pieces: Uint8Array[]): typeof fetch {
  return (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const p of pieces) c.enqueue(p);
          c.close();
        },
      }),
      { status: 200, headers: { "content-type": "text/event-stream" } },
    )) as typeof fetch;
}

const bytewise = (b: Uint8Array): Uint8Array[] => Array.from(b, (_, i) => b.subarray(i, i + 1));

/**
 * Every byte boundary as a split point, in few runs: run k (1 <= k <= stride) cuts at k, k + stride, k + 2 stride...
 * so each boundary is a cut in exactly one run, cuts far enough apart that each one sits alone in its event.
 */
function* strideSplits(b: Uint8Array, stride: number): Generator<[k: number, pieces: Uint8Array[]]> {
  for (let k = 1; k <= stride; k++) {
    const pieces = [b.subarray(0, k)];
    for (let i = k; i < b.length; i += stride) pieces.push(b.subarray(i, i + stride));
    yield [k, pieces];
  }
}

/** What the tests compare: per outcome, id, name, ok, and the failure's code and paths. */
function summary(outcomes: AgentToolsOutcome[]): string[] {
  return outcomes.map((o) => (o.ok ? `ok ${o.call.id} ${o.call.name} ${JSON.stringify(o.call.arguments)}` : `bad ${o.id} ${o.name} ${o.error.code} ${(o.error.details ?? [{ path: o.error.path }]).map((d) => d.path).join(",")}`));
}

async function openaiOutcomes(pieces: Uint8Array[]): Promise<string[]> {
  const client = new OpenAI({ apiKey: "offline", baseURL: "http://offline.invalid/v1", fetch: replay(pieces), maxRetries: 0 });
  const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }], tools: AgentTools.definitions("openai-chat", { strict: true }), stream: true });
  const acc = AgentTools.accumulator();
  const out: AgentToolsOutcome[] = [];
  for await (const chunk of stream) out.push(...acc.push(chunk));
  out.push(...acc.end());
  return summary(out);
}

async function anthropicOutcomes(pieces: Uint8Array[]): Promise<string[]> {
  const client = new Anthropic({ apiKey: "offline", baseURL: "http://offline.invalid", fetch: replay(pieces), maxRetries: 0 });
  const stream = await client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 100, messages: [{ role: "user", content: "x" }], tools: AgentTools.definitions("anthropic") as Anthropic.Tool[], stream: true });
  const acc = AgentTools.accumulator();
  const out: AgentToolsOutcome[] = [];
  for await (const event of stream) out.push(...acc.push(event));
  out.push(...acc.end());
  return summary(out);
}

const OPENAI_TURN_1 = [
  'ok call_A1b2C3d4E5f6G7h8 lookup_order {"orderId":"ORD-1001"}',
  'ok call_C9d8E7f6G5h4I3j2 search_docs {"query":"remboursement délai carte","limit":2}',
  "bad call_BAD0x9y8z7w6v5u4 refund INVALID_VALUE /arguments/amount,/arguments/reason",
];
const ANTHROPIC_TURN_1 = [
  'ok toolu_01LookupAAAAAAAAAAAAAAA lookup_order {"orderId":"ORD-1001"}',
  "bad toolu_01RefundBADBADBADBADBAD refund INVALID_VALUE /arguments/orderId,/arguments/amount",
  'ok toolu_01SearchCCCCCCCCCCCCCCC search_docs {"query":"refund to card: how long?"}',
];

describe("openai client, recorded Chat Completions streams", () => {
  test("whole, and one byte per read: three interleaved calls, the bad one in the middle by id", async () => {
    const body = recording("openai-turn-1.sse");
    assert.deepEqual(await openaiOutcomes([body]), OPENAI_TURN_1);
    assert.deepEqual(await openaiOutcomes(bytewise(body)), OPENAI_TURN_1);
    // turn 2: the strict-mode null of the optional reason is read back as absent
    assert.deepEqual(await openaiOutcomes(bytewise(recording("openai-turn-2.sse"))), ['ok call_R2k3L4m5N6o7P8q9 refund {"orderId":"ORD-1001","amount":25}']);
    assert.deepEqual(await openaiOutcomes([recording("openai-turn-3.sse")]), []);
  });

  test("split at every byte boundary", async () => {
    const body = recording("openai-turn-1.sse");
    for (const [k, pieces] of strideSplits(body, 61)) assert.deepEqual(await openaiOutcomes(pieces), OPENAI_TURN_1, `cuts at ${k} + 61 n`);
  });

  test("a stream cut off mid-call: the open calls come out of end() as INCOMPLETE, by id", async () => {
    const body = recording("openai-turn-1.sse");
    // the role chunk, the three calls' first fragments, one round of argument fragments: then the connection drops
    const events = new TextDecoder().decode(body).split("\n\n").slice(0, 7);
    const got = await openaiOutcomes([new TextEncoder().encode(events.join("\n\n") + "\n\n")]);
    assert.deepEqual(got, [
      "bad call_A1b2C3d4E5f6G7h8 lookup_order INCOMPLETE /arguments",
      "bad call_BAD0x9y8z7w6v5u4 refund INCOMPLETE /arguments",
      "bad call_C9d8E7f6G5h4I3j2 search_docs INCOMPLETE /arguments",
    ]);
  });
});

describe("openai client, a Responses API stream", () => {
  /** Two function calls (the second bad) as Responses API events, arguments in 5-character deltas. */
  function responsesSse(): Uint8Array {
    const calls = [
      { item: "fc_1", call: "call_r1", name: "lookup_order", args: JSON.stringify({ orderId: "ORD-1001" }) },
      { item: "fc_2", call: "call_r2", name: "search_docs", args: JSON.stringify({ query: "", limit: 9 }) },
    ];
    const response = { id: "resp_1", object: "response", created_at: 1767225600, status: "in_progress", model: "gpt-4.1-mini", output: [] };
    const events: Record<string, unknown>[] = [{ type: "response.created", response }];
    calls.forEach((c, i) => {
      const item = { type: "function_call", id: c.item, call_id: c.call, name: c.name, arguments: "", status: "in_progress" };
      events.push({ type: "response.output_item.added", output_index: i, item });
      for (let k = 0; k < c.args.length; k += 5) events.push({ type: "response.function_call_arguments.delta", output_index: i, item_id: c.item, delta: c.args.slice(k, k + 5) });
      events.push({ type: "response.function_call_arguments.done", output_index: i, item_id: c.item, arguments: c.args });
      events.push({ type: "response.output_item.done", output_index: i, item: { ...item, arguments: c.args, status: "completed" } });
    });
    events.push({ type: "response.completed", response: { ...response, status: "completed" } });
    return new TextEncoder().encode(events.map((e, n) => `event: ${String(e.type)}\ndata: ${JSON.stringify({ ...e, sequence_number: n })}\n\n`).join(""));
  }

  test("function_call items and argument deltas; the reply is a function_call_output with the call id", async () => {
    const client = new OpenAI({ apiKey: "offline", baseURL: "http://offline.invalid/v1", fetch: replay(bytewise(responsesSse())), maxRetries: 0 });
    const stream = await client.responses.create({ model: "gpt-4.1-mini", input: "x", tools: AgentTools.definitions("openai-responses", { strict: true }), stream: true });
    const acc = AgentTools.accumulator();
    const out: AgentToolsOutcome[] = [];
    for await (const event of stream) out.push(...acc.push(event));
    out.push(...acc.end());
    assert.deepEqual(summary(out), ['ok call_r1 lookup_order {"orderId":"ORD-1001"}', "bad call_r2 search_docs INVALID_VALUE /arguments/query,/arguments/limit"]);
    const reply = AgentTools.resultMessage("openai-responses", out[1]!);
    assert.equal(reply.call_id, "call_r2");
    assert.match(reply.output, /"violations"/);
  });
});

describe("anthropic client, recorded Messages streams", () => {
  test("whole, one byte per read, and cut at every byte boundary", async () => {
    const body = recording("anthropic-turn-1.sse");
    assert.deepEqual(await anthropicOutcomes([body]), ANTHROPIC_TURN_1);
    assert.deepEqual(await anthropicOutcomes(bytewise(body)), ANTHROPIC_TURN_1);
    for (const [k, pieces] of strideSplits(body, 61)) assert.deepEqual(await anthropicOutcomes(pieces), ANTHROPIC_TURN_1, `cuts at ${k} + 61 n`);
    assert.deepEqual(await anthropicOutcomes([recording("anthropic-turn-3.sse")]), []);
  });
});

describe("MCP client and server over the in-memory transport", () => {
  test("tools/list from the tool set; tools/call parsed and answered, a bad call as isError", async () => {
    const server = new Server({ name: "agent-tools", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: AgentTools.definitions("mcp") }));
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      const [o] = AgentTools.tryParseToolCalls([req.params]);
      if (o === undefined) throw new Error("no call");
      return AgentTools.resultMessage("mcp", o, o.ok ? { echoed: o.call.arguments } : undefined);
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "test", version: "1.0.0" });
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      const list = await client.listTools();
      assert.deepEqual(list.tools.map((t) => t.name), ["lookup_order", "refund", "search_docs"]);
      assert.deepEqual(list.tools[1]!.inputSchema, AgentTools.definitions("mcp")[1]!.inputSchema);
      const good = await client.callTool({ name: "lookup_order", arguments: { orderId: "ORD-1001" } });
      assert.deepEqual(good.structuredContent, { echoed: { orderId: "ORD-1001" } });
      assert.equal(good.isError, undefined);
      const bad = await client.callTool({ name: "refund", arguments: { orderId: "ORD-1", amount: 0 } });
      assert.equal(bad.isError, true);
      const payload = JSON.parse((bad.content as { text: string }[])[0]!.text) as { error: { violations: { path: string }[] } };
      assert.deepEqual(payload.error.violations.map((v) => v.path), ["/orderId", "/amount"]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
