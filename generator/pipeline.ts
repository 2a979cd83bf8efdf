/**
 * The generate pipeline: config -> input files -> IR -> dictionary (IDs read back from the committed file)
 * -> module text -> files, written only when their content changed.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../runtime/wire/errors.ts";
import { formatDictionary, parseDictionary } from "./dictionary/file.ts";
import type { Dictionary } from "./dictionary/types.ts";
import { evolveDictionary, type Finding } from "./dictionary/evolve.ts";
import { applyWireLayout } from "./dictionary/wire-layout.ts";
import { initHash } from "./dictionary/hash.ts";
import { emitModule, type Optimize } from "./emit/module.ts";
import { toJavaScript } from "./emit/javascript.ts";
import { linkModules, linkSchemaSet, type SchemaSetModule } from "./emit/link.ts";
import { schemaSourceOf } from "./load/source.ts";
import { toPosix } from "./fs/glob.ts";
import { baseName, resolveInputs } from "./fs/inputs.ts";
import { checkJsonSyntax } from "./fs/json.ts";
import { writeAll, removeAll } from "./fs/write.ts";
import { dictionaryFiles, findOrphans } from "./fs/orphans.ts";
import { cachedResult, contentHash, probeCache, writeEntry } from "./fs/cache.ts";
import { adoptRenamed, type OrphanDictionary } from "./dictionary/identity.ts";
import type { SchemaIR } from "./ir/types.ts";
import { withInt64Mode, type Int64Mode } from "./ir/int64.ts";
import { loadSchemaFile } from "./load/index.ts";
import { detectInputKind, produceInput, produceToolSet, readToolDefinitions, splitExport, type CodecUnit, type ExtraModule } from "./inputs/index.ts";
import { GENERATOR_VERSION } from "./version.ts";
import { buildValidatorModule, type BuildValidatorOptions } from "./validate/index.ts";
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
  /** Runtime module specifier generated code imports (default `@toon-gen/runtime`). */
  runtimeImport?: string;
  /**
   * Sample data (globs) profiled for default-value tables (docs/FORMAT.md §10.1): for every codec a sample
   * fits, or per codec name.
   */
  samples?: string[] | Record<string, string[]>;
  /** Field offset tables (docs/FORMAT.md §10.2): `true` (top-level properties) or paths; or per codec name. */
  index?: true | string[] | Record<string, true | string[]>;
  /**
   * What is written: `"ts"` (default) TypeScript modules; `"js"` ESM `.js` plus `.d.ts` for each of them
   * (generator/emit/javascript.ts), importable by plain Node with no TypeScript tooling.
   */
  target?: "ts" | "js";
  /** URI prefix -> local folder or file (relative to `cwd`): referenced remote schemas read from disk, never fetched. */
  refMap?: Record<string, string>;
  /** `false`: generated validators do not check `format` (an annotation only). Default `true`. */
  formats?: boolean;
  /**
   * Schema patterns the ReDoS checker does not certify run on re2js (linear time) where RE2 syntax can say them;
   * one neither vouches for is a generation error (`"error"`, the default) or kept on RegExp with a warning
   * (`"allow"`: validate may then backtrack on hostile strings). generator/load/patterns.ts.
   */
  unsafePatterns?: "error" | "allow";
  /**
   * How codecs are written (emit/module.ts `Optimize`, protobuf's `optimize_for`): `"speed"` unrolled hot paths,
   * `"size"` the descriptor run by the engine, `"auto"` (default) speed unless the module would pass 1 MB; or per
   * codec name (others `"auto"`).
   */
  optimize?: Optimize | Record<string, Optimize>;
  /**
   * How int64 integers (`format: "int64" | "uint64"`, `x-toon: "int64"`) decode: `"auto"` (default) a `number`
   * when safe and a `bigint` beyond 2^53 (typed `number | bigint`); `"bigint"` always a `bigint` (typed `bigint`).
   * Either way encoders take both, and the bytes are the same (generator/ir/int64.ts).
   */
  int64?: Int64Mode;
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
  /** Delete orphaned generated modules and dictionaries (`--prune`; see `GenerateResult.orphans`). */
  prune?: boolean;
  /**
   * The run cache (generator/fs/cache.ts; the CLI turns it on): when nothing an output depends on changed since
   * the last run, return at once (`cached: true`, `schemas` and `files` empty). `true` for the default folder
   * (node_modules/.cache/toon-gen), or a folder. Never used with `dryRun` or `rebase`.
   */
  cache?: boolean | string;
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
  /** How many codecs the run generated (`schemas.length`, also on a cache hit). */
  codecs: number;
  /** The run cache answered: nothing was loaded, generated or written. */
  cached: boolean;
  /** Generated modules and dictionaries (absolute paths) that no input produces any more. */
  orphans: string[];
  /** How many of them `prune` removed. */
  pruned: number;
  /** Dictionaries taken over by a renamed or moved input (paths relative to cwd; the fingerprint kept). */
  renamed: { from: string; to: string; fingerprint: number }[];
  ms: number;
}

