/**
 * toon-gen/runtime/tools: runtime/tools.ts's exports, with checked copies (runtime/arg-check.ts) of the functions
 * generated tool sets call with values of their own, so that an argument of the wrong kind is a ToonError.
 */
import { checked } from "./arg-check.ts";
import * as $tools from "./tools.ts";

export * from "./tools.ts";

export const checkShape = /*@__PURE__*/ checked($tools.checkShape, "checkShape(value, shape: CheckShape, defs?: object, path?: string, patterns?: Map)");
export const toolSet = /*@__PURE__*/ checked($tools.toolSet, "toolSet(name: string, tools: array, defs: object, patterns?: Map)");
export const checkToolArguments = /*@__PURE__*/ checked($tools.checkToolArguments, "checkToolArguments(spec: ToolSetSpec, name: string, args)");
export const checkToolCall = /*@__PURE__*/ checked($tools.checkToolCall, "checkToolCall(spec: ToolSetSpec, id: string, name: string, args, index?: number, position?: string)");
export const parseArgumentsJson = /*@__PURE__*/ checked($tools.parseArgumentsJson, "parseArgumentsJson(text: string, path?: string)");
