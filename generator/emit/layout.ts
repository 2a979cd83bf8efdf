/**
 * Object layout on the wire (docs/FORMAT.md §4.5), shared by the encoder and decoder emitters and the codec
 * engine so they cannot disagree: it lives with the runtime's layout facts (runtime/codec/plan.ts).
 */
export { byteMask, objectLayout, type ObjectLayout } from "../../runtime/codec/plan.ts";
