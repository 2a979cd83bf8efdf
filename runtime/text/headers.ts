/**
 * The header lines of TOON text (spec v4.0 §9): `key[N]:` array headers, tabular (`[N]{fields}:`) and keyed
 * (`[N:]{fields}:`) headers with their field lists, indentation, and the cells of one table row. Building blocks
 * for encoders that write TOON text piece by piece (`@toon-gen/runtime/text`, generated encoders).
 */
import { delimiterCode, encodeKey, prim, type TextDelimiter } from "./primitives.ts";

/**
 * A tabular header field: a leaf column name, or a nested field group `name{…}` for a column of uniform
 * objects (§9.3).
 */
export type TextField = string | { readonly name: string; readonly fields: readonly TextField[] };

/** The delimiter mark written inside brackets: "" for comma, else the delimiter itself. */
export function mark(delimiter: TextDelimiter): string {
  return delimiter === "," ? "" : delimiter;
}

/** The field list `{f1<d>f2{s1<d>s2}}` of a tabular or keyed header, names encoded per §7.3. */
export function fieldList(fields: readonly TextField[], delimiter: TextDelimiter = ","): string {
  let s = "{";
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (i > 0) s += delimiter;
    s += typeof f === "string" ? encodeKey(f) : encodeKey(f.name) + fieldList(f.fields, delimiter);
  }
  return s + "}";
}

/** `key[N<d>]:` (key null: keyless, for the root and list items). Inline values follow after one space. */
export function arrayHeader(key: string | null, length: number, delimiter: TextDelimiter = ","): string {
  return (key === null ? "" : encodeKey(key)) + "[" + length + mark(delimiter) + "]:";
}

/** `key[N<d>]{fields}:` – the header of a tabular array (§9.3); rows follow at depth + 1. */
export function tableHeader(key: string | null, length: number, fields: readonly TextField[], delimiter: TextDelimiter = ","): string {
  return (key === null ? "" : encodeKey(key)) + "[" + length + mark(delimiter) + "]" + fieldList(fields, delimiter) + ":";
}

/** `key[N:<d>]{fields}:` – the header of a keyed tabular object (§9.5); entry rows follow at depth + 1. */
export function keyedHeader(key: string | null, count: number, fields: readonly TextField[], delimiter: TextDelimiter = ","): string {
  return (key === null ? "" : encodeKey(key)) + "[" + count + ":" + mark(delimiter) + "]" + fieldList(fields, delimiter) + ":";
}

/** Indentation for `depth` levels of `indentSize` spaces. */
export function indentation(depth: number, indentSize = 2): string {
  return " ".repeat(depth * indentSize);
}

/**
 * The cells of one table row or keyed entry: the leaf values of `row` in depth-first order of `fields`, encoded
 * and joined by the delimiter.
 */
export function tableRow(row: unknown, fields: readonly TextField[], delimiter: TextDelimiter = ","): string {
  return rowCells(row as Record<string, unknown>, fields, delimiter, delimiterCode(delimiter), true);
}

function rowCells(row: Record<string, unknown>, fields: readonly TextField[], d: string, dc: number, first: boolean): string {
  let s = "";
  for (let j = 0; j < fields.length; j++) {
    const f = fields[j];
    if (typeof f === "string") s += (first ? "" : d) + prim(row[f], dc);
    else s += (first ? "" : d) + rowCells(row[f.name] as Record<string, unknown>, f.fields, d, dc, true);
    first = false;
  }
  return s;
}
