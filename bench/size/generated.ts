/**
 * Generated size: bytes of the TypeScript module toon-gen writes for a schema, over the bytes of the schema it
 * was written from. The schema's bytes are every document the loader read for it (the file and each file a
 * `$ref` pulled in, each counted once however often it is referenced); for one definition of a definitions-only
 * document (the MCP spec), the definition and every definition it reaches through `$ref`, each once.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { buildDictionary } from "../../generator/dictionary/file.ts";
import { initHash } from "../../generator/dictionary/hash.ts";
import { emitModule } from "../../generator/emit/module.ts";
import { parseDocument, slash } from "../../generator/load/documents.ts";
import { schemaToIR } from "../../generator/load/schema-to-ir.ts";
import { moduleParts, PARTS, type Part } from "./parts.ts";
import { linkSchemaSet, type SchemaSetModule } from "../../generator/emit/link.ts";

export interface SchemaCase {
  /** Stable id: the file relative to the corpus (`schemas/tsconfig.json`), `#<pointer>` for a definition. */
  id: string;
  file: string;
  /** JSON pointer of one definition of a definitions-only document. */
  pointer?: string;
}

export interface GeneratedSize {
  id: string;
  schemaBytes: number;
  /** Documents counted in `schemaBytes` (1 = the file alone). */
  documents: number;
  /** Undefined when generation failed (see `error`). */
  moduleBytes?: number;
  ratio?: number;
  /** The module's bytes by codec feature (parts.ts). */
  parts?: Record<Part, number>;
  /** How the module was written (`"optimize": "auto"`, generator/emit/module.ts): unrolled, or on the engine. */
  written?: "speed" | "size";
  /** Modules of other corpus files it imports from (linkCorpus). */
  imports?: number;
  error?: string;
}

/** `<repo>/../shared/corpus/json-schemas`, or undefined when the corpus is absent. */
export function corpusSchemasDir(repo: string): string | undefined {
  const dir = path.join(repo, "..", "shared", "corpus", "json-schemas");
  return existsSync(path.join(dir, "schemas")) ? dir : undefined;
}

/**
 * Every schema of the corpus: each file of `schemas/`, and for each definitions-only document of `extra/` the
 * definitions its `examples/` folder has instances of (the message types real traffic carries), or all of
 * them with `allDefinitions`.
 */
export function corpusSchemaCases(dir: string, allDefinitions = false): SchemaCase[] {
  const cases: SchemaCase[] = [];
  const schemas = path.join(dir, "schemas");
  for (const n of readdirSync(schemas).filter((n) => n.endsWith(".json")).sort()) {
    cases.push({ id: `schemas/${n}`, file: path.join(schemas, n) });
  }
  const extra = path.join(dir, "extra");
  for (const spec of existsSync(extra) ? readdirSync(extra).sort() : []) {
    const file = path.join(extra, spec, "schema.json");
    if (!existsSync(file)) continue;
    const defs = (readJson(file) as { $defs?: Record<string, unknown> }).$defs ?? {};
    const examples = path.join(extra, spec, "examples");
    const wanted = allDefinitions || !existsSync(examples) ? Object.keys(defs) : readdirSync(examples).filter((n) => n in defs);
    for (const name of wanted.sort()) {
      cases.push({ id: `extra/${spec}/schema.json#/$defs/${name}`, file, pointer: `/$defs/${name}` });
    }
  }
  return cases;
}

function readJson(file: string): unknown {
  return parseDocument(readFileSync(file, "utf8"));
}

/**
 * `keep` receives each whole-file module with the files its schema read, for `linkCorpus` (a referenced file's
 * definitions emitted once, as one project of the corpus files would have them).
 */
export async function generatedSize(c: SchemaCase, cwd: string, keep?: (m: SchemaSetModule) => void): Promise<GeneratedSize> {
  await initHash();
  const text = readFileSync(c.file, "utf8");
  const doc = parseDocument(text);
  // the documents `$ref`s pull in, read through the loader so exactly what it reads is counted
  const read = new Map<string, number>();
  const readFile = (abs: string): string => {
    const t = readFileSync(abs, "utf8");
    read.set(abs, Buffer.byteLength(t));
    return t;
  };
  // a whole file weighs its bytes; one definition of a definitions-only file, what it reaches, as formatted there
  let schemaBytes =
    c.pointer === undefined
      ? Buffer.byteLength(text)
      : reachableDefinitions(doc, c.pointer).reduce<number>((sum, n) => sum + Buffer.byteLength(JSON.stringify(n, null, indentOf(text))), 0);
  let documents = 1;
  const countRead = (): void => {
    read.delete(path.resolve(c.file));
    for (const bytes of read.values()) schemaBytes += bytes;
    documents += read.size;
    read.clear();
  };
  const base = { id: c.id };
  try {
    const source = slash(path.relative(cwd, c.file));
    // corpus schemas with backtracking patterns are measured too (opted in, as their users would: load/patterns.ts)
    const ir = schemaToIR(doc, { source, baseDir: path.dirname(c.file), readFile, unsafePatterns: "allow", ...(c.pointer === undefined ? {} : { pointer: c.pointer }) });
    const reads = [path.resolve(c.file), ...read.keys()];
    countRead();
    const module = emitModule(ir, buildDictionary(ir), { fileName: `${path.basename(c.file, ".json")}.ts` });
    if (c.pointer === undefined) keep?.({ path: `${path.basename(c.file, ".json")}.ts`, content: module, file: path.resolve(c.file), reads });
    const moduleBytes = Buffer.byteLength(module);
        const m = measure(module);
    return { ...base, schemaBytes, documents, ...m, ratio: m.moduleBytes! / schemaBytes };
  } catch (e) {
    countRead();
    const err = e as { code?: string; message?: string };
    return { ...base, schemaBytes, documents, error: `${err.code === undefined ? "" : err.code + ": "}${String(err.message ?? e)}` };
  }
}

