/**
 * Tool-definition files, recognised by shape (docs/inputs.md):
 *
 * | format              | one tool                                                              |
 * |---------------------|-----------------------------------------------------------------------|
 * | OpenAI Chat         | `{ "type": "function", "function": { name, description, parameters, strict } }` |
 * | OpenAI Responses    | `{ "type": "function", name, description, parameters, strict }`       |
 * | OpenAI function     | `{ name, description, parameters }` (the inner object; legacy `functions`) |
 * | Anthropic           | `{ name, description, input_schema }`                                 |
 * | MCP                 | `{ name, title, description, inputSchema, outputSchema?, annotations }` |
 *
 * A file holds one tool, an array of them, an MCP `tools/list` result `{ "tools": [...] }` (bare or in its
 * JSON-RPC envelope `{ "result": { "tools": [...] } }`), or an object of named groups of tools
 * (`{ "group": [tools], ... }`): groups are merged into one set, identical repeats kept once.
 * Built-in tools that carry no schema (OpenAI `web_search`, Anthropic server tools) are skipped with a warning.
 */
import { ToonError } from "../../runtime/wire/errors.ts";

export type ToolFormat = "openai-chat" | "openai-responses" | "openai-function" | "anthropic" | "mcp";

export const FORMAT_LABEL: Record<ToolFormat, string> = {
  "openai-chat": "OpenAI Chat Completions tools",
  "openai-responses": "OpenAI Responses tools",
  "openai-function": "OpenAI function definitions",
  anthropic: "Anthropic tools",
  mcp: "MCP tools",
};

export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  /** JSON Schema of the arguments (`parameters` / `input_schema` / `inputSchema`); `{ type: object }` when absent. */
  inputSchema: unknown;
  /** MCP `outputSchema`: the shape of the call's `structuredContent`. */
  outputSchema?: unknown;
  format: ToolFormat;
  /** JSON pointer of the tool in its file (messages). */
  pointer: string;
}

