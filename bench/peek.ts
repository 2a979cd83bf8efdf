/**
 * O(1) field access (docs/FORMAT.md §10.2): on a message with 200 top-level fields, reading 3 indexed
 * fields with `Codec.peek.<path>(bytes)` against one full `decode`. The codec is generated here (into
 * test/.gen/bench-peek/) from a 200-property schema: strings (some repeated, so the string table matters),
 * integers, decimals, booleans, date-times and enums, all required.
 *
 * Two codecs: `index: true` (every top-level field indexed: the default, and the biggest table) and an index of
 * only the 3 fields read; and the bytes each table adds to the message.
 *
 *   node --conditions=toon-dev --import tsx bench/peek.ts [--quick]
 *
 * Writes bench/results/peek.json. In-process; ops per CPU-second (user + system), median of the batches after a
 * warm-up. The ratio is (time of 3 peeks) / (time of 1 full decode); the goal is at most 0.1.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { evolveDictionary } from "../generator/dictionary/evolve.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { emitModule } from "../generator/emit/module.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { profileSamples } from "../generator/samples/profile.ts";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = resolve(ROOT, "test", ".gen", "bench-peek");
const quick = process.argv.includes("--quick");
const WARMUP_MS = quick ? 150 : 500;
const BATCH_MS = quick ? 100 : 300;
const BATCHES = quick ? 5 : 9;
const FIELDS = 200;
const READ = ["f7", "f100", "f199"];

interface Codec {
  fingerprint: number;
  encode(v: unknown): Uint8Array;
  decode(b: Uint8Array): Record<string, unknown>;
  peek: Record<string, (b: Uint8Array) => unknown>;
}

function schema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < FIELDS; i++) {
    properties[`f${i}`] = [
      { type: "string" },
      { type: "integer" },
      { type: "number" },
      { type: "boolean" },
      { type: "string", format: "date-time" },
      { enum: ["pending", "paid", "shipped", "delivered"] },
      { type: "string" },
    ][i % 7];
  }
  return { title: "Wide200", type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

function value(seed: number): Record<string, unknown> {
  const v: Record<string, unknown> = {};
  const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
  for (let i = 0; i < FIELDS; i++) {
    const x = (i * 7919 + seed * 104729) % 1000;
    switch (i % 7) {
      case 0:
        v[`f${i}`] = `${words[x % 8]}-${words[(x >> 3) % 8]}`; // repeats: references into the string table
        break;
      case 1:
        v[`f${i}`] = x * 1013;
        break;
      case 2:
        v[`f${i}`] = x / 8;
        break;
      case 3:
        v[`f${i}`] = x % 2 === 0;
        break;
      case 4:
        v[`f${i}`] = new Date(Date.UTC(2025, 0, 1) + x * 60_000).toISOString().replace(".000Z", "Z");
        break;
      case 5:
        v[`f${i}`] = ["pending", "paid", "shipped", "delivered"][x % 4];
        break;
      default:
        v[`f${i}`] = `customer ${x} · ${words[x % 8]} street ${x % 97}, unit ${x % 13}`;
    }
  }
  return v;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

let sink = 0;
/** ops per CPU-second: median over batches. */
function measure(fn: () => unknown): number {
  const end = performance.now() + WARMUP_MS;
  while (performance.now() < end) fn();
  const rates: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    let n = 0;
    const c0 = cpuMs();
    const t0 = performance.now();
    while (performance.now() - t0 < BATCH_MS) {
      for (let k = 0; k < 64; k++) if (fn() !== undefined) sink++;
      n += 64;
    }
    rates.push(n / ((cpuMs() - c0) / 1000));
  }
  rates.sort((a, b) => a - b);
  return rates[rates.length >> 1]!;
}

async function compile(base: string, index: true | string[] | undefined, samples: unknown[] | undefined): Promise<Codec> {
  const ir = schemaToIR(schema(), { source: "wide200.schema.json", baseDir: OUT });
  const profile = samples === undefined ? undefined : profileSamples(ir, samples);
  const dict = evolveDictionary(ir, undefined, profile === undefined ? {} : { profile }).dictionary;
  const file = resolve(OUT, `${base}.ts`);
  writeFileSync(file, emitModule(ir, dict, index === undefined ? { fileName: `${base}.ts` } : { fileName: `${base}.ts`, index }));
  return ((await import(pathToFileURL(file).href)) as Record<string, Codec>).Wide200!;
}

await initHash();
mkdirSync(OUT, { recursive: true });
const all = await compile("index-all", true, undefined);
const three = await compile("index-three", READ, undefined);
const none = await compile("no-index", undefined, undefined);

const v = value(12345);
const cases = [
  { name: "index: true (200 fields indexed)", codec: all },
  { name: `index: ${JSON.stringify(READ)}`, codec: three },
];
const plainBytes = none.encode(v);
const results = [];
for (const c of cases) {
  const bytes = c.codec.encode(v);
  const decoded = c.codec.decode(bytes);
  for (const f of READ) if (c.codec.peek[f]!(bytes) !== decoded[f]) throw new Error(`${c.name}: peek.${f} differs from decode`);
  const [p0, p1, p2] = READ.map((f) => c.codec.peek[f]!);
  const decodeOps = measure(() => c.codec.decode(bytes));
  const peek3Ops = measure(() => {
    const a = p0!(bytes);
    const b = p1!(bytes);
    const d = p2!(bytes);
    return a === undefined || b === undefined || d === undefined ? undefined : a;
  });
  const ratio = decodeOps / peek3Ops;
  results.push({
    codec: c.name,
    bytes: bytes.length,
    /** Bytes the field offset table adds (same codec without `index`). */
    indexBytes: 0,
    decodeOpsPerSec: Math.round(decodeOps),
    peek3OpsPerSec: Math.round(peek3Ops),
    decodeUs: +(1e6 / decodeOps).toFixed(3),
    peek3Us: +(1e6 / peek3Ops).toFixed(3),
    ratio: +ratio.toFixed(4),
    goal: "ratio <= 0.1",
    pass: ratio <= 0.1,
  });
}
// the table's size: message bytes with and without the index
results[0]!.indexBytes = all.encode(v).length - plainBytes.length;
results[1]!.indexBytes = three.encode(v).length - plainBytes.length;

const out = {
  what: `peek of ${READ.length} indexed fields vs a full decode, on a message with ${FIELDS} top-level fields (bench/peek.ts)`,
  date: new Date().toISOString(),
  machine: { cpu: cpus()[0]?.model, cores: cpus().length, platform: `${platform()} ${release()}`, node: process.version, load: loadavg().map((x) => +x.toFixed(2)) },
  settings: { warmupMs: WARMUP_MS, batchMs: BATCH_MS, batches: BATCHES, clock: "cpu" },
  messageBytesWithoutIndex: plainBytes.length,
  results,
};
mkdirSync(resolve(ROOT, "bench", "results"), { recursive: true });
writeFileSync(resolve(ROOT, "bench", "results", "peek.json"), JSON.stringify(out, null, 2) + "\n");
for (const r of results) {
  console.log(
    `${r.codec.padEnd(42)} ${String(r.bytes).padStart(5)} B (index ${r.indexBytes} B)  decode ${r.decodeUs.toFixed(2)} µs  3 peeks ${r.peek3Us.toFixed(3)} µs  ratio ${r.ratio.toFixed(3)} ${r.pass ? "ok" : "ABOVE 0.1"}`,
  );
}
if (sink < 0) console.log(sink);
