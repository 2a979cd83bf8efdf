/**
 * Issue 13, the tool-set side of an agent loop: errors that name the call (id, name, index, raw arguments,
 * position), outcomes instead of exceptions, parsed calls that encode, tool-result messages for each provider,
 * and provider definitions (strict mode included, nulls read back as absent) from the one generated tool set.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { Ajv } from "ajv";
import { ToonError } from "../runtime/wire/errors.ts";
import { toolDefinitions } from "../runtime/tools/definitions.ts";
import { WeatherTools, type WeatherToolsCall } from "../examples/tools/gen/weather-tools.ts";
import { McpToolsList } from "../examples/tools/gen/mcp-tools-list.ts";
import { REPO } from "./support/tools-gen.ts";
import { catchToon } from "./support/toon-error.ts";

const readExample = (rel: string): unknown => JSON.parse(readFileSync(path.join(REPO, "examples", "tools", rel), "utf8"));


/** An OpenAI chat completion whose second of three calls is bad. */
function completionWithBadCall(): unknown {
  const call = (id: string, name: string, args: string): unknown => ({ id, type: "function", function: { name, arguments: args } });
  return {
    id: "chatcmpl-1",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          tool_calls: [
            call("call_A", "get_forecast", '{"city":"Oslo","days":2}'),
            call("call_BAD", "get_forecast", '{"city":"","days":40}'),
            call("call_C", "get_weather", '{"city":"Rome","date":null,"unit":"celsius"}'),
          ],
        },
        finish_reason: "tool_calls",
      },
    ],
  };
}

describe("errors that name the call", () => {
  test("parseToolCall: id, name, index and the raw argument text are fields; the path points into the call", () => {
    const raw = '{"city":"","days":40}';
    const e = catchToon(() => WeatherTools.parseToolCall({ id: "call_BAD", type: "function", function: { name: "get_forecast", arguments: raw } }));
    assert.equal(e.code, "INVALID_VALUE");
    assert.deepEqual(e.call, { id: "call_BAD", name: "get_forecast", index: 0, arguments: raw });
    assert.match(e.message, /call_BAD/);
    assert.deepEqual(e.details?.map((d) => d.path), ["/arguments/city", "/arguments/days"]);
    // errors before the arguments were read name the call too
    const json = catchToon(() => WeatherTools.parseToolCall({ id: "call_J", type: "function", function: { name: "get_forecast", arguments: '{"city": nope}' } }));
    assert.equal(json.call?.id, "call_J");
    assert.equal(json.path, "/arguments");
    const cut = catchToon(() => WeatherTools.parseToolCall({ type: "tool_use", id: "toolu_X", name: "get_weather", input: "{\"city\":\"Os" }));
    assert.equal(cut.call?.id, "toolu_X");
    const unknown = catchToon(() => WeatherTools.parseToolCall({ type: "function_call", call_id: "call_U", name: "get_time", arguments: "{}" }));
    assert.deepEqual([unknown.path, unknown.call?.id, unknown.call?.name], ["/name", "call_U", "get_time"]);
  });

  test("parseToolCalls throws the bad call with its position; tryParseToolCalls reports every call", () => {
    const e = catchToon(() => WeatherTools.parseToolCalls(completionWithBadCall()));
    assert.deepEqual(
      { id: e.call?.id, index: e.call?.index, position: e.call?.position, path: e.path },
      { id: "call_BAD", index: 1, position: "/choices/0/message/tool_calls/1", path: "/arguments/city" },
    );
    const all = WeatherTools.tryParseToolCalls(completionWithBadCall());
    assert.deepEqual(all.map((o) => o.ok), [true, false, true]);
    const bad = all[1]!;
    assert.ok(!bad.ok);
    assert.deepEqual([bad.id, bad.name, bad.index], ["call_BAD", "get_forecast", 1]);
    assert.equal(bad.error.call?.arguments, '{"city":"","days":40}');
  });
});

describe("parsed calls encode", () => {
  test("encode(parseToolCall(x)) and batch.encode(parseToolCalls(x)): the id is dropped, the rest round-trips", () => {
    const response = readExample("recorded/openai-chat-completion.json");
    const parsed = WeatherTools.parseToolCalls(response);
    const bytes = WeatherTools.encode(parsed[0]!);
    assert.deepEqual(WeatherTools.decode(bytes), { name: parsed[0]!.name, arguments: parsed[0]!.arguments });
    const batch = WeatherTools.batch.encode(parsed);
    assert.deepEqual(
      WeatherTools.batch.decode(batch),
      parsed.map((c) => ({ name: c.name, arguments: c.arguments })),
    );
    // the same bytes as the call without its id
    assert.deepEqual(bytes, WeatherTools.encode({ name: parsed[0]!.name, arguments: parsed[0]!.arguments } as Parameters<typeof WeatherTools.encode>[0]));
    const mcp = readExample("recorded/mcp-tools-call.json") as { request: { params: unknown } };
    const call = McpToolsList.parseToolCall(mcp.request.params);
    assert.deepEqual(McpToolsList.decode(McpToolsList.encode(call)), { name: call.name, arguments: call.arguments });
  });
});

