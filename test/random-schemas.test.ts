// Property tests over seeded random schemas (test/support/random-schema.ts): shapes nobody wrote by hand, with
// awkward property names, optional fields, open and typed additional properties, maps, tuples, mixed enums,
// consts, nullable types, scalar and discriminated unions, date formats, int64 and recursion. Random values of
// each (test/support/arbitrary.ts) round-trip through the engine's binary codec and the dense layout; for a
// subset the generated module writes the engine's bytes, and its TOON text, dense text and fromModelOutput read
// back what was written. Then the regressions these tests found, one by one.

import { test } from "node:test";
import assert from "node:assert/strict";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { parentOfProperty } from "../generator/dictionary/paths.ts";
import { interpret } from "../generator/interpret/index.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { denseOf } from "../runtime/text/dense/index.ts";
import { spacedOut, withBlankLines } from "./support/model-replies.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { compileSchema, suiteDir } from "./support/gen.ts";
import { randomSchema } from "./support/random-schema.ts";
import { randomZod } from "./support/random-zod.ts";
import { zodToJsonSchema } from "../generator/inputs/zod.ts";
import { sameDecoded as same } from "./support/same-value.ts";
import { catchToon } from "./support/toon-error.ts";

const ENGINE_SCHEMAS = 300;
const MODULE_SCHEMAS = 60;
const VALUES = 30;

function show(v: unknown): string {
  const s = JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x));
  return s === undefined ? String(v) : s.length > 500 ? s.slice(0, 497) + "..." : s;
}

function check(label: string, back: unknown, value: unknown, text: string, toon = false, loose = toon): void {
  if (!same(back, value, toon, loose)) assert.fail(`${label}: does not round-trip\nvalue: ${show(value)}\nback:  ${show(back)}\ntext:\n${text.slice(0, 1200)}`);
}

test("random schemas: random values round-trip through the engine's binary codec and the dense layout", async () => {
  await initHash();
  let values = 0;
  for (let seed = 1; seed <= ENGINE_SCHEMAS; seed++) {
    const schema = randomSchema(seed);
    const ir = schemaToIR(schema, { source: `random-${seed}.schema.json`, baseDir: process.cwd() });
    const engine = interpret(ir, buildDictionary(ir));
    const dense = denseOf(ir);
    for (let k = 0; k < VALUES; k++) {
      const value = arbitrary(ir, seed * 1000 + k);
      const label = `schema ${seed} value ${k} (${JSON.stringify(schema).slice(0, 300)})`;
      check(`${label} binary`, engine.decode(engine.encode(value)), value, "", false, true);
      const text = dense.toText(value);
      assert.notEqual(text, "", `${label}: empty dense text`);
      check(`${label} dense`, dense.fromText(text), value, text);
      const lines = dense.lines(value);
      check(`${label} dense lines`, dense.fromText(lines), value, lines);
      // as a model may write it: spaces around cells and header names, blank lines between lines
      const spaced = spacedOut(text);
      if (spaced !== text) check(`${label} dense, spaced out`, dense.fromText(spaced), value, spaced);
      const blanked = withBlankLines(text);
      if (blanked !== text) check(`${label} dense, with blank lines`, dense.fromText(blanked), value, blanked);
      values++;
    }
  }
  assert.equal(values, ENGINE_SCHEMAS * VALUES);
});

test("random schemas: generated modules write the engine's bytes; TOON text, dense text and fromModelOutput read back", async () => {
  const dir = suiteDir("random-schemas");
  for (let seed = 1; seed <= MODULE_SCHEMAS; seed++) {
    const { codec, ir, dictionary } = await compileSchema(randomSchema(seed), dir, `random${seed}`);
    const c = codec as typeof codec & {
      toText(v: unknown, o?: { layout?: string }): string;
      fromText(t: string, o?: { layout?: string }): unknown;
      fromModelOutput(t: string): unknown;
    };
    const engine = interpret(ir, dictionary);
    for (let k = 0; k < VALUES; k++) {
      const value = arbitrary(ir, seed * 1000 + k);
      const label = `schema ${seed} value ${k}`;
      assert.equal(Buffer.from(c.encode(value)).toString("hex"), Buffer.from(engine.encode(value)).toString("hex"), `${label}: bytes differ from the engine's`);
      const toon = c.toText(value);
      check(`${label} TOON text`, c.fromText(toon, { layout: "toon" }), value, toon, true);
      const dense = c.toText(value, { layout: "dense" });
      check(`${label} dense (detected)`, c.fromText(dense), value, dense);
      check(`${label} fromModelOutput`, c.fromModelOutput("Here it is:\n```\n" + dense + "\n```\n"), value, dense, true);
    }
  }
});

