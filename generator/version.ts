/** The generator's version (written into every generated header) and the runtime contract it emits for. */
export const GENERATOR_VERSION = "0.1.0";
export const RUNTIME_CONTRACT_VERSION = 4;
