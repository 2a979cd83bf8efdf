// Every public function of the examples' generated modules, given an argument of the wrong kind (null,
// undefined, a number, a string, an array, a plain object) in each of its first two places, with valid arguments
// elsewhere: it throws a ToonError or does what it documents, never a bare TypeError or RangeError. The functions
// are enumerated from the modules' exports (every group object and tool-set member), so a function added later is
// covered without anyone listing it. Async results (readStream's iterator, promises) are awaited too.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../runtime/wire/errors.ts";
import { REPO } from "./support/gen.ts";
import { functionsOf, generatedModules, isClass, outcome, runtimeEntries } from "./support/public-functions.ts";
import { catchToon } from "./support/toon-error.ts";

const WRONG: readonly unknown[] = [null, undefined, 42, "x", [], {}];

/** A valid first argument for `name` where one is needed (the examples' data for the orders module). */
const orders = JSON.parse(readFileSync(path.join(REPO, "examples", "orders", "data", "order-list.json"), "utf8")) as unknown;

/**
 * `call(args)` with each wrong argument first, then second after `first`: a line for each call that threw
 * something other than a ToonError (`label` names the function); `count` tallies the calls.
 */
async function wrongArguments(label: string, first: unknown, call: (args: unknown[]) => unknown, count: { calls: number }): Promise<string[]> {
  const found: string[] = [];
  for (let at = 0; at < 2; at++) {
    for (const wrong of WRONG) {
      count.calls++;
      const e = await outcome(() => call(at === 0 ? [wrong] : [first, wrong]));
      if (e !== null) found.push(`${label}(${at === 0 ? "" : "…, "}${wrong === undefined ? "undefined" : JSON.stringify(wrong)}): ${(e as Error)?.name}: ${String((e as Error)?.message).slice(0, 100)}`);
    }
  }
  return found;
}

test("public functions of the generated modules: an argument of the wrong kind is a ToonError, never a TypeError", async () => {
  const found: string[] = [];
  const count = { calls: 0 };
  for (const file of generatedModules()) {
    const mod = (await import(file)) as Record<string, unknown>;
    const rel = path.relative(REPO, file);
    for (const [exportName, group, fn, f] of functionsOf(mod)) {
      // valid arguments elsewhere: the examples' orders as a value, "x" as a text
      const first = rel.includes("order-list") && /^(encode|toText|validate|frames|toJson)/.test(fn) ? orders : "x";
      found.push(...(await wrongArguments(`${rel} ${exportName}.${fn}`, first, (args) => (f as (...a: unknown[]) => unknown).apply(group, args), count)));
    }
  }
  assert.ok(count.calls > 500, `${count.calls} calls: the modules were enumerated`);
  assert.deepEqual(found, [], `${found.length} of ${count.calls} calls threw something other than a ToonError`);
});

test("the runtime's main entry: every exported function and class, given an argument of the wrong kind, answers with a ToonError", async () => {
  const entry = (await import("../runtime/index.ts")) as Record<string, unknown>;
  const found: string[] = [];
  const count = { calls: 0 };
  for (const [name, f] of Object.entries(entry)) {
    if (typeof f !== "function") continue;
    const cls = isClass(f);
    const call = (args: unknown[]): unknown => (cls ? new (f as new (...a: unknown[]) => unknown)(...args) : (f as (...a: unknown[]) => unknown)(...args));
    found.push(...(await wrongArguments(name, "x", call, count)));
  }
  assert.ok(count.calls > 200, `${count.calls} calls: the entry was enumerated`);
  assert.deepEqual(found, [], `${found.length} of ${count.calls} calls threw something other than a ToonError`);
});