// the input list and file naming live in a light module (fs/inputs.ts), so the CLI's cached path loads no emitter
export { baseName, resolveInputs } from "./fs/inputs.ts";

/** One input's failure, kept so that every failing input of a run is reported, not only the first. */
interface InputFailure {
  input: string;
  error: ToonError;
}

/** One error for a run where some inputs failed: the only one as it is, else a summary with each as a detail. */
function failuresError(failures: InputFailure[], total: number, cwd: string): ToonError {
  if (failures.length === 1) return failures[0]!.error;
  const codes = new Set(failures.map((f) => f.error.code));
  const details = failures.flatMap(({ input, error }) => {
    const where = error.line === undefined ? "" : ` (line ${error.line}${error.column === undefined ? "" : `, column ${error.column}`})`;
    const file = toPosix(path.relative(cwd, splitExport(input).file));
    const reason = error.reason.startsWith(`${file}: `) ? error.reason.slice(file.length + 2) : error.reason;
    return [{ path: "", message: `${file}: ${error.code}: ${reason}${error.path === "" ? "" : ` at ${error.path}`}${where}` }, ...(error.details ?? []).map((d) => ({ path: d.path, message: `  ${d.message}` }))];
  });
  return new ToonError(codes.size === 1 ? [...codes][0]! : "SCHEMA_ERROR", `${failures.length} of ${total} inputs failed; nothing was written`, { details });
}

/** What one input produced, to run through the dictionary and emit stages. */
interface PendingInput {
  input: string;
  kind: "json-schema" | "tools" | "zod";
  codecs: CodecUnit[];
  /** Modules written as they are (a tool set's main module). */
  modules: ExtraModule[];
}

