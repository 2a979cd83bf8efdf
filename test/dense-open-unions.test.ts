// The dense layout of unions it cannot lay out by their branches (composite branches, no discriminator, not
// `X | null`) and of maps whose values are composites (docs/TEXT.md §3, "Unions laid out as any" and "Maps of
// composites"): written as an `any` position writes its value, read the same way and checked against the union;
// maps as field lines of their keys. Lossless for every value, strict on what fits no branch.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { schemaToIR } from "../generator/load/index.ts";
import { denseOf } from "../runtime/text/dense/index.ts";
import { setOwn } from "../runtime/wire/objects.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { catchToon } from "./support/toon-error.ts";

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Workflow",
  type: "object",
  properties: {
    name: { type: "string" },
    // a CI config's favourite shapes: a string or a list of them, a string or an object, a list of either
    image: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
    build: { oneOf: [{ type: "boolean" }, { type: "object", properties: { project: { type: "string" }, parallel: { type: "boolean" } }, additionalProperties: false }] },
    steps: { type: "array", items: { anyOf: [{ type: "string" }, { type: "object", properties: { run: { type: "string" }, shell: { type: "string" } }, required: ["run"], additionalProperties: false }] } },
    jobs: {
      type: "object",
      additionalProperties: {
        type: "object",
        properties: { name: { type: "string" }, "runs-on": { type: "string" }, needs: { type: "array", items: { type: "string" } }, if: { type: "string" }, timeout: { type: "integer" } },
        required: ["runs-on"],
        additionalProperties: false,
      },
    },
    rows: {
      type: "array",
      items: { type: "object", properties: { id: { type: "integer" }, value: { anyOf: [{ type: "number" }, { type: "string" }, { type: "array", items: { type: "integer" } }] } }, required: ["id"], additionalProperties: false },
    },
    big: { anyOf: [{ type: "integer", format: "int64" }, { type: "array", items: { type: "string" } }] },
  },
  required: ["name"],
  additionalProperties: false,
};

function codec() {
  return denseOf(schemaToIR(SCHEMA, { source: "workflow.schema.json", baseDir: process.cwd() }));
}

const VALUE = {
  name: "ci",
  image: "Visual Studio 2015",
  build: { project: "App.sln", parallel: true },
  steps: ["echo one", { run: "make", shell: "bash" }, "123"],
  jobs: {
    build: { name: "Build the release artifacts", "runs-on": "ubuntu-latest", needs: ["lint", "test"], if: "github.event_name == 'push'" },
    lint: { name: "Lint every package", "runs-on": "ubuntu-latest", if: "github.event_name == 'pull_request'", timeout: 5 },
  },
  rows: [{ id: 1, value: 2.5 }, { id: 2, value: "true" }, { id: 3, value: [1, 2] }, { id: 4 }],
};

test("dense: unions of composites are laid out as anything is (raw scalars, field groups, field lines), read back and checked", () => {
  const d = codec();
  const text = d.lines(VALUE);
  assert.deepStrictEqual(d.fromText(text), VALUE);
  assert.deepStrictEqual(d.fromText(d.toText(VALUE)), VALUE);
  // a string branch's value is raw, as an open object's cell (before: a JSON string)
  assert.match(text, /^image: Visual Studio 2015$/m);
  // an object branch's value is a field group of its keys
  assert.match(text, /^build\{project,parallel\}: App\.sln,true$/m);
  // a map of objects that one header fits is a keyed table (TOON v4's form): the header once, an entry per key
  assert.match(text, /^jobs\[2:\]\{name,runs-on,needs\[\],if,timeout\}:\n {2}build: Build the release artifacts,ubuntu-latest,\[2:lint;test\],github\.event_name == 'push',\n {2}lint: Lint every package,ubuntu-latest,,github\.event_name == 'pull_request',5$/m);
  // and field lines of its keys, each object laid out by the map's value shape, read the same
  const fieldLines = text.replace(/^jobs\[2:\].*\n.*\n.*$/m, "jobs:\n  build{name,runs-on,needs[],if}: Build the release artifacts,ubuntu-latest,[2:lint;test],github.event_name == 'push'\n  lint{name,runs-on,if,timeout}: Lint every package,ubuntu-latest,github.event_name == 'pull_request',5");
  assert.notEqual(fieldLines, text);
  assert.deepStrictEqual(d.fromText(fieldLines), VALUE);
  // in a table row, a union cell is an open object's cell: a string that would read as another kind is quoted,
  // an array is JSON
  // (the table that ends the document: its rows flush left)
  assert.match(text, /^2,"true"$/m);
  assert.match(text, /^3,\[1,2\]$/m);
  // the other branch of each union reads too, and JSON where the layout is laid out still reads
  const other = { name: "x", image: ["a", "b,c"], build: false, jobs: {}, steps: [] };
  assert.deepStrictEqual(d.fromText(d.lines(other)), other);
  assert.deepStrictEqual(d.fromText(d.toText(other)), other);
  assert.deepStrictEqual(d.fromText('name: x\nimage: ["a","b,c"]\nbuild: {"project":"p"}\njobs: {"j":{"runs-on":"r"}}'), { name: "x", image: ["a", "b,c"], build: { project: "p" }, jobs: { j: { "runs-on": "r" } } });
});