export interface ToolSetSource {
  tools: ToolDefinition[];
  /** The formats seen, in first-seen order. */
  formats: ToolFormat[];
  /** Named groups the file was made of (an object of tool arrays), else empty. */
  groups: string[];
  warnings: string[];
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function has(o: Obj, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** The format of one tool object, `"builtin"` for a schema-less provider tool, or undefined if it is not a tool. */
export function toolFormat(v: unknown): ToolFormat | "builtin" | undefined {
  if (!isObj(v)) return undefined;
  const type = v.type;
  if (type === "function") {
    if (isObj(v.function) && typeof v.function.name === "string") return "openai-chat";
    if (typeof v.name === "string") return "openai-responses";
    return undefined;
  }
  if (typeof v.name !== "string") {
    // OpenAI built-ins: { "type": "web_search" }, { "type": "file_search", ... }
    return typeof type === "string" && Object.keys(v).every((k) => k !== "properties" && k !== "$schema") && /^[a-z_0-9]+$/.test(type) && !JSON_TYPES.has(type) ? "builtin" : undefined;
  }
  if (has(v, "input_schema")) return "anthropic";
  if (has(v, "inputSchema")) return "mcp";
  if (has(v, "parameters") && !has(v, "type")) return "openai-function";
  // Anthropic server tools ({ "type": "web_search_20250305", "name": "web_search" }) and OpenAI custom tools
  if (typeof type === "string" && !JSON_TYPES.has(type)) return "builtin";
  return undefined;
}

const JSON_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

function isToolArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every((t) => toolFormat(t) !== undefined);
}

/** The `tools` array of an MCP `tools/list` result (bare, or inside a JSON-RPC response). */
function mcpTools(v: Obj): unknown[] | undefined {
  const inner = isObj(v.result) && Array.isArray(v.result.tools) ? v.result : v;
  if (!Array.isArray(inner.tools)) return undefined;
  // a JSON Schema with a property or definition called "tools" is not a tools/list result
  if (has(inner, "type") || has(inner, "properties") || has(inner, "$schema")) return undefined;
  return inner.tools.length === 0 || isToolArray(inner.tools) ? inner.tools : undefined;
}

/** True when `doc` is a tool-definition file rather than a JSON Schema. */
export function isToolDefinitionDocument(doc: unknown): boolean {
  if (Array.isArray(doc)) return isToolArray(doc);
  if (!isObj(doc)) return false;
  const f = toolFormat(doc);
  if (f !== undefined && f !== "builtin") return true;
  if (mcpTools(doc) !== undefined) return true;
  return groupsOf(doc) !== undefined;
}

function groupsOf(doc: Obj): [string, unknown[]][] | undefined {
  const keys = Object.keys(doc);
  if (keys.length === 0) return undefined;
  const out: [string, unknown[]][] = [];
  for (const k of keys) {
    const v = doc[k];
    if (isToolArray(v)) out.push([k, v]);
    else if (isObj(v) && toolFormat(v) !== undefined && toolFormat(v) !== "builtin") out.push([k, [v]]);
    else return undefined;
  }
  return out;
}

function pointerToken(k: string | number): string {
  return "/" + String(k).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Read every tool of a tool-definition document (see the module comment). `source` names it in messages. */
export function readToolDefinitions(doc: unknown, source: string): ToolSetSource {
  const result: ToolSetSource = { tools: [], formats: [], groups: [], warnings: [] };
  const byName = new Map<string, { def: ToolDefinition; key: string }>();

  const add = (raw: unknown, pointer: string): void => {
    const format = toolFormat(raw);
    if (format === undefined) throw new ToonError("SCHEMA_ERROR", `${source}: not a tool definition (expected OpenAI, Anthropic or MCP tool objects)`, { path: pointer });
    const o = raw as Obj;
    if (format === "builtin") {
      result.warnings.push(`${source}#${pointer}: built-in tool ${JSON.stringify(o.name ?? o.type)} (type ${JSON.stringify(o.type)}) has no input schema: skipped`);
      return;
    }
    const def = normalise(o, format, pointer, source);
    if (!result.formats.includes(format)) result.formats.push(format);
    const key = JSON.stringify([def.inputSchema, def.outputSchema ?? null]);
    const prev = byName.get(def.name);
    if (prev !== undefined) {
      if (prev.key === key) return; // the same tool again (merged groups)
      throw new ToonError(
        "SCHEMA_ERROR",
        `${source}: two different tools are named ${JSON.stringify(def.name)} (at ${prev.def.pointer || "/"} and ${pointer || "/"}): tool names must be unique in a set`,
        { path: pointer },
      );
    }
    byName.set(def.name, { def, key });
    result.tools.push(def);
  };

  if (Array.isArray(doc)) {
    doc.forEach((t, i) => add(t, pointerToken(i)));
  } else if (isObj(doc)) {
    const f = toolFormat(doc);
    const mcp = mcpTools(doc);
    if (f !== undefined && f !== "builtin") add(doc, "");
    else if (mcp !== undefined) {
      const base = isObj(doc.result) && Array.isArray(doc.result.tools) ? "/result/tools" : "/tools";
      mcp.forEach((t, i) => add(t, base + pointerToken(i)));
    } else {
      const groups = groupsOf(doc);
      if (groups === undefined) throw new ToonError("SCHEMA_ERROR", `${source}: not a tool-definition file`, { path: "" });
      for (const [g, tools] of groups) {
        result.groups.push(g);
        tools.forEach((t, i) => add(t, pointerToken(g) + (Array.isArray(doc[g]) ? pointerToken(i) : "")));
      }
    }
  } else {
    throw new ToonError("SCHEMA_ERROR", `${source}: not a tool-definition file`, { path: "" });
  }
  if (result.tools.length === 0) throw new ToonError("SCHEMA_ERROR", `${source}: no tool with an input schema in this file`, { path: "" });
  return result;
}

/** Split a grouped file into its groups (each a tool set of its own), e.g. for corpora keyed by test case. */
export function readToolDefinitionGroups(doc: unknown, source: string): { group: string; set: ToolSetSource }[] {
  if (isObj(doc) && toolFormat(doc) === undefined && mcpTools(doc) === undefined) {
    const groups = groupsOf(doc);
    if (groups !== undefined) return groups.map(([g, tools]) => ({ group: g, set: readToolDefinitions(tools, `${source}#${pointerToken(g)}`) }));
  }
  return [{ group: "", set: readToolDefinitions(doc, source) }];
}

const EMPTY_PARAMETERS = { type: "object", properties: {}, additionalProperties: false };

function normalise(o: Obj, format: Exclude<ToolFormat, never>, pointer: string, source: string): ToolDefinition {
  const fn = format === "openai-chat" ? (o.function as Obj) : o;
  const name = fn.name as string;
  if (name === "") throw new ToonError("SCHEMA_ERROR", `${source}: a tool has an empty name`, { path: pointer });
  const schemaKey = format === "anthropic" ? "input_schema" : format === "mcp" ? "inputSchema" : "parameters";
  let input = fn[schemaKey];
  // OpenAI: a function without `parameters` takes none (the model sends `{}`)
  if (input === undefined || input === null) input = EMPTY_PARAMETERS;
  if (!isObj(input) && typeof input !== "boolean") {
    throw new ToonError("SCHEMA_ERROR", `${source}: tool ${JSON.stringify(name)}: "${schemaKey}" must be a JSON Schema object`, { path: pointer + (format === "openai-chat" ? "/function" : "") + pointerToken(schemaKey) });
  }
  const def: ToolDefinition = { name, inputSchema: input, format, pointer };
  if (typeof fn.description === "string") def.description = fn.description;
  if (typeof fn.title === "string") def.title = fn.title;
  if (format === "mcp" && o.outputSchema !== undefined && o.outputSchema !== null) def.outputSchema = o.outputSchema;
  return def;
}
