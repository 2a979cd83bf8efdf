/**
 * Dictionary stage: every path of a SchemaIR gets an ID and its wire-relevant type facts. IDs are stable: a
 * previous dictionary (read back from the committed file) fixes the IDs of the paths it knows; new paths get
 * the next free IDs.
 */
import type { JsonValue, SchemaIR, Shape } from "../ir/types.ts";
import { branchSegment, definitionRoot, itemsSegment, mapSegment, propertySegment, tupleSegment } from "./paths.ts";
import { formatOf } from "../../runtime/codec/formats.ts";

export type EntryType =
  | "object"
  | "map"
  | "array"
  | "tuple"
  | "union"
  | "ref"
  | "string"
  | "integer"
  | "number"
  | "boolean"
  | "null"
  | "any"
  | "enum"
  | "const";

/** One path. Only facts that change the bytes on the wire are recorded (so harmless schema edits do not). */
export interface DictionaryEntry {
  id: number;
  path: string;
  type: EntryType;
  /** Properties: whether the property is required (required fields are positional, optional ones use a bit). */
  required?: boolean;
  /** Only formats that change the encoding (runtime/codec/formats.ts `record`): `date-time`, `date`, `uuid`. */
  format?: string;
  /** 64-bit integers (bigint) or decimal-integer strings. */
  int64?: boolean;
  /** Objects: no additional properties. */
  closed?: boolean;
  /** Enums: the values, whose order is the wire index. */
  values?: JsonValue[];
  /** Consts: the value (never on the wire). */
  value?: JsonValue;
  /** Refs: the definition. */
  ref?: string;
  /**
   * Plain strings: `false` when the path's literals stay out of the message's string table (./intern.ts, docs/FORMAT.md
   * §3.1). Absent: interned (so dictionaries written before the attribute keep their bytes and fingerprints).
   */
  intern?: false;
}

/** Entries of a schema in walk order (root first, then each definition), without IDs. */
export function collectEntries(ir: SchemaIR, defaults?: Map<string, JsonValue>): Omit<DictionaryEntry, "id">[] {
  const out: Omit<DictionaryEntry, "id">[] = [];
  const walk = (s: Shape, path: string, required: boolean | undefined) => walkShape(s, path, required, out, walk, defaults);
  walk(ir.root, "$", undefined);
  for (const def of ir.definitions) walk(def.shape, definitionRoot(def.name), undefined);
  return out;
}

type Walk = (s: Shape, path: string, required: boolean | undefined) => void;

function walkShape(s: Shape, path: string, required: boolean | undefined, out: Omit<DictionaryEntry, "id">[], walk: Walk, defaults?: Map<string, JsonValue>): void {
  if (defaults && s.default !== undefined) defaults.set(path, s.default);
  const e: Omit<DictionaryEntry, "id"> = { path, type: entryType(s) };
  if (required !== undefined) e.required = required;
  out.push(e);
  switch (s.kind) {
    case "string":
    case "integer":
    case "number":
      // what selects the wire format (format, int64), so a format change is a wire change evolve.ts reports
      Object.assign(e, formatOf(s).record);
      return;
    case "enum":
      e.values = s.values;
      return;
    case "const":
      e.value = s.value;
      return;
    case "ref":
      e.ref = s.name;
      return;
    case "object":
      if (s.additional === false) e.closed = true;
      for (const p of s.properties) walk(p.shape, propertySegment(path, p.name), p.required);
      if (s.additional !== false) walk(s.additional, mapSegment(path), undefined);
      return;
    case "array":
      walk(s.items, itemsSegment(path), undefined);
      return;
    case "tuple":
      s.items.forEach((item, i) => walk(item, tupleSegment(path, i), i < s.minItems));
      if (s.rest !== false) walk(s.rest, tupleSegment(path, "rest"), undefined);
      return;
    case "union":
      s.branches.forEach((b, i) => walk(b, branchSegment(path, i), undefined));
      return;
    default:
      return;
  }
}

function entryType(s: Shape): EntryType {
  if (s.kind === "object" && s.properties.length === 0 && s.additional !== false) return "map";
  return s.kind;
}

function sortKeys(v: JsonValue): JsonValue {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(sortKeys);
  const out: { [k: string]: JsonValue } = {};
  for (const k of Object.keys(v).sort()) Object.defineProperty(out, k, { value: sortKeys(v[k]!), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * The canonical serialisation the fingerprint hashes (docs/FORMAT.md §5.3): one JSON array per entry, in walk
 * order (root, then each definition, depth first in schema order), which is the order fields take on the wire,
 * so any layout change changes the fingerprint. Constants are hashed with sorted keys. An entry with
 * `"intern": false` has an 11th element, `false`.
 */
export function canonicalForm(entries: DictionaryEntry[]): string {
  return entries
    .map((e) =>
      JSON.stringify([
        e.id,
        e.path,
        e.type,
        e.required ?? null,
        e.format ?? null,
        e.int64 ?? null,
        e.closed ?? null,
        e.values === undefined ? null : e.values.map(sortKeys),
        e.value === undefined ? null : [sortKeys(e.value)],
        e.ref ?? null,
        // appended only when present, so the canonical form (and fingerprint) of a dictionary without it is unchanged
        ...(e.intern === false ? [false] : []),
      ]),
    )
    .join("\n");
}
