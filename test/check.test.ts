/**
 * `toon-gen check` and the evolution rules: each safe schema change regenerates cleanly and then checks clean;
 * each breaking one is refused by `generate` (nothing written) and reported by `check` with its rule.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ToonError } from "toon-gen/runtime";
import { generate } from "../generator/pipeline.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WORK = path.join(ROOT, "test", ".gen", "check");
const CONFIG = { inputs: ["schemas/*.schema.json"], outDir: "gen", dictionaryDir: "dictionaries" };

type Schema = Record<string, unknown>;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const BASE: Schema = {
  title: "Ticket",
  type: "object",
  additionalProperties: false,
  required: ["id", "state", "kind", "lines"],
  properties: {
    id: { type: "string" },
    state: { enum: ["open", "closed", "waiting"] },
    kind: { const: "ticket" },
    count: { type: "integer" },
    note: { type: "string" },
    lines: { type: "array", items: { type: "object", additionalProperties: false, required: ["text"], properties: { text: { type: "string" } } } },
    actor: {
      oneOf: [
        { type: "object", additionalProperties: false, required: ["type", "name"], properties: { type: { const: "user" }, name: { type: "string" } } },
        { type: "object", additionalProperties: false, required: ["type"], properties: { type: { const: "bot" } } },
      ],
    },
  },
};

/** A fresh project with BASE generated (dictionary committed), in its own folder. */
async function project(name: string): Promise<string> {
  const dir = path.join(WORK, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "schemas"), { recursive: true });
  writeFileSync(path.join(dir, "schemas", "ticket.schema.json"), JSON.stringify(BASE, null, 2));
  await generate(CONFIG, { cwd: dir });
  return dir;
}

function rewrite(dir: string, edit: (s: Schema & { properties: Record<string, Schema>; required: string[] }) => void): void {
  const s = clone(BASE) as Schema & { properties: Record<string, Schema>; required: string[] };
  edit(s);
  writeFileSync(path.join(dir, "schemas", "ticket.schema.json"), JSON.stringify(s, null, 2));
}

const SAFE: Record<string, (s: Schema & { properties: Record<string, Schema>; required: string[] }) => void> = {
  "new optional property": (s) => void (s.properties.priority = { type: "integer" }),
  "a format that does not change the wire (email)": (s) => void (s.properties.note = { type: "string", format: "email" }),
  "new optional property inside array items": (s) => void ((s.properties.lines as { items: { properties: Record<string, unknown> } }).items.properties.lang = { type: "string" }),
  "new enum value at the end": (s) => void (s.properties.state = { enum: ["open", "closed", "waiting", "pending"] }),
  "new union branch": (s) =>
    void (s.properties.actor as { oneOf: unknown[] }).oneOf.push({
      type: "object",
      additionalProperties: false,
      required: ["type", "team"],
      properties: { type: { const: "team" }, team: { type: "string" } },
    }),
  "new required property with a default": (s) => {
    s.properties.source = { enum: ["email", "web"], default: "web" };
    s.required.push("source");
  },
  "optional property removed (retired)": (s) => void delete s.properties.note,
};

for (const [what, edit] of Object.entries(SAFE)) {
  test(`check: safe change passes: ${what}`, async () => {
    const dir = await project("safe-" + what.replace(/\W+/g, "-"));
    rewrite(dir, edit);
    const dry = await generate(CONFIG, { cwd: dir, dryRun: true });
    assert.deepStrictEqual(dry.findings.filter((f) => f.breaking), []);
    await generate(CONFIG, { cwd: dir });
    const after = await generate(CONFIG, { cwd: dir, dryRun: true });
    assert.equal(after.files.filter((f) => f.changed).length, 0, "check after regenerating: nothing stale");
    assert.equal(after.findings.length, 0);
  });
}

