/**
 * `Codec.validate`: the shape (what the codec can carry) and then the schema's value constraints, every
 * violation listed with its JSON-pointer path; checked against ajv's verdict on the same values.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { compileSchema, suiteDir } from "./support/gen.ts";

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Signup",
  type: "object",
  additionalProperties: false,
  required: ["user", "age", "tags"],
  properties: {
    user: { type: "string", minLength: 3, maxLength: 12, pattern: "^[a-z][a-z0-9_]*$" },
    age: { type: "integer", minimum: 13, maximum: 130 },
    score: { type: "number", exclusiveMinimum: 0, multipleOf: 0.5 },
    tags: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1, maxItems: 3, uniqueItems: true },
    profile: { type: "object", additionalProperties: { type: "string" }, maxProperties: 2 },
  },
};

test("validate lists every constraint violation with its path, and agrees with ajv", async () => {
  const { codec } = await compileSchema(SCHEMA, suiteDir("validate"), "signup");
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const check = ajv.compile(SCHEMA);
  const valid = { user: "ada_99", age: 36, score: 7.5, tags: ["math"], profile: { lang: "en" } };
  assert.deepStrictEqual(codec.validate(valid), { ok: true, value: valid });
  const bad = { user: "Ada!", age: 7, score: 0.3, tags: ["", "x", "x", "y"], profile: { a: "1", b: "2", c: "3" } };
  const result = codec.validate(bad);
  assert.equal(result.ok, false);
  const paths = new Set((result as { errors: { path: string }[] }).errors.map((e) => e.path));
  for (const p of ["/user", "/age", "/score", "/tags", "/tags/0", "/profile"]) assert.ok(paths.has(p), `a finding at ${p}: ${JSON.stringify([...paths])}`);
  // same verdict as ajv on a spread of values
  const cases: unknown[] = [valid, bad, { ...valid, user: "ab" }, { ...valid, user: "abcdefghijklm" }, { ...valid, age: 130 }, { ...valid, age: 131 },
    { ...valid, score: 0 }, { ...valid, score: 1.25 }, { ...valid, tags: [] }, { ...valid, tags: ["a", "a"] }, { ...valid, profile: {} }];
  const { interpret } = await import("../generator/interpret/index.ts");
  const { buildDictionary } = await import("../generator/dictionary/file.ts");
  const { schemaToIR } = await import("../generator/load/index.ts");
  const ir = schemaToIR(SCHEMA, { source: "signup.schema.json" });
  const twin = interpret(ir, buildDictionary(ir));
  for (const v of [...cases, { ...valid, age: "36" }]) {
    assert.equal(codec.validate(v).ok, check(v), JSON.stringify(v));
    assert.deepStrictEqual(twin.validate(v), codec.validate(v), "interpreter = generated");
  }
  // shape errors still come first, from the codec itself
  const shape = codec.validate({ ...valid, age: "36" });
  assert.equal(shape.ok, false);
  assert.equal((shape as { errors: { path: string }[] }).errors[0]!.path, "/age");
});

test("a schema without value constraints embeds no constraint tables", async () => {
  const { file } = await compileSchema({ title: "Plain", type: "object", properties: { a: { type: "string" } } }, suiteDir("validate-plain"), "plain");
  assert.equal(readFileSync(file, "utf8").includes("$rt.checkShape"), false);
});
