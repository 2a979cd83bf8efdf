/** Stages 1-2 of the pipeline: JSON Schema documents in, shape IR (../ir/types.ts) out. */
export { loadSchemaFile, type LoadSchemaFileOptions } from "./load-file.ts";
export { schemaToIR, type SchemaToIROptions } from "./schema-to-ir.ts";
