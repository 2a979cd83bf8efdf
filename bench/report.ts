/** The results file format and its markdown rendering (used by run.ts and readme-table.ts). */
export interface CodecResult {
  bytes?: { raw: number; gzip: number; brotli: number };
  roundTrip?: string;
  roundTripShort?: string;
  freshDecoder?: string;
  encode?: Speed;
  decode?: Speed;
  /** Error output of a case that failed. */
  errors?: string[];
}

/** Speed of one operation, pooled over the rounds (each round is one process). */
export interface Speed {
  /** Median over all batches of all rounds, by `clock`. */
  opsPerSec: number;
  clock: "cpu" | "wall";
  wallOpsPerSec: number;
  cpuOpsPerSec: number;
  /** Each round's median, by `clock`. */
  roundOpsPerSec: number[];
  batchWall: number[];
  batchCpu: number[];
}

export interface Results {
  machine: {
    node: string;
    v8: string;
    cpu: string;
    cores: number;
    platform: string;
    memoryGiB: number;
    date: string;
    /** 1, 5 and 15 minute load averages when the run started and ended (other load skews wall-clock numbers). */
    loadAverage: number[];
    loadAverageAfter?: number[];
  };
  settings: {
    quick: boolean;
    filter?: string;
    warmupMs: number;
    batchMs: number;
    batches: number;
    rounds: number;
    clock: "cpu" | "wall";
    gzip: string;
    brotli: string;
    versions: Record<string, string>;
  };
  codecs: Record<string, string>;
  datasets: Record<string, Record<string, CodecResult>>;
  /** Per dataset: whether its toon-gen codec was generated with samples (absent in results from before it was recorded). */
  samples?: Record<string, boolean>;
  /** Datasets that are another codec on a dataset's data (bench/datasets.ts `variantOf`): their peers' figures are that dataset's. */
  variantOf?: Record<string, string>;
}

/** Codec the targets are measured against, and the lossless variant shown next to it. */
export const BASELINE = "avsc";
export const BASELINE_LOSSLESS = "avsc-f64";
export const SUBJECT = "toon-gen";

/** The protobuf peers (bench/proto) and the datasets where toon-gen's encode is to be at least as fast as theirs. */
export const PROTO_PEERS = ["protobufjs", "pbf"] as const;
export const PROTO_ENCODE_TARGET_DATASETS: readonly string[] = ["orders", "orders-nosamples", "logs", "logs-nosamples", "extraction", "tool-calls", "held-out-orders"];

/** A codec's results on a dataset, or on the dataset it is a variant of (the same data) when it did not run there. */
function resultOf(res: Results, ds: string, codec: string): CodecResult | undefined {
  const own = res.datasets[ds]?.[codec];
  if (own !== undefined) return own;
  const base = res.variantOf?.[ds];
  return base === undefined ? undefined : res.datasets[base]?.[codec];
}

const samplesCell = (res: Results, ds: string): string => {
  const s = res.samples?.[ds];
  return s === undefined ? "–" : s ? "yes" : "no";
};

const int = (n: number | undefined): string => (n === undefined ? "–" : Math.round(n).toLocaleString("en-US"));
const ratio = (a: number | undefined, b: number | undefined): string =>
  a === undefined || b === undefined || b === 0 ? "–" : (a / b).toFixed(2) + "x";

/** The tables: one row per dataset and codec, then the toon-gen vs avsc targets. */
export function renderTables(res: Results): string {
  const lines: string[] = [];
  lines.push("| dataset | codec | bytes | gzip | brotli | encode ops/s | decode ops/s | round-trip |");
  lines.push("|---|---|---:|---:|---:|---:|---:|---|");
  for (const [ds, codecs] of Object.entries(res.datasets)) {
    for (const [name, c] of Object.entries(codecs)) {
      const rt = c.errors?.length ? "ERROR: " + c.errors[0]!.split("\n")[0] : (c.roundTripShort ?? c.roundTrip ?? "–");
      const cell = (s: string): string => s.replace(/\|/g, "\\|");
      const codec = name === SUBJECT ? `**${name}**` : name;
      lines.push(
        `| ${ds} | ${codec} | ${int(c.bytes?.raw)} | ${int(c.bytes?.gzip)} | ${int(c.bytes?.brotli)} | ` +
          `${int(c.encode?.opsPerSec)} | ${int(c.decode?.opsPerSec)} | ${cell(rt.length > 90 ? rt.slice(0, 87) + "..." : rt)} |`,
      );
    }
  }
  lines.push("");
  lines.push(`**${SUBJECT} / ${BASELINE}** (targets: bytes ≤ 0.70x on orders and ≤ 1.00x everywhere; encode and decode ≥ 1.00x). ` +
    `In brackets: against ${BASELINE_LOSSLESS}.`);
  lines.push("");
  lines.push("| dataset | bytes | gzip | brotli | encode | decode | targets |");
  lines.push("|---|---:|---:|---:|---:|---:|---|");
  for (const [ds, codecs] of Object.entries(res.datasets)) {
    const t = codecs[SUBJECT];
    const a = resultOf(res, ds, BASELINE);
    const f = resultOf(res, ds, BASELINE_LOSSLESS);
    if (t === undefined || a === undefined) continue;
    const both = (x: (c: CodecResult) => number | undefined): string =>
      ratio(x(t), x(a)) + (f !== undefined ? ` (${ratio(x(t), x(f))})` : "");
    const misses: string[] = [];
    const bytesTarget = (res.variantOf?.[ds] ?? ds) === "orders" ? 0.7 : 1;
    if (t.bytes && a.bytes && t.bytes.raw / a.bytes.raw > bytesTarget) misses.push(`bytes > ${bytesTarget.toFixed(2)}x`);
    if (t.encode && a.encode && t.encode.opsPerSec < a.encode.opsPerSec) misses.push("encode slower");
    if (t.decode && a.decode && t.decode.opsPerSec < a.decode.opsPerSec) misses.push("decode slower");
    const incomplete = !t.bytes || !a.bytes || !t.encode || !a.encode || !t.decode || !a.decode;
    const verdict = misses.length > 0 ? "MISS: " + misses.join(", ") : incomplete ? "(partial run)" : "met";
    lines.push(
      `| ${ds} | ${both((c) => c.bytes?.raw)} | ${both((c) => c.bytes?.gzip)} | ${both((c) => c.bytes?.brotli)} | ` +
        `${both((c) => c.encode?.opsPerSec)} | ${both((c) => c.decode?.opsPerSec)} | ${verdict} |`,
    );
  }
  lines.push(...renderPeerTable(res));
  return lines.join("\n");
}

