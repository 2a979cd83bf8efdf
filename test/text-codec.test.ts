// Generated TOON text codecs (issue 5): `toText` is byte-identical to the runtime's `encodeText` and decodes with
// @toon-format/toon to the same value; @toon-format/toon's text decodes with our `fromText`; random schema-valid
// values round-trip; coercion and rejection per schema with line, column and path; `fromModelOutput` finds the
// payload or fails whole; `formatInstructions` shows the shape and is TOON itself. For every example, every
// inline test schema and (when /work/shared is present) every corpus schema/instance pair.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { decode as refDecode, encode as refEncode } from "@toon-format/toon";
import { baseName } from "../generator/pipeline.ts";
import { compileTextCheck } from "../generator/emit/text.ts";
import type { SchemaIR } from "../generator/ir/types.ts";
import { loadSchemaFile } from "../generator/load/index.ts";
import { ToonError } from "../runtime/wire/errors.ts";
import { decodeText, encodeText, fromTextWith, textFallbacks, type TextEncodeOptions } from "../runtime/text/index.ts";
import { corpusRoot, schemaInstancePairs } from "./corpus/index.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { generateCorpusModules, instanceLabel } from "./support/corpus-gen.ts";
import { compileSchema, exampleProjects, importCodec, REPO, suiteDir, type Codec } from "./support/gen.ts";
import { INLINE_SCHEMAS } from "./support/schemas.ts";
import { catchToon as caught } from "./support/toon-error.ts";

/** A codec with the text members. */
interface TextCodec<T = any> extends Codec<T> {
  toText(value: T, options?: TextEncodeOptions): string;
  fromText(text: string): T;
  fromModelOutput(output: string): T;
  formatInstructions(): string;
}

/**
 * Corpus instances whose text round trip fails, with the reason, by `<case id> @ <instance>`. Printed by the test;
 * an entry that starts passing fails the test, so the list only shrinks.
 */
export const TEXT_CORPUS_KNOWN_FAILURES: Readonly<Record<string, string>> = {};

const RANDOM_VALUES = 40;
const OPTION_SETS: (TextEncodeOptions | undefined)[] = [undefined, { delimiter: "\t" }, { delimiter: "|", indentSize: 4 }];

function show(v: unknown): string {
  const s = JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x));
  return s === undefined ? String(v) : s.length > 300 ? s.slice(0, 297) + "..." : s;
}