const BREAKING: Record<string, { rule: string; edit: (s: Schema & { properties: Record<string, Schema>; required: string[] }) => void }> = {
  "required property removed": { rule: "required-removed", edit: (s) => ((s.required = s.required.filter((r) => r !== "id")), delete s.properties.id) },
  "required property renamed": {
    rule: "required-removed",
    edit: (s) => {
      s.properties.ident = s.properties.id!;
      delete s.properties.id;
      s.required = s.required.map((r) => (r === "id" ? "ident" : r));
    },
  },
  "new required property without a default": { rule: "required-added", edit: (s) => ((s.properties.owner = { type: "string" }), s.required.push("owner")) },
  "type changed": { rule: "type-changed", edit: (s) => void (s.properties.id = { type: "integer" }) },
  "integer widened to number (not wire-compatible here)": { rule: "type-changed", edit: (s) => void (s.properties.count = { type: "number" }) },
  // a uuid travels as 16 raw bytes, a plain string as UTF-8: the committed layout cannot silently change
  "plain string given format uuid": { rule: "type-changed", edit: (s) => void (s.properties.id = { type: "string", format: "uuid" }) },
  "enum value removed": { rule: "enum-changed", edit: (s) => void (s.properties.state = { enum: ["open", "waiting"] }) },
  "enum values reordered": { rule: "enum-changed", edit: (s) => void (s.properties.state = { enum: ["closed", "open", "waiting"] }) },
  "const changed": { rule: "const-changed", edit: (s) => void (s.properties.kind = { const: "issue" }) },
  "optional became required": { rule: "required-changed", edit: (s) => void s.required.push("note") },
  "union branch removed": { rule: "branch-removed", edit: (s) => void (s.properties.actor as { oneOf: unknown[] }).oneOf.pop() },
};

for (const [what, { rule, edit }] of Object.entries(BREAKING)) {
  test(`check: breaking change fails with ${rule}: ${what}`, async () => {
    const dir = await project("breaking-" + what.replace(/\W+/g, "-"));
    const dictFile = path.join(dir, "dictionaries", "ticket.dictionary.json");
    const before = readFileSync(dictFile, "utf8");
    rewrite(dir, edit);
    const dry = await generate(CONFIG, { cwd: dir, dryRun: true });
    assert.ok(
      dry.findings.some((f) => f.breaking && f.rule === rule),
      `expected rule ${rule}, got ${JSON.stringify(dry.findings.map((f) => f.rule))}`,
    );
    await assert.rejects(generate(CONFIG, { cwd: dir }), (e: unknown) => e instanceof ToonError && e.code === "SCHEMA_ERROR" && (e.details ?? []).some((d) => d.message.includes(`[${rule}]`)));
    assert.equal(readFileSync(dictFile, "utf8"), before, "a refused generate writes nothing");
    // the explicit breaking release
    const rebased = await generate(CONFIG, { cwd: dir, rebase: ["Ticket"] });
    assert.equal(rebased.findings.length, 0);
    assert.notEqual(JSON.parse(readFileSync(dictFile, "utf8")).base.fingerprint, JSON.parse(before).base.fingerprint);
  });
}

test("check: hand edits to the dictionary are caught (base edited, retired ID reused)", async () => {
  const dir = await project("hand-edit");
  const dictFile = path.join(dir, "dictionaries", "ticket.dictionary.json");
  const original = readFileSync(dictFile, "utf8");
  const edited = original.replace('{"id":1,"path":"id","type":"string",', '{"id":1,"path":"id","type":"integer",');
  assert.notEqual(edited, original, "the edit applies");
  writeFileSync(dictFile, edited);
  let dry = await generate(CONFIG, { cwd: dir, dryRun: true });
  assert.ok(dry.findings.some((f) => f.rule === "base-edited"), JSON.stringify(dry.findings.map((f) => f.rule)));
  const d = JSON.parse(original);
  d.retired = [{ id: 1, path: "old", retiredAt: 0 }];
  writeFileSync(dictFile, JSON.stringify(d));
  dry = await generate(CONFIG, { cwd: dir, dryRun: true });
  assert.ok(dry.findings.some((f) => f.rule === "retired-reused"), JSON.stringify(dry.findings.map((f) => f.rule)));
});

