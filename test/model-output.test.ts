/**
 * Issue 13 (and issue 12's item 6): model output as it really comes. Reasoning blocks and reasoning parts are
 * skipped; an empty TOON cell of an optional field is absent; schema and Zod defaults fill missing fields;
 * truncated output is INCOMPLETE, fenced or not; JSON errors name the slip; `{ repair: true }` fixes the common
 * slips and reports each; the payload search is linear (a work counter, no timers).
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { ToonError } from "../runtime/wire/errors.ts";
import { findPayloads, modelOutputText, stripReasoning, parseJsonExact, type PayloadHints } from "../runtime/text/model-output.ts";
import { parseJsonRepairing, type JsonRepair } from "../runtime/text/json-repair.ts";
import { zodToJsonSchema } from "../generator/inputs/zod.ts";
import { compileSchema, suiteDir } from "./support/gen.ts";
import { OrderList } from "../examples/orders/gen/order-list.ts";
import { readFileSync } from "node:fs";

const ORDERS = JSON.parse(readFileSync(new URL("../examples/orders/data/order-list.json", import.meta.url), "utf8")) as Parameters<typeof OrderList.toText>[0];
import { catchToon as caught } from "./support/toon-error.ts";

type Prompted<T = any> = {
  fromModelOutput(output: unknown, options?: { repair?: boolean; onRepair?: (r: JsonRepair) => void }): T;
  fromText(text: string, options?: { layout?: "toon" | "dense" }): T;
  toText(v: T): string;
  formatInstructions(): string;
};


const CONTACTS = {
  title: "Contacts",
  type: "object",
  properties: {
    people: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1 },
          email: { type: "string", format: "email", pattern: "@" },
          age: { type: "integer" },
          role: { type: "string", enum: ["admin", "user"], default: "user" },
        },
        required: ["name"],
        additionalProperties: false,
      },
    },
    tags: { type: "array", items: { type: "string" }, default: [] },
  },
  required: ["people"],
  additionalProperties: false,
};

let contacts: Prompted;
let zodCodec: Prompted;

before(async () => {
  const dir = suiteDir("model-output");
  contacts = (await compileSchema(CONTACTS, dir, "contacts")).codec as unknown as Prompted;
  const schema = z.object({ query: z.string(), filters: z.array(z.string()).default([]), limit: z.number().int().default(10) });
  const conv = await zodToJsonSchema(schema, "test#Search");
  zodCodec = (await compileSchema({ ...conv.jsonSchema, title: "Search" }, dir, "search")).codec as unknown as Prompted;
});

describe("reasoning is skipped", () => {
  const json = '{"people":[{"name":"Ada"}]}';
  test("<think>, <thinking> and <reasoning> blocks; a lone closing tag; line numbers hold", () => {
    assert.deepEqual(contacts.fromModelOutput(`<think>\nmaybe {"people":[{"name":"Wrong"}]}\n</think>\n${json}`), { people: [{ name: "Ada", role: "user" }], tags: [] });
    assert.deepEqual(contacts.fromModelOutput(`<thinking>x: {"people": []}</thinking>\n\`\`\`json\n${json}\n\`\`\``).people[0].name, "Ada");
    assert.deepEqual(contacts.fromModelOutput(`<Reasoning effort="high">\n\`\`\`json\n{"people":[]}\n\`\`\`\n</Reasoning>\n${json}`).people[0].name, "Ada");
    assert.deepEqual(contacts.fromModelOutput(`so {"people":[{"name":"Wrong"}]} then\n</think>\n${json}`).people[0].name, "Ada");
    const s = stripReasoning("a\n<think>b\nc</think>d");
    assert.equal(s.text, "a\n" + " ".repeat(8) + "\n" + " ".repeat(9) + "d");
    const e = caught(() => contacts.fromModelOutput(`<think>\n\n</think>\n\`\`\`json\n{"people":[{"name":"A","age":"x"}]}\n\`\`\``));
    assert.equal(e.line, 5, "lines count in the output as written");
  });

  test("an unclosed reasoning block with nothing after it is INCOMPLETE", () => {
    assert.equal(caught(() => contacts.fromModelOutput('<think>\nthe answer is {"people":[{"name":"A"}]}')).code, "INCOMPLETE");
    assert.equal(caught(() => contacts.fromModelOutput("no payload here")).code, "NO_PAYLOAD");
  });

  test("content parts, messages and completions: text parts read, reasoning parts skipped", () => {
    const anthropic = { role: "assistant", content: [{ type: "thinking", thinking: '{"people":[]}', signature: "x" }, { type: "text", text: json }] };
    assert.equal(contacts.fromModelOutput(anthropic).people[0].name, "Ada");
    assert.equal(contacts.fromModelOutput(anthropic.content).people[0].name, "Ada");
    const chat = { choices: [{ index: 0, message: { role: "assistant", content: json, reasoning_content: '{"people":[]}' } }] };
    assert.equal(contacts.fromModelOutput(chat).people[0].name, "Ada");
    const responses = { output: [{ type: "reasoning", summary: [{ type: "summary_text", text: '{"people":[]}' }] }, { type: "message", content: [{ type: "output_text", text: json }] }] };
    assert.equal(contacts.fromModelOutput(responses).people[0].name, "Ada");
    assert.equal(modelOutputText([{ type: "text", text: "a" }, { type: "redacted_thinking", data: "zz" }, { type: "text", text: "b" }]), "a\nb");
  });
});

describe("fields as models write them", () => {
  test("an empty table cell of an optional field is absent, never the empty string", () => {
    const toon = "people[2]{name,email,age,role}:\n  Ada,,36,admin\n  Bob,bob@example.com,,";
    assert.deepEqual(contacts.fromModelOutput("```toon\n" + toon + "\n```"), {
      people: [
        { name: "Ada", age: 36, role: "admin" },
        { name: "Bob", email: "bob@example.com", role: "user" },
      ],
      tags: [],
    });
    // a required field's empty cell stays "" (validate() would then report minLength 1)
    assert.equal(contacts.fromModelOutput("```toon\npeople[1]{name,email}:\n  ,a@b\n```").people[0].name, "");
    // fromText with { layout: "toon" } is the strict TOON reading: "" stays ""; detected, this text is also the
    // dense layout's (docs/TEXT.md), where an empty cell is an absent field
    assert.equal(contacts.fromText("people[1]{name,email}:\n  Ada,", { layout: "toon" }).people[0].email, "");
    assert.equal("email" in contacts.fromText("people[1]{name,email}:\n  Ada,").people[0], false);
  });

  test("schema and Zod defaults fill missing fields", () => {
    assert.deepEqual(zodCodec.fromModelOutput('{"query":"cats"}'), { query: "cats", filters: [], limit: 10 });
    assert.deepEqual(zodCodec.fromModelOutput("```toon\nquery: cats\nlimit: 3\n```"), { query: "cats", filters: [], limit: 3 });
    // a fresh copy of the default each time
    const a = zodCodec.fromModelOutput('{"query":"a"}');
    a.filters.push("x");
    assert.deepEqual(zodCodec.fromModelOutput('{"query":"b"}').filters, []);
    assert.match(zodCodec.formatInstructions(), /default applies: filters \(\[\]\), limit \(10\)/);
    assert.match(contacts.formatInstructions(), /leave its cell empty/);
    // the example the instructions show is what fromModelOutput reads
    assert.equal(contacts.fromModelOutput(contacts.formatInstructions()).people.length, 1);
    assert.equal(zodCodec.fromModelOutput(zodCodec.formatInstructions()).query !== undefined, true);
  });
});

describe("truncation and slips", () => {
  const full = JSON.stringify({ people: [{ name: "Ada", age: 36 }, { name: "Bob" }] });
  test("truncated JSON is INCOMPLETE, fenced or not; unfenced TOON cut at the end too", () => {
    for (let n = 1; n < full.length - 1; n++) {
      const cut = full.slice(0, n);
      assert.equal(caught(() => contacts.fromModelOutput(cut)).code, "INCOMPLETE", `bare, cut at ${n}: ${cut}`);
      assert.equal(caught(() => contacts.fromModelOutput("Here:\n```json\n" + cut + "\n```")).code, "INCOMPLETE", `fenced, cut at ${n}`);
      assert.equal(caught(() => contacts.fromModelOutput("Here: " + cut)).code, "INCOMPLETE", `in prose, cut at ${n}`);
    }
    assert.equal(caught(() => OrderList.fromModelOutput("```json\n" + JSON.stringify({ orders: [] }).slice(0, 8) + "\n```")).code, "INCOMPLETE");
    const toon = "people[3]{name,age}:\n  Ada,36\n  Bob,40";
    assert.equal(caught(() => contacts.fromModelOutput(toon)).code, "INCOMPLETE");
    assert.equal(caught(() => contacts.fromModelOutput("Sure:\n" + toon)).code, "INCOMPLETE");
    // inside a closed fence the count is the model's slip, not a cut
    assert.equal(caught(() => contacts.fromModelOutput("```toon\n" + toon + "\n```")).code, "TEXT_SYNTAX");
  });

  test("messages name the slip", () => {
    const msg = (text: string): string => caught(() => parseJsonExact(text)).message;
    assert.match(msg('{"a":[1,2,]}'), /trailing comma before \]/);
    assert.match(msg('{"a":1,}'), /trailing comma before \}/);
    assert.match(msg("{'a':1}"), /single-quoted string/);
    assert.match(msg('{"a":\'x\'}'), /single-quoted string/);
    assert.match(msg('{a:1}'), /unquoted property name "a"/);
    assert.match(msg('{"a":True}'), /Python's True .*JSON writes true/);
    assert.match(msg('{"a":None}'), /Python's None .*null/);
    assert.match(msg('{"a":1 // one\n}'), /comment/);
    assert.match(msg('{"a":"x\ny"}'), /raw line break inside a string/);
    assert.match(msg('{"a":NaN}'), /NaN is not a JSON value/);
    assert.equal(caught(() => parseJsonExact('{"a":tr')).code, "INCOMPLETE");
    assert.equal(caught(() => parseJsonExact('{"a":1} x')).code, "TEXT_SYNTAX");
  });

  test("{ repair: true } fixes the common slips and reports each one", () => {
    const reply = [
      "```json",
      "{",
      "  // the contacts",
      "  'people': [",
      "    {'name': 'Ada', 'email': \"ada@example.com\", 'age': 36, },",
      '    {"name": "Bo\nb", "role": "admin"},',
      "  ],",
      "  \"tags\": [True, None] /* odd */",
      "```",
    ].join("\n");
    const strict = caught(() => contacts.fromModelOutput(reply));
    assert.equal(strict.code, "TEXT_SYNTAX", "strict by default");
    assert.match(strict.message, /comment/);
    const repairs: JsonRepair[] = [];
    const e = caught(() => contacts.fromModelOutput(reply, { repair: true, onRepair: (r) => repairs.push(r) }));
    assert.equal(e.path, "/tags/1", "repaired, then checked against the schema (tags are strings: true reads as \"true\", null fails)");
    assert.equal(repairs.length, 0, "repairs are reported only for a value that is returned");
    const ok = reply.replace("[True, None]", "['x']");
    const v = contacts.fromModelOutput(ok, { repair: true, onRepair: (r) => repairs.push(r) });
    assert.deepEqual(v, { people: [{ name: "Ada", email: "ada@example.com", age: 36, role: "user" }, { name: "Bo\nb", role: "admin" }], tags: ["x"] });
    assert.deepEqual(
      repairs.map((r) => r.kind),
      ["comment", "single-quotes", "single-quotes", "single-quotes", "single-quotes", "single-quotes", "trailing-comma", "raw-control", "trailing-comma", "single-quotes", "comment", "missing-brace"],
    );
    assert.equal(repairs[0]!.line, 3, "lines count in the output");
    assert.match(repairs.find((r) => r.kind === "trailing-comma")!.message, /before \}/);
    // True/None become JSON literals
    assert.deepEqual(parseJsonRepairing("[True, False, None]").value, [true, false, null]);
    // truncation is never repaired into a value
    for (const cut of ['{"people": [{"name": "Ada"', '{"people": [{"name": "Ad', '{"people": ']) {
      assert.equal(caught(() => contacts.fromModelOutput(cut, { repair: true })).code, "INCOMPLETE", cut);
    }
    // strict by default
    assert.equal(caught(() => contacts.fromModelOutput('{"people":[],}')).code, "TEXT_SYNTAX");
  });
});

