/**
 * Generates one module per corpus case (test/corpus/index.ts) into a folder, for the round-trip and
 * type-check suites. A case with a `pointer` compiles just that node of its file (the loader's `pointer`
 * option: `$ref`s inside it still resolve against the whole document and its folder).
 */
import { basename } from "node:path";
import * as path from "node:path";
import { loadSchemaFile } from "../../generator/load/index.ts";
import type { CorpusCase } from "../corpus/index.ts";
import { corpusRoot } from "../corpus/index.ts";
import { emitTo, type Emitted } from "./gen.ts";

export interface CorpusModule {
  case: CorpusCase;
  /** Set when generation succeeded. */
  emitted?: Emitted;
  /** Why generation failed (a ToonError message, usually). */
  error?: { code?: string; message: string };
}

/** A file name for a case id: lower-case, `-` separated, unique within `taken`. */
export function moduleBase(id: string, taken: Set<string>): string {
  const base = id.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase() || "case";
  let out = base;
  for (let i = 2; taken.has(out); i++) out = `${base}-${i}`;
  taken.add(out);
  return out;
}

export async function generateCorpusModules(cases: CorpusCase[], dir: string): Promise<CorpusModule[]> {
  const cwd = corpusRoot() ?? path.dirname(cases[0]?.schemaFile ?? ".");
  const taken = new Set<string>();
  const out: CorpusModule[] = [];
  for (const c of cases) {
    const base = moduleBase(c.id, taken);
    try {
      // third-party schemas: a few patterns backtrack (github-workflow's `^(.+\/)+...`); the round trips exercise
      // the codec, not validate on hostile strings, so they opt in as a user would (generator/load/patterns.ts)
      const ir = await loadSchemaFile(c.schemaFile, c.pointer === undefined ? { cwd, unsafePatterns: "allow" } : { cwd, pointer: c.pointer, unsafePatterns: "allow" });
      out.push({ case: c, emitted: await emitTo(ir, dir, base) });
    } catch (e) {
      const err = e as { code?: string; message?: string };
      out.push({ case: c, error: { ...(err.code === undefined ? {} : { code: err.code }), message: String(err.message ?? e) } });
    }
  }
  return out;
}

/** `file.json` or `file.json line 7, call 0`: how an instance is named in KNOWN_UNSUPPORTED and messages. */
export function instanceLabel(inst: { file: string; at?: string }): string {
  return inst.at === undefined ? basename(inst.file) : `${basename(inst.file)} ${inst.at}`;
}
