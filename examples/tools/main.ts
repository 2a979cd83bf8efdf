/**
 * The tools example: generate the codecs of toon.config.json (tool definitions, an MCP tools/list, Zod
 * schemas), parse the tool calls in recorded OpenAI and Anthropic responses (whole and streamed), encode them
 * as TOON binary and decode them back.
 *
 *   node --conditions=toon-dev --import tsx examples/tools/main.ts
 */
import { deepStrictEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { generate, loadConfig } from "toon-gen";
import { ToonError } from "toon-gen/runtime";
import { z } from "zod";

const here = path.dirname(fileURLToPath(import.meta.url));
const readJson = (file: string): unknown => JSON.parse(readFileSync(path.join(here, file), "utf8"));
const readLines = (file: string): unknown[] =>
  readFileSync(path.join(here, file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as unknown);

// 1. generate (files whose content is unchanged are not rewritten)
const { config, baseDir } = loadConfig(undefined, here);
const generated = await generate(config, { cwd: baseDir });
console.log(`generated: ${generated.schemas.length} codecs, ${generated.written} files written, ${generated.unchanged} unchanged`);
for (const w of generated.warnings) console.log(`  warning: ${w}`);

const { WeatherTools } = (await import("./gen/weather-tools.js")) as typeof import("./gen/weather-tools.js");
const { McpToolsList } = (await import("./gen/mcp-tools-list.js")) as typeof import("./gen/mcp-tools-list.js");
const { WeatherQuery: WeatherQueryCodec, Forecast: ForecastCodec } = (await import("./gen/index.js")) as typeof import("./gen/index.js");
const schemas = (await import("./schemas.js")) as typeof import("./schemas.js");
type Call = import("./gen/weather-tools.js").WeatherToolsCall;

// 2. whole responses: OpenAI tool_calls (arguments are JSON strings with \uXXXX escapes) and Anthropic tool_use
const fromOpenAI: Call[] = WeatherTools.parseToolCalls(readJson("recorded/openai-chat-completion.json"));
const fromAnthropic: Call[] = WeatherTools.parseToolCalls(readJson("recorded/anthropic-message.json"));

// 3. streams: each call comes out of the accumulator once it is complete, as { ok: true, call } or { ok: false, ... }
const valid = (outcomes: import("./gen/weather-tools.js").WeatherToolsOutcome[]): Call[] =>
  outcomes.map((o) => {
    if (!o.ok) throw o.error;
    return o.call;
  });
const openaiAcc = WeatherTools.accumulator();
const fromOpenAIStream: Call[] = [];
for (const event of readLines("recorded/openai-chat-stream.jsonl")) fromOpenAIStream.push(...valid(openaiAcc.push(event)));
fromOpenAIStream.push(...valid(openaiAcc.end()));
const anthropicAcc = WeatherTools.accumulator();
const fromAnthropicStream: Call[] = [];
for (const event of readLines("recorded/anthropic-stream.jsonl")) fromAnthropicStream.push(...valid(anthropicAcc.push(event)));
fromAnthropicStream.push(...valid(anthropicAcc.end()));

const all = [...fromOpenAI, ...fromOpenAIStream, ...fromAnthropic, ...fromAnthropicStream];
console.log(`\nparsed ${all.length} tool calls:`);
for (const c of all) {
  // the union is discriminated by name: `c.arguments` is typed per tool here
  const summary = c.name === "get_forecast" ? `${c.arguments.city}, ${c.arguments.days} days` : c.name === "get_weather" ? `${c.arguments.city} (${c.arguments.unit})` : JSON.stringify(c.arguments.location);
  console.log(`  ${c.id.padEnd(30)} ${c.name.padEnd(16)} ${summary}`);
}

// 4. encode: one call, and the whole batch (the tool name travels as an index, never as text)
const calls = all.map(({ name, arguments: args }) => ({ name, arguments: args }) as import("./gen/weather-tools.js").WeatherTools);
deepStrictEqual(calls, readJson("data/calls.json"), "the parsed calls are those the recordings carry (data/calls.json)");
const one = WeatherTools.encode(calls[0]!);
deepStrictEqual(WeatherTools.decode(one), calls[0]);
const batch = WeatherTools.batch.encode(calls);
deepStrictEqual(WeatherTools.batch.decode(batch), calls);
const json = new TextEncoder().encode(JSON.stringify(calls));
console.log(`\nbatch of ${calls.length} calls: ${json.length} bytes as JSON, ${batch.length} bytes as TOON binary (${((batch.length / json.length) * 100).toFixed(0)}%); first call alone ${one.length} bytes`);

// 5. bad model output: every violation is listed, with its path; a cut-off stream is INCOMPLETE
try {
  WeatherTools.parseToolCall({ id: "call_bad", type: "function", function: { name: "get_forecast", arguments: '{"city":"","days":14,"include":["wind","wind","snow"]}' } });
} catch (e) {
  if (!(e instanceof ToonError)) throw e;
  console.log(`\ninvalid call rejected (${e.code}):`);
  for (const d of e.details ?? []) console.log(`  ${d.path}: ${d.message}`);
}
const cut = WeatherTools.accumulator();
for (const event of readLines("recorded/openai-chat-stream.jsonl").slice(0, 9)) cut.push(event);
const unfinished = cut.end().filter((o) => !o.ok);
console.log(`cut-off stream: ${unfinished.map((o) => (o.ok ? "" : `${o.error.code} ${o.id}`)).join(", ")}: ${unfinished.length} unfinished call(s)`);

// 6. MCP: a tools/call request, and the result's structuredContent through the tool's result codec
const mcp = readJson("recorded/mcp-tools-call.json") as { request: { params: unknown }; response: { result: { structuredContent: unknown } } };
const request = McpToolsList.parseToolCall(mcp.request.params);
const requestBytes = McpToolsList.encode({ name: request.name, arguments: request.arguments } as import("./gen/mcp-tools-list.js").McpToolsList);
const resultCodec = McpToolsList.results["notes.search"];
const structured = resultCodec.decode(resultCodec.encode(mcp.response.result.structuredContent as import("./gen/mcp-tools-list.js").NotesSearchResult));
deepStrictEqual(structured, mcp.response.result.structuredContent);
console.log(`\nMCP tools/call ${request.name}: request ${requestBytes.length} bytes, result ${resultCodec.encode(structured).length} bytes (top hit: ${structured.results[0]?.title})`);

// 7. Zod: values Zod accepted encode with the generated codecs, and the types are z.infer's
const query: z.infer<typeof schemas.WeatherQuery> = schemas.WeatherQuery.parse({ city: "北京", date: "2025-01-15" });
deepStrictEqual(WeatherQueryCodec.decode(WeatherQueryCodec.encode(query)), query);
const forecastValue: z.infer<typeof schemas.forecastSchema> = schemas.forecastSchema.parse({
  city: "São Paulo",
  days: [
    { date: "2025-01-15", high: 31.5, low: 21, conditions: "rain", precipitation: 0.8 },
    { date: "2025-01-16", high: 29, low: 20.5, conditions: "cloudy", precipitation: null },
  ],
  sources: { inmet: "https://portal.inmet.gov.br/" },
});
const forecastBytes = ForecastCodec.encode(forecastValue);
deepStrictEqual(ForecastCodec.decode(forecastBytes), forecastValue);
console.log(`Zod: WeatherQuery ${WeatherQueryCodec.encode(query).length} bytes, Forecast ${forecastBytes.length} bytes (JSON ${JSON.stringify(forecastValue).length})`);
console.log("\nall round trips equal");