test("the argument errors: their codes, the call they name, the root path", async () => {
  const rt = await import("../runtime/index.ts");
  const { OrderList, OrderListText } = await import("../examples/orders/gen/order-list.ts");
  const { WeatherTools } = await import("../examples/tools/gen/weather-tools.ts");
  const codegen = await import("../runtime/codegen-entry.ts");
  const text = await import("../runtime/text/index.ts");
  const schemaless = await import("../runtime/schemaless-entry.ts");
  const tools = await import("../runtime/tools-entry.ts");
  const compression = await import("../runtime/compression.ts");
  const codec = await import("../runtime/codec/index.ts");
  const cases: [() => unknown, string, RegExp][] = [
    // options that are not an object (one check, optionsArg, wherever options are taken)
    [() => OrderList.encode(orders as never, null as never), "CONFIG_ERROR", /^encode options must be an object, got null/],
    [() => OrderList.toText(orders as never, [] as never), "CONFIG_ERROR", /^toText options must be an object, got an array/],
    [() => OrderList.fromText("x", "toon" as never), "CONFIG_ERROR", /^fromText options must be an object, got string/],
    [() => OrderListText.fromText("x", null as never), "CONFIG_ERROR", /^text options must be an object/],
    [() => OrderList.stream.encoder(null as never), "CONFIG_ERROR", /^stream\.encoder options/],
    [() => OrderList.stream.encode(orders as never, "x" as never), "CONFIG_ERROR", /^stream\.encode options/],
    [() => rt.encodeSchemaless(1, null as never), "CONFIG_ERROR", /^encode options/],
    [() => WeatherTools.definitions("openai-chat", null as never), "CONFIG_ERROR", /^definitions options/],
    [() => new rt.SseFrameReader(null as never), "CONFIG_ERROR", /^SseFrameReader options/],
    // what is not a stream spec, a compressor, bytes, a string
    [() => new rt.StreamEncoder([] as never), "CONFIG_ERROR", /StreamSpec .*got an array/],
    [() => rt.setCompressor(null as never), "CONFIG_ERROR", /^setCompressor expects a compressor object/],
    [() => OrderList.stream.decode(null as never), "INVALID_VALUE", /^stream\.decode expects bytes/],
    [() => rt.concatBytes(null as never), "INVALID_VALUE", /^concatBytes expects/],
    [() => rt.toBase64("x" as never), "INVALID_VALUE", /^toBase64 expects a Uint8Array, got string/],
    [() => rt.fromBase64(null as never), "INVALID_VALUE", /^fromBase64 expects a string, got null/],
    [() => rt.sseEvent(null as never), "INVALID_VALUE", /^sseEvent expects a frame/],
    [() => rt.sseComment(42 as never), "INVALID_VALUE", /^sseComment expects a string, got number/],
    // the main entry's checked copies
    [() => rt.pointerSegment(null as never), "INVALID_VALUE", /^pointerSegment expects/],
    [() => rt.peekHeader({} as never), "INVALID_VALUE", /^peekHeader expects a Reader/],
    [() => rt.hex16("1" as never), "INVALID_VALUE", /^hex16 expects a number, got string/],
    [() => rt.locateText("a: 1", undefined as never), "INVALID_VALUE", /^locateText expects a JSON pointer/],
    [() => rt.offsetToLineColumn(null as never, 0), "INVALID_VALUE", /^offsetToLineColumn expects a string, got null/],
    // tool sets
    [() => WeatherTools.encode(null as never), "INVALID_VALUE", /^a tool call is an object/],
    [() => WeatherTools.batch.encode(null as never), "INVALID_VALUE", /^a batch of tool calls is an array, got null/],
    [() => WeatherTools.resultMessage("openai-chat", 42 as never, "ok"), "INVALID_VALUE", /^the target of a tool result/],
    [() => WeatherTools.errorMessage("anthropic", null as never, "boom"), "INVALID_VALUE", /^the target of a tool result/],
    // the subpath entries' checked copies (runtime/wire/arg-check.ts): the function and the parameter
    [() => codegen.wString(null as never, "a", ""), "INVALID_VALUE", /^wString expects w to be a Writer \(new Writer\(\)\), got null/],
    [() => codegen.readTabledString(new codegen.Reader(new Uint8Array(1)), [] as never), "INVALID_VALUE", /^readTabledString expects t to be a default table .*got an array/],
    [() => codegen.hasOwn(null as never, "a"), "INVALID_VALUE", /^hasOwn expects o to be an object, got null/],
    [() => text.fromTextWith("a: 1", null as never, (v: unknown) => v), "CONFIG_ERROR", /^fromTextWith options must be an object, got null/],
    [() => text.textStr("a", "44" as never), "INVALID_VALUE", /^textStr expects dc to be a number, got string/],
    [() => text.textBail(), "INVALID_VALUE", /^textBail: the generated text encoder declined/],
    [() => schemaless.readSchemalessValue(new codegen.Reader(new Uint8Array(1)), {} as never, {} as never, 0), "INVALID_VALUE", /^readSchemalessValue expects t to be a schemaless type, got object/],
    [() => tools.checkToolCall("x" as never, "id", "name", {}), "INVALID_VALUE", /^checkToolCall expects spec to be a tool set spec/],
    [() => compression.payloadStart("x" as never), "INVALID_VALUE", /^payloadStart expects bytes \(a Uint8Array\), got string/],
    [() => new codec.CodecPlan([] as never), "INVALID_VALUE", /^CodecPlan expects a codec descriptor, got an array/],
    [() => codec.minWidth({ kind: "string" } as never, 42 as never), "INVALID_VALUE", /^minWidth expects cx to be a definition lookup/],
  ];
  for (const [call, code, reason] of cases) {
    const e = catchToon(call);
    assert.equal(e.code, code, e.message);
    assert.match(e.reason, reason);
    assert.equal(e.path, "", e.message);
  }
  // not an error: a value that is not a date is not one; a tool name that is not a string is a finding at /name
  assert.equal(rt.parseDate(null as never), undefined);
  assert.equal(rt.parseDateTime(42 as never), undefined);
  assert.deepEqual(WeatherTools.checkArguments(null as never, {}), [{ path: "/name", message: "the tool name must be a string, got null" }]);
  // a predicate over strings answers false for what is not one
  const wire = await import("../runtime/core.ts");
  assert.equal(wire.isCanonicalInteger(42 as never), false);
  assert.equal(text.isNumericLike(null as never), false);
  // the checked copies call the originals: the same results
  const w = new codegen.Writer();
  codegen.wString(w, "hello", "");
  const bytes = w.finish();
  assert.equal(codegen.rStrings === (await import("../runtime/codegen.ts")).rStrings, false, "a checked copy");
  assert.equal(new codegen.Reader(bytes).string(), "hello");
});

