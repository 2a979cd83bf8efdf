/** `toon.config.json`: read, check every field, and report mistakes by name. */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import type { GenerateConfig } from "../pipeline.ts";
import { baseName, resolveInputs } from "../fs/inputs.ts";
import { parseJsonc } from "../fs/json.ts";
import { closest } from "./suggest.ts";
import { INT64_MODES, type Int64Mode } from "../ir/int64.ts";

export const DEFAULT_CONFIG_FILE = "toon.config.json";

const KNOWN_KEYS = new Set(["$schema", "inputs", "outDir", "dictionaryDir", "runtimeImport", "samples", "index", "target", "refMap", "formats", "unsafePatterns", "optimize", "int64"]);

export interface LoadedConfig {
  config: GenerateConfig;
  /** Directory the config's relative paths resolve against (the config file's directory). */
  baseDir: string;
  file: string;
}

export function loadConfig(file: string | undefined, cwd: string): LoadedConfig {
  const abs = path.resolve(cwd, file ?? DEFAULT_CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch {
    throw new ToonError(
      "CONFIG_ERROR",
      file === undefined
        ? `no ${DEFAULT_CONFIG_FILE} in ${cwd}: create one ({ "inputs": ["schemas/*.json"], "outDir": "src/gen", "dictionaryDir": "dictionaries" }) or pass --config`
        : `cannot read config file ${abs}`,
    );
  }
  // JSONC: comments and trailing commas are fine; a syntax error names its line and column
  const raw = parseJsonc(text, abs);
  return { config: checkConfig(raw, abs), baseDir: path.dirname(abs), file: abs };
}

export function checkConfig(raw: unknown, where: string): GenerateConfig {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new ToonError("CONFIG_ERROR", `${where}: the config must be a JSON object`);
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (KNOWN_KEYS.has(k)) continue;
    const near = closest(k, KNOWN_KEYS);
    throw new ToonError("CONFIG_ERROR", `${where}: unknown key ${JSON.stringify(k)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`} (known: ${[...KNOWN_KEYS].join(", ")})`, { path: "/" + k });
  }
  const inputs = o.inputs;
  if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((x) => typeof x === "string" && x !== "")) {
    throw new ToonError("CONFIG_ERROR", `${where}: "inputs" must be a non-empty array of file paths or globs`, { path: "/inputs" });
  }
  const str = (k: string, def?: string): string => {
    const v = o[k] ?? def;
    if (typeof v !== "string" || v === "") throw new ToonError("CONFIG_ERROR", `${where}: "${k}" must be a non-empty string`, { path: "/" + k });
    return v;
  };
  const config: GenerateConfig = { inputs: inputs as string[], outDir: str("outDir"), dictionaryDir: str("dictionaryDir", "toon-dictionaries") };
  if (o.runtimeImport !== undefined) config.runtimeImport = str("runtimeImport");
  if (o.samples !== undefined) config.samples = checkSamples(o.samples, where);
  if (o.index !== undefined) config.index = checkIndex(o.index, where);
  if (o.target !== undefined) {
    if (o.target !== "ts" && o.target !== "js") throw new ToonError("CONFIG_ERROR", `${where}: "target" must be "ts" or "js"`, { path: "/target" });
    config.target = o.target;
  }
  if (o.refMap !== undefined) {
    const m = o.refMap;
    if (typeof m !== "object" || m === null || Array.isArray(m) || !Object.values(m).every((x) => typeof x === "string" && x !== "")) {
      throw new ToonError("CONFIG_ERROR", `${where}: "refMap" must map URI prefixes to local folders or files, e.g. {"https://example.com/schemas/": "./vendor/"}`, { path: "/refMap" });
    }
    config.refMap = m as Record<string, string>;
  }
  if (o.formats !== undefined) {
    if (typeof o.formats !== "boolean") throw new ToonError("CONFIG_ERROR", `${where}: "formats" must be true or false`, { path: "/formats" });
    config.formats = o.formats;
  }
  if (o.unsafePatterns !== undefined) {
    if (o.unsafePatterns !== "error" && o.unsafePatterns !== "allow") {
      throw new ToonError("CONFIG_ERROR", `${where}: "unsafePatterns" must be "error" or "allow"`, { path: "/unsafePatterns" });
    }
    config.unsafePatterns = o.unsafePatterns;
  }
  if (o.optimize !== undefined) config.optimize = checkOptimize(o.optimize, where);
  if (o.int64 !== undefined) {
    if (!INT64_MODES.includes(o.int64 as Int64Mode)) throw new ToonError("CONFIG_ERROR", `${where}: "int64" must be "auto" or "bigint"`, { path: "/int64" });
    config.int64 = o.int64 as Int64Mode;
  }
  return config;
}

const OPTIMIZE = ["speed", "size", "auto"] as const;

/** `optimize` (generator/emit/module.ts): "speed", "size" or "auto", or an object of codec name -> one of them. */
function checkOptimize(v: unknown, where: string): NonNullable<GenerateConfig["optimize"]> {
  const one = (x: unknown, at: string): (typeof OPTIMIZE)[number] => {
    if (!OPTIMIZE.includes(x as never)) throw new ToonError("CONFIG_ERROR", `${where}: "${at}" must be "speed", "size" or "auto"`, { path: "/" + at });
    return x as (typeof OPTIMIZE)[number];
  };
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const out: Record<string, (typeof OPTIMIZE)[number]> = {};
    for (const [k, x] of Object.entries(v)) out[k] = one(x, `optimize/${k}`);
    return out;
  }
  return one(v, "optimize");
}

/**
 * `samples` (default-value tables, docs/FORMAT.md §10.1): globs of sample data, for every codec whose schema
 * a sample fits, or an object of codec name -> globs.
 */
function checkSamples(v: unknown, where: string): NonNullable<GenerateConfig["samples"]> {
  const globs = (x: unknown, at: string): string[] => {
    const list = typeof x === "string" ? [x] : x;
    if (!Array.isArray(list) || list.length === 0 || !list.every((g) => typeof g === "string" && g !== "")) {
      throw new ToonError("CONFIG_ERROR", `${where}: "${at}" must be a glob or a non-empty array of globs of sample files`, { path: "/" + at });
    }
    return list as string[];
  };
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const out: Record<string, string[]> = {};
    for (const [k, x] of Object.entries(v)) out[k] = globs(x, `samples/${k}`);
    return out;
  }
  return globs(v, "samples");
}

/**
 * `index` (field offset tables, docs/FORMAT.md §10.2): `true` (every top-level property of every codec),
 * a list of dictionary paths, or an object of codec name -> `true` or paths.
 */
function checkIndex(v: unknown, where: string): NonNullable<GenerateConfig["index"]> {
  const one = (x: unknown, at: string): true | string[] => {
    if (x === true) return true;
    if (!Array.isArray(x) || x.length === 0 || !x.every((g) => typeof g === "string" && g !== "")) {
      throw new ToonError("CONFIG_ERROR", `${where}: "${at}" must be true or a non-empty array of dictionary paths`, { path: "/" + at });
    }
    return x as string[];
  };
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const out: Record<string, true | string[]> = {};
    for (const [k, x] of Object.entries(v)) out[k] = one(x, `index/${k}`);
    return out;
  }
  return one(v, "index");
}

/**
 * `<dictionaryDir>/<name>.dictionary.json` when ./toon.config.json has `schema` among its inputs, so one-off
 * commands (encode, decode, inspect, stats) use the committed dictionary, default tables included.
 */
export function committedDictionary(schema: string, cwd: string): string | undefined {
  if (!existsSync(path.join(cwd, DEFAULT_CONFIG_FILE))) return undefined;
  try {
    const { config, baseDir } = loadConfig(undefined, cwd);
    const abs = path.resolve(cwd, schema);
    if (!resolveInputs(config, baseDir).some((f) => path.resolve(baseDir, f) === abs)) return undefined;
    const file = path.join(path.resolve(baseDir, config.dictionaryDir), `${baseName(abs)}.dictionary.json`);
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined; // a broken config is `generate`'s business; one-off commands work without it
  }
}
