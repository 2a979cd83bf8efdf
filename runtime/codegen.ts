/**
 * What generated modules import (`@toon-gen/runtime/internal/codegen.js`), and nothing else. This surface is the
 * versioned contract (`requireContract`, runtime/wire/contract.ts): it may change with a contract bump, while the user
 * API (`toon-gen/runtime` and its feature subpaths) stays stable. Apps do not import it. Its functions check
 * nothing (generated code calls them per value, with values of its own); the public `@toon-gen/runtime/codegen`
 * (./codegen-entry.ts) is this surface with checked copies of them.
 *
 * Every module here is free of import-time side effects (package.json `sideEffects: false`), so a bundle keeps
 * only the functions the codec it uses calls.
 */
export { requireContract, codecOf, RUNTIME_CONTRACT } from "./wire/contract.ts";
export { checkConstraints } from "./validate/constraints.ts";
export { ToonError, pointerSegment, rethrowAt, rethrowAtIndex, rethrowIn } from "./wire/errors.ts";
export type { ToonErrorDetail } from "./wire/errors.ts";
export { Writer, invalid, writeInt64 } from "./wire/writer.ts";
export { isUuid, writeUuid, readUuid } from "./wire/uuid.ts";
export { Reader } from "./wire/reader.ts";
export { writeHeader, readHeader } from "./wire/header.ts";
export { writeAny, readAny } from "./wire/any.ts";
export { hasOwn, setOwn, getOwn, isJsonLike, extrasAreJson, extraKeys, keyCount, checkClosed, jsonEquals, cloneJson, missing } from "./wire/objects.ts";
export { Flag, DEFAULT_MAX_DEPTH } from "./wire/wire.ts";
export { validateWith, validateFull, assertSchema } from "./features/validate.ts";
export type { ValidationResult, ValidateOptions, ValidationIssue, SchemaCheck } from "./features/validate.ts";
export { checkShape, checkToolArguments, parseToolCall, parseToolCalls, tryParseToolCalls, toolSet, ToolCallAccumulator, callOnly, callsOnly } from "./tools.ts";
export type { PatternTest, ToolCallOutcome } from "./tools.ts";
export { toolResultMessage, toolErrorMessage } from "./tools/results.ts";
export type { ToolResultFormat, ToolResultMessages, ToolResultTarget } from "./tools/results.ts";
export { toolDefinitions } from "./tools/definitions.ts";
export type { ToolSource, ToolDefinitionFormat, ToolDefinitionOptions, ToolDefinitions } from "./tools/definitions.ts";
export { writeExtension, writeExtensionSection, readExtensionSection, applyExtension, assertDecoded, unknownOf } from "./features/extensions.ts";
export type { DecodeOptions } from "./features/extensions.ts";
// through the hook setCompressor installs: a bundle that registers no compressor carries no compression code
export { compressIfAsked as compressMessage } from "./wire/compress-hook.ts";
export type { EncodeOptions } from "./compression.ts";
export { streamCodec } from "./stream.ts";
// modules generated with "optimize": "size" run on the engine over their descriptor (generator/emit/module.ts)
export { engineCodec, engineTextCheck } from "./codec/engine/module.ts";
export type { EngineCodec } from "./codec/engine/module.ts";
export type { StreamSpec, StreamCodec } from "./stream.ts";
// the parts of a descriptor a module declares once and refers to (generator/emit/descriptor-share.ts)
export type { Shape as DescriptorShape, PropertyShape as DescriptorProperty } from "./codec/descriptor.ts";
export {
  defaultTable,
  writeTabledString,
  readTabledString,
  writeTabledPlainString,
  readTabledPlainString,
  writeTabledDateTime,
  readTabledDateTime,
  writeTabledDate,
  readTabledDate,
  writeTabledDecimalString,
  readTabledDecimalString,
  writeTabledUuid,
  readTabledUuid,
  writeTabledNumber,
  readTabledNumber,
  writeTabledInt,
  readTabledInt,
  writeTabledInt64,
  readTabledInt64,
} from "./wire/defaults.ts";
export { beginFieldIndex, fieldStart, endFieldIndex } from "./wire/field-index.ts";
export { peekField, pickPath } from "./features/field-peek.ts";
export type { PeekSpec } from "./features/field-peek.ts";
export { encodeText } from "./text/encode.ts";
export { encodeKey } from "./text/primitives.ts";
export { fieldList } from "./text/headers.ts";
export {
  type TextState,
  textBail,
  encodeTextWith,
  textNl,
  textStr,
  textPrim,
  textField,
  textScalar,
  textString,
  textNumber,
  textCell,
  textItem,
  textArray,
  textPrimitives,
  textTable,
  textKeyed,
} from "./text/generated-encoder.ts";
export type { TextEncodeOptions } from "./text/encode-state.ts";
export type { TextDecodeOptions } from "./text/decode.ts";
export { textLayouts } from "./text/layout.ts";
export type { ToonTextEncodeOptions, ToonTextDecodeOptions, ToonTextGroup, DenseTextGroup, LayoutTextGroup } from "./text/layout.ts";
export { denseFromText, denseToText } from "./text/dense/index.ts";
export { fromTextWith, textInvalid, tcString, tcUuid, tcInteger, tcInt64, tcNumber, tcBoolean, tcNull, tcObject, tcEnum, tcJsonEnum, tcAny, tcRef, tcOrNull, tcArray, tcUnion, tcExtras, textRethrow, textRethrowAt } from "./text/check.ts";
export { promptGroup } from "./text/prompt.ts";
export type { ReaderSpec } from "./text/reader/payload-reader.ts";
export type { ModelOutput, ModelOutputOptions, PromptGroup } from "./text/model-output.ts";
export type { FillSpec } from "./text/model-fill.ts";
export {
  wString,
  wPlainString,
  wUuid,
  wPlainStringT,
  wUuidT,
  wDateTime,
  wDate,
  wDecimalString,
  wStringT,
  wDateTimeT,
  wDateT,
  wDecimalStringT,
  wKey,
  wInt,
  wInt64,
  wIntT,
  wInt64T,
  wNumber,
  wNumberT,
  wBool,
  wNull,
  wConst,
  wJsonConst,
  wEnum,
  enumFail,
  wEnumMap,
  wJsonEnum,
  enumIndex,
  gObject,
  gArray,
  rKey,
} from "./codec/kinds/index.ts";

