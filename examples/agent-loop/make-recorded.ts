/**
 * Writes the recorded provider streams the loopback server replays (recorded/<provider>-turn-<n>.sse). They were
 * written for this example in the providers' documented SSE wire formats, not captured from live APIs:
 *
 * - turn 1: the model makes three parallel calls (OpenAI: their `delta.tool_calls` fragments interleave, split
 *   inside `\uXXXX` escapes) and the middle one is bad: a negative amount and a reason outside the enum;
 * - turn 2: having read the error result, it makes the refund call again, correctly (OpenAI strict-mode style:
 *   the optional `reason` it leaves out is `null`);
 * - turn 3: the final answer, as text.
 *
 *   node --import tsx examples/agent-loop/make-recorded.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("./recorded/", import.meta.url));

/** JSON with every non-ASCII character escaped, as several OpenAI models send arguments. */
const ascii = (v: unknown): string => JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));

/** `text` in pieces of about `n` characters (cut anywhere, escapes included). */
const pieces = (text: string, n: number): string[] => {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += n) out.push(text.slice(i, i + n));
  return out;
};

// ---------------------------------------------------------------------------------------------------------------
// OpenAI Chat Completions

function openaiTurn(id: string, calls: { id: string; name: string; args: string }[], text: string | undefined): string {
  const base = { id, object: "chat.completion.chunk", created: 1767225600, model: "gpt-4.1-mini-2025-04-14", system_fingerprint: "fp_agentloop" };
  const chunk = (delta: unknown, finish: string | null = null): unknown => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const events: unknown[] = [chunk({ role: "assistant", content: null, refusal: null })];
  if (text !== undefined) for (const p of pieces(text, 9)) events.push(chunk({ content: p }));
  // the first fragment of each call carries its id and name; the rest interleave round-robin
  calls.forEach((c, i) => events.push(chunk({ tool_calls: [{ index: i, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] })));
  const split = calls.map((c) => pieces(c.args, 7));
  for (let k = 0; split.some((s) => k < s.length); k++) {
    split.forEach((s, i) => k < s.length && events.push(chunk({ tool_calls: [{ index: i, function: { arguments: s[k] } }] })));
  }
  events.push(chunk({}, calls.length > 0 ? "tool_calls" : "stop"));
  events.push({ ...base, choices: [], usage: { prompt_tokens: 412, completion_tokens: 61, total_tokens: 473 } });
  return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n";
}

// ---------------------------------------------------------------------------------------------------------------
// Anthropic Messages

function anthropicTurn(id: string, text: string | undefined, calls: { id: string; name: string; args: string }[]): string {
  const events: unknown[] = [
    { type: "message_start", message: { id, type: "message", role: "assistant", model: "claude-sonnet-4-6", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 520, output_tokens: 1 } } },
  ];
  let index = 0;
  if (text !== undefined) {
    events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } }, { type: "ping" });
    for (const p of pieces(text, 11)) events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: p } });
    events.push({ type: "content_block_stop", index });
    index++;
  }
  for (const c of calls) {
    events.push({ type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } });
    for (const p of pieces(c.args, 6)) events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: p } });
    events.push({ type: "content_block_stop", index });
    index++;
  }
  events.push({ type: "message_delta", delta: { stop_reason: calls.length > 0 ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 74 } });
  events.push({ type: "message_stop" });
  return events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}

const FINAL =
  "Order ORD-1001 was delivered damaged, so I refunded 25.00 EUR (refund RF-7731). " +
  "Per the help center, refunds reach your card in 5–7 business days.";

/** Every recording: path under recorded/ -> SSE text (test/agent-loop.test.ts checks the files equal these). */
export const RECORDINGS: Record<string, string> = {
  "openai-turn-1.sse": openaiTurn("chatcmpl-agent-1", [
    { id: "call_A1b2C3d4E5f6G7h8", name: "lookup_order", args: ascii({ orderId: "ORD-1001" }) },
    { id: "call_BAD0x9y8z7w6v5u4", name: "refund", args: ascii({ orderId: "ORD-1001", amount: -25, reason: "changed_mind" }) },
    { id: "call_C9d8E7f6G5h4I3j2", name: "search_docs", args: ascii({ query: "remboursement délai carte", limit: 2 }) },
  ], undefined),
  "openai-turn-2.sse": openaiTurn("chatcmpl-agent-2", [{ id: "call_R2k3L4m5N6o7P8q9", name: "refund", args: ascii({ orderId: "ORD-1001", amount: 25, reason: null }) }], undefined),
  "openai-turn-3.sse": openaiTurn("chatcmpl-agent-3", [], FINAL),
  "anthropic-turn-1.sse": anthropicTurn("msg_agent1", "I'll look up the order and refund it.", [
    { id: "toolu_01LookupAAAAAAAAAAAAAAA", name: "lookup_order", args: JSON.stringify({ orderId: "ORD-1001" }) },
    { id: "toolu_01RefundBADBADBADBADBAD", name: "refund", args: JSON.stringify({ orderId: "1001", amount: "25" }) },
    { id: "toolu_01SearchCCCCCCCCCCCCCCC", name: "search_docs", args: JSON.stringify({ query: "refund to card: how long?" }) },
  ]),
  "anthropic-turn-2.sse": anthropicTurn("msg_agent2", undefined, [{ id: "toolu_01RefundRetryRRRRRRRRRR", name: "refund", args: JSON.stringify({ orderId: "ORD-1001", amount: 25, reason: "damaged" }) }]),
  "anthropic-turn-3.sse": anthropicTurn("msg_agent3", FINAL, []),
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mkdirSync(root, { recursive: true });
  for (const [rel, text] of Object.entries(RECORDINGS)) writeFileSync(root + rel, text);
  console.log(`wrote ${Object.keys(RECORDINGS).length} recordings under ${root}`);
}
