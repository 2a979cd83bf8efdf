/**
 * Test helpers around the generator: compile a schema (a file, or an in-memory document) into a module under
 * `test/.gen/<suite>/` (inside the repo, so its `@toon-gen/runtime` import resolves to ../runtime through the
 * workspace link in node_modules and the `toon-dev` condition), import it, and hand back the codec.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { spawnSync } from "node:child_process";
import { buildDictionary, type Dictionary } from "../../generator/dictionary/file.ts";
import { initHash } from "../../generator/dictionary/hash.ts";
import { emitModule } from "../../generator/emit/module.ts";
import type { SchemaIR } from "../../generator/ir/types.ts";
import { schemaToIR } from "../../generator/load/index.ts";
import type { ValidationResult } from "../../runtime/index.ts";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const GEN_ROOT = path.join(REPO, "test", ".gen");

/** The codec object every generated module exports. */
export interface Codec<T = any> {
  name: string;
  fingerprint: number;
  dictionary: { name: string; fingerprint: number; hash64: string; entries: ReadonlyArray<readonly [number, string, string]> };
  encode(value: T): Uint8Array;
  decode(bytes: Uint8Array): T;
  validate(value: unknown, options?: { constraints?: boolean }): ValidationResult<T>;
}

/** A fresh, empty `test/.gen/<suite>` folder. */
export function suiteDir(suite: string, fresh = true): string {
  const dir = path.join(GEN_ROOT, suite);
  if (fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface Emitted {
  ir: SchemaIR;
  dictionary: Dictionary;
  file: string;
  text: string;
}

/** Dictionary + module for `ir`, written to `dir/<base>.ts`. */
export async function emitTo(ir: SchemaIR, dir: string, base: string): Promise<Emitted> {
  await initHash();
  const dictionary = buildDictionary(ir);
  const text = emitModule(ir, dictionary, { fileName: `${base}.ts` });
  const file = path.join(dir, `${base}.ts`);
  writeFileSync(file, text);
  return { ir, dictionary, file, text };
}

/** Import a generated module and pick its codec export. */
export async function importCodec<T = any>(file: string, exportName: string): Promise<Codec<T>> {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const codec = mod[exportName] as Codec<T> | undefined;
  if (codec === undefined || typeof codec.encode !== "function") throw new Error(`${file} has no codec export ${exportName}`);
  return codec;
}

export interface Compiled<T = any> extends Emitted {
  codec: Codec<T>;
}

/** In-memory schema -> IR -> module in `dir` -> imported codec. */
export async function compileSchema<T = any>(schema: unknown, dir: string, base: string): Promise<Compiled<T>> {
  const ir = schemaToIR(schema, { source: `${base}.schema.json`, baseDir: dir });
  const e = await emitTo(ir, dir, base);
  return { ...e, codec: await importCodec<T>(e.file, ir.name) };
}

// -------------------------------------------------------------------------------------------- examples

export interface ExampleProject {
  name: string;
  dir: string;
  config: { inputs: string[]; outDir: string; dictionaryDir: string; runtimeImport?: string };
}

/** Every `examples/<name>/` with a `toon.config.json`, sorted by name. */
export function exampleProjects(): ExampleProject[] {
  const root = path.join(REPO, "examples");
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(root, d.name, "toon.config.json")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const dir = path.join(root, name);
      return { name, dir, config: JSON.parse(readFileSync(path.join(dir, "toon.config.json"), "utf8")) };
    });
}

// -------------------------------------------------------------------------------------------- tsc

export interface TscResult {
  ok: boolean;
  /** Diagnostics (the file list left out). */
  output: string;
  /** Every file tsc read (absolute paths), so callers can check that their modules were among them. */
  files: string[];
  ms: number;
}

/**
 * One `tsc --noEmit` run (strict, the repo's compiler options) over `include` globs, through a throw-away
 * tsconfig in `dir` that extends the repo's.
 */
export function typecheck(dir: string, include: string[]): TscResult {
  const rel = (p: string): string => {
    const r = path.relative(dir, p).split(path.sep).join("/");
    return r.startsWith(".") ? r : "./" + r;
  };
  const config = {
    extends: rel(path.join(REPO, "tsconfig.json")),
    compilerOptions: { noEmit: true, strict: true, skipLibCheck: true, incremental: false },
    include: include.map(rel),
    // the repo's tsconfig excludes test/.gen, where these modules live
    exclude: [rel(path.join(REPO, "node_modules"))],
  };
  const tsconfig = path.join(dir, "tsconfig.json");
  writeFileSync(tsconfig, JSON.stringify(config, null, 2));
  const started = performance.now();
  const res = spawnSync(process.execPath, [path.join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig, "--pretty", "false", "--listFiles"], {
    cwd: REPO,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const lines = `${res.stdout ?? ""}${res.stderr ?? ""}`.split("\n");
  const files = lines.filter((l) => l.startsWith("/") && l.endsWith(".ts")).map((l) => path.resolve(l.trim()));
  const output = lines.filter((l) => !(l.startsWith("/") && l.endsWith(".ts"))).join("\n") + (res.error ? String(res.error) : "");
  return { ok: res.status === 0, output, files, ms: performance.now() - started };
}

// -------------------------------------------------------------------------------------------- misc

/** Short printable form of bytes, for messages. */
export function hex(bytes: Uint8Array, max = 48): string {
  const parts = [...bytes.subarray(0, max)].map((b) => b.toString(16).padStart(2, "0"));
  return parts.join(" ") + (bytes.length > max ? ` ... (${bytes.length} bytes)` : "");
}
