/**
 * `npm run demo`: the main job on the examples. For each example project it runs the generator with the
 * project's own toon.config.json, imports the generated codec, round-trips the sample data (failing loudly on
 * any difference) and prints what each representation costs in bytes, and what the text a model reads costs in
 * tokens (o200k_base, the tokenizer of OpenAI's current models): compact JSON, TOON v4 as @toon-format/toon writes
 * it, and the codec's dense layout (round-tripped too).
 */
import { deepStrictEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { encode as toonEncode } from "@toon-format/toon";
import { generate, loadConfig } from "toon-gen";

const here = path.dirname(fileURLToPath(import.meta.url));

interface Example {
  dir: string;
  data: string;
  module: string;
  codec: string;
}

const EXAMPLES: Example[] = [
  { dir: "orders", data: "data/order-list.json", module: "gen/order-list.ts", codec: "OrderList" },
  { dir: "logs", data: "data/log-report.json", module: "gen/log-report.ts", codec: "LogReport" },
  { dir: "extraction", data: "data/extraction-result.json", module: "gen/extraction-result.ts", codec: "ExtractionResult" },
  { dir: "tool-calls", data: "data/tool-call-batch.json", module: "gen/tool-call-batch.ts", codec: "ToolCallBatch" },
  // a tool set from an OpenAI tool-definition file: its batch codec on the calls of the recorded responses
  { dir: "tools", data: "data/calls.json", module: "gen/weather-tools/batch.ts", codec: "WeatherToolsBatch" },
];

interface Codec {
  encode(v: unknown): Uint8Array;
  decode(b: Uint8Array): unknown;
  toText?(v: unknown, options?: { layout?: "toon" | "dense" }): string;
  fromText?(t: string): unknown;
}

const rows: string[][] = [];
const tokenRows: string[][] = [];
for (const ex of EXAMPLES) {
  const dir = path.join(here, ex.dir);
  const { config, baseDir } = loadConfig(undefined, dir);
  const result = await generate(config, { cwd: baseDir });
  const mod = (await import(pathToFileURL(path.join(dir, ex.module)).href)) as Record<string, Codec>;
  const codec = mod[ex.codec]!;
  const value: unknown = JSON.parse(readFileSync(path.join(dir, ex.data), "utf8"));
  const bytes = codec.encode(value);
  deepStrictEqual(codec.decode(bytes), value, `${ex.dir}: the decoded value differs from the input`);
  const pretty = Buffer.byteLength(JSON.stringify(value, null, 2));
  const compact = Buffer.from(JSON.stringify(value));
  rows.push([
    ex.dir,
    `${result.written}/${result.files.length}`,
    String(pretty),
    String(compact.length),
    String(gzipSync(compact).length),
    String(bytes.length),
    String(gzipSync(bytes).length),
    `${((bytes.length / compact.length) * 100).toFixed(1)}%`,
  ]);
  if (codec.toText !== undefined && codec.fromText !== undefined) {
    const dense = codec.toText(value, { layout: "dense" });
    deepStrictEqual(codec.fromText(dense), value, `${ex.dir}: the dense text reads back another value`);
    const json = countTokens(compact.toString());
    const t = countTokens(dense);
    tokenRows.push([ex.dir, String(json), String(countTokens(toonEncode(value))), String(t), `${((t / json) * 100).toFixed(1)}%`]);
  }
}

/** A table in columns: the first left-aligned, the others right-aligned. */
function printTable(header: string[], body: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of body) console.log(line(r));
}

console.log("toon-gen demo: generated codecs, round-tripped every example (deep equality), sizes in bytes\n");
printTable(["example", "files written", "pretty JSON", "compact JSON", "gzip(JSON)", "TOON binary", "gzip(TOON)", "TOON/JSON"], rows);
console.log("\nwhat a model reads, in tokens (o200k_base); the dense text round-tripped too\n");
printTable(["example", "compact JSON", "TOON (@toon-format/toon)", "dense", "dense/JSON"], tokenRows);

// examples/agent-loop: the agent loop with the real OpenAI and Anthropic clients, against the loopback replay
// server (always offline here; examples/agent-loop/main.ts talks to the real APIs when given a key)
{
  const { config, baseDir } = loadConfig(undefined, path.join(here, "agent-loop"));
  await generate(config, { cwd: baseDir });
  const { default: OpenAI } = await import("openai");
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const { openaiLoop, anthropicLoop } = await import("./agent-loop/loop.ts");
  const { startReplayServer } = await import("./agent-loop/server.ts");
  const server = await startReplayServer();
  try {
    const runs = [
      ["OpenAI Chat", await openaiLoop(new OpenAI({ apiKey: "offline", baseURL: `${server.url}/v1`, maxRetries: 0 }), "gpt-4.1-mini")],
      ["Anthropic", await anthropicLoop(new Anthropic({ apiKey: "offline", baseURL: server.url, maxRetries: 0 }), "claude-sonnet-4-6")],
    ] as const;
    console.log("\nagent loop (replayed streams): tool calls run / refused with an error result, turns to the answer");
    for (const [who, t] of runs) console.log(`  ${who.padEnd(12)} ${t.calls.filter((c) => c.ok).length} run, ${t.calls.filter((c) => !c.ok).length} refused, ${t.turns} turns`);
  } finally {
    await server.close();
  }
}
