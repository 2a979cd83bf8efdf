/**
 * Schemaless TOON text runtime (TOON spec v4.0): `encodeText` / `decodeText` plus the encoder building blocks that
 * schema-specialised generated encoders call to stay byte-identical with the schemaless output.
 *
 * The building blocks are checked copies (runtime/wire/arg-check.ts): an argument of the wrong kind is a ToonError.
 * The runtime and generated encoders call the unchecked originals.
 */
import { ToonError } from "../wire/errors.ts";
import { checked } from "../wire/arg-check.ts";
import * as $encode from "./encode.ts";
import * as $primitives from "./primitives.ts";
import * as $headers from "./headers.ts";
import * as $tables from "./tables.ts";
import * as $normalize from "./normalize.ts";
import * as $generated from "./generated-encoder.ts";
import * as $readStream from "./reader/read-stream.ts";
import * as $check from "./check.ts";
import * as $output from "./model-output.ts";
import { parseJsonExact as $parseJsonExact } from "./reader/json-value.ts";
import { textReader as $textReader } from "./reader/text-reader.ts";
import { promptGroup as $promptGroup } from "./prompt.ts";
import { textLayouts as $textLayouts } from "./layout.ts";
import { denseOf as $denseOf, denseToText as $denseToText, denseFromText as $denseFromText } from "./dense/index.ts";
import { denseInstructions as $denseInstructions } from "./dense/instructions.ts";
import { applyFill as $applyFill } from "./model-fill.ts";

export { encodeText, EMPTY_ARRAY } from "./encode.ts";
export { encodePrimitive } from "./primitives.ts";
export { type TextState, textState, textFallbacks, encodeTextWith, textCell } from "./generated-encoder.ts";
export type { TextEncodeOptions } from "./encode-state.ts";
export type { TextDelimiter } from "./primitives.ts";
export type { TextField } from "./headers.ts";
export { decodeText, decodeTextExact, TextNumber } from "./decode.ts";
export { locateText, offsetToLineColumn } from "../entry-checks.ts";
export type { TextDecodeOptions } from "./decode.ts";
// the text checks' guards: a path that is not a string would fail building the error (checked copies)
export const textInvalid = /*@__PURE__*/ checked($check.textInvalid, "textInvalid(path: string, expected: string, v)");
export const tcString = /*@__PURE__*/ checked($check.tcString, "tcString(v, path?: string)");
export const tcUuid = /*@__PURE__*/ checked($check.tcUuid, "tcUuid(v, path?: string)");
export const tcInteger = /*@__PURE__*/ checked($check.tcInteger, "tcInteger(v, path?: string)");
export const tcInt64 = /*@__PURE__*/ checked($check.tcInt64, "tcInt64(v, path?: string)");
export const tcNumber = /*@__PURE__*/ checked($check.tcNumber, "tcNumber(v, path?: string)");
export const tcBoolean = /*@__PURE__*/ checked($check.tcBoolean, "tcBoolean(v, path?: string)");
export const tcNull = /*@__PURE__*/ checked($check.tcNull, "tcNull(v, path?: string)");
export const tcObject = /*@__PURE__*/ checked($check.tcObject, "tcObject(v, path?: string)");
export const tcAny = /*@__PURE__*/ checked($check.tcAny, "tcAny(v, path?: string)");
export const tcExtras = /*@__PURE__*/ checked($check.tcExtras, "tcExtras(v: object, known: Set)");
export type { TextCheckFn } from "./check.ts";
export { modelOutputText, MAX_CANDIDATES } from "./model-output.ts";
export type { PayloadHints, Payload, ModelOutput, ModelOutputOptions, PayloadSearchStats } from "./model-output.ts";
export type { TextReader, TextReaderOptions } from "./reader/text-reader.ts";
export { textOf } from "./reader/read-stream.ts";
export const readTextStream = /*@__PURE__*/ checked($readStream.readTextStream, "readTextStream(spec: ReaderSpec, source, options?: options)");
export type { TextSource } from "./reader/read-stream.ts";
export type { ReaderSpec, ReaderLayout } from "./reader/payload-reader.ts";
export type { JsonParse } from "./reader/json-value.ts";
export type { TextLayout, ToonTextEncodeOptions, ToonTextDecodeOptions, ToonTextGroup, DenseTextGroup, LayoutTextGroup } from "./layout.ts";
export type { DenseCodec, DenseSource } from "./dense/index.ts";
export type { JsonRepair, JsonRepairKind } from "./json-repair.ts";
export type { FillSpec, FillShape, FillProp } from "./model-fill.ts";