test("dense: what a union laid out as anything reads is checked against its branches (INVALID_VALUE at the value's path)", () => {
  const d = codec();
  const bad = (text: string) => catchToon(() => d.fromText(text));
  // an object that fits neither branch of build
  let e = bad("name: x\nbuild{project,speed}: p,3");
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/build/speed");
  assert.equal(e.line, 2);
  // an object where image takes a string or strings
  e = bad('name: x\nimage: {"a":1}');
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/image");
  // a number token where only strings may stand reads as its digits, as the TOON text check reads it (the writer
  // quotes such a string, so its own text never relies on that)
  assert.deepStrictEqual(d.fromText("name: x\nimage: 12"), { name: "x", image: "12" });
  assert.equal(d.lines({ name: "x", image: "12" }), 'name: x\nimage: "12"');
  // a map value missing its required field
  e = bad("name: x\njobs:\n  build{needs[]}: [1:lint]");
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/jobs/build/runs-on");
  // a row's union cell of the wrong kind
  e = bad("name: x\nrows[1]{id,value}:\n  1,{\"a\":1}");
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/rows/0/value");
});

test("dense: a union with an int64 inside stays JSON (an open position reads numbers as doubles)", () => {
  const d = codec();
  const v = { name: "x", big: 9007199254740993n };
  const text = d.lines(v);
  assert.deepStrictEqual(d.fromText(text), v);
  assert.match(text, /^big:9007199254740993$/m);
  const w = { name: "x", big: ["a"] };
  assert.match(d.lines(w), /^big: \["a"\]$/m);
  assert.deepStrictEqual(d.fromText(d.lines(w)), w);
});

test("dense: map keys are spelled as field names (quoted where they must be), __proto__ included, never inherited", () => {
  const d = codec();
  const jobs: Record<string, unknown> = {};
  for (const k of ["__proto__", "constructor", "a b", "-dash", "x:y", "", "line\u2028sep", 'q"uote', "123"]) setOwn(jobs, k, { "runs-on": k || "empty" });
  const v = { name: "keys", jobs };
  const text = d.lines(v);
  const back = d.fromText(text) as { jobs: Record<string, unknown> };
  assert.deepStrictEqual(back, v);
  assert.ok(Object.prototype.hasOwnProperty.call(back.jobs, "__proto__"));
  assert.equal(Object.getPrototypeOf(back.jobs), Object.prototype);
  assert.equal(({} as Record<string, unknown>)["runs-on"], undefined);
});

test("dense: seeded random values of unions laid out as anything and of maps of composites round-trip", () => {
  const ir = schemaToIR(SCHEMA, { source: "workflow.schema.json", baseDir: process.cwd() });
  const d = denseOf(ir);
  let n = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const v = arbitrary(ir, seed);
    for (const text of [d.toText(v), d.lines(v)]) {
      let back: unknown;
      try {
        back = d.fromText(text);
      } catch (e) {
        assert.fail(`seed ${seed}: ${(e as Error).message}\n${text}`);
      }
      assert.ok(isDeepStrictEqual(back, v), `seed ${seed}: read back differs\n${text}`);
      n++;
    }
  }
  assert.equal(n, 800);
});

