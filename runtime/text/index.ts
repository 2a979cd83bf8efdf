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
} from "./encode.ts";
export type { TextEncodeOptions, TextDelimiter, TextField } from "./encode.ts";
export { decodeText } from "./decode.ts";
export type { TextDecodeOptions } from "./decode.ts";
