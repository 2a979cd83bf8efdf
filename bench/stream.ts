/**
 * Streaming frames (docs/FORMAT.md §10.3) against whole messages, on the four examples' data:
 *
 * - first-field latency: how many frames and bytes a receiver needs before the first field is available
 *   (and before the first item of the top-level array is complete), fed one byte at a time; a whole message
 *   gives nothing before its last byte;
 * - size: stream bytes at leaf granularity (one frame per scalar), at element granularity (each item of the
 *   top-level array in one frame) and with the whole value in one frame, against the whole message;
 * - throughput: stream encode (`stream.encode`) and decode (`decoder().push(bytes)` + `end()`) against
 *   `encode` / `decode` of the whole message, and JSON mode (`encoder().json(piece)` over the value's JSON in
 *   8-character pieces).
 *
 *   node --conditions=toon-dev --import tsx bench/stream.ts [--quick]
 *
 * Writes bench/results/stream.json and bench/results/stream.md. In-process; ops/s per CPU-second (user +
 * system), median of the batches after a warm-up.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release } from "node:os";
import { resolve } from "node:path";
import type { StreamCodec } from "../runtime/index.ts";
import { ToolCallBatch } from "../examples/tool-calls/gen/tool-call-batch.ts";
import { OrderList } from "../examples/orders/gen/order-list.ts";
import { LogReport } from "../examples/logs/gen/log-report.ts";
import { ExtractionResult } from "../examples/extraction/gen/extraction-result.ts";

const ROOT = resolve(import.meta.dirname, "..");
const quick = process.argv.includes("--quick");
const WARMUP_MS = quick ? 100 : 400;
const BATCH_MS = quick ? 100 : 250;
const BATCHES = quick ? 3 : 7;

interface Codec {
  encode(v: any): Uint8Array;
  decode(b: Uint8Array): any;
  stream: StreamCodec<any, any>;
}

const read = (rel: string): any => JSON.parse(readFileSync(resolve(ROOT, "examples", rel), "utf8"));
const CASES: { name: string; codec: Codec; value: any }[] = [
  { name: "orders", codec: OrderList, value: read("orders/data/order-list.json") },
  { name: "logs", codec: LogReport, value: read("logs/data/log-report.json") },
  { name: "extraction", codec: ExtractionResult, value: read("extraction/data/extraction-result.json") },
  { name: "tool-calls", codec: ToolCallBatch, value: read("tool-calls/data/tool-call-batch.json") },
];

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

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
      fn();
      n++;
    }
    rates.push(n / ((cpuMs() - c0) / 1000));
  }
  rates.sort((a, b) => a - b);
  return Math.round(rates[Math.floor(rates.length / 2)]!);
}

/** Feed one byte at a time; the byte count and frame count when `until` first holds for an event. */
function firstAt(codec: Codec, bytes: Uint8Array, until: (e: { type: string; pointer: string }) => boolean): { bytes: number; frames: number } | null {
  const d = codec.stream.decoder();
  for (let i = 0; i < bytes.length; i++) {
    for (const e of d.push(bytes.subarray(i, i + 1))) if (until(e)) return { bytes: i + 1, frames: d.frames + 1 /* the header */ };
  }
  return null;
}

interface Row {
  dataset: string;
  json: number;
  whole: { bytes: number; encode: number; decode: number };
  stream: {
    leaf: { bytes: number; frames: number; encode: number; decode: number };
    element: { bytes: number; frames: number; encode: number; decode: number };
    single: { bytes: number; frames: number };
    jsonMode: { frames: number; bytes: number; encode: number };
  };
  latency: {
    /** Whole message: nothing is available before all of it. */
    whole: { bytes: number };
    firstField: { bytes: number; frames: number } | null;
    firstElement: { bytes: number; frames: number } | null;
    firstElementAtElementGranularity: { bytes: number; frames: number } | null;
  };
}

const rows: Row[] = [];
for (const c of CASES) {
  const { codec, value } = c;
  const whole = codec.encode(value);
  const leaf = codec.stream.encode(value);
  const leafFrames = codec.stream.frames(value).length;
  const element = codec.stream.encode(value, { depth: 2 });
  const elementFrames = codec.stream.frames(value, { depth: 2 }).length;
  const single = codec.stream.encode(value, { depth: 0 });
  const text = JSON.stringify(value);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 8) pieces.push(text.slice(i, i + 8));
  const jsonFrames = (() => {
    const enc = codec.stream.encoder();
    const out: Uint8Array[] = [];
    for (const p of pieces) out.push(...enc.json(p));
    return out;
  })();
  const isField = (e: { type: string }) => e.type === "field" || e.type === "element";
  // the first item of the top-level array: a pointer of two segments (`/orders/0`)
  const isElement = (e: { type: string; pointer: string }) => e.type === "element" && e.pointer.split("/").length === 3;
  const row: Row = {
    dataset: c.name,
    json: new TextEncoder().encode(text).length,
    whole: { bytes: whole.length, encode: measure(() => codec.encode(value)), decode: measure(() => codec.decode(whole)) },
    stream: {
      leaf: {
        bytes: leaf.length,
        frames: leafFrames,
        encode: measure(() => codec.stream.encode(value)),
        decode: measure(() => {
          const d = codec.stream.decoder();
          d.push(leaf);
          return d.end();
        }),
      },
      element: {
        bytes: element.length,
        frames: elementFrames,
        encode: measure(() => codec.stream.encode(value, { depth: 2 })),
        decode: measure(() => {
          const d = codec.stream.decoder();
          d.push(element);
          return d.end();
        }),
      },
      single: { bytes: single.length, frames: codec.stream.frames(value, { depth: 0 }).length },
      jsonMode: {
        frames: jsonFrames.length,
        bytes: jsonFrames.reduce((n, f) => n + f.length, 0),
        encode: measure(() => {
          const enc = codec.stream.encoder();
          for (const p of pieces) enc.json(p);
        }),
      },
    },
    latency: {
      whole: { bytes: whole.length },
      firstField: firstAt(codec, leaf, isField),
      firstElement: firstAt(codec, leaf, isElement),
      firstElementAtElementGranularity: firstAt(codec, element, isElement),
    },
  };
  rows.push(row);
  console.log(`${c.name}: done`);
}

