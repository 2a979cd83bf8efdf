/**
 * The codec engine's entry: compile a codec from its descriptor (plain JSON a generated module embeds, or
 * generator/emit/descriptor.ts builds), with the descriptor types and the layout facts the engine runs on.
 */
import { checked, isDescriptor, refuse } from "../wire/arg-check.ts";
import { compileCodec as $compileCodec } from "./engine/codec.ts";
import * as $plan from "./plan.ts";
import type { CodecDescriptor } from "./descriptor.ts";

export type { CompiledCodec } from "./engine/codec.ts";
export type * from "./descriptor.ts";
export type { BranchPlan, ObjectLayout } from "./plan.ts";
export const byteMask = /*@__PURE__*/ checked($plan.byteMask, "byteMask(bits: number, i: number)");

// checked copies (runtime/wire/arg-check.ts): an argument of the wrong kind is a ToonError; the engine calls the
// originals

/** The definitions of a descriptor by name, with the facts the engine asks about them (./plan.ts). */
export class CodecPlan extends $plan.CodecPlan {
  constructor(desc: CodecDescriptor) {
    if (!isDescriptor(desc)) refuse("CodecPlan", "a codec descriptor", desc);
    super(desc);
  }
}
export const compileCodec = /*@__PURE__*/ checked($compileCodec, "compileCodec(desc: Descriptor)");
export const extensionsOf = /*@__PURE__*/ checked($plan.extensionsOf, "extensionsOf(root: Shape, definitions: iterable)");
export const minWidth = /*@__PURE__*/ checked($plan.minWidth, "minWidth(s: Shape, cx: DefinitionLookup, seen?: Set)");
export const objectLayout = /*@__PURE__*/ checked($plan.objectLayout, "objectLayout(s: Shape)");
export const planBranches = /*@__PURE__*/ checked($plan.planBranches, "planBranches(branches: array, cx: DefinitionLookup)");
export const recursiveDefinitions = /*@__PURE__*/ checked($plan.recursiveDefinitions, "recursiveDefinitions(defs: Map)");