// ------------------------------------------------------------------------------------------ regressions

test("random schemas, found: a property under a name holding U+2028 keeps its dictionary slot (binary lost it)", async () => {
  await initHash();
  assert.deepEqual(parentOfProperty('$<0>.p<0>["u\u2028sep"]<0>.name1'), { parent: '$<0>.p<0>["u\u2028sep"]<0>', name: "name1" });
  assert.deepEqual(parentOfProperty('#D["a\u2029b"].c'), { parent: '#D["a\u2029b"]', name: "c" });
  assert.deepEqual(parentOfProperty("k"), { parent: "$", name: "k" });
  assert.equal(parentOfProperty("$"), undefined);
  assert.equal(parentOfProperty("#Def"), undefined);
  for (const name of ["u\u2028sep", "p\u2029q"]) {
    const schema = { type: "object", properties: { [name]: { anyOf: [{ type: "object", properties: { n: { type: "string" } }, required: ["n"] }, { type: "null" }] } } };
    const ir = schemaToIR(schema, { source: "sep.schema.json", baseDir: process.cwd() });
    const engine = interpret(ir, buildDictionary(ir));
    const value = { [name]: { n: "kept", extra: 1 } };
    assert.deepEqual(engine.decode(engine.encode(value)), value);
  }
});

test("random schemas, found: dense int64 inside JSON cells and unions with number keeps bigints and doubles apart", () => {
  const schema = {
    type: "object",
    properties: {
      tuple: { type: "array", prefixItems: [{ type: "boolean" }, { type: "integer", format: "int64" }], items: false },
      map: { type: "object", additionalProperties: { type: "integer", format: "int64" } },
      either: { anyOf: [{ type: "number" }, { type: "integer", format: "int64" }] },
      plain: { type: "integer", format: "int64" },
    },
  };
  const dense = denseOf(schemaToIR(schema, { source: "i64.schema.json", baseDir: process.cwd() }));
  const values = [
    { tuple: [true, 12345678901234567890n], map: { a: -9223372036854775808n, b: 7 }, either: 12345678901234567890n, plain: 9223372036854775807n },
    { either: 12345678901234567000, plain: -9223372036854775808n },
    { either: -9223372036854776000, map: { c: 18446744073709551615n } },
  ];
  for (const v of values) {
    const text = dense.toText(v);
    check("int64", dense.fromText(text), v, text);
  }
  // a double in the union is written with an exponent, so that it does not read as the bigint of its digits
  assert.match(dense.lines({ either: 12345678901234567000 }), /either:1\.2345678901234567e\+19/);
  // a plain int64 double beyond 2^53 reads back as binary and TOON text read it: the bigint of its value
  assert.equal((dense.fromText(dense.toText({ plain: -9223372036854776000 })) as { plain: unknown }).plain, -9223372036854775808n);
});

test("random schemas, found: a union branch's dropped const under a column another branch fills; an empty document is {}", () => {
  const schema = {
    type: "object",
    properties: {
      items: {
        type: "array",
        items: {
          oneOf: [
            { type: "object", properties: { kind: { const: "a" }, flag: { const: "fixed" }, n: { type: "integer" } }, required: ["kind", "flag"], additionalProperties: false },
            { type: "object", properties: { kind: { const: "b" }, flag: { type: "string" } }, required: ["kind"], additionalProperties: false },
          ],
        },
      },
      on: { const: true },
    },
    required: ["on"],
    additionalProperties: false,
  };
  const dense = denseOf(schemaToIR(schema, { source: "consts.schema.json", baseDir: process.cwd() }));
  const v = { items: [{ kind: "a", flag: "fixed", n: 1 }, { kind: "b", flag: "x" }, { kind: "a", flag: "fixed" }], on: true };
  const text = dense.toText(v);
  check("dropped const", dense.fromText(text), v, text);
  // only dropped consts: no lines, so the document is the value's JSON (never empty), and "" still reads
  assert.equal(dense.toText({ on: true }), '{"on":true}');
  assert.deepEqual(dense.fromText(""), { on: true });
});

test("random schemas, found: a required object that is {} under a field group column reads back as {}, not as absent", () => {
  const schema = {
    type: "array",
    items: {
      type: "object",
      properties: { n: { type: "number" }, box: { type: "object", properties: { id: { type: "string" }, k: { type: "integer" } } }, tail: { type: "string" } },
      required: ["n", "box"],
      additionalProperties: false,
    },
  };
  const dense = denseOf(schemaToIR(schema, { source: "box.schema.json", baseDir: process.cwd() }));
  const v = [{ n: 1, box: { id: "a", k: 2 } }, { n: 2, box: {} }, { n: 3, box: { k: 5 }, tail: "t" }];
  const text = dense.toText(v);
  assert.match(text, /box\{id,k\}/, "a field group column");
  check("required {}", dense.fromText(text), v, text);
});

