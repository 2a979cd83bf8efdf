/**
 * `toon-gen stats <file.json> [--schema <schema.json>] [--json]`: bytes and tokens (gpt-tokenizer, o200k_base,
 * the GPT-4o / GPT-5 encoding) of one JSON document as pretty JSON, compact JSON, TOON text and, with a schema,
 * the dense text layout (docs/TEXT.md) and TOON binary (its tokens counted on its base64 form, which is how binary would reach a model).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { ToonError } from "../../runtime/wire/errors.ts";
import { encodeText } from "../../runtime/text/encode.ts";
import { denseToText } from "../../runtime/text/dense/index.ts";
import { buildDictionary } from "../dictionary/file.ts";
import { readDictionary } from "./codec.ts";
import { loadSchemaArg } from "./schema-arg.ts";
import { initHash } from "../dictionary/hash.ts";
import { interpret } from "../interpret/index.ts";
import { parseJson } from "../interpret/json.ts";

export interface StatsRow {
  format: string;
  bytes: number;
  tokens: number;
  /** How the tokens were counted when not on the text itself. */
  note?: string;
}

type CountTokens = (text: string) => number;

async function tokenizer(): Promise<CountTokens> {
  try {
    const mod = (await import("gpt-tokenizer/encoding/o200k_base")) as { countTokens: CountTokens };
    return mod.countTokens;
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", `toon-gen stats counts tokens with gpt-tokenizer, which is not installed (npm install --save-dev gpt-tokenizer): ${(e as Error).message}`);
  }
}

const utf8 = (s: string): number => new TextEncoder().encode(s).length;

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** The rows of the stats table for `value` (binary only with a schema). */
export async function computeStats(value: unknown, schemaFile?: string, cwd = process.cwd()): Promise<StatsRow[]> {
  const count = await tokenizer();
  const pretty = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? Number(v) : v), 2);
  const compact = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? Number(v) : v));
  const rows: StatsRow[] = [
    { format: "pretty JSON", bytes: utf8(pretty), tokens: count(pretty) },
    { format: "compact JSON", bytes: utf8(compact), tokens: count(compact) },
  ];
  let binary: Uint8Array | undefined;
  let dense: string | undefined;
  if (schemaFile !== undefined) {
    await initHash();
    // any input kind, with the committed dictionary (default-value tables included) as encode uses it
    const { ir, dictionary: committed } = await loadSchemaArg(schemaFile, cwd);
    const codec = interpret(ir, buildDictionary(ir, committed === undefined ? undefined : readDictionary(committed, cwd)));
    const checked = codec.validate(value);
    if (!checked.ok) throw new ToonError("INVALID_VALUE", `the document does not match the schema: ${checked.errors[0]!.message}`, { path: checked.errors[0]!.path, details: checked.errors });
    binary = codec.encode(value);
    dense = denseToText(ir, value);
  }
  const text = encodeText(value);
  rows.push({ format: "TOON text", bytes: utf8(text), tokens: count(text) });
  if (dense !== undefined) rows.push({ format: "TOON text, dense layout", bytes: utf8(dense), tokens: count(dense) });
  if (binary !== undefined) rows.push({ format: "TOON binary", bytes: binary.length, tokens: count(base64(binary)), note: "tokens of its base64 form" });
  return rows;
}

/** A markdown table of stats rows, with percentages of pretty JSON. */
export function formatStats(rows: StatsRow[]): string {
  const base = rows[0]!;
  const pct = (a: number, b: number): string => (b === 0 ? "-" : `${((a / b) * 100).toFixed(1)}%`);
  const lines = [
    "| format | bytes | % of pretty JSON | tokens (o200k_base) | % of pretty JSON |",
    "|---|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.format} | ${r.bytes.toLocaleString("en-US")} | ${pct(r.bytes, base.bytes)} | ${r.tokens.toLocaleString("en-US")}${r.note ? "*" : ""} | ${pct(r.tokens, base.tokens)} |`),
  ];
  const notes = rows.filter((r) => r.note !== undefined).map((r) => `* ${r.format}: ${r.note}`);
  return lines.join("\n") + "\n" + (notes.length ? "\n" + notes.join("\n") + "\n" : "");
}

export async function runStats(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { schema: { type: "string", short: "s" }, json: { type: "boolean" } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", `stats: ${(e as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new ToonError("CONFIG_ERROR", "stats takes one JSON file: toon-gen stats <file.json> [--schema <schema.json>]");
  const cwd = process.cwd();
  const file = positionals[0]!;
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, file), "utf8");
  } catch (e) {
    throw new ToonError("IO_ERROR", `cannot read ${file}: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    if (values.schema !== undefined) {
      value = parseJson(text, (await loadSchemaArg(values.schema, cwd)).ir);
    } else {
      value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    }
  } catch (e) {
    if (e instanceof ToonError) throw e;
    throw new ToonError("INVALID_VALUE", `${file} is not valid JSON: ${(e as Error).message}`);
  }
  const rows = await computeStats(value, values.schema, cwd);
  process.stdout.write(values.json ? JSON.stringify(rows, null, 2) + "\n" : formatStats(rows));
  return 0;
}