test("check: the real CLI exits non-zero with one line per finding, and --json for machines", async () => {
  const dir = await project("cli");
  writeFileSync(path.join(dir, "toon.config.json"), JSON.stringify(CONFIG));
  const run = (...args: string[]) => spawnSync(process.execPath, ["--conditions=toon-dev", "--import", "tsx", path.join(ROOT, "generator/cli/main.ts"), ...args], { cwd: dir, encoding: "utf8" });
  let r = run("check");
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /up to date/);
  rewrite(dir, BREAKING["type changed"]!.edit);
  r = run("check");
  assert.equal(r.status, 1);
  assert.match(r.stdout, /schemas\/ticket\.schema\.json: id: \[type-changed\] .*\(fix: /);
  r = run("check", "--json");
  assert.equal(r.status, 1);
  const json = JSON.parse(r.stdout) as { ok: boolean; findings: { rule: string; path: string }[] };
  assert.equal(json.ok, false);
  assert.deepStrictEqual(json.findings.map((f) => [f.rule, f.path]), [["type-changed", "id"]]);
  // generate refuses, naming the rule, and --rebase is the way through
  r = run("generate");
  assert.equal(r.status, 1);
  assert.match(r.stderr, /\[type-changed\]/);
  r = run("generate", "--rebase", "Ticket");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(run("check").status, 0);
});

test("generate: two dictionaries with the same 16-bit fingerprint are reported as a warning", async () => {
  const { initHash } = await import("../generator/dictionary/hash.ts");
  const { schemaToIR } = await import("../generator/load/index.ts");
  const { buildDictionary } = await import("../generator/dictionary/file.ts");
  await initHash();
  // search one-property schemas for a 16-bit collision (birthday bound: ~300 tries on average)
  const seen = new Map<number, string>();
  let pair: [string, string] | undefined;
  for (let i = 0; i < 5000 && !pair; i++) {
    const prop = `field${i}`;
    const fp = buildDictionary(schemaToIR({ type: "object", properties: { [prop]: { type: "string" } } }, { source: "x.json" })).base.fingerprint;
    const other = seen.get(fp);
    if (other !== undefined) pair = [other, prop];
    seen.set(fp, prop);
  }
  assert.ok(pair, "a collision exists within 5000 tries");
  const dir = path.join(WORK, "collision");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "schemas"), { recursive: true });
  pair.forEach((prop, i) => writeFileSync(path.join(dir, "schemas", `s${i}.schema.json`), JSON.stringify({ title: `S${i}`, type: "object", properties: { [prop]: { type: "string" } } })));
  writeFileSync(path.join(dir, "schemas", "s2.schema.json"), JSON.stringify({ title: "S2", type: "object", properties: { [pair[0]]: { type: "string" } } }));
  const result = await generate(CONFIG, { cwd: dir });
  assert.ok(result.warnings.some((w) => /S1 and S0 have the same 16-bit fingerprint/.test(w)), JSON.stringify(result.warnings));
  assert.ok(result.warnings.some((w) => /S2 and S\d have identical dictionaries/.test(w)), JSON.stringify(result.warnings));
});

test("generate: one warning line per set of identical dictionaries, none for codecs of empty objects", async () => {
  const dir = path.join(WORK, "identical");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "schemas"), { recursive: true });
  for (let i = 0; i < 4; i++) writeFileSync(path.join(dir, "schemas", `t${i}.schema.json`), JSON.stringify({ title: `T${i}`, type: "object", properties: { same: { type: "string" } } }));
  for (let i = 0; i < 3; i++) writeFileSync(path.join(dir, "schemas", `e${i}.schema.json`), JSON.stringify({ title: `E${i}`, type: "object", properties: {} }));
  const result = await generate(CONFIG, { cwd: dir });
  const identical = result.warnings.filter((w) => /identical dictionaries/.test(w));
  assert.equal(identical.length, 1, JSON.stringify(result.warnings));
  assert.match(identical[0]!, /^T3, T2, T1 and T0 have identical dictionaries/);
  assert.ok(!result.warnings.some((w) => /\bE\d\b/.test(w)), JSON.stringify(result.warnings));
});

