/**
 * Side-by-side benchmarks: toon-gen binary vs JSON (bytes) vs avsc (inferred schema) vs msgpackr (records) vs
 * protobufjs and pbf (static code from the .proto equivalents in bench/proto) vs TOON text, on every dataset in
 * bench/datasets.ts: the examples, the examples with samples generated again without them (`-nosamples`: toon-gen
 * only, the peers' figures taken from the example's dataset), and a held-out orders shape (bench/held-out). Each
 * (dataset, codec, operation) runs in its own process.
 *
 *   npm run bench                      full run → bench/results/latest.{json,md}
 *   npm run bench -- --quick           short batches → bench/results/scratch.{json,md}
 *   npm run bench -- --filter orders   only cases whose "dataset/codec/op" contains the substring (→ scratch);
 *                                      several, comma-separated: any of them (--filter /toon-gen/,/pbf/)
 *   options: --out <name>  --rounds <n>  --batches <n>  --batch-ms <ms>  --warmup-ms <ms>
 *            --clock cpu|wall  (default cpu: ops per CPU-second of the case's process, robust to other load;
 *                               wall: ops per elapsed second; both are recorded in the JSON either way)
 *
 * Then `node --conditions=toon-dev --import tsx bench/readme-table.ts` prints the block for the README.
 * A full run (no --filter) ends with the dense text benchmark, bench/dense.ts (tokens, bytes, speed; its own
 * processes; bench/results/dense.{json,md}), bench/dense-floor.ts (dense against the values-and-keys floor;
 * bench/results/dense-floor.{json,md}) and bench/dense-ceiling.ts (the codec's dense speed against a writer and a
 * reader written by hand for the orders schema; bench/results/dense-ceiling.{json,md}) and bench/stream-text.ts (the
 * streaming text reader: pieces against whole reads, the field's streaming readers, latency;
 * bench/results/stream-text.{json,md}). `--baseline <dir>` (a checkout of an older commit with its own node_modules)
 * goes to bench/stream-text.ts, which then also times today's whole reads against that checkout's.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { arch, cpus, loadavg, platform, release, totalmem } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { BROTLI_QUALITY, GZIP_LEVEL, median, type ChildArgs, type ChildResult, type Clock, type Op, type SpeedResult } from "./child.ts";
import { CODECS } from "./codecs.ts";
import { DATASETS, runsCodec } from "./datasets.ts";
import { renderMarkdown, renderTables, type CodecResult, type Results, type Speed } from "./report.ts";

const ROOT = resolve(import.meta.dirname, "..");
const CHILD = resolve(import.meta.dirname, "child.ts");
// no forced GC between batches (--expose-gc + gc()): measured to halve toon-gen decode speed in the batches after it
const NODE_FLAGS = ["--conditions=toon-dev", "--import", "tsx"];

const { values: opts } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    filter: { type: "string" },
    out: { type: "string" },
    batches: { type: "string" },
    "batch-ms": { type: "string" },
    "warmup-ms": { type: "string" },
    rounds: { type: "string" },
    clock: { type: "string" },
    baseline: { type: "string" },
  },
});

const quick = opts.quick === true;
const warmupMs = Number(opts["warmup-ms"] ?? (quick ? 200 : 500));
const batchMs = Number(opts["batch-ms"] ?? (quick ? 150 : 300));
const batches = Number(opts.batches ?? (quick ? 3 : 5));
const rounds = Number(opts.rounds ?? (quick ? 1 : 2));
const filter = opts.filter;
const filters = filter?.split(",").filter((f) => f !== "");
const clock = (opts.clock ?? "cpu") as Clock;
if (clock !== "cpu" && clock !== "wall") throw new Error("--clock must be cpu or wall");
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
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  },
  settings: {
    quick,
    ...(filter !== undefined ? { filter } : {}),
    warmupMs,
    batchMs,
    batches,
    rounds,
    clock,
    gzip: `level ${GZIP_LEVEL} (zlib default)`,
    brotli: `quality ${BROTLI_QUALITY} (Node default), generic mode`,
    versions: {
      avsc: version("avsc"),
      msgpackr: version("msgpackr"),
      "msgpackr-extract": version("msgpackr-extract"),
      "@toon-format/toon": version("@toon-format/toon"),
      protobufjs: version("protobufjs"),
      "protobufjs-cli": version("protobufjs-cli"),
      pbf: version("pbf"),
    },
  },
  codecs: Object.fromEntries(CODECS.map((c) => [c.name, c.describe])),
  datasets: {},
  samples: Object.fromEntries(DATASETS.map((d) => [d.name, d.samples])),
  variantOf: Object.fromEntries(DATASETS.flatMap((d) => (d.variantOf === undefined ? [] : [[d.name, d.variantOf]]))),
};

const OPS: Op[] = ["check", "encode", "decode"];
const checks: ChildArgs[] = [];
const timed: ChildArgs[] = [];
for (const ds of DATASETS) {
  for (const codec of CODECS) {
    if (!runsCodec(ds, codec.name)) continue;
    const wanted = OPS.filter((op) => filters === undefined || filters.some((f) => `${ds.name}/${codec.name}/${op}`.includes(f)));
    if (wanted.length === 0) continue;
    // sizes and round-trip always come along
    for (const op of ["check", ...wanted.filter((op) => op !== "check")] as Op[]) {
      (op === "check" ? checks : timed).push({ dataset: ds.name, codec: codec.name, op, warmupMs, batchMs, batches, clock });
    }
  }
}
if (checks.length === 0) {
  console.error(`no case matches --filter ${filter}`);
  process.exit(1);
}

const entryOf = (c: ChildArgs): CodecResult => ((results.datasets[c.dataset] ??= {})[c.codec] ??= {});
const total = checks.length + timed.length * rounds;
let done = 0;
const started = performance.now();

function run(c: ChildArgs, round: number): ChildResult | undefined {
  process.stderr.write(`[${++done}/${total}] ${c.dataset}/${c.codec}/${c.op}${c.op === "check" ? "" : ` (round ${round + 1})`} ... `);
  const r = runChild(c);
  if ("error" in r) {
    (entryOf(c).errors ??= []).push(`${c.op}: ${r.error}`);
    process.stderr.write(`FAILED\n${r.error}\n`);
    return undefined;
  }
  return r;
}

for (const c of checks) {
  const r = run(c, 0);
  if (r === undefined || r.op !== "check") continue;
  const entry = entryOf(c);
  entry.bytes = { raw: r.raw, gzip: r.gzip, brotli: r.brotli };
  entry.roundTrip = r.roundTrip;
  entry.roundTripShort = r.roundTripShort;
  if (r.freshDecoder !== undefined) entry.freshDecoder = r.freshDecoder;
  process.stderr.write(`${r.raw} B, round-trip ${r.roundTrip === "ok" ? "ok" : "LOSSY"}\n`);
}

// rounds alternate direction, so that slow spells of a busy machine do not all fall on the same cases
const speeds = new Map<ChildArgs, SpeedResult[]>();
for (let round = 0; round < rounds; round++) {
  for (const c of round % 2 === 0 ? timed : [...timed].reverse()) {
    const r = run(c, round);
    if (r === undefined || r.op === "check") continue;
    const list = speeds.get(c) ?? [];
    speeds.set(c, list);
    list.push(r);
    const spread = (Math.max(...r.batchCpu) - Math.min(...r.batchCpu)) / r.cpuOpsPerSec;
    process.stderr.write(
      `${Math.round(r.cpuOpsPerSec)} ops/cpu-s (batch spread ${(spread * 100).toFixed(1)}%), ${Math.round(r.wallOpsPerSec)} ops/s wall\n`,
    );
  }
}
for (const [c, list] of speeds) {
  const batchWall = list.flatMap((r) => r.batchWall);
  const batchCpu = list.flatMap((r) => r.batchCpu);
  const speed: Speed = {
    opsPerSec: median(clock === "cpu" ? batchCpu : batchWall),
    clock,
    wallOpsPerSec: median(batchWall),
    cpuOpsPerSec: median(batchCpu),
    roundOpsPerSec: list.map((r) => r.opsPerSec),
    batchWall,
    batchCpu,
  };
  entryOf(c)[c.op as "encode" | "decode"] = speed;
}

results.machine.loadAverageAfter = loadavg().map((x) => Math.round(x * 100) / 100);
const dir = resolve(import.meta.dirname, "results");
mkdirSync(dir, { recursive: true });
writeFileSync(resolve(dir, `${outName}.json`), JSON.stringify(results, null, 2) + "\n");
writeFileSync(resolve(dir, `${outName}.md`), renderMarkdown(results));
console.log(renderTables(results));
console.log(`\n${total} processes in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote bench/results/${outName}.{json,md}`);

// the dense text layout's tokens, bytes and speed (bench/dense.ts), on a full run
if (filter === undefined) {
  const dense = spawnSync(process.execPath, [...NODE_FLAGS, resolve(import.meta.dirname, "dense.ts"), ...(quick ? ["--quick"] : [])], { stdio: "inherit", cwd: ROOT });
  if (dense.status !== 0) process.exitCode = 1;
  // and how far dense is from what the values alone cost (bench/dense-floor.ts)
  const floor = spawnSync(process.execPath, [...NODE_FLAGS, resolve(import.meta.dirname, "dense-floor.ts")], { stdio: "inherit", cwd: ROOT });
  if (floor.status !== 0) process.exitCode = 1;
  // and how far its speed is from what the layout costs with no driver around it (bench/dense-ceiling.ts)
  const ceiling = spawnSync(process.execPath, [...NODE_FLAGS, resolve(import.meta.dirname, "dense-ceiling.ts"), ...(quick ? ["--quick"] : [])], { stdio: "inherit", cwd: ROOT });
  if (ceiling.status !== 0) process.exitCode = 1;
  // and the streaming text reader against whole reads, the code before it (--baseline) and the field's readers
  const baseline = opts.baseline === undefined ? [] : ["--baseline", opts.baseline];
  const streamText = spawnSync(process.execPath, [...NODE_FLAGS, resolve(import.meta.dirname, "stream-text.ts"), ...(quick ? ["--quick"] : []), ...baseline], { stdio: "inherit", cwd: ROOT });
  if (streamText.status !== 0) process.exitCode = 1;
}
