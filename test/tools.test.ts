/**
 * Tool definitions as inputs (issue 4): format detection, the tool-set module (`parseToolCall`, the stream
 * accumulator, the call / batch / argument codecs) on the example's weather tools, hostile tool names, every
 * tool definition of ../shared/corpus/tool-definitions (generated, type-checked in one tsc run, recorded call
 * payloads round-tripped or rejected with a path), and the pipeline with mixed inputs.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { Ajv } from "ajv";
import { ToonError } from "../runtime/wire/errors.ts";
import { parseArgumentsJson } from "../runtime/tools.ts";
import { ArgumentsFeed } from "../runtime/tools/arguments.ts";
import { generate } from "../generator/pipeline.ts";
import {
  isToolDefinitionDocument,
  produceInput,
  produceToolSet,
  readToolDefinitionGroups,
  readToolDefinitions,
  toolFormat,
  type ProducedInput,
} from "../generator/inputs/index.ts";
import { WeatherTools, type WeatherToolsCall } from "../examples/tools/gen/weather-tools.ts";
import { corpusDir, freshDir, importGenerated, jsonLines, REPO, typeCheck, writeProduced } from "./support/tools-gen.ts";
import { catchToon } from "./support/toon-error.ts";

const EXAMPLE = path.join(REPO, "examples", "tools");
const readExample = (rel: string): string => readFileSync(path.join(EXAMPLE, rel), "utf8");

/** A tool set module as the tests use it (whatever its tools). */
interface AnyToolSet {
  name: string;
  toolNames: readonly string[];
  encode(call: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
  validate(v: unknown): { ok: boolean };
  batch: { encode(v: unknown): Uint8Array; decode(b: Uint8Array): unknown };
  tools: Record<string, { encode(v: unknown): Uint8Array; decode(b: Uint8Array): unknown }>;
  results: Record<string, { encode(v: unknown): Uint8Array; decode(b: Uint8Array): unknown }>;
  parseToolCall(raw: unknown): { id: string; name: string; arguments: unknown };
  accumulator(): { push(e: unknown): unknown[]; end(): unknown[] };
}


type Outcome = ReturnType<ReturnType<typeof WeatherTools.accumulator>["push"]>[number];

/** The calls of outcomes that must all be valid. */
function valid(outcomes: Outcome[]): WeatherToolsCall[] {
  return outcomes.map((o) => {
    if (!o.ok) assert.fail(`unexpected failed call ${o.id}: ${o.error.message}`);
    return o.call;
  });
}

/** The failed outcomes (and that there is no valid one among them). */
function failures(outcomes: Outcome[]): Extract<Outcome, { ok: false }>[] {
  return outcomes.map((o) => {
    if (o.ok) assert.fail(`unexpected valid call ${o.call.id}`);
    return o;
  });
}

/** An OpenAI Chat Completions stream chunk carrying tool-call fragments. */
function chunk(toolCalls: unknown[] | undefined, finish: string | null = null, choice = 0): unknown {
  return { object: "chat.completion.chunk", choices: [{ index: choice, delta: toolCalls ? { tool_calls: toolCalls } : {}, finish_reason: finish }] };
}

// ---------------------------------------------------------------------------------------------------------
describe("tool-definition formats", () => {
  const params = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
  test("each format is recognised by shape, alone or in arrays", () => {
    assert.equal(toolFormat({ type: "function", function: { name: "a", parameters: params } }), "openai-chat");
    assert.equal(toolFormat({ type: "function", name: "a", parameters: params, strict: true }), "openai-responses");
    assert.equal(toolFormat({ name: "a", description: "d", parameters: params }), "openai-function");
    assert.equal(toolFormat({ name: "a", input_schema: params }), "anthropic");
    assert.equal(toolFormat({ name: "a", inputSchema: params, outputSchema: params }), "mcp");
    assert.equal(toolFormat({ type: "web_search" }), "builtin");
    assert.equal(toolFormat({ type: "web_search_20250305", name: "web_search" }), "builtin");
    assert.equal(toolFormat({ type: "object", properties: {} }), undefined);
    assert.ok(isToolDefinitionDocument([{ name: "a", input_schema: params }]));
    assert.ok(isToolDefinitionDocument({ tools: [{ name: "a", inputSchema: params }] }));
    assert.ok(isToolDefinitionDocument({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "a", inputSchema: params }] } }));
    assert.ok(isToolDefinitionDocument({ groupA: [{ name: "a", input_schema: params }] }));
  });

  test("JSON Schemas are not mistaken for tool files", () => {
    assert.ok(!isToolDefinitionDocument({ type: "object", properties: { tools: { type: "array" } } }));
    assert.ok(!isToolDefinitionDocument({ type: "object", properties: { name: { type: "string" }, parameters: { type: "object" } } }));
    assert.ok(!isToolDefinitionDocument({ $defs: { a: { type: "string" } }, $ref: "#/$defs/a" }));
    assert.ok(!isToolDefinitionDocument({}));
    assert.ok(!isToolDefinitionDocument([{ type: "string" }]));
    assert.ok(!isToolDefinitionDocument(true));
  });

  test("groups merge, identical repeats are kept once, conflicting names are an error naming both", () => {
    const a = { name: "a", input_schema: params };
    const merged = readToolDefinitions({ g1: [a], g2: [a, { name: "b", input_schema: params }] }, "x.json");
    assert.deepEqual(merged.tools.map((t) => t.name), ["a", "b"]);
    assert.deepEqual(merged.groups, ["g1", "g2"]);
    const e = catchToon(() => readToolDefinitions({ g1: [a], g2: [{ name: "a", input_schema: { type: "object" } }] }, "x.json"));
    assert.equal(e.code, "SCHEMA_ERROR");
    assert.match(e.message, /two different tools are named "a" \(at \/g1\/0 and \/g2\/0\)/);
    assert.equal(readToolDefinitionGroups({ g1: [a], g2: [{ name: "a", input_schema: { type: "object" } }] }, "x.json").length, 2);
  });

  test("built-in tools are skipped with a warning; a file of only built-ins is an error", () => {
    const set = readToolDefinitions([{ type: "web_search" }, { type: "function", name: "f", parameters: params }], "t.json");
    assert.deepEqual(set.tools.map((t) => t.name), ["f"]);
    assert.equal(set.warnings.length, 1);
    assert.match(set.warnings[0]!, /built-in tool "web_search".*skipped/);
    assert.equal(catchToon(() => readToolDefinitions([{ type: "web_search" }], "t.json")).code, "SCHEMA_ERROR");
  });

  test("a function without parameters takes an empty object", () => {
    const set = readToolDefinitions([{ type: "function", function: { name: "now" } }], "t.json");
    assert.deepEqual(set.tools[0]!.inputSchema, { type: "object", properties: {}, additionalProperties: false });
  });

  test("a schema error inside a tool names the file, the tool and the path in the file", () => {
    const e = catchToon(() =>
      produceToolSet(readToolDefinitions([{ type: "function", function: { name: "f", parameters: { type: "object", properties: { a: { $ref: "#/nowhere" } } } } }], "t.json"), {
        source: "t.json",
        file: path.join(REPO, "t.json"),
        base: "t",
      }),
    );
    assert.match(e.message, /t\.json \(tool "f" arguments\)/);
    assert.equal(e.path.startsWith("/0/function/parameters/properties/a"), true, e.path);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe("tool set codec (examples/tools weather tools)", () => {
  const weatherArgs = { city: "北京", date: "2025-01-15", unit: "celsius" } as const;
  /** JSON with every non-ASCII character escaped as \uXXXX, as several OpenAI models send arguments. */
  const asciiJson = (v: unknown): string => JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));

  test("the codec has the core shape; the name travels as an index", () => {
    for (const k of ["name", "fingerprint", "dictionary", "encode", "decode", "validate"]) assert.ok(k in WeatherTools, k);
    const call = { name: "get-air-quality", arguments: { location: { kind: "city", name: "Zürich" } } } as const;
    const bytes = WeatherTools.encode(call);
    assert.deepEqual(WeatherTools.decode(bytes), call);
    assert.equal(Buffer.from(bytes).includes(Buffer.from("get-air-quality")), false, "the tool name must not be written as text");
    assert.equal(Buffer.from(bytes).includes(Buffer.from("Zürich")), true);
    assert.deepEqual(WeatherTools.toolNames, ["get_weather", "get_forecast", "get-air-quality"]);
    assert.equal(WeatherTools.validate({ name: "nope", arguments: {} }).ok, false);
  });

  test("batch codec and per-tool argument codecs round-trip", () => {
    const calls = [
      { name: "get_weather", arguments: weatherArgs },
      { name: "get_forecast", arguments: { city: "Oslo", days: 3 } },
      { name: "get_weather", arguments: { ...weatherArgs, date: null } },
    ] as const;
    assert.deepEqual(WeatherTools.batch.decode(WeatherTools.batch.encode([...calls])), calls);
    assert.deepEqual(WeatherTools.tools.get_weather.decode(WeatherTools.tools.get_weather.encode(weatherArgs)), weatherArgs);
    assert.notEqual(WeatherTools.tools.get_weather.fingerprint, WeatherTools.tools.get_forecast.fingerprint);
    const fp = catchToon(() => WeatherTools.tools.get_forecast.decode(WeatherTools.tools.get_weather.encode(weatherArgs)));
    assert.equal(fp.code, "FINGERPRINT_MISMATCH");
  });

  test("parseToolCall: OpenAI tool_calls[i] with \\uXXXX escapes in the arguments string", () => {
    const text = asciiJson(weatherArgs);
    assert.ok(text.includes("\\u5317\\u4eac"));
    const c = WeatherTools.parseToolCall({ id: "call_1", type: "function", function: { name: "get_weather", arguments: text } });
    assert.deepEqual(c, { id: "call_1", name: "get_weather", arguments: weatherArgs });
    // typed by tool name
    if (c.name === "get_weather") assert.equal(c.arguments.unit, "celsius");
  });

  test("parseToolCall: Anthropic tool_use, OpenAI Responses function_call, MCP tools/call params", () => {
    const input = { city: "Oslo", days: 2, include: ["wind"] };
    assert.deepEqual(WeatherTools.parseToolCall({ type: "tool_use", id: "toolu_1", name: "get_forecast", input }), { id: "toolu_1", name: "get_forecast", arguments: input });
    assert.deepEqual(WeatherTools.parseToolCall({ type: "function_call", id: "fc_1", call_id: "call_9", name: "get_forecast", arguments: JSON.stringify(input) }), {
      id: "call_9",
      name: "get_forecast",
      arguments: input,
    });
    assert.deepEqual(WeatherTools.parseToolCall({ name: "get_forecast", arguments: input }), { id: "", name: "get_forecast", arguments: input });
  });

  test("parseToolCall: every violation is listed with its path", () => {
    const e = catchToon(() =>
      WeatherTools.parseToolCall({ id: "c", type: "function", function: { name: "get_forecast", arguments: '{"city":"","days":14.5,"include":["wind","wind","snow"],"extra":1}' } }),
    );
    assert.equal(e.code, "INVALID_VALUE");
    const paths = (e.details ?? []).map((d) => d.path);
    assert.deepEqual(paths, ["/arguments/city", "/arguments/days", "/arguments/include/1", "/arguments/include/2", "/arguments/extra"]);
    assert.match(e.details![1]!.message, /expected an integer/);
    assert.match(e.details![2]!.message, /^items 0 and 1 are equal \(items must be unique\)/);
    assert.match(e.message, /5 violations/);
    const missing = catchToon(() => WeatherTools.parseToolCall({ type: "tool_use", id: "t", name: "get_weather", input: {} }));
    assert.deepEqual(
      missing.details?.map((d) => d.path),
      ["/arguments/city", "/arguments/date", "/arguments/unit"],
    );
    const union = catchToon(() => WeatherTools.parseToolCall({ name: "get-air-quality", arguments: { location: { kind: "coordinates", lat: 95, lon: "8" } } }));
    assert.deepEqual(union.details?.map((d) => d.path), ["/arguments/location/lat", "/arguments/location/lon"]);
    const tag = catchToon(() => WeatherTools.parseToolCall({ name: "get-air-quality", arguments: { location: { kind: "planet" } } }));
    assert.equal(tag.details?.[0]?.path, "/arguments/location/kind");
  });

  test("parseToolCall: an unknown tool is an error naming the known ones", () => {
    const e = catchToon(() => WeatherTools.parseToolCall({ id: "c", type: "function", function: { name: "get_time", arguments: "{}" } }));
    assert.equal(e.code, "INVALID_VALUE");
    assert.equal(e.path, "/name");
    assert.match(e.message, /unknown tool "get_time".*"get_weather", "get_forecast", "get-air-quality"/);
  });

  test("parseToolCall: bad argument JSON; a lone surrogate; cut-off JSON is INCOMPLETE", () => {
    const bad = catchToon(() => WeatherTools.parseToolCall({ type: "function", id: "c", function: { name: "get_weather", arguments: '{"city": nope}' } }));
    assert.equal(bad.code, "INVALID_VALUE");
    assert.equal(bad.path, "/arguments");
    const cut = catchToon(() => WeatherTools.parseToolCall({ type: "function", id: "c", function: { name: "get_weather", arguments: '{"city":"Osl' } }));
    assert.equal(cut.code, "INCOMPLETE");
    const lone = catchToon(() => WeatherTools.parseToolCall({ name: "get_weather", arguments: '{"city":"\\ud800","date":null,"unit":"celsius"}' }));
    assert.equal(lone.code, "INVALID_VALUE");
    assert.equal(lone.details?.[0]?.path, "/arguments/city");
    assert.deepEqual(parseArgumentsJson("  "), {});
    assert.equal(catchToon(() => parseArgumentsJson('{"a":1} x')).code, "INVALID_VALUE");
  });

  test("parseToolCalls: whole recorded responses", () => {
    const openai = WeatherTools.parseToolCalls(JSON.parse(readExample("recorded/openai-chat-completion.json")));
    assert.deepEqual(openai.map((c) => c.name), ["get_weather", "get_forecast"]);
    assert.equal((openai[0]!.arguments as { city: string }).city, "北京");
    assert.equal((openai[1]!.arguments as { city: string }).city, "São Paulo");
    const anthropic = WeatherTools.parseToolCalls(JSON.parse(readExample("recorded/anthropic-message.json")));
    assert.deepEqual(anthropic.map((c) => c.id), ["toolu_01A09q90qw90lq917835lq9", "toolu_01BX7fbQNa3q5vRkS8hE2wJm"]);
  });

  test("accumulator: recorded OpenAI stream (interleaved indices, fragments split mid-escape)", () => {
    const acc = WeatherTools.accumulator();
    const got: WeatherToolsCall[][] = jsonLines(readExample("recorded/openai-chat-stream.jsonl")).map((e) => valid(acc.push(e)));
    assert.deepEqual(acc.end(), []);
    const all = got.flat();
    assert.deepEqual(all.map((c) => c.name), ["get_weather", "get-air-quality"]);
    assert.deepEqual(all[0]!.arguments, { city: "北京", date: null, unit: "celsius" });
    assert.deepEqual(all[1]!.arguments, { location: { kind: "city", name: "Zürich" }, pollutants: ["pm2_5", "no2"] });
    // each call came out with the fragment that completed it, not at the end
    const at = got.map((g, i) => (g.length > 0 ? i : -1)).filter((i) => i >= 0);
    assert.equal(at.length, 2);
    assert.ok(at[1]! < got.length - 1);
  });

  test("accumulator: every split point of an escaped argument string", () => {
    const text = asciiJson({ city: "Zürich \"Mitte\" \\ 北京", date: null, unit: "fahrenheit" });
    for (let i = 1; i < text.length; i++) {
      const acc = WeatherTools.accumulator();
      assert.deepEqual(acc.push(chunk([{ index: 0, id: "call_x", type: "function", function: { name: "get_weather", arguments: text.slice(0, i) } }])), [], `split at ${i}`);
      const out = valid(acc.push(chunk([{ index: 0, function: { arguments: text.slice(i) } }])));
      assert.equal(out.length, 1, `split at ${i}: ${JSON.stringify(text.slice(0, i))}`);
      assert.equal((out[0]!.arguments as { city: string }).city, "Zürich \"Mitte\" \\ 北京");
      assert.deepEqual(acc.end(), []);
    }
    // three pieces at every pair of points, the escapes included
    const short = asciiJson({ city: "é北", date: null, unit: "celsius" });
    for (let i = 1; i < short.length; i++) {
      for (let j = i + 1; j < short.length; j++) {
        const acc = WeatherTools.accumulator();
        const out = valid([
          ...acc.push(chunk([{ index: 0, id: "c", function: { name: "get_weather", arguments: short.slice(0, i) } }])),
          ...acc.push(chunk([{ index: 0, function: { arguments: short.slice(i, j) } }])),
          ...acc.push(chunk([{ index: 0, function: { arguments: short.slice(j) } }])),
        ]);
        assert.equal(out.length, 1);
        assert.equal((out[0]!.arguments as { city: string }).city, "é北");
      }
    }
  });

  test("accumulator: the later index may finish first; ids and names come from the first fragment", () => {
    const acc = WeatherTools.accumulator();
    acc.push(chunk([{ index: 0, id: "a", function: { name: "get_forecast", arguments: '{"city":"Oslo",' } }]));
    acc.push(chunk([{ index: 1, id: "b", function: { name: "get_weather", arguments: '{"city":"Rome"' } }]));
    const first = valid(acc.push(chunk([{ index: 1, function: { arguments: ',"date":null,"unit":"celsius"}' } }])));
    assert.deepEqual(first.map((c) => c.id), ["b"]);
    const second = acc.push(chunk([{ index: 0, function: { arguments: '"days":2}' } }]));
    assert.deepEqual(second, [{ ok: true, index: 0, call: { id: "a", name: "get_forecast", arguments: { city: "Oslo", days: 2 } } }]);
    assert.deepEqual(acc.push(chunk(undefined, "tool_calls")), []);
    assert.deepEqual(acc.end(), []);
  });

  test("accumulator: a cut-off stream is INCOMPLETE per call, never returned as whole", () => {
    const events = jsonLines(readExample("recorded/openai-chat-stream.jsonl"));
    for (let n = 3; n < events.length - 4; n++) {
      const acc = WeatherTools.accumulator();
      for (const e of events.slice(0, n)) acc.push(e);
      const cut = failures(acc.end());
      assert.ok(cut.length >= 1, `cut after ${n} events`);
      for (const f of cut) {
        assert.equal(f.error.code, "INCOMPLETE", `cut after ${n} events`);
        assert.equal(f.error.path, "/arguments");
        assert.match(f.error.message, /before their JSON was complete/);
        assert.ok(f.id.startsWith("call_"), f.id);
        assert.equal(f.error.call?.id, f.id);
        assert.match(f.error.call?.position ?? "", /^openai:/);
      }
    }
    // finish_reason "length": the open calls were truncated by the token limit
    const acc = WeatherTools.accumulator();
    acc.push(chunk([{ index: 0, id: "a", function: { name: "get_weather", arguments: '{"city":"Os' } }]));
    const [f] = failures(acc.push(chunk(undefined, "length")));
    assert.equal(f!.error.code, "INCOMPLETE");
    assert.match(f!.error.message, /\(length\)/);
    assert.deepEqual(f!.error.call, { id: "a", name: "get_weather", index: 0, arguments: '{"city":"Os', position: "openai::0:0" });
    assert.deepEqual(acc.end(), []);
    assert.deepEqual(acc.pending, []);
  });

  test("accumulator: an invalid or unknown call is a failed outcome naming it, and the accumulator goes on", () => {
    const acc = WeatherTools.accumulator();
    const [f1] = failures(acc.push(chunk([{ index: 0, id: "a", function: { name: "get_weather", arguments: '{"city":""}' } }])));
    assert.equal(f1!.error.code, "INVALID_VALUE");
    assert.deepEqual(f1!.error.details?.map((d) => d.path), ["/arguments/city", "/arguments/date", "/arguments/unit"]);
    assert.deepEqual([f1!.id, f1!.name, f1!.index], ["a", "get_weather", 0]);
    assert.match(f1!.error.message, /tool call "get_weather" \("a"\)/);
    const [f2] = failures(acc.push(chunk([{ index: 1, id: "b", function: { name: "get_time", arguments: "{}" } }])));
    assert.equal(f2!.error.path, "/name");
    assert.equal(f2!.id, "b");
    const ok = valid(acc.push(chunk([{ index: 2, id: "c", function: { name: "get_forecast", arguments: '{"city":"Oslo","days":1}' } }])));
    assert.equal(ok.length, 1);
    const [f3] = failures(acc.push(chunk([{ index: 2, function: { arguments: "}" } }])));
    assert.match(f3!.error.message, /after the call was complete/);
    assert.equal(f3!.id, "c");
    assert.deepEqual(acc.end(), []);
  });

  test("accumulator: recorded Anthropic stream; max_tokens cuts a call off", () => {
    const acc = WeatherTools.accumulator();
    const out = jsonLines(readExample("recorded/anthropic-stream.jsonl")).flatMap((e) => acc.push(e));
    assert.deepEqual(out, [{ ok: true, index: 0, call: { id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "get_forecast", arguments: { city: "Москва", days: 5, include: ["temperature", "wind"] } } }]);
    assert.deepEqual(acc.end(), []);

    const cut = WeatherTools.accumulator();
    cut.push({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "t1", name: "get_weather", input: {} } });
    cut.push({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city": "Os' } });
    assert.equal(failures(cut.push({ type: "content_block_stop", index: 0 }))[0]!.error.code, "INCOMPLETE");
    const cut2 = WeatherTools.accumulator();
    cut2.push({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "t1", name: "get_weather", input: {} } });
    cut2.push({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city": "Os' } });
    const [m] = failures(cut2.push({ type: "message_delta", delta: { stop_reason: "max_tokens" } }));
    assert.equal(m!.error.code, "INCOMPLETE");
    assert.equal(m!.id, "t1");
    // a tool_use block that never got a delta or a stop, then the stream ends
    const cut3 = WeatherTools.accumulator();
    cut3.push({ type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "t3", name: "get_weather", input: {} } });
    const [e3] = failures(cut3.end());
    assert.equal(e3!.error.code, "INCOMPLETE");
    assert.equal(e3!.error.path, "/arguments");
    assert.equal(e3!.error.call?.position, "anthropic:2");
  });

  test("accumulator: OpenAI Responses API events", () => {
    const acc = WeatherTools.accumulator();
    const args = JSON.stringify({ city: "Lima", days: 4 });
    const out = [
      ...acc.push({ type: "response.output_item.added", output_index: 1, item: { type: "function_call", id: "fc_1", call_id: "call_r", name: "get_forecast", arguments: "" } }),
      ...acc.push({ type: "response.function_call_arguments.delta", output_index: 1, item_id: "fc_1", delta: args.slice(0, 7) }),
      ...acc.push({ type: "response.function_call_arguments.delta", output_index: 1, item_id: "fc_1", delta: args.slice(7) }),
    ];
    assert.deepEqual(out, []);
    const done = valid(acc.push({ type: "response.function_call_arguments.done", output_index: 1, item_id: "fc_1", arguments: args }));
    assert.deepEqual(done, [{ id: "call_r", name: "get_forecast", arguments: { city: "Lima", days: 4 } }]);
    assert.deepEqual(acc.push({ type: "response.output_item.done", output_index: 1, item: { type: "function_call", call_id: "call_r", name: "get_forecast", arguments: args } }), []);
    const cut = WeatherTools.accumulator();
    cut.push({ type: "response.output_item.added", output_index: 0, item: { type: "function_call", call_id: "c", name: "get_forecast", arguments: "" } });
    cut.push({ type: "response.function_call_arguments.delta", output_index: 0, delta: '{"city"' });
    const [f] = failures(cut.push({ type: "response.incomplete", response: {} }));
    assert.equal(f!.error.code, "INCOMPLETE");
    assert.equal(f!.id, "c");
  });

  test("argument JSON follows strings and escapes across fragments", () => {
    const s = new ArgumentsFeed();
    const pieces = ['{"a":"}\\', '"', '\\\\"', ',"b":[1,{}]', "}"];
    for (const piece of pieces.slice(0, -1)) {
      s.feed(piece);
      assert.equal(s.closed, false);
    }
    s.feed(pieces.at(-1)!);
    assert.equal(s.closed, true);
    assert.deepEqual(s.value, { a: '}"\\', b: [1, {}] });
    assert.equal(s.error("/arguments"), undefined);
    s.feed(" x");
    assert.equal(s.error("/arguments")?.code, "INVALID_VALUE");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Generated code: hostile tool names and the whole corpus, type-checked by one tsc run.

const GEN = "tools";
let genDir = "";
let tscOutput: string | undefined;

interface CorpusSet {
  /** Corpus file, relative to the corpus root. */
  file: string;
  group: string;
  main: string;
  produced: ProducedInput;
  toolSchemas: Map<string, unknown>;
}
const corpusSets: CorpusSet[] = [];
const corpusFailures: string[] = [];
const corpus = corpusDir();
if (!corpus) console.log("# ../shared/corpus not found: skipping the corpus tool-definition tests");

const HOSTILE_NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "fs.read",
  "get-weather",
  "get_weather",
  "tools",
  "then",
  "a\"b'c\\d",
  "line\nbreak",
  "*/ x",
  "${x}`y`",
  "\u2028sep\u2029",
  "北京",
];

function hostileTools(): unknown {
  // JSON.parse keeps `__proto__` an own key, as it is in a file (an object literal would set the prototype)
  const args: unknown = JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string","description":"*/ alert(1) /*"},"a.b":{"type":"integer"},' +
      '"items[].price":{"type":"number"},"`${x}`":{"type":"boolean"}},"required":["__proto__"],"additionalProperties":false}',
  );
  return [
    ...HOSTILE_NAMES.map((name) => ({ type: "function", function: { name, description: `${name} */ \u2028 tool`, parameters: args } })),
    { type: "function", function: { name: "no_args", description: "Takes nothing." } },
  ];
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

function safeStem(s: string): string {
  return s.replace(/\.json$/i, "").replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase() || "set";
}

before(async () => {
  genDir = freshDir(GEN);
  // hostile names: written as a tool file, so the pipeline's reader sees what a user's file would hold
  const hostileFile = path.join(genDir, "hostile.json");
  writeFileSync(hostileFile, JSON.stringify(hostileTools(), null, 2));
  const hostileDoc = JSON.parse(readFileSync(hostileFile, "utf8"));
  assert.ok(Object.prototype.hasOwnProperty.call(hostileDoc[0].function.parameters.properties, "__proto__"));
  await writeProduced(produceToolSet(readToolDefinitions(hostileDoc, "hostile.json"), { source: "hostile.json", file: hostileFile, base: "hostile" }), genDir);

  if (corpus) {
    const root = path.join(corpus, "tool-definitions");
    for (const abs of filesUnder(root)) {
      const rel = path.relative(corpus, abs).split(path.sep).join("/");
      if (!abs.endsWith(".json") || rel.includes("-sources/")) continue;
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(abs, "utf8"));
      } catch (e) {
        corpusFailures.push(`${rel}: not JSON (${(e as Error).message})`);
        continue;
      }
      if (!isToolDefinitionDocument(doc)) continue; // BFCL question/answer files: not tool definitions
      const stem = safeStem(path.relative(root, abs));
      for (const { group, set } of readToolDefinitionGroups(doc, rel)) {
        const base = group === "" ? stem : `${stem}/${safeStem(group)}`;
        try {
          const produced = produceToolSet(set, { source: rel + (group ? `#${group}` : ""), file: abs, base });
          await writeProduced(produced, genDir);
          corpusSets.push({ file: rel, group, main: path.join(genDir, `${base}.ts`), produced, toolSchemas: new Map(set.tools.map((t) => [t.name, t.inputSchema])) });
        } catch (e) {
          corpusFailures.push(`${rel}${group ? `#${group}` : ""}: ${(e as Error).message}`);
        }
      }
    }
  }
  tscOutput = typeCheck(genDir);
});

