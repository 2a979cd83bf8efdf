/**
 * Input kinds (docs/inputs.md). Each config input is one of
 *
 * - a **JSON Schema** file (`*.json` that is not a tool-definition file): the core path, handled by the pipeline;
 * - a **tool-definition** file (`*.json` whose shape is OpenAI Chat / Responses tools, Anthropic tools, an MCP
 *   `tools/list` result, or arrays or named groups of them): a tool set -> `outDir/<file>.ts` and its codecs;
 * - a **TS/JS module** (`*.ts`, `*.mts`, `*.js`, ... optionally `#ExportName`): its exported Zod schemas ->
 *   one codec each, `outDir/<kebab-name>.ts`.
 *
 * `produceInput` turns a non-JSON-Schema input into codec units (IR + where its module and dictionary go),
 * which the pipeline runs through the ordinary dictionary and emit stages, plus extra modules (a tool set's
 * main module) that it writes as they are.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import type { SchemaIR } from "../ir/types.ts";
import { schemaToIR } from "../load/index.ts";
import { parseDocument, slash } from "../load/documents.ts";
import { emitToolSetModule, toolSetModulePaths } from "../emit/toolset.ts";
import { buildToolSet, kebabCase } from "../tools/toolset.ts";
import { isToolDefinitionDocument, readToolDefinitions, type ToolSetSource } from "./tool-definitions.ts";
import { loadZodModule, MODULE_EXTENSIONS, splitExport } from "./zod.ts";

export { isToolDefinitionDocument, readToolDefinitions, readToolDefinitionGroups, toolFormat } from "./tool-definitions.ts";
export type { ToolDefinition, ToolFormat, ToolSetSource } from "./tool-definitions.ts";
export { loadZodModule, zodToJsonSchema, isZod4Schema, isZod3Schema, isZodSchema, splitExport, zodCodecName, importModule } from "./zod.ts";
export type { ZodConversion, ZodExport, ZodMajor } from "./zod.ts";

export type InputKind = "json-schema" | "tools" | "zod";

/** One codec for the pipeline's dictionary and emit stages. */
export interface CodecUnit {
  ir: SchemaIR;
  /** Module path relative to outDir, `/` separated, ending in `.ts`. */
  module: string;
  /** Dictionary file path relative to dictionaryDir, `/` separated. */
  dictionary: string;
  /** What outDir/index.ts re-exports from the module (empty: a module only another generated module imports). */
  exports: string[];
  /** A tool set's call codec: the module exports its descriptor for the set's main module (EmitOptions.exportDescriptor). */
  exportDescriptor?: boolean;
}

/** A module written as is (a tool set's main module). */
export interface ExtraModule {
  module: string;
  content: string;
  exports: string[];
}

export interface ProducedInput {
  kind: Exclude<InputKind, "json-schema">;
  codecs: CodecUnit[];
  modules: ExtraModule[];
  warnings: string[];
}

export interface ProduceOptions {
  cwd: string;
  runtimeImport?: string;
}

/** `order-list.schema.json` / `weather-tools.json` -> `order-list` / `weather-tools` (as the pipeline names modules). */
function stem(file: string): string {
  return path.basename(file).replace(/(\.schema)?\.json$/i, "");
}

/** The kind of an input (absolute path, optionally with `#Export` for modules), reading JSON files to look. */
export async function detectInputKind(input: string): Promise<{ kind: InputKind; doc?: unknown }> {
  const { file } = splitExport(input);
  if (MODULE_EXTENSIONS.test(file)) return { kind: "zod" };
  let doc: unknown;
  try {
    doc = parseDocument(await readFile(file, "utf8"));
  } catch {
    return { kind: "json-schema" }; // the schema loader reports unreadable or invalid JSON
  }
  return isToolDefinitionDocument(doc) ? { kind: "tools", doc } : { kind: "json-schema" };
}

/** Codec units and modules for a tool-definition or Zod input; `null` for a JSON Schema (the pipeline's own path). */
export async function produceInput(input: string, options: ProduceOptions): Promise<ProducedInput | null> {
  const detected = await detectInputKind(input);
  if (detected.kind === "json-schema") return null;
  const { file, exportName } = splitExport(input);
  const source = slash(path.relative(options.cwd, file)) || path.basename(file);
  if (detected.kind === "tools") {
    const set = readToolDefinitions(detected.doc, source);
    return produceToolSet(set, { source, file, base: stem(file), ...(options.runtimeImport === undefined ? {} : { runtimeImport: options.runtimeImport }) });
  }
  const exports = await loadZodModule(file, source, exportName);
  const codecs: CodecUnit[] = [];
  const warnings: string[] = [];
  for (const z of exports) {
    const ir = schemaToIR(z.conversion.jsonSchema, { source: `${source}#${z.exportName}`, name: z.codecName, baseDir: path.dirname(file) });
    const base = kebabCase(ir.name);
    codecs.push({ ir, module: `${base}.ts`, dictionary: `${base}.dictionary.json`, exports: [ir.name] });
    warnings.push(...z.conversion.warnings);
  }
  return { kind: "zod", codecs, modules: [], warnings };
}

export interface ToolSetProduceOptions {
  /** The tool file relative to the working directory. */
  source: string;
  /** Its absolute path (relative `$ref`s resolve against its directory). */
  file: string;
  /** Module stem: `weather-tools` -> `outDir/weather-tools.ts`, set name `WeatherTools`. */
  base: string;
  runtimeImport?: string;
  /** Set name (default: `base` in PascalCase). */
  name?: string;
}

/** The codec units and main module of one tool set (also used directly by tests on grouped corpus files). */
export function produceToolSet(set: ToolSetSource, o: ToolSetProduceOptions): ProducedInput {
  const ir = buildToolSet(set, { name: o.name ?? o.base, source: o.source, baseDir: path.dirname(o.file) });
  const paths = toolSetModulePaths(o.base, ir);
  const dict = (module: string): string => module.replace(/\.ts$/, ".dictionary.json");
  const codecs: CodecUnit[] = [
    { ir: ir.call, module: paths.call, dictionary: `${o.base}.dictionary.json`, exports: [], exportDescriptor: true },
    { ir: ir.batch, module: paths.batch, dictionary: dict(paths.batch), exports: [] },
  ];
  ir.tools.forEach((t, i) => {
    codecs.push({ ir: t.args, module: paths.args[i]!, dictionary: dict(paths.args[i]!), exports: [] });
    if (t.result !== undefined) codecs.push({ ir: t.result, module: paths.results[i]!, dictionary: dict(paths.results[i]!), exports: [] });
  });
  const content = emitToolSetModule(ir, { paths, ...(o.runtimeImport === undefined ? {} : { runtimeImport: o.runtimeImport }) });
  if (ir.tools.length === 0) throw new ToonError("SCHEMA_ERROR", `${o.source}: no tools`);
  return { kind: "tools", codecs, modules: [{ module: paths.main, content, exports: [ir.name] }], warnings: ir.warnings };
}