test("random schemas, found: a string with white space at either end that trim removes (U+2028, U+3000) is quoted", async () => {
  const { codec } = await compileSchema({ title: "Word", type: "object", properties: { w: { type: "string" }, k: { type: "object", additionalProperties: { type: "integer" } } } }, suiteDir("random-schemas-space"), "word");
  const c = codec as typeof codec & { toText(v: unknown, o?: { layout?: string }): string; fromModelOutput(t: string): unknown };
  for (const w of ["\u2028\u2029", "\u3000x", "x\u00a0", "\ufeffy", " z", "a\u2028b"]) {
    const v = { w, k: { [w]: 1 } };
    const text = c.toText(v, { layout: "dense" });
    if (w !== "a\u2028b") assert.ok(text.includes(JSON.stringify(w)), `${JSON.stringify(w)} quoted in ${JSON.stringify(text)}`);
    assert.deepEqual(c.fromModelOutput("Sure:\n```\n" + text + "\n```\n"), v);
  }
  const root = denseOf(schemaToIR({ type: "string" }, { source: "root.schema.json", baseDir: process.cwd() }));
  assert.equal(root.toText("\u2028\u2029"), '"\u2028\u2029"');
});

test("random schemas, found: a union takes the later branch a nested bigint belongs to; an enum value beside a uuid branch", async () => {
  await initHash();
  const schema = {
    anyOf: [
      { type: "object", properties: { a: { type: "number" } } },
      { type: "object", properties: { lead: { type: "object", properties: { count: { type: "integer", format: "int64" } } } }, additionalProperties: { type: "integer" } },
    ],
  };
  const ir = schemaToIR(schema, { source: "open-union.schema.json", baseDir: process.cwd() });
  const engine = interpret(ir, buildDictionary(ir));
  const { codec } = await compileSchema({ title: "OpenUnion", ...schema }, suiteDir("random-schemas-union"), "open-union");
  // the first branch is open (its extra keys `any`): the bigint deep inside is no JSON value, so the second one
  const value = { lead: { count: -9223372036854775808n }, n: 3 };
  const bytes = engine.encode(value as never);
  assert.equal(Buffer.from(codec.encode(value)).toString("hex"), Buffer.from(bytes).toString("hex"));
  assert.deepEqual(engine.decode(bytes), value);
  assert.deepEqual(codec.decode(bytes), value);
  // nothing takes a bigint nested where only JSON or integers may be: the error it was, not a wrong branch
  assert.equal(catchToon(() => engine.encode({ extra: { deep: [1, { x: 2n ** 60n }] } } as never)).code, "INVALID_VALUE");
  // a string that is not a uuid but is one of the enum's values reads as that value
  const dense = denseOf(schemaToIR({ type: "array", items: { anyOf: [{ enum: ["é", "", "]"] }, { type: "string", format: "uuid" }] } }, { source: "e.schema.json", baseDir: process.cwd() }));
  const v = ["é", "", "]", "8b2615d6-0a03-4764-a74c-641885db7f19"];
  check("enum beside uuid", dense.fromText(dense.toText(v)), v, dense.toText(v));
});

test("random schemas, found: a root array costs no more tokens than its JSON; int64 doubles in JSON keep their value", () => {
  const list = denseOf(schemaToIR({ type: "array", items: { type: "object", properties: { type: { type: "string" } } } }, { source: "list.schema.json", baseDir: process.cwd() }));
  assert.equal(list.toText([]), "[]");
  assert.deepEqual(list.fromText("[]"), []);
  assert.deepEqual(list.fromText('[{"type":"a"}]'), [{ type: "a" }]);
  assert.deepEqual(list.fromText("[0]:"), []);
  const many = Array.from({ length: 20 }, (_, i) => ({ type: `t${i}` }));
  assert.match(list.toText(many), /^\[20\]\{type\}:/, "a table where it is shorter");
  const mixed = denseOf(schemaToIR({ type: "array", items: { anyOf: [{ type: "string" }, { type: "array", items: { type: "integer" } }] } }, { source: "mixed.schema.json", baseDir: process.cwd() }));
  assert.equal(mixed.toText(["a", [1, 2]]), '["a",[1,2]]');
  assert.deepEqual(mixed.fromText(': ["a",[1,2]]'), ["a", [1, 2]]);
  // a double beyond 2^53 in an int64 position inside JSON: the digits of its exact value, read as that value
  const tuple = denseOf(schemaToIR({ type: "object", properties: { t: { type: "array", prefixItems: [{ type: "integer", format: "int64" }, { type: "number" }], items: false } } }, { source: "t.schema.json", baseDir: process.cwd() }));
  const text = tuple.toText({ t: [9223372036854775000, 9223372036854775000] });
  assert.match(text, /9223372036854774784,9223372036854774784/);
  assert.deepEqual(tuple.fromText(text), { t: [9223372036854774784n, 9223372036854775000] });
});