/** A module's bytes, by part, and how it was written. */
function measure(module: string): Pick<GeneratedSize, "moduleBytes" | "parts" | "written"> {
  return { moduleBytes: Buffer.byteLength(module), parts: moduleParts(module), written: module.includes("$rt.engineCodec($descriptor)") ? "size" : "speed" };
}

/**
 * The corpus files generated as one project (generator/emit/link.ts `linkSchemaSet`, as `generate` links the
 * JSON Schema inputs of a run): a module imports what it has exactly as the module of a file its schema
 * references has it. Rows of modules that changed are measured again (their schema bytes stay every file read).
 */
export function linkCorpus(rows: GeneratedSize[], modules: SchemaSetModule[], idOf: (m: SchemaSetModule) => string): void {
  const changed = linkSchemaSet(modules);
  for (const m of modules) {
    const content = changed.get(m.path);
    if (content === undefined) continue;
    const row = rows.find((r) => r.id === idOf(m));
    if (row === undefined || row.moduleBytes === undefined) continue;
    Object.assign(row, measure(content));
    row.ratio = row.moduleBytes! / row.schemaBytes;
    row.imports = (content.match(/^import (type )?\{[^}]*\} from "\.\/(?!.*\.validate\.js)[^"]+";$/gm) ?? []).length;
  }
}

/** The node at `pointer` and every node of the same document it reaches through local `$ref`s, each once. */
export function reachableDefinitions(doc: unknown, pointer: string): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  const visit = (ptr: string): void => {
    if (seen.has(ptr)) return;
    seen.add(ptr);
    const node = at(doc, ptr);
    if (node === undefined) return;
    out.push(node);
    const refs: string[] = [];
    collectRefs(node, refs);
    for (const r of refs) visit(r);
  };
  visit(pointer);
  return out;
}

function collectRefs(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const x of node) collectRefs(x, out);
  } else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/")) out.push(decodeURIComponent(v.slice(1)));
      else collectRefs(v, out);
    }
  }
}

function at(doc: unknown, pointer: string): unknown {
  let cur: unknown = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The indentation a JSON file uses (its first indented line), so re-serialised definitions weigh what they do there. */
function indentOf(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m === null ? "" : m[1]!;
}

export interface GeneratedSummary {
  schemas: number;
  failed: number;
  medianRatio: number;
  worst: { id: string; ratio: number } | undefined;
  /** Modules over 1 MB (1,048,576 bytes). */
  overOneMB: number;
  largestModule: { id: string; bytes: number } | undefined;
  /** The 10 worst by ratio, worst first. */
  worst10: GeneratedSize[];
  /** Bytes by codec feature over every module generated (the largest modules weigh most). */
  parts: Record<Part, number>;
  /** Per feature, the median over modules of its share of the module (each module weighs the same). */
  medianPartShare: Record<Part, number>;
}

export const ONE_MB = 1024 * 1024;

export function summarizeGenerated(rows: GeneratedSize[]): GeneratedSummary {
  const ok = rows.filter((r) => r.ratio !== undefined).sort((a, b) => b.ratio! - a.ratio! || (a.id < b.id ? -1 : 1));
  const medianRatio = median(ok.map((r) => r.ratio!));
  const largest = [...ok].sort((a, b) => b.moduleBytes! - a.moduleBytes!)[0];
  return {
    schemas: rows.length,
    failed: rows.length - ok.length,
    medianRatio,
    worst: ok[0] === undefined ? undefined : { id: ok[0].id, ratio: ok[0].ratio! },
    overOneMB: ok.filter((r) => r.moduleBytes! > ONE_MB).length,
    largestModule: largest === undefined ? undefined : { id: largest.id, bytes: largest.moduleBytes! },
    worst10: ok.slice(0, 10),
    parts: Object.fromEntries(PARTS.map((p) => [p, ok.reduce((sum, r) => sum + (r.parts?.[p] ?? 0), 0)])) as Record<Part, number>,
    medianPartShare: Object.fromEntries(PARTS.map((p) => [p, median(ok.map((r) => (r.parts?.[p] ?? 0) / r.moduleBytes!))])) as Record<Part, number>,
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
