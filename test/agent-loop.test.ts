/**
 * examples/agent-loop end to end, offline: the loop of loop.ts with the real `openai` and `@anthropic-ai/sdk`
 * clients against the loopback replay server (server.ts), which refuses a request the real APIs would refuse (a
 * tool call without a result for its id). Also: the tool file is what the Zod tools give, the recordings are what
 * make-recorded.ts writes, and the request the loop sends carries the tool set's definitions and error results.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { REPO } from "./support/tools-gen.ts";
import { toolsList } from "../examples/agent-loop/tools.ts";
import { RECORDINGS } from "../examples/agent-loop/make-recorded.ts";
import { startReplayServer, type ReplayServer } from "../examples/agent-loop/server.ts";
import { anthropicLoop, openaiLoop } from "../examples/agent-loop/loop.ts";
import { AgentTools } from "../examples/agent-loop/gen/agent-tools.ts";

const DIR = path.join(REPO, "examples", "agent-loop");
const FINAL = /refunded 25\.00 EUR \(refund RF-7731\).*5–7 business days\.$/;

let server: ReplayServer;
before(async () => {
  server = await startReplayServer();
});
after(async () => {
  await server.close();
});

describe("examples/agent-loop", () => {
  test("tools/agent-tools.json is what the Zod tools give; the recordings are what make-recorded.ts writes", () => {
    assert.deepEqual(JSON.parse(readFileSync(path.join(DIR, "tools", "agent-tools.json"), "utf8")), toolsList());
    for (const [rel, text] of Object.entries(RECORDINGS)) assert.equal(readFileSync(path.join(DIR, "recorded", rel), "utf8"), text, rel);
  });

  test("OpenAI: definitions sent, calls streamed and run, the bad call answered with an error result, then the answer", async () => {
    const client = new OpenAI({ apiKey: "offline", baseURL: `${server.url}/v1`, maxRetries: 0 });
    const from = server.requests.length;
    const t = await openaiLoop(client, "gpt-4.1-mini");
    assert.equal(t.turns, 3);
    assert.match(t.answer, FINAL);
    assert.deepEqual(
      t.calls.map((c) => [c.turn, c.name, c.ok, c.error ?? "", (c.paths ?? []).join(",")]),
      [
        [1, "lookup_order", true, "", ""],
        [1, "search_docs", true, "", ""],
        [1, "refund", false, "INVALID_VALUE", "/arguments/amount,/arguments/reason"],
        [2, "refund", true, "", ""],
      ],
    );
    assert.deepEqual(t.ran.at(-1), { name: "refund", arguments: { orderId: "ORD-1001", amount: 25 } }, "the strict-mode null is gone");
    const sent = server.requests.slice(from).map((r) => r.body);
    assert.deepEqual(sent[0]!.tools, AgentTools.definitions("openai-chat", { strict: true }));
    const reply = (sent[1]!.messages as { role: string; tool_call_id?: string; content: string }[]).find((m) => m.tool_call_id === "call_BAD0x9y8z7w6v5u4")!;
    const payload = JSON.parse(reply.content) as { error: { code: string; violations: { path: string }[] } };
    assert.deepEqual(payload.error.violations.map((v) => v.path), ["/amount", "/reason"]);
  });

  test("Anthropic: the same loop with tool_use blocks and tool_result replies", async () => {
    const client = new Anthropic({ apiKey: "offline", baseURL: server.url, maxRetries: 0 });
    const from = server.requests.length;
    const t = await anthropicLoop(client, "claude-sonnet-4-6");
    assert.equal(t.turns, 3);
    assert.match(t.answer, FINAL);
    assert.deepEqual(t.calls.filter((c) => !c.ok).map((c) => [c.id, c.paths?.join(",")]), [["toolu_01RefundBADBADBADBADBAD", "/arguments/orderId,/arguments/amount"]]);
    assert.deepEqual(t.ran.map((r) => r.name), ["lookup_order", "search_docs", "refund"]);
    const sent = server.requests.slice(from).map((r) => r.body);
    assert.deepEqual(sent[0]!.tools, AgentTools.definitions("anthropic"));
    const results = (sent[1]!.messages as { content: unknown }[]).at(-1)!.content as { tool_use_id: string; is_error?: boolean }[];
    assert.deepEqual(results.map((r) => [r.tool_use_id, r.is_error ?? false]), [
      ["toolu_01LookupAAAAAAAAAAAAAAA", false],
      ["toolu_01RefundBADBADBADBADBAD", true],
      ["toolu_01SearchCCCCCCCCCCCCCCC", false],
    ]);
  });

  test("the replay server refuses what the real APIs refuse: a tool call left without a result", async () => {
    const client = new OpenAI({ apiKey: "offline", baseURL: `${server.url}/v1`, maxRetries: 0 });
    await assert.rejects(
      client.chat.completions.create({
        model: "m",
        tools: AgentTools.definitions("openai-chat"),
        messages: [
          { role: "user", content: "x" },
          { role: "assistant", content: null, tool_calls: [{ id: "call_X", type: "function", function: { name: "refund", arguments: "{}" } }] },
        ],
      }),
      (e: unknown) => e instanceof OpenAI.APIError && e.status === 400 && /call_X/.test(e.message),
    );
  });
});