export async function generate(config: GenerateConfig, options: GenerateOptions = {}): Promise<GenerateResult> {
  const started = performance.now();
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const inputs = resolveInputs(config, cwd);
  const outDir = path.resolve(cwd, config.outDir);
  const dictDir = path.resolve(cwd, config.dictionaryDir);

  // the run cache (generator/fs/cache.ts): an unchanged rerun stops here
  const cache = probeCache(config, cwd, inputs, options);
  if (cache?.hit !== undefined) return cachedResult(cache.hit, started);

  await initHash();
  let files: GeneratedFile[] = [];
  const schemas: GeneratedSchema[] = [];
  const warnings: string[] = [];
  const findings: SchemaFinding[] = [];
  const profiled: GenerateResult["profiled"] = [];
  const failures: InputFailure[] = [];
  const fail = (input: string, e: unknown): void => {
    if (!(e instanceof ToonError)) throw e;
    failures.push({ input, error: e });
  };
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

  // 1. every input to codec units (a failing input is recorded and the others still load)
  const pending: PendingInput[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i]!;
    options.onProgress?.(i, inputs.length, input);
    try {
      const { file } = splitExport(input);
      // JSON syntax errors with line and column (the loaders see only JSON.parse's character offset)
      if (/\.json$/i.test(file)) checkJsonSyntax(readInput(file, cwd), toPosix(path.relative(cwd, file)));
      // tool-definition files and Zod modules (generator/inputs/); null for a JSON Schema
      const produced = await produceInput(input, config.runtimeImport === undefined ? { cwd } : { cwd, runtimeImport: config.runtimeImport });
      if (produced === null) {
        const base = baseName(input);
        const ir = await loadSchemaFile(input, { cwd, ...(config.refMap === undefined ? {} : { refMap: config.refMap }), ...(config.unsafePatterns === undefined ? {} : { unsafePatterns: config.unsafePatterns }) });
        pending.push({ input, kind: "json-schema", codecs: [{ ir, module: `${base}.ts`, dictionary: `${base}.dictionary.json`, exports: [ir.name] }], modules: [] });
        continue;
      }
      for (const w of produced.warnings) warnings.push(w);
      pending.push({ input, kind: produced.kind, codecs: produced.codecs, modules: produced.modules });
    } catch (e) {
      fail(input, e);
    }
  }
  options.onProgress?.(inputs.length, inputs.length, "");

  // 2. dictionary identity (generator/dictionary/identity.ts): a renamed input takes over its old dictionaries
  const claimed = new Set(pending.flatMap((p) => p.codecs.map((u) => path.join(dictDir, u.dictionary))));
  const inputFiles = new Set(inputs.map((i) => splitExport(i).file));
  const orphanDictionaries = new Map<string, OrphanDictionary>();
  for (const f of dictionaryFiles(dictDir)) {
    if (claimed.has(f)) continue;
    try {
      orphanDictionaries.set(toPosix(path.relative(dictDir, f)), { rel: toPosix(path.relative(dictDir, f)), dictionary: parseDictionary(readFileSync(f, "utf8"), f) });
    } catch {
      /* not a dictionary of ours: reported as an orphan below, never read */
    }
  }
  const adopted = new Map<string, Dictionary>();
  const renamed: GenerateResult["renamed"] = [];
  for (const group of pending) {
    const first = group.codecs[0];
    if (first === undefined || existsSync(path.join(dictDir, first.dictionary))) continue;
    const taken = adoptRenamed(group.input, group.codecs, orphanDictionaries, (source) => !inputFiles.has(path.resolve(cwd, source)));
    const old = taken.get(first.dictionary);
    if (group.kind === "tools" && old !== undefined && old.name !== first.ir.name) {
      // a tool set named after its file keeps its old name: its batch dictionary refers to the call codec by it
      try {
        Object.assign(group, await reproduceToolSet(group.input, old.name, cwd, config.runtimeImport));
      } catch (e) {
        fail(group.input, e);
      }
    }
    for (const [rel, d] of taken) {
      adopted.set(rel, d);
      const from = [...orphanDictionaries.values()].find((o) => o.dictionary === d)!;
      orphanDictionaries.delete(from.rel);
      renamed.push({ from: toPosix(path.join(path.relative(cwd, dictDir), from.rel)), to: toPosix(path.join(path.relative(cwd, dictDir), rel)), fingerprint: codecFingerprint(d) });
    }
  }

  const addCodec = async (input: string, unit: CodecUnit, toolSet = false): Promise<void> => {
    const { ir } = unit;
    for (const w of ir.warnings) warnings.push(`${ir.source}: ${w}`);
    const dictionaryPath = path.join(dictDir, unit.dictionary);
    const previous = existsSync(dictionaryPath) ? parseDictionary(readFileSync(dictionaryPath, "utf8"), dictionaryPath) : adopted.get(unit.dictionary);
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
    const optimize = typeof config.optimize === "object" ? config.optimize[ir.name] : config.optimize;
    if (optimize !== undefined) emitOptions.optimize = optimize;
    // a tool set's codecs name each definition's descriptor shape after it, for step 4 to share (emit/link.ts)
    if (toolSet) emitOptions.shareDefinitions = true;
    // a tool set's call codec: its descriptor is what the set's main module checks the tools' arguments against
    if (unit.exportDescriptor === true) emitOptions.exportDescriptor = true;
    if (profile !== undefined) profiled.push({ schema: ir.name, samples: profile.samples, tables: dictionary.defaults?.tables.length ?? 0 });
    // the JSON Schema validator, its own module beside the codec's (generator/validate)
    const validator = await buildValidatorModule(ir, validatorOptions(unit.module, config));
    if (validator !== undefined) {
      emitOptions.validator = validator.import;
      for (const w of validator.warnings) warnings.push(w);
      files.push(fileOf(path.join(outDir, validator.module), validator.content));
    }
    files.push(fileOf(modulePath, emitModule(withInt64Mode(applyWireLayout(ir, dictionary), config.int64), dictionary, emitOptions)));
    files.push(fileOf(dictionaryPath, formatDictionary(dictionary)));
    // the codec's own name stands for the codec object and its feature groups (emit/module.ts)
    const exports = (unit.exports ?? [ir.name]).flatMap((n) => (n === ir.name ? codecExports(n, index !== undefined) : [n]));
    schemas.push({ input, ir, dictionary, modulePath, dictionaryPath, exports });
  };

  // 3. dictionaries and modules, input by input (again every failing input is recorded)
  for (const { input, kind, codecs, modules } of pending) {
    try {
      for (const m of modules) {
        claim(m.module, input);
        const modulePath = path.join(outDir, m.module);
        files.push(fileOf(modulePath, m.content));
        extraExports.push({ modulePath, exports: m.exports, source: toPosix(path.relative(cwd, input)) });
      }
      for (const unit of codecs) {
        claim(unit.module, input);
        // (a result codec shares nothing with the others: step 4 links the args, call and batch codecs only)
        await addCodec(input, unit, kind === "tools" && !/\/results\/[^/]+\.ts$/.test(toPosix(unit.module)));
      }
    } catch (e) {
      fail(input, e);
    }
  }
  if (failures.length > 0) throw failuresError(failures, inputs.length, cwd);

  // 4. a tool set's call and batch codecs import what they share with its argument codecs (and the batch with the
  // call codec) instead of repeating it (emit/link.ts)
  const fileAt = new Map(files.map((f, i) => [f.path, i]));
  const link = (importer: string | undefined, providers: string[]): void => {
    if (importer === undefined) return;
    const at = (m: string): GeneratedFile | undefined => files[fileAt.get(path.join(outDir, m)) ?? -1];
    const mod = (m: string): { path: string; content: string } | undefined => {
      const f = at(m);
      return f === undefined ? undefined : { path: m, content: f.content };
    };
    const imp = mod(importer);
    const provs = providers.map(mod).filter((p) => p !== undefined);
    if (imp === undefined || provs.length === 0) return;
    for (const [m, content] of linkModules(imp, provs)) files[fileAt.get(path.join(outDir, m))!] = fileOf(path.join(outDir, m), content);
  };
  // a JSON Schema module imports what it has exactly as the module of another input its `$ref`s read has it
  const schemaSet: SchemaSetModule[] = [];
  for (const p of pending) {
    if (p.kind !== "json-schema") continue;
    for (const unit of p.codecs) {
      const f = files[fileAt.get(path.join(outDir, unit.module)) ?? -1];
      const source = schemaSourceOf(unit.ir);
      if (f === undefined || source === undefined) continue;
      schemaSet.push({
        path: toPosix(unit.module),
        content: f.content,
        file: path.resolve(source.abs),
        reads: [...source.documents.keys()].map((d) => path.resolve(d)),
        ...(source.pointer === "" ? {} : { part: true }),
      });
    }
  }
  for (const [m, content] of linkSchemaSet(schemaSet)) files[fileAt.get(path.join(outDir, m))!] = fileOf(path.join(outDir, m), content);
  for (const p of pending) {
    if (p.kind !== "tools") continue;
    const mods = p.codecs.map((c) => toPosix(c.module));
    const args = mods.filter((m) => /\/args\/[^/]+\.ts$/.test(m)).sort();
    const call = mods.find((m) => m.endsWith("/call.ts"));
    link(call, args);
    link(
      mods.find((m) => m.endsWith("/batch.ts")),
      [...args, ...(call === undefined ? [] : [call])],
    );
  }

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
    const fp = codecFingerprint(s.dictionary);
    byFp.set(fp, [...(byFp.get(fp) ?? []), s]);
  }
  // one warning line per set, not per pair (a batch of 1,000 schemas printed 23,032): latest name first
  const names = (xs: GeneratedSchema[]): string => {
    const n = xs.map((x) => x.ir.name).reverse();
    return n.length <= 2 ? n.join(" and ") : `${n.slice(0, -1).join(", ")} and ${n[n.length - 1]}`;
  };
  for (const [fpNum, same] of byFp) {
    if (same.length < 2) continue;
    const fp = `0x${fpNum.toString(16).padStart(4, "0")}`;
    const classes = new Map<string, GeneratedSchema[]>();
    for (const s of same) classes.set(hashOf(s.dictionary), [...(classes.get(hashOf(s.dictionary)) ?? []), s]);
    for (const members of classes.values()) {
      // codecs of nothing (tools without arguments) are alike by design: no warning for them
      const real = members.filter((m) => !isEmptyObject(m.ir));
      if (real.length >= 2) warnings.push(`${names(real)} have identical dictionaries (fingerprint ${fp}): their messages are interchangeable`);
    }
    if (classes.size >= 2) {
      const firsts = [...classes.values()].map((m) => m[0]!);
      warnings.push(`${names(firsts)} have the same 16-bit fingerprint ${fp}: a message of one would pass the other's fingerprint check (rename or add a property in one of them to tell them apart)`);
    }
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

  if (config.target === "js") {
    const ts = files.filter((f) => f.path.endsWith(".ts"));
    const compiled = await toJavaScript(ts, cwd);
    files = [...files.filter((f) => !f.path.endsWith(".ts")), ...compiled.map((f) => fileOf(f.path, f.content))];
    for (const sc of schemas) sc.modulePath = sc.modulePath.replace(/\.ts$/, ".js");
  }

  // generated files and dictionaries no input produces any more (a renamed or deleted schema's)
  const orphans = findOrphans(outDir, dictDir, new Set(files.map((f) => f.path)));
  const changed = files.filter((f) => f.changed);
  if (!options.dryRun) {
    writeAll(changed, cwd); // every output or none (generator/fs/write.ts)
    if (options.prune) removeAll(orphans, [outDir, dictDir], cwd);
  }
  const pruned = options.prune && !options.dryRun ? orphans.length : 0;
  if (cache !== undefined && (orphans.length === 0 || pruned > 0)) {
    const outputs: Record<string, string> = {};
    for (const f of files) outputs[f.path] = contentHash(f.content);
    writeEntry(cache.file, { key: cache.key, codecs: schemas.length, warnings, outputs });
  }
  return {
    schemas,
    codecs: schemas.length,
    cached: false,
    files,
    written: changed.length,
    unchanged: files.length - changed.length,
    warnings,
    findings,
    profiled,
    orphans,
    pruned,
    renamed,
    ms: performance.now() - started,
  };
}

