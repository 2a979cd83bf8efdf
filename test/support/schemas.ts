/**
 * Inline schemas shared by the property and type-check suites: tuples (2020-12 and draft-07 forms), maps, open
 * objects, unions (discriminated, by JSON type, structural), recursion (trees, JSON values, `$ref: "#"`), int64,
 * formats and constraints, and one very wide object (more properties than one generated function may hold, so
 * its code is split into helper functions).
 */

const D2020 = "https://json-schema.org/draft/2020-12/schema";

export const INLINE_SCHEMAS: Record<string, unknown> = {
  tuples: {
    $schema: D2020,
    title: "Tuples",
    type: "object",
    properties: {
      point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false, minItems: 2 },
      span: { type: "array", prefixItems: [{ type: "integer" }, { type: "string", format: "date" }, { type: "boolean" }], items: false, minItems: 1 },
      head: { type: "array", prefixItems: [{ type: "string" }, { enum: ["a", "b", null] }], items: { type: "integer" } },
      empty: { type: "array", prefixItems: [{ type: "null" }, { const: "k" }], items: false },
      pairs: { type: "array", items: { type: "array", prefixItems: [{ type: "string" }, { type: ["number", "null"] }], items: false, minItems: 2 } },
    },
    required: ["point"],
    additionalProperties: false,
  },
  legacyTuples: {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "LegacyTuples",
    type: "array",
    items: [{ type: "string" }, { type: "integer" }, { type: "object", properties: { k: { type: "string" } }, additionalProperties: false }],
    additionalItems: { type: "boolean" },
    minItems: 1,
  },
  maps: {
    $schema: D2020,
    title: "Maps",
    type: "object",
    properties: {
      counts: { type: "object", additionalProperties: { type: "integer", minimum: 0 } },
      labels: { type: "object", additionalProperties: { type: "string" } },
      nested: { type: "object", additionalProperties: { type: "array", items: { type: "object", additionalProperties: { type: "boolean" } } } },
      open: { type: "object", properties: { name: { type: "string" }, size: { type: "number" } }, required: ["name"] },
      openTyped: { type: "object", properties: { id: { type: "integer" } }, additionalProperties: { type: "string", format: "date-time" } },
      anything: {},
    },
    additionalProperties: { type: ["string", "number"] },
  },
  unions: {
    $schema: D2020,
    title: "Unions",
    type: "object",
    properties: {
      shape: {
        oneOf: [
          { type: "object", properties: { kind: { const: "circle" }, r: { type: "number" } }, required: ["kind", "r"], additionalProperties: false },
          { type: "object", properties: { kind: { const: "rect" }, w: { type: "number" }, h: { type: "number" } }, required: ["kind", "w", "h"], additionalProperties: false },
          { type: "object", properties: { kind: { const: "label" }, text: { type: "string" }, at: { $ref: "#/$defs/Pos" } }, required: ["kind", "text"], additionalProperties: false },
        ],
      },
      mixed: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }, { type: "array", items: { type: "string" } }, { type: "object", properties: { x: { type: "number" } }, required: ["x"], additionalProperties: false }] },
      nullable: { type: ["string", "null"] },
      numberOrBool: { type: ["number", "boolean"] },
      twoObjects: {
        anyOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
          { type: "object", properties: { b: { type: "integer" } }, required: ["b"], additionalProperties: false },
        ],
      },
      mixedEnum: { enum: [1, "1", true, null, { a: 1 }, [1, 2], "two words"] },
      constObject: { const: { v: 1, tags: ["x", "y"] } },
      pos: { $ref: "#/$defs/Pos" },
    },
    required: ["shape"],
    additionalProperties: false,
    $defs: {
      Pos: { type: "object", properties: { x: { type: "integer" }, y: { type: "integer" } }, required: ["x", "y"], additionalProperties: false },
    },
  },
  recursion: {
    $schema: D2020,
    title: "Recursion",
    type: "object",
    properties: {
      tree: { $ref: "#/$defs/Node" },
      json: { $ref: "#/$defs/Json" },
      list: { $ref: "#/$defs/List" },
    },
    required: ["tree"],
    additionalProperties: false,
    $defs: {
      Node: {
        type: "object",
        properties: {
          value: { type: "string" },
          weight: { type: "number" },
          children: { type: "array", items: { $ref: "#/$defs/Node" } },
        },
        required: ["value"],
        additionalProperties: false,
      },
      Json: {
        anyOf: [
          { type: "null" },
          { type: "boolean" },
          { type: "number" },
          { type: "string" },
          { type: "array", items: { $ref: "#/$defs/Json" } },
          { type: "object", additionalProperties: { $ref: "#/$defs/Json" } },
        ],
      },
      List: {
        type: "object",
        properties: { head: { type: "integer" }, tail: { anyOf: [{ type: "null" }, { $ref: "#/$defs/List" }] } },
        required: ["head", "tail"],
        additionalProperties: false,
      },
    },
  },
  selfRef: {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "Chain",
    type: "object",
    properties: { name: { type: "string" }, next: { $ref: "#" } },
    required: ["name"],
    additionalProperties: false,
  },
  int64: {
    $schema: D2020,
    title: "Int64s",
    type: "object",
    properties: {
      id: { type: "integer", format: "int64" },
      bytes: { type: "integer", format: "uint64", minimum: 0 },
      vendor: { type: "integer", "x-toon": "int64" },
      asString: { type: "string", format: "int64" },
      ids: { type: "array", items: { type: "integer", format: "int64" } },
      plain: { type: "integer" },
      ratio: { type: "number" },
    },
    required: ["id"],
    additionalProperties: false,
  },
  uuids: {
    $schema: D2020,
    title: "Uuids",
    type: "object",
    properties: {
      id: { type: "string", format: "uuid" },
      parent: { anyOf: [{ type: "string", format: "uuid" }, { type: "null" }] },
      refs: { type: "array", items: { type: "string", format: "uuid" } },
      either: { anyOf: [{ type: "string", format: "uuid" }, { type: "string" }] },
      byOwner: { type: "object", additionalProperties: { type: "string", format: "uuid" } },
    },
    required: ["id"],
    additionalProperties: false,
  },
  scalars: {
    $schema: D2020,
    title: "Scalars",
    type: "object",
    properties: {
      at: { type: "string", format: "date-time" },
      day: { type: "string", format: "date" },
      pct: { type: "number", minimum: 0, maximum: 100 },
      neg: { type: "number", exclusiveMaximum: 0 },
      small: { type: "integer", minimum: -3, maximum: 3 },
      short: { type: "string", maxLength: 3 },
      word: { type: "string", minLength: 2 },
      flag: { type: "boolean" },
      nothing: { type: "null" },
      tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3, uniqueItems: true },
      any: true,
    },
    required: ["at", "day", "pct"],
    additionalProperties: false,
  },
  rootArray: {
    $schema: D2020,
    title: "RootArray",
    type: "array",
    items: { type: "object", properties: { k: { type: "string" }, v: {} }, required: ["k"] },
  },
  // defined below: function declarations are hoisted
  wide: wideSchema(250),
};

