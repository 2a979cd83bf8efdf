/**
 * Schemaless TOON (docs/FORMAT.md §10.4) against msgpackr with records and avsc, on the examples and the
 * corpus datasets: bytes, and encode / decode time.
 *
 *   node --conditions=toon-dev --import tsx bench/schemaless.ts [--quick]
 *
 * msgpackr: `new Packr({ useRecords: true })` (record definitions travel in the message, as our dictionary
 * does). avsc: `avro.Type.forValue(value)` infers a schema, and the body does not contain it: both the body
 * alone and body + schema (its JSON) are reported. Writes bench/results/schemaless.json and prints a markdown
 * table. Round trips are checked (deep equality) for TOON and msgpackr.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { Packr } from "msgpackr";
import avro from "avsc";
import { decodeSchemaless, encodeSchemaless } from "../runtime/schemaless.ts";
import { corpusRelative, datasetFiles } from "../test/corpus/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const quick = process.argv.includes("--quick");

interface Doc {
  name: string;
  group: "example" | "corpus";
  value: unknown;
}

function documents(): Doc[] {
  const docs: Doc[] = [];
  const ex = path.join(ROOT, "examples");
  for (const d of readdirSync(ex, { withFileTypes: true }).filter((x) => x.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    for (const sub of ["data", "recorded"]) {
      let files: string[] = [];
      try {
        files = readdirSync(path.join(ex, d.name, sub)).sort();
      } catch {
        continue;
      }
      for (const f of files) {
        const text = readFileSync(path.join(ex, d.name, sub, f), "utf8");
        if (f.endsWith(".json")) docs.push({ name: `${d.name}/${f}`, group: "example", value: JSON.parse(text) });
        else if (f.endsWith(".jsonl")) docs.push({ name: `${d.name}/${f}`, group: "example", value: text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l)) });
      }
    }
  }
  const files = datasetFiles();
  if (files.length === 0) console.error("NOTICE: /work/shared/corpus is absent; only the examples are measured");
  for (const f of files) docs.push({ name: corpusRelative(f).replace(/^datasets\//, ""), group: "corpus", value: JSON.parse(readFileSync(f, "utf8")) });
  return docs;
}

/** Median milliseconds per call over a time budget. */
function time(f: () => unknown, budgetMs: number): number {
  const runs: number[] = [];
  const end = performance.now() + budgetMs;
  f();
  do {
    const t = performance.now();
    f();
    runs.push(performance.now() - t);
  } while (performance.now() < end || runs.length < 3);
  runs.sort((a, b) => a - b);
  return runs[runs.length >> 1]!;
}

interface Row {
  name: string;
  group: string;
  json: number;
  toon: number;
  msgpackr: number;
  avscBody: number | null;
  avscWithSchema: number | null;
  toonEncodeMs: number;
  toonDecodeMs: number;
  msgpackrEncodeMs: number;
  msgpackrDecodeMs: number;
}

const rows: Row[] = [];
const budget = quick ? 20 : 150;
for (const d of documents()) {
  const json = Buffer.byteLength(JSON.stringify(d.value));
  const toon = encodeSchemaless(d.value);
  if (!isDeepStrictEqual(decodeSchemaless(toon), d.value)) throw new Error(`${d.name}: schemaless round trip differs`);
  const packr = new Packr({ useRecords: true });
  const mp = packr.pack(d.value);
  if (!isDeepStrictEqual(new Packr({ useRecords: true }).unpack(mp), d.value)) console.error(`note: ${d.name}: msgpackr round trip differs`);
  let avscBody: number | null = null;
  let avscWithSchema: number | null = null;
  try {
    const type = avro.Type.forValue(d.value as object);
    avscBody = type.toBuffer(d.value).length;
    avscWithSchema = avscBody + Buffer.byteLength(JSON.stringify(type.schema()));
  } catch (e) {
    console.error(`note: ${d.name}: avsc cannot infer a type (${(e as Error).message.split("\n")[0]})`);
  }
  rows.push({
    name: d.name,
    group: d.group,
    json,
    toon: toon.length,
    msgpackr: mp.length,
    avscBody,
    avscWithSchema,
    toonEncodeMs: time(() => encodeSchemaless(d.value), budget),
    toonDecodeMs: time(() => decodeSchemaless(toon), budget),
    msgpackrEncodeMs: time(() => new Packr({ useRecords: true }).pack(d.value), budget),
    msgpackrDecodeMs: time(() => new Packr({ useRecords: true }).unpack(mp), budget),
  });
}

const total = (k: "json" | "toon" | "msgpackr"): number => rows.reduce((n, r) => n + r[k], 0);
const pct = (a: number, b: number): string => `${((a / b) * 100).toFixed(0)}%`;
const fmt = (n: number): string => (n < 1 ? n.toFixed(3) : n < 10 ? n.toFixed(2) : n.toFixed(1));

const lines: string[] = [
  "| document | JSON | msgpackr (records) | avsc body | avsc + schema | **TOON schemaless** | TOON / msgpackr | TOON enc / dec ms | msgpackr enc / dec ms |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];
for (const r of rows) {
  lines.push(
    `| ${r.name} | ${r.json} | ${r.msgpackr} | ${r.avscBody ?? "-"} | ${r.avscWithSchema ?? "-"} | **${r.toon}** | ${pct(r.toon, r.msgpackr)} | ${fmt(r.toonEncodeMs)} / ${fmt(r.toonDecodeMs)} | ${fmt(r.msgpackrEncodeMs)} / ${fmt(r.msgpackrDecodeMs)} |`,
  );
}
const avscRows = rows.filter((r) => r.avscBody !== null);
lines.push(
  `| **total** (${rows.length}) | ${total("json")} | ${total("msgpackr")} | ${avscRows.reduce((n, r) => n + r.avscBody!, 0)} | ${avscRows.reduce((n, r) => n + r.avscWithSchema!, 0)} | **${total("toon")}** | ${pct(total("toon"), total("msgpackr"))} | | |`,
);
const beatsMsgpackr = rows.filter((r) => r.toon < r.msgpackr).length;
const beatsAvscBody = avscRows.filter((r) => r.toon < r.avscBody!).length;
const beatsAvscSchema = avscRows.filter((r) => r.toon < r.avscWithSchema!).length;
const summary =
  `schemaless TOON is ${pct(total("toon"), total("msgpackr"))} of msgpackr-with-records in total and smaller on ${beatsMsgpackr} of ${rows.length} documents; ` +
  `smaller than avsc's body alone on ${beatsAvscBody} of ${avscRows.length}, than avsc body + schema on ${beatsAvscSchema} of ${avscRows.length}.`;

mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
writeFileSync(
  path.join(ROOT, "bench", "results", "schemaless.json"),
  JSON.stringify({ date: new Date().toISOString(), node: process.version, quick, summary, rows }, null, 2) + "\n",
);
console.log(lines.join("\n"));
console.log("\n" + summary);
