/**
 * Compression on top (docs/FORMAT.md §10.5): TOON + zstd against zstd of JSON, with gzip and brotli of
 * both for reference, on the examples (TOON with their generated codecs) and the corpus datasets (TOON
 * schemaless, no schema exists for them).
 *
 *   node --conditions=toon-dev --import tsx bench/compression.ts
 *
 * zstd: the optional zstd-napi package, level 3 (its default), loaded lazily. TOON + zstd is the message the
 * runtime writes with `{ compress: true, threshold: 0 }` (so small documents are measured too; with the default
 * 8 KiB threshold they stay uncompressed, the `default threshold` column says which would be compressed). gzip
 * and brotli: node:zlib defaults (gzip level 6, brotli quality 11). Writes bench/results/compression.json and
 * prints a markdown table.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { DEFAULT_COMPRESS_THRESHOLD, compressMessage, payloadStart, setCompressor } from "../runtime/compression.ts";
import { Flag } from "../runtime/wire/wire.ts";
import { decodeSchemaless, encodeSchemaless } from "../runtime/schemaless.ts";
import { loadZstd } from "../generator/inspect/zstd.ts";
import { corpusRelative, datasetFiles } from "../test/corpus/index.ts";
import { DATASETS } from "./datasets.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const zstd = await loadZstd();
setCompressor(zstd);

interface Codec {
  encode(v: unknown): Uint8Array;
  decode(b: Uint8Array): unknown;
}

interface Doc {
  name: string;
  mode: "schema" | "schemaless";
  value: unknown;
  encode(v: unknown): Uint8Array;
  decode(b: Uint8Array): unknown;
}

const docs: Doc[] = [];
// a variant is another codec of a dataset's data: the data once
const datasets = DATASETS.filter((d) => d.variantOf === undefined);
for (const d of datasets) {
  const mod = (await import(pathToFileURL(path.join(ROOT, d.module)).href)) as Record<string, Codec>;
  const codec = mod[d.codec]!;
  docs.push({ name: d.name, mode: "schema", value: JSON.parse(readFileSync(path.join(ROOT, d.data), "utf8")), encode: (v) => codec.encode(v), decode: (b) => codec.decode(b) });
}
for (const d of datasets) {
  docs.push({ name: `${d.name} (schemaless)`, mode: "schemaless", value: JSON.parse(readFileSync(path.join(ROOT, d.data), "utf8")), encode: (v) => encodeSchemaless(v), decode: decodeSchemaless });
}
const files = datasetFiles();
if (files.length === 0) console.error("NOTICE: /work/shared/corpus is absent; only the examples are measured");
for (const f of files) {
  docs.push({ name: corpusRelative(f).replace(/^datasets\//, ""), mode: "schemaless", value: JSON.parse(readFileSync(f, "utf8")), encode: (v) => encodeSchemaless(v), decode: decodeSchemaless });
}

interface Row {
  name: string;
  mode: string;
  json: number;
  zstdJson: number;
  gzipJson: number;
  brotliJson: number;
  toon: number;
  toonZstd: number;
  gzipToon: number;
  brotliToon: number;
  /** Whether the default 8 KiB threshold compresses this message. */
  defaultThreshold: boolean;
}

const rows: Row[] = [];
for (const d of docs) {
  const json = new TextEncoder().encode(JSON.stringify(d.value));
  const toon = d.encode(d.value);
  const z = compressMessage(toon, { compress: true, threshold: 0 });
  if (!isDeepStrictEqual(d.decode(z), d.decode(toon))) throw new Error(`${d.name}: compressed round trip differs`);
  const payload = toon.length - payloadStart(toon)!;
  const body = toon.subarray(payloadStart(toon)!);
  rows.push({
    name: d.name,
    mode: d.mode,
    json: json.length,
    zstdJson: zstd.compress(json).length,
    gzipJson: gzipSync(json).length,
    brotliJson: brotliCompressSync(json).length,
    toon: toon.length,
    toonZstd: z.length,
    gzipToon: gzipSync(body).length + (toon.length - body.length),
    brotliToon: brotliCompressSync(body).length + (toon.length - body.length),
    defaultThreshold: payload >= DEFAULT_COMPRESS_THRESHOLD && (((compressMessage(toon, { compress: true })[6]! & Flag.COMPRESSED) as number) !== 0),
  });
}

const pct = (a: number, b: number): string => `${((a / b) * 100).toFixed(0)}%`;
const sum = (k: keyof Row): number => rows.reduce((n, r) => n + (r[k] as number), 0);
const lines = [
  "| document | TOON mode | JSON | zstd(JSON) | gzip(JSON) | brotli(JSON) | TOON | **TOON+zstd** | TOON+zstd / zstd(JSON) | gzip(TOON) | brotli(TOON) | ≥ 8 KiB: compressed by default |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: |",
];
for (const r of rows) {
  lines.push(
    `| ${r.name} | ${r.mode} | ${r.json} | ${r.zstdJson} | ${r.gzipJson} | ${r.brotliJson} | ${r.toon} | **${r.toonZstd}** | ${pct(r.toonZstd, r.zstdJson)} | ${r.gzipToon} | ${r.brotliToon} | ${r.defaultThreshold ? "yes" : "no"} |`,
  );
}
lines.push(
  `| **total** | | ${sum("json")} | ${sum("zstdJson")} | ${sum("gzipJson")} | ${sum("brotliJson")} | ${sum("toon")} | **${sum("toonZstd")}** | ${pct(sum("toonZstd"), sum("zstdJson"))} | ${sum("gzipToon")} | ${sum("brotliToon")} | |`,
);
const smaller = rows.filter((r) => r.toonZstd < r.zstdJson).length;
const summary =
  `TOON+zstd is ${pct(sum("toonZstd"), sum("zstdJson"))} of zstd(JSON) in total, smaller on ${smaller} of ${rows.length} documents; ` +
  `TOON alone is ${pct(sum("toon"), sum("zstdJson"))} of zstd(JSON).`;

mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
writeFileSync(
  path.join(ROOT, "bench", "results", "compression.json"),
  JSON.stringify({ date: new Date().toISOString(), node: process.version, zstd: "zstd-napi 0.0.13, level 3", threshold: DEFAULT_COMPRESS_THRESHOLD, summary, rows }, null, 2) + "\n",
);
console.log(lines.join("\n"));
console.log("\n" + summary);
