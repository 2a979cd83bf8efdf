/**
 * The generate pipeline: config -> input files -> IR -> dictionary (IDs read back from the committed file)
 * -> module text -> files, written only when their content changed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../runtime/errors.ts";
import { formatDictionary, parseDictionary, type Dictionary } from "./dictionary/file.ts";
import { evolveDictionary, type Finding } from "./dictionary/evolve.ts";
import { applyWireLayout } from "./dictionary/wire-layout.ts";
import { initHash } from "./dictionary/hash.ts";
import { emitModule } from "./emit/module.ts";
import { glob, hasMagic, toPosix } from "./fs/glob.ts";
import type { SchemaIR } from "./ir/types.ts";
import { loadSchemaFile } from "./load/index.ts";
import { produceInput, splitExport, type CodecUnit } from "./inputs/index.ts";
import { GENERATOR_VERSION } from "./version.ts";
import { profileSamples, readSamples, type Profile } from "./samples/profile.ts";
import { codecFingerprint, hasTables } from "./samples/tables.ts";
import { indexCandidates } from "./emit/peek.ts";
import { codecExports } from "./emit/module.ts";
import { lineComment, name as safeName, quote } from "../templates/code.ts";

export interface GenerateConfig {
  /** Globs (relative to `cwd`) of schema files. */
  inputs: string[];
  /** Where generated modules go. */
  outDir: string;
  /** Where dictionary files go (commit them). */
  dictionaryDir: string;
  /** Runtime module specifier generated code imports (default `toon-gen/runtime`). */
  runtimeImport?: string;
  /**
   * Sample data (globs) profiled for default-value tables (docs/FORMAT.md §10.1): for every codec a sample
   * fits, or per codec name.
   */
  samples?: string[] | Record<string, string[]>;
  /** Field offset tables (docs/FORMAT.md §10.2): `true` (top-level properties) or paths; or per codec name. */
  index?: true | string[] | Record<string, true | string[]>;
  /**
   * Schema `pattern`s (and `patternProperties` keys) the ReDoS checker does not certify safe: a generation error
   * (`"error"`, the default) or kept with a warning (`"allow"`: validate may then backtrack on hostile strings).
   */
  unsafePatterns?: "error" | "allow";
}

export interface GenerateOptions {
  cwd?: string;
  /** Compute everything but write nothing (used by `check`). */
  dryRun?: boolean;
  /** Codec names whose dictionaries fold into a new base (`*` for all): the explicit breaking release. */
  rebase?: string[];
  /** Sample globs (`--samples`), added to the config's `samples` for every codec. */
  samples?: string[];
  onProgress?: (done: number, total: number, file: string) => void;
}

/** An evolution finding, with the schema it is about. */
export interface SchemaFinding extends Finding {
  schema: string;
  source: string;
}

export interface GeneratedFile {
  path: string;
  content: string;
  changed: boolean;
}

export interface GeneratedSchema {
  input: string;
  ir: SchemaIR;
  dictionary: Dictionary;
  modulePath: string;
  dictionaryPath: string;
  /** What outDir/index.ts re-exports from the module (default `[ir.name]`; `[]` for a tool set's inner codecs). */
  exports?: string[];
}

export interface GenerateResult {
  schemas: GeneratedSchema[];
  files: GeneratedFile[];
  written: number;
  unchanged: number;
  warnings: string[];
  /** Evolution findings against the committed dictionaries (breaking ones stop a real run). */
  findings: SchemaFinding[];
  /** Codecs whose samples were profiled: how many samples fitted and how many paths got a default-value table. */
  profiled: { schema: string; samples: number; tables: number }[];
  ms: number;
}

/** `order-list.schema.json` -> `order-list`. */
export function baseName(file: string): string {
  return path.basename(file).replace(/(\.schema)?\.json$/i, "");
}

export function resolveInputs(config: GenerateConfig, cwd: string): string[] {
  const files = new Set<string>();
  for (const pattern of config.inputs) {
    // `src/schemas.ts#Name`: one export of a module (docs/inputs.md)
    const { file, exportName } = splitExport(pattern);
    const matches = glob(file, cwd);
    if (matches.length === 0 && !hasMagic(file)) {
      throw new ToonError("IO_ERROR", `input ${JSON.stringify(pattern)} does not exist`);
    }
    for (const m of matches) files.add(exportName === undefined ? m : `${m}#${exportName}`);
  }
  return [...files];
}

