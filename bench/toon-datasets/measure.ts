/**
 * The TOON project's token benchmark, measured here (issue 25): its eight datasets (./datasets.ts, regenerated
 * exactly), described by JSON Schemas written from their types (./schemas), written as compact JSON, TOON v4
 * (@toon-format/toon), TRON (@tron-format/tron), TSON (@zenoaihq/tson) and dense (a codec of the schema), counted
 * with o200k_base. Every format must read back the same value; dense is read back by `fromText` and, in a fenced
 * reply, by `fromModelOutput`. Tokens are deterministic: no timing here.
 */
import { isDeepStrictEqual } from "node:util";
import { readFileSync } from "node:fs";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { encode as toonEncode, decode as toonDecode } from "@toon-format/toon";
import { stringify as tronStringify, parse as tronParse } from "@tron-format/tron";
import { dumps as tsonDumps, loads as tsonLoads } from "@zenoaihq/tson";
import { schemaToIR } from "../../generator/load/index.ts";
import { compileTextCheck } from "../../generator/emit/text.ts";
import { denseOf } from "../../runtime/text/dense/index.ts";
import { fromModelOutputWith } from "../../runtime/text/model-output.ts";

/** The counts the TOON project publishes (benchmarks/results/token-efficiency.md), which the regeneration must hit. */
export const PUBLISHED: Record<string, { json: number; toon: number }> = {
  tabular: { json: 79_057, toon: 49_978 },
  nested: { json: 68_944, toon: 72_832 },
  analytics: { json: 14_211, toon: 9_115 },
  github: { json: 11_640, toon: 8_937 },
  "event-logs": { json: 128_529, toon: 154_084 },
  "nested-config": { json: 552, toon: 589 },
  keyed: { json: 15_635, toon: 10_503 },
  "nested-group": { json: 46_791, toon: 26_726 },
};

export const PEERS = ["toon", "tron", "tson"] as const;
export type Peer = (typeof PEERS)[number];

export interface DatasetTokens {
  name: string;
  description: string;
  json: number;
  toon: number;
  tron: number;
  tson: number;
  dense: number;
  /** Formats that did not read back the value they wrote (a lossy peer is left out of "best"). */
  lossy: string[];
}

/** The datasets, regenerated (TZ must be UTC before this runs: the analytics dates step through local days). */
export async function datasets(): Promise<{ name: string; description: string; data: Record<string, unknown> }[]> {
  if (new Date(2025, 0, 1).getTimezoneOffset() !== 0) throw new Error("the TOON benchmark's datasets need TZ=UTC (set it before the first Date is made)");
  const { TOKEN_EFFICIENCY_DATASETS } = await import("./datasets.ts");
  return TOKEN_EFFICIENCY_DATASETS.map((d: { name: string; description: string; data: Record<string, unknown> }) => ({ name: d.name, description: d.description, data: d.data }));
}

/** A dataset's dense codec, made from its schema as the generator makes one (load, IR, text check). */
export function denseCodec(name: string) {
  const schema = JSON.parse(readFileSync(new URL(`./schemas/${name}.schema.json`, import.meta.url), "utf8"));
  const ir = schemaToIR(schema, { source: `${name}.schema.json`, baseDir: process.cwd() });
  const { check, hints } = compileTextCheck(ir);
  return { dense: denseOf(ir), spec: { name: ir.name, descriptor: ir, check, hints } };
}

/** Tokens of every format on one dataset, each checked to read back. */
export function measure(name: string, description: string, data: Record<string, unknown>): DatasetTokens {
  const lossy: string[] = [];
  const json = JSON.stringify(data);
  const toon = toonEncode(data);
  if (!isDeepStrictEqual(toonDecode(toon), data)) lossy.push("toon");
  const tron = tronStringify(data);
  if (!isDeepStrictEqual(tronParse(tron), data)) lossy.push("tron");
  const tson = tsonDumps(data as never);
  if (!isDeepStrictEqual(tsonLoads(tson), data)) lossy.push("tson");
  const { dense, spec } = denseCodec(name);
  const text = dense.toText(data);
  if (!isDeepStrictEqual(dense.fromText(text), data)) lossy.push("dense (fromText)");
  if (!isDeepStrictEqual(fromModelOutputWith("Here it is:\n\n```toon\n" + text + "\n```\n", spec), data)) lossy.push("dense (model output)");
  return { name, description, json: countTokens(json), toon: countTokens(toon), tron: countTokens(tron), tson: countTokens(tson), dense: countTokens(text), lossy };
}

/** The fewest tokens of the peers that read back (the one dense is measured against). */
export function bestPeer(row: DatasetTokens): { peer: Peer; tokens: number } | undefined {
  let best: { peer: Peer; tokens: number } | undefined;
  for (const p of PEERS) if (!row.lossy.includes(p) && (best === undefined || row[p] < best.tokens)) best = { peer: p, tokens: row[p] };
  return best;
}
