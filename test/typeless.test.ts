// Typeless schemas keep JSON Schema's meaning (issue 11): keywords without `type` constrain only the type they
// apply to and let every other value through, so `encode` takes every value the schema accepts and gives it back
// exactly, through binary and text, in the generated module and the engine alike. An object or array implied by
// `properties` / `items` / `required` keeps its shape as the first branch of a union by JSON type.

import { test } from "node:test";
import assert from "node:assert/strict";
import { schemaToIR } from "../generator/load/index.ts";
import { interpret } from "../generator/interpret/index.ts";
import { describeCodec } from "../generator/emit/descriptor.ts";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { textCheckOf } from "../runtime/codec/engine/text-check.ts";
import { fromTextWith } from "../runtime/text/check.ts";
import { emitTo, importCodec, suiteDir } from "./support/gen.ts";

/** Every JSON type, twice over where the shape cares (an object that fits the implied shape, one that does not). */
const VALUES: unknown[] = [1, -2.5, "x", "1", "", true, false, null, [], [1, "a"], {}, { a: "s" }, { a: 1, b: [true] }];

const CASES: { title: string; schema: Record<string, unknown>; values: unknown[]; kinds: string[] }[] = [
  // scalar keywords: any value (the validator module checks them where they apply)
  { title: "MinLength", schema: { minLength: 2 }, values: VALUES, kinds: ["any"] },
  { title: "Maximum", schema: { maximum: 3 }, values: VALUES, kinds: ["any"] },
  // object keywords: the object first, every other type after it
  { title: "Props", schema: { properties: { a: { type: "string" } } }, values: VALUES.filter((v) => !(typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { a?: unknown }).a === "number")), kinds: ["object", "null", "boolean", "number", "string", "array"] },
  { title: "Req", schema: { required: ["a"] }, values: [1, "x", null, true, [2], { a: 1 }, { a: "s", z: null }], kinds: ["object", "null", "boolean", "number", "string", "array"] },
  // array keywords: the array first
  { title: "Items", schema: { items: { type: "integer" } }, values: [1, "x", null, false, [], [1, 2, 3], {}, { a: [1] }], kinds: ["array", "null", "boolean", "number", "string", "object"] },
  { title: "Tuple", schema: { prefixItems: [{ type: "string" }], items: false }, values: [0, "x", null, true, [], ["a"], { k: 1 }], kinds: ["tuple", "null", "boolean", "number", "string", "object"] },
];

test("typeless schemas: the IR is a union by JSON type (or any), every value round-trips, generated and interpreted", async () => {
  await initHash();
  const dir = suiteDir("typeless");
  for (const c of CASES) {
    const ir = schemaToIR({ title: c.title, ...c.schema }, { source: `${c.title}.schema.json` });
    const root = ir.definitions.find((d) => d.name === ir.name)?.shape ?? ir.root;
    assert.deepEqual(root.kind === "union" ? root.branches.map((b) => b.kind) : [root.kind], c.kinds, c.title);
    const dict = buildDictionary(ir);
    const engine = interpret(ir, dict);
    const check = textCheckOf(describeCodec(ir, dict));
    const mod: any = await importCodec((await emitTo(ir, dir, c.title.toLowerCase())).file, c.title);
    for (const v of c.values) {
      const what = `${c.title} ${JSON.stringify(v)}`;
      assert.deepStrictEqual(mod.decode(mod.encode(v)), v, `generated binary: ${what}`);
      assert.deepStrictEqual(engine.decode(engine.encode(v)), v, `engine binary: ${what}`);
      assert.deepEqual(mod.encode(v), engine.encode(v), `same bytes: ${what}`);
      const text = mod.toText(v);
      assert.deepStrictEqual(mod.fromText(text), v, `generated text: ${what} as ${JSON.stringify(text)}`);
      assert.deepStrictEqual(fromTextWith(text, undefined, check), v, `interpreted text: ${what}`);
    }
  }
});

test("typeless object keywords still shape objects: a property of the wrong type is refused, merged into a type they narrow it", async () => {
  await initHash();
  const ir = schemaToIR({ title: "P", properties: { a: { type: "string" } } }, { source: "p.schema.json" });
  const engine = interpret(ir, buildDictionary(ir));
  assert.throws(() => engine.encode({ a: 1 }), (e: any) => e.code === "INVALID_VALUE");
  // `allOf` with a typed member: the implied object narrows it, no other types come in
  const merged = schemaToIR({ title: "M", allOf: [{ type: "object" }, { properties: { a: { type: "string" } } }] }, { source: "m.schema.json" });
  assert.equal(merged.root.kind, "object");
  const m = interpret(merged, buildDictionary(merged));
  assert.throws(() => m.encode(1), (e: any) => e.code === "INVALID_VALUE");
});
