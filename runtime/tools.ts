/**
 * Tool calls from model output: the generic half of a generated tool-set module (docs/inputs.md).
 *
 * - `parseToolCall`: an OpenAI Chat Completions `tool_calls[i]`, an OpenAI Responses `function_call` item, an
 *   Anthropic `tool_use` block or an MCP `tools/call` request's params -> `{ id, name, arguments }`, checked
 *   against the tool's schema, or a ToonError listing every violation with its path.
 * - `ToolCallAccumulator`: streamed fragments (OpenAI `delta.tool_calls` keyed by `index`, OpenAI Responses
 *   `response.function_call_arguments.*`, Anthropic `input_json_delta`) -> each call once it is complete and
 *   valid; a call the stream cut off is reported as INCOMPLETE, never returned as if whole.
 * - `checkShape`: every violation of a value against a shape of the codec descriptor (the one shape model), the
 *   value constraints (`minLength`, `pattern`, `minimum`, ...) the binary codec does not need included.
 *
 * The schema-specific parts (which tools exist, their codecs and shapes) come from the generated module. One job
 * a file, in ./tools/: the tool set and the checks of one call (tool-set.ts), whole replies (parse.ts), streamed
 * replies (accumulator.ts, on the resumable argument reader of arguments.ts), replies to calls (results.ts) and
 * provider definitions (definitions.ts); the constraint checker is ./validate/constraints.ts, which codecs'
 * `validate()` runs too. This file is the public entry (`@toon-gen/runtime/tools`) and names what it exports.
 * Zero dependencies; no Node APIs.
 */
export { checkShape } from "./validate/constraints.ts";
export type { ShapeDefs, PatternTest, PatternTests } from "./validate/constraints.ts";
export type { Shape, Constraints } from "./codec/descriptor.ts";
export { callOnly, callsOnly, toolSet, checkToolArguments, checkToolCall } from "./tools/tool-set.ts";
export type { ToolSpec, ToolSetSpec, ToolCall, ToolCallOutcome } from "./tools/tool-set.ts";
export { parseToolCall, parseToolCalls, tryParseToolCalls } from "./tools/parse.ts";
export { ToolCallAccumulator } from "./tools/accumulator.ts";
export type { PendingToolCall } from "./tools/accumulator.ts";
export { parseArgumentsJson } from "./tools/arguments.ts";
export { toolResultMessage, toolErrorMessage, toolErrorPayload } from "./tools/results.ts";
export type { ToolResultFormat, ToolResultMessages, ToolResultTarget, ToolErrorPayload } from "./tools/results.ts";
export { toolDefinitions } from "./tools/definitions.ts";
export type { ToolSource, ToolDefinitionFormat, ToolDefinitionOptions, ToolDefinitions } from "./tools/definitions.ts";
