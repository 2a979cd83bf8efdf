/**
 * Size benchmarks of issue 9 (`npm run bench:size`): bundle size of the `bench/bundle/*.ts` entries, generated
 * size over the JSON Schema corpus, and diff stability of a generated module. Writes bench/results/size.json,
 * size.md and size-diff.patch, and prints the tables. Sizes are deterministic; no timing here.
 *
 *   npm run bench:size                      everything
 *   npm run bench:size -- --all-definitions every definition of the MCP spec, not just those with examples
 *   npm run bench:size -- --no-write        print only
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { version as esbuildVersion } from "esbuild";
import { bundleEntries, bundleSize, REPO } from "./size/bundle.ts";
import { diffStability } from "./size/diff.ts";
import { corpusSchemaCases, corpusSchemasDir, generatedSize, linkCorpus, summarizeGenerated, type GeneratedSize } from "./size/generated.ts";
import type { SchemaSetModule } from "../generator/emit/link.ts";
import { checkTargets, renderConsole, renderMarkdown, type SizeResults } from "./size/report.ts";

const { values: opts } = parseArgs({
  options: { "all-definitions": { type: "boolean", default: false }, "no-write": { type: "boolean", default: false } },
});

const bundles: SizeResults["bundles"] = [];
const bundleFailures: SizeResults["bundleFailures"] = [];
// an entry that does not bundle (an export renamed under it, ...) is reported, and the others still measured
for (const entry of bundleEntries()) {
  try {
    bundles.push(await bundleSize(entry));
  } catch (e) {
    bundleFailures.push({ entry: path.relative(REPO, entry).split(path.sep).join("/"), error: (e as Error).message });
  }
}

let generated: SizeResults["generated"];
const corpus = corpusSchemasDir(REPO);
if (corpus === undefined) {
  generated = { skipped: `Skipped: the corpus (${path.join(REPO, "..", "shared", "corpus", "json-schemas")}) is absent.` };
  console.error(`bench:size: ${generated.skipped}`);
} else {
  const rows: GeneratedSize[] = [];
  const modules: SchemaSetModule[] = [];
  const cases = corpusSchemaCases(corpus, opts["all-definitions"]);
  for (const [i, c] of cases.entries()) {
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K[${i + 1}/${cases.length}] ${c.id}`);
    rows.push(await generatedSize(c, corpus, (m) => modules.push(m)));
  }
  // as one project of the corpus files: a referenced file's definitions emitted once (generator/emit/link.ts)
  linkCorpus(rows, modules, (m) => `schemas/${path.basename(m.file)}`);
  if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");
  generated = { rows, summary: summarizeGenerated(rows) };
}

const diff = await diffStability();

const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO, encoding: "utf8" }).stdout.trim() || "unknown";
const dirty = spawnSync("git", ["status", "--porcelain", "--", "runtime", "generator", "templates", "examples"], { cwd: REPO, encoding: "utf8" }).stdout.trim() !== "";
const base: Omit<SizeResults, "targets"> = {
  run: {
    date: new Date().toISOString().slice(0, 10),
    node: process.versions.node,
    esbuild: esbuildVersion,
    commit: commit + (dirty ? " + uncommitted changes" : ""),
    corpus: corpus === undefined ? "absent" : `../shared/corpus/json-schemas${opts["all-definitions"] ? ", every MCP definition" : ", MCP definitions with examples"}`,
  },
  bundles,
  bundleFailures,
  generated,
  diff,
};
const results: SizeResults = { ...base, targets: checkTargets(base) };

console.log(renderConsole(results));
if (!opts["no-write"]) {
  const dir = path.join(REPO, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const { patch, ...diffFigures } = results.diff;
  writeFileSync(path.join(dir, "size.json"), JSON.stringify({ ...results, diff: diffFigures }, null, 2) + "\n");
  writeFileSync(path.join(dir, "size.md"), renderMarkdown(results));
  writeFileSync(path.join(dir, "size-diff.patch"), patch);
  console.log(`\nwritten: bench/results/size.json, size.md, size-diff.patch`);
}
if (bundleFailures.length > 0) process.exitCode = 1;