// The encoder's building blocks (./encode.ts, ./primitives.ts, ./headers.ts, ./tables.ts, ./normalize.ts).
export const encodeNumber = /*@__PURE__*/ checked($primitives.encodeNumber, "encodeNumber(n: number)");
export const encodeListItemLines = /*@__PURE__*/ checked($encode.encodeListItemLines, "encodeListItemLines(value, depth: depth, options?: options)");
export const indentation = /*@__PURE__*/ checked($headers.indentation, "indentation(depth: depth, indentSize?: depth)");
export const encodeFieldLines = /*@__PURE__*/ checked($encode.encodeFieldLines, "encodeFieldLines(key: string, value, depth: depth, options?: options)");
export const encodeKey = /*@__PURE__*/ checked($primitives.encodeKey, "encodeKey(key: string)");
export const encodeStringValue = /*@__PURE__*/ checked($primitives.encodeStringValue, "encodeStringValue(value: string, delimiter?: string)");
export const encodeBigInt = /*@__PURE__*/ checked($primitives.encodeBigInt, "encodeBigInt(n: bigint)");
export const quoteString = /*@__PURE__*/ checked($primitives.quoteString, "quoteString(s: string)");
export const joinPrimitives = /*@__PURE__*/ checked($primitives.joinPrimitives, "joinPrimitives(values: array, delimiter?: string)");
export const fieldList = /*@__PURE__*/ checked($headers.fieldList, "fieldList(fields: TextFields, delimiter?: string)");
export const arrayHeader = /*@__PURE__*/ checked($headers.arrayHeader, "arrayHeader(key: string | null, length: number, delimiter?: string)");
export const tableHeader = /*@__PURE__*/ checked($headers.tableHeader, "tableHeader(key: string | null, length: number, fields: TextFields, delimiter?: string)");
export const keyedHeader = /*@__PURE__*/ checked($headers.keyedHeader, "keyedHeader(key: string | null, count: number, fields: TextFields, delimiter?: string)");
export const tableRow = /*@__PURE__*/ checked($headers.tableRow, "tableRow(row: object, fields: TextFields, delimiter?: string)");
export const normalizeValue = /*@__PURE__*/ checked($normalize.normalizeValue, "normalizeValue(value, maxDepth?: depth)");
export const detectTabularFields = /*@__PURE__*/ checked($tables.detectTabularFields, "detectTabularFields(rows: array)");
export const detectKeyedFields = /*@__PURE__*/ checked($tables.detectKeyedFields, "detectKeyedFields(obj: object)");
// What generated text encoders call (runtime/codegen.ts), on an encoder state of encodeTextWith's.
export const textNl = /*@__PURE__*/ checked($generated.textNl, "textNl(e: TextState, depth: depth)");
export const textStr = /*@__PURE__*/ checked($generated.textStr, "textStr(s: string, dc: number)");
export const textField = /*@__PURE__*/ checked($generated.textField, "textField(e: TextState, v, lead: string, key: string, fd: depth, lvl: depth)");
export const textScalar = /*@__PURE__*/ checked($generated.textScalar, "textScalar(e: TextState, v, lead: string, kc: string, fd: depth, lvl: depth, key?: string)");
export const textString = /*@__PURE__*/ checked($generated.textString, "textString(e: TextState, v, lead: string, kc: string, fd: depth, lvl: depth, key?: string)");
export const textNumber = /*@__PURE__*/ checked($generated.textNumber, "textNumber(e: TextState, v, lead: string, kc: string, fd: depth, lvl: depth, key?: string)");
export const textItem = /*@__PURE__*/ checked($generated.textItem, "textItem(e: TextState, v, depth: depth, lvl: depth)");
export const textArray = /*@__PURE__*/ checked($generated.textArray, "textArray(e: TextState, pre: string, arr: array, cd: depth, lvl: depth, tab: boolean)");
export const textPrimitives = /*@__PURE__*/ checked($generated.textPrimitives, "textPrimitives(e: TextState, pre: string, arr: array, kind: number, cd: depth, lvl: depth, tab: boolean)");
export const textTable = /*@__PURE__*/ checked($generated.textTable, "textTable(e: TextState, arr: array, depth: depth, lvl: depth)");
export const textKeyed = /*@__PURE__*/ checked($generated.textKeyed, "textKeyed(e: TextState, obj: object, keys: array, depth: depth, lvl: depth)");

