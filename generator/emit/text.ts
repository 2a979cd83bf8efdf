/**
 * The TOON text part of a generated module (issue 5): the members of its text groups (`toText`, `fromText`), the
 * reader spec `fromModelOutput` and the text reader run on, and the prompt snippet (`formatInstructions`). The
 * code they call comes from the encoder emitter (./text-encoder.ts), the check emitter (./text-check.ts) and the
 * snippet's builder (./text-instructions.ts); a module written for size calls the runtime's generic encoder and
 * the engine's check instead.
 */
import type { SchemaIR } from "../ir/types.ts";
import { code, join, jsonBlock, name, raw, stringBlock, type Code } from "../../templates/code.ts";
import type { ModuleContext } from "./context.ts";
import type { TextCheckFn } from "../../runtime/text/check.ts";
import type { PayloadHints } from "../../runtime/text/model-output.ts";
import { textCheckOf } from "../../runtime/codec/engine/text-check.ts";
import { definitionLookup } from "../ir/walk.ts";
import { fillBlock, moduleFillSpec } from "./model-fill.ts";
import { TextCheckEmitter } from "./text-check.ts";
import { TextEncoderEmitter } from "./text-encoder.ts";
import { formatInstructions } from "./text-instructions.ts";
import { payloadHints } from "./text-shapes.ts";

export interface TextSection {
  /** Functions to place in the module body. */
  functions: Code;
  /** `toText` and `fromText` of the TOON v4 group, each ending with a comma. */
  members: Code;
  /** `toText` and `fromText` of the dense group. */
  denseMembers: Code;
  /** The prompt snippet's constant (`formatInstructions`: what a model is told). */
  instructions: Code;
  /** The reader spec's members after `name` and `descriptor` (runtime/text/reader/payload-reader.ts `ReaderSpec`). */
  readerSpec: Code;
}

/**
 * The text part of a generated module for codec `codec` (type and value name) with root `root`. Call before
 * `cx.hoisted()` is read: it hoists its own constants.
 */
export function emitTextSection(ir: SchemaIR, cx: ModuleContext, engine = false): TextSection {
  const encoders = new TextEncoderEmitter(cx);
  const checks = new TextCheckEmitter(cx);
  const rootIsDefinition = ir.root.kind === "ref" && ir.root.name === ir.name;
  const enc = name(`$tx${ir.name}`);
  // written for size (emit/module.ts): the generic encoder (the one the specialised one equals) and the engine's check
  const encoder = engine ? undefined : encoders.rootEncoder(enc, ir.root);
  const check = engine ? raw("$textCheck") : rootIsDefinition ? checks.checker(ir.name, cx.def(ir.name).shape) : checks.checker(ir.name, ir.root);
  const hints = cx.constant("thints", code`${jsonBlock(payloadHints(ir.root, cx))} as const`);
  const fillSpec = moduleFillSpec(ir);
  // laid out one definition a line (root, then each of defs), so that a new property changes one line
  const fill = fillSpec === undefined ? undefined : cx.constant("tfill", code`${fillBlock(fillSpec)} as $rt.FillSpec`);
  const instructions = cx.constant("tinstructions", stringBlock(formatInstructions(ir, cx)));
  const T = name(ir.name);
  // the members' documentation is the runtime's (ToonTextGroup, DenseTextGroup), which the groups are typed as
  const members = code`  toText(value, options) {
    return $rt.encodeTextWith(value, options, ${encoder === undefined ? raw("undefined") : enc});
  },
  fromText(text, options) {
    return $rt.fromTextWith<${T}>(text, options, ${check});
  },`;
  const denseMembers = code`  toText(value) {
    return $rt.denseToText($descriptor, value);
  },
  fromText(text) {
    return $rt.denseFromText<${T}>($descriptor, text);
  },`;
  const readerSpec = code`check: ${check}, hints: ${hints}${fill === undefined ? raw("") : code`, fill: ${fill}`}`;
  // the encoder's functions, then the checkers: the order committed modules have them in
  const functions = encoder === undefined ? raw("") : join([encoder, ...encoders.functions(), ...checks.functions()], "\n\n");
  return { functions, members, denseMembers, instructions, readerSpec };
}

/** The interpreted check pass (the CLI's `decode --text`): the descriptor engine's, run on the IR. */
export function compileTextCheck(ir: SchemaIR): { check: TextCheckFn; hints: PayloadHints } {
  return { check: textCheckOf(ir), hints: payloadHints(ir.root, definitionLookup(ir)) };
}
