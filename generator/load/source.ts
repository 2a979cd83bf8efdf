/**
 * Where a codec's JSON Schema came from, kept beside its IR so the validator (`<name>.validate.ts`) is compiled
 * from the source schema itself, not from the IR (which keeps only what the wire shape needs). `schemaToIR`
 * records it for every IR it returns (JSON Schema files, Zod conversions and tool inputs alike); an IR built any
 * other way has none, and its codec validates with the shape check alone.
 */
import type { SchemaIR } from "../ir/types.ts";
import type { Draft } from "./drafts.ts";

export interface SchemaSource {
  /** The main document, as parsed. */
  document: unknown;
  /** JSON pointer of the codec's schema in it (`""`: the whole document). */
  pointer: string;
  draft: Draft;
  /** Absolute path the main document stands for (relative `$ref`s resolve against its directory). */
  abs: string;
  /** Every document the loader read, by absolute path, with its `$id` if it has one. */
  documents: ReadonlyMap<string, { root: unknown; id?: string }>;
  /** Reads a file (text, bytes or parsed document), as the loader's `readFile`. */
  readFile: (absPath: string) => unknown;
  /** URI prefix -> absolute local folder (ending in `/`) or file: `refMap` of the config. */
  refMap?: Readonly<Record<string, string>>;
}

const sources = new WeakMap<SchemaIR, SchemaSource>();

export function recordSchemaSource(ir: SchemaIR, source: SchemaSource): void {
  sources.set(ir, source);
}

/** The source schema `ir` was loaded from, if `schemaToIR` made it. */
export function schemaSourceOf(ir: SchemaIR): SchemaSource | undefined {
  return sources.get(ir);
}
