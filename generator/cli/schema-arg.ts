/**
 * `--schema` of the one-off commands (encode, decode, stats): any input kind the config takes.
 *
 * - `order.schema.json`: a JSON Schema;
 * - `tools.json`: a tool-definition file's tool set (its call codec: `{name, arguments}`), `tools.json#get_weather`:
 *   that tool's arguments codec;
 * - `schemas.ts#Invoice`: one Zod export (`schemas.ts` alone when it exports exactly one schema).
 *
 * With the dictionary `generate` committed for it, when ./toon.config.json lists the file among its inputs.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import type { SchemaIR } from "../ir/types.ts";
import { loadSchemaFile } from "../load/index.ts";
import { detectInputKind, produceInput, splitExport, type CodecUnit } from "../inputs/index.ts";
import { baseName, resolveInputs } from "../pipeline.ts";
import { DEFAULT_CONFIG_FILE, loadConfig } from "./config.ts";

export interface SchemaArg {
  ir: SchemaIR;
  /** The committed dictionary file, if any. */
  dictionary?: string;
}

/** The tool a tool set's unit is about (`... (tool "get_weather" arguments)`), if it is an arguments codec. */
function toolOf(unit: CodecUnit): string | undefined {
  const m = / \(tool (".*") arguments\)$/.exec(unit.ir.source);
  return m === null ? undefined : (JSON.parse(m[1]!) as string);
}

export async function loadSchemaArg(spec: string, cwd: string): Promise<SchemaArg> {
  // `file#name`: an export of a module or a tool of a tool file (splitExport knows only modules)
  const hash = spec.lastIndexOf("#");
  const file = hash > 0 ? spec.slice(0, hash) : spec;
  const exportName = hash > 0 ? spec.slice(hash + 1) : undefined;
  const abs = path.resolve(cwd, file);
  if (!existsSync(abs)) throw new ToonError("IO_ERROR", `--schema ${spec}: ${file} does not exist`);
  const { kind } = await detectInputKind(abs);
  let unit: CodecUnit;
  if (kind === "json-schema") {
    if (exportName !== undefined) throw new ToonError("CONFIG_ERROR", `--schema ${spec}: #${exportName} names an export or a tool, and ${file} is a JSON Schema`);
    const ir = await loadSchemaFile(file, { cwd });
    unit = { ir, module: `${baseName(abs)}.ts`, dictionary: `${baseName(abs)}.dictionary.json`, exports: [ir.name] };
  } else if (kind === "tools") {
    const produced = (await produceInput(abs, { cwd }))!;
    if (exportName === undefined) unit = produced.codecs[0]!;
    else {
      const found = produced.codecs.find((u) => toolOf(u) === exportName);
      const tools = produced.codecs.map(toolOf).filter((t) => t !== undefined);
      if (found === undefined) throw new ToonError("CONFIG_ERROR", `--schema ${spec}: ${file} has no tool ${JSON.stringify(exportName)} (tools: ${tools.join(", ")})`);
      unit = found;
    }
  } else {
    const produced = (await produceInput(exportName === undefined ? abs : `${abs}#${exportName}`, { cwd }))!;
    if (produced.codecs.length !== 1) {
      throw new ToonError("CONFIG_ERROR", `--schema ${spec}: ${file} exports ${produced.codecs.length} Zod schemas: pick one (${produced.codecs.map((u) => `${file}#${u.ir.source.replace(/^.*#/, "")}`).join(", ")})`);
    }
    unit = produced.codecs[0]!;
  }
  const dictionary = committedDictionary(abs, unit, cwd);
  return dictionary === undefined ? { ir: unit.ir } : { ir: unit.ir, dictionary };
}

/**
 * `<dictionaryDir>/<unit's dictionary>` when ./toon.config.json has the file among its inputs, so one-off
 * commands use the committed dictionary (IDs, extensions, default tables) and their messages decode with the
 * generated modules.
 */
function committedDictionary(abs: string, unit: CodecUnit, cwd: string): string | undefined {
  if (!existsSync(path.join(cwd, DEFAULT_CONFIG_FILE))) return undefined;
  try {
    const { config, baseDir } = loadConfig(undefined, cwd);
    if (!resolveInputs(config, baseDir).some((f) => path.resolve(baseDir, splitExport(f).file) === abs)) return undefined;
    const file = path.join(path.resolve(baseDir, config.dictionaryDir), unit.dictionary);
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined; // a broken config is `generate`'s business; one-off commands work without it
  }
}
