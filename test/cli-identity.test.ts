// Dictionaries that survive refactors: renaming or moving a schema file keeps its codec's dictionary (IDs,
// extension segments, fingerprint); what the old name left behind is reported by `check` as an orphan and
// removed by `generate --prune`.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { generate } from "../generator/pipeline.ts";
import { listFiles, tempDir, toonGen } from "./support/cli.ts";

const CONFIG = { inputs: ["schemas/**/*.schema.json"], outDir: "gen", dictionaryDir: "dictionaries" };
const TOOL_CONFIG = { inputs: ["tools/*.json"], outDir: "gen", dictionaryDir: "dictionaries" };

const invoice = (extra: boolean, title = true): object => ({
  ...(title ? { title: "Invoice" } : {}),
  type: "object",
  additionalProperties: false,
  required: ["id", "total"],
  properties: { id: { type: "string" }, total: { type: "number" }, ...(extra ? { note: { type: "string" } } : {}) },
});

const tools = (extra: boolean): object => [
  {
    type: "function",
    function: {
      name: "lookup",
      parameters: { type: "object", additionalProperties: false, required: ["q"], properties: { q: { type: "string" }, ...(extra ? { limit: { type: "integer" } } : {}) } },
    },
  },
];

/** A project whose dictionaries have an extension segment (so a fresh dictionary would differ). */
async function evolvedProject(files: Record<string, (extra: boolean) => object>, config = CONFIG): Promise<string> {
  const d = tempDir();
  writeFileSync(path.join(d, "toon.config.json"), JSON.stringify(config));
  mkdirSync(path.join(d, "schemas"));
  mkdirSync(path.join(d, "tools"));
  const write = (extra: boolean): void => {
    for (const [f, make] of Object.entries(files)) writeFileSync(path.join(d, f), JSON.stringify(make(extra), null, 2));
  };
  write(false);
  await generate(config, { cwd: d });
  write(true);
  await generate(config, { cwd: d });
  return d;
}

const read = (d: string, f: string): string => readFileSync(path.join(d, f), "utf8");
const withoutSource = (text: string): unknown => ({ ...JSON.parse(text), source: "", name: "" });
const fingerprintOf = (d: string, f: string): string => (JSON.parse(read(d, f)) as { base: { fingerprint: string } }).base.fingerprint;

