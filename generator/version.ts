/** The generator's version (written into every generated header) and the runtime contract it emits for. */
export const GENERATOR_VERSION = "0.1.0";
export const RUNTIME_CONTRACT_VERSION = 6;
/**
 * The package generated code imports (`<runtimeImport>/internal/codegen.js`, `<runtimeImport>/validate`) unless
 * the config's `runtimeImport` says otherwise: the zero-dependency runtime package, an app's only production
 * dependency.
 * `toon-gen/runtime` re-exports it for modules generated before the two packages existed.
 */
export const DEFAULT_RUNTIME_IMPORT = "@toon-gen/runtime";
