/**
 * Schemaless TOON text runtime (TOON spec v4.0): `encodeText` / `decodeText` plus the encoder building blocks that
 * schema-specialised generated encoders call to stay byte-identical with the schemaless output.
 */

export {
  encodeText,
  encodeFieldLines,
  encodeListItemLines,
  encodeKey,
  encodeStringValue,
  encodeNumber,
  encodeBigInt,
  encodePrimitive,
  quoteString,
  isNumericLike,
  joinPrimitives,
  fieldList,
  arrayHeader,
  tableHeader,
  keyedHeader,
  tableRow,
  indentation,
  detectTabularFields,
  detectKeyedFields,
  normalizeValue,
  EMPTY_ARRAY,
  type TextState,
  textState,
  textFallbacks,
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
} from "./encode.ts";
export type { TextEncodeOptions, TextDelimiter, TextField } from "./encode.ts";
export { decodeText, decodeTextExact, locateText, offsetToLineColumn, TextNumber } from "./decode.ts";
export type { TextDecodeOptions } from "./decode.ts";
export { fromTextWith, checkDecoded, textInvalid, expectedOf, tcString, tcUuid, tcInteger, tcInt64, tcNumber, tcBoolean, tcNull, tcObject, tcEnum, tcJsonEnum, tcAny, tcRef, tcOrNull, tcArray, tcUnion, tcExtras, textRethrow, textRethrowAt } from "./check.ts";
export type { TextCheckFn } from "./check.ts";
export { findPayloads, fromModelOutputWith, decodePayload, modelOutputText, stripReasoning, MAX_CANDIDATES } from "./model-output.ts";
export type { PayloadHints, Payload, ModelOutput, ModelOutputOptions, PayloadSearchStats } from "./model-output.ts";
export { parseJsonExact } from "./reader/json-value.ts";
export { textReader } from "./reader/text-reader.ts";
export type { TextReader, TextReaderOptions } from "./reader/text-reader.ts";
export { readTextStream, textOf } from "./reader/read-stream.ts";
export type { TextSource } from "./reader/read-stream.ts";
export type { ReaderSpec, ReaderLayout } from "./reader/payload-reader.ts";
export { promptGroup } from "./prompt.ts";
export type { JsonParse } from "./reader/json-value.ts";
export { textLayouts } from "./layout.ts";
export type { TextLayout, ToonTextEncodeOptions, ToonTextDecodeOptions, ToonTextGroup, DenseTextGroup, LayoutTextGroup } from "./layout.ts";
export { denseOf, denseToText, denseFromText } from "./dense/index.ts";
export type { DenseCodec, DenseSource } from "./dense/index.ts";
export { denseInstructions } from "./dense/instructions.ts";
export type { JsonRepair, JsonRepairKind } from "./json-repair.ts";
export { applyFill } from "./model-fill.ts";
export type { FillSpec, FillShape, FillProp } from "./model-fill.ts";
