/**
 * Tool calls from a whole (non-streamed) reply: one call in any provider's form (OpenAI Chat Completions, OpenAI
 * Responses, Anthropic, MCP) to `{ id, name, arguments }`, and every call of a response found where each
 * provider puts them.
 */
import { type ToolCallRef, ToonError } from "../wire/errors.ts";
import { isPlainObject } from "../wire/objects.ts";
import { parseArgumentsJson } from "./arguments.ts";
import { describe, expectedGot } from "../codec/messages.ts";
import { aboutCall, argumentText, callError, callLabel, checkCall, failure, str, type ToolCall, type ToolCallOutcome, type ToolSetSpec } from "./tool-set.ts";

/**
 * One tool call from model output, in any of these forms:
 * - OpenAI Chat Completions `message.tool_calls[i]`: `{ id, type: "function", function: { name, arguments: "<json>" } }`
 * - OpenAI Responses output item: `{ type: "function_call", call_id, name, arguments: "<json>" }`
 * - Anthropic content block: `{ type: "tool_use", id, name, input: {...} }`
 * - MCP `tools/call` params (or any `{ name, arguments }`, arguments an object or a JSON string; `id` optional)
 *
 * Returns `{ id, name, arguments }` (id `""` when the form has none), or throws a ToonError naming the call
 * (`error.call`: id, name, index, raw argument text): INVALID_VALUE with `details` listing every violation
 * (paths `/name`, `/arguments/...`), INCOMPLETE for cut-off arguments.
 */
export function parseToolCall<C extends ToolCall = ToolCall>(spec: ToolSetSpec, raw: unknown, index = 0, position?: string): C {
  const ref: ToolCallRef = { id: "", name: "", index, arguments: "" };
  if (position !== undefined) ref.position = position;
  if (!isPlainObject(raw)) throw callError("INVALID_VALUE", expectedGot("a tool call object", raw), ref, "");
  let name: unknown;
  let args: unknown;
  if (raw.type === "tool_use" || (raw.input !== undefined && raw.arguments === undefined && raw.function === undefined)) {
    ref.id = str(raw.id) ?? "";
    name = raw.name;
    args = raw.input ?? {};
  } else if (isPlainObject(raw.function)) {
    ref.id = str(raw.id) ?? "";
    name = raw.function.name;
    args = raw.function.arguments;
  } else {
    ref.id = str(raw.call_id) ?? str(raw.id) ?? "";
    name = raw.name;
    args = raw.arguments ?? {};
  }
  ref.arguments = argumentText(args);
  if (typeof name !== "string") throw callError("INVALID_VALUE", `${callLabel(ref)} has no name (got ${describe(name)})`, ref, "/name");
  ref.name = name;
  if (typeof args === "string") {
    try {
      args = parseArgumentsJson(args);
    } catch (e) {
      throw e instanceof ToonError ? aboutCall(e, ref) : e;
    }
  }
  return checkCall<C>(spec, ref, args);
}

/** The calls of a whole response with where each sits (a JSON pointer into the response). */
function findCalls(response: unknown): [at: string, raw: unknown][] {
  const found: [string, unknown][] = [];
  const collect = (v: unknown, at: string): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        if (!isPlainObject(x)) return;
        const t = x.type;
        if (t === "tool_use" || t === "function_call" || t === "function" || (t === undefined && x.name !== undefined)) found.push([`${at}/${i}`, x]);
      });
      return;
    }
    if (!isPlainObject(v)) return;
    if (Array.isArray(v.choices)) v.choices.forEach((c, i) => isPlainObject(c) && isPlainObject(c.message) && collect(c.message.tool_calls, `${at}/choices/${i}/message/tool_calls`));
    if (Array.isArray(v.tool_calls)) collect(v.tool_calls, `${at}/tool_calls`);
    if (Array.isArray(v.content)) collect(v.content, `${at}/content`);
    if (Array.isArray(v.output)) collect(v.output, `${at}/output`);
  };
  collect(response, "");
  return found;
}

/**
 * Every tool call in a whole (non-streamed) response: an OpenAI chat completion (`choices[].message.tool_calls`)
 * or message, an OpenAI Responses response (`output[]` function calls), an Anthropic message (`content[]`
 * tool_use blocks), or an array of calls. Throws the first bad call's error (its `call.position` says where it
 * sits); {@link tryParseToolCalls} reports every call instead.
 */
export function parseToolCalls<C extends ToolCall = ToolCall>(spec: ToolSetSpec, response: unknown): C[] {
  return findCalls(response).map(([at, raw], i) => parseToolCall<C>(spec, raw, i, at));
}

/** Every tool call of a whole response, each `{ ok: true, call }` or `{ ok: false, id, name, error }`; never throws for a bad call. */
export function tryParseToolCalls<C extends ToolCall = ToolCall>(spec: ToolSetSpec, response: unknown): ToolCallOutcome<C>[] {
  return findCalls(response).map(([at, raw], i) => {
    try {
      return { ok: true, call: parseToolCall<C>(spec, raw, i, at), index: i };
    } catch (e) {
      if (!(e instanceof ToonError) || e.call === undefined) throw e;
      return failure(e);
    }
  });
}