describe("dictionary identity", { concurrency: true }, () => {
  test("git mv of a titled schema: same dictionary and fingerprint; check reports the orphans, --prune removes them", async () => {
    const d = await evolvedProject({ "schemas/invoice.schema.json": (x) => invoice(x) });
    const before = read(d, "dictionaries/invoice.dictionary.json");
    assert.equal((JSON.parse(before) as { extensions: unknown[] }).extensions.length, 1, "the dictionary evolved");
    mkdirSync(path.join(d, "schemas", "billing"));
    renameSync(path.join(d, "schemas/invoice.schema.json"), path.join(d, "schemas/billing/bill.schema.json"));

    // before regenerating: check sees the missing new files (stale) and the old ones (orphans), nothing breaking
    const check = await toonGen(["check", "--json"], d);
    assert.equal(check.code, 1, check.stderr);
    const report = JSON.parse(check.stdout.toString()) as { ok: boolean; findings: { file: string; kind: string; rule: string; breaking: boolean }[] };
    assert.equal(report.ok, false);
    const kinds = report.findings.map((f) => `${f.kind} ${f.file}`).sort();
    assert.deepEqual(kinds, [
      "orphan dictionaries/invoice.dictionary.json",
      "orphan gen/invoice.ts",
      "orphan gen/invoice.validate.ts",
      "stale dictionaries/bill.dictionary.json",
      "stale gen/bill.ts",
      "stale gen/bill.validate.ts",
      "stale gen/index.ts",
      "warning dictionaries/bill.dictionary.json",
    ]);
    assert.ok(report.findings.every((f) => !f.breaking));

    const gen = await toonGen(["generate"], d);
    assert.equal(gen.code, 0, gen.stderr);
    assert.match(gen.stderr, /dictionaries\/bill\.dictionary\.json: takes over dictionaries\/invoice\.dictionary\.json .*fingerprint 0x[0-9a-f]{4} kept/);
    assert.match(gen.stderr, /warning: 3 orphaned files no input generates any more: dictionaries\/invoice\.dictionary\.json, gen\/invoice\.ts, gen\/invoice\.validate\.ts \(toon-gen generate --prune deletes them\)/);
    const after = read(d, "dictionaries/bill.dictionary.json");
    assert.deepEqual(withoutSource(after), withoutSource(before), "the same IDs, segments and fingerprints");
    assert.equal(JSON.parse(after).source, "schemas/billing/bill.schema.json");
    assert.equal(fingerprintOf(d, "dictionaries/bill.dictionary.json"), fingerprintOf(d, "dictionaries/invoice.dictionary.json"));
    assert.match(read(d, "gen/bill.ts"), new RegExp(`fingerprint ${fingerprintOf(d, "dictionaries/bill.dictionary.json")}`));

    const orphans = await toonGen(["check"], d);
    assert.equal(orphans.code, 1);
    assert.match(orphans.stdout.toString(), /^gen\/invoice\.ts: \[orphan\] .*\(fix: run toon-gen generate --prune/m);
    assert.match(orphans.stdout.toString(), /^dictionaries\/invoice\.dictionary\.json: \[orphan\] /m);
    assert.match(orphans.stdout.toString(), /\(0 breaking, 0 stale, 3 orphan\)\n$/);

    const prune = await toonGen(["generate", "--prune"], d);
    assert.equal(prune.code, 0, prune.stderr);
    assert.match(prune.stderr, /pruned 3 orphaned files: dictionaries\/invoice\.dictionary\.json, gen\/invoice\.ts, gen\/invoice\.validate\.ts/);
    assert.deepEqual(listFiles(d).filter((f) => !f.startsWith("schemas/")), ["dictionaries/bill.dictionary.json", "gen/bill.ts", "gen/bill.validate.ts", "gen/index.ts", "toon.config.json"]);
    const clean = await toonGen(["check"], d);
    assert.equal(clean.code, 0, clean.stdout.toString());
  });

  test("an untitled schema (codec named from the file) renamed without edits keeps its dictionary", async () => {
    const d = await evolvedProject({ "schemas/invoice.schema.json": (x) => invoice(x, false) });
    const before = read(d, "dictionaries/invoice.dictionary.json");
    renameSync(path.join(d, "schemas/invoice.schema.json"), path.join(d, "schemas/bill.schema.json"));
    const r = await generate(CONFIG, { cwd: d, prune: true });
    assert.deepEqual(r.renamed.map((x) => [x.from, x.to]), [["dictionaries/invoice.dictionary.json", "dictionaries/bill.dictionary.json"]]);
    assert.equal(r.pruned, 3); // the old module, its validator and its dictionary
    const after = read(d, "dictionaries/bill.dictionary.json");
    assert.deepEqual(withoutSource(after), withoutSource(before));
    assert.equal(JSON.parse(after).name, "Bill");
  });

  test("an untitled schema renamed and edited is a new codec (nothing to match it by): a fresh dictionary", async () => {
    const d = await evolvedProject({ "schemas/invoice.schema.json": (x) => invoice(x, false) });
    renameSync(path.join(d, "schemas/invoice.schema.json"), path.join(d, "schemas/bill.schema.json"));
    writeFileSync(path.join(d, "schemas/bill.schema.json"), JSON.stringify({ ...invoice(true, false), properties: { id: { type: "string" } }, required: ["id"] }));
    const r = await generate(CONFIG, { cwd: d });
    assert.deepEqual(r.renamed, []);
    assert.equal((JSON.parse(read(d, "dictionaries/bill.dictionary.json")) as { extensions: unknown[] }).extensions.length, 0);
    assert.equal(r.orphans.length, 3);
  });

  test("a renamed tool file keeps every dictionary of its tool set", async () => {
    const d = await evolvedProject({ "tools/search.json": tools }, TOOL_CONFIG);
    const files = listFiles(path.join(d, "dictionaries"));
    assert.deepEqual(files, ["search.dictionary.json", "search/args/lookup.dictionary.json", "search/batch.dictionary.json"]);
    const before = files.map((f) => withoutSource(read(d, path.join("dictionaries", f))));
    renameSync(path.join(d, "tools/search.json"), path.join(d, "tools/finder.json"));
    const r = await generate(TOOL_CONFIG, { cwd: d, prune: true });
    assert.equal(r.renamed.length, 3, JSON.stringify(r.renamed));
    const now = listFiles(path.join(d, "dictionaries"));
    assert.deepEqual(now, ["finder.dictionary.json", "finder/args/lookup.dictionary.json", "finder/batch.dictionary.json"]);
    assert.deepEqual(now.map((f) => withoutSource(read(d, path.join("dictionaries", f)))), before);
    assert.ok(!listFiles(path.join(d, "gen")).some((f) => f.startsWith("search")), "the old modules were pruned");
  });

  test("a hand-written file in outDir is never an orphan", async () => {
    const d = await evolvedProject({ "schemas/invoice.schema.json": (x) => invoice(x) });
    writeFileSync(path.join(d, "gen", "helpers.ts"), "export const x = 1;\n");
    const r = await generate(CONFIG, { cwd: d, dryRun: true });
    assert.deepEqual(r.orphans, []);
  });
});