test("dense: a table whose rows would hold objects in JSON cells is a list when that is fewer tokens (MCP sampling messages)", () => {
  const block = {
    oneOf: [
      { type: "object", properties: { type: { const: "text" }, text: { type: "string" } }, required: ["type", "text"], additionalProperties: false },
      { type: "object", properties: { type: { const: "tool_use" }, id: { type: "string" }, name: { type: "string" }, input: { type: "object" } }, required: ["type", "id", "name", "input"], additionalProperties: false },
    ],
  };
  const schema = {
    type: "object",
    properties: {
      messages: {
        type: "array",
        items: { type: "object", properties: { role: { enum: ["user", "assistant"] }, content: { anyOf: [block, { type: "array", items: block }] } }, required: ["role", "content"], additionalProperties: false },
      },
      plain: { type: "array", items: { type: "object", properties: { role: { enum: ["user", "assistant"] }, n: { type: "integer" } }, required: ["role"], additionalProperties: false } },
    },
    required: ["messages"],
    additionalProperties: false,
  };
  const d = denseOf(schemaToIR(schema, { source: "messages.schema.json", baseDir: process.cwd() }));
  const v = {
    messages: [
      { role: "user", content: { type: "text", text: "What's the weather like in Paris and London?" } },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "call_abc123", name: "get_weather", input: { city: "Paris" } },
          { type: "tool_use", id: "call_def456", name: "get_weather", input: { city: "London" } },
        ],
      },
    ],
    plain: [{ role: "user", n: 1 }, { role: "assistant" }],
  };
  const text = d.lines(v);
  assert.deepStrictEqual(d.fromText(text), v);
  assert.deepStrictEqual(d.fromText(d.toText(v)), v);
  // each message's content laid out in its item (a field group, a table), not JSON in a row
  assert.match(text, /^messages\[2\]:\n {2}- role: user\n {4}content\{type,text\}: text,What's the weather like in Paris and London\?\n {2}- role: assistant\n {4}content\[2\]\{type,id,name,input\{city\}\}:\n {6}tool_use,call_abc123,get_weather,Paris$/m);
  // a table of scalars stays a table
  assert.match(text, /^plain\[2\]\{role,n\}:\nuser,1\nassistant,$/m);
  // the table of JSON cells still reads (what the writer wrote before, or a model writes)
  const table = 'messages[2]{role,content}:\n  user,{"type":"text","text":"hi"}\n  assistant,[{"type":"tool_use","id":"a","name":"f","input":{}}]';
  assert.deepStrictEqual(d.fromText(table), { messages: [{ role: "user", content: { type: "text", text: "hi" } }, { role: "assistant", content: [{ type: "tool_use", id: "a", name: "f", input: {} }] }] });
});

test("dense: where anything may stand (or a union laid out as anything), an inline array of cells reads too", () => {
  const d = codec();
  // steps are string | {run, shell}: a model may write them inline, as it writes an array of strings
  const v = d.fromText('name: x\nsteps[3]: npm ci,"123",{"run":"make"}') as { steps: unknown[] };
  assert.deepStrictEqual(v.steps, ["npm ci", "123", { run: "make" }]);
  // each cell is checked against the union: a number is none of its branches' values, but a bare token where
  // only strings or objects stand reads as its text, as TOON reads it
  assert.deepStrictEqual((d.fromText("name: x\nsteps[2]: 1,true") as { steps: unknown[] }).steps, ["1", "true"]);
  const e = catchToon(() => d.fromText('name: x\nsteps[2]: ok,{"run":"a","bogus":1}'));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/steps/1/bogus");
  // counts are exact, as for any inline array
  const short = catchToon(() => d.fromText("name: x\nsteps[3]: a,b"));
  assert.equal(short.code, "TEXT_SYNTAX");
  assert.equal(short.path, "/steps");
  // an `any` array: cells of null, booleans, numbers and strings, JSON from { or [
  const any = denseOf(schemaToIR({ type: "object", properties: { out: {} } }, { source: "any.schema.json", baseDir: process.cwd() }));
  assert.deepStrictEqual(any.fromText('out[4]: 1,true,hello,[2]'), { out: [1, true, "hello", [2]] });
});