// Helpers for loops unrolled modules would otherwise write again and again: the extra entries of an object whose
// extras are `any` (additionalProperties absent or true, the commonest case in JSON Schema) and arrays of plain
// strings. They take no definition function, so their call sites stay monomorphic and V8 inlines them like the
// loop they replace.
import type { Writer as $Writer } from "./wire/writer.ts";
import type { Reader as $Reader } from "./wire/reader.ts";
import { writeAny as $writeAny, readAny as $readAny } from "./wire/any.ts";
import { setOwn as $setOwn } from "./wire/objects.ts";
import { rethrowAtIndex as $rethrowAtIndex } from "./wire/errors.ts";
import { wKey as $wKey, rKey as $rKey, wString as $wString, gArray as $gArray } from "./codec/kinds/index.ts";

/** Write the extra entries `keys` of `v` (count, then key and value each), errors prefixed with `p` and the key. */
export function wAnyExtras(w: $Writer, v: any, keys: string[], p: string): void {
  w.varint(keys.length);
  let k = "";
  try {
    for (k of keys) {
      $wKey(w, k);
      $writeAny(w, v[k]);
    }
  } catch (err) {
    $rethrowAtIndex(err, p, k);
  }
}

/** Read extra entries into `o` (count, then key and value each), as `wAnyExtras` writes them. */
export function rAnyExtras(r: $Reader, o: any, p: string): void {
  r.at = p;
  // each entry is at least 2 bytes: a key (1) and an `any` value's tag (1)
  const n = r.count(2);
  let k = "";
  try {
    for (let j = 0; j < n; j++) {
      k = $rKey(r, o);
      r.at = "";
      $setOwn(o, k, $readAny(r));
    }
  } catch (e) {
    $rethrowAtIndex(e, p, k);
  }
}

/** Write an array of plain strings (count, then each), as the unrolled loop over `wString` items writes it. */
export function wStrings(w: $Writer, v: unknown, p: string, req?: number): void {
  $gArray(v, p, req);
  const n = v.length;
  w.varint(n);
  let i = 0;
  try {
    for (; i < n; i++) $wString(w, v[i], "");
  } catch (err) {
    $rethrowAtIndex(err, p, i);
  }
}

/** Read an array of strings as `wStrings` writes it (each item at least 1 byte: its length). */
export function rStrings(r: $Reader, p: string): string[] {
  r.at = p;
  const n = r.count(1);
  const a: string[] = [];
  let i = 0;
  try {
    for (; i < n; i++) a.push((r.at = "", r.string()));
  } catch (e) {
    $rethrowAtIndex(e, p, i);
  }
  return a;
}
