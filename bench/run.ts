/**
 * Side-by-side benchmarks: toon-gen binary vs JSON (bytes) vs avsc (inferred schema) vs msgpackr (records) vs
 * TOON text, on every dataset in bench/datasets.ts. Each (dataset, codec, operation) runs in its own process.
 *
 *   npm run bench                      full run → bench/results/latest.{json,md}
 *   npm run bench -- --quick           short batches → bench/results/scratch.{json,md}
 *   npm run bench -- --filter orders   only cases whose "dataset/codec/op" contains the substring (→ scratch)
 *   options: --out <name>  --batches <n>  --batch-ms <ms>  --warmup-ms <ms>
 *
 * Then `node --conditions=toon-dev --import tsx bench/readme-table.ts` prints the block for the README.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, platform, arch, release, totalmem } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { BROTLI_QUALITY, GZIP_LEVEL, type ChildArgs, type ChildResult, type Op } from "./child.ts";
import { CODECS } from "./codecs.ts";
import { DATASETS } from "./datasets.ts";
import { renderMarkdown, renderTables, type CodecResult, type Results } from "./report.ts";

const ROOT = resolve(import.meta.dirname, "..");
const CHILD = resolve(import.meta.dirname, "child.ts");
const NODE_FLAGS = ["--expose-gc", "--conditions=toon-dev", "--import", "tsx"];

const { values: opts } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    filter: { type: "string" },
    out: { type: "string" },
    batches: { type: "string" },
    "batch-ms": { type: "string" },
    "warmup-ms": { type: "string" },
  },
});

const quick = opts.quick === true;
const warmupMs = Number(opts["warmup-ms"] ?? (quick ? 200 : 1000));
const batchMs = Number(opts["batch-ms"] ?? (quick ? 150 : 500));
const batches = Number(opts.batches ?? (quick ? 3 : 5));
const filter = opts.filter;
const outName = opts.out ?? (quick || filter !== undefined ? "scratch" : "latest");

function version(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(resolve(ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "?";
  }
}

function runChild(args: ChildArgs): ChildResult | { error: string } {
  const p = spawnSync(process.execPath, [...NODE_FLAGS, CHILD, JSON.stringify(args)], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 16 << 20,
  });
  const last = p.stdout?.trim().split("\n").pop();
  if (p.status !== 0 || !last) return { error: (p.stderr || p.error?.message || `exit ${p.status}`).trim() };
  try {
    return JSON.parse(last) as ChildResult;
  } catch {
    return { error: `unparsable child output: ${last.slice(0, 200)}` };
  }
}

const results: Results = {
  machine: {
    node: process.version,
    v8: process.versions.v8,
    cpu: cpus()[0]?.model.trim() ?? "?",
    cores: cpus().length,
    platform: `${platform()} ${release()} ${arch()}`,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    date: new Date().toISOString(),
  },
  settings: {
    quick,
    ...(filter !== undefined ? { filter } : {}),
    warmupMs,
    batchMs,
    batches,
    gzip: `level ${GZIP_LEVEL} (zlib default)`,
    brotli: `quality ${BROTLI_QUALITY} (Node default), generic mode`,
    versions: {
      avsc: version("avsc"),
      msgpackr: version("msgpackr"),
      "msgpackr-extract": version("msgpackr-extract"),
      "@toon-format/toon": version("@toon-format/toon"),
    },
  },
  codecs: Object.fromEntries(CODECS.map((c) => [c.name, c.describe])),
  datasets: {},
};

const OPS: Op[] = ["check", "encode", "decode"];
const cases: ChildArgs[] = [];
for (const ds of DATASETS) {
  for (const codec of CODECS) {
    const wanted = OPS.filter((op) => filter === undefined || `${ds.name}/${codec.name}/${op}`.includes(filter));
    if (wanted.length === 0) continue;
    if (!wanted.includes("check")) wanted.unshift("check"); // sizes and round-trip always come along
    for (const op of wanted) cases.push({ dataset: ds.name, codec: codec.name, op, warmupMs, batchMs, batches });
  }
}
if (cases.length === 0) {
  console.error(`no case matches --filter ${filter}`);
  process.exit(1);
}

const started = performance.now();
cases.forEach((c, i) => {
  const label = `${c.dataset}/${c.codec}/${c.op}`;
  process.stderr.write(`[${i + 1}/${cases.length}] ${label} ... `);
  const r = runChild(c);
  const entry: CodecResult = ((results.datasets[c.dataset] ??= {})[c.codec] ??= {});
  if ("error" in r) {
    (entry.errors ??= []).push(`${c.op}: ${r.error}`);
    process.stderr.write(`FAILED\n${r.error}\n`);
    return;
  }
  if (r.op === "check") {
    entry.bytes = { raw: r.raw, gzip: r.gzip, brotli: r.brotli };
    entry.roundTrip = r.roundTrip;
    if (r.freshDecoder !== undefined) entry.freshDecoder = r.freshDecoder;
    process.stderr.write(`${r.raw} B, round-trip ${r.roundTrip === "ok" ? "ok" : "LOSSY"}\n`);
  } else {
    const { op: _op, ...speed } = r;
    entry[r.op] = speed;
    const spread = (Math.max(...r.batchOpsPerSec) - Math.min(...r.batchOpsPerSec)) / r.opsPerSec;
    process.stderr.write(`${Math.round(r.opsPerSec)} ops/s (spread ${(spread * 100).toFixed(1)}%)\n`);
  }
});

const dir = resolve(import.meta.dirname, "results");
mkdirSync(dir, { recursive: true });
writeFileSync(resolve(dir, `${outName}.json`), JSON.stringify(results, null, 2) + "\n");
writeFileSync(resolve(dir, `${outName}.md`), renderMarkdown(results));
console.log(renderTables(results));
console.log(`\n${cases.length} cases in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote bench/results/${outName}.{json,md}`);
