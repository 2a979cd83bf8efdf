/**
 * TOON text benchmark (issue 5): tokens and speed.
 *
 *   node --conditions=toon-dev --import tsx bench/text-tokens.ts [--quick] [--no-speed] [--no-tokens]
 *
 * Tokens (gpt-tokenizer, o200k_base) of pretty JSON, compact JSON, @toon-format/toon `encode` and ours
 * (`Codec.toText` for the examples, the runtime `encodeText` for the schemaless corpus datasets; the two are
 * byte-identical) on the four examples and the corpus datasets (test/corpus/index.ts `datasetFiles()`).
 * Speed: ops/s of the generated `toText` / `fromText` against @toon-format/toon `encode` / `decode` and against
 * `JSON.stringify` / `JSON.parse`, on the examples: warm-up, then interleaved rounds per case, best round.
 * Targets: toText and fromText at least 5x the reference's encode and decode; never more tokens than the reference.
 * Writes bench/results/text.json and prints markdown tables.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { decode as refDecode, encode as refEncode } from "@toon-format/toon";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { encodeText } from "../runtime/text/index.ts";
import { corpusRelative, datasetFiles } from "../test/corpus/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const args = new Set(process.argv.slice(2));
const quick = args.has("--quick");

interface TextCodec {
  toText(v: unknown): string;
  fromText(t: string): unknown;
}

const EXAMPLES: [string, string, string][] = [
  ["orders", "order-list", "OrderList"],
  ["logs", "log-report", "LogReport"],
  ["extraction", "extraction-result", "ExtractionResult"],
  ["tool-calls", "tool-call-batch", "ToolCallBatch"],
];

interface Example {
  name: string;
  value: unknown;
  codec: TextCodec;
}

async function loadExamples(): Promise<Example[]> {
  const out: Example[] = [];
  for (const [dir, base, codecName] of EXAMPLES) {
    const value = JSON.parse(readFileSync(path.join(ROOT, "examples", dir, "data", `${base}.json`), "utf8"));
    const mod = (await import(path.join(ROOT, "examples", dir, "gen", `${base}.ts`))) as Record<string, TextCodec>;
    const codec = mod[codecName];
    if (codec === undefined) throw new Error(`examples/${dir}/gen/${base}.ts exports no ${codecName}`);
    out.push({ name: dir, value, codec });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Tokens

interface TokenRow {
  dataset: string;
  prettyJson: number;
  compactJson: number;
  reference: number;
  ours: number;
  /** Our text equals the reference's byte for byte. */
  identical: boolean;
  oursBytes: number;
  referenceBytes: number;
}

function tokenRow(dataset: string, value: unknown, ours: string): TokenRow {
  const ref = refEncode(value as never);
  const utf8 = (s: string): number => Buffer.byteLength(s, "utf8");
  return {
    dataset,
    prettyJson: countTokens(JSON.stringify(value, null, 2)),
    compactJson: countTokens(JSON.stringify(value)),
    reference: countTokens(ref),
    ours: countTokens(ours),
    identical: ours === ref,
    oursBytes: utf8(ours),
    referenceBytes: utf8(ref),
  };
}

function tokenTable(rows: TokenRow[]): string {
  const pct = (a: number, b: number): string => `${((a / b) * 100).toFixed(1)}%`;
  const lines = [
    "| dataset | pretty JSON | compact JSON | @toon-format/toon | toon-gen | toon-gen / reference | toon-gen / pretty JSON | same text |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.dataset} | ${r.prettyJson.toLocaleString("en-US")} | ${r.compactJson.toLocaleString("en-US")} | ${r.reference.toLocaleString("en-US")} | ${r.ours.toLocaleString("en-US")} | ${pct(r.ours, r.reference)} | ${pct(r.ours, r.prettyJson)} | ${r.identical ? "yes" : "no"} |`,
    );
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------------
// Speed

interface Case {
  name: string;
  fn: () => unknown;
  best: number;
}

function run(fn: () => unknown, ms: number): number {
  let iters = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    fn();
    iters++;
    now = performance.now();
  }
  return (iters * 1000) / (now - start);
}

interface SpeedRow {
  dataset: string;
  toText: number;
  referenceEncode: number;
  jsonStringify: number;
  fromText: number;
  referenceDecode: number;
  jsonParse: number;
  encodeVsReference: number;
  decodeVsReference: number;
}