test("check: reordering properties is safe: the committed layout keeps the old wire order", async () => {
  const dir = await project("reorder");
  const { pathToFileURL } = await import("node:url");
  const oldCodec = (await import(pathToFileURL(path.join(dir, "gen", "ticket.ts")).href + "?v1")).Ticket as { encode(v: unknown): Uint8Array; decode(b: Uint8Array): unknown; fingerprint: number };
  rewrite(dir, (s) => {
    const entries = Object.entries(s.properties).reverse();
    s.properties = Object.fromEntries(entries);
  });
  const result = await generate(CONFIG, { cwd: dir });
  assert.equal(result.findings.length, 0);
  const newCodec = (await import(pathToFileURL(path.join(dir, "gen", "ticket.ts")).href + "?v2")).Ticket as typeof oldCodec;
  assert.equal(newCodec.fingerprint, oldCodec.fingerprint);
  const value = { id: "T-1", state: "open", kind: "ticket", count: 3, note: "n", lines: [{ text: "a" }], actor: { type: "user", name: "u" } };
  assert.deepStrictEqual(oldCodec.decode(newCodec.encode(value)), value);
  assert.deepStrictEqual(newCodec.decode(oldCodec.encode(value)), value);
  assert.deepStrictEqual(Object.keys(newCodec.decode(oldCodec.encode(value)) as object), Object.keys(value).reverse(), "keys in the new schema order");
});

test("check: adding a tuple position is breaking (tuple-changed)", async () => {
  const dir = path.join(WORK, "tuple");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "schemas"), { recursive: true });
  const schema = (n: number) => ({ title: "Pt", type: "object", properties: { p: { type: "array", prefixItems: Array.from({ length: n }, () => ({ type: "number" })), items: { type: "string" } } } });
  writeFileSync(path.join(dir, "schemas", "pt.schema.json"), JSON.stringify(schema(2)));
  await generate(CONFIG, { cwd: dir });
  writeFileSync(path.join(dir, "schemas", "pt.schema.json"), JSON.stringify(schema(3)));
  const dry = await generate(CONFIG, { cwd: dir, dryRun: true });
  assert.ok(dry.findings.some((f) => f.rule === "tuple-changed" && f.breaking), JSON.stringify(dry.findings));
});

test("check: editing only the 16-bit fingerprint in the file is caught, and --rebase of an unknown codec is an error", async () => {
  const dir = await project("fp-edit");
  const dictFile = path.join(dir, "dictionaries", "ticket.dictionary.json");
  const d = JSON.parse(readFileSync(dictFile, "utf8"));
  d.base.fingerprint = "0x0001";
  writeFileSync(dictFile, JSON.stringify(d));
  const dry = await generate(CONFIG, { cwd: dir, dryRun: true });
  assert.ok(dry.findings.some((f) => f.rule === "base-edited"), JSON.stringify(dry.findings.map((f) => f.rule)));
  const clean = await project("rebase-unknown");
  await assert.rejects(generate(CONFIG, { cwd: clean, rebase: ["NoSuchCodec"] }), (e: unknown) => e instanceof ToonError && e.code === "CONFIG_ERROR" && /NoSuchCodec/.test(e.message));
});

test("check --json: a safe change not yet generated is stale (not breaking); a breaking one is breaking", async () => {
  const dir = await project("kinds");
  writeFileSync(path.join(dir, "toon.config.json"), JSON.stringify(CONFIG));
  const run = (...args: string[]) => spawnSync(process.execPath, ["--conditions=toon-dev", "--import", "tsx", path.join(ROOT, "generator/cli/main.ts"), ...args], { cwd: dir, encoding: "utf8" });
  type Report = { ok: boolean; findings: { file: string; rule: string; kind: string; breaking: boolean }[] };
  rewrite(dir, SAFE["new optional property"]!);
  let r = run("check", "--json");
  assert.equal(r.status, 1, r.stderr);
  let json = JSON.parse(r.stdout) as Report;
  assert.equal(json.ok, false);
  assert.deepStrictEqual(
    json.findings.map((f) => [f.kind, f.rule, f.file, f.breaking]),
    [
      ["stale", "stale", "gen/ticket.validate.ts", false],
      ["stale", "stale", "gen/ticket.ts", false],
      ["stale", "stale", "dictionaries/ticket.dictionary.json", false],
    ],
  );
  r = run("check");
  assert.match(r.stdout, /\(0 breaking, 3 stale, 0 orphan\)\n$/);
  rewrite(dir, BREAKING["type changed"]!.edit);
  json = JSON.parse(run("check", "--json").stdout) as Report;
  assert.deepStrictEqual(json.findings.map((f) => [f.kind, f.rule, f.breaking]), [["breaking", "type-changed", true]]);
});
