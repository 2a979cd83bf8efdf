/**
 * toon-gen/runtime/tools: runtime/tools.ts's exports, with checked copies (runtime/wire/arg-check.ts) of the functions
 * generated tool sets call with values of their own, so that an argument of the wrong kind is a ToonError.
 */
import { checked, refuse } from "./wire/arg-check.ts";
import * as $tools from "./tools.ts";

export * from "./tools.ts";

export const checkShape = /*@__PURE__*/ checked($tools.checkShape, "checkShape(value, shape: Shape, defs?: object, path?: string, patterns?: Map)");
export const toolSet = /*@__PURE__*/ checked($tools.toolSet, "toolSet(name: string, tools: ToolEntries, call: Descriptor, patterns?: Map)");
export const checkToolArguments = /*@__PURE__*/ checked($tools.checkToolArguments, "checkToolArguments(spec: ToolSetSpec, name: string, args)");
export const checkToolCall = /*@__PURE__*/ checked($tools.checkToolCall, "checkToolCall(spec: ToolSetSpec, id: string, name: string, args, index?: number, position?: string)");
export const parseToolCall = /*@__PURE__*/ checked($tools.parseToolCall, "parseToolCall(spec: ToolSetSpec, raw, index?: number, position?: string)") as typeof $tools.parseToolCall;
export const parseToolCalls = /*@__PURE__*/ checked($tools.parseToolCalls, "parseToolCalls(spec: ToolSetSpec, response)") as typeof $tools.parseToolCalls;
export const tryParseToolCalls = /*@__PURE__*/ checked($tools.tryParseToolCalls, "tryParseToolCalls(spec: ToolSetSpec, response)") as typeof $tools.tryParseToolCalls;

/** The accumulator with its spec checked (a spec that is not a tool set's would fail at the first event). */
export class ToolCallAccumulator<C extends $tools.ToolCall = $tools.ToolCall> extends $tools.ToolCallAccumulator<C> {
  constructor(spec: $tools.ToolSetSpec) {
    if (typeof spec !== "object" || spec === null || typeof (spec as { tools?: { get?: unknown } }).tools?.get !== "function") refuse("ToolCallAccumulator", "spec to be a tool set spec (toolSet)", spec);
    super(spec);
  }
}
export const parseArgumentsJson = /*@__PURE__*/ checked($tools.parseArgumentsJson, "parseArgumentsJson(text: string, path?: string)");