describe("{ repair: true } through a generated codec, and miscounted [N]", () => {
  const data = { orders: (OrderList.fromText(OrderList.toText(ORDERS)) as typeof ORDERS).orders.slice(0, 3) };
  const fenced = (t: string): string => "Here you go:\n```toon\n" + t + "\n```\nAnything else?";

  test("the options reach the reading through the full codec (its schema check kept them back before)", () => {
    const json = JSON.stringify(data).replace(/}]}$/, "},]}");
    const repairs: JsonRepair[] = [];
    assert.deepEqual(OrderList.fromModelOutput("```json\n" + json + "\n```", { repair: true, onRepair: (r) => repairs.push(r) }), data);
    assert.deepEqual(repairs.map((r) => r.kind), ["trailing-comma"]);
    assert.equal(caught(() => OrderList.fromModelOutput("```json\n" + json + "\n```")).code, "TEXT_SYNTAX");
  });

  test("a table's or list's miscounted [N] in a closed fence is read as what is under it, and reported", () => {
    const dense = OrderList.toText(data, { layout: "dense" });
    const toon = OrderList.toText(data);
    const cases: [string, string, RegExp][] = [
      ["dense table, one short", dense.replace("orders[3]", "orders[4]"), /the table declares 4 rows and has 3: read as \[3\]/],
      ["dense table, one over", dense.replace("orders[3]", "orders[2]"), /the table declares 2 rows and has 3/],
      ["TOON list", toon.replace("orders[3]", "orders[5]"), /the list declares 5 items and has 3/],
      ["TOON nested table", toon.replace(/items\[1\]/, "items[2]"), /the table declares 2 rows and has 1/],
      ["dense, blank lines and a count of 9", dense.replace("orders[3]", "orders[9]").replace(/\n/g, "\n\n"), /declares 9 rows and has 3/],
    ];
    for (const [how, text, message] of cases) {
      assert.notEqual(text, how.startsWith("dense") ? dense : toon, how);
      assert.equal(caught(() => OrderList.fromModelOutput(fenced(text))).code, "TEXT_SYNTAX", `${how}: strict by default`);
      const repairs: JsonRepair[] = [];
      assert.deepEqual(OrderList.fromModelOutput(fenced(text), { repair: true, onRepair: (r) => repairs.push(r) }), data, how);
      assert.equal(repairs.length, 1, how);
      assert.equal(repairs[0]!.kind, "count", how);
      assert.match(repairs[0]!.message, message, how);
      // the header's line in the reply (the fence opens on line 2) and the column of its count
      const headerLine = text.split("\n").findIndex((l) => /\[\d+\][{:]/.test(l) && l.includes(repairs[0]!.message.match(/declares (\d+)/)![1]! + "]"));
      assert.equal(repairs[0]!.line, headerLine + 3, how);
      assert.equal(text.split("\n")[headerLine]![repairs[0]!.column - 1], "[", how);
    }
    // two miscounted headers: both repaired
    const two = toon.replace("orders[3]", "orders[4]").replace(/items\[1\]/, "items[3]");
    const repairs: JsonRepair[] = [];
    assert.deepEqual(OrderList.fromModelOutput(fenced(two), { repair: true, onRepair: (r) => repairs.push(r) }), data);
    assert.equal(repairs.length, 2);
  });

  test("a count that may be a cut, an inline array's count, or a text the repair does not fix stay errors", () => {
    const dense = OrderList.toText(data, { layout: "dense" });
    const short = dense.replace("orders[3]", "orders[4]");
    // unfenced at the end of the reply, or in a fence never closed: fewer rows is a cut
    assert.equal(caught(() => OrderList.fromModelOutput("Result:\n" + short, { repair: true })).code, "INCOMPLETE");
    assert.equal(caught(() => OrderList.fromModelOutput("```toon\n" + short, { repair: true })).code, "INCOMPLETE");
    // an inline array's count: not line-based, left to the strict reader
    const inline = dense.replace(/\[1:/, "[2:");
    assert.notEqual(inline, dense);
    const e = caught(() => OrderList.fromModelOutput(fenced(inline), { repair: true }));
    assert.equal(e.code, "TEXT_SYNTAX");
    assert.match(e.message, /inline array declares 2 items, found 1/);
    // a miscount and another error: the first error, not one about the repaired text
    const both = short.replace(",CNY,", ",XYZ,");
    const repairs: JsonRepair[] = [];
    const f = caught(() => OrderList.fromModelOutput(fenced(both), { repair: true, onRepair: (r) => repairs.push(r) }));
    assert.equal(f.code, "INVALID_VALUE");
    assert.equal(repairs.length, 0, "repairs are reported only for a value that is returned");
  });
});

