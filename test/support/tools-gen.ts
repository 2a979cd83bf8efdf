/**
 * Helpers for test/tools.test.ts and test/zod.test.ts: where the corpus is, running the dictionary and emit
 * stages over produced codec units into a folder under test/.gen (inside the repo, so `toon-gen/runtime`
 * resolves), and one `tsc` run over such a folder.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildDictionary, formatDictionary } from "../../generator/dictionary/file.ts";
import { initHash } from "../../generator/dictionary/hash.ts";
import { emitModule } from "../../generator/emit/module.ts";
import type { ProducedInput } from "../../generator/inputs/index.ts";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** `../shared/corpus` next to the repo, or undefined when this checkout has none. */
export function corpusDir(): string | undefined {
  const dir = path.resolve(REPO, "..", "shared", "corpus");
  return existsSync(path.join(dir, "tool-definitions")) ? dir : undefined;
}

/** A fresh, empty folder under test/.gen. */
export function freshDir(...parts: string[]): string {
  const dir = path.join(REPO, "test", ".gen", ...parts);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Write the modules (and dictionaries, under `dictionaries/`) of a produced input into `outDir`. */
export async function writeProduced(produced: ProducedInput, outDir: string): Promise<string[]> {
  await initHash();
  const written: string[] = [];
  const write = (rel: string, text: string): void => {
    const file = path.join(outDir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    written.push(file);
  };
  for (const unit of produced.codecs) {
    const dict = buildDictionary(unit.ir);
    // (a tool set's call codec exports its descriptor for the set's main module)
    write(unit.module, emitModule(unit.ir, dict, { fileName: unit.module, ...(unit.exportDescriptor === true ? { exportDescriptor: true } : {}) }));
    write(path.join("dictionaries", unit.dictionary), formatDictionary(dict));
  }
  for (const m of produced.modules) write(m.module, m.content);
  return written;
}

/**
 * Type-check every `.ts` under `dir` with `tsc --strict` (a tsconfig there extends the repo's). Returns the
 * diagnostics text ("" when clean).
 */
export function typeCheck(dir: string, extraFiles: string[] = []): string {
  const rel = path.relative(dir, path.join(REPO, "tsconfig.json")).split(path.sep).join("/");
  const tsconfig = {
    extends: rel,
    compilerOptions: { noEmit: true, strict: true, skipLibCheck: true, incremental: false },
    include: ["**/*.ts", ...extraFiles.map((f) => path.relative(dir, f).split(path.sep).join("/"))],
    exclude: [],
  };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  const tsc = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", path.join(dir, "tsconfig.json")], { cwd: REPO, encoding: "utf8", maxBuffer: 64 << 20 });
  return (r.stdout + r.stderr).trim();
}

/** Import a generated module (TypeScript, through the tsx loader the tests run under). */
export async function importGenerated<T = Record<string, unknown>>(file: string): Promise<T> {
  return (await import(pathToFileURL(file).href)) as T;
}

/** JSON-lines file to values. */
export function jsonLines(text: string): unknown[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as unknown);
}
