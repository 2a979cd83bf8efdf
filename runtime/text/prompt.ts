/**
 * A generated module's prompting group (`<Codec>Prompt`) from its reader spec and prompt snippet: what the model is
 * told (`formatInstructions`) and reading what it replies, whole (`fromModelOutput`) or as it streams (`reader`,
 * `readStream`). One PURE call in generated code, so that a module carries the spec and the snippet, not the four
 * methods again.
 */
import { ToonError, optionsArg } from "../wire/errors.ts";
import { denseInstructions } from "./dense/instructions.ts";
import { fromModelOutputWith, type PromptGroup } from "./model-output.ts";
import type { ReaderSpec } from "./reader/payload-reader.ts";
import { readTextStream } from "./reader/read-stream.ts";
import { textReader } from "./reader/text-reader.ts";

export function promptGroup<T, P extends Record<string, unknown> = Record<string, unknown>>(spec: ReaderSpec, fingerprint: number, instructions: string): PromptGroup<T, P> {
  return {
    name: spec.name,
    fingerprint,
    fromModelOutput: (output, options) => fromModelOutputWith<T>(output, spec, options),
    reader: (options) => textReader<T, P>(spec, options),
    readStream: (source, options) => readTextStream<T, P>(spec, source, options),
    formatInstructions(options) {
      optionsArg(options, "formatInstructions");
      return options?.layout === "dense" ? denseInstructions(instructions, spec.descriptor) : instructions;
    },
  };
}