export async function generate(config: GenerateConfig, options: GenerateOptions = {}): Promise<GenerateResult> {
  const started = performance.now();
  const cwd = path.resolve(options.cwd ?? process.cwd());
  await initHash();
  const inputs = resolveInputs(config, cwd);
  const outDir = path.resolve(cwd, config.outDir);
  const dictDir = path.resolve(cwd, config.dictionaryDir);
  const files: GeneratedFile[] = [];
  const schemas: GeneratedSchema[] = [];
  const warnings: string[] = [];
  const findings: SchemaFinding[] = [];
  const profiled: GenerateResult["profiled"] = [];
  // sample files, read once: for every codec (globs), or per codec name
  const sampleCache = new Map<string, unknown[]>();
  const samplesOf = (patterns: string[]): unknown[] => {
    const key = patterns.join("\0");
    let values = sampleCache.get(key);
    if (values === undefined) sampleCache.set(key, (values = readSamples(patterns, cwd).flatMap((f) => f.values)));
    return values;
  };
  const profileFor = (ir: SchemaIR): Profile | undefined => {
    const s = config.samples;
    const patterns = [...(Array.isArray(s) ? s : (s?.[ir.name] ?? [])), ...(options.samples ?? [])];
    if (patterns.length === 0) return undefined;
    return profileSamples(ir, samplesOf(patterns));
  };
  const seenModule = new Map<string, string>();
  /** Modules written as they are (a tool set's main module), for outDir/index.ts. */
  const extraExports: { modulePath: string; exports: string[]; source: string }[] = [];
  const claim = (module: string, input: string): void => {
    const clash = seenModule.get(module);
    if (clash !== undefined) {
      throw new ToonError("CONFIG_ERROR", `${toPosix(path.relative(cwd, input))} and ${toPosix(path.relative(cwd, clash))} would both generate ${module}: rename one`);
    }
    seenModule.set(module, input);
  };
  const addCodec = (input: string, unit: CodecUnit): void => {
    const { ir } = unit;
    for (const w of ir.warnings) warnings.push(`${ir.source}: ${w}`);
    const dictionaryPath = path.join(dictDir, unit.dictionary);
    const previous = existsSync(dictionaryPath) ? parseDictionary(readFileSync(dictionaryPath, "utf8"), dictionaryPath) : undefined;
    // evolution (docs/EVOLUTION.md): the committed dictionary fixes IDs and layouts; breaking changes stop here
    const rebase = options.rebase?.includes(ir.name) === true || options.rebase?.includes("*") === true;
    // default-value tables are frozen once committed: samples are profiled only when tables can still change
    const profile = hasTables(previous) && !rebase ? undefined : profileFor(ir);
    const evolved = evolveDictionary(ir, previous, profile === undefined ? { rebase } : { rebase, profile });
    const dictionary = evolved.dictionary;
    for (const f of evolved.findings) findings.push({ ...f, schema: ir.name, source: ir.source });
    const breaking = evolved.findings.filter((f) => f.breaking);
    if (breaking.length > 0 && !options.dryRun) {
      throw new ToonError(
        "SCHEMA_ERROR",
        `${ir.source}: ${breaking.length} breaking change${breaking.length === 1 ? "" : "s"} against ${toPosix(path.relative(cwd, dictionaryPath))}; nothing was written`,
        { details: breaking.map((f) => ({ path: f.path, message: `[${f.rule}] ${f.message}; fix: ${f.fix}` })) },
      );
    }
    const modulePath = path.join(outDir, unit.module);
    const emitOptions: Parameters<typeof emitModule>[2] = { fileName: unit.module };
    if (config.runtimeImport !== undefined) emitOptions.runtimeImport = config.runtimeImport;
    const index = indexFor(config.index, ir);
    if (index !== undefined) emitOptions.index = index;
    if (profile !== undefined) profiled.push({ schema: ir.name, samples: profile.samples, tables: dictionary.defaults?.tables.length ?? 0 });
    files.push(fileOf(modulePath, emitModule(applyWireLayout(ir, dictionary), dictionary, emitOptions)));
    files.push(fileOf(dictionaryPath, formatDictionary(dictionary)));
    // the codec's own name stands for the codec object and its feature groups (emit/module.ts)
    const exports = (unit.exports ?? [ir.name]).flatMap((n) => (n === ir.name ? codecExports(n, index !== undefined) : [n]));
    schemas.push({ input, ir, dictionary, modulePath, dictionaryPath, exports });
  };

  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i]!;
    options.onProgress?.(i, inputs.length, input);
    // tool-definition files and Zod modules (generator/inputs/); null for a JSON Schema
    const produced = await produceInput(input, config.runtimeImport === undefined ? { cwd } : { cwd, runtimeImport: config.runtimeImport });
    if (produced === null) {
      const base = baseName(input);
      claim(`${base}.ts`, input);
      const ir = await loadSchemaFile(input, config.unsafePatterns === undefined ? { cwd } : { cwd, unsafePatterns: config.unsafePatterns });
      addCodec(input, { ir, module: `${base}.ts`, dictionary: `${base}.dictionary.json`, exports: [ir.name] });
      continue;
    }
    for (const w of produced.warnings) warnings.push(w);
    for (const unit of produced.codecs) {
      claim(unit.module, input);
      addCodec(input, unit);
    }
    for (const m of produced.modules) {
      claim(m.module, input);
      const modulePath = path.join(outDir, m.module);
      files.push(fileOf(modulePath, m.content));
      extraExports.push({ modulePath, exports: m.exports, source: toPosix(path.relative(cwd, input)) });
    }
  }
  options.onProgress?.(inputs.length, inputs.length, "");

  // fingerprints are 16 bits: different dictionaries can collide, and then only the name tells them apart
  for (const n of options.rebase ?? []) {
    if (n !== "*" && !schemas.some((s) => s.ir.name === n)) {
      throw new ToonError("CONFIG_ERROR", `--rebase ${n}: no schema generates a codec named ${n} (codecs: ${schemas.map((s) => s.ir.name).join(", ")})`);
    }
  }
  const byFp = new Map<number, GeneratedSchema[]>();
  // the fingerprint messages carry: the default-value tables' one for a codec with tables (docs/FORMAT.md §10.1)
  const hashOf = (d: Dictionary): string => (hasTables(d) ? d.defaults!.hash64 : d.base.hash64);
  for (const s of schemas) {
    const fp = `0x${codecFingerprint(s.dictionary).toString(16).padStart(4, "0")}`;
    const same = byFp.get(codecFingerprint(s.dictionary)) ?? [];
    for (const other of same) {
      warnings.push(
        hashOf(other.dictionary) !== hashOf(s.dictionary)
          ? `${s.ir.name} and ${other.ir.name} have the same 16-bit fingerprint ${fp}: a message of one would pass the other's fingerprint check (rename or add a property in one of them to tell them apart)`
          : `${s.ir.name} and ${other.ir.name} have identical dictionaries (fingerprint ${fp}): their messages are interchangeable`,
      );
    }
    byFp.set(codecFingerprint(s.dictionary), [...same, s]);
  }

  const entries: IndexEntry[] = [
    ...schemas.map((s) => ({ modulePath: s.modulePath, exports: s.exports ?? [s.ir.name], source: s.ir.source })),
    ...extraExports,
  ];
  const byName = new Map<string, IndexEntry>();
  for (const e of entries) {
    for (const n of e.exports) {
      const other = byName.get(n);
      if (other) throw new ToonError("CONFIG_ERROR", `${e.source} and ${other.source} both generate a codec named ${n}: give one a different "title"`);
      byName.set(n, e);
    }
  }
  if (schemas.length > 0) files.push(fileOf(path.join(outDir, "index.ts"), indexModule(entries)));

  let written = 0;
  for (const f of files) {
    if (!f.changed) continue;
    if (!options.dryRun) {
      mkdirSync(path.dirname(f.path), { recursive: true });
      writeFileSync(f.path, f.content);
    }
    written++;
  }
  return { schemas, files, written, unchanged: files.length - written, warnings, findings, profiled, ms: performance.now() - started };
}

