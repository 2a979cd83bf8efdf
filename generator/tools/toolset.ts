/**
 * A tool set as shape IR: one argument IR (and result IR, for MCP `outputSchema`) per tool, loaded with the
 * ordinary JSON Schema loader, then composed at the IR level into
 *
 * - the **call** IR, whose root is a union of `{ name: <const>, arguments: <the tool's argument shape> }`
 *   objects discriminated on `name` (so the emitter writes the tool as a branch index: the name travels as a
 *   dictionary index, never as text), and
 * - the **batch** IR: an array of calls.
 *
 * Every tool's definitions are carried over under names unique in the composed IR.
 */
import { ToonError } from "../../runtime/wire/errors.ts";
import { pascalCase, uniqueName } from "../ir/names.ts";
import type { Definition, SchemaIR, Shape } from "../ir/types.ts";
import { schemaToIR } from "../load/index.ts";
import { INLINE_KINDS } from "../load/finalize.ts"; // (the loader's rule: kinds it inlines rather than naming)
import type { ToolDefinition, ToolFormat, ToolSetSource } from "../inputs/tool-definitions.ts";

export interface ToolIR {
  /** The tool's name as the model sees it (any string). */
  name: string;
  definition: ToolDefinition;
  /** The argument codec's IR (its name: `<Tool>Arguments`). */
  args: SchemaIR;
  /** The result codec's IR (`<Tool>Result`), when the tool declares an MCP `outputSchema`. */
  result?: SchemaIR;
  /** File stem (kebab case, unique case-insensitively in the set) of its generated modules. */
  file: string;
  /** The shape of `arguments` in the call IR (a ref to a definition, or an inline scalar shape). */
  callShape: Shape;
}

export interface ToolSetIR {
  /** PascalCase name of the set: the codec object and the call type. */
  name: string;
  source: string;
  formats: ToolFormat[];
  tools: ToolIR[];
  /** Root: the union of calls (or the one call object, for a set of one tool). IR name = `name`. */
  call: SchemaIR;
  /** Root: an array of calls. IR name = `<name>Batch`. */
  batch: SchemaIR;
  /** Names the main module declares besides the per-tool ones (kept free for them). */
  names: { call: string; batch: string; parsed: string; outcome: string; toolName: string; argumentsMap: string; resultsMap: string };
  /** Set-level findings (skipped built-in tools); each tool's loader warnings stay on its own IRs. */
  warnings: string[];
}

export interface ToolSetOptions {
  /** Set name (sanitised with `pascalCase`), usually the file name: `weather-tools.json` -> `WeatherTools`. */
  name: string;
  /** The input file, relative to the working directory (headers, messages). */
  source: string;
  /** Directory relative `$ref`s inside the tool schemas resolve against (the tool file's directory). */
  baseDir: string;
  readFile?: (absPath: string) => unknown;
}


/** `GetWeather` -> `get-weather` (file stems). */
export function kebabCase(ident: string): string {
  return ident
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase();
}

/** Deep copy of a shape with refs renamed through `rename`. */
export function renameRefs(s: Shape, rename: (name: string) => string): Shape {
  switch (s.kind) {
    case "ref":
      return { ...s, name: rename(s.name) };
    case "object":
      return {
        ...s,
        properties: s.properties.map((p) => ({ ...p, shape: renameRefs(p.shape, rename) })),
        additional: s.additional === false ? false : renameRefs(s.additional, rename),
      };
    case "array":
      return { ...s, items: renameRefs(s.items, rename) };
    case "tuple":
      return { ...s, items: s.items.map((i) => renameRefs(i, rename)), rest: s.rest === false ? false : renameRefs(s.rest, rename) };
    case "union":
      return { ...s, branches: s.branches.map((b) => renameRefs(b, rename)) };
    default:
      return { ...s };
  }
}

function loadPart(schema: unknown, what: string, tool: ToolDefinition, irName: string, opts: ToolSetOptions, pointerSuffix: string): SchemaIR {
  const o: Parameters<typeof schemaToIR>[1] = { source: `${opts.source} (tool ${JSON.stringify(tool.name)} ${what})`, name: irName, baseDir: opts.baseDir };
  if (opts.readFile !== undefined) o.readFile = opts.readFile;
  try {
    return schemaToIR(schema, o);
  } catch (e) {
    // paths in the tool's schema become paths in the file
    if (e instanceof ToonError) throw e.prefixPath(tool.pointer + pointerSuffix);
    throw e;
  }
}

