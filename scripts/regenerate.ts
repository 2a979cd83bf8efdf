/**
 * `npm run gen:examples`: regenerates every committed golden output (test/golden.test.ts and
 * test/evolution.test.ts fail on any diff): each example project with its own toon.config.json, the benchmark's
 * projects (bench/projects.ts: the examples without samples, the held-out orders shape), the worked example
 * of docs/FORMAT.md (docs/examples) and the evolution matrix (test/evolution/gen). Review the diff, then commit.
 */
import { readdirSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "../generator/pipeline.ts";
import { loadConfig } from "../generator/cli/config.ts";
import { buildMatrix } from "../test/evolution/build.ts";
import { BENCH_PROJECTS } from "../bench/projects.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

for (const dir of readdirSync(path.join(ROOT, "examples")).sort()) {
  const project = path.join(ROOT, "examples", dir);
  if (!existsSync(path.join(project, "toon.config.json"))) continue;
  const { config, baseDir } = loadConfig(undefined, project);
  const r = await generate(config, { cwd: baseDir });
  console.log(`examples/${dir}: ${r.written} of ${r.files.length} files written`);
}

// the benchmark's own projects (bench/projects.ts): the examples without samples, the held-out orders shape
for (const dir of BENCH_PROJECTS) {
  const { config, baseDir } = loadConfig(undefined, path.join(ROOT, dir));
  const r = await generate(config, { cwd: baseDir });
  console.log(`${dir}: ${r.written} of ${r.files.length} files written`);
}

// as docs/examples/worked-example.ts generates it (paths from the repository root appear in the header)
const r = await generate(
  { inputs: ["docs/examples/order.schema.json"], outDir: "docs/examples/gen", dictionaryDir: "docs/examples/dictionaries" },
  { cwd: ROOT },
);
console.log(`docs/examples: ${r.written} of ${r.files.length} files written`);

let evolved = 0;
for (const f of await buildMatrix()) {
  mkdirSync(path.dirname(f.path), { recursive: true });
  writeFileSync(f.path, f.content);
  evolved++;
}
console.log(`test/evolution/gen: ${evolved} files written`);