/** The value as the TOON text data model sees it: -0 is 0 (TOON writes -0 as 0). */
function textModel(v: unknown): unknown {
  if (typeof v === "number") return v === 0 ? 0 : v;
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(textModel);
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(v)) Object.defineProperty(o, k, { value: textModel((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return o;
}

/** As JSON.parse(JSON.stringify(v)) would see it (what @toon-format/toon decodes to). */
function jsonModel(v: unknown): unknown {
  return textModel(JSON.parse(JSON.stringify(v)));
}


/** Problems of one value through a codec's text members (empty: all good). */
function textProblems(codec: TextCodec, value: unknown, opts: { reference: boolean; options?: boolean }): string[] {
  const out: string[] = [];
  let ours: string;
  try {
    ours = codec.toText(value);
  } catch (e) {
    return [`toText threw ${(e as Error).message}`];
  }
  const generic = encodeText(value);
  if (ours !== generic) out.push("toText differs from encodeText");
  if (opts.options) {
    for (const o of OPTION_SETS.slice(1)) if (codec.toText(value, o) !== encodeText(value, o)) out.push(`toText differs from encodeText with ${JSON.stringify(o)}`);
  }
  try {
    const back = codec.fromText(ours);
    const expected = textModel(codec.decode(codec.encode(value)));
    if (!isDeepStrictEqual(textModel(back), expected)) out.push(`fromText(toText(v)) differs: ${show(back)}`);
  } catch (e) {
    out.push(`fromText(toText(v)) threw ${(e as Error).message}`);
  }
  if (opts.reference) {
    try {
      const theirs = refDecode(ours);
      if (!isDeepStrictEqual(textModel(theirs), jsonModel(value))) out.push("@toon-format/toon decodes our text to another value");
    } catch (e) {
      out.push(`@toon-format/toon cannot decode our text: ${(e as Error).message}`);
    }
    try {
      const back = codec.fromText(refEncode(value as never));
      if (!isDeepStrictEqual(textModel(back), textModel(value))) out.push("fromText of @toon-format/toon's text differs");
    } catch (e) {
      out.push(`fromText of @toon-format/toon's text threw ${(e as Error).message}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The examples (committed generated modules)

interface ExampleSubject {
  name: string;
  ir: SchemaIR;
  codec: TextCodec;
  data: unknown;
}

let examples: ExampleSubject[] = [];

before(async () => {
  for (const p of exampleProjects()) {
    const schemaDir = path.join(p.dir, "schemas");
    let files: string[];
    try {
      files = readdirSync(schemaDir).filter((f) => f.endsWith(".json"));
    } catch {
      continue;
    }
    for (const f of files) {
      const base = baseName(f);
      let data: unknown;
      try {
        data = JSON.parse(readFileSync(path.join(p.dir, "data", `${base}.json`), "utf8"));
      } catch {
        continue;
      }
      const ir = await loadSchemaFile(path.join(schemaDir, f), { cwd: p.dir });
      const codec = (await importCodec(path.join(p.dir, p.config.outDir, `${base}.ts`), ir.name)) as TextCodec;
      examples.push({ name: `${p.name}/${base}`, ir, codec, data });
    }
  }
  examples = examples.sort((a, b) => a.name.localeCompare(b.name));
});

describe("examples", () => {
  test("all four examples are present", () => {
    assert.deepEqual(
      examples.map((e) => e.name),
      ["extraction/extraction-result", "logs/log-report", "orders/order-list", "tool-calls/tool-call-batch"],
    );
  });

  test("toText = encodeText (all delimiters), on the specialised path; both directions interoperate with @toon-format/toon", () => {
    for (const ex of examples) {
      const before = textFallbacks.count;
      assert.deepEqual(textProblems(ex.codec, ex.data, { reference: true, options: true }), [], ex.name);
      assert.equal(textFallbacks.count, before, `${ex.name}: toText fell back to encodeText (${String(textFallbacks.last)})`);
      // byte-identical to the reference encoder too (same spec, same choices)
      assert.equal(ex.codec.toText(ex.data), refEncode(ex.data as never), `${ex.name}: differs from @toon-format/toon encode`);
      assert.deepStrictEqual(ex.codec.fromText(ex.codec.toText(ex.data)), ex.data, `${ex.name}: round trip`);
    }
  });

  test("random schema-valid values round-trip through toText/fromText", () => {
    for (const ex of examples) {
      for (let seed = 1; seed <= RANDOM_VALUES; seed++) {
        const v = arbitrary(ex.ir, seed);
        if (!ex.codec.validate(v).ok) continue;
        assert.deepEqual(textProblems(ex.codec, v, { reference: false, options: seed <= 10 }), [], `${ex.name} seed ${seed}: ${show(v)}`);
      }
    }
  });

  test("keys out of schema order, unknown keys, non-tabular rows: still byte-identical", () => {
    const orders = examples.find((e) => e.name === "orders/order-list")!;
    const data = structuredClone(orders.data) as { orders: Record<string, unknown>[] };
    const o0 = data.orders[0]!;
    const { id, ...rest } = o0;
    data.orders[0] = { ...rest, id }; // id last
    data.orders[1]!.extra = { deep: [1, 2, { x: "y" }] };
    (data.orders[2]!.items as Record<string, unknown>[])[0]!.qty = "3"; // a string where a number goes
    ((data.orders[3]!.items as Record<string, unknown>[]).at(-1) as Record<string, unknown>).note = "gift"; // not uniform
    (data.orders[4]!.customer as Record<string, unknown>).address = null;
    for (const o of OPTION_SETS) assert.equal(orders.codec.toText(data as never, o), encodeText(data, o), JSON.stringify(o));
    assert.equal(orders.codec.toText({} as never), "");
    assert.equal(orders.codec.toText({ orders: [] } as never), encodeText({ orders: [] }));
    assert.equal(orders.codec.toText([1, 2] as never), encodeText([1, 2]));
    assert.equal(orders.codec.toText({ orders: [{}, [], 3, null] } as never), encodeText({ orders: [{}, [], 3, null] }));
    // a value the generic encoder rejects is rejected the same way
    const bad = { orders: [{ id: "\ud800" }] };
    const a = caught(() => orders.codec.toText(bad as never));
    const b = caught(() => encodeText(bad));
    assert.deepEqual([a.code, a.path, a.message], [b.code, b.path, b.message]);
  });

  test("keyed tables and nested field groups come out as the generic encoder writes them", async () => {
    const dir = suiteDir("text/shapes");
    const { codec } = await compileSchema<any>(
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        title: "Shapes",
        type: "object",
        properties: {
          billing: { $ref: "#/$defs/Addr" },
          shipping: { $ref: "#/$defs/Addr" },
          rows: { type: "array", items: { type: "object", properties: { id: { type: "integer" }, at: { $ref: "#/$defs/Point" } }, required: ["id", "at"] } },
          byName: { type: "object", additionalProperties: { $ref: "#/$defs/Point" } },
        },
        required: ["billing", "shipping"],
        $defs: {
          Addr: { type: "object", properties: { city: { type: "string" }, zip: { type: "string" } }, required: ["city", "zip"] },
          Point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] },
        },
      },
      dir,
      "shapes",
    );
    const c = codec as TextCodec;
    const values = [
      { billing: { city: "Oslo", zip: "0150" }, shipping: { city: "Bergen", zip: "5003" } },
      { billing: { city: "Oslo", zip: "0150" }, shipping: { city: "Bergen", zip: "5003" }, rows: [{ id: 1, at: { x: 1, y: 2 } }, { id: 2, at: { x: 3, y: 4.5 } }] },
      { rows: [{ id: 1, at: { x: 1, y: 2 } }, { id: 2, at: { y: 4.5, x: 3 } }], billing: { city: "a,b", zip: "1" }, shipping: { zip: "2", city: "c" } },
      { billing: { city: "x", zip: "1" }, shipping: { city: "y", zip: "2" }, byName: { a: { x: 1, y: 2 }, b: { x: 3, y: 4 } } },
      { billing: { city: "x", zip: "1" }, shipping: { city: "y", zip: "2" }, byName: { a: { x: 1, y: 2 } }, rows: [{ id: 1, at: {} }] },
    ];
    for (const v of values) {
      for (const o of OPTION_SETS) assert.equal(c.toText(v, o), encodeText(v, o), `${show(v)} ${JSON.stringify(o)}`);
      if (c.validate(v).ok) assert.deepStrictEqual(c.fromText(c.toText(v)), v);
    }
    assert.ok(encodeText(values[0]).startsWith("[2:]{city,zip}:"), "a keyed table at the root");
    assert.ok(encodeText(values[1]).includes("rows[2]{id,at{x,y}}:"), "a nested field group");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Inline schemas covering every IR kind (test/support/schemas.ts)

describe("inline schemas", () => {
  test("random values: toText = encodeText, fromText(toText(v)) = decode(encode(v))", async () => {
    const dir = suiteDir("text/inline");
    for (const [label, schema] of Object.entries(INLINE_SCHEMAS)) {
      const compiled = await compileSchema<any>(schema, dir, label.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()));
      const codec = compiled.codec as TextCodec;
      const interpreted = compileTextCheck(compiled.ir).check;
      const n = label === "wide" ? 5 : RANDOM_VALUES;
      for (let seed = 1; seed <= n; seed++) {
        const v = arbitrary(compiled.ir, seed);
        if (!codec.validate(v).ok) continue;
        assert.deepEqual(textProblems(codec, v, { reference: false, options: seed <= 10 }), [], `${label} seed ${seed}: ${show(v)}`);
        const text = codec.toText(v);
        assert.deepStrictEqual(fromTextWith(text, undefined, interpreted), codec.fromText(text), `${label} seed ${seed}: interpreted check differs`);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Coercion and rejection

describe("fromText: coercion and rejection per schema", () => {
  let codec: TextCodec;
  let ir: SchemaIR;
  before(async () => {
    const dir = suiteDir("text/coerce");
    const compiled = await compileSchema<any>(
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        title: "Coerce",
        type: "object",
        properties: {
          name: { type: "string" },
          zip: { type: "string" },
          count: { type: "integer" },
          ratio: { type: "number" },
          big: { type: "integer", format: "int64" },
          bigText: { type: "string", format: "int64" },
          flag: { type: "boolean" },
          status: { enum: ["open", "closed", "1"] },
          kind: { const: "order" },
          maybe: { type: ["integer", "null"] },
          either: { oneOf: [{ type: "integer" }, { type: "string" }] },
          items: {
            type: "array",
            items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer" } }, required: ["sku", "qty"], additionalProperties: false },
          },
        },
        required: ["name", "count"],
        additionalProperties: false,
      },
      dir,
      "coerce",
    );
    codec = compiled.codec as TextCodec;
    ir = compiled.ir;
  });

  test("scalars are coerced per schema", () => {
    const v = codec.fromText(
      [
        "name: 123",
        "zip: 01234",
        "count: 3",
        "ratio: 1.50",
        "big: 12345678901234567890",
        "bigText: 98765432109876543210",
        "flag: true",
        "status: 1",
        "kind: order",
        "maybe: null",
        "either: 1.0",
        "items[2]{sku,qty}:",
        "  1.10,2",
        "  true,3e0",
      ].join("\n"),
    );
    assert.deepStrictEqual(v, {
      name: "123",
      zip: "01234",
      count: 3,
      ratio: 1.5,
      big: 12345678901234567890n,
      bigText: "98765432109876543210",
      flag: true,
      status: "1",
      kind: "order",
      maybe: null,
      either: 1,
      items: [
        { sku: "1.10", qty: 2 },
        { sku: "true", qty: 3 },
      ],
    });
    // the encoder's form of a bigint beyond 2^53 (a quoted decimal) decodes back to the bigint
    const t = codec.toText({ name: "x", count: 1, big: -9223372036854775808n });
    assert.match(t, /big: "-9223372036854775808"/);
    assert.equal(codec.fromText(t).big, -9223372036854775808n);
    assert.equal(codec.fromText("name: a\ncount: 1\nbig: 42").big, 42);
    assert.equal(codec.fromText("name: a\ncount: 1\neither: x1").either, "x1");
  });

  const cases: [string, string, { code: string; path: string; line: number; column: number }][] = [
    ["integer rejects 1.5", "name: a\ncount: 1.5", { code: "INVALID_VALUE", path: "/count", line: 2, column: 8 }],
    ["string field rejects null", "name: null\ncount: 1", { code: "INVALID_VALUE", path: "/name", line: 1, column: 7 }],
    ["boolean rejects a string", "name: a\ncount: 1\nflag: yes", { code: "INVALID_VALUE", path: "/flag", line: 3, column: 7 }],
    ["enum", "name: a\ncount: 1\nstatus: pending", { code: "INVALID_VALUE", path: "/status", line: 3, column: 9 }],
    ["const", "name: a\ncount: 1\nkind: invoice", { code: "INVALID_VALUE", path: "/kind", line: 3, column: 7 }],
    ["missing required property: the enclosing object", "name: a", { code: "INVALID_VALUE", path: "/count", line: 1, column: 1 }],
    ["unknown property", "name: a\ncount: 1\nextra: 2", { code: "INVALID_VALUE", path: "/extra", line: 3, column: 8 }],
    ["int64 not an integer", "name: a\ncount: 1\nbig: 1.5", { code: "INVALID_VALUE", path: "/big", line: 3, column: 6 }],
    ["a table cell", "name: a\ncount: 1\nitems[2]{sku,qty}:\n  a,1\n  b,2.5", { code: "INVALID_VALUE", path: "/items/1/qty", line: 5, column: 5 }],
    ["a missing table column", "name: a\ncount: 1\nitems[1]{sku}:\n  a", { code: "INVALID_VALUE", path: "/items/0/qty", line: 4, column: 3 }],
    ["array expected", "name: a\ncount: 1\nitems: 3", { code: "INVALID_VALUE", path: "/items", line: 3, column: 8 }],
    ["nullable integer rejects a string", "name: a\ncount: 1\nmaybe: x", { code: "INVALID_VALUE", path: "/maybe", line: 3, column: 8 }],
    ["union without a match", "name: a\ncount: 1\neither[1]: 2", { code: "INVALID_VALUE", path: "/either", line: 3, column: 1 }],
    ["syntax: row count", "name: a\ncount: 1\nitems[2]{sku,qty}:\n  a,1", { code: "TEXT_SYNTAX", path: "/items", line: 3, column: 6 }],
    ["syntax: bad indentation", "name: a\n   count: 1", { code: "TEXT_SYNTAX", path: "", line: 2, column: 4 }],
  ];
  for (const [label, text, want] of cases) {
    test(`rejects: ${label}`, () => {
      const e = caught(() => codec.fromText(text));
      assert.deepEqual({ code: e.code, path: e.path, line: e.line, column: e.column }, want, e.message);
      // the CLI's interpreted twin fails the same way
      const i = caught(() => fromTextWith(text, undefined, compileTextCheck(ir).check));
      assert.deepEqual({ code: i.code, path: i.path, line: i.line, column: i.column, message: i.message }, { ...want, message: e.message });
    });
  }
});

describe("fromText: a missing required property is named from its guard's path", () => {
  test("keys with / and ~, and __proto__, in generated and interpreted checks", async () => {
    const compiled = await compileSchema<any>(
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        title: "OddKeys",
        type: "object",
        properties: { "a/b~c": { type: "string" }, __proto__: { type: "integer" }, "x~1": { enum: ["p", "q"] } },
        required: ["a/b~c", "__proto__", "x~1"],
        additionalProperties: false,
      },
      suiteDir("text/odd-keys"),
      "odd-keys",
    );
    const codec = compiled.codec as TextCodec;
    const interpreted = compileTextCheck(compiled.ir).check;
    const want: [string, string, string][] = [
      ["__proto__: 1\nx~1: p", "/a~1b~0c", 'required property "a/b~c" is missing'],
      ['"a/b~c": s\nx~1: p', "/__proto__", 'required property "__proto__" is missing'],
      ['"a/b~c": s\n__proto__: 2', "/x~01", 'required property "x~1" is missing'],
    ];
    for (const [text, path, reason] of want) {
      for (const run of [() => codec.fromText(text), () => fromTextWith(text, undefined, interpreted)]) {
        const e = caught(run);
        assert.deepEqual({ code: e.code, path: e.path, reason: e.reason }, { code: "INVALID_VALUE", path, reason }, text);
      }
    }
    const ok = codec.fromText('"a/b~c": 12\n__proto__: 2\nx~1: q');
    assert.deepStrictEqual({ ...ok }, JSON.parse('{"a/b~c": "12", "__proto__": 2, "x~1": "q"}'));
    assert.equal(Object.getPrototypeOf(ok), Object.prototype);
  });
});

// ---------------------------------------------------------------------------------------------------------
// fromModelOutput

describe("fromModelOutput", () => {
  let orders: ExampleSubject;
  const small = { orders: [] as unknown[] };
  before(() => {
    orders = examples.find((e) => e.name === "orders/order-list")!;
    small.orders = (orders.data as { orders: unknown[] }).orders.slice(0, 2);
  });

  test("a ```toon fence with prose around it", () => {
    const out = `Sure! Here are the orders:\n\n\`\`\`toon\n${orders.codec.toText(small as never)}\n\`\`\`\n\nLet me know if you need more.`;
    assert.deepStrictEqual(orders.codec.fromModelOutput(out), small);
  });

  test("a ```json fence, bare JSON, JSON inside prose", () => {
    const json = JSON.stringify(small, null, 2);
    assert.deepStrictEqual(orders.codec.fromModelOutput("Result:\n```json\n" + json + "\n```"), small);
    assert.deepStrictEqual(orders.codec.fromModelOutput(json), small);
    assert.deepStrictEqual(orders.codec.fromModelOutput("Here you go: " + JSON.stringify(small) + " -- hope that helps {:"), small);
  });

  test("bare TOON, and TOON with prose before and after (no fence)", () => {
    const toon = orders.codec.toText(small as never);
    assert.deepStrictEqual(orders.codec.fromModelOutput(toon), small);
    assert.deepStrictEqual(orders.codec.fromModelOutput(`Here is the data:\n\n${toon}\n\nAnything else?`), small);
  });

  test("a ```toon fence preferred over a json example, and a json fence holding TOON", () => {
    const toon = orders.codec.toText(small as never);
    assert.deepStrictEqual(orders.codec.fromModelOutput('Format:\n```json\n{"orders": "..."}\n```\nAnswer:\n```toon\n' + toon + "\n```"), small);
    assert.deepStrictEqual(orders.codec.fromModelOutput("```json\n" + toon + "\n```"), small);
  });

  test("nothing there: NO_PAYLOAD", () => {
    for (const out of ["", "I could not find any orders, sorry.", "```\n\n```"]) {
      assert.equal(caught(() => orders.codec.fromModelOutput(out)).code, "NO_PAYLOAD", JSON.stringify(out));
    }
  });

  test("truncated payloads fail whole, never a partial value", () => {
    const toon = orders.codec.toText(small as never);
    const lines = toon.split("\n");
    const cut = lines.slice(0, lines.length - 3).join("\n");
    assert.equal(caught(() => orders.codec.fromModelOutput("```toon\n" + toon)).code, "INCOMPLETE", "unclosed fence");
    const e = caught(() => orders.codec.fromModelOutput("```toon\n" + cut + "\n```"));
    assert.ok(e.code === "INVALID_VALUE" || e.code === "TEXT_SYNTAX", e.message);
    const json = JSON.stringify(small);
    const j = caught(() => orders.codec.fromModelOutput("```json\n" + json.slice(0, json.length - 20) + "\n```"));
    assert.equal(j.code, "INCOMPLETE", j.message); // cut-off JSON, fenced or not (issue 13)
    // every prefix of a fenced payload either parses to the whole value or fails
    for (let n = 0; n < toon.length; n += 7) {
      try {
        const v = orders.codec.fromModelOutput("```toon\n" + toon.slice(0, n) + "\n```");
        assert.deepStrictEqual(v, small, `prefix ${n} parsed to a partial value`);
      } catch (err) {
        assert.ok(err instanceof ToonError, String(err));
      }
    }
  });

  test("errors name the line in the model output", () => {
    const toon = orders.codec.toText(small as never).replace("status: delivered", "status: lost");
    const out = "Intro line\n\n```toon\n" + toon + "\n```";
    const e = caught(() => orders.codec.fromModelOutput(out));
    assert.equal(e.code, "INVALID_VALUE");
    assert.equal(e.path, "/orders/0/status");
    assert.equal(out.split("\n")[e.line! - 1]!.trim(), "status: lost");
    const bad = JSON.stringify(small, null, 2).replace('"total": 1209.6', '"total": "lots"');
    const j = caught(() => orders.codec.fromModelOutput("Prose\n```json\n" + bad + "\n```"));
    assert.equal(j.path, "/orders/0/total");
    assert.match(("Prose\n```json\n" + bad).split("\n")[j.line! - 1]!, /"total": "lots"/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// formatInstructions

describe("formatInstructions", () => {
  function block(s: string): string {
    const m = /```toon\n([\s\S]*?)\n```/.exec(s);
    assert.ok(m, "has a ```toon block");
    return m[1]!;
  }

  test("shows the table headers with field names and one example row; the block is TOON", () => {
    const orders = examples.find((e) => e.name === "orders/order-list")!;
    const s = orders.codec.formatInstructions();
    assert.ok(s.length < 3000, `short (${s.length} chars)`);
    assert.match(s, /items\[1\]\{sku,name,qty,unitPrice\}:\n {6}\S+,\S+,1,1\.5/);
    assert.match(s, /orders\[1\]:/);
    assert.match(s, /note/); // the optional field is named
    assert.match(s, /"pending"/); // enum values are listed
    for (const ex of examples) {
      const text = block(ex.codec.formatInstructions());
      const v = decodeText(text);
      assert.equal(encodeText(v), text, `${ex.name}: the example is canonical TOON`);
    }
    const ex = examples.find((e) => e.name === "extraction/extraction-result")!;
    assert.match(ex.codec.formatInstructions(), /is one of/); // the discriminated union's variants
  });
});

// ---------------------------------------------------------------------------------------------------------
// The corpus

describe("corpus", () => {
  if (corpusRoot() === undefined) {
    console.log("text-codec: /work/shared/corpus is absent: corpus text round trips skipped");
    return;
  }

  test("every schema/instance pair: toText = encodeText, interop with @toon-format/toon, fromText round trip; random values too", async () => {
    console.log(
      "text-codec: known corpus failures:\n" +
        Object.entries(TEXT_CORPUS_KNOWN_FAILURES)
          .map(([k, why]) => `  ${k}: ${why}`)
          .join("\n"),
    );
    const dir = suiteDir("text/corpus");
    const modules = await generateCorpusModules(schemaInstancePairs(), dir);
    const failures: string[] = [];
    const stale = new Set(Object.keys(TEXT_CORPUS_KNOWN_FAILURES));
    let instances = 0;
    let randoms = 0;
    for (const m of modules) {
      if (m.emitted === undefined) continue; // generation failures are the core suite's business
      const codec = (await importCodec(m.emitted.file, m.emitted.ir.name)) as TextCodec;
      const interpreted = compileTextCheck(m.emitted.ir).check;
      try {
        const block = /```toon\n([\s\S]*?)\n```/.exec(codec.formatInstructions());
        if (block === null) failures.push(`${m.case.id}: formatInstructions has no toon block`);
        else decodeText(block[1]!);
      } catch (e) {
        failures.push(`${m.case.id}: formatInstructions example is not TOON: ${(e as Error).message}`);
      }
      for (const inst of m.case.instances) {
        const key = `${m.case.id} @ ${instanceLabel(inst)}`;
        const problems = textProblems(codec, inst.value, { reference: true, options: true });
        if (problems.length === 0) {
          const text = codec.toText(inst.value);
          if (!isDeepStrictEqual(fromTextWith(text, undefined, interpreted), codec.fromText(text))) problems.push("the interpreted check differs");
        }
        instances++;
        if (problems.length === 0) {
          if (stale.has(key)) failures.push(`${key}: passes now, remove it from TEXT_CORPUS_KNOWN_FAILURES`);
          continue;
        }
        stale.delete(key);
        if (!(key in TEXT_CORPUS_KNOWN_FAILURES)) failures.push(`${key}: ${problems.join("; ")}`);
      }
      for (let seed = 1; seed <= 10; seed++) {
        const v = arbitrary(m.emitted.ir, seed);
        if (!codec.validate(v).ok) continue;
        randoms++;
        const problems = textProblems(codec, v, { reference: false, options: seed <= 2 });
        if (problems.length > 0) failures.push(`${m.case.id} random seed ${seed}: ${problems.join("; ")}`);
      }
    }
    console.log(`text-codec: ${instances} corpus instances and ${randoms} random values through ${modules.length} generated codecs`);
    assert.deepEqual(failures, []);
    assert.ok(instances > 100, `${instances} instances`);
  });
});

void REPO;