function schemaKeyPointer(tool: ToolDefinition, output: boolean): string {
  if (output) return "/outputSchema";
  switch (tool.format) {
    case "openai-chat":
      return "/function/parameters";
    case "openai-responses":
    case "openai-function":
      return "/parameters";
    case "anthropic":
      return "/input_schema";
    case "mcp":
      return "/inputSchema";
  }
}

/** Load every tool of `set` and compose the call and batch IRs. */
export function buildToolSet(set: ToolSetSource, opts: ToolSetOptions): ToolSetIR {
  const name = pascalCase(opts.name);
  const names = {
    call: name,
    batch: name + "Batch",
    parsed: name + "Call",
    outcome: name + "Outcome",
    toolName: name + "Name",
    argumentsMap: name + "Arguments",
    resultsMap: name + "Results",
  };
  // identifiers the main module declares: per-tool type names must avoid them and each other
  const used = new Set<string>(Object.values(names));
  const files = new Set<string>();
  const warnings: string[] = [...set.warnings];
  const tools: ToolIR[] = [];

  for (const def of set.tools) {
    // (a trailing `_` is pascalCase's guard against a reserved word or global: not needed once a suffix follows)
    const ident = pascalCase(def.name).replace(/_$/, "");
    const argsName = uniqueName(ident + "Arguments", used);
    let file = kebabCase(ident);
    for (let i = 2; files.has(file); i++) file = kebabCase(ident) + "-" + i;
    files.add(file);
    const args = loadPart(def.inputSchema, "arguments", def, argsName, opts, schemaKeyPointer(def, false));
    const tool: ToolIR = { name: def.name, definition: def, args, file, callShape: args.root };
    if (def.outputSchema !== undefined) {
      const resultName = uniqueName(ident + "Result", used);
      tool.result = loadPart(def.outputSchema, "result", def, resultName, opts, schemaKeyPointer(def, true));
    }
    tools.push(tool);
  }

  // compose: every tool's definitions under names unique in the call IR
  const defNames = new Set<string>([names.call, names.batch, ...tools.map((t) => t.args.name)]);
  const definitions: Definition[] = [];
  const branches: Shape[] = [];
  for (const tool of tools) {
    const map = new Map<string, string>();
    for (const d of tool.args.definitions) map.set(d.name, d.name === tool.args.name ? d.name : uniqueName(d.name, defNames));
    const rename = (n: string): string => map.get(n) ?? n;
    let argShape: Shape;
    const rootIsDef = tool.args.root.kind === "ref" && tool.args.root.name === tool.args.name;
    if (rootIsDef) {
      argShape = { ...tool.args.root };
    } else if (INLINE_KINDS.has(tool.args.root.kind)) {
      argShape = renameRefs(tool.args.root, rename);
    } else {
      const shape = renameRefs(tool.args.root, rename);
      definitions.push({ name: tool.args.name, origin: `${tool.args.source}#`, shape });
      argShape = { kind: "ref", schemaPath: tool.args.root.schemaPath, name: tool.args.name };
    }
    for (const d of tool.args.definitions) definitions.push({ name: rename(d.name), origin: d.origin, shape: renameRefs(d.shape, rename) });
    tool.callShape = argShape;
    const branch: Shape = {
      kind: "object",
      schemaPath: tool.definition.pointer,
      properties: [
        { name: "name", required: true, shape: { kind: "const", schemaPath: tool.definition.pointer + "/name", value: tool.name } },
        { name: "arguments", required: true, shape: argShape },
      ],
      additional: false,
    };
    if (tool.definition.description !== undefined) branch.description = tool.definition.description;
    branches.push(branch);
  }

  const description = `A call of one of the tools of ${opts.source}: \`name\` picks the tool, \`arguments\` are its input.`;
  const callRoot: Shape =
    branches.length === 1
      ? branches[0]!
      : { kind: "union", schemaPath: "", branches, discriminator: { property: "name", values: tools.map((t) => t.name) } };
  const call: SchemaIR = { name: names.call, source: opts.source, root: callRoot, definitions, description, warnings: [] };
  const batch: SchemaIR = {
    name: names.batch,
    source: opts.source,
    root: { kind: "array", schemaPath: "", items: { kind: "ref", schemaPath: "", name: names.call } },
    definitions: [{ name: names.call, origin: `${opts.source}#`, shape: callRoot }, ...definitions],
    description: `A batch of calls of the tools of ${opts.source}, in the order the model made them.`,
    warnings: [],
  };
  if (batch.definitions.some((d, i) => batch.definitions.findIndex((e) => e.name === d.name) !== i)) throw new Error("internal: duplicate definition names in a tool set");
  return { name, source: opts.source, formats: set.formats, tools, call, batch, names, warnings };
}