function fileOf(p: string, content: string): GeneratedFile {
  let changed = true;
  try {
    changed = readFileSync(p, "utf8") !== content;
  } catch {
    /* new file */
  }
  return { path: p, content, changed };
}

interface IndexEntry {
  modulePath: string;
  exports: string[];
  source: string;
}

function indexModule(entries: IndexEntry[]): string {
  const lines = [
    lineComment(`@generated by toon-gen ${GENERATOR_VERSION}. DO NOT EDIT.`).text,
    ...entries
      .filter((e) => e.exports.length > 0)
      .sort((a, b) => (a.modulePath < b.modulePath ? -1 : 1))
      .map((e) => `export { ${e.exports.map((n) => safeName(n).text).join(", ")} } from ${quote("./" + path.basename(e.modulePath, ".ts") + ".js")};`),
  ];
  return lines.join("\n") + "\n";
}

/** The `index` option of one codec: `true` applies to codecs whose root is an object with properties. */
function indexFor(option: GenerateConfig["index"], ir: SchemaIR): true | string[] | undefined {
  if (option === undefined) return undefined;
  const own = option === true || Array.isArray(option) ? option : option[ir.name];
  if (own === undefined) return undefined;
  if (own === true && (ir.root.kind !== "object" || indexCandidates(ir).size === 0)) return undefined;
  return own;
}
