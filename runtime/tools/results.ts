/**
 * Tool-result messages: what an agent loop sends back after running (or refusing) a call, in each provider's
 * form, with the call's id so the provider can pair them (OpenAI rejects the next request when a tool call has
 * no reply). A failed call (`{ ok: false, id, name, error }` from the accumulator or `tryParseToolCalls`) gets an
 * error payload the model can act on: the code, the message, and every violation with a JSON pointer into the
 * arguments it wrote. Zero dependencies; no Node APIs.
 */
import { ToonError } from "../wire/errors.ts";
import type { ToolCall, ToolCallOutcome } from "./tool-set.ts";

export type ToolResultFormat = "openai-chat" | "openai-responses" | "anthropic" | "mcp";

// (type aliases, not interfaces: they then fit the SDKs' index-signature types, e.g. MCP's `ServerResult`)

/** OpenAI Chat Completions: a `role: "tool"` message for `messages`. */
export type OpenAIChatToolMessage = {
  role: "tool";
  tool_call_id: string;
  content: string;
};
/** OpenAI Responses: a `function_call_output` input item. */
export type OpenAIResponsesToolOutput = {
  type: "function_call_output";
  call_id: string;
  output: string;
};
/** Anthropic: a `tool_result` content block (send the blocks of one turn in one `role: "user"` message). */
export type AnthropicToolResult = {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: true;
};
/** MCP: a `tools/call` result (`CallToolResult`). */
export type McpToolResult = {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
};

export interface ToolResultMessages {
  "openai-chat": OpenAIChatToolMessage;
  "openai-responses": OpenAIResponsesToolOutput;
  anthropic: AnthropicToolResult;
  mcp: McpToolResult;
}

/** A call to answer: a parsed call, or an accumulator / `tryParseToolCalls` outcome. */
export type ToolResultTarget = ToolCall | ToolCallOutcome;

/** What the model reads about a failure: enough to correct the call and try again. */
export interface ToolErrorPayload {
  error: {
    code: string;
    message: string;
    tool: string;
    /** Each violation, `path` a JSON pointer into the arguments (`""` the arguments as a whole). */
    violations?: { path: string; message: string }[];
    hint: string;
  };
}

function targetOf(t: ToolResultTarget): { id: string; name: string; error?: ToonError } {
  if (typeof t !== "object" || t === null) throw new ToonError("INVALID_VALUE", `the target of a tool result is a parsed call or an outcome of one, got ${t === null ? "null" : typeof t}`);
  if ("ok" in t) return t.ok ? { id: t.call.id, name: t.call.name } : { id: t.id, name: t.name, error: t.error };
  return { id: t.id, name: t.name };
}

/** JSON text for any result (bigints as decimal strings; `undefined` as `null`). */
function jsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)) ?? "null";
}

/** The error payload for a failed call (a ToonError from parsing) or a failed run (anything the tool threw). */
export function toolErrorPayload(name: string, error: unknown): ToolErrorPayload {
  if (error instanceof ToonError) {
    const violations = (error.details ?? [{ path: error.path, message: error.reason }])
      .filter((d) => d.path === "/arguments" || d.path.startsWith("/arguments/") || d.path === "/name")
      .map((d) => ({ path: d.path === "/name" ? "/name" : d.path.slice("/arguments".length), message: d.message }));
    const hint =
      error.code === "INCOMPLETE"
        ? "The arguments were cut off. Call the tool again with complete, shorter arguments."
        : error.path === "/name"
          ? "There is no tool of that name. Call one of the tools you were given."
          : "The call was not run. Call the tool again with arguments that fix every violation.";
    const out: ToolErrorPayload = { error: { code: error.code, message: error.reason, tool: name, hint } };
    if (violations.length > 0) out.error.violations = violations;
    return out;
  }
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : jsonText(error);
  return { error: { code: "TOOL_FAILED", message, tool: name, hint: "The tool failed while running. Do not repeat the same call unchanged." } };
}

function message<F extends ToolResultFormat>(format: F, id: string, text: string, isError: boolean, structured?: Record<string, unknown>): ToolResultMessages[F] {
  switch (format) {
    case "openai-chat":
      return { role: "tool", tool_call_id: id, content: text } as ToolResultMessages[F];
    case "openai-responses":
      return { type: "function_call_output", call_id: id, output: text } as ToolResultMessages[F];
    case "anthropic": {
      const m: AnthropicToolResult = { type: "tool_result", tool_use_id: id, content: text };
      if (isError) m.is_error = true;
      return m as ToolResultMessages[F];
    }
    case "mcp": {
      const m: McpToolResult = { content: [{ type: "text", text }] };
      if (structured !== undefined) m.structuredContent = structured;
      if (isError) m.isError = true;
      return m as ToolResultMessages[F];
    }
    default:
      throw new ToonError("CONFIG_ERROR", `unknown tool-result format ${JSON.stringify(format)} (openai-chat, openai-responses, anthropic or mcp)`);
  }
}

/**
 * The reply to `target` in `format`: for a failed outcome, its error payload (the `result` is ignored); else
 * `result` (a string as is, anything else as JSON; MCP also gets an object result as `structuredContent`).
 */
export function toolResultMessage<F extends ToolResultFormat>(format: F, target: ToolResultTarget, result?: unknown): ToolResultMessages[F] {
  const t = targetOf(target);
  if (t.error !== undefined) return toolErrorMessage(format, target, t.error);
  const text = typeof result === "string" ? result : jsonText(result);
  const structured = typeof result === "object" && result !== null && !Array.isArray(result) ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  return message(format, t.id, text, false, structured);
}

/** The reply to `target` when running it failed (`error`: what the tool threw, or a ToonError). */
export function toolErrorMessage<F extends ToolResultFormat>(format: F, target: ToolResultTarget, error: unknown): ToolResultMessages[F] {
  const t = targetOf(target);
  return message(format, t.id, jsonText(toolErrorPayload(t.name, error)), true);
}
