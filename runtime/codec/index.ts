/**
 * The codec engine's entry: compile a codec from its descriptor (plain JSON a generated module embeds, or
 * generator/emit/descriptor.ts builds), with the descriptor types and the layout facts the engine runs on.
 */
export { compileCodec, type CompiledCodec } from "./engine/codec.ts";
export type * from "./descriptor.ts";
export { CodecPlan, byteMask, extensionsOf, minWidth, objectLayout, planBranches, recursiveDefinitions, type BranchPlan, type ObjectLayout } from "./plan.ts";
