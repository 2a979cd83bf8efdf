/**
 * The embedded dictionary's types (docs/FORMAT.md §10.4): the type kinds (one byte each on the wire), the type
 * tree the encoder infers and the decoder reads, and the bounds both sides apply to a message of a given length.
 * Kept apart so inference, the dictionary's wire form and the body depend on the types, not on each other.
 */
import type { Selector } from "./infer.ts";
import type { SchemalessSite } from "./strings.ts";

/** Type kinds of the embedded dictionary (one byte each on the wire). */
export const SchemalessKind = {
  /** A self-describing value (docs/FORMAT.md §4.8). */
  ANY: 0x00,
  /** `null`; no body bytes. */
  NULL: 0x01,
  BOOL: 0x02,
  /** An integer in [-2^63, 2^64) as a zigzag varint (FORMAT §3.2); decodes to a number. */
  INT: 0x03,
  /** A number: decimal varint or float64 escape (FORMAT §3.4). */
  NUM: 0x04,
  /** A string in the schemaless string form: reference, literal, or a prefix of the previous string plus a suffix. */
  STR: 0x05,
  /** A string in the date-time form of FORMAT §3.7 (compact when canonical UTC, else a literal). */
  DATETIME: 0x06,
  /** A string in the date form of FORMAT §3.7. */
  DATE: 0x07,
  /** A string in the decimal-integer form of FORMAT §3.3. */
  DECSTR: 0x08,
  /** An integer as for INT that decodes to a number when safe and to a bigint otherwise (int64, FORMAT §3.2). */
  INT64: 0x09,
  /** One scalar, carried in the dictionary; no body bytes. */
  CONST: 0x0a,
  /** Scalars listed in the dictionary; the body carries the varint index. */
  ENUM: 0x0b,
  ARRAY: 0x0c,
  /** A template: keys in order, optional ones flagged; the body is a presence bitmap and the values. */
  OBJECT: 0x0d,
  /** Keys travel in the body (count, then key and value per entry); all values share one type. */
  MAP: 0x0e,
  /** Branch index then the value with that branch's type. */
  UNION: 0x0f,
  /** A composite type written earlier in this dictionary, by index. */
  REF: 0x10,
} as const;

export const K = SchemalessKind;

export type SchemalessScalar = null | boolean | number | string;

export interface SchemalessSimpleType {
  kind: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
}

export interface SchemalessConstType {
  kind: 10;
  value: SchemalessScalar;
}

export interface SchemalessEnumType {
  kind: 11;
  values: SchemalessScalar[];
  /** @internal encoder: value key -> index */
  index?: Map<unknown, number>;
}

export interface SchemalessArrayType {
  kind: 12;
  items: SchemalessType;
  /** @internal per-message string sites of its slots */
  sites?: SchemalessSite[];
}

export interface SchemalessObjectType {
  kind: 13;
  keys: string[];
  optional: boolean[];
  types: SchemalessType[];
  /** Number of optional keys (bits of the presence bitmap). */
  optionalCount: number;
  /** Fewest body bytes a value takes (bitmap plus the required values' minimum widths). */
  minWidth: number;
  /** @internal per-message string sites of its slots */
  sites?: SchemalessSite[];
}

export interface SchemalessMapType {
  kind: 14;
  /** How keys travel: STR (a string) or DECSTR (a decimal-integer string). */
  keyKind: 5 | 8;
  values: SchemalessType;
  /** @internal per-message string sites of its slots (0: values, 1: keys) */
  sites?: SchemalessSite[];
}

export interface SchemalessUnionType {
  kind: 15;
  branches: SchemalessType[];
  /** @internal encoder: which branch takes a value */
  select?: Selector;
  /** @internal per-message string sites of its slots */
  sites?: SchemalessSite[];
}

export type SchemalessType =
  | SchemalessSimpleType
  | SchemalessConstType
  | SchemalessEnumType
  | SchemalessArrayType
  | SchemalessObjectType
  | SchemalessMapType
  | SchemalessUnionType;

export const SCHEMALESS_KIND_NAMES: readonly string[] = [
  "any",
  "null",
  "boolean",
  "integer",
  "number",
  "string",
  "date-time",
  "date",
  "decimal-string",
  "int64",
  "const",
  "enum",
  "array",
  "object",
  "map",
  "union",
  "ref",
];

export const SIMPLE: readonly SchemalessSimpleType[] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((kind) => Object.freeze({ kind }) as SchemalessSimpleType);

/** Nodes a decoder may produce per message byte (plus NODE_BUDGET_BASE): bounds zero-width amplification. */
export const NODE_BUDGET_FACTOR = 8;

export const NODE_BUDGET_BASE = 65536;

/** Code points a message's prefixed strings may copy from their predecessors, per message byte (plus the base). */
export const PREFIX_BUDGET_FACTOR = 16;

/** The longest prefix (in code points) one prefixed string may take from the previous string. */
export const MAX_PREFIX = 1024;

export interface SchemalessDecodeOptions {
  /** Nesting limit for arrays, objects and maps (default DEFAULT_MAX_DEPTH, 256). */
  maxDepth?: number;
  /** Largest inflated payload a COMPRESSED message may declare, checked before decompressing (default 64 MiB). */
  maxInflatedBytes?: number;
}

/** The smallest number of body bytes a value of `t` takes. */
export function schemalessMinWidth(t: SchemalessType): number {
  switch (t.kind) {
    case K.NULL:
    case K.CONST:
      return 0;
    case K.OBJECT:
      return t.minWidth;
    default:
      return 1;
  }
}

export function objectType(keys: string[], optional: boolean[], types: SchemalessType[]): SchemalessObjectType {
  let opt = 0;
  let width = 0;
  for (let i = 0; i < keys.length; i++) {
    if (optional[i]) opt++;
    else width += schemalessMinWidth(types[i]!);
  }
  return { kind: K.OBJECT, keys, optional, types, optionalCount: opt, minWidth: Math.min(2 ** 32, width + Math.ceil(opt / 8)) };
}

/** How many values a message of `length` bytes may decode to (docs/FORMAT.md §10.4, "Bounds"). */
export function schemalessNodeBudget(length: number): number {
  return NODE_BUDGET_FACTOR * length + NODE_BUDGET_BASE;
}