const n = (x: number) => x.toLocaleString("en-US");
const ratio = (a: number, b: number) => (a / b).toFixed(2) + "×";
const meta = {
  node: process.version,
  cpu: cpus()[0]?.model ?? "?",
  cores: cpus().length,
  os: `${platform()} ${release()}`,
  date: new Date().toISOString().slice(0, 10),
  loadavg: loadavg()[0],
  method: `in-process; ops/s per CPU-second (user + system), median of ${BATCHES} batches of ~${BATCH_MS} ms after a ${WARMUP_MS} ms warm-up`,
};
mkdirSync(resolve(ROOT, "bench/results"), { recursive: true });
writeFileSync(resolve(ROOT, "bench/results/stream.json"), JSON.stringify({ meta, rows }, null, 2) + "\n");

const md: string[] = [
  "# Streaming frames vs whole messages",
  "",
  `Node ${meta.node}, ${meta.cpu}, ${meta.cores} cores, ${meta.os}, ${meta.date}; load average ${meta.loadavg.toFixed(2)}. ${meta.method}. ` +
    "Written by `bench/stream.ts`. Leaf: one frame per scalar (`stream.encode(v)`); element: each item of the top-level array in one frame " +
    "(`{ depth: 2 }`); single: the whole value in one VALUE frame (`{ depth: 0 }`).",
  "",
  "## First-field latency",
  "",
  "Bytes (frames, header included) a receiver needs before the first field is available, and before the first item of the top-level array " +
    "is complete. A whole message gives nothing before its last byte.",
  "",
  "| dataset | whole message | stream: first field | stream: first item (leaf) | stream: first item (element) |",
  "|---|---:|---:|---:|---:|",
  ...rows.map((r) => {
    const f = (x: { bytes: number; frames: number } | null) => (x === null ? "—" : `${n(x.bytes)} B (${x.frames} frames)`);
    return `| ${r.dataset} | ${n(r.latency.whole.bytes)} B | ${f(r.latency.firstField)} | ${f(r.latency.firstElement)} | ${f(r.latency.firstElementAtElementGranularity)} |`;
  }),
  "",
  "## Size",
  "",
  "| dataset | JSON | whole message | stream leaf (frames) | stream element (frames) | stream single | JSON mode, 8-char pieces (frames) |",
  "|---|---:|---:|---:|---:|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${r.dataset} | ${n(r.json)} | ${n(r.whole.bytes)} | ${n(r.stream.leaf.bytes)} (${n(r.stream.leaf.frames)}) = ${ratio(r.stream.leaf.bytes, r.whole.bytes)} | ` +
      `${n(r.stream.element.bytes)} (${n(r.stream.element.frames)}) = ${ratio(r.stream.element.bytes, r.whole.bytes)} | ${n(r.stream.single.bytes)} | ${n(r.stream.jsonMode.bytes)} (${n(r.stream.jsonMode.frames)}) |`,
  ),
  "",
  "## Throughput (ops/s)",
  "",
  "| dataset | whole encode | whole decode | stream leaf encode | stream leaf decode | stream element encode | stream element decode | JSON mode encode |",
  "|---|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${r.dataset} | ${n(r.whole.encode)} | ${n(r.whole.decode)} | ${n(r.stream.leaf.encode)} (${ratio(r.stream.leaf.encode, r.whole.encode)}) | ${n(r.stream.leaf.decode)} (${ratio(r.stream.leaf.decode, r.whole.decode)}) | ` +
      `${n(r.stream.element.encode)} (${ratio(r.stream.element.encode, r.whole.encode)}) | ${n(r.stream.element.decode)} (${ratio(r.stream.element.decode, r.whole.decode)}) | ${n(r.stream.jsonMode.encode)} |`,
  ),
  "",
];
writeFileSync(resolve(ROOT, "bench/results/stream.md"), md.join("\n"));
console.log(md.join("\n"));
