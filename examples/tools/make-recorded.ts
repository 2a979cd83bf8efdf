/**
 * Writes recorded/*.json(l) (and data/calls.json, the calls they carry): provider responses in the exact wire shapes of the OpenAI Chat Completions, OpenAI
 * streaming, Anthropic Messages, Anthropic streaming and MCP JSON-RPC APIs. They were composed for this example
 * (no network, no API key), following the providers' documented formats; values are deterministic. The streams
 * split argument JSON the way the APIs do, including in the middle of `\uXXXX` escapes.
 *
 *   node --conditions=toon-dev --import tsx examples/tools/make-recorded.ts
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const dir = path.join(root, "recorded");
const write = (name: string, value: unknown): void => writeFileSync(path.join(dir, name), JSON.stringify(value, null, 2) + "\n");
const writeLines = (name: string, values: unknown[]): void => writeFileSync(path.join(dir, name), values.map((v) => JSON.stringify(v)).join("\n") + "\n");

/** JSON.stringify, then every non-ASCII character as `\uXXXX` (what several OpenAI models emit). */
const asciiJson = (v: unknown): string => JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));

const created = 1736899200;

// --- OpenAI Chat Completions: one response with two parallel tool calls --------------------------------------
const beijing = { city: "北京", date: "2025-01-15", unit: "celsius" };
const forecast = { city: "São Paulo", days: 3, include: ["temperature", "precipitation"] };
write("openai-chat-completion.json", {
  id: "chatcmpl-AqTg5kT0wWq8eJ1xR2b7nZ3fC9yDm",
  object: "chat.completion",
  created,
  model: "gpt-4o-2024-08-06",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_7qGm2Jp4XkVn1sLw0RdTz8Ye", type: "function", function: { name: "get_weather", arguments: asciiJson(beijing) } },
          { id: "call_Hc3Nf6Wq9Lb2Tx5Vm8Kp1Rs4", type: "function", function: { name: "get_forecast", arguments: asciiJson(forecast) } },
        ],
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: "tool_calls",
    },
  ],
  usage: { prompt_tokens: 214, completion_tokens: 61, total_tokens: 275 },
  system_fingerprint: "fp_50cad350e4",
});

// --- OpenAI Chat Completions, streamed: delta.tool_calls fragments keyed by index ----------------------------
function chunk(delta: unknown, finish: string | null = null): unknown {
  return { id: "chatcmpl-AqTh0bZ6uJ3mV1cX9kR4sQ8tN2wEa", object: "chat.completion.chunk", created, model: "gpt-4o-2024-08-06", system_fingerprint: "fp_50cad350e4", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
}
/** Cut `text` into pieces of the given sizes (the last piece takes the rest). */
function pieces(text: string, sizes: number[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const n of sizes) {
    if (at >= text.length) break;
    out.push(text.slice(at, at + n));
    at += n;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}
const streamA = asciiJson({ city: "北京", date: null, unit: "celsius" });
const streamB = asciiJson({ location: { kind: "city", name: "Zürich" }, pollutants: ["pm2_5", "no2"] });
const fragsA = pieces(streamA, [1, 8, 4, 3, 9, 7, 12]); // `\u5317` is split after `\u53`
const fragsB = pieces(streamB, [2, 11, 10, 14, 13, 9, 12]); // `\u00fc` is split after `\u0`
const openaiStream: unknown[] = [chunk({ role: "assistant", content: null, refusal: null })];
openaiStream.push(chunk({ tool_calls: [{ index: 0, id: "call_Qw8eRt5yUi2oPa4sDf6gHj1k", type: "function", function: { name: "get_weather", arguments: "" } }] }));
openaiStream.push(chunk({ tool_calls: [{ index: 1, id: "call_Zx3cVb7nMl9kJh2gFd5sAq8w", type: "function", function: { name: "get-air-quality", arguments: "" } }] }));
// the two calls' fragments interleave (parallel tool calls)
for (let i = 0; i < Math.max(fragsA.length, fragsB.length); i++) {
  if (i < fragsA.length) openaiStream.push(chunk({ tool_calls: [{ index: 0, function: { arguments: fragsA[i] } }] }));
  if (i < fragsB.length) openaiStream.push(chunk({ tool_calls: [{ index: 1, function: { arguments: fragsB[i] } }] }));
}
openaiStream.push(chunk({}, "tool_calls"));
writeLines("openai-chat-stream.jsonl", openaiStream);

// --- Anthropic Messages: text plus two tool_use blocks -------------------------------------------------------
const zurich = { city: "Zürich", date: null, unit: "celsius" };
const air = { location: { kind: "coordinates", lat: 47.3769, lon: 8.5417 }, pollutants: ["pm2_5", "o3"] };
write("anthropic-message.json", {
  id: "msg_01XFDUDYJgAACzvnptvVoYEL",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5-20250929",
  content: [
    { type: "text", text: "I'll look up the weather and the air quality in Zürich." },
    { type: "tool_use", id: "toolu_01A09q90qw90lq917835lq9", name: "get_weather", input: zurich },
    { type: "tool_use", id: "toolu_01BX7fbQNa3q5vRkS8hE2wJm", name: "get-air-quality", input: air },
  ],
  stop_reason: "tool_use",
  stop_sequence: null,
  usage: { input_tokens: 689, output_tokens: 142 },
});

// --- Anthropic Messages, streamed: input_json_delta events ---------------------------------------------------
const toolJson = JSON.stringify({ city: "Москва", days: 5, include: ["temperature", "wind"] });
const anthropicStream: unknown[] = [
  { type: "message_start", message: { id: "msg_014p7gG3wDgGV9EUtLvnow3U", type: "message", role: "assistant", model: "claude-sonnet-4-5-20250929", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 472, output_tokens: 2 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "ping" },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Let me get the 5-day forecast for Moscow." } },
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "get_forecast", input: {} } },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "" } },
  ...pieces(toolJson, [9, 6, 11, 5, 17]).map((p) => ({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: p } })),
  { type: "content_block_stop", index: 1 },
  { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 89 } },
  { type: "message_stop" },
];
writeLines("anthropic-stream.jsonl", anthropicStream);

// --- MCP: a tools/call request and its result (tools/list is recorded/mcp-tools-list.json) -------------------
write("mcp-tools-call.json", {
  request: { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "notes.search", arguments: { query: "trip to Lisbon", limit: 2 } } },
  response: {
    jsonrpc: "2.0",
    id: 3,
    result: {
      content: [{ type: "text", text: "2 notes match \"trip to Lisbon\"." }],
      structuredContent: {
        results: [
          { id: "n-1042", title: "Lisbon: what to pack", score: 0.92, tags: ["travel", "lisbon"] },
          { id: "n-0977", title: "Flights and hotels, May", score: 0.71, tags: ["travel"] },
        ],
        total: 2,
      },
      isError: false,
    },
  },
});

// --- data/calls.json: the calls in all of the above, in order, as a batch ({ name, arguments }[]) ------------
const forecastMoscow = JSON.parse(toolJson) as unknown;
writeFileSync(
  path.join(root, "data", "calls.json"),
  JSON.stringify(
    [
      { name: "get_weather", arguments: beijing },
      { name: "get_forecast", arguments: forecast },
      { name: "get_weather", arguments: JSON.parse(streamA) as unknown },
      { name: "get-air-quality", arguments: JSON.parse(streamB) as unknown },
      { name: "get_weather", arguments: zurich },
      { name: "get-air-quality", arguments: air },
      { name: "get_forecast", arguments: forecastMoscow },
    ],
    null,
    2,
  ) + "\n",
);
