/**
 * toon-gen/runtime/codegen, the package's public entry of the generated-code surface: runtime/codegen.ts's exports
 * with every function that takes a Writer, a Reader, an encoder state or a descriptor part replaced by a checked
 * copy (runtime/wire/arg-check.ts), so that an argument of the wrong kind is a ToonError, never a TypeError. Generated
 * modules import runtime/codegen.ts itself (`@toon-gen/runtime/internal/codegen.js`: their per-value calls check
 * nothing); a module generated when they imported this entry still runs on it, the same functions behind checks.
 */
import { checked } from "./wire/arg-check.ts";
import * as $rt from "./codegen.ts";

export * from "./codegen.ts";
export { pointerSegment, rethrowAt, rethrowAtIndex, writeInt64, writeHeader, readHeader, writeAny, readAny, invalid, Writer } from "./core.ts";
export {
  encodeKey,
  fieldList,
  textBail,
  textNl,
  textStr,
  textPrim,
  textField,
  textScalar,
  textString,
  textNumber,
  textItem,
  textArray,
  textPrimitives,
  textTable,
  textKeyed,
  fromTextWith,
  tcEnum,
  tcJsonEnum,
  tcRef,
  tcOrNull,
  tcArray,
  tcUnion,
  textRethrow,
  textRethrowAt,
  textInvalid,
  tcString,
  tcUuid,
  tcInteger,
  tcInt64,
  tcNumber,
  tcBoolean,
  tcNull,
  tcObject,
  tcAny,
  tcExtras,
  promptGroup,
  textLayouts,
  denseFromText,
  denseToText,
} from "./text/index.ts";
export { checkShape, checkToolArguments, toolSet, parseToolCall, parseToolCalls, tryParseToolCalls, ToolCallAccumulator } from "./tools-entry.ts";
export { ToonError } from "./entry-checks.ts";

export const peekField = /*@__PURE__*/ checked($rt.peekField, "peekField(bytes, spec: PeekSpec, slot: number, pointer: string, keys: array, read: function, decode: function, options?: options)");

// a codec object and its parts
export const codecOf = /*@__PURE__*/ checked($rt.codecOf, "codecOf(...groups: object)");
export const checkConstraints = /*@__PURE__*/ checked($rt.checkConstraints, "checkConstraints(value, d: Descriptor)");
export const validateWith = /*@__PURE__*/ checked($rt.validateWith, "validateWith(value, write: function)");
export const validateFull = /*@__PURE__*/ checked($rt.validateFull, "validateFull(value, options?: options, check: function, write: function)");
export const assertSchema = /*@__PURE__*/ checked($rt.assertSchema, "assertSchema(value, check: function)");
export const rethrowIn = /*@__PURE__*/ checked($rt.rethrowIn, "rethrowIn(e, at: string)");

// objects
export const hasOwn = /*@__PURE__*/ checked($rt.hasOwn, "hasOwn(o: object, key: string)");
export const getOwn = /*@__PURE__*/ checked($rt.getOwn, "getOwn(o: object, key: string)");
export const setOwn = /*@__PURE__*/ checked($rt.setOwn, "setOwn(o: extensible, key: string, value)");
export const isJsonLike = /*@__PURE__*/ checked($rt.isJsonLike, "isJsonLike(v, depth?: depth)");
export const gObject = /*@__PURE__*/ checked($rt.gObject, "gObject(v, p: string, req?: number)");
export const gArray = /*@__PURE__*/ checked($rt.gArray, "gArray(v, p: string, req?: number)");
export const wNull = /*@__PURE__*/ checked($rt.wNull, "wNull(v, p: string, req?: number)");
export const wConst = /*@__PURE__*/ checked($rt.wConst, "wConst(v, c, p: string, req?: number)");
export const wJsonConst = /*@__PURE__*/ checked($rt.wJsonConst, "wJsonConst(v, c, p: string, req?: number)");
export const requireContract = /*@__PURE__*/ checked($rt.requireContract, "requireContract(version: number, module: string, fingerprint: number, dictionaryName: string)");
export const extraKeys = /*@__PURE__*/ checked($rt.extraKeys, "extraKeys(o: object, known: Set)");
export const extrasAreJson = /*@__PURE__*/ checked($rt.extrasAreJson, "extrasAreJson(o: object, known: Set)");
export const checkClosed = /*@__PURE__*/ checked($rt.checkClosed, "checkClosed(o: object, known: Set, path: string)");
export const missing = /*@__PURE__*/ checked($rt.missing, "missing(path: string, key: string)");
export const pickPath = /*@__PURE__*/ checked($rt.pickPath, "pickPath(v, keys: array)");