describe("tool-result messages", () => {
  const call: WeatherToolsCall = { id: "call_1", name: "get_forecast", arguments: { city: "Oslo", days: 2 } };
  const failed = WeatherTools.tryParseToolCalls(completionWithBadCall())[1]!;

  test("a result, in each provider's form, with the call's id", () => {
    const result = { temperature: [3, 4] };
    assert.deepEqual(WeatherTools.resultMessage("openai-chat", call, result), { role: "tool", tool_call_id: "call_1", content: '{"temperature":[3,4]}' });
    assert.deepEqual(WeatherTools.resultMessage("openai-responses", call, "sunny"), { type: "function_call_output", call_id: "call_1", output: "sunny" });
    assert.deepEqual(WeatherTools.resultMessage("anthropic", call, result), { type: "tool_result", tool_use_id: "call_1", content: '{"temperature":[3,4]}' });
    assert.deepEqual(WeatherTools.resultMessage("mcp", call, result), { content: [{ type: "text", text: '{"temperature":[3,4]}' }], structuredContent: result });
    assert.deepEqual(WeatherTools.resultMessage("openai-chat", { ok: true, call, index: 0 }, 7n), { role: "tool", tool_call_id: "call_1", content: '"7"' });
  });

  test("a failed call: an error payload with every violation, paths into the arguments", () => {
    const m = WeatherTools.resultMessage("openai-chat", failed);
    assert.equal(m.tool_call_id, "call_BAD");
    const payload = JSON.parse(m.content) as { error: { code: string; tool: string; violations: { path: string; message: string }[]; hint: string } };
    assert.equal(payload.error.code, "INVALID_VALUE");
    assert.equal(payload.error.tool, "get_forecast");
    assert.deepEqual(payload.error.violations.map((v) => v.path), ["/city", "/days"]);
    assert.match(payload.error.violations[1]!.message, /^expected a number at most 10, got the number/);
    assert.match(payload.error.hint, /again/);
    const a = WeatherTools.resultMessage("anthropic", failed);
    assert.deepEqual([a.tool_use_id, a.is_error], ["call_BAD", true]);
    const r = WeatherTools.resultMessage("mcp", failed);
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent, undefined);
    // a tool that threw while running
    const t = WeatherTools.errorMessage("openai-responses", call, new Error("upstream timeout"));
    assert.equal(t.call_id, "call_1");
    assert.deepEqual(JSON.parse(t.output), { error: { code: "TOOL_FAILED", message: "upstream timeout", tool: "get_forecast", hint: "The tool failed while running. Do not repeat the same call unchanged." } });
    assert.equal(catchToon(() => WeatherTools.resultMessage("gemini" as "mcp", call, 1)).code, "CONFIG_ERROR");
  });
});