test("the runtime's subpath entries: every exported function and class, given an argument of the wrong kind, answers with a ToonError", async () => {
  const found: string[] = [];
  const count = { calls: 0 };
  const seen = new Set<unknown>();
  const entries = await runtimeEntries();
  assert.ok(entries.length >= 10, `${entries.length} entries`);
  for (const [entry, mod] of entries) {
    for (const [name, f] of Object.entries(mod)) {
      // a function several entries export (ToonError, Reader, the text helpers codegen re-exports) is called once
      if (typeof f !== "function" || seen.has(f)) continue;
      seen.add(f);
      const cls = isClass(f);
      const call = (args: unknown[]): unknown => {
        try {
          return cls ? new (f as new (...a: unknown[]) => unknown)(...args) : (f as (...a: unknown[]) => unknown)(...args);
        } catch (e) {
          // throwing back the very value it was handed is what rethrowAt and its kin do (their first argument)
          if (args.length > 0 && Object.is(e, args[0])) return undefined;
          throw e;
        }
      };
      found.push(...(await wrongArguments(`${entry} ${name}`, "x", call, count)));
    }
  }
  assert.ok(count.calls > 2000, `${count.calls} calls: the entries were enumerated`);
  assert.deepEqual(found, [], `${found.length} of ${count.calls} calls threw something other than a ToonError`);
});