/** Whether string `s` reads as a number (so a string value spelled so is quoted); false for what is not a string. */
export function isNumericLike(s: string): boolean {
  return typeof s === "string" && $primitives.isNumericLike(s);
}

/**
 * Decline from inside a generated text encoder: encodeTextWith, which runs it, encodes the value generically (it
 * does so for any error). Anywhere else a ToonError saying so (the internal version throws a private signal).
 */
export function textBail(): never {
  throw new ToonError("INVALID_VALUE", "textBail: the generated text encoder declined the value (encodeTextWith encodes it generically)");
}

/** A primitive value quoted for delimiter code `dc`; `undefined` declines, as {@link textBail}. */
export function textPrim(v: unknown, dc: number): string {
  if (v === undefined) textBail();
  return primitive(v, dc);
}
const primitive = /*@__PURE__*/ checked($generated.textPrim, "textPrim(v, dc: number)");

// The check pass of fromText (./check.ts).
export const fromTextWith = /*@__PURE__*/ checked($check.fromTextWith, "fromTextWith(text: string, options?: options, check: function)");
export const checkDecoded = /*@__PURE__*/ checked($check.checkDecoded, "checkDecoded(value, rawCount: number, check: function, locate: function)");
export const expectedOf = /*@__PURE__*/ checked($check.expectedOf, "expectedOf(values: array)");
export const tcEnum = /*@__PURE__*/ checked($check.tcEnum, "tcEnum(v, path: string, members: array)");
export const tcJsonEnum = /*@__PURE__*/ checked($check.tcJsonEnum, "tcJsonEnum(v, path: string, members: array)");
export const tcRef = /*@__PURE__*/ checked($check.tcRef, "tcRef(v, path: string, check: function)");
export const tcOrNull = /*@__PURE__*/ checked($check.tcOrNull, "tcOrNull(v, path: string, check: function)");
export const tcArray = /*@__PURE__*/ checked($check.tcArray, "tcArray(v, path: string, item: function)");
export const tcUnion = /*@__PURE__*/ checked($check.tcUnion, "tcUnion(v, path: string, branches: array, exact: array, coercible: array)");
export const textRethrow = /*@__PURE__*/ checked($check.textRethrow, "textRethrow(e, path: string)");
export const textRethrowAt = /*@__PURE__*/ checked($check.textRethrowAt, "textRethrowAt(e, path: string, key: string | number)");

// Model output (./model-output.ts), readers, prompting, layouts.
export const stripReasoning = /*@__PURE__*/ checked($output.stripReasoning, "stripReasoning(text: string, stats?: object)");
export const findPayloads = /*@__PURE__*/ checked($output.findPayloads, "findPayloads(output: string, hints: PayloadHints, stats?: object)");
export const fromModelOutputWith = /*@__PURE__*/ checked($output.fromModelOutputWith, "fromModelOutputWith(output, spec: ReaderSpec, options?: options)");
export const decodePayload = /*@__PURE__*/ checked($output.decodePayload, "decodePayload(c: Payload, spec: ReaderSpec, options?: options)");
export const parseJsonExact = /*@__PURE__*/ checked($parseJsonExact, "parseJsonExact(text: string, track?: boolean)");
export const textReader = /*@__PURE__*/ checked($textReader, "textReader(spec: ReaderSpec, options?: options)");
export const promptGroup = /*@__PURE__*/ checked($promptGroup, "promptGroup(spec: ReaderSpec, fingerprint: number, instructions: string)");
export const textLayouts = /*@__PURE__*/ checked($textLayouts, "textLayouts(toon: TextGroup, dense: TextGroup)");
export const denseOf = /*@__PURE__*/ checked($denseOf, "denseOf(src: Descriptor)");
export const denseToText = /*@__PURE__*/ checked($denseToText, "denseToText(src: Descriptor, value)");
export const denseFromText = /*@__PURE__*/ checked($denseFromText, "denseFromText(src: Descriptor, text: string)");
export const denseInstructions = /*@__PURE__*/ checked($denseInstructions, "denseInstructions(toon: string, src: Descriptor)");
export const applyFill = /*@__PURE__*/ checked($applyFill, "applyFill(value, spec: FillSpec, toon: boolean)");
