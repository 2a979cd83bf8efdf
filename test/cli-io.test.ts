// The CLI's writes and reads: a run's outputs are written all or none, an I/O failure is IO_ERROR naming the
// file (exit 1, no stack trace), a closed stdout pipe ends quietly, and --schema takes every input kind.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "toon-gen/runtime";
import { writeAll } from "../generator/fs/write.ts";
import { listFiles, ROOT, tempDir, toonGen, toonGenArgv } from "./support/cli.ts";
import { WeatherTools } from "../examples/tools/gen/weather-tools.ts";
import { WeatherQuery } from "../examples/tools/gen/weather-query.ts";

const SCHEMA = { title: "Note", type: "object", additionalProperties: false, required: ["id"], properties: { id: { type: "string" }, text: { type: "string" } } };
const TOOLS = path.join(ROOT, "examples", "tools");

function project(): string {
  const d = tempDir();
  writeFileSync(path.join(d, "toon.config.json"), JSON.stringify({ inputs: ["schemas/*.schema.json"], outDir: "gen", dictionaryDir: "dictionaries" }));
  mkdirSync(path.join(d, "schemas"));
  writeFileSync(path.join(d, "schemas", "note.schema.json"), JSON.stringify(SCHEMA));
  return d;
}

describe("toon-gen CLI: I/O", { concurrency: true }, () => {
  test("a write failure is IO_ERROR naming the file, exit 1, no stack trace, and no output at all is written", async () => {
    const d = project();
    writeFileSync(path.join(d, "dictionaries"), "a file where the dictionary folder should be");
    const r = await toonGen(["generate"], d);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^toon-gen: IO_ERROR: cannot write dictionaries\/note\.dictionary\.json: E[A-Z]+ /);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
    assert.equal(r.stdout.length, 0);
    // the module (staged before the dictionary failed) was not left behind, nor any temporary file
    assert.deepEqual(listFiles(d), ["dictionaries", "schemas/note.schema.json", "toon.config.json"]);
  });

  test("writeAll: all files or none; temporary files are cleaned up", () => {
    const d = tempDir();
    writeFileSync(path.join(d, "blocker"), "");
    const files = [
      { path: path.join(d, "out", "a.ts"), content: "a" },
      { path: path.join(d, "blocker", "b.json"), content: "b" },
    ];
    assert.throws(() => writeAll(files, d), (e: unknown) => e instanceof ToonError && e.code === "IO_ERROR" && /cannot write blocker\/b\.json/.test(e.message));
    assert.deepEqual(listFiles(d), ["blocker"]);
    writeAll([files[0]!, { path: path.join(d, "out", "c.json"), content: "c" }], d);
    assert.deepEqual(listFiles(d), ["blocker", "out/a.ts", "out/c.json"]);
    assert.equal(readFileSync(path.join(d, "out", "a.ts"), "utf8"), "a");
  });

  test("output piped into a reader that stops early (| head) ends quietly", () => {
    const d = tempDir();
    writeFileSync(path.join(d, "s.json"), JSON.stringify({ type: "array", items: { type: "object", properties: { n: { type: "integer" }, s: { type: "string" } } } }));
    writeFileSync(path.join(d, "big.json"), JSON.stringify(Array.from({ length: 20000 }, (_, n) => ({ n, s: `row ${n} `.repeat(3) }))));
    const cmd = [process.execPath, ...toonGenArgv(["encode", "--schema", "s.json", "--text", "big.json"])].map((a) => `'${a}'`).join(" ");
    const r = spawnSync("bash", ["-o", "pipefail", "-c", `${cmd} | head -c 100 > /dev/null`], { cwd: d, encoding: "utf8" });
    assert.equal(r.stderr, "", "nothing on stderr (no EPIPE stack trace)");
    assert.equal(r.status, 0);
  });

  test("--schema takes a tool file, tools.json#<tool> and schemas.ts#<Export>, with the committed dictionaries", async () => {
    const call = { name: "get_weather", arguments: { city: "Lyon", date: null, unit: "celsius" } };
    const query = { city: "Oslo", unit: "fahrenheit" };
    const [set, args, zod, missing] = await Promise.all([
      toonGen(["encode", "--schema", "tools/weather-tools.json"], TOOLS, JSON.stringify(call)),
      toonGen(["encode", "--schema", "tools/weather-tools.json#get_weather"], TOOLS, JSON.stringify(call.arguments)),
      toonGen(["encode", "-s", "schemas.ts#WeatherQuery"], TOOLS, JSON.stringify(query)),
      toonGen(["encode", "--schema", "tools/weather-tools.json#nope"], TOOLS, "{}"),
    ]);
    for (const r of [set, args, zod]) assert.equal(r.code, 0, r.stderr);
    // byte for byte what the generated modules write (so the committed dictionaries were used)
    assert.deepEqual(new Uint8Array(set.stdout), WeatherTools.encode(call as never));
    assert.deepEqual(new Uint8Array(args.stdout), WeatherTools.tools.get_weather.encode(call.arguments as never));
    assert.deepEqual(new Uint8Array(zod.stdout), WeatherQuery.encode(query as never));
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /has no tool "nope" \(tools: get_weather, get_forecast, get-air-quality\)/);
    const [back, backZod] = await Promise.all([toonGen(["decode", "-s", "tools/weather-tools.json#get_weather"], TOOLS, args.stdout), toonGen(["decode", "-s", "schemas.ts#WeatherQuery"], TOOLS, zod.stdout)]);
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(JSON.parse(back.stdout.toString()), call.arguments);
    assert.deepEqual(JSON.parse(backZod.stdout.toString()), query);
    assert.ok(!existsSync(path.join(TOOLS, "node_modules")), "nothing written into the example");
  });
});
