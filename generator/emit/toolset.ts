/**
 * The main module of a tool set (`outDir/<file>.ts`): types (the call as a discriminated union by tool name,
 * the parsed call with its id, argument and result types by name) and the tool-set codec object, which wraps
 * the codecs the core emitter wrote next to it (`<file>/call.ts`, `<file>/batch.ts`, `<file>/args/*.ts`,
 * `<file>/results/*.ts`) and adds `parseToolCall`, `parseToolCalls` and `accumulator()` on the runtime's
 * generic tool-call code (runtime/tools.ts). The tools' shapes are the call codec's descriptor, which the call
 * module exports for this one (`$descriptor`, the one shape model): nothing here repeats them.
 *
 * Tool names are untrusted text: they only ever become string literals, quoted property keys or comments; the
 * identifiers derived from them were sanitised by `pascalCase` (generator/tools/toolset.ts).
 */
import type { ToolSetIR } from "../tools/toolset.ts";
import { FORMAT_LABEL } from "../inputs/tool-definitions.ts";
import { Code, code, docComment, join, jsonBlock, jsonLit, lineComment, lit, name, propKey, quote, raw } from "../../templates/code.ts";
import { GENERATOR_VERSION, RUNTIME_CONTRACT_VERSION } from "../version.ts";
import { codegenImport } from "./module.ts";
import { LINEAR_ENGINE_IMPORT, linearPatternsDeclaration, linearPatternsOf } from "./linear-patterns.ts";

export interface ToolSetModulePaths {
  /** Relative to outDir, `/` separated, with `.ts`. */
  main: string;
  call: string;
  batch: string;
  args: string[];
  /** Per tool, undefined when it has no result codec. */
  results: (string | undefined)[];
}

/** Where the modules of a tool set go, relative to outDir: `base.ts` and `base/...`. */
export function toolSetModulePaths(base: string, set: ToolSetIR): ToolSetModulePaths {
  return {
    main: `${base}.ts`,
    call: `${base}/call.ts`,
    batch: `${base}/batch.ts`,
    args: set.tools.map((t) => `${base}/args/${t.file}.ts`),
    results: set.tools.map((t) => (t.result === undefined ? undefined : `${base}/results/${t.file}.ts`)),
  };
}

/** A key in an object literal: `__proto__` computed, so that it is an own property and not the prototype. */
function objectKey(key: string): Code {
  return key === "__proto__" ? raw(`[${quote(key)}]`) : propKey(key);
}

/** A tool as \`$rt.toolDefinitions\` reads it (the schemas as the source gave them). */
function toolSource(t: ToolSetIR["tools"][number]["definition"]): Record<string, unknown> {
  const o: Record<string, unknown> = { name: t.name };
  if (t.title !== undefined) o.title = t.title;
  if (t.description !== undefined) o.description = t.description;
  o.inputSchema = t.inputSchema ?? { type: "object" };
  if (t.outputSchema !== undefined) o.outputSchema = t.outputSchema;
  return o;
}

function specifier(fromMain: string, target: string): string {
  const dir = fromMain.includes("/") ? fromMain.slice(0, fromMain.lastIndexOf("/") + 1) : "";
  const rel = target.startsWith(dir) ? target.slice(dir.length) : target;
  return "./" + rel.replace(/\.ts$/, ".js");
}

export interface ToolSetEmitOptions {
  runtimeImport?: string;
  /** The main module's path relative to outDir (`weather-tools.ts`); also names it in the contract check. */
  paths: ToolSetModulePaths;
}

