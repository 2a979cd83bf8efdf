/**
 * The run cache: an unchanged rerun does no loading or emission. A run's key hashes what its output can
 * depend on: the generator (version, and the size and mtime of its own files, so a changed generator never
 * serves old output), the config and options, the content of every input file, and the size and mtime of
 * every other file of the project (a `$ref`'d schema, a module a Zod input imports, sample data), outDir
 * and dictionaryDir aside. The entry records each output file's hash; a hit also needs every output still
 * on disk with that hash (a deleted or hand-edited generated file is regenerated).
 *
 * Entries live in node_modules/.cache/toon-gen of the project (the nearest node_modules up from it, as other
 * build tools keep theirs), else in the OS temp folder. One entry per project and config file.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { GENERATOR_VERSION } from "../version.ts";
import type { GenerateConfig, GenerateOptions, GenerateResult } from "../pipeline.ts";

/** Past this many project files the stamp costs more than it saves: no caching. */
const MAX_FILES = 20000;

export interface CacheEntry {
  key: string;
  /** Codecs the run generated (the summary line's "schemas read"). */
  codecs: number;
  warnings: string[];
  /** Output file -> sha256 of its content. */
  outputs: Record<string, string>;
}

export function contentHash(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The folder entries go to, for a project at `baseDir` (or the one given). */
export function cacheFolder(baseDir: string, given?: string): string {
  if (given !== undefined) return path.resolve(baseDir, given);
  for (let dir = baseDir; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "node_modules"))) return path.join(dir, "node_modules", ".cache", "toon-gen");
    if (dir === path.dirname(dir)) break;
  }
  return path.join(tmpdir(), "toon-gen-cache");
}

/** The entry file of one project (and config). */
export function entryFile(folder: string, baseDir: string, config: unknown): string {
  return path.join(folder, contentHash(baseDir + "\0" + JSON.stringify(config)).slice(0, 24) + ".json");
}

/** `path size mtime` lines of the files under `roots` (skipping dot folders, node_modules and `skip`). */
function stamp(roots: string[], skip: ReadonlySet<string>, lines: string[]): boolean {
  const walk = (dir: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return true;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const p = path.join(dir, e.name);
      if (skip.has(p)) continue;
      if (e.isDirectory()) {
        if (!walk(p)) return false;
      } else if (e.isFile()) {
        const s = statSync(p, { throwIfNoEntry: false });
        if (s !== undefined) lines.push(`${p} ${s.size} ${s.mtimeMs}`);
        if (lines.length > MAX_FILES) return false;
      }
    }
    return true;
  };
  return roots.every(walk);
}

let generatorStamp: string | undefined;
/** The generator's own files (generator/, templates/, runtime/ of this package, sources or dist). */
function generatorFiles(): string {
  if (generatorStamp === undefined) {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
    const lines: string[] = [GENERATOR_VERSION];
    stamp(["generator", "templates", "runtime"].map((d) => path.join(root, d)), new Set(), lines);
    generatorStamp = contentHash(lines.join("\n"));
  }
  return generatorStamp;
}

/**
 * The key of a run, or undefined when the project is too large to stamp. `inputs` are the resolved input
 * files (absolute, `#Export` allowed); `skip` the output folders.
 */
export function runKey(baseDir: string, settings: unknown, inputs: readonly string[], skip: readonly string[]): string | undefined {
  const lines: string[] = [generatorFiles(), JSON.stringify(settings)];
  for (const input of inputs) {
    const file = input.replace(/#[^/\\]*$/, "");
    let content: Buffer;
    try {
      content = readFileSync(file);
    } catch {
      return undefined; // the run reports it
    }
    lines.push(`${input} ${contentHash(content)}`);
  }
  // the folders of inputs outside the project too (their `$ref`'d neighbours)
  const roots = new Set([baseDir]);
  for (const input of inputs) {
    const dir = path.dirname(input.replace(/#[^/\\]*$/, ""));
    if (path.relative(baseDir, dir).startsWith("..")) roots.add(dir);
  }
  if (!stamp([...roots], new Set(skip), lines)) return undefined;
  return contentHash(lines.join("\n"));
}

/** The entry when it matches `key` and every output is on disk as written; else undefined. */
export function readHit(file: string, key: string): CacheEntry | undefined {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(readFileSync(file, "utf8")) as CacheEntry;
  } catch {
    return undefined;
  }
  if (entry.key !== key) return undefined;
  for (const [out, hash] of Object.entries(entry.outputs)) {
    try {
      if (contentHash(readFileSync(out)) !== hash) return undefined;
    } catch {
      return undefined;
    }
  }
  return entry;
}

/** Record a run (best effort: a cache that cannot be written only costs the next run its shortcut). */
export function writeEntry(file: string, entry: CacheEntry): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(entry));
    renameSync(temp, file);
  } catch {
    /* read-only node_modules and the like */
  }
}

/** Where a run's entry is and whether it answers the run; undefined when the cache does not apply. */
export interface CacheProbe {
  file: string;
  key: string;
  hit?: CacheEntry;
}

/**
 * Look a run up (`options.cache`; never for dry runs or rebases, which must look at everything). `inputs` are
 * the config's resolved inputs.
 */
export function probeCache(config: GenerateConfig, cwd: string, inputs: readonly string[], options: GenerateOptions): CacheProbe | undefined {
  if (options.cache === undefined || options.cache === false || options.dryRun || (options.rebase ?? []).length > 0) return undefined;
  const folder = cacheFolder(cwd, typeof options.cache === "string" ? options.cache : undefined);
  const skip = [path.resolve(cwd, config.outDir), path.resolve(cwd, config.dictionaryDir), folder];
  const key = runKey(cwd, { config, samples: options.samples ?? [], prune: options.prune === true }, inputs, skip);
  if (key === undefined) return undefined;
  const file = entryFile(folder, cwd, config);
  const hit = readHit(file, key);
  return hit === undefined ? { file, key } : { file, key, hit };
}

/** The result of a run the cache answered: nothing generated, every output unchanged. */
export function cachedResult(hit: CacheEntry, started: number): GenerateResult {
  const n = Object.keys(hit.outputs).length;
  return { schemas: [], codecs: hit.codecs, cached: true, files: [], written: 0, unchanged: n, warnings: hit.warnings, findings: [], profiled: [], orphans: [], pruned: 0, renamed: [], ms: performance.now() - started };
}