describe("the payload search is linear", () => {
  const hints: PayloadHints = { root: "object", keys: ["people"] };
  const inputs: Record<string, string> = {
    "nested braces that close late": "x " + "{ ".repeat(60000) + "}".repeat(60000),
    "braces that never close": "{".repeat(120000),
    "prose braces": "see {a} ".repeat(15000),
    "quoted braces": 'x {"' + "{".repeat(120000),
    "many closed fences": "```\nabc\n```\n".repeat(10000),
    "a fence never closed after many lines": "```toon\n" + "a\n".repeat(60000),
    "JSON-looking starts": '{"a" '.repeat(24000),
  };
  for (const [what, text] of Object.entries(inputs)) {
    test(what, () => {
      const stats = { scanned: 0 };
      const found = findPayloads(text, hints, stats);
      assert.ok(stats.scanned <= 4 * text.length + 16, `${stats.scanned} characters scanned for ${text.length}`);
      assert.ok(found.length <= 32);
    });
  }
  test("reasoning blocks: many of them, and tags that never close, in one pass", () => {
    for (const text of ["<think>a</think>".repeat(20000) + '{"people":[]}', "<think".repeat(20000), "<think>" + "</thinking>".repeat(20000)]) {
      const stats = { scanned: 0 };
      const r = stripReasoning(text, stats);
      assert.equal(r.text.length, text.length);
      assert.ok(stats.scanned <= 4 * text.length, `${stats.scanned} for ${text.length}`);
    }
    assert.deepEqual(contacts.fromModelOutput("<think>a</think>".repeat(20000) + '{"people":[]}'), { people: [], tags: [] });
  });

  test("a reply of many fences is rejected after a bounded number of decode attempts", () => {
    const e = caught(() => contacts.fromModelOutput("```\nnope: 1\n```\n".repeat(5000)));
    assert.equal(e.code, "INVALID_VALUE");
  });
});
