/**
 * toon-gen: the generator's programmatic API (`import { generate } from "toon-gen"`). Each stage is exported
 * on its own so build tools can run part of the pipeline: load -> IR -> dictionary -> emit.
 */
export { generate, resolveInputs, baseName } from "./pipeline.ts";
export type { GenerateConfig, GenerateOptions, GenerateResult, GeneratedFile, GeneratedSchema } from "./pipeline.ts";
export { loadConfig, checkConfig } from "./cli/config.ts";
export { loadSchemaFile, schemaToIR } from "./load/index.ts";
export { buildDictionary, formatDictionary, parseDictionary } from "./dictionary/file.ts";
export type { Dictionary, Segment, RetiredEntry } from "./dictionary/types.ts";
export type { DictionaryEntry } from "./dictionary/build.ts";
export { initHash } from "./dictionary/hash.ts";
export { emitModule } from "./emit/module.ts";
export { interpret } from "./interpret/index.ts";
export type { InterpretedCodec } from "./interpret/index.ts";
export type * from "./ir/types.ts";
export { withInt64Mode } from "./ir/int64.ts";
export type { Int64Mode } from "./ir/int64.ts";
export { GENERATOR_VERSION } from "./version.ts";
export { detectInputKind, produceInput, readToolDefinitions, readToolDefinitionGroups, loadZodModule, zodToJsonSchema } from "./inputs/index.ts";
export type { InputKind, ToolDefinition, ToolFormat, ToolSetSource, ZodConversion } from "./inputs/index.ts";
export { evolveDictionary } from "./dictionary/evolve.ts";
export type { Finding, Rule, EvolveResult } from "./dictionary/evolve.ts";
export { applyWireLayout } from "./dictionary/wire-layout.ts";
