/**
 * Schemaless mode (docs/FORMAT.md §10.4): JSON without a schema. The encoder infers a dictionary from the
 * value itself (one type per position of the value, with templates for objects of the same shape: array
 * elements, map values, repeated sub-objects), writes it into the message (EMBEDDED_DICTIONARY flag), then
 * writes the body positionally as the schema-driven format does: a shape seen again costs its values only.
 *
 *   message    := header (flags EMBEDDED_DICTIONARY [| COMPRESSED], no fingerprint) ‖ dictionary ‖ body
 *   dictionary := type                            the root type, written depth first
 *   body       := the root value, encoded with it
 *
 * Dictionary, body and the string table are one stream: strings of the dictionary (template keys, constants,
 * enum values) enter the message's string table before the body's, so a body string equal to a key is a
 * reference. Decoding is lossless for JSON values: key order, `__proto__` as an own key, -0, integers beyond
 * 2^53 (as the double they are, or as bigint when given as bigint), nested and mixed arrays, empty containers.
 *
 * One job a file, in ./schemaless/: the types and bounds (types.ts), what is asked of a JSON value
 * (json-values.ts), type inference (infer.ts), the strings' value table and prefixed forms (strings.ts), the
 * dictionary's wire form (dictionary.ts), the body (body.ts) and the whole message (message.ts). This file is what
 * `@toon-gen/runtime/schemaless` and the generated code see, and names what it exports.
 */
export { SchemalessKind, SCHEMALESS_KIND_NAMES, NODE_BUDGET_FACTOR, NODE_BUDGET_BASE, PREFIX_BUDGET_FACTOR, MAX_PREFIX, schemalessMinWidth, schemalessNodeBudget } from "./schemaless/types.ts";
export type {
  SchemalessScalar,
  SchemalessSimpleType,
  SchemalessConstType,
  SchemalessEnumType,
  SchemalessArrayType,
  SchemalessObjectType,
  SchemalessMapType,
  SchemalessUnionType,
  SchemalessType,
  SchemalessDecodeOptions,
} from "./schemaless/types.ts";
export { encodeSchemaless, inferSchemaless, readSchemalessHeader, decodeSchemaless } from "./schemaless/message.ts";
export { SchemalessStrings, siteAt } from "./schemaless/strings.ts";
export type { SchemalessSite } from "./schemaless/strings.ts";
export { readSchemalessDictionary } from "./schemaless/dictionary.ts";
export { schemalessBodyReader, readSchemalessValue } from "./schemaless/body.ts";
export type { SchemalessBodyReader } from "./schemaless/body.ts";
