/**
 * The shape IR: the small, plain tree every input (JSON Schema, Zod, tool definitions) is normalised to,
 * and the only thing the dictionary and the emitters see. It describes the *wire shape* of a value; value
 * constraints that do not change the shape are carried in `constraints` for validation only.
 *
 * Everything here is plain data (JSON-serialisable but for `undefined` fields) so stages can be tested alone.
 * The shape types are the runtime's descriptor types (runtime/codec/descriptor.ts) with the source facts added.
 */

import type * as D from "../../runtime/codec/descriptor.ts";

export type { JsonValue, Constraints } from "../../runtime/codec/descriptor.ts";

/** What the IR adds to every shape of the runtime's descriptor types (runtime/codec/descriptor.ts). */
export interface Source {
  /** JSON pointer of the schema node this shape came from, in its source document (for error messages). */
  schemaPath: string;
  description?: string;
}

export type StringShape = D.StringShape & Source;
export type IntegerShape = D.IntegerShape & Source;
export type NumberShape = D.NumberShape & Source;
export type BooleanShape = D.BooleanShape & Source;
export type NullShape = D.NullShape & Source;
export type AnyShape = D.AnyShape & Source;
export type EnumShape = D.EnumShape & Source;
export type ConstShape = D.ConstShape & Source;
export type PropertyShape = D.PropertyShape<Source>;
export type ObjectShape = D.ObjectShape<Source> & Source;
export type WireLayout = D.WireLayout<Source>;
export type ArrayShape = D.ArrayShape<Source> & Source;
export type TupleShape = D.TupleShape<Source> & Source;
export type UnionShape = D.UnionShape<Source> & Source;
export type RefShape = D.RefShape & Source;
export type Shape = D.Shape<Source>;
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
