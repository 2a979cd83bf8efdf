/**
 * One benchmark case in its own process (spawned by bench/run.ts):
 *
 *   node --conditions=toon-dev --import tsx bench/child.ts '<json ChildArgs>'
 *
 * op "check": wire sizes (raw, gzip, brotli) and the round-trip check; op "encode" / "decode": warm-up (both
 * directions first, as an app runs them), then
 * `batches` timed batches of a calibrated iteration count, reporting each batch's ops/s and their median.
 * Prints one JSON line (ChildResult) on stdout.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { brotliCompressSync, constants as zc, gzipSync } from "node:zlib";
import { codecByName } from "./codecs.ts";
import { jsonDiff, summarize, summarizeShort } from "./compare.ts";
import { DATASETS } from "./datasets.ts";
import { measure, median } from "./measure.ts";

export { median };

export type Op = "check" | "encode" | "decode";
/**
 * cpu: ops per CPU-second of the benchmark process, which other load on the machine barely changes; wall: ops per
 * elapsed second, the usual measure on an otherwise idle machine.
 */
export type Clock = "cpu" | "wall";

export interface ChildArgs {
  dataset: string;
  codec: string;
  op: Op;
  warmupMs: number;
  batchMs: number;
  batches: number;
  clock: Clock;
}

export interface CheckResult {
  op: "check";
  raw: number;
  gzip: number;
  brotli: number;
  roundTrip: string;
  /** The same, counts only (for tables). */
  roundTripShort: string;
  /** Only for codecs that keep state between messages: whether a fresh decoder reads the message. */
  freshDecoder?: string;
}

export interface SpeedResult {
  op: "encode" | "decode";
  /** Median of the batches, by the clock the run chose (`clock`). */
  opsPerSec: number;
  clock: Clock;
  /** Medians by each clock: wall time, and CPU time of this process (user + system, all threads). */
  wallOpsPerSec: number;
  cpuOpsPerSec: number;
  /** Per batch, by each clock. */
  batchWall: number[];
  batchCpu: number[];
  itersPerBatch: number;
}

export type ChildResult = CheckResult | SpeedResult;

/** gzip level 6 (zlib's default) and brotli quality 11 (Node's default), generic mode. */
export const GZIP_LEVEL = 6;
export const BROTLI_QUALITY = 11;

const ROOT = resolve(import.meta.dirname, "..");

let sink: unknown;
const now = (): number => performance.now();

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2]!) as ChildArgs;
  const dataset = DATASETS.find((d) => d.name === args.dataset);
  if (dataset === undefined) throw new Error(`unknown dataset ${args.dataset}`);
  const data: unknown = JSON.parse(readFileSync(resolve(ROOT, dataset.data), "utf8"));
  const codec = await codecByName(args.codec).prepare(data, dataset, ROOT);
  // what encode takes: the JSON data, or the codec's own objects built from it (untimed)
  const input: unknown = codec.input !== undefined ? codec.input(data) : data;
  const toJson = (decoded: unknown): unknown => (codec.output !== undefined ? codec.output(decoded) : decoded);
  const encoded = codec.encode(input);
  let result: ChildResult;
  if (args.op === "check") {
    const bytes = codec.bytes(encoded);
    const diffs = jsonDiff(data, toJson(codec.decode(encoded)));
    const r: CheckResult = {
      op: "check",
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: GZIP_LEVEL }).length,
      brotli: brotliCompressSync(bytes, {
        params: { [zc.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zc.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }).length,
      roundTrip: summarize(diffs),
      roundTripShort: summarizeShort(diffs),
    };
    // a second message from the same (possibly stateful) encoder, read by a fresh decoder
    if (codec.decodeFresh !== undefined) {
      try {
        r.freshDecoder = summarize(jsonDiff(data, toJson(codec.decodeFresh(codec.encode(input)))));
      } catch (e) {
        r.freshDecoder = "FAILED: " + (e as Error).message;
      }
    }
    result = r;
  } else {
    // as an app does: both directions run before either is timed, so code the two share (runtime helpers,
    // tables) sees the types of both, and a codec whose encoder slows down once its decoder ran shows it
    const t0 = now();
    do {
      sink = codec.decode(codec.encode(input));
    } while (now() - t0 < args.warmupMs / 2);
    const fn = args.op === "encode" ? () => codec.encode(input) : () => codec.decode(encoded);
    const m = measure(fn, args.warmupMs / 2, args.batchMs, args.batches);
    result = {
      op: args.op,
      opsPerSec: median(args.clock === "cpu" ? m.cpu : m.wall),
      clock: args.clock,
      wallOpsPerSec: median(m.wall),
      cpuOpsPerSec: median(m.cpu),
      batchWall: m.wall,
      batchCpu: m.cpu,
      itersPerBatch: m.iters,
    };
  }
  if (sink === Symbol.for("never")) console.error("unreachable");
  process.stdout.write(JSON.stringify(result) + "\n");
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.dirname, "child.ts")) {
  main().catch((e: unknown) => {
    process.stderr.write(String((e as Error)?.stack ?? e) + "\n");
    process.exit(1);
  });
}