function speed(ex: Example): SpeedRow {
  const text = ex.codec.toText(ex.value);
  const json = JSON.stringify(ex.value);
  if (!isDeepStrictEqual(ex.codec.fromText(text), ex.value)) throw new Error(`${ex.name}: fromText(toText(v)) differs`);
  if (!isDeepStrictEqual(refDecode(text), JSON.parse(json))) throw new Error(`${ex.name}: @toon-format/toon decodes our text differently`);
  const cases: Case[] = [
    { name: "toText", fn: () => ex.codec.toText(ex.value), best: 0 },
    { name: "reference encode", fn: () => refEncode(ex.value as never), best: 0 },
    { name: "JSON.stringify", fn: () => JSON.stringify(ex.value), best: 0 },
    { name: "fromText", fn: () => ex.codec.fromText(text), best: 0 },
    { name: "reference decode", fn: () => refDecode(text), best: 0 },
    { name: "JSON.parse", fn: () => JSON.parse(json), best: 0 },
  ];
  const rounds = quick ? 3 : 7;
  const ms = quick ? 120 : 300;
  for (const c of cases) run(c.fn, quick ? 200 : 600);
  for (let r = 0; r < rounds; r++) for (const c of cases) c.best = Math.max(c.best, run(c.fn, ms));
  const by = (n: string): number => cases.find((c) => c.name === n)!.best;
  return {
    dataset: ex.name,
    toText: by("toText"),
    referenceEncode: by("reference encode"),
    jsonStringify: by("JSON.stringify"),
    fromText: by("fromText"),
    referenceDecode: by("reference decode"),
    jsonParse: by("JSON.parse"),
    encodeVsReference: by("toText") / by("reference encode"),
    decodeVsReference: by("fromText") / by("reference decode"),
  };
}

function speedTable(rows: SpeedRow[]): string {
  const n = (x: number): string => Math.round(x).toLocaleString("en-US");
  const lines = [
    "| dataset | toText | @toon-format/toon encode | JSON.stringify | toText / reference | fromText | @toon-format/toon decode | JSON.parse | fromText / reference |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.dataset} | ${n(r.toText)} | ${n(r.referenceEncode)} | ${n(r.jsonStringify)} | ${r.encodeVsReference.toFixed(1)}x | ${n(r.fromText)} | ${n(r.referenceDecode)} | ${n(r.jsonParse)} | ${r.decodeVsReference.toFixed(1)}x |`,
    );
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------------

const examples = await loadExamples();
const result: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: os.cpus()[0]?.model ?? "unknown",
  cores: os.cpus().length,
  tokenizer: "gpt-tokenizer 4.0.0, o200k_base",
  reference: "@toon-format/toon 4.4.0",
};
const out: string[] = [];
let ok = true;

if (!args.has("--no-tokens")) {
  const rows: TokenRow[] = examples.map((ex) => tokenRow(`examples/${ex.name}`, ex.value, ex.codec.toText(ex.value)));
  for (const file of datasetFiles()) {
    const value = JSON.parse(readFileSync(file, "utf8"));
    rows.push(tokenRow(corpusRelative(file), value, encodeText(value)));
  }
  const worse = rows.filter((r) => r.ours > r.reference);
  ok &&= worse.length === 0;
  result.tokens = rows;
  out.push(
    "### Tokens (o200k_base)",
    "",
    tokenTable(rows),
    "",
    worse.length === 0
      ? `Target met: never more tokens than @toon-format/toon (${rows.length} datasets).`
      : `TARGET MISSED: more tokens than @toon-format/toon on ${worse.map((r) => r.dataset).join(", ")}.`,
    "",
  );
  if (datasetFiles().length === 0) out.push("(corpus datasets absent: /work/shared/corpus not found)", "");
}

if (!args.has("--no-speed")) {
  const rows = examples.map(speed);
  const slow = rows.filter((r) => r.encodeVsReference < 5 || r.decodeVsReference < 5);
  ok &&= slow.length === 0;
  result.speed = rows;
  out.push(
    `### Speed (ops/s, best of ${quick ? 3 : 7} interleaved rounds after warm-up; Node ${process.version}, ${result.cpu as string}, ${result.cores as number} cores)`,
    "",
    speedTable(rows),
    "",
    slow.length === 0
      ? "Target met: toText and fromText at least 5x @toon-format/toon encode and decode on every example."
      : `TARGET MISSED (5x) on ${slow.map((r) => r.dataset).join(", ")}.`,
    "",
  );
}

mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
writeFileSync(path.join(ROOT, "bench", "results", "text.json"), JSON.stringify({ ...result, targetsMet: ok }, null, 2) + "\n");
console.log(out.join("\n"));
console.log("results: bench/results/text.json");