export function emitToolSetModule(set: ToolSetIR, options: ToolSetEmitOptions): string {
  const { paths } = options;
  const n = set.names;
  const Set_ = name(n.call);
  const Call = name(n.parsed);
  const ToolName = name(n.toolName);
  const ArgsMap = name(n.argumentsMap);
  const ResultsMap = name(n.resultsMap);
  const Batch = name(n.batch);
  const Outcome = name(n.outcome);
  const fileName = paths.main;

  const imports: Code[] = [
    code`import * as $rt from ${codegenImport(options.runtimeImport)};`,
    code`import { ${Set_} as $Call, $descriptor as $callDescriptor } from ${specifier(paths.main, paths.call)};`,
    code`import { ${Batch} } from ${specifier(paths.main, paths.batch)};`,
  ];
  const typeExports: Code[] = [Batch];
  set.tools.forEach((t, i) => {
    imports.push(code`import { ${name(t.args.name)} } from ${specifier(paths.main, paths.args[i]!)};`);
    typeExports.push(name(t.args.name));
    if (t.result !== undefined) {
      imports.push(code`import { ${name(t.result.name)} } from ${specifier(paths.main, paths.results[i]!)};`);
      typeExports.push(name(t.result.name));
    }
  });

  const doc = (text: string | undefined, prefix: string): Code => docComment(text, prefix);
  const callBranches = set.tools.map((t) => code`${doc(t.definition.description, "  ")}  | { name: ${lit(t.name)}; arguments: ${name(t.args.name)} }`);
  const parsedBranches = set.tools.map((t) => code`  | { id: string; name: ${lit(t.name)}; arguments: ${name(t.args.name)} }`);
  const argEntries = set.tools.map((t) => code`${doc(t.definition.title ?? t.definition.description, "  ")}  ${propKey(t.name)}: ${name(t.args.name)};`);
  const withResults = set.tools.filter((t) => t.result !== undefined);
  const resultEntries = withResults.map((t) => code`  ${propKey(t.name)}: ${name(t.result!.name)};`);

  const specEntries = set.tools.map((t) => code`  [${lit(t.name)}, ${name(t.args.name)}],`);
  // the patterns of the call codec's shapes (the tools' arguments and their definitions) planned for re2js
  const linear = linearPatternsOf([set.call.root, ...set.call.definitions.map((d) => d.shape)]);
  if (linear.length > 0) imports.push(LINEAR_ENGINE_IMPORT);
  const linearMap = linear.length === 0 ? raw("") : code`${linearPatternsDeclaration(linear)}

`;
  const toolCodecs = set.tools.map((t) => code`    ${objectKey(t.name)}: ${name(t.args.name)},`);
  const resultCodecs = withResults.map((t) => code`    ${objectKey(t.name)}: ${name(t.result!.name)},`);
  const formats = set.formats.map((f) => FORMAT_LABEL[f]).join(", ");
  const sources = set.tools.map((t) => code`  ${jsonBlock(toolSource(t.definition), "  ")},`);

  const header = [
    lineComment(`@generated by toon-gen ${GENERATOR_VERSION} from ${set.source}. DO NOT EDIT.`),
    lineComment(`Tool set ${set.name}: ${set.tools.length} tool${set.tools.length === 1 ? "" : "s"} (${formats}); the codecs it wraps are in ./${paths.call.slice(0, paths.call.lastIndexOf("/"))}/.`),
    raw("/* eslint-disable */"),
  ];

  const body = code`${join(header)}
${join(imports)}

export type { ${join(typeExports, ", ")} };

/** A call of one of the tools: \`name\` picks the tool (it travels as an index), \`arguments\` are its input. */
export type ${Set_} =
${join(callBranches)};

/** A tool call parsed from model output: the call plus the provider's call id (\`""\` when the form has none). */
export type ${Call} =
${join(parsedBranches)};

/** What the accumulator and \`tryParseToolCalls\` yield per call: the valid call, or why it failed. */
export type ${Outcome} = $rt.ToolCallOutcome<${Call}>;

/** The tool names. */
export type ${ToolName} = ${Set_}["name"];

/** Argument types by tool name. */
export interface ${ArgsMap} {
${join(argEntries)}
}

/** Result types (MCP \`structuredContent\`, from \`outputSchema\`) by tool name. */
export interface ${ResultsMap} ${resultEntries.length === 0 ? raw("{}") : code`{
${join(resultEntries)}
}`}

${linearMap}/** Each tool's name, description and argument schema, as the source gave them: \`definitions()\` writes them per provider. */
const $tools: $rt.ToolSource[] = [
${join(sources)}
];

/** The tools and their argument codecs; each tool's shape is its \`arguments\` in the call codec's descriptor. */
const $spec = /*@__PURE__*/ $rt.toolSet(${set.name}, [
${join(specEntries)}
], $callDescriptor${linear.length === 0 ? raw("") : raw(", $linearPatterns")});

export const ${Set_} = {
  name: ${set.name},
  /** The call codec's fingerprint (from the runtime contract check, runtime/wire/contract.ts). */
  fingerprint: /*@__PURE__*/ $rt.requireContract(${RUNTIME_CONTRACT_VERSION}, ${fileName}, $Call.fingerprint, $Call.name),
  dictionary: $Call.dictionary,
  /** The tool names, in definition order (a call's name travels as its index in this list). */
  toolNames: ${jsonLit(set.tools.map((t) => t.name))} as const,
  /**
   * Encode one call \`{ name, arguments }\` to TOON binary; a parsed call's \`id\` is dropped (it pairs a call with
   * its result within one turn; it does not travel). Throws ToonError INVALID_VALUE with the path.
   */
  encode(call: ${Set_} | ${Call}): Uint8Array {
    return $Call.encode($rt.callOnly(call) as ${Set_});
  },
  /** Decode one call. Throws ToonError (TRUNCATED, FINGERPRINT_MISMATCH, ...) with a path and byte offset. */
  decode(bytes: Uint8Array): ${Set_} {
    return $Call.decode(bytes);
  },
  /** Check a call's shape without keeping the bytes (first violation; \`parseToolCall\` lists them all). */
  validate(value: unknown): $rt.ValidationResult<${Set_}> {
    return $Call.validate(value);
  },
  /** Codec for a list of calls (\`${raw(n.call)}[]\`), e.g. every call of one model turn; parsed calls' ids are dropped. */
  batch: {
    ...${Batch},
    encode(calls: readonly (${Set_} | ${Call})[], options?: $rt.EncodeOptions): Uint8Array {
      return ${Batch}.encode($rt.callsOnly(calls) as ${Set_}[], options);
    },
  },
  /** Argument codecs by tool name. */
  tools: {
${join(toolCodecs)}
  },
  /** Result codecs by tool name (tools with an MCP \`outputSchema\`). */
  results: ${resultCodecs.length === 0 ? raw("{}") : code`{
${join(resultCodecs)}
  }`},
  /**
   * One tool call from model output (OpenAI \`tool_calls[i]\`, OpenAI Responses \`function_call\`, Anthropic
   * \`tool_use\`, MCP \`tools/call\` params) -> \`{ id, name, arguments }\`, checked against the tool's schema.
   * Throws ToonError INVALID_VALUE listing every violation in \`details\` (paths \`/name\`, \`/arguments/...\`).
   */
  parseToolCall(raw: unknown): ${Call} {
    return $rt.parseToolCall<${Call}>($spec, raw);
  },
  /** Every tool call of a whole response (OpenAI chat completion or Responses response, Anthropic message); throws the first bad one. */
  parseToolCalls(response: unknown): ${Call}[] {
    return $rt.parseToolCalls<${Call}>($spec, response);
  },
  /** Every tool call of a whole response, each \`{ ok: true, call }\` or \`{ ok: false, id, name, error }\`; never throws for a bad call. */
  tryParseToolCalls(response: unknown): ${Outcome}[] {
    return $rt.tryParseToolCalls<${Call}>($spec, response);
  },
  /** Every violation of \`args\` against tool \`name\` (empty when valid), paths under \`/arguments\`. */
  checkArguments(name: ${ToolName}, args: unknown): $rt.ToonErrorDetail[] {
    return $rt.checkToolArguments($spec, name, args);
  },
  /**
   * A stream accumulator: push OpenAI / Anthropic stream events, get each call once it is complete, as
   * \`{ ok: true, call }\` or \`{ ok: false, id, name, error }\` (it never throws for a bad call); \`end()\` reports
   * each call the stream cut off.
   */
  accumulator(): $rt.ToolCallAccumulator<${Call}> {
    return new $rt.ToolCallAccumulator<${Call}>($spec);
  },
  /**
   * The reply to a call in a provider's form, with its id: \`result\` for a valid call (a string as is, else
   * JSON), the error payload (code, message, violations with paths into the arguments) for a failed outcome.
   */
  resultMessage<F extends $rt.ToolResultFormat>(format: F, target: ${Call} | ${Outcome}, result?: unknown): $rt.ToolResultMessages[F] {
    return $rt.toolResultMessage(format, target, result);
  },
  /** The reply to a call whose run failed (\`error\`: what the tool threw). */
  errorMessage<F extends $rt.ToolResultFormat>(format: F, target: ${Call} | ${Outcome}, error: unknown): $rt.ToolResultMessages[F] {
    return $rt.toolErrorMessage(format, target, error);
  },
  /**
   * The tools as OpenAI Chat Completions or Responses tools, Anthropic tools or MCP \`tools/list\` entries.
   * \`{ strict: true }\` (OpenAI): every property required, optional ones nullable, no additional properties;
   * the nulls the model then writes for left-out arguments are read back as absent.
   */
  definitions<F extends $rt.ToolDefinitionFormat>(format: F, options?: $rt.ToolDefinitionOptions): $rt.ToolDefinitions[F] {
    return $rt.toolDefinitions(format, $tools, options);
  },
};
`;
  return body.text.replace(/\n{3,}/g, "\n\n").replace(/[ \t]+$/gm, "");
}
