/**
 * The shape IR: the small, plain tree every input (JSON Schema, Zod, tool definitions) is normalised to,
 * and the only thing the dictionary and the emitters see. It describes the *wire shape* of a value; value
 * constraints that do not change the shape are carried in `constraints` for validation only.
 *
 * Everything here is plain data (JSON-serialisable but for `undefined` fields) so stages can be tested alone.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Value constraints kept for `validate()`; they never change the encoding. */
export interface Constraints {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  /**
   * Keywords present in the source that neither the shape nor `validate()` enforce
   * (`if`/`then`/`else`, `not`, `dependentRequired`, ...): listed so the generator can warn once.
   */
  unchecked?: string[];
}

interface ShapeBase {
  /** JSON pointer of the schema node this shape came from, in its source document (for error messages). */
  schemaPath: string;
  description?: string;
  /** The schema's `default`, when it is valid for the shape. */
  default?: JsonValue;
  /**
   * The dictionary's default-value table for this position (strings, integers, numbers; set by the dictionary
   * stage, generator/samples/tables.ts, never by loaders): entry k travels as a one-byte reference.
   */
  table?: (string | number)[];
  constraints?: Constraints;
}

export interface StringShape extends ShapeBase {
  kind: "string";
  format?: string;
  /**
   * A decimal integer carried in a string (`format: "int64" | "uint64"` on a string, or `x-toon: "int64"`):
   * travels as a varint when canonical, exactly, never through a double.
   */
  int64?: boolean;
}

export interface IntegerShape extends ShapeBase {
  kind: "integer";
  format?: string;
  /**
   * `format: "int64" | "uint64"` (or `x-toon: "int64"`): values beyond 2^53 are accepted as `bigint`
   * and decoded as `bigint`; safe values stay `number`.
   */
  int64?: boolean;
}

export interface NumberShape extends ShapeBase {
  kind: "number";
  format?: string;
}

export interface BooleanShape extends ShapeBase {
  kind: "boolean";
}

export interface NullShape extends ShapeBase {
  kind: "null";
}

/** Any JSON value (`{}`, `true`, or a construct with no narrower shape). Self-describing on the wire. */
export interface AnyShape extends ShapeBase {
  kind: "any";
}

export interface EnumShape extends ShapeBase {
  kind: "enum";
  /** Distinct JSON values in schema order; the wire carries the index. */
  values: JsonValue[];
}

export interface ConstShape extends ShapeBase {
  kind: "const";
  value: JsonValue;
}

export interface PropertyShape {
  /** The exact property name from the schema (untrusted: any string, `__proto__` included). */
  name: string;
  required: boolean;
  shape: Shape;
}

export interface ObjectShape extends ShapeBase {
  kind: "object";
  /** Declared properties in schema order (after `allOf` merging). */
  properties: PropertyShape[];
  /**
   * Properties beyond the declared ones: `false` when the schema closes the object
   * (`additionalProperties: false`, or `unevaluatedProperties: false`), otherwise the shape of their values
   * (`{ kind: "any" }` when unconstrained). An object with no properties and a shape here is a map.
   */
  additional: Shape | false;
  /**
   * How the object travels when its dictionary has evolved (set by the dictionary stage, never by loaders):
   * the frozen slot order of the segment the object was introduced in, and the properties added since, which
   * travel as extension records. Absent: every property in schema order (a fresh dictionary).
   */
  wire?: WireLayout;
}

export interface WireLayout {
  /** Dictionary path of the object (extension records name their object by JSON pointer, their property by ID). */
  path: string;
  /** Positional slots in frozen order: a current property (index into `properties`) or a retired one. */
  slots: ({ prop: number } | { retired: string; required: false; shape: Shape })[];
  /** Properties added after the object's segment: ID and level of each. */
  ext: { prop: number; id: number; level: number }[];
}

export interface ArrayShape extends ShapeBase {
  kind: "array";
  items: Shape;
}

export interface TupleShape extends ShapeBase {
  kind: "tuple";
  /** Positional items (`prefixItems`, or array-form `items`). */
  items: Shape[];
  /** How many positional items must be present (from `minItems`; the rest are optional, in order). */
  minItems: number;
  /** Items after the positional ones: `false` when forbidden. */
  rest: Shape | false;
}

export interface UnionShape extends ShapeBase {
  kind: "union";
  /** Branches in schema order (`oneOf`/`anyOf`/type arrays); the wire carries the branch index. */
  branches: Shape[];
  /**
   * Set when every branch is an object with a required `const` (or single-value enum) property of this name
   * and the values are distinct: the encoder picks the branch by that property alone.
   */
  discriminator?: { property: string; values: (string | number | boolean | null)[] };
}

/** A reference to a named definition (`$ref`); the only way recursion is expressed. */
export interface RefShape extends ShapeBase {
  kind: "ref";
  name: string;
}

export type Shape =
  | StringShape
  | IntegerShape
  | NumberShape
  | BooleanShape
  | NullShape
  | AnyShape
  | EnumShape
  | ConstShape
  | ObjectShape
  | ArrayShape
  | TupleShape
  | UnionShape
  | RefShape;

export type ShapeKind = Shape["kind"];

export interface Definition {
  /** A valid, unique TypeScript identifier in PascalCase (already sanitised), e.g. `Address`, `TreeNode`. */
  name: string;
  /** Where it came from, e.g. `#/$defs/Address` or `other.schema.json#/definitions/X`. */
  origin: string;
  shape: Shape;
}

/** One schema, normalised: what the dictionary and emitters consume. */
export interface SchemaIR {
  /** Codec name: a valid PascalCase identifier (from `title`, else the file name). */
  name: string;
  /** Source file, relative to the working directory, with `/` separators (for headers and errors). */
  source: string;
  /** The value's own shape. A `ref` when the root is itself referenced (`$ref: "#"`). */
  root: Shape;
  /** Named definitions in first-reference order; every `RefShape.name` is one of these. */
  definitions: Definition[];
  description?: string;
  /** Non-fatal findings (documented fallbacks taken), each naming the schema path and keyword. */
  warnings: string[];
}
