/**
 * The run cache (issue 14): a cold `toon-gen generate` against an unchanged rerun, on 200 tool schemas
 * (40 OpenAI tool files of 5 tools each, written to a temp folder). Two views:
 *
 * - in process: `generate(config, { cache })` wall time, cold (fresh project, empty cache) and warm (the same
 *   project again), the figure the cache is about (no Node / tsx start-up in it);
 * - the real CLI (`node generator/cli/main.ts generate`, through tsx), start-up included, as a user sees it.
 *
 * Medians of RUNS runs each. Target: warm <= 1/4 of cold.
 *
 *   node --conditions=toon-dev --import tsx bench/cli-cache.ts [--runs 5]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { generate } from "../generator/pipeline.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const RUNS = Number(values.runs);
const FILES = 40;
const TOOLS_PER_FILE = 5;
const MAIN = fileURLToPath(new URL("../generator/cli/main.ts", import.meta.url));
const TSX = import.meta.resolve("tsx");
const CONFIG = { inputs: ["tools/*.json"], outDir: "gen", dictionaryDir: "dictionaries" };

/** One tool's parameters: a few properties of the common kinds, varied by index. */
function parameters(i: number): object {
  const props: Record<string, object> = {
    query: { type: "string", description: `what to look up (${i})` },
    limit: { type: "integer", minimum: 1, maximum: 100 },
    mode: { type: "string", enum: ["fast", "exact", `m${i % 7}`] },
    tags: { type: "array", items: { type: "string" } },
  };
  if (i % 2 === 0) props.when = { type: ["string", "null"], format: "date" };
  if (i % 3 === 0) props.filter = { type: "object", additionalProperties: false, required: ["field"], properties: { field: { type: "string" }, value: { type: "number" } } };
  return { type: "object", additionalProperties: false, required: ["query", "limit"], properties: props };
}

function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "toon-gen-cache-bench-"));
  mkdirSync(path.join(dir, "tools"));
  writeFileSync(path.join(dir, "toon.config.json"), JSON.stringify(CONFIG));
  for (let f = 0; f < FILES; f++) {
    const tools = Array.from({ length: TOOLS_PER_FILE }, (_, t) => {
      const i = f * TOOLS_PER_FILE + t;
      return { type: "function", function: { name: `tool_${i}`, description: `Tool ${i}.`, parameters: parameters(i) } };
    });
    writeFileSync(path.join(dir, "tools", `set-${String(f).padStart(2, "0")}.json`), JSON.stringify(tools, null, 2));
  }
  return dir;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function inProcess(): Promise<{ cold: number[]; warm: number[]; codecs: number }> {
  const cold: number[] = [];
  const warm: number[] = [];
  let codecs = 0;
  for (let r = 0; r < RUNS; r++) {
    const dir = project();
    const cache = path.join(dir, ".cache");
    let t = performance.now();
    const first = await generate(CONFIG, { cwd: dir, cache });
    cold.push(performance.now() - t);
    codecs = first.codecs;
    t = performance.now();
    const again = await generate(CONFIG, { cwd: dir, cache });
    warm.push(performance.now() - t);
    if (!again.cached) throw new Error("the warm run was not answered from the cache");
    rmSync(dir, { recursive: true, force: true });
  }
  return { cold, warm, codecs };
}

function cli(): { cold: number[]; warm: number[]; noCache: number[] } {
  const out = { cold: [] as number[], warm: [] as number[], noCache: [] as number[] };
  const run = (dir: string, args: string[] = []): number => {
    const t = performance.now();
    const r = spawnSync(process.execPath, ["--conditions=toon-dev", "--import", TSX, MAIN, "generate", ...args], { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(r.stderr);
    return performance.now() - t;
  };
  for (let r = 0; r < RUNS; r++) {
    const dir = project(); // no node_modules here: the cache goes to the OS temp folder, keyed by project
    out.cold.push(run(dir));
    out.warm.push(run(dir));
    out.noCache.push(run(dir, ["--no-cache"]));
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

const p = await inProcess();
const c = cli();
const fmt = (ms: number): string => `${Math.round(ms)} ms`;
const ratio = (a: number, b: number): string => `${((a / b) * 100).toFixed(1)}%`;
console.log(`run cache on ${FILES * TOOLS_PER_FILE} tool schemas (${FILES} files, ${p.codecs} codecs), medians of ${RUNS} runs`);
console.log(`| | cold | warm (cached) | warm / cold |`);
console.log(`|---|---:|---:|---:|`);
console.log(`| generate() in process | ${fmt(median(p.cold))} | ${fmt(median(p.warm))} | ${ratio(median(p.warm), median(p.cold))} |`);
console.log(`| toon-gen generate (CLI, Node + tsx start-up included) | ${fmt(median(c.cold))} | ${fmt(median(c.warm))} | ${ratio(median(c.warm), median(c.cold))} |`);
console.log(`| toon-gen generate --no-cache, nothing changed | ${fmt(median(c.noCache))} | | |`);
const ok = median(p.warm) <= median(p.cold) / 4 && median(c.warm) <= median(c.cold) / 4;
console.log(ok ? "target met: warm <= 1/4 of cold" : "TARGET MISSED: warm > 1/4 of cold");
process.exitCode = ok ? 0 : 1;