after(() => {
  if (corpusSets.length > 0) console.log(`# generated ${corpusSets.length} corpus tool sets (${corpusSets.reduce((n, s) => n + s.produced.codecs.length + 1, 0)} modules) into test/.gen/${GEN}`);
});

describe("generated tool-set modules", () => {
  test("everything generated under test/.gen/tools type-checks (tsc --strict, one run)", () => {
    assert.equal(tscOutput, "", tscOutput);
  });

  test("hostile tool names: sanitised identifiers, quoted keys, own properties, round trips", async () => {
    const mod = await importGenerated<Record<string, AnyToolSet>>(path.join(genDir, "hostile.ts"));
    const set = mod.Hostile!;
    assert.deepEqual([...set.toolNames], [...HOSTILE_NAMES, "no_args"]);
    assert.ok(Object.prototype.hasOwnProperty.call(set.tools, "__proto__"));
    assert.equal(Object.getPrototypeOf(set.tools), Object.prototype);
    assert.deepEqual(Object.keys(set.tools), [...HOSTILE_NAMES, "no_args"]);
    const args = JSON.parse('{"__proto__":"x","a.b":1,"items[].price":2.5,"`${x}`":true}');
    for (const name of HOSTILE_NAMES) {
      const call = { name, arguments: args };
      const back = set.decode(set.encode(call)) as { name: string; arguments: Record<string, unknown> };
      assert.deepEqual(back, call, name);
      assert.ok(Object.prototype.hasOwnProperty.call(back.arguments, "__proto__"));
      assert.equal(Object.getPrototypeOf(back.arguments), Object.prototype);
      const parsed = set.parseToolCall({ id: "i", type: "function", function: { name, arguments: JSON.stringify(args).replace("__proto__", "\\u005f_proto__") } });
      assert.deepEqual(parsed.arguments, args);
      assert.deepEqual(set.tools[name]!.decode(set.tools[name]!.encode(args)), args);
    }
    assert.deepEqual(set.parseToolCall({ id: "i", type: "function", function: { name: "no_args", arguments: "" } }).arguments, {});
    const e = catchToon(() => set.parseToolCall({ name: "no_args", arguments: { x: 1 } }));
    assert.equal(e.details?.[0]?.path, "/arguments/x");
    const text = readFileSync(path.join(genDir, "hostile.ts"), "utf8");
    assert.ok(!/^\s*alert\(1\)/m.test(text));
    assert.ok(text.includes('["__proto__"]: ProtoArguments'));
    assert.ok(/GetWeatherArguments2\b/.test(text), "get-weather and get_weather get distinct identifiers");
  });

  test("corpus: every tool-definition file loads and generates", { skip: corpus ? false : "no corpus" }, () => {
    for (const f of corpusFailures) console.log(`# FAILED ${f}`);
    assert.deepEqual(corpusFailures, []);
    const files = new Set(corpusSets.map((s) => s.file));
    console.log(`# ${files.size} tool-definition files, ${corpusSets.length} tool sets, ${corpusSets.reduce((n, s) => n + s.produced.codecs.filter((c) => c.module.includes("/args/")).length, 0)} tools`);
    assert.ok(files.size >= 20, `only ${files.size} files`);
  });

  test("corpus: as whole pipeline inputs, files generate or report the conflicting tool names", { skip: corpus ? false : "no corpus" }, async () => {
    const seen = new Set<string>();
    const conflicts: string[] = [];
    for (const s of corpusSets) {
      if (seen.has(s.file)) continue;
      seen.add(s.file);
      try {
        const produced = await produceInput(path.join(corpus!, s.file), { cwd: corpus! });
        assert.ok(produced !== null && produced.kind === "tools", s.file);
      } catch (e) {
        assert.ok(e instanceof ToonError && /two different tools are named/.test(e.message), `${s.file}: ${(e as Error).message}`);
        conflicts.push(`${s.file}: ${e.message}`);
      }
    }
    for (const c of conflicts) console.log(`# merged groups conflict (generated per group above): ${c}`);
    // BFCL's 50 test cases and the cookbook's notebooks reuse tool names with different schemas
    assert.deepEqual(conflicts.map((c) => c.slice(0, c.indexOf(":"))).sort(), [
      "tool-definitions/anthropic/anthropic-cookbook.tools.json",
      "tool-definitions/bfcl/bfcl_v4_sample.anthropic_tools.derived.json",
      "tool-definitions/bfcl/bfcl_v4_sample.openai_tools.derived.json",
    ]);
  });

  test("corpus: recorded call payloads round-trip when valid, and are rejected with a path when not", { skip: corpus ? false : "no corpus" }, async () => {
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    const setsByKey = new Map<string, CorpusSet>();
    for (const s of corpusSets) setsByKey.set(`${s.file}#${s.group}`, s);
    const modules = new Map<CorpusSet, AnyToolSet>();
    const load = async (s: CorpusSet): Promise<AnyToolSet> => {
      let m = modules.get(s);
      if (m === undefined) {
        const mod = await importGenerated<Record<string, AnyToolSet>>(s.main);
        m = Object.values(mod).find((v) => typeof v === "object" && v !== null && "parseToolCall" in v)!;
        modules.set(s, m);
      }
      return m;
    };
    const results = { valid: 0, invalid: [] as string[] };

    const check = async (s: CorpusSet, where: string, name: string, args: unknown, raw: unknown): Promise<void> => {
      const set = await load(s);
      const schema = s.toolSchemas.get(name);
      assert.ok(schema !== undefined, `${where}: no tool ${name} in ${s.file}#${s.group}`);
      const valid = ajv.validate(schema as object, args);
      if (valid) {
        const parsed = set.parseToolCall(raw);
        assert.equal(parsed.name, name);
        assert.deepEqual(parsed.arguments, args, where);
        assert.deepEqual(set.decode(set.encode({ name, arguments: args })), { name, arguments: args }, where);
        assert.deepEqual(set.tools[name]!.decode(set.tools[name]!.encode(args)), args, where);
        assert.deepEqual(set.batch.decode(set.batch.encode([{ name, arguments: args }])), [{ name, arguments: args }], where);
        results.valid++;
      } else {
        const e = catchToon(() => set.parseToolCall(raw));
        assert.equal(e.code, "INVALID_VALUE", where);
        assert.ok((e.details ?? []).length > 0 && e.details!.every((d) => d.path.startsWith("/arguments/")), `${where}: ${e.message}`);
        const ajvPaths = (ajv.errors ?? []).map((x) => "/arguments" + x.instancePath + (x.keyword === "required" ? "/" + (x.params as { missingProperty: string }).missingProperty : ""));
        assert.ok(
          e.details!.some((d) => ajvPaths.some((p) => p === d.path || p.startsWith(d.path + "/") || d.path.startsWith(p + "/"))),
          `${where}: our paths ${e.details!.map((d) => d.path).join(", ")} vs ajv's ${ajvPaths.join(", ")}`,
        );
        results.invalid.push(`${where}: ${e.details!.map((d) => `${d.path}: ${d.message}`).join("; ")}`);
      }
    };

    // BFCL: the derived call arguments, against the OpenAI and the Anthropic derivations of the same tools
    const bfcl = jsonLines(readFileSync(path.join(corpus!, "tool-definitions/bfcl/bfcl_v4_sample.call_arguments.derived.jsonl"), "utf8")) as {
      id: string;
      calls: { openai_name: string; arguments: unknown }[];
    }[];
    for (const entry of bfcl) {
      for (const [file, form] of [
        ["tool-definitions/bfcl/bfcl_v4_sample.openai_tools.derived.json", "openai"],
        ["tool-definitions/bfcl/bfcl_v4_sample.anthropic_tools.derived.json", "anthropic"],
      ] as const) {
        const s = setsByKey.get(`${file}#${entry.id}`);
        assert.ok(s, `${file}#${entry.id}`);
        for (const [i, c] of entry.calls.entries()) {
          const raw =
            form === "openai"
              ? { id: `call_${i}`, type: "function", function: { name: c.openai_name, arguments: JSON.stringify(c.arguments) } }
              : { type: "tool_use", id: `toolu_${i}`, name: c.openai_name, input: c.arguments };
          await check(s, `bfcl ${form} ${entry.id}/${i}`, c.openai_name, c.arguments, raw);
        }
      }
    }
    const bfclInvalid = results.invalid.filter((x) => x.startsWith("bfcl openai"));
    // PROVENANCE.md: 66 of 70 validate; the 4 failures are Java and JavaScript entries
    assert.equal(bfclInvalid.length, 4, bfclInvalid.join("\n"));
    assert.ok(bfclInvalid.every((x) => /^bfcl openai simple_java(script)?_/.test(x)), bfclInvalid.join("\n"));

    // Anthropic cookbook: real tool_use inputs, grouped by notebook like the tools
    const inputs = jsonLines(readFileSync(path.join(corpus!, "tool-definitions/anthropic/anthropic-cookbook.tool_use_inputs.jsonl"), "utf8")) as {
      notebook: string;
      name: string;
      input: unknown;
    }[];
    for (const [i, x] of inputs.entries()) {
      const s = setsByKey.get(`tool-definitions/anthropic/anthropic-cookbook.tools.json#${x.notebook}`);
      assert.ok(s, x.notebook);
      await check(s, `anthropic ${x.notebook}/${x.name}#${i}`, x.name, x.input, { type: "tool_use", id: `toolu_${i}`, name: x.name, input: x.input });
    }
    const cookbookInvalid = results.invalid.filter((x) => x.startsWith("anthropic "));
    // PROVENANCE.md: 21 of 22 validate; print_summary omits the required `counterpoint`
    assert.equal(cookbookInvalid.length, 1, cookbookInvalid.join("\n"));
    assert.match(cookbookInvalid[0]!, /print_summary.*\/arguments\/counterpoint: required property "counterpoint" is missing/);

    console.log(`# ${results.valid} recorded calls round-tripped; ${results.invalid.length} rejected:`);
    for (const x of results.invalid) console.log(`#   ${x}`);
  });

  test("corpus: MCP result codecs exist exactly where an outputSchema does", { skip: corpus ? false : "no corpus" }, async () => {
    let n = 0;
    for (const s of corpusSets.filter((x) => x.file.includes("/mcp/"))) {
      const set = (Object.values(await importGenerated<Record<string, AnyToolSet>>(s.main)).find((v) => typeof v === "object" && v !== null && "results" in v))!;
      const withOutput = s.produced.codecs.filter((c) => c.module.includes("/results/")).length;
      assert.equal(Object.keys(set.results).length, withOutput, s.file);
      n += withOutput;
    }
    assert.ok(n >= 20, `only ${n} result codecs`);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe("pipeline with mixed inputs", () => {
  test("a tool file, a Zod module and a JSON Schema in one config; unchanged on the second run", async () => {
    const dir = freshDir("tools-pipeline");
    writeFileSync(
      path.join(dir, "assistant-tools.json"),
      JSON.stringify([{ name: "lookup", description: "Look a word up.", input_schema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] } }]),
    );
    writeFileSync(path.join(dir, "shapes.ts"), 'import { z } from "zod";\nexport const noteSchema = z.object({ text: z.string(), pinned: z.boolean().optional() });\nexport const Tag = z.enum(["a", "b"]);\nexport const notZod = 42;\n');
    writeFileSync(path.join(dir, "point.schema.json"), JSON.stringify({ title: "Point", type: "object", properties: { x: { type: "number" } }, required: ["x"] }));
    const config = { inputs: ["assistant-tools.json", "shapes.ts", "point.schema.json"], outDir: "gen", dictionaryDir: "dict" };
    const r1 = await generate(config, { cwd: dir });
    const index = readFileSync(path.join(dir, "gen", "index.ts"), "utf8");
    assert.match(index, /export \{ AssistantTools \} from "\.\/assistant-tools\.js";/);
    assert.match(index, /export \{ Note, NoteBinary, NoteValidate, NoteText, NoteDense, NotePrompt, NoteStream \} from "\.\/note\.js";/);
    assert.match(index, /export \{ Tag, TagBinary, TagValidate, TagText, TagDense, TagPrompt, TagStream \} from "\.\/tag\.js";/);
    assert.match(index, /export \{ Point, PointBinary, PointValidate, PointText, PointDense, PointPrompt, PointStream \} from "\.\/point\.js";/);
    assert.ok(!/LookupArguments|Batch/.test(index), index);
    assert.ok(r1.written > 0);
    const r2 = await generate(config, { cwd: dir });
    assert.equal(r2.written, 0);
    const mod = await importGenerated<{ AssistantTools: AnyToolSet }>(path.join(dir, "gen", "assistant-tools.ts"));
    assert.deepEqual(mod.AssistantTools.parseToolCall({ type: "tool_use", id: "t", name: "lookup", input: { word: "toon" } }).arguments, { word: "toon" });
    const note = await importGenerated<{ Note: { encode(v: unknown): Uint8Array; decode(b: Uint8Array): unknown } }>(path.join(dir, "gen", "note.ts"));
    assert.deepEqual(note.Note.decode(note.Note.encode({ text: "hi", pinned: true })), { text: "hi", pinned: true });

    // one export only; a missing export; a module path clash
    const one = await generate({ ...config, inputs: ["shapes.ts#Tag"], outDir: "gen-one", dictionaryDir: "dict-one" }, { cwd: dir });
    assert.deepEqual(one.schemas.map((s) => s.ir.name), ["Tag"]);
    await assert.rejects(generate({ ...config, inputs: ["shapes.ts#Nope"] }, { cwd: dir, dryRun: true }), (e: unknown) => e instanceof ToonError && /has no export "Nope"/.test(e.message));
    await assert.rejects(generate({ ...config, inputs: ["shapes.ts#notZod"] }, { cwd: dir, dryRun: true }), (e: unknown) => e instanceof ToonError && /is not a Zod schema/.test(e.message));
    writeFileSync(path.join(dir, "clash.ts"), 'import { z } from "zod";\nexport const assistantToolsSchema = z.string();\n');
    await assert.rejects(
      generate({ ...config, inputs: ["assistant-tools.json", "clash.ts"] }, { cwd: dir, dryRun: true }),
      (e: unknown) => e instanceof ToonError && /would both generate assistant-tools\.ts/.test(e.message),
    );
    // (.mjs: a module that fails to load, which the repo's own tsc run must not see)
    writeFileSync(path.join(dir, "broken.mjs"), 'import "some-package-that-is-not-installed";\nexport const x = 1;\n');
    await assert.rejects(
      generate({ ...config, inputs: ["broken.mjs"] }, { cwd: dir, dryRun: true }),
      (e: unknown) => e instanceof ToonError && e.code === "IO_ERROR" && /cannot load module broken\.mjs: ERR_MODULE_NOT_FOUND/.test(e.message),
    );
  });

  test("the examples/tools output is what the generator writes (golden)", async () => {
    const { loadConfig } = await import("../generator/cli/config.ts");
    const { config, baseDir } = loadConfig(undefined, EXAMPLE);
    const r = await generate(config, { cwd: baseDir, dryRun: true });
    const changed = r.files.filter((f) => f.changed).map((f) => path.relative(REPO, f.path));
    assert.deepEqual(changed, [], "regenerate examples/tools (node --conditions=toon-dev --import tsx ../../generator/cli/main.ts in examples/tools)");
  });
});
