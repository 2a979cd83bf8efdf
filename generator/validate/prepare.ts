/**
 * The source schema as ajv should see it: a copy with two of the drafts' rules spelled out where ajv 8 reads them
 * otherwise (measured on the JSON-Schema-Test-Suite, test/json-schema-suite.test.ts):
 *
 * - draft-07 and earlier: "all other properties in a `$ref` object MUST be ignored", a sibling `$id` included
 *   (it must not move the base URI the `$ref` resolves against); ajv applies them. Here they are dropped, except
 *   the definition containers, which pointers may still address. (The loader ignores them too, with a warning:
 *   generator/load/normalize.ts.)
 * - `enum: []` accepts nothing; ajv refuses to compile it. Here it is `not: {}`, which means exactly that.
 * - a `$ref` inside an embedded resource (a nested `$id`) is resolved against that resource's base URI here and
 *   handed to ajv as an absolute URI: ajv 8 resolves such a relative `$ref` against the wrong base in layouts like
 *   `{ "$id": "a.json", "$ref": "b.json", "properties": { "x": { "$id": "b.json", "$ref": "#/$defs/y", ... } } }`
 *   and recurses until the stack overflows. Refs at the document's own base are left as written. For the same
 *   reason a `$ref` beside an `$id` (2019-09 on, where it applies with its siblings) becomes `allOf: [{ "$ref" }]`,
 *   which means the same: ajv follows a resource holding only a `$ref` while it resolves pointers, in a loop.
 *
 * - a `$dynamicRef` with a URI before its fragment (`other#anchor`), which ajv refuses to compile, is resolved
 *   statically, as a `$ref` (as the loader does), with a note: the validator then follows the static target.
 *
 * - a property named `__proto__`, which ajv leaves out of `properties` (a guard of its own), is checked through
 *   `patternProperties: { "^__proto__$": ... }`, which applies to exactly that name and counts as evaluated.
 *
 * The walk follows schema positions only (`properties` values, `items`, `allOf` members, ...): a property named
 * `$ref` or `enum`, and `const`/`default`/`examples` data, are copied as they are.
 */
import type { Draft } from "../load/drafts.ts";

/** Keywords whose value is one schema. */
const ONE = ["additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "items"];
/** Keywords whose value is a list of schemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/** Keywords whose value maps names to schemas. */
const MAP = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "dependencies"];
/** What stays next to a `$ref` in draft-07 and earlier: the definition containers (pointer targets) and notes. */
const KEPT_BESIDE_REF = new Set(["$ref", "definitions", "$defs", "$comment", "title", "description"]);

const MAX_DEPTH = 512;

/** `baseUri`: what the document is known by when it has no `$id` of its own. */
export function schemaForAjv(schema: unknown, draft: Draft, baseUri: string, notes: string[] = []): unknown {
  const idKey = draft === 4 ? "id" : "$id";
  let rootBase: string | undefined;
  const walk = (s: unknown, depth: number, outer: string): unknown => {
    if (s === null || typeof s !== "object" || Array.isArray(s) || depth > MAX_DEPTH) return s;
    const node = s as Record<string, unknown>;
    const dropSiblings = draft <= 7 && typeof node.$ref === "string";
    const id = node[idKey];
    const base = !dropSiblings && typeof id === "string" && !id.startsWith("#") ? (resolveUri(id, outer) ?? outer).split("#")[0]! : outer;
    rootBase ??= base;
    const walkIn = (v: unknown): unknown => walk(v, depth + 1, base);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node)) {
      if (dropSiblings && !KEPT_BESIDE_REF.has(key)) continue;
      const v = node[key];
      let copy = v;
      if (Array.isArray(v) && LIST.includes(key)) copy = v.map(walkIn);
      else if (!Array.isArray(v) && ONE.includes(key)) copy = walkIn(v);
      else if (MAP.includes(key) && v !== null && typeof v === "object" && !Array.isArray(v)) {
        const m: Record<string, unknown> = {};
        for (const name of Object.keys(v)) define(m, name, walkIn((v as Record<string, unknown>)[name]));
        copy = m;
      } else if (key === "$ref" && typeof v === "string" && base !== rootBase) copy = resolveUri(v, base) ?? v;
      else if (key === "$schema" && typeof v === "string") copy = canonicalMetaSchema(v);
      if (key === "$dynamicRef" && typeof v === "string" && !v.startsWith("#") && node.$ref === undefined) {
        notes.push(`$dynamicRef ${JSON.stringify(v)} resolved statically, like $ref (ajv supports only "#anchor" dynamic references)`);
        define(out, "$ref", base !== rootBase ? (resolveUri(v, base) ?? v) : v);
        continue;
      }
      define(out, key, copy);
    }
    const props = out.properties;
    if (props !== null && typeof props === "object" && !Array.isArray(props) && Object.prototype.hasOwnProperty.call(props, "__proto__")) {
      const rest: Record<string, unknown> = {};
      for (const name of Object.keys(props)) if (name !== "__proto__") define(rest, name, (props as Record<string, unknown>)[name]);
      const patterns: Record<string, unknown> = { ...(out.patternProperties as Record<string, unknown> | undefined) };
      const own = (props as Record<string, unknown>)["__proto__"];
      patterns["^__proto__$"] = patterns["^__proto__$"] === undefined ? own : { allOf: [patterns["^__proto__$"], own] };
      out.properties = rest;
      out.patternProperties = patterns;
    }
    if (draft >= 2019 && typeof out.$ref === "string" && typeof out[idKey] === "string") {
      out.allOf = [{ $ref: out.$ref }, ...(Array.isArray(out.allOf) ? out.allOf : [])];
      delete out.$ref;
    }
    if (Array.isArray(out.enum) && out.enum.length === 0) {
      delete out.enum;
      out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { not: {} }];
    }
    return out;
  };
  return walk(schema, 0, baseUri);
}

/** `ref` against `base` (URLs and URNs alike), or undefined when it cannot be resolved. */
function resolveUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

/** A plain own property, `__proto__` included. */
function define(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, configurable: true, writable: true });
}

/** The drafts' meta-schemas as ajv knows them (its ids: http for draft-04 to -07, https since 2019-09). */
const META_SCHEMAS: Record<string, string> = {
  "draft-04": "http://json-schema.org/draft-04/schema#",
  "draft-06": "http://json-schema.org/draft-06/schema#",
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "draft/2019-09": "https://json-schema.org/draft/2019-09/schema",
  "draft/2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/**
 * A `$schema` naming a draft's meta-schema in another spelling (`https://json-schema.org/draft-07/schema#`, no
 * `#`, `www.`) as ajv's id for it: ajv looks the meta-schema up by that exact string, and fails on any other.
 */
function canonicalMetaSchema(uri: string): string {
  const m = /^https?:\/\/(?:www\.)?json-schema\.org\/(draft-0[467]|draft\/20(?:19-09|20-12))\/schema#?$/.exec(uri);
  return m === null ? uri : META_SCHEMAS[m[1]!]!;
}
