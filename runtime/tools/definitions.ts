/**
 * One tool set, every provider's definitions: a generated tool set keeps each tool's name, description and
 * argument JSON Schema once (as its source gave them) and this module writes them as OpenAI Chat Completions
 * tools, OpenAI Responses tools, Anthropic tools or MCP `tools/list` entries.
 *
 * `strict: true` (OpenAI only) rewrites the schemas to meet OpenAI's structured-output rules: every object
 * lists all its properties in `required`, a property that was optional becomes nullable (`type: [t, "null"]`,
 * `null` added to an `enum`, or `anyOf: [schema, { type: "null" }]`), every object gets
 * `additionalProperties: false`, and `oneOf` becomes `anyOf`. The model then writes `null` for an optional
 * argument it leaves out; `parseToolCall` and the accumulator read such a `null` as absent again (when the
 * property's own schema does not take null), so the parsed call has the original types. An object that allows
 * additional properties (a map) cannot be strict: UNSUPPORTED_SCHEMA naming the tool and path.
 * Zero dependencies; no Node APIs.
 */
import { ToonError, optionsArg, pointerSegment } from "../wire/errors.ts";
import { isPlainObject } from "../wire/objects.ts";

/** A tool as the generated module keeps it. */
export interface ToolSource {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

export type ToolDefinitionFormat = "openai-chat" | "openai-responses" | "anthropic" | "mcp";

export interface ToolDefinitionOptions {
  /** OpenAI formats: structured-output (`strict: true`) definitions, schemas rewritten as described above. */
  strict?: boolean;
}

type Json = Record<string, unknown>;

export interface ToolDefinitions {
  "openai-chat": { type: "function"; function: { name: string; description?: string; parameters: Json; strict?: boolean } }[];
  "openai-responses": { type: "function"; name: string; description?: string; parameters: Json; strict: boolean }[];
  anthropic: { name: string; description?: string; input_schema: Json }[];
  mcp: { name: string; title?: string; description?: string; inputSchema: Json; outputSchema?: Json }[];
}

/** The tools of a set in `format` (fresh objects: the caller may add to them). */
export function toolDefinitions<F extends ToolDefinitionFormat>(format: F, tools: readonly ToolSource[], options?: ToolDefinitionOptions): ToolDefinitions[F] {
  const strict = optionsArg(options, "definitions")?.strict === true;
  if (strict && format !== "openai-chat" && format !== "openai-responses") {
    throw new ToonError("CONFIG_ERROR", `strict definitions are OpenAI's structured outputs: format ${JSON.stringify(format)} has no strict mode`);
  }
  const params = (t: ToolSource): Json => (strict ? (strictSchema(t.inputSchema, t.name, "", 0) as Json) : clone(t.inputSchema));
  const described = <O extends object>(o: O, t: ToolSource): O & { description?: string } => (t.description === undefined ? o : { ...o, description: t.description });
  switch (format) {
    case "openai-chat":
      return tools.map((t) => {
        const fn: { name: string; description?: string; parameters: Json; strict?: boolean } = described({ name: t.name }, t) as { name: string; parameters: Json };
        fn.parameters = params(t);
        if (strict) fn.strict = true;
        return { type: "function" as const, function: fn };
      }) as ToolDefinitions[F];
    case "openai-responses":
      return tools.map((t) => ({ type: "function" as const, ...described({ name: t.name }, t), parameters: params(t), strict })) as ToolDefinitions[F];
    case "anthropic":
      return tools.map((t) => ({ ...described({ name: t.name }, t), input_schema: params(t) })) as ToolDefinitions[F];
    case "mcp":
      return tools.map((t) => {
        const o: ToolDefinitions["mcp"][number] = { name: t.name, inputSchema: {} };
        if (t.title !== undefined) o.title = t.title;
        if (t.description !== undefined) o.description = t.description;
        delete (o as { inputSchema?: Json }).inputSchema; // (keeps the MCP key order: name, title, description, inputSchema)
        o.inputSchema = params(t);
        if (t.outputSchema !== undefined) o.outputSchema = clone(t.outputSchema);
        return o;
      }) as ToolDefinitions[F];
    default:
      throw new ToonError("CONFIG_ERROR", `unknown tool-definition format ${JSON.stringify(format)} (openai-chat, openai-responses, anthropic or mcp)`);
  }
}

/** `o[k] = v` as an own property, also for the key `__proto__` (schemas are untrusted JSON). */
function put(o: Json, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

const MAX_DEPTH = 200;
/** Keywords whose value is one schema, a list of them, or a map of them: walked as such. */
const ONE = ["items", "not", "if", "then", "else", "contains", "additionalItems"];
const MANY = ["anyOf", "allOf", "prefixItems"];
const MAPS = ["$defs", "definitions"];

/** `s` rewritten for strict mode (a fresh copy); `at` is its JSON pointer in the tool's schema (messages). */
function strictSchema(s: unknown, tool: string, at: string, depth: number): unknown {
  if (!isPlainObject(s)) return s;
  if (depth > MAX_DEPTH) throw new ToonError("UNSUPPORTED_SCHEMA", `tool ${JSON.stringify(tool)}: schema nested deeper than ${MAX_DEPTH} levels`, { path: at });
  const out: Json = {};
  for (const k of Object.keys(s)) {
    const v = s[k];
    if (k === "oneOf") out.anyOf = Array.isArray(v) ? v.map((x, i) => strictSchema(x, tool, `${at}/oneOf/${i}`, depth + 1)) : v;
    else if (ONE.includes(k)) out[k] = Array.isArray(v) ? v.map((x, i) => strictSchema(x, tool, `${at}/${k}/${i}`, depth + 1)) : strictSchema(v, tool, at + "/" + k, depth + 1);
    else if (MANY.includes(k) && Array.isArray(v)) out[k] = v.map((x, i) => strictSchema(x, tool, `${at}/${k}/${i}`, depth + 1));
    else if (MAPS.includes(k) && isPlainObject(v)) {
      const m: Json = {};
      for (const n of Object.keys(v)) put(m, n, strictSchema(v[n], tool, `${at}/${k}${pointerSegment(n)}`, depth + 1));
      out[k] = m;
    } else if (k !== "properties" && k !== "required" && k !== "additionalProperties") put(out, k, clone(v));
  }
  const isObject = s.type === "object" || (Array.isArray(s.type) && s.type.includes("object")) || isPlainObject(s.properties);
  if (!isObject) return out;
  const extra = s.additionalProperties;
  if (extra !== undefined && extra !== false) {
    throw new ToonError("UNSUPPORTED_SCHEMA", `tool ${JSON.stringify(tool)}: an object that allows additional properties cannot be a strict-mode schema (OpenAI requires additionalProperties: false)`, { path: at + "/additionalProperties" });
  }
  const props = isPlainObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === "string") : []);
  const p: Json = {};
  for (const name of Object.keys(props)) {
    const sub = strictSchema(props[name], tool, `${at}/properties${pointerSegment(name)}`, depth + 1);
    put(p, name, required.has(name) ? sub : nullable(sub));
  }
  out.type = "object";
  out.properties = p;
  out.required = Object.keys(props);
  out.additionalProperties = false;
  return out;
}

/** `s` that also takes `null`. */
function nullable(s: unknown): unknown {
  if (!isPlainObject(s)) return s === true ? s : { anyOf: [s, { type: "null" }] };
  const t = s.type;
  if (Array.isArray(s.enum)) {
    const o: Json = { ...s, enum: s.enum.includes(null) ? s.enum : [...s.enum, null] };
    if (typeof t === "string") o.type = t === "null" ? t : [t, "null"];
    else if (Array.isArray(t) && !t.includes("null")) o.type = [...t, "null"];
    return o;
  }
  if ("const" in s) return { anyOf: [s, { type: "null" }] };
  if (typeof t === "string" && s.$ref === undefined && s.anyOf === undefined && s.allOf === undefined) return t === "null" ? s : { ...s, type: [t, "null"] };
  if (Array.isArray(t) && s.$ref === undefined && s.anyOf === undefined) return t.includes("null") ? s : { ...s, type: [...t, "null"] };
  if (Array.isArray(s.anyOf)) return s.anyOf.some((b) => isPlainObject(b) && b.type === "null") ? s : { ...s, anyOf: [...s.anyOf, { type: "null" }] };
  return { anyOf: [s, { type: "null" }] };
}
