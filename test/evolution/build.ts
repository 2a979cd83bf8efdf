/**
 * Builds the evolution compatibility matrix: one schema in versions v1 -> v2 (additions) -> v3 (a removal),
 * each dictionary evolved from the one before, and v4 = v3 rebased. The generated codecs and dictionaries are
 * committed (test/evolution/gen, test/evolution/dictionaries) and test/evolution.test.ts checks they are current.
 *
 *   node --conditions=toon-dev --import tsx test/evolution/build.ts          (rewrite)
 *   buildMatrix()                                                          (in memory, for the test)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { formatDictionary, type Dictionary } from "../../generator/dictionary/file.ts";
import { evolveDictionary } from "../../generator/dictionary/evolve.ts";
import { initHash } from "../../generator/dictionary/hash.ts";
import { applyWireLayout } from "../../generator/dictionary/wire-layout.ts";
import { emitModule } from "../../generator/emit/module.ts";
import { loadSchemaFile } from "../../generator/load/index.ts";

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const VERSIONS = ["v1", "v2", "v3", "v4"] as const;

export interface MatrixFile {
  path: string;
  content: string;
}

export async function buildMatrix(): Promise<MatrixFile[]> {
  await initHash();
  const files: MatrixFile[] = [];
  let previous: Dictionary | undefined;
  for (const v of VERSIONS) {
    const rebase = v === "v4";
    const schema = path.join(HERE, "schemas", `${rebase ? "v3" : v}.schema.json`);
    const ir = await loadSchemaFile(schema, { cwd: path.join(HERE, "..", "..") });
    const result = evolveDictionary(ir, previous, { rebase });
    const breaking = result.findings.filter((f) => f.breaking);
    if (breaking.length > 0) throw new Error(`${v}: unexpected breaking changes: ${JSON.stringify(breaking, null, 2)}`);
    previous = result.dictionary;
    files.push({ path: path.join(HERE, "dictionaries", `${v}.dictionary.json`), content: formatDictionary(result.dictionary) });
    files.push({ path: path.join(HERE, "gen", `${v}.ts`), content: emitModule(applyWireLayout(ir, result.dictionary), result.dictionary, { fileName: `${v}.ts` }) });
  }
  return files;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const f of await buildMatrix()) {
    mkdirSync(path.dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content);
    console.log("wrote", path.relative(process.cwd(), f.path));
  }
}