/** A tool file's codecs again, under the set name `name` (a renamed tool file that keeps its dictionaries). */
async function reproduceToolSet(input: string, name: string, cwd: string, runtimeImport: string | undefined): Promise<{ codecs: CodecUnit[]; modules: ExtraModule[] }> {
  const { doc } = await detectInputKind(input);
  const source = toPosix(path.relative(cwd, input)) || path.basename(input);
  const produced = produceToolSet(readToolDefinitions(doc, source), { source, file: input, base: baseName(input), name, ...(runtimeImport === undefined ? {} : { runtimeImport }) });
  return { codecs: produced.codecs, modules: produced.modules };
}

/** An input file's text (IO_ERROR naming it when it cannot be read). */
function readInput(file: string, cwd: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new ToonError("IO_ERROR", `cannot read ${toPosix(path.relative(cwd, file))}: ${(e as Error).message}`);
  }
}

/** A codec of an object without properties (a tool that takes no arguments). */
function isEmptyObject(ir: SchemaIR): boolean {
  const root = ir.root.kind === "ref" ? ir.definitions.find((d) => d.name === (ir.root as { name: string }).name)?.shape : ir.root;
  return root?.kind === "object" && root.properties.length === 0;
}

function validatorOptions(module: string, config: GenerateConfig): BuildValidatorOptions {
  const o: BuildValidatorOptions = { module };
  if (config.runtimeImport !== undefined) o.runtimeImport = config.runtimeImport;
  if (config.formats === false) o.formats = false;
  if (config.unsafePatterns !== undefined) o.unsafePatterns = config.unsafePatterns;
  return o;
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
