/**
 * The JSON Schema validator of one codec: compiled from its source schema (recorded by the loader) into
 * `<name>.validate.ts`, beside the codec module, which imports it for `validate()` and `fromModelOutput`.
 */
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { SchemaIR } from "../ir/types.ts";
import { schemaSourceOf } from "../load/source.ts";
import { compileValidator } from "./compile.ts";
import { emitValidatorModule, schemaCheckName, validatorModuleFile } from "./emit.ts";
import { validatorInput } from "./input.ts";

export { compileValidator, type CompiledValidator, type ValidatorInput } from "./compile.ts";
export { emitValidatorModule, instantiateValidator, schemaCheckName, validatorModuleFile } from "./emit.ts";
export { validatorInput } from "./input.ts";

export interface ValidatorModule {
  /** Path relative to outDir, `/` separated (`order-list.validate.ts`). */
  module: string;
  content: string;
  /** What the codec module imports: specifier and export name. */
  import: { from: string; name: string };
  warnings: string[];
}

export interface BuildValidatorOptions {
  /** The codec module's path relative to outDir (`order-list.ts`, `tools/args/x.ts`). */
  module: string;
  runtimeImport?: string;
  /** `false`: compile without `format` checks. */
  formats?: boolean;
  /** A pattern neither recheck nor RE2 vouches for: an error (default) or, `"allow"`, RegExp with a warning. */
  unsafePatterns?: "error" | "allow";
}

/** The validator module for `ir`, or undefined when `ir` has no recorded source schema. */
export async function buildValidatorModule(ir: SchemaIR, options: BuildValidatorOptions): Promise<ValidatorModule | undefined> {
  const src = schemaSourceOf(ir);
  if (src === undefined) return undefined;
  const compiled = await compileValidator(validatorInput(src), {
    ...(options.formats === false ? { formats: false } : {}),
    ...(options.unsafePatterns === undefined ? {} : { unsafePatterns: options.unsafePatterns }),
  });
  const file = validatorModuleFile(options.module);
  const emitOptions: Parameters<typeof emitValidatorModule>[1] = {
    codecName: ir.name,
    source: ir.source,
    draft: src.draft,
    forbidden: pathToFileURL(path.dirname(src.abs)).href,
  };
  if (options.runtimeImport !== undefined) emitOptions.runtimeImport = options.runtimeImport;
  return {
    module: file,
    content: emitValidatorModule(compiled, emitOptions),
    import: { from: `./${path.posix.basename(file).replace(/\.ts$/, ".js")}`, name: schemaCheckName(ir.name) },
    warnings: compiled.warnings.map((w) => `${ir.source}: validator: ${w}`),
  };
}