/**
 * An object with `n` properties of mixed shapes (optional and required scalars, enums, unions, nested objects
 * and arrays), plus a union of two such objects: far more code than one generated function may hold.
 */
export function wideSchema(n: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (let i = 0; i < n; i++) {
    const key = `p${i}-${["x", "y.z", "w"][i % 3]}`;
    switch (i % 7) {
      case 0:
        properties[key] = { type: "string" };
        required.push(key);
        break;
      case 1:
        properties[key] = { enum: ["off", "warn", "error", 0, 1, 2] };
        break;
      case 2:
        properties[key] = { oneOf: [{ type: "integer" }, { type: "array", items: { type: "string" } }, { type: "null" }] };
        break;
      case 3:
        properties[key] = { type: "object", properties: { a: { type: "number" }, b: { type: "boolean" } }, required: ["a"], additionalProperties: false };
        break;
      case 4:
        properties[key] = { type: "array", items: { type: "object", properties: { k: { type: "string" } }, additionalProperties: { type: "integer" } } };
        break;
      case 5:
        properties[key] = { type: "string", format: "date-time" };
        break;
      default:
        properties[key] = { $ref: "#/$defs/Small" };
    }
  }
  const wide = { type: "object", properties, required, additionalProperties: false };
  return {
    $schema: D2020,
    title: "Wide",
    type: "object",
    properties: {
      main: wide,
      either: { oneOf: [{ ...wide, properties: { ...properties, kind: { const: "a" } }, required: [...required, "kind"] }, { type: "object", properties: { kind: { const: "b" }, more: wide }, required: ["kind"], additionalProperties: false }] },
    },
    required: ["main"],
    additionalProperties: false,
    $defs: { Small: { type: "object", properties: { s: { type: "string" }, t: { type: "integer" } }, additionalProperties: false } },
  };
}

/** `n` optional scalar properties (strings, integers, enums, booleans): little code per property, much in all. */
export function flatWideSchema(n: number): Record<string, unknown> {
  const kinds = [{ type: "string" }, { type: "integer" }, { enum: ["off", "warn", "error"] }, { type: "boolean" }, { type: ["number", "null"] }];
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) properties[`rule-${i}`] = kinds[i % kinds.length];
  return { $schema: D2020, title: "FlatWide", type: "object", properties, additionalProperties: false };
}