// the binary writers and readers of each kind
export const wString = /*@__PURE__*/ checked($rt.wString, "wString(w: Writer, v, p: string, req?: number)");
export const wPlainString = /*@__PURE__*/ checked($rt.wPlainString, "wPlainString(w: Writer, v, p: string, req?: number)");
export const wUuid = /*@__PURE__*/ checked($rt.wUuid, "wUuid(w: Writer, v, p: string, req?: number)");
export const wDateTime = /*@__PURE__*/ checked($rt.wDateTime, "wDateTime(w: Writer, v, p: string, req?: number)");
export const wDate = /*@__PURE__*/ checked($rt.wDate, "wDate(w: Writer, v, p: string, req?: number)");
export const wDecimalString = /*@__PURE__*/ checked($rt.wDecimalString, "wDecimalString(w: Writer, v, p: string, req?: number)");
export const wInt = /*@__PURE__*/ checked($rt.wInt, "wInt(w: Writer, v, p: string, req?: number)");
export const wInt64 = /*@__PURE__*/ checked($rt.wInt64, "wInt64(w: Writer, v, p: string, req?: number)");
export const wNumber = /*@__PURE__*/ checked($rt.wNumber, "wNumber(w: Writer, v, p: string, req?: number)");
export const wBool = /*@__PURE__*/ checked($rt.wBool, "wBool(w: Writer, v, p: string, req?: number)");
export const wStrings = /*@__PURE__*/ checked($rt.wStrings, "wStrings(w: Writer, v, p: string, req?: number)");
export const wStringT = /*@__PURE__*/ checked($rt.wStringT, "wStringT(w: Writer, v, t: DefaultTable, p: string, req?: number)");
export const wPlainStringT = /*@__PURE__*/ checked($rt.wPlainStringT, "wPlainStringT(w: Writer, v, t: DefaultTable, p: string, req?: number)");
export const wUuidT = /*@__PURE__*/ checked($rt.wUuidT, "wUuidT(w: Writer, v, t: DefaultTable, p: string, req?: number)");
export const wDateTimeT = /*@__PURE__*/ checked($rt.wDateTimeT, "wDateTimeT(w: Writer, v, t: DefaultTable, p: string, req?: number)");
export const wDateT = /*@__PURE__*/ checked($rt.wDateT, "wDateT(w: Writer, v, t: DefaultTable, p: string, req?: number)");
export const wDecimalStringT = /*@__PURE__*/ checked($rt.wDecimalStringT, "wDecimalStringT(w: Writer, v, t: DefaultTable, p: string, req?: number)");
export const wIntT = /*@__PURE__*/ checked($rt.wIntT, "wIntT(w: Writer, v, t: DefaultTable, p: string, req?: number)");
export const wInt64T = /*@__PURE__*/ checked($rt.wInt64T, "wInt64T(w: Writer, v, t: DefaultTable, p: string, req?: number)");
export const wNumberT = /*@__PURE__*/ checked($rt.wNumberT, "wNumberT(w: Writer, v, t: DefaultTable, p: string, req?: number)");
export const wEnum = /*@__PURE__*/ checked($rt.wEnum, "wEnum(w: Writer, v, values: array, p: string, req?: number)");
export const wJsonEnum = /*@__PURE__*/ checked($rt.wJsonEnum, "wJsonEnum(w: Writer, v, values: array, p: string, req?: number)");
export const wEnumMap = /*@__PURE__*/ checked($rt.wEnumMap, "wEnumMap(w: Writer, v, index: Map, values: array, p: string, req?: number)");
export const enumFail = /*@__PURE__*/ checked($rt.enumFail, "enumFail(v, values: array, p: string, req?: number)");
export const enumIndex = /*@__PURE__*/ checked($rt.enumIndex, "enumIndex(values: array)");
export const wKey = /*@__PURE__*/ checked($rt.wKey, "wKey(w: Writer, k: string)");
export const rKey = /*@__PURE__*/ checked($rt.rKey, "rKey(r: Reader, o: object)");
export const wAnyExtras = /*@__PURE__*/ checked($rt.wAnyExtras, "wAnyExtras(w: Writer, v: object, keys: array, p: string)");
export const rAnyExtras = /*@__PURE__*/ checked($rt.rAnyExtras, "rAnyExtras(r: Reader, o: object, p: string)");
export const rStrings = /*@__PURE__*/ checked($rt.rStrings, "rStrings(r: Reader, p: string)");
export const writeUuid = /*@__PURE__*/ checked($rt.writeUuid, "writeUuid(w: Writer, s: string)");
export const readUuid = /*@__PURE__*/ checked($rt.readUuid, "readUuid(r: Reader)");