test("random schemas, found: an empty or cut-off document of a scalar root is INVALID_VALUE, never a value", () => {
  for (const type of ["integer", "boolean", "null", "number", "string"]) {
    const dense = denseOf(schemaToIR({ type }, { source: `${type}.schema.json`, baseDir: process.cwd() }));
    const e = catchToon(() => dense.fromText(""));
    assert.equal(e.code, "INVALID_VALUE", `${type}: ${e.message}`);
    assert.equal(e.path, "");
    assert.match(e.message, /got an empty text/);
  }
  const str = denseOf(schemaToIR({ type: "string" }, { source: "s.schema.json", baseDir: process.cwd() }));
  assert.equal(str.fromText('""'), "");
});

test("random Zod schemas: converted (or refused with UNSUPPORTED_SCHEMA), their values round-trip binary and dense", async () => {
  await initHash();
  let converted = 0;
  for (let seed = 1; seed <= 150; seed++) {
    let ir;
    try {
      const conv = await zodToJsonSchema(randomZod(seed), `random-zod-${seed}.ts#S`);
      ir = schemaToIR({ ...conv.jsonSchema, title: "S" }, { source: `random-zod-${seed}.ts#S`, baseDir: process.cwd() });
    } catch (e) {
      assert.equal((e as { code?: string }).code, "UNSUPPORTED_SCHEMA", `zod ${seed}: ${(e as Error).message}`);
      continue;
    }
    converted++;
    const engine = interpret(ir, buildDictionary(ir));
    const dense = denseOf(ir);
    for (let k = 0; k < 20; k++) {
      const value = arbitrary(ir, seed * 100 + k);
      check(`zod ${seed} value ${k} binary`, engine.decode(engine.encode(value)), value, "", false, true);
      const text = dense.toText(value);
      check(`zod ${seed} value ${k} dense`, dense.fromText(text), value, text);
    }
  }
  assert.ok(converted > 100, `${converted} of 150 converted`);
});

test("random schemas, found: a required field group inside an absent optional one is absent with it", () => {
  const schema = {
    type: "array",
    items: {
      type: "object",
      properties: { k: { type: "string" }, y: { type: "object", properties: { inner: { type: "object", properties: { id: { type: "integer" }, n: { type: ["string", "null"] } }, required: ["id"] }, z: { type: "number" } }, required: ["inner"] } },
      required: ["k"],
      additionalProperties: false,
    },
  };
  const dense = denseOf(schemaToIR(schema, { source: "nested.schema.json", baseDir: process.cwd() }));
  const v = [{ k: "a" }, { k: "b", y: { inner: { id: 1, n: null }, z: 2 } }, { k: "c" }];
  const text = dense.toText(v);
  check("nested required group", dense.fromText(text), v, text);
  // y there, its required inner group empty: inner's own required id is missing
  // (a root array's table ends the document: its rows flush left)
  assert.match(text, /\nc,.*$/);
  const e = catchToon(() => dense.fromText(text.replace(/\nc,.*$/, "\nc,,,5")));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/2/y/inner/id");
});

test("random schemas, found: a union's integer branches take every integral double their writers take (beyond 64 bits too)", async () => {
  await initHash();
  const schema = { anyOf: [{ type: "integer", format: "int64" }, { type: "integer" }] };
  const ir = schemaToIR(schema, { source: "ints.schema.json", baseDir: process.cwd() });
  const engine = interpret(ir, buildDictionary(ir));
  const { codec } = await compileSchema({ title: "Ints", ...schema }, suiteDir("random-schemas-ints"), "ints");
  for (const v of [9.2e210, 2 ** 64, -(2 ** 63) - 4096, 5, 2n ** 63n]) {
    const bytes = engine.encode(v as never);
    assert.equal(Buffer.from(codec.encode(v)).toString("hex"), Buffer.from(bytes).toString("hex"), String(v));
    assert.equal(engine.decode(bytes), v);
  }
  assert.equal(catchToon(() => engine.encode(2n ** 64n as never)).code, "INVALID_VALUE");
});
