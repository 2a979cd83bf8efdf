/**
 * What the dense benchmarks (bench/dense.ts, bench/dense-floor.ts) measure: the four example datasets through
 * their generated codecs, and every corpus instance that has a schema (test/corpus/index.ts
 * `schemaInstancePairs()`: instances ajv accepts) through the dense driver over the schema's IR.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { denseOf, type DenseCodec } from "../runtime/text/dense/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** [examples/ folder, file base name, codec export]. */
export const EXAMPLES: [string, string, string][] = [
  ["orders", "order-list", "OrderList"],
  ["logs", "log-report", "LogReport"],
  ["extraction", "extraction-result", "ExtractionResult"],
  ["tool-calls", "tool-call-batch", "ToolCallBatch"],
];

export interface TextCodec {
  toText(v: unknown, o?: { layout?: "dense" | "toon" }): string;
  fromText(t: string, o?: { layout?: "dense" | "toon" }): unknown;
}

export async function exampleCodec(dir: string, base: string, name: string): Promise<TextCodec> {
  const mod = (await import(path.join(ROOT, "examples", dir, "gen", `${base}.ts`))) as Record<string, TextCodec>;
  const c = mod[name];
  if (c === undefined) throw new Error(`examples/${dir}/gen/${base}.ts exports no ${name}`);
  return c;
}

export function exampleData(dir: string, base: string): unknown {
  return JSON.parse(readFileSync(path.join(ROOT, "examples", dir, "data", `${base}.json`), "utf8"));
}

export interface CorpusCase {
  /** The corpus entry (`schemastore/tslint`). */
  id: string;
  /** The entry and the instance (`schemastore/tslint @ tslint-test2.json`). */
  label: string;
  value: unknown;
  /** The dense driver over the entry's schema. */
  dense: DenseCodec;
}

/**
 * Every corpus instance with a schema the generator compiles (one that it does not is no dense case), or
 * undefined when ../shared/corpus is absent (a plain clone).
 */
export async function corpusCases(): Promise<CorpusCase[] | undefined> {
  const corpus = await import("../test/corpus/index.ts");
  const cwd = corpus.corpusRoot();
  if (cwd === undefined) return undefined;
  const { loadSchemaFile } = await import("../generator/load/index.ts");
  const { instanceLabel } = await import("../test/support/corpus-gen.ts");
  const cases: CorpusCase[] = [];
  for (const c of corpus.schemaInstancePairs()) {
    let ir;
    try {
      ir = await loadSchemaFile(c.schemaFile, c.pointer === undefined ? { cwd, unsafePatterns: "allow" } : { cwd, pointer: c.pointer, unsafePatterns: "allow" });
    } catch {
      continue;
    }
    const dense = denseOf(ir);
    for (const inst of c.instances) cases.push({ id: c.id, label: `${c.id} @ ${instanceLabel(inst)}`, value: inst.value, dense });
  }
  return cases;
}