describe("definitions for every provider", () => {
  test("OpenAI Chat, OpenAI Responses, Anthropic and MCP forms of the same tools", () => {
    const source = JSON.parse(readFileSync(path.join(REPO, "examples", "tools", "tools", "weather-tools.json"), "utf8")) as { function: { name: string; description: string; parameters: unknown } }[];
    const chat = WeatherTools.definitions("openai-chat");
    assert.deepEqual(
      chat.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters })),
      source.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters })),
    );
    const responses = WeatherTools.definitions("openai-responses");
    assert.deepEqual(responses[1], { type: "function", name: "get_forecast", description: "Daily forecast for the next days.", parameters: source[1]!.function.parameters, strict: false });
    const anthropic = WeatherTools.definitions("anthropic");
    assert.deepEqual(anthropic[0], { name: "get_weather", description: source[0]!.function.description, input_schema: source[0]!.function.parameters });
    const mcp = McpToolsList.definitions("mcp");
    const recorded = readExample("recorded/mcp-tools-list.json") as { result: { tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] } };
    assert.deepEqual(mcp.map((t) => t.name), recorded.result.tools.map((t) => t.name));
    assert.deepEqual(mcp.map((t) => t.inputSchema), recorded.result.tools.map((t) => t.inputSchema));
    assert.deepEqual(mcp.map((t) => t.outputSchema), recorded.result.tools.map((t) => t.outputSchema));
    // fresh objects each time
    (chat[0]!.function.parameters as Record<string, unknown>).x = 1;
    assert.equal((WeatherTools.definitions("openai-chat")[0]!.function.parameters as Record<string, unknown>).x, undefined);
  });

  test("strict: every property required, optional ones nullable, no additional properties; nulls read back as absent", () => {
    const [, forecast, air] = WeatherTools.definitions("openai-responses", { strict: true });
    assert.equal(forecast!.strict, true);
    const p = forecast!.parameters as { required: string[]; additionalProperties: boolean; properties: Record<string, { type: unknown; anyOf?: unknown[] }> };
    assert.deepEqual(p.required, ["city", "days", "include"]);
    assert.equal(p.additionalProperties, false);
    assert.deepEqual(p.properties.include!.type, ["array", "null"]);
    assert.deepEqual(p.properties.city!.type, "string");
    const ap = air!.parameters as { required: string[]; properties: { location: { anyOf: unknown[] }; pollutants: { type: unknown } } };
    assert.deepEqual(ap.required, ["location", "pollutants"]);
    assert.equal(ap.properties.location.anyOf.length, 2, "oneOf becomes anyOf");
    assert.deepEqual(ap.properties.pollutants.type, ["array", "null"]);
    // what the strict schema accepts, the tool set reads with the original types
    const ajv = new Ajv({ strict: false });
    const args = { city: "Oslo", days: 2, include: null };
    assert.ok(ajv.validate(p, args), ajv.errorsText());
    assert.ok(!ajv.validate(p, { city: "Oslo", days: 2 }), "strict mode requires every property");
    const call = WeatherTools.parseToolCall({ type: "function_call", call_id: "c", name: "get_forecast", arguments: JSON.stringify(args) });
    assert.deepEqual(call.arguments, { city: "Oslo", days: 2 });
    const acc = WeatherTools.accumulator();
    const out = acc.push({ id: "x", choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "s", function: { name: "get-air-quality", arguments: '{"location":{"kind":"city","name":"Bern"},"pollutants":null}' } }] } }] });
    assert.deepEqual(out, [{ ok: true, index: 0, call: { id: "s", name: "get-air-quality", arguments: { location: { kind: "city", name: "Bern" } } } }]);
    // a required nullable property keeps its null (get_weather's date)
    assert.equal((WeatherTools.parseToolCall({ name: "get_weather", arguments: { city: "A", date: null, unit: "celsius" } }).arguments as { date: unknown }).date, null);
    // the caller's object is not modified
    const given = { city: "Oslo", days: 2, include: null };
    WeatherTools.parseToolCall({ type: "tool_use", id: "t", name: "get_forecast", input: given });
    assert.deepEqual(given, { city: "Oslo", days: 2, include: null });
  });

  test("strict conversion: enums, refs, nested objects; maps and non-OpenAI formats are refused", () => {
    const tool = {
      name: "t",
      inputSchema: {
        type: "object",
        properties: {
          mode: { type: "string", enum: ["a", "b"] },
          at: { $ref: "#/$defs/Point" },
          tags: { type: "array", items: { type: "object", properties: { k: { type: "string" } } } },
          ["__proto__"]: { type: "string" },
        },
        required: ["tags"],
        $defs: { Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
      },
    };
    const [d] = toolDefinitions("openai-chat", [JSON.parse(JSON.stringify(tool))], { strict: true });
    const s = d!.function.parameters as Record<string, any>;
    assert.deepEqual(s.properties.mode, { type: ["string", "null"], enum: ["a", "b", null] });
    assert.deepEqual(s.properties.at, { anyOf: [{ $ref: "#/$defs/Point" }, { type: "null" }] });
    assert.deepEqual(s.properties.tags.items, { type: "object", properties: { k: { type: ["string", "null"] } }, required: ["k"], additionalProperties: false });
    assert.deepEqual(s.$defs.Point, { type: "object", properties: { x: { type: "number" } }, required: ["x"], additionalProperties: false });
    assert.ok(Object.prototype.hasOwnProperty.call(s.properties, "__proto__"));
    assert.deepEqual(s.required, ["mode", "at", "tags", "__proto__"]);
    assert.equal(d!.function.strict, true);
    const map = { name: "m", inputSchema: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } } } };
    const e = catchToon(() => toolDefinitions("openai-chat", [map], { strict: true }));
    assert.equal(e.code, "UNSUPPORTED_SCHEMA");
    assert.equal(e.path, "/properties/labels/additionalProperties");
    assert.equal(catchToon(() => toolDefinitions("anthropic", [map], { strict: true })).code, "CONFIG_ERROR");
  });
});
