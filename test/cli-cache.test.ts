// The run cache and --watch: an unchanged rerun does no generation (and says so); any change to an input,
// the config or an output is a full run; --watch regenerates when a schema changes.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { generate } from "../generator/pipeline.ts";
import { startToonGen, tempDir, toonGen } from "./support/cli.ts";

const schema = (props: string[]): object => ({ title: "Note", type: "object", properties: Object.fromEntries(props.map((p) => [p, { type: "string" }])) });

function project(): { dir: string; cache: string } {
  const dir = tempDir();
  const cache = path.join(dir, ".cache");
  writeFileSync(path.join(dir, "toon.config.json"), JSON.stringify({ inputs: ["schemas/*.schema.json"], outDir: "gen", dictionaryDir: "dictionaries" }));
  mkdirSync(path.join(dir, "schemas"));
  writeFileSync(path.join(dir, "schemas", "note.schema.json"), JSON.stringify(schema(["id"])));
  return { dir, cache };
}
const CONFIG = { inputs: ["schemas/*.schema.json"], outDir: "gen", dictionaryDir: "dictionaries" };

describe("run cache and watch", { concurrency: true }, () => {
  test("an unchanged rerun is answered from the cache; edits, deleted outputs and other options are full runs", async () => {
    const { dir, cache } = project();
    const first = await generate(CONFIG, { cwd: dir, cache });
    assert.equal(first.cached, false);
    assert.equal(first.written, 4);
    const mtime = statSync(path.join(dir, "gen", "note.ts")).mtimeMs;
    const warm = await generate(CONFIG, { cwd: dir, cache });
    assert.equal(warm.cached, true);
    assert.deepEqual([warm.codecs, warm.written, warm.unchanged], [1, 0, 4]);
    assert.equal(statSync(path.join(dir, "gen", "note.ts")).mtimeMs, mtime);
    // an input edit
    writeFileSync(path.join(dir, "schemas", "note.schema.json"), JSON.stringify(schema(["id", "text"])));
    const edited = await generate(CONFIG, { cwd: dir, cache });
    assert.equal(edited.cached, false);
    assert.equal(edited.written, 3, "the module, its validator and its dictionary (index.ts is the same)");
    assert.match(readFileSync(path.join(dir, "gen", "note.ts"), "utf8"), /text\?: string/);
    // a deleted (or hand-edited) output
    rmSync(path.join(dir, "gen", "index.ts"));
    const repaired = await generate(CONFIG, { cwd: dir, cache });
    assert.equal(repaired.cached, false);
    assert.equal(repaired.written, 1);
    // another file of the project (a $ref'd schema, a module a Zod input imports, samples)
    assert.equal((await generate(CONFIG, { cwd: dir, cache })).cached, true);
    writeFileSync(path.join(dir, "schemas", "shared.json"), "{}");
    assert.equal((await generate(CONFIG, { cwd: dir, cache })).cached, false);
    // another config; dry runs never use it
    assert.equal((await generate({ ...CONFIG, runtimeImport: "toon-gen/runtime" }, { cwd: dir, cache })).cached, false);
    assert.equal((await generate(CONFIG, { cwd: dir, cache, dryRun: true })).cached, false);
  });

  test("the CLI says when the cache answered; --no-cache runs in full", async () => {
    const { dir } = project();
    const a = await toonGen(["generate"], dir);
    assert.match(a.stdout.toString(), /^toon-gen: 1 schema read, 4 files written, 0 unchanged in \d+ ms\n$/);
    const b = await toonGen(["generate"], dir);
    assert.match(b.stdout.toString(), /^toon-gen: 1 schema read, 0 files written, 4 unchanged in \d+ ms \(cached\)\n$/);
    const c = await toonGen(["generate", "--no-cache"], dir);
    assert.match(c.stdout.toString(), /^toon-gen: 1 schema read, 0 files written, 4 unchanged in \d+ ms\n$/);
  });

  test("generate --watch regenerates when a schema changes", async () => {
    const { dir } = project();
    const watch = startToonGen(["generate", "--watch"], dir);
    try {
      await watch.waitFor(/1 schema read, 4 files written.*\n[\s\S]*watching for changes/);
      writeFileSync(path.join(dir, "schemas", "note.schema.json"), JSON.stringify(schema(["id", "title"])));
      await watch.waitFor(/1 schema read, 4 files written[\s\S]*1 schema read, 3 files written/);
      assert.match(readFileSync(path.join(dir, "gen", "note.ts"), "utf8"), /title\?: string/);
      // a broken edit is reported and the watch goes on
      writeFileSync(path.join(dir, "schemas", "note.schema.json"), "{ nope");
      await watch.waitFor(/SCHEMA_ERROR: schemas\/note\.schema\.json: not valid JSON/);
      writeFileSync(path.join(dir, "schemas", "note.schema.json"), JSON.stringify(schema(["id", "title", "body"])));
      await watch.waitFor(/(files written[\s\S]*){3}/);
      assert.match(readFileSync(path.join(dir, "gen", "note.ts"), "utf8"), /body\?: string/);
    } finally {
      watch.child.kill("SIGTERM");
    }
    const code = await new Promise<number | null>((resolve) => (watch.child.exitCode !== null ? resolve(watch.child.exitCode) : watch.child.once("exit", (c) => resolve(c))));
    assert.equal(code, 0, watch.output());
  });
});
