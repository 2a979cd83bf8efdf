/**
 * toon-gen/runtime/schemaless: runtime/schemaless.ts's exports, with checked copies (runtime/wire/arg-check.ts) of the
 * readers the decoder runs per value (and `toon-gen inspect` with them), so that an argument of the wrong kind is
 * a ToonError; the decoder calls the unchecked originals.
 */
import { checked } from "./wire/arg-check.ts";
import * as $s from "./schemaless.ts";

export * from "./schemaless.ts";

export const schemalessNodeBudget = /*@__PURE__*/ checked($s.schemalessNodeBudget, "schemalessNodeBudget(length: number)");
export const schemalessBodyReader = /*@__PURE__*/ checked($s.schemalessBodyReader, "schemalessBodyReader(length: number, maxDepth?: depth)");
export const schemalessMinWidth = /*@__PURE__*/ checked($s.schemalessMinWidth, "schemalessMinWidth(t: SchemalessType)");
export const siteAt = /*@__PURE__*/ checked($s.siteAt, "siteAt(sites: array, i: number)");
export const readSchemalessHeader = /*@__PURE__*/ checked($s.readSchemalessHeader, "readSchemalessHeader(r: Reader)");
export const readSchemalessDictionary = /*@__PURE__*/ checked($s.readSchemalessDictionary, "readSchemalessDictionary(r: Reader, cx: SchemalessBodyReader)");
export const readSchemalessValue = /*@__PURE__*/ checked(
  $s.readSchemalessValue,
  "readSchemalessValue(r: Reader, t: SchemalessType, cx: SchemalessBodyReader, depth: number, site?: object)",
);