test("found by the argument fuzz target: wrong arguments deep in a call are refused, not garbage", async () => {
  const rt = await import("../runtime/index.ts");
  const text = await import("../runtime/text/index.ts");
  const wire = await import("../runtime/core.ts");
  const validate = await import("../runtime/validate/index.ts");
  const { equal } = validate;
  const compression = await import("../runtime/compression.ts");
  const tools = await import("../runtime/tools-entry.ts");
  const codegenEntry = await import("../runtime/codegen-entry.ts");
  const { OrderList } = await import("../examples/orders/gen/order-list.ts");
  // a date of a day count that is no integer is none (it was "00undefined-undefined-undefined")
  assert.equal(rt.formatDate(NaN), undefined);
  assert.equal(wire.formatDateTime({} as never, true), undefined);
  assert.equal(rt.formatDate(0), "1970-01-01");
  // JSON data with a "valueOf" or "toString" key compares as data (validate's const and enum)
  assert.equal(equal({ valueOf: 1 }, { valueOf: 1 }), true);
  assert.equal(equal({ toString: "x" }, { toString: "y" }), false);
  assert.equal(equal(new Date(5), new Date(5)), true);
  const cases: [() => unknown, string, RegExp][] = [
    [() => new wire.Writer(2 ** 40), "INVALID_VALUE", /^Writer expects size to be a byte count up to 2\^30, got number/],
    [() => rt.concatBytes([new Uint8Array(1), null as never]), "INVALID_VALUE", /^concatBytes expects an array of Uint8Array, got an item that is null/],
    [() => rt.sseEvent([{} as never]), "INVALID_VALUE", /^sseEvent expects frames/],
    [() => text.encodeListItemLines("x", 1e9), "INVALID_VALUE", /^encodeListItemLines expects depth to be a depth/],
    [() => text.tcBoolean(undefined, null as never), "INVALID_VALUE", /^tcBoolean expects path to be a string/],
    [() => OrderList.stream.frames({ orders: [] } as never, new Uint8Array(1) as never), "CONFIG_ERROR", /"at" must be a JSON pointer/],
    [() => text.fieldList([1] as never), "INVALID_VALUE", /^fieldList expects fields to be text fields/],
    [() => compression.payloadStart(new Uint8Array(8), {} as never), "INVALID_VALUE", /^payloadStart expects start to be an offset/],
    [() => compression.inflateAt(new Uint8Array(8), 0, {} as never), "INVALID_VALUE", /^inflateAt expects offsets and a limit/],
    [() => new tools.ToolCallAccumulator("x" as never), "INVALID_VALUE", /^ToolCallAccumulator expects spec to be a tool set spec/],
    [() => tools.toolSet("T", [["a", {}]] as never, {} as never), "INVALID_VALUE", /^toolSet expects tools to be the tools/],
    [() => tools.parseToolCall({} as never, {}), "INVALID_VALUE", /^parseToolCall expects spec to be a tool set spec/],
    [() => validate.checkSchema(null as never, 1), "INVALID_VALUE", /^checkSchema expects a validator function/],
    [() => validate.checkSchema((() => true) as never, 1, "x" as never), "CONFIG_ERROR", /^checkSchema options must be an object/],
    [() => validate.messageOf({ keyword: "type" } as never, 1), "INVALID_VALUE", /^messageOf expects a schema error/],
    [() => validate.ucs2length(5 as never), "INVALID_VALUE", /^ucs2length expects a string, got number/],
    [() => codegenEntry.gArray([], null as never), "INVALID_VALUE", /^gArray expects p to be a string/],
    [() => codegenEntry.setOwn(Object.freeze({}), "a", 1), "INVALID_VALUE", /^setOwn expects o to be an object that takes new properties/],
    [() => codegenEntry.isJsonLike({}, {} as never), "INVALID_VALUE", /^isJsonLike expects depth to be a depth/],
    [() => text.indentation(2 ** 40), "INVALID_VALUE", /^indentation expects depth to be a depth/],
  ];
  for (const [call, code, reason] of cases) {
    const e = catchToon(call);
    assert.equal(e.code, code, e.message);
    assert.match(e.reason, reason);
    assert.equal(e.path, "", e.message);
  }
  // the error class itself, given what it does not expect
  assert.equal(new rt.ToonError("INVALID_VALUE", { toString: null } as never, null as never).message, "INVALID_VALUE: object");
});
