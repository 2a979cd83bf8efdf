/** `toon.config.json`: read, check every field, and report mistakes by name. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../../runtime/errors.ts";
import type { GenerateConfig } from "../pipeline.ts";

export const DEFAULT_CONFIG_FILE = "toon.config.json";

const KNOWN_KEYS = new Set(["$schema", "inputs", "outDir", "dictionaryDir", "runtimeImport"]);

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
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", `${abs}: not valid JSON (${(e as Error).message})`);
  }
  return { config: checkConfig(raw, abs), baseDir: path.dirname(abs), file: abs };
}

export function checkConfig(raw: unknown, where: string): GenerateConfig {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new ToonError("CONFIG_ERROR", `${where}: the config must be a JSON object`);
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!KNOWN_KEYS.has(k)) throw new ToonError("CONFIG_ERROR", `${where}: unknown key ${JSON.stringify(k)} (known: ${[...KNOWN_KEYS].join(", ")})`, { path: "/" + k });
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
  return config;
}
