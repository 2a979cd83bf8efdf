/**
 * The codec descriptor: everything the codec engine (./engine) needs to encode, decode and validate the
 * messages of one schema and dictionary, as plain JSON a generated module can embed and a browser can run.
 *
 * The shape types are the wire shape of a value. They are shared with the generator, whose IR
 * (generator/ir/types.ts) is the same tree with source facts added through the `M` parameter (schema paths,
 * descriptions); a descriptor carries none of them (`M = {}`), nor warnings or source file names.
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
   * (`if`/`then`/`else`, `not`, `dependentRequired`, ...): listed so the generator can warn once (never in a
   * descriptor).
   */
  unchecked?: string[];
}

/** Facts every shape may carry. */
export interface ShapeBase {
  /** The schema's `default`, when it is valid for the shape (descriptors keep it where a decoder uses it). */
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
  /** `date-time`, `date` and `uuid` change the encoding (the wire formats, ./formats.ts); descriptors keep only those. */
  format?: string;
  /**
   * A decimal integer carried in a string (`format: "int64" | "uint64"` on a string, or `x-toon: "int64"`):
   * travels as a varint when canonical, exactly, never through a double.
   */
  int64?: boolean;
  /**
   * `false`: the dictionary says values at this path rarely repeat within a message (its entry's `"intern": false`,
   * set by the dictionary stage, generator/dictionary/intern.ts, never by loaders), so they travel as literals that
   * never enter the message's string table (docs/FORMAT.md §3.1). Absent: interned. Plain strings only (no format).
   */
  intern?: false;
}

export interface IntegerShape extends ShapeBase {
  kind: "integer";
  format?: string;
  /**
   * `format: "int64" | "uint64"` (or `x-toon: "int64"`): values beyond 2^53 are accepted as `bigint`
   * and decoded as `bigint`; safe values stay `number`.
   */
  int64?: boolean;
  /**
   * With `int64`: every value decodes as a `bigint`, safe ones too (the config's `"int64": "bigint"`, set by the
   * generator after the dictionary stage, never by loaders). How values decode, not how they travel: the wire,
   * the dictionary and the fingerprint are the same either way.
   */
  bigint?: boolean;
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

export interface PropertyShape<M extends object = {}> {
  /** The exact property name from the schema (untrusted: any string, `__proto__` included). */
  name: string;
  required: boolean;
  shape: Shape<M>;
}

export interface ObjectShape<M extends object = {}> extends ShapeBase {
  kind: "object";
  /** Declared properties in schema order (after `allOf` merging). */
  properties: PropertyShape<M>[];
  /**
   * Properties beyond the declared ones: `false` when the schema closes the object
   * (`additionalProperties: false`, or `unevaluatedProperties: false`), otherwise the shape of their values
   * (`{ kind: "any" }` when unconstrained). An object with no properties and a shape here is a map.
   */
  additional: Shape<M> | false;
  /**
   * How the object travels when its dictionary has evolved (set by the dictionary stage, never by loaders):
   * the frozen slot order of the segment the object was introduced in, and the properties added since, which
   * travel as extension records. Absent: every property in schema order (a fresh dictionary).
   */
  wire?: WireLayout<M>;
}

export interface WireLayout<M extends object = {}> {
  /** Dictionary path of the object (extension records name their object by JSON pointer, their property by ID). */
  path: string;
  /**
   * Positional slots in frozen order: a current property (index into `properties`) or a retired one. Absent: every
   * property that is not in `ext`, in schema order (an object that only gained properties), read through
   * ./plan.ts `wireSlots`.
   */
  slots?: WireSlot<M>[];
  /** Properties added after the object's segment: ID and level of each. */
  ext: { prop: number; id: number; level: number }[];
}

export type WireSlot<M extends object = {}> = { prop: number } | { retired: string; required: false; shape: Shape<M> };

export interface ArrayShape<M extends object = {}> extends ShapeBase {
  kind: "array";
  items: Shape<M>;
}

export interface TupleShape<M extends object = {}> extends ShapeBase {
  kind: "tuple";
  /** Positional items (`prefixItems`, or array-form `items`). */
  items: Shape<M>[];
  /** How many positional items must be present (from `minItems`; the rest are optional, in order). */
  minItems: number;
  /** Items after the positional ones: `false` when forbidden. */
  rest: Shape<M> | false;
}

export interface UnionShape<M extends object = {}> extends ShapeBase {
  kind: "union";
  /** Branches in schema order (`oneOf`/`anyOf`/type arrays); the wire carries the branch index. */
  branches: Shape<M>[];
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

/** A shape; `M` is what a producer adds to every node (nothing in a descriptor). */
export type Shape<M extends object = {}> = M &
  (
    | StringShape
    | IntegerShape
    | NumberShape
    | BooleanShape
    | NullShape
    | AnyShape
    | EnumShape
    | ConstShape
    | ObjectShape<M>
    | ArrayShape<M>
    | TupleShape<M>
    | UnionShape<M>
    | RefShape
  );

export type ShapeKind = Shape["kind"];

/** Everything `compileCodec` (./engine/codec.ts) needs; plain JSON. */
export interface CodecDescriptor {
  /** Codec name (a PascalCase identifier): in error messages and the fingerprint registry. */
  name: string;
  /** The fingerprint messages carry: the default-table one when `tables`, else the base segment's. */
  fingerprint: number;
  /** The codec's extension level: how many extension segments its dictionary has. */
  level: number;
  /** The dictionary has default-value tables: messages carry the DEFAULTS flag (docs/FORMAT.md §10.1). */
  tables: boolean;
  /** The value's own shape, the wire layout and tables applied. A `ref` to `name` when the root is a definition. */
  root: Shape;
  /** Named definitions in first-reference order (the order extension IDs are registered in). */
  definitions: { name: string; shape: Shape }[];
  /**
   * Dictionary IDs of retired properties: their records, written by older writers, are dropped. (The extension
   * properties themselves are in the tree, `ObjectShape.wire.ext`: ./plan.ts `extensionsOf` lists them.)
   */
  retired: number[];
}
