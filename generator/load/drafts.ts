/**
 * What differs between JSON Schema drafts, in one place. Most differences are handled by the *form* of a keyword
 * rather than the declared draft (a boolean `exclusiveMinimum` is draft-04 wherever it appears, `definitions` and
 * `$defs` both work everywhere), so the declared draft only decides the few things that cannot be told apart:
 * whether keywords next to `$ref` apply (2019-09+) or are ignored (draft-07 and earlier), and whether `id` is `$id`.
 */
import { isObject, own } from "./json.ts";

export type Draft = 4 | 6 | 7 | 2019 | 2020;

/** The draft declared by `$schema`; `fallback` (default 2020-12) when absent, 2020-12 when unknown. */
export function detectDraft(doc: unknown, fallback: Draft = 2020): Draft {
  const schema = isObject(doc) ? own(doc, "$schema") : undefined;
  if (typeof schema !== "string") return fallback;
  if (schema.includes("draft-04") || schema.includes("draft-03")) return 4;
  if (schema.includes("draft-06")) return 6;
  if (schema.includes("draft-07")) return 7;
  if (schema.includes("2019-09")) return 2019;
  return 2020;
}

/** Draft-07 and earlier: "all other properties in a `$ref` object MUST be ignored". */
export function refSiblingsApply(draft: Draft): boolean {
  return draft >= 2019;
}

/** The keyword naming a schema resource (`id` before draft-06). */
export function idKeyword(draft: Draft): "id" | "$id" {
  return draft === 4 ? "id" : "$id";
}

/**
 * Keywords that are pure annotation or bookkeeping for this generator: dropped silently. (`description` and
 * `default` are annotations we keep, handled separately.) Vendor `x-*` keys are dropped too, by prefix.
 */
export const IGNORED_KEYWORDS = new Set([
  "$schema", "$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "$comment", "$defs",
  "definitions", "title", "examples", "example", "readOnly", "writeOnly", "deprecated", "contentMediaType",
  "contentEncoding", "contentSchema", "description", "default",
]);

/**
 * Keywords that constrain values without changing the wire shape and that `validate()` does not enforce either:
 * recorded in `constraints.unchecked` so the generator can warn.
 */
export const UNCHECKED_KEYWORDS = [
  "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies", "contains", "minContains",
  "maxContains", "propertyNames", "unevaluatedItems",
] as const;

/**
 * Keywords that affect the shape (or a kept constraint). A `$ref` sibling from this list is merged (2019-09+) or
 * reported as ignored (draft-07 and earlier).
 */
export const SHAPE_KEYWORDS = new Set<string>([
  "type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties",
  "unevaluatedProperties", "items", "prefixItems", "additionalItems", "oneOf", "anyOf", "allOf", "nullable",
  "format", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "x-toon",
  ...UNCHECKED_KEYWORDS,
]);
