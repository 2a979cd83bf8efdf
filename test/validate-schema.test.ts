/**
 * `validate()` is JSON Schema validation of the source schema: `generate` compiles it with ajv's standalone code
 * generation into `<name>.validate.ts`, which the codec module imports. Every violation is listed with a
 * JSON-pointer path, its keyword and a readable message; format checks can be switched off; `fromModelOutput`
 * checks the full schema; remote references come from `refMap`, never the network.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { generate } from "../generator/pipeline.ts";
import { ToonError } from "../runtime/wire/errors.ts";
import { suiteDir } from "./support/gen.ts";

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Account",
  type: "object",
  required: ["id", "email", "kind"],
  additionalProperties: false,
  properties: {
    id: { type: "string", format: "uuid" },
    email: { type: "string", format: "email" },
    kind: { enum: ["person", "company"] },
    vat: { type: "string", minLength: 4 },
    tags: { type: "array", items: { type: "string" }, contains: { const: "vip" } },
    home: { $ref: "https://example.com/schemas/address.json" },
  },
  // keywords the shape IR does not model: the validator enforces them
  if: { properties: { kind: { const: "company" } } },
  then: { required: ["vat"] },
  not: { required: ["nickname"] },
};

const ADDRESS = { $id: "https://example.com/schemas/address.json", type: "object", required: ["city"], properties: { city: { type: "string", minLength: 1 } } };

async function project(): Promise<{ dir: string; mod: Record<string, any> }> {
  const dir = suiteDir("validate-schema");
  mkdirSync(path.join(dir, "schemas"), { recursive: true });
  mkdirSync(path.join(dir, "vendor"), { recursive: true });
  writeFileSync(path.join(dir, "schemas", "account.schema.json"), JSON.stringify(SCHEMA, null, 2));
  writeFileSync(path.join(dir, "vendor", "address.json"), JSON.stringify(ADDRESS));
  const r = await generate(
    { inputs: ["schemas/*.schema.json"], outDir: "gen", dictionaryDir: "dict", refMap: { "https://example.com/schemas/": "./vendor/" } },
    { cwd: dir },
  );
  assert.ok(r.files.some((f) => f.path.endsWith(path.join("gen", "account.validate.ts"))), "the validator module is generated");
  const mod = (await import(pathToFileURL(path.join(dir, "gen", "account.ts")).href)) as Record<string, any>;
  return { dir, mod };
}

const GOOD = { id: "3f2c1a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60", email: "ada@example.com", kind: "person", home: { city: "Paris" } };

test("validate: every violation of the JSON Schema, with path, keyword and a readable message", async () => {
  const { dir, mod } = await project();
  const { AccountValidate } = mod;
  assert.deepEqual(AccountValidate.validate(GOOD), { ok: true, value: GOOD });
  const r = AccountValidate.validate({ id: "nope", email: "x", kind: "company", tags: ["a"], extra: 1, home: { city: "" }, nickname: "n" });
  assert.equal(r.ok, false);
  const got = r.errors.map((e: { path: string; keyword: string }) => `${e.path} ${e.keyword}`);
  for (const want of ["/id format", "/email format", "/vat required", "/tags contains", "/extra additionalProperties", "/home/city minLength", " not"]) {
    assert.ok(got.includes(want), `${want} in ${JSON.stringify(got)}`);
  }
  const uuid = r.errors.find((e: { path: string }) => e.path === "/id");
  assert.equal(uuid.message, 'expected a UUID, got the string "nope"');
  for (const e of r.errors) assert.ok(e.message.length < 160, `a short message: ${e.message}`);
  // no ajv and no absolute path of this machine in the generated validator
  const text = readFileSync(path.join(dir, "gen", "account.validate.ts"), "utf8");
  assert.ok(!/require\(|from "ajv/.test(text), "no ajv at run time");
  assert.ok(!text.includes(pathToFileURL(dir).href), "no absolute path");
});

test("validate: formats can be switched off per call; shape-only with constraints: false", async () => {
  const { mod } = await project();
  const v = { ...GOOD, id: "not-a-uuid" };
  assert.equal(mod.AccountValidate.validate(v).ok, false);
  // the JSON Schema says ok without formats; the codec still checks what it can carry (its uuid field)
  const noFormats = mod.AccountValidate.validate({ ...GOOD, email: "not-an-email" }, { formats: false });
  assert.deepEqual(noFormats, { ok: true, value: { ...GOOD, email: "not-an-email" } });
  const shapeOnly = mod.AccountValidate.validate({ ...GOOD, kind: "company" }, { constraints: false });
  assert.equal(shapeOnly.ok, true, "if/then is a schema constraint, not shape");
  assert.equal(mod.AccountValidate.validate({ ...GOOD, kind: "company" }).ok, false);
});

test("fromModelOutput checks the full JSON Schema, listing every violation", async () => {
  const { mod } = await project();
  const ok = mod.AccountPrompt.fromModelOutput("```json\n" + JSON.stringify(GOOD) + "\n```");
  assert.deepEqual(ok, GOOD);
  assert.throws(
    () => mod.AccountPrompt.fromModelOutput("```json\n" + JSON.stringify({ ...GOOD, kind: "company" }) + "\n```"),
    (e: unknown) => e instanceof ToonError && e.code === "INVALID_VALUE" && e.path === "/vat" && (e.details ?? []).some((d: { path: string }) => d.path === "/vat"),
  );
});

test("an unmapped remote reference is an UNSUPPORTED_SCHEMA error naming refMap, not a fetch", async () => {
  const dir = suiteDir("validate-schema-remote");
  writeFileSync(path.join(dir, "remote.schema.json"), JSON.stringify({ title: "Remote", type: "object", properties: { a: { $ref: "https://example.org/x.json" } } }));
  await assert.rejects(generate({ inputs: ["remote.schema.json"], outDir: "gen", dictionaryDir: "dict" }, { cwd: dir }), (e: unknown) => e instanceof ToonError && e.code === "UNSUPPORTED_SCHEMA" && /refMap/.test(e.message));
});

test("a format with the regex that implements it (as Zod writes z.uuid()): the format's message, not the regex", async () => {
  const dir = suiteDir("validate-zod-format");
  mkdirSync(path.join(dir, "schemas"), { recursive: true });
  const uuid = "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$";
  const schema = { title: "Ev", type: "object", required: ["id"], properties: { id: { type: "string", format: "uuid", pattern: uuid }, code: { type: "string", pattern: "^[A-Z]{3}$" } } };
  writeFileSync(path.join(dir, "schemas", "ev.schema.json"), JSON.stringify(schema));
  await generate({ inputs: ["schemas/*.schema.json"], outDir: "gen", dictionaryDir: "dict" }, { cwd: dir });
  const { Ev } = (await import(pathToFileURL(path.join(dir, "gen", "ev.ts")).href)) as Record<string, any>;
  const r = Ev.validate({ id: "nope", code: "ab" });
  assert.equal(r.ok, false);
  const at = (p: string) => r.errors.filter((e: { path: string }) => e.path === p).map((e: { keyword: string }) => e.keyword);
  assert.deepEqual(at("/id"), ["format"], JSON.stringify(r.errors));
  assert.match(r.errors.find((e: { path: string }) => e.path === "/id").message, /^expected a UUID/);
  assert.deepEqual(at("/code"), ["pattern"], "a pattern with no format stays");
  // with format checks off the regex is all there is: its error stays
  const off = Ev.validate({ id: "nope" }, { formats: false });
  assert.deepEqual(off.errors.map((e: { keyword: string }) => e.keyword), ["pattern"]);
});

test("int64 fields: the bigint decode returns beyond 2^53 is a JSON number to the schema", async () => {
  const dir = suiteDir("validate-int64");
  mkdirSync(path.join(dir, "schemas"), { recursive: true });
  const schema = { title: "Big", type: "object", required: ["id"], properties: { id: { type: "integer", format: "int64", minimum: 0 }, n: { type: "integer" } } };
  writeFileSync(path.join(dir, "schemas", "big.schema.json"), JSON.stringify(schema));
  await generate({ inputs: ["schemas/*.schema.json"], outDir: "gen", dictionaryDir: "dict" }, { cwd: dir });
  const { Big } = (await import(pathToFileURL(path.join(dir, "gen", "big.ts")).href)) as Record<string, any>;
  const v = { id: 2n ** 60n };
  assert.equal(Big.validate(v).ok, true);
  assert.equal(Big.validate(Big.decode(Big.encode(v))).ok, true, "what decode returns validates");
  assert.deepEqual(Big.validate({ id: -1n }).errors.map((e: { keyword: string }) => e.keyword), ["minimum"]);
  // a bigint where the schema has no int64 is still refused (by the shape check)
  const r = Big.validate({ id: 1, n: 5n });
  assert.equal(r.ok, false);
  assert.equal(r.errors[0].path, "/n");
});

test("a $schema spelling the draft's meta-schema another way (https, no #) compiles: ajv is handed its own id", async () => {
  const { compileValidator, instantiateValidator } = await import("../generator/validate/index.ts");
  for (const [draft, uri] of [[7, "https://json-schema.org/draft-07/schema#"], [7, "http://json-schema.org/draft-07/schema"], [4, "https://json-schema.org/draft-04/schema"], [2020, "http://json-schema.org/draft/2020-12/schema#"]] as const) {
    const compiled = await compileValidator({ document: { $schema: uri, type: "string", minLength: 2 }, pointer: "", draft, baseUri: "file:///x/s.json", load: () => ({}) });
    const validate = instantiateValidator(compiled);
    assert.equal(validate("ab"), true, uri);
    assert.equal(validate("a"), false, uri);
  }
});
