/** Unit tests for stages 1-2: JSON Schema -> shape IR (generator/load) and identifier sanitising (ir/names). */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, describe, test } from "node:test";
import { ToonError } from "../runtime/wire/errors.ts";
import { camelCase, pascalCase, uniqueName } from "../generator/ir/names.ts";
import type { SchemaIR, Shape } from "../generator/ir/types.ts";
import { loadSchemaFile, schemaToIR } from "../generator/load/index.ts";

/** Compile an in-memory schema. */
function ir(doc: unknown, extra: Partial<Parameters<typeof schemaToIR>[1]> = {}): SchemaIR {
  return schemaToIR(doc, { source: "test.schema.json", ...extra });
}

/** The IR with every `schemaPath` removed, for compact structural assertions. */
function strip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === "schemaPath" ? undefined : v))) as T;
}

function root(doc: unknown): Shape {
  return strip(ir(doc).root);
}

function throwsToon(fn: () => unknown, code: string, pathValue?: string, messagePart?: string | RegExp): ToonError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof ToonError, `expected a ToonError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  if (pathValue !== undefined) assert.equal(caught.path, pathValue, caught.message);
  if (messagePart !== undefined) assert.match(caught.message, typeof messagePart === "string" ? new RegExp(escape(messagePart)) : messagePart);
  return caught;
}

async function rejectsToon(p: Promise<unknown>, code: string): Promise<ToonError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ToonError, String(e));
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail("expected a rejection");
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The kinds of a union's branches (or of the shape itself). */
function kindsOf(s: Shape): string[] {
  return s.kind === "union" ? s.branches.map((b) => b.kind) : [s.kind];
}

/** Every shape reachable from root and definitions, with the path to it. */
function* shapes(s: Shape): Generator<Shape> {
  yield s;
  switch (s.kind) {
    case "object":
      for (const p of s.properties) yield* shapes(p.shape);
      if (s.additional !== false) yield* shapes(s.additional);
      break;
    case "array":
      yield* shapes(s.items);
      break;
    case "tuple":
      for (const i of s.items) yield* shapes(i);
      if (s.rest !== false) yield* shapes(s.rest);
      break;
    case "union":
      for (const b of s.branches) yield* shapes(b);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------------------------------------------------------

describe("names", () => {
  test("pascalCase", () => {
    assert.equal(pascalCase("order-list.schema"), "OrderList");
    assert.equal(pascalCase("order-list.schema.json"), "OrderList");
    assert.equal(pascalCase("get_weather"), "GetWeather");
    assert.equal(pascalCase("123abc"), "_123abc");
    assert.equal(pascalCase(""), "Schema");
    assert.equal(pascalCase("!!! ---"), "Schema");
    assert.equal(pascalCase("getHTTPResponse"), "GetHTTPResponse");
    assert.equal(pascalCase("HTTP_STATUS"), "HttpStatus");
    assert.equal(pascalCase("Héllo wörld"), "HelloWorld");
    assert.equal(pascalCase("JSON schema for the compiler's options"), "JSONSchemaForTheCompilersOptions");
    assert.equal(pascalCase("__proto__"), "Proto");
    assert.equal(pascalCase("*/ ${x}"), "X");
  });

  test("pascalCase never returns a global or reserved name", () => {
    for (const g of ["Object", "object", "Array", "String", "number", "Boolean", "Error", "Map", "set", "Date", "Promise", "Symbol", "Uint8Array", "Math", "RegExp", "BigInt", "Record"]) {
      const out = pascalCase(g);
      assert.equal(out, g.charAt(0).toUpperCase() + g.slice(1) + "_", `${g} -> ${out}`);
    }
    // SCREAMING_CASE is re-cased, which cannot clash: `JSON` -> `Json`, `URL` -> `Url`
    assert.equal(pascalCase("JSON"), "Json");
    assert.equal(pascalCase("URL"), "Url");
  });

  test("camelCase", () => {
    assert.equal(camelCase("get_weather"), "getWeather");
    assert.equal(camelCase("Order List"), "orderList");
    assert.equal(camelCase("HTTPServer"), "httpServer");
    assert.equal(camelCase("class"), "class_");
    assert.equal(camelCase("default"), "default_");
    assert.equal(camelCase("123"), "_123");
    assert.equal(camelCase(""), "value");
  });

  test("uniqueName", () => {
    const used = new Set<string>(["Order"]);
    assert.equal(uniqueName("Order", used), "Order2");
    assert.equal(uniqueName("Order", used), "Order3");
    assert.equal(uniqueName("Item", used), "Item");
    assert.ok(used.has("Order2") && used.has("Order3") && used.has("Item"));
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("scalars and types", () => {
  test("primitive types, formats, constraints", () => {
    assert.deepEqual(root({ type: "string", format: "email", minLength: 1, maxLength: 5, pattern: "^a" }), {
      kind: "string",
      format: "email",
      constraints: { minLength: 1, maxLength: 5, pattern: "^a" },
    });
    assert.deepEqual(root({ type: "integer", minimum: 0, maximum: 10, multipleOf: 2 }), {
      kind: "integer",
      constraints: { minimum: 0, maximum: 10, multipleOf: 2 },
    });
    assert.deepEqual(root({ type: "number", exclusiveMinimum: 0 }), { kind: "number", constraints: { exclusiveMinimum: 0 } });
    assert.deepEqual(root({ type: "boolean" }), { kind: "boolean" });
    assert.deepEqual(root({ type: "null" }), { kind: "null" });
    assert.deepEqual(root({}), { kind: "any" });
    assert.deepEqual(root(true), { kind: "any" });
  });

  test("draft-04 boolean exclusiveMinimum/Maximum", () => {
    const s = root({ $schema: "http://json-schema.org/draft-04/schema#", type: "number", minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false });
    assert.deepEqual(s, { kind: "number", constraints: { exclusiveMinimum: 1, maximum: 9 } });
    const t = root({ $schema: "http://json-schema.org/draft-04/schema#", type: "integer", maximum: 5, exclusiveMaximum: true });
    assert.deepEqual(t, { kind: "integer", constraints: { exclusiveMaximum: 5 } });
  });

  test("type arrays become unions; number absorbs integer", () => {
    const r = ir({ type: ["string", "null"] }).root;
    assert.deepEqual(strip(r), { kind: "union", branches: [{ kind: "string" }, { kind: "null" }] });
    assert.equal(r.schemaPath, "");
    assert.deepEqual(root({ type: ["integer", "number"] }), { kind: "number" });
    assert.deepEqual(root({ type: ["array", "object"], items: { type: "string" }, required: ["a"] }), {
      kind: "union",
      branches: [
        { kind: "array", items: { kind: "string" } },
        { kind: "object", properties: [{ name: "a", required: true, shape: { kind: "any" } }], additional: { kind: "any" } },
      ],
    });
  });

  test("int64 from format or x-toon, on integers and strings", () => {
    assert.deepEqual(root({ type: "integer", format: "int64" }), { kind: "integer", format: "int64", int64: true });
    assert.deepEqual(root({ type: "integer", format: "uint64" }), { kind: "integer", format: "uint64", int64: true });
    assert.deepEqual(root({ type: "integer", "x-toon": "int64" }), { kind: "integer", int64: true });
    assert.deepEqual(root({ type: "string", format: "int64" }), { kind: "string", format: "int64", int64: true });
    assert.deepEqual(root({ type: "integer", format: "int32" }), { kind: "integer", format: "int32" });
  });

  test("enum: dedupe, single value -> const, no type needed, values filtered by type", () => {
    assert.deepEqual(root({ enum: ["a", "b", "a", 1, null, { x: 1 }, { x: 1 }] }), { kind: "enum", values: ["a", "b", 1, null, { x: 1 }] });
    assert.deepEqual(root({ type: "string", enum: ["only"] }), { kind: "const", value: "only" });
    const r = ir({ type: "string", enum: ["a", 1, "b"] });
    assert.deepEqual(strip(r.root), { kind: "enum", values: ["a", "b"] });
    assert.ok(r.warnings.some((w) => w.includes("enum")));
    assert.deepEqual(root({ type: ["string", "null"], enum: ["a", null] }), { kind: "enum", values: ["a", null] });
    throwsToon(() => ir({ enum: [] }), "SCHEMA_ERROR", "/enum");
    throwsToon(() => ir({ type: "integer", enum: ["x"] }), "SCHEMA_ERROR", "/enum");
  });

  test("const", () => {
    assert.deepEqual(root({ const: { a: [1, 2] } }), { kind: "const", value: { a: [1, 2] } });
    assert.deepEqual(root({ type: "string", const: "x" }), { kind: "const", value: "x" });
    throwsToon(() => ir({ type: "string", const: 1 }), "SCHEMA_ERROR", "/const");
  });

  test("keywords imply the type when `type` is missing", () => {
    // object and array keywords shape their type, the first branch of a union by JSON type that lets the rest through
    assert.deepEqual(kindsOf(root({ properties: { a: {} } })), ["object", "null", "boolean", "number", "string", "array"]);
    assert.deepEqual(kindsOf(root({ items: {} })), ["array", "null", "boolean", "number", "string", "object"]);
    // scalar keywords constrain their type only: without `type` every other value is accepted (the number 1 too)
    assert.equal(root({ maxLength: 3 }).kind, "any");
    assert.equal(root({ minimum: 3 }).kind, "any");
    // ... unless an allOf merges them into a typed schema
    assert.equal(root({ allOf: [{ type: "string" }, { maxLength: 3 }] }).kind, "string");
    assert.equal(root({ description: "anything" }).kind, "any");
  });

  test("annotations: description kept, title/examples/readOnly/x- dropped", () => {
    const s = root({ type: "string", description: "d", title: "T", examples: ["x"], readOnly: true, deprecated: true, $comment: "c", "x-vendor": { a: 1 } });
    assert.deepEqual(s, { kind: "string", description: "d" });
  });

  test("default kept only when JSON and fitting the shape", () => {
    assert.deepEqual(root({ type: "string", default: "x" }), { kind: "string", default: "x" });
    assert.deepEqual(root({ type: "object", default: { a: [1] } }), { kind: "object", properties: [], additional: { kind: "any" }, default: { a: [1] } });
    const r = ir({ type: "string", default: null });
    assert.deepEqual(strip(r.root), { kind: "string" });
    assert.ok(r.warnings.some((w) => w.includes("default")));
    // in-memory schemas may carry non-JSON values
    const m = ir({ type: "number", default: Number.NaN });
    assert.deepEqual(strip(m.root), { kind: "number" });
    const d = ir({ type: "string", default: new Date(0) });
    assert.equal((d.root as { default?: unknown }).default, undefined);
  });

  test("nullable: true (OpenAPI 3.0) adds null", () => {
    assert.deepEqual(root({ type: "string", nullable: true }), { kind: "union", branches: [{ kind: "string" }, { kind: "null" }] });
    assert.deepEqual(root({ type: ["string", "null"], nullable: true }), { kind: "union", branches: [{ kind: "string" }, { kind: "null" }] });
    const r = ir({ $defs: { p: { type: "object" } }, type: "object", properties: { a: { $ref: "#/$defs/p", nullable: true } } });
    assert.ok(r.root.kind === "object");
    assert.deepEqual(strip(r.root.properties[0]!.shape), { kind: "union", branches: [{ kind: "ref", name: "P" }, { kind: "null" }] });
  });

  test("keywords that do not change the shape are listed as unchecked", () => {
    const s = root({ type: "object", not: { required: ["a"] }, if: {}, then: {}, else: {}, dependentRequired: { a: ["b"] }, propertyNames: { maxLength: 3 } });
    assert.deepEqual(s.constraints?.unchecked, ["not", "if", "then", "else", "dependentRequired", "propertyNames"]);
    assert.deepEqual(root({ type: "array", contains: { type: "string" }, unevaluatedItems: false }).constraints?.unchecked, ["contains", "unevaluatedItems"]);
    assert.deepEqual(root({ dependencies: { a: ["b"] } }).constraints?.unchecked, ["dependencies"]);
    const r = ir({ type: "object", dependentSchemas: { a: { required: ["b"] } } });
    assert.ok(r.warnings.some((w) => w.includes("dependentSchemas")));
    assert.deepEqual(strip(r.root).constraints?.unchecked, ["dependentSchemas"]);
  });

  test("malformed constraints are dropped with a warning, malformed structure is an error", () => {
    const r = ir({ type: "string", minLength: "3", pattern: "(" });
    assert.deepEqual(strip(r.root), { kind: "string" });
    assert.equal(r.warnings.length, 2);
    throwsToon(() => ir({ type: "strin" }), "SCHEMA_ERROR", "/type", "unknown type");
    throwsToon(() => ir({ properties: [] }), "SCHEMA_ERROR", "/properties");
    throwsToon(() => ir({ type: "object", properties: { a: 5 } }), "SCHEMA_ERROR", "/properties/a");
    throwsToon(() => ir({ type: "object", required: "a" }), "SCHEMA_ERROR", "/required");
    throwsToon(() => ir({ anyOf: [] }), "SCHEMA_ERROR", "/anyOf");
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("objects", () => {
  test("properties in schema order, required, required-only names, additional", () => {
    const s = root({ type: "object", properties: { b: { type: "string" }, a: { type: "integer" } }, required: ["a", "c"] });
    assert.deepEqual(s, {
      kind: "object",
      properties: [
        { name: "b", required: false, shape: { kind: "string" } },
        { name: "a", required: true, shape: { kind: "integer" } },
        { name: "c", required: true, shape: { kind: "any" } },
      ],
      additional: { kind: "any" },
    });
    const r = ir({ type: "object", required: ["c"] });
    assert.equal(r.root.kind === "object" && r.root.properties[0]!.shape.schemaPath, "/required/0");
  });

  test("additionalProperties false / schema / true, unevaluatedProperties false", () => {
    assert.equal((root({ type: "object", additionalProperties: false }) as { additional: unknown }).additional, false);
    assert.deepEqual((root({ type: "object", additionalProperties: { type: "number" } }) as { additional: unknown }).additional, { kind: "number" });
    assert.deepEqual((root({ type: "object", additionalProperties: true }) as { additional: unknown }).additional, { kind: "any" });
    assert.equal((root({ type: "object", unevaluatedProperties: false }) as { additional: unknown }).additional, false);
    assert.deepEqual((root({ type: "object", unevaluatedProperties: { type: "string" } }) as { additional: unknown }).additional, { kind: "string" });
  });

  test("patternProperties: union of values (closed or match-all) or any, with a warning", () => {
    const closed = ir({ type: "object", patternProperties: { "^a": { type: "string" }, "^b": { type: "integer" } }, additionalProperties: false });
    assert.deepEqual((strip(closed.root) as { additional: unknown }).additional, { kind: "union", branches: [{ kind: "string" }, { kind: "integer" }] });
    assert.ok(closed.warnings.some((w) => w.includes("patternProperties")));
    const open = ir({ type: "object", patternProperties: { "^a": { type: "string" } } });
    assert.deepEqual((strip(open.root) as { additional: unknown }).additional, { kind: "any" });
    assert.ok(open.warnings.some((w) => w.includes("patternProperties")));
    const all = ir({ type: "object", patternProperties: { ".*": { type: "boolean" } } });
    assert.deepEqual((strip(all.root) as { additional: unknown }).additional, { kind: "boolean" });
  });

  test("a `false` optional property is left out, a `false` required one is an error", () => {
    const r = ir({ type: "object", properties: { a: false, b: { type: "string" } } });
    assert.deepEqual(strip(r.root), { kind: "object", properties: [{ name: "b", required: false, shape: { kind: "string" } }], additional: { kind: "any" } });
    assert.ok(r.warnings.some((w) => w.includes("/properties/a")));
    throwsToon(() => ir({ type: "object", properties: { a: false }, required: ["a"] }), "UNSUPPORTED_SCHEMA", "/properties/a");
    // the same through a $ref to `false`, with a warning naming the property
    const viaRef = ir({ type: "object", $defs: { no: false }, properties: { a: { $ref: "#/$defs/no" }, c: {} } });
    assert.deepEqual(viaRef.root.kind === "object" && viaRef.root.properties.map((p) => p.name), ["c"]);
    assert.ok(viaRef.warnings.some((w) => w.includes("/$defs/no") && w.includes('"a"')), viaRef.warnings.join("\n"));
    throwsToon(() => ir({ type: "object", $defs: { no: false }, properties: { a: { $ref: "#/$defs/no" } }, required: ["a"] }), "UNSUPPORTED_SCHEMA");
  });
});

describe("arrays and tuples", () => {
  test("items schema, absent, false", () => {
    assert.deepEqual(root({ type: "array", items: { type: "string" }, minItems: 1, uniqueItems: true }), {
      kind: "array",
      items: { kind: "string" },
      constraints: { minItems: 1, uniqueItems: true },
    });
    assert.deepEqual(root({ type: "array" }), { kind: "array", items: { kind: "any" } });
    assert.deepEqual(root({ type: "array", items: false }), { kind: "tuple", items: [], minItems: 0, rest: false });
  });

  test("array-form items (draft-04..2019) with additionalItems; minItems", () => {
    assert.deepEqual(root({ type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false, minItems: 1 }), {
      kind: "tuple",
      items: [{ kind: "string" }, { kind: "integer" }],
      minItems: 1,
      rest: false,
    });
    assert.deepEqual(root({ type: "array", items: [{ type: "string" }], additionalItems: { type: "boolean" } }), {
      kind: "tuple",
      items: [{ kind: "string" }],
      minItems: 0,
      rest: { kind: "boolean" },
    });
    assert.deepEqual(root({ type: "array", items: [{ type: "string" }] }), { kind: "tuple", items: [{ kind: "string" }], minItems: 0, rest: { kind: "any" } });
  });

  test("prefixItems + items (2020-12); minItems beyond the positional items stays a constraint", () => {
    assert.deepEqual(root({ type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false, minItems: 2 }), {
      kind: "tuple",
      items: [{ kind: "number" }, { kind: "number" }],
      minItems: 2,
      rest: false,
    });
    assert.deepEqual(root({ type: "array", prefixItems: [{ type: "string" }], items: { type: "integer" }, minItems: 3, maxItems: 5 }), {
      kind: "tuple",
      items: [{ kind: "string" }],
      minItems: 1,
      rest: { kind: "integer" },
      constraints: { minItems: 3, maxItems: 5 },
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("unions", () => {
  test("oneOf/anyOf: flatten, dedupe, one branch is that branch", () => {
    assert.deepEqual(root({ oneOf: [{ type: "string" }, { anyOf: [{ type: "integer" }, { type: "string", description: "same" }] }] }), {
      kind: "union",
      branches: [{ kind: "string" }, { kind: "integer" }],
    });
    assert.deepEqual(root({ anyOf: [{ type: "string" }, { type: "string" }] }), { kind: "string" });
    assert.deepEqual(root({ anyOf: [{ type: "string" }, { type: "null" }] }), { kind: "union", branches: [{ kind: "string" }, { kind: "null" }] });
  });

  test("sibling keywords distribute over the branches", () => {
    const s = root({ type: "object", properties: { a: { type: "string" } }, oneOf: [{ required: ["a"] }, { properties: { b: { type: "number" } }, required: ["b"] }] });
    assert.deepEqual(s, {
      kind: "union",
      branches: [
        { kind: "object", properties: [{ name: "a", required: true, shape: { kind: "string" } }], additional: { kind: "any" } },
        {
          kind: "object",
          properties: [
            { name: "a", required: false, shape: { kind: "string" } },
            { name: "b", required: true, shape: { kind: "number" } },
          ],
          additional: { kind: "any" },
        },
      ],
    });
  });

  test("a branch that accepts nothing is dropped with a warning", () => {
    const r = ir({ anyOf: [{ type: "string", const: ["auto"] }, { type: "boolean" }, false] });
    assert.deepEqual(strip(r.root), { kind: "boolean" });
    assert.ok(r.warnings.some((w) => w.includes("/anyOf/0")));
    throwsToon(() => ir({ anyOf: [false, { type: "string", const: 1 }] }), "SCHEMA_ERROR", "/anyOf");
  });

  test("discriminator: required const property with distinct scalar values", () => {
    const s = root({
      oneOf: [
        { type: "object", properties: { kind: { const: "circle" }, r: { type: "number" } }, required: ["kind", "r"] },
        { type: "object", properties: { kind: { enum: ["square"] }, side: { type: "number" } }, required: ["kind"] },
      ],
    });
    assert.equal(s.kind, "union");
    assert.deepEqual(s.kind === "union" && s.discriminator, { property: "kind", values: ["circle", "square"] });
  });

  test("discriminator: picks the first property that works, looks through refs", () => {
    const r = ir({
      $defs: {
        A: { type: "object", properties: { v: { const: 1 }, t: { const: "a" } }, required: ["v", "t"] },
        B: { type: "object", properties: { v: { const: 1 }, t: { const: "b" } }, required: ["v", "t"] },
        TagC: { const: "c" },
        C: { type: "object", properties: { t: { $ref: "#/$defs/TagC" } }, required: ["t"] },
      },
      anyOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }, { $ref: "#/$defs/C" }],
    });
    assert.equal(r.root.kind, "union");
    assert.deepEqual(r.root.kind === "union" && r.root.discriminator, { property: "t", values: ["a", "b", "c"] });
  });

  test("no discriminator when optional, duplicated, or not all objects", () => {
    const opt = root({ oneOf: [{ properties: { k: { const: "a" } } }, { properties: { k: { const: "b" } }, required: ["k"] }] });
    assert.equal(opt.kind === "union" && opt.discriminator, undefined);
    const dup = root({ oneOf: [{ properties: { k: { const: "a" }, x: { type: "string" } }, required: ["k", "x"] }, { properties: { k: { const: "a" } }, required: ["k"] }] });
    assert.equal(dup.kind === "union" && dup.discriminator, undefined);
    const mixed = root({ oneOf: [{ properties: { k: { const: "a" } }, required: ["k"] }, { type: "null" }] });
    assert.equal(mixed.kind === "union" && mixed.discriminator, undefined);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("allOf", () => {
  test("merges properties, required and constraints", () => {
    const s = root({
      allOf: [
        { type: "object", properties: { a: { type: "string", minLength: 1, maxLength: 10 }, b: { type: "number" } }, required: ["a"] },
        { properties: { a: { maxLength: 5 }, c: { type: "boolean" } }, required: ["c"], additionalProperties: false },
      ],
    });
    assert.deepEqual(s, {
      kind: "object",
      properties: [
        { name: "a", required: true, shape: { kind: "string", constraints: { minLength: 1, maxLength: 5 } } },
        { name: "b", required: false, shape: { kind: "number" } },
        { name: "c", required: true, shape: { kind: "boolean" } },
      ],
      additional: false,
    });
  });

  test("integer & number -> integer; enum & type filters; const & enum", () => {
    assert.deepEqual(root({ allOf: [{ type: "number", minimum: 0 }, { type: "integer", maximum: 5 }] }), {
      kind: "integer",
      constraints: { minimum: 0, maximum: 5 },
    });
    assert.deepEqual(root({ allOf: [{ enum: ["a", "b", 1] }, { type: "string" }] }), { kind: "enum", values: ["a", "b"] });
    assert.deepEqual(root({ allOf: [{ enum: ["a", "b"] }, { enum: ["b", "c"] }] }), { kind: "const", value: "b" });
  });

  test("with $ref: the referenced object is merged in", () => {
    const r = ir({
      definitions: { Base: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } },
      type: "object",
      allOf: [{ $ref: "#/definitions/Base" }, { properties: { name: { type: "string" } } }],
    });
    assert.deepEqual(strip(r.root), {
      kind: "object",
      properties: [
        { name: "id", required: true, shape: { kind: "integer" } },
        { name: "name", required: false, shape: { kind: "string" } },
      ],
      additional: { kind: "any" },
    });
    assert.deepEqual(r.definitions, []);
  });

  test("unions distribute; impossible branches drop", () => {
    assert.deepEqual(root({ allOf: [{ type: ["string", "integer", "null"] }, { type: ["integer", "string"] }] }), {
      kind: "union",
      branches: [{ kind: "string" }, { kind: "integer" }],
    });
  });

  test("conflicting types are a clear error at the allOf node", () => {
    throwsToon(() => ir({ properties: { x: { allOf: [{ type: "string" }, { type: "object" }] } } }), "SCHEMA_ERROR", "/properties/x", /incompatible types string and object/);
    throwsToon(() => ir({ allOf: [{ const: 1 }, { const: 2 }] }), "SCHEMA_ERROR", "");
    throwsToon(() => ir({ allOf: [{ type: "string" }, false] }), "UNSUPPORTED_SCHEMA", "/allOf/1");
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("boolean schemas", () => {
  test("true is any; false is unsupported except where it means closed or none", () => {
    assert.deepEqual(root({ type: "object", properties: { a: true } }), { kind: "object", properties: [{ name: "a", required: false, shape: { kind: "any" } }], additional: { kind: "any" } });
    throwsToon(() => ir(false), "UNSUPPORTED_SCHEMA", "");
    // a `false` tuple item ends the array before it
    assert.deepEqual(root({ type: "array", items: { type: "array", items: [false] } }), { kind: "array", items: { kind: "tuple", items: [], minItems: 0, rest: false } });
    throwsToon(() => ir({ type: "array", items: [{}, false], minItems: 2 }), "SCHEMA_ERROR", "/items/1", "minItems 2");
    assert.equal((root({ type: "object", additionalProperties: false }) as { additional: unknown }).additional, false);
  });

  test("non-schema values are SCHEMA_ERROR", () => {
    throwsToon(() => ir(null), "SCHEMA_ERROR", "");
    throwsToon(() => ir({ items: 3 }), "SCHEMA_ERROR", "/items");
    throwsToon(() => ir({ $ref: 3 }), "SCHEMA_ERROR", "");
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("$ref within a document", () => {
  test("#/definitions/X and #/$defs/X become named definitions; same target, same name", () => {
    const r = ir({
      definitions: { address: { type: "object", properties: { city: { type: "string" } } } },
      $defs: { "line-item": { type: "object", properties: { sku: { type: "string" } } } },
      type: "object",
      properties: {
        home: { $ref: "#/definitions/address" },
        work: { $ref: "#/definitions/address" },
        items: { type: "array", items: { $ref: "#/$defs/line-item" } },
      },
    });
    assert.deepEqual(
      r.definitions.map((d) => [d.name, d.origin]),
      [
        ["Address", "#/definitions/address"],
        ["LineItem", "#/$defs/line-item"],
      ],
    );
    const o = strip(r.root);
    assert.ok(o.kind === "object");
    assert.deepEqual(o.properties.map((p) => p.shape), [
      { kind: "ref", name: "Address" },
      { kind: "ref", name: "Address" },
      { kind: "array", items: { kind: "ref", name: "LineItem" } },
    ]);
    assert.equal(r.root.kind === "object" && r.root.properties[0]!.shape.schemaPath, "/properties/home");
    assert.equal(r.definitions[0]!.shape.schemaPath, "/definitions/address");
  });

  test("recursion via #: the root becomes a definition named after the codec", () => {
    const r = ir({ type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#" } } }, required: ["value"] }, { name: "tree node" });
    assert.equal(r.name, "TreeNode");
    assert.deepEqual(strip(r.root), { kind: "ref", name: "TreeNode" });
    assert.equal(r.definitions.length, 1);
    assert.equal(r.definitions[0]!.name, "TreeNode");
    assert.equal(r.definitions[0]!.origin, "#");
    const def = strip(r.definitions[0]!.shape);
    assert.ok(def.kind === "object");
    assert.deepEqual(def.properties[1]!.shape, { kind: "array", items: { kind: "ref", name: "TreeNode" } });
  });

  test("recursion via $defs, mutual recursion", () => {
    const r = ir({
      $defs: {
        node: { type: "object", properties: { next: { anyOf: [{ $ref: "#/$defs/node" }, { type: "null" }] }, other: { $ref: "#/$defs/other" } } },
        other: { type: "object", properties: { back: { $ref: "#/$defs/node" } } },
      },
      $ref: "#/$defs/node",
    });
    assert.deepEqual(strip(r.root), { kind: "ref", name: "Node" });
    assert.deepEqual(r.definitions.map((d) => d.name), ["Node", "Other"]);
    const node = strip(r.definitions[0]!.shape);
    assert.ok(node.kind === "object");
    assert.deepEqual(node.properties[0]!.shape, { kind: "union", branches: [{ kind: "ref", name: "Node" }, { kind: "null" }] });
  });

  test("refs to plain scalars/enums are inlined; aliases resolve; no definition for them", () => {
    const r = ir({
      definitions: {
        id: { type: "string", format: "uuid", description: "an id" },
        color: { enum: ["red", "green"] },
        alias: { $ref: "#/definitions/color" },
        point: { type: "object", properties: { x: { type: "number" } } },
        pointAlias: { $ref: "#/definitions/point" },
      },
      type: "object",
      properties: {
        id: { $ref: "#/definitions/id" },
        c: { $ref: "#/definitions/alias" },
        p: { $ref: "#/definitions/pointAlias" },
      },
    });
    assert.deepEqual(r.definitions.map((d) => d.name), ["Point"]);
    const o = r.root;
    assert.ok(o.kind === "object");
    assert.deepEqual(strip(o.properties[0]!.shape), { kind: "string", format: "uuid", description: "an id" });
    assert.equal(o.properties[0]!.shape.schemaPath, "/definitions/id");
    assert.deepEqual(strip(o.properties[1]!.shape), { kind: "enum", values: ["red", "green"] });
    assert.deepEqual(strip(o.properties[2]!.shape), { kind: "ref", name: "Point" });
  });

  test("definition names never collide with the codec name or each other", () => {
    const r = ir(
      {
        definitions: { order: { type: "object", properties: { a: { $ref: "#/definitions/Order" } } }, Order: { type: "object" }, "order!": { type: "array", items: { $ref: "#/definitions/order" } } },
        type: "object",
        properties: { x: { $ref: "#/definitions/order" }, y: { $ref: "#/definitions/order!" } },
      },
      { name: "Order" },
    );
    assert.equal(r.name, "Order");
    assert.deepEqual(r.definitions.map((d) => d.name), ["Order2", "Order3", "Order4"]);
  });

  test("JSON pointers with ~0, ~1 and percent-encoding; pointers into properties; $anchor", () => {
    const r = ir({
      $defs: { "a/b": { type: "object", properties: { q: { type: "string" } } }, "c~d": { type: "array" }, "e f": { type: "object" }, anchored: { $anchor: "here", type: "object" } },
      type: "object",
      properties: {
        one: { $ref: "#/$defs/a~1b" },
        two: { $ref: "#/$defs/c~0d" },
        three: { $ref: "#/$defs/e%20f" },
        four: { $ref: "#/properties/one" },
        five: { $ref: "#here" },
      },
    });
    // `#/properties/one` is itself a `$ref` (an alias of `a/b`), so `four` is a ref to AB and One is no definition
    assert.deepEqual(
      r.definitions.map((d) => [d.name, d.origin]),
      [
        ["AB", "#/$defs/a~1b"],
        ["CD", "#/$defs/c~0d"],
        ["EF", "#/$defs/e f"],
        ["Anchored", "#/$defs/anchored"],
      ],
    );
    assert.ok(r.root.kind === "object");
    assert.deepEqual(strip(r.root.properties.map((p) => p.shape)), [
      { kind: "ref", name: "AB" },
      { kind: "ref", name: "CD" },
      { kind: "ref", name: "EF" },
      { kind: "ref", name: "AB" },
      { kind: "ref", name: "Anchored" },
    ]);
    throwsToon(() => ir({ properties: { a: { $ref: "#/$defs/missing" } } }), "SCHEMA_ERROR", "/properties/a", "#/$defs/missing");
    throwsToon(() => ir({ properties: { a: { $ref: "#nope" } } }), "SCHEMA_ERROR", "/properties/a", "no anchor");
  });

  test("circular aliases are an error", () => {
    throwsToon(() => ir({ $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" }), "SCHEMA_ERROR", undefined, "circular");
  });

  test("$ref siblings: merged in 2019-09+, ignored with a warning in draft-07", () => {
    const defs = { base: { type: "object", properties: { a: { type: "string" } } } };
    const modern = ir({ $defs: defs, $ref: "#/$defs/base", required: ["a"], additionalProperties: false });
    assert.deepEqual(strip(modern.root), { kind: "object", properties: [{ name: "a", required: true, shape: { kind: "string" } }], additional: false });
    const old = ir({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", definitions: defs, properties: { x: { $ref: "#/definitions/base", required: ["a"], description: "kept" } } });
    assert.ok(old.root.kind === "object");
    assert.deepEqual(strip(old.root.properties[0]!.shape), { kind: "ref", name: "Base", description: "kept" });
    assert.ok(old.warnings.some((w) => w.includes("/properties/x") && w.includes("$ref")));
  });

  test("a ref with only annotations stays a ref (recursion through it works)", () => {
    const r = ir({ $defs: { n: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/n", description: "child" } } } } }, $ref: "#/$defs/n" });
    assert.deepEqual(r.definitions.map((d) => d.name), ["N"]);
  });

  test("allOf through recursion keeps the ref with a warning", () => {
    const r = ir({ $defs: { n: { type: "object", properties: { next: { allOf: [{ $ref: "#/$defs/n" }, { required: ["x"] }] } } } }, $ref: "#/$defs/n" });
    assert.ok(r.warnings.some((w) => w.includes("refers back to itself")));
    const n = strip(r.definitions[0]!.shape);
    assert.ok(n.kind === "object");
    assert.deepEqual(n.properties[0]!.shape, { kind: "ref", name: "N" });
  });

  test("network refs are refused, naming the ref and the path; the document's own $id resolves locally", () => {
    throwsToon(
      () => ir({ type: "object", properties: { a: { $ref: "https://example.com/other.json#/x" } } }),
      "UNSUPPORTED_SCHEMA",
      "/properties/a",
      "https://example.com/other.json#/x",
    );
    const r = ir({ $id: "https://example.com/schemas/main.json", $defs: { a: { type: "object" } }, properties: { a: { $ref: "https://example.com/schemas/main.json#/$defs/a" } } });
    assert.deepEqual(r.definitions.map((d) => d.name), ["A"]);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("files", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "toon-load-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (rel: string, doc: unknown): string => {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, typeof doc === "string" ? doc : JSON.stringify(doc));
    return abs;
  };

  test("relative file refs, file#pointer, cross-file cycles, schemaPath/origin prefixed by the file", async () => {
    write("shapes/order-list.schema.json", {
      type: "object",
      properties: {
        customer: { $ref: "common/customer.json" },
        lines: { type: "array", items: { $ref: "common/defs.json#/definitions/line" } },
      },
    });
    write("shapes/common/customer.json", { type: "object", properties: { name: { type: "string" }, orders: { type: "array", items: { $ref: "../order-list.schema.json" } } } });
    write("shapes/common/defs.json", { definitions: { line: { type: "object", properties: { sku: { type: "string" }, qty: { $ref: "#/definitions/qty" } } }, qty: { type: "integer", minimum: 1 } } });
    const r = await loadSchemaFile("shapes/order-list.schema.json", { cwd: dir });
    assert.equal(r.name, "OrderList");
    assert.equal(r.source, "shapes/order-list.schema.json");
    assert.deepEqual(strip(r.root), { kind: "ref", name: "OrderList" });
    // first-reference order, walking from the root: the root itself is first referenced from Customer
    assert.deepEqual(
      r.definitions.map((d) => [d.name, d.origin]),
      [
        ["Customer", "common/customer.json#"],
        ["Line", "common/defs.json#/definitions/line"],
        ["OrderList", "#"],
      ],
    );
    const line = r.definitions[1]!.shape;
    assert.equal(line.schemaPath, "common/defs.json#/definitions/line");
    assert.ok(line.kind === "object");
    assert.equal(line.properties[1]!.shape.kind, "integer");
    assert.equal(line.properties[1]!.shape.schemaPath, "common/defs.json#/definitions/qty");
    for (const d of r.definitions) for (const s of shapes(d.shape)) assert.equal(typeof s.schemaPath, "string");
  });

  test("a missing referenced file is IO_ERROR at the $ref; a missing main file too; bad JSON is SCHEMA_ERROR", async () => {
    write("broken/main.json", { properties: { a: { $ref: "nope.json" } } });
    const e = await rejectsToon(loadSchemaFile(path.join(dir, "broken/main.json")), "IO_ERROR");
    assert.equal(e.path, "/properties/a");
    assert.match(e.message, /nope\.json/);
    await rejectsToon(loadSchemaFile("does-not-exist.json", { cwd: dir }), "IO_ERROR");
    write("bad.json", "{ not json");
    await rejectsToon(loadSchemaFile("bad.json", { cwd: dir }), "SCHEMA_ERROR");
  });

  test("a URL under the document's $id base maps to the local file", async () => {
    write("ids/main.json", { $id: "https://example.com/s/main.json", properties: { o: { $ref: "https://example.com/s/other.json" } } });
    write("ids/other.json", { $id: "https://example.com/s/other.json", type: "object", properties: { v: { type: "string" } } });
    const r = await loadSchemaFile("ids/main.json", { cwd: dir });
    assert.deepEqual(r.definitions.map((d) => [d.name, d.origin]), [["Other", "other.json#"]]);
  });

  test("relative refs to a registry laid out by $id (octokit/webhooks style)", async () => {
    write("reg/common/user.schema.json", { $id: "common/user.schema.json", type: "object", properties: { login: { type: "string" } } });
    write("reg/events/created.schema.json", { $id: "events$created", type: "object", properties: { sender: { $ref: "common/user.schema.json" } } });
    const r = await loadSchemaFile("reg/events/created.schema.json", { cwd: dir });
    assert.deepEqual(r.definitions.map((d) => [d.name, d.origin]), [["User", "../common/user.schema.json#"]]);
  });

  test("codec name: option, short title, file name", async () => {
    write("names/my-thing.schema.json", { title: "Pull Request", type: "object" });
    write("names/long.json", { title: "JSON schema for the configuration of a tool", type: "object" });
    assert.equal((await loadSchemaFile("names/my-thing.schema.json", { cwd: dir })).name, "PullRequest");
    assert.equal((await loadSchemaFile("names/my-thing.schema.json", { cwd: dir, name: "get_weather" })).name, "GetWeather");
    assert.equal((await loadSchemaFile("names/long.json", { cwd: dir })).name, "Long");
  });

  test("in-memory schemas read referenced files through readFile", () => {
    const files = new Map<string, unknown>([[path.resolve("/virtual/b.json"), { type: "object", properties: { back: { $ref: "a.json" } } }]]);
    const r = schemaToIR(
      { type: "object", properties: { b: { $ref: "b.json" } } },
      {
        source: "a.json",
        baseDir: "/virtual",
        readFile: (abs) => {
          if (!files.has(abs)) throw new Error("ENOENT " + abs);
          return files.get(abs);
        },
      },
    );
    assert.deepEqual(r.definitions.map((d) => d.name), ["B", "A"]);
    assert.deepEqual(strip(r.root), { kind: "ref", name: "A" });
  });

  test("pointer option compiles one definition of a definitions-only document", () => {
    const doc = { $defs: { Point: { type: "object", properties: { x: { type: "number" } }, description: "a point" }, Line: { type: "array", items: { $ref: "#/$defs/Point" } } } };
    const r = schemaToIR(doc, { source: "defs.json", pointer: "#/$defs/Line" });
    assert.equal(r.name, "Line");
    assert.deepEqual(strip(r.root), { kind: "array", items: { kind: "ref", name: "Point" } });
    assert.equal(r.root.schemaPath, "/$defs/Line");
    throwsToon(() => schemaToIR(doc, { source: "defs.json", pointer: "/$defs/Nope" }), "SCHEMA_ERROR");
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("hostile input", () => {
  const names = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", 'q"uote', "new\nline", "*/", "${x}", "", "a/b~c", "\u2028", "$ref", "type"];

  test("property names are kept exactly, whatever they are", () => {
    const properties: Record<string, unknown> = {};
    for (const n of names) Object.defineProperty(properties, n, { value: { type: "string" }, enumerable: true, configurable: true, writable: true });
    const doc = JSON.parse(JSON.stringify({ type: "object", required: ["__proto__", "constructor"] }));
    doc.properties = properties;
    const r = ir(doc);
    assert.ok(r.root.kind === "object");
    assert.deepEqual(r.root.properties.map((p) => p.name), names);
    assert.deepEqual(r.root.properties.filter((p) => p.required).map((p) => p.name), ["__proto__", "constructor"]);
    assert.equal(r.root.properties[0]!.shape.schemaPath, "/properties/__proto__");
    assert.equal(r.root.properties[10]!.shape.schemaPath, "/properties/a~1b~0c");
  });

  test("JSON text with __proto__ keys, in properties, required, enum values and definition names", () => {
    const text = '{"type":"object","required":["__proto__"],"properties":{"__proto__":{"$ref":"#/definitions/__proto__"},"constructor":{"const":{"__proto__":1}}},"definitions":{"__proto__":{"type":"object","properties":{"constructor":{"type":"number"}}}}}';
    const r = ir(JSON.parse(text));
    assert.ok(r.root.kind === "object");
    assert.deepEqual(r.root.properties.map((p) => [p.name, p.required]), [
      ["__proto__", true],
      ["constructor", false],
    ]);
    assert.deepEqual(r.definitions.map((d) => d.name), ["Proto"]);
    const c = r.root.properties[1]!.shape;
    assert.ok(c.kind === "const");
    assert.deepEqual(Object.keys(c.value as object), ["__proto__"]);
    assert.equal(Object.getPrototypeOf(c.value), Object.prototype);
  });

  test("inherited names never resolve: `constructor` is not a property, `#/constructor` is not a node", () => {
    const r = ir({ type: "object", required: ["constructor"] });
    assert.ok(r.root.kind === "object");
    assert.deepEqual(strip(r.root.properties), [{ name: "constructor", required: true, shape: { kind: "any" } }]);
    throwsToon(() => ir({ properties: { a: { $ref: "#/constructor" } } }), "SCHEMA_ERROR", "/properties/a");
    throwsToon(() => ir({ properties: { a: { $ref: "#/properties/toString" } } }), "SCHEMA_ERROR", "/properties/a");
  });

  test("deep nesting is a SCHEMA_ERROR, not a RangeError; moderate depth works", () => {
    const nest = (n: number): unknown => {
      let s: unknown = { type: "string" };
      for (let i = 0; i < n; i++) s = { type: "array", items: s };
      return s;
    };
    assert.equal(ir(nest(400)).root.kind, "array");
    throwsToon(() => ir(nest(5000)), "SCHEMA_ERROR", undefined, "deeper than");
    let deepValue: unknown = 1;
    for (let i = 0; i < 5000; i++) deepValue = [deepValue];
    throwsToon(() => ir({ const: deepValue }), "SCHEMA_ERROR", "/const");
  });

  test("long chains of refs and aliases do not grow the stack", () => {
    const defs: Record<string, unknown> = {};
    const n = 3000;
    for (let i = 0; i < n; i++) defs["d" + i] = { type: "object", properties: { next: { $ref: `#/$defs/d${i + 1}` } } };
    defs["d" + n] = { type: "string" };
    const r = ir({ $defs: defs, $ref: "#/$defs/d0" });
    assert.equal(r.definitions.length, n);
    const aliases: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) aliases["a" + i] = { $ref: `#/$defs/a${i + 1}` };
    aliases["a" + n] = { type: "object" };
    const a = ir({ $defs: aliases, $ref: "#/$defs/a0" });
    assert.equal(a.definitions.length, 1);
  });

  test("a cyclic in-memory object is a SCHEMA_ERROR", () => {
    const s: Record<string, unknown> = { type: "array" };
    s.items = s;
    throwsToon(() => ir(s), "SCHEMA_ERROR");
  });
});

describe("IR invariants", () => {
  test("every ref names a definition; every shape has a schemaPath", () => {
    const r = ir({
      $defs: { a: { type: "object", properties: { b: { $ref: "#/$defs/b" } } }, b: { oneOf: [{ $ref: "#/$defs/a" }, { type: "null" }] } },
      type: "object",
      properties: { a: { $ref: "#/$defs/a" }, t: { prefixItems: [{ $ref: "#/$defs/b" }] } },
    });
    const defined = new Set(r.definitions.map((d) => d.name));
    for (const top of [r.root, ...r.definitions.map((d) => d.shape)]) {
      for (const s of shapes(top)) {
        assert.equal(typeof s.schemaPath, "string");
        if (s.kind === "ref") assert.ok(defined.has(s.name), s.name);
      }
    }
    // JSON-serialisable
    assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
  });
});

describe("types implied by keywords (no `type`)", () => {
  test("standing alone they give the type; merged, they leave other types alone", () => {
    assert.equal(kindsOf(root({ properties: { a: {} } }))[0], "object");
    // tslint style: a rule is boolean | object | array; the untyped member constrains only objects and arrays
    assert.deepEqual(root({ allOf: [{ type: ["boolean", "object", "array"] }, { items: [{ type: "boolean" }], properties: { severity: {} }, additionalProperties: false }] }), {
      kind: "union",
      branches: [
        { kind: "boolean" },
        { kind: "object", properties: [{ name: "severity", required: false, shape: { kind: "any" } }], additional: false },
        { kind: "tuple", items: [{ kind: "boolean" }], minItems: 0, rest: { kind: "any" } },
      ],
    });
    // the other order, and through a $ref
    assert.deepEqual(root({ $defs: { o: { properties: { x: { type: "string" } } } }, allOf: [{ $ref: "#/$defs/o" }, { type: ["boolean", "object"] }] }), {
      kind: "union",
      branches: [{ kind: "boolean" }, { kind: "object", properties: [{ name: "x", required: false, shape: { kind: "string" } }], additional: { kind: "any" } }],
    });
    // untyped siblings of oneOf do not exclude the typed branches of other kinds
    assert.deepEqual(root({ properties: { a: { type: "string" } }, oneOf: [{ type: "string" }, { type: "object", required: ["a"] }] }), {
      kind: "union",
      branches: [{ kind: "string" }, { kind: "object", properties: [{ name: "a", required: true, shape: { kind: "string" } }], additional: { kind: "any" } }],
    });
    // and untyped branches do not exclude the typed base's other kinds
    assert.deepEqual(root({ type: ["string", "object"], anyOf: [{ required: ["a"] }, { required: ["b"] }] }), {
      kind: "union",
      branches: [
        { kind: "string" },
        { kind: "object", properties: [{ name: "a", required: true, shape: { kind: "any" } }], additional: { kind: "any" } },
        { kind: "object", properties: [{ name: "b", required: true, shape: { kind: "any" } }], additional: { kind: "any" } },
      ],
    });
  });
});