// default-value tables
export const defaultTable = /*@__PURE__*/ checked($rt.defaultTable, "defaultTable(values: array)");
export const writeTabledString = /*@__PURE__*/ checked($rt.writeTabledString, "writeTabledString(w: Writer, v: string, t: DefaultTable)");
export const writeTabledPlainString = /*@__PURE__*/ checked($rt.writeTabledPlainString, "writeTabledPlainString(w: Writer, v: string, t: DefaultTable)");
export const writeTabledDateTime = /*@__PURE__*/ checked($rt.writeTabledDateTime, "writeTabledDateTime(w: Writer, v: string, t: DefaultTable)");
export const writeTabledDate = /*@__PURE__*/ checked($rt.writeTabledDate, "writeTabledDate(w: Writer, v: string, t: DefaultTable)");
export const writeTabledDecimalString = /*@__PURE__*/ checked($rt.writeTabledDecimalString, "writeTabledDecimalString(w: Writer, v: string, t: DefaultTable)");
export const writeTabledUuid = /*@__PURE__*/ checked($rt.writeTabledUuid, "writeTabledUuid(w: Writer, v: string, t: DefaultTable)");
export const writeTabledNumber = /*@__PURE__*/ checked($rt.writeTabledNumber, "writeTabledNumber(w: Writer, x: number, t: DefaultTable)");
export const writeTabledInt = /*@__PURE__*/ checked($rt.writeTabledInt, "writeTabledInt(w: Writer, n: number, t: DefaultTable)");
export const writeTabledInt64 = /*@__PURE__*/ checked($rt.writeTabledInt64, "writeTabledInt64(w: Writer, v, t: DefaultTable)");
export const readTabledString = /*@__PURE__*/ checked($rt.readTabledString, "readTabledString(r: Reader, t: DefaultTable)");
export const readTabledPlainString = /*@__PURE__*/ checked($rt.readTabledPlainString, "readTabledPlainString(r: Reader, t: DefaultTable)");
export const readTabledDateTime = /*@__PURE__*/ checked($rt.readTabledDateTime, "readTabledDateTime(r: Reader, t: DefaultTable)");
export const readTabledDate = /*@__PURE__*/ checked($rt.readTabledDate, "readTabledDate(r: Reader, t: DefaultTable)");
export const readTabledDecimalString = /*@__PURE__*/ checked($rt.readTabledDecimalString, "readTabledDecimalString(r: Reader, t: DefaultTable)");
export const readTabledUuid = /*@__PURE__*/ checked($rt.readTabledUuid, "readTabledUuid(r: Reader, t: DefaultTable)");
export const readTabledNumber = /*@__PURE__*/ checked($rt.readTabledNumber, "readTabledNumber(r: Reader, t: DefaultTable)");
export const readTabledInt = /*@__PURE__*/ checked($rt.readTabledInt, "readTabledInt(r: Reader, t: DefaultTable)");
export const readTabledInt64 = /*@__PURE__*/ checked($rt.readTabledInt64, "readTabledInt64(r: Reader, t: DefaultTable)");

// field index and extension records
export const beginFieldIndex = /*@__PURE__*/ checked($rt.beginFieldIndex, "beginFieldIndex(w: Writer, count: number)");
export const fieldStart = /*@__PURE__*/ checked($rt.fieldStart, "fieldStart(w: Writer, slot: number)");
export const endFieldIndex = /*@__PURE__*/ checked($rt.endFieldIndex, "endFieldIndex(w: Writer, tag: number)");
export const writeExtension = /*@__PURE__*/ checked($rt.writeExtension, "writeExtension(w: Writer, id: number, rel: string, key: string, v, write: function)");
export const writeExtensionSection = /*@__PURE__*/ checked($rt.writeExtensionSection, "writeExtensionSection(w: Writer, unknown?: array)");
export const readExtensionSection = /*@__PURE__*/ checked($rt.readExtensionSection, "readExtensionSection(r: Reader, root, apply: function, options?: options)");
export const applyExtension = /*@__PURE__*/ checked($rt.applyExtension, "applyExtension(payload: Reader, root, key: string, read: function)");
export const assertDecoded = /*@__PURE__*/ checked($rt.assertDecoded, "assertDecoded(value, write: function)");
