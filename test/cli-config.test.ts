// The CLI's front door: --help on every subcommand, the JSONC config (comments, trailing commas, line and
// column, "did you mean"), the README's config example, globs that match nothing, and every failing input
// reported in one run.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "toon-gen/runtime";
import { loadConfig } from "../generator/cli/config.ts";
import { closest, editDistance } from "../generator/cli/suggest.ts";
import { listFiles, ROOT, tempDir, toonGen } from "./support/cli.ts";

const SCHEMA = { title: "Note", type: "object", additionalProperties: false, required: ["id"], properties: { id: { type: "string" }, text: { type: "string" } } };

function project(config: string, schemas: Record<string, string> = { "note.schema.json": JSON.stringify(SCHEMA) }): string {
  const d = tempDir();
  writeFileSync(path.join(d, "toon.config.json"), config);
  mkdirSync(path.join(d, "schemas"));
  for (const [f, text] of Object.entries(schemas)) writeFileSync(path.join(d, "schemas", f), text);
  return d;
}

const COMMANDS = ["generate", "check", "encode", "decode", "stats", "inspect"];

describe("toon-gen CLI: help and config", { concurrency: true }, () => {
  test("--help on every subcommand prints its usage and exits 0; help <cmd> prints the same", async () => {
    const d = tempDir();
    const runs = await Promise.all(COMMANDS.flatMap((c) => [toonGen([c, "--help"], d), toonGen(["help", c], d)]));
    COMMANDS.forEach((c, i) => {
      const [flag, help] = [runs[2 * i]!, runs[2 * i + 1]!];
      assert.equal(flag.code, 0, `${c} --help: ${flag.stderr}`);
      assert.equal(flag.stderr, "");
      const usage = flag.stdout.toString();
      assert.match(usage, new RegExp(`^Usage:\\n  toon-gen ${c === "generate" ? "\\[generate\\]" : c} `), `${c} --help`);
      // only this command's usage, not the overview
      for (const other of COMMANDS.filter((o) => o !== c && o !== "generate")) assert.ok(!usage.includes(`  toon-gen ${other} `), `${c} --help shows ${other}`);
      assert.equal(help.code, 0, help.stderr);
      assert.equal(help.stdout.toString(), usage, `help ${c} equals ${c} --help`);
    });
    // --help wins over arguments the command would refuse
    const withJunk = await toonGen(["encode", "--bogus", "--help"], d);
    assert.equal(withJunk.code, 0, withJunk.stderr);
    assert.match(withJunk.stdout.toString(), /^Usage:\n  toon-gen encode /);
  });

  test("help of an unknown command is a usage error with a suggestion", async () => {
    const d = tempDir();
    const [help, typo] = await Promise.all([toonGen(["help", "encdoe"], d), toonGen(["genrate"], d)]);
    for (const r of [help, typo]) {
      assert.equal(r.code, 2);
      assert.equal(r.stdout.length, 0);
    }
    assert.match(help.stderr, /unknown command "encdoe" \(did you mean encode\?\)/);
    assert.match(typo.stderr, /unknown command "genrate" \(did you mean generate\?\)/);
  });

  test("the config accepts comments and trailing commas", async () => {
    const d = project(`// the project config
{
  /* inputs */ "inputs": ["schemas/*.schema.json",],
  "outDir": "gen", // generated modules
  "dictionaryDir": "dictionaries",
}
`);
    const r = await toonGen(["generate"], d);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout.toString(), /^toon-gen: 1 schema read, 4 files written/);
    assert.deepEqual(listFiles(d).filter((f) => f.startsWith("gen/")), ["gen/index.ts", "gen/note.ts", "gen/note.validate.ts"]);
  });

  test("a config syntax error names its line and column; an unknown key names the nearest known one", async () => {
    const broken = project(`{\n  "inputs": ["schemas/*.schema.json"]\n  "outDir": "gen"\n}\n`);
    const typo = project(`{ "inputs": ["schemas/*.schema.json"], "outdir": "gen", "dictionaryDir": "d" }`);
    const far = project(`{ "inputs": ["schemas/*.schema.json"], "outDir": "gen", "zzzzzz": 1 }`);
    const [a, b, c] = await Promise.all([toonGen([], broken), toonGen([], typo), toonGen([], far)]);
    assert.equal(a.code, 2);
    assert.match(a.stderr, /^toon-gen: CONFIG_ERROR: .*toon\.config\.json: not valid JSON \(comma expected\) \(line 3, column 3\)\n$/);
    assert.equal(b.code, 2);
    assert.match(b.stderr, /unknown key "outdir" \(did you mean "outDir"\?\)/);
    assert.equal(c.code, 2);
    assert.match(c.stderr, /unknown key "zzzzzz" \(known: /);
    assert.doesNotMatch(c.stderr, /did you mean/);
    for (const d of [broken, typo, far]) assert.ok(!listFiles(d).some((f) => f.startsWith("gen/")), "nothing generated");
  });

  test("the README's config example loads as written", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const blocks = [...readme.matchAll(/```jsonc\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => b.includes('"inputs"'));
    assert.ok(blocks.length > 0, "README has a jsonc config example");
    for (const text of blocks) {
      const d = tempDir();
      writeFileSync(path.join(d, "toon.config.json"), text);
      const { config } = loadConfig(undefined, d);
      assert.ok(config.inputs.length > 0);
      assert.equal(typeof config.outDir, "string");
      // every key the example shows survives (none is silently dropped)
      for (const key of [...text.matchAll(/^\s*"(\w+)":/gm)].map((m) => m[1]!)) assert.ok(key in config, `README config key ${key} was not loaded`);
    }
  });

  test("a glob or path that matches nothing is an error naming it, and nothing is written", async () => {
    const d = project(`{ "inputs": ["schemas/*.schema.json", "schema/*.json", "tools.json"], "outDir": "gen", "dictionaryDir": "dictionaries" }`);
    const r = await toonGen(["generate"], d);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^toon-gen: IO_ERROR: inputs "schema\/\*\.json", "tools\.json" match no file/);
    assert.equal(r.stdout.length, 0);
    assert.deepEqual(listFiles(d), ["schemas/note.schema.json", "toon.config.json"]);
  });

  test("every failing input is reported in one run, JSON errors with line and column, and nothing is written", async () => {
    const d = project(`{ "inputs": ["schemas/*.json"], "outDir": "gen", "dictionaryDir": "dictionaries" }`, {
      "a-good.schema.json": JSON.stringify(SCHEMA),
      "b-syntax.schema.json": '{\n  "type": "object",\n  "properties": {\n    "x": { "type": "string" },\n  }\n}\n',
      "c-bad.schema.json": JSON.stringify({ type: "object", properties: { x: { $ref: "#/$defs/missing" } } }),
      "d-empty.json": "",
    });
    const r = await toonGen(["generate"], d);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout.length, 0);
    const lines = r.stderr.trimEnd().split("\n");
    assert.match(lines[0]!, /^toon-gen: SCHEMA_ERROR: 3 of 4 inputs failed; nothing was written$/);
    assert.match(r.stderr, /\n {2}schemas\/b-syntax\.schema\.json: SCHEMA_ERROR: not valid JSON \(property name expected\) \(line 5, column 3\)\n/);
    assert.match(r.stderr, /\n {2}schemas\/c-bad\.schema\.json: SCHEMA_ERROR: \$ref "#\/\$defs\/missing" does not resolve .* at \/properties\/x\n/);
    assert.match(r.stderr, /\n {2}schemas\/d-empty\.json: SCHEMA_ERROR: not valid JSON \(value expected\) \(line 1, column 1\)\n/);
    assert.doesNotMatch(r.stderr, /a-good/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    assert.ok(!listFiles(d).some((f) => f.startsWith("gen/") || f.startsWith("dictionaries/")), "nothing written");
  });
});

test("editDistance and closest", () => {
  assert.equal(editDistance("outdir", "outDir"), 0);
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(closest("dictionaryDirs", ["inputs", "outDir", "dictionaryDir"]), "dictionaryDir");
  assert.equal(closest("sample", ["samples", "index"]), "samples");
  assert.equal(closest("zzzzzz", ["samples", "index"]), undefined);
  assert.throws(() => loadConfig("nope.json", tempDir()), (e: unknown) => e instanceof ToonError && e.code === "CONFIG_ERROR");
});