/** toon-gen / protobufjs and toon-gen / pbf, one row per dataset and peer; nothing when no peer was run. */
function renderPeerTable(res: Results): string[] {
  const rows: string[] = [];
  for (const [ds, codecs] of Object.entries(res.datasets)) {
    const t = codecs[SUBJECT];
    if (t === undefined) continue;
    for (const peer of PROTO_PEERS) {
      const p = resultOf(res, ds, peer);
      if (p === undefined) continue;
      const r = (x: (c: CodecResult) => number | undefined): string => ratio(x(t), x(p));
      const targeted = PROTO_ENCODE_TARGET_DATASETS.includes(ds);
      let verdict: string;
      if (p.errors?.length || t.errors?.length) verdict = "ERROR";
      else if (!targeted) verdict = "no target";
      else if (t.encode === undefined || p.encode === undefined) verdict = "(partial run)";
      else verdict = t.encode.opsPerSec >= p.encode.opsPerSec ? "met" : "MISS: encode slower";
      rows.push(
        `| ${ds} | ${samplesCell(res, ds)} | ${SUBJECT} / ${peer} | ${r((c) => c.bytes?.raw)} | ${r((c) => c.bytes?.gzip)} | ${r((c) => c.bytes?.brotli)} | ` +
          `${r((c) => c.encode?.opsPerSec)} | ${r((c) => c.decode?.opsPerSec)} | ${verdict} |`,
      );
    }
  }
  if (rows.length === 0) return [];
  return [
    "",
    `**${SUBJECT} / protobuf peers** (static code from bench/proto/*.proto; timed on message objects, the JSON adapter untimed; ` +
      `target: encode ≥ 1.00x on ${PROTO_ENCODE_TARGET_DATASETS.join(", ")}). samples: whether the codec was generated with ` +
      `samples of the data; a -nosamples dataset is the example's schema generated without them, on the same data.`,
    "",
    "| dataset | samples | ratio | bytes | gzip | brotli | encode | decode | target |",
    "|---|---|---|---:|---:|---:|---:|---:|---|",
    ...rows,
  ];
}

export function renderMachine(res: Results): string {
  const m = res.machine;
  const s = res.settings;
  return (
    `Node ${m.node} (V8 ${m.v8}), ${m.cpu}, ${m.cores} cores, ${m.platform}, ${m.date.slice(0, 10)}. ` +
    `One process per case and round; ops/s = median of ${s.rounds} round(s) × ${s.batches} batches of ~${s.batchMs} ms ` +
    `(each process warms up ${s.warmupMs} ms), ` +
    (s.clock === "cpu" ? "per second of CPU time of the case's process (user + system)" : "per second of wall-clock time") +
    `; load average ${m.loadAverage[0]} at the start` +
    `${s.quick ? " (--quick)" : ""}. Sizes: gzip ${s.gzip}, brotli ${s.brotli}. ` +
    Object.entries(s.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ") +
    "."
  );
}

/** The full markdown report (bench/results/latest.md). */
export function renderMarkdown(res: Results): string {
  const out: string[] = ["# toon-gen benchmarks", "", renderMachine(res), "", renderTables(res), "", "Codecs:", ""];
  for (const [name, d] of Object.entries(res.codecs)) out.push(`- **${name}**: ${d}`);
  const notes: string[] = [];
  for (const [ds, codecs] of Object.entries(res.datasets)) {
    for (const [name, c] of Object.entries(codecs)) {
      if (c.roundTrip !== undefined && c.roundTrip !== "ok") notes.push(`- ${ds} / ${name}: ${c.roundTrip}`);
      if (c.freshDecoder !== undefined && c.freshDecoder !== "ok") notes.push(`- ${ds} / ${name}, fresh decoder: ${c.freshDecoder}`);
      for (const e of c.errors ?? []) notes.push(`- ${ds} / ${name}: ERROR ${e.split("\n")[0]}`);
    }
  }
  if (notes.length > 0) out.push("", "Round-trip problems:", "", ...notes);
  return out.join("\n") + "\n";
}
