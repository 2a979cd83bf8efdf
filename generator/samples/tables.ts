/**
 * Default-value tables (docs/FORMAT.md §10.1): which values of which paths the dictionary tables, how the
 * tables are hashed into the fingerprint DEFAULTS messages carry, and the IR annotation the emitter and the
 * interpreter read (`Shape.table`).
 *
 * Tables come from the schema's `default`s and, when samples are profiled (./profile.ts), from the most
 * frequent values, ranked by the bytes they save. Like the base segment, tables are frozen once written to the
 * dictionary file (generator/dictionary/evolve.ts): a table change changes the fingerprint, so it happens only
 * on a fresh base (first generation, `--rebase`) or when a dictionary without tables first gets samples.
 */
import { MAX_DEFAULT_TABLE } from "../../runtime/wire/defaults.ts";
import { formatNamed } from "../../runtime/codec/formats.ts";
import { wireSlots } from "../../runtime/codec/plan.ts";
import { Writer } from "../../runtime/wire/writer.ts";
import { canonicalForm } from "../dictionary/build.ts";
import type { DefaultTableEntry, DefaultTables, Dictionary, Segment } from "../dictionary/types.ts";
import { fingerprintOf } from "../dictionary/hash.ts";
import { branchSegment, definitionRoot, itemsSegment, mapSegment, mapShapesByPath, propertySegment, tupleSegment } from "../dictionary/paths.ts";
import type { JsonValue, SchemaIR, Shape } from "../ir/types.ts";
import { tableKind, type PathProfile, type Profile, type TableKind } from "./profile.ts";

/** A sampled value enters a table only when it occurs at least this often and saves at least MIN_SAVING bytes. */
const MIN_OCCURRENCES = 2;
const MIN_SAVING = 2;

/** Every position of the shape tree that can have a table, by dictionary path (the walk of dictionary/build.ts). */
export function tablePositions(ir: SchemaIR): Map<string, Shape> {
  const out = new Map<string, Shape>();
  const walk = (s: Shape, path: string): void => {
    switch (s.kind) {
      case "string":
      case "integer":
      case "number":
        out.set(path, s);
        return;
      case "object":
        for (const p of s.properties) walk(p.shape, propertySegment(path, p.name));
        if (s.wire !== undefined) for (const slot of wireSlots(s)) if ("retired" in slot) walk(slot.shape, propertySegment(path, slot.retired));
        if (s.additional !== false) walk(s.additional, mapSegment(path));
        return;
      case "array":
        walk(s.items, itemsSegment(path));
        return;
      case "tuple":
        s.items.forEach((item, i) => walk(item, tupleSegment(path, i)));
        if (s.rest !== false) walk(s.rest, tupleSegment(path, "rest"));
        return;
      case "union":
        s.branches.forEach((b, i) => walk(b, branchSegment(path, i)));
        return;
      default:
        return;
    }
  };
  walk(ir.root, "$");
  for (const d of ir.definitions) walk(d.shape, definitionRoot(d.name));
  return out;
}

/** Whether `v` can be an entry of a table of `kind` (it must come back from the table exactly as it went in). */
export function tableable(kind: TableKind, v: unknown): v is string | number {
  return formatNamed(kind).table.entry(v);
}

const scratch = new Writer(256);

/** Bytes the value takes without a table (a first occurrence, for strings): its format's own primitive. */
export function plainSize(kind: TableKind, v: string | number): number {
  scratch.reset();
  formatNamed(kind).write(scratch, v);
  return scratch.pos;
}

/**
 * The table of one path: the schema default first (when it is one), then sampled values by the bytes they save,
 * as long as the table gets smaller overall (the shift of the other values' headers included).
 */
export function chooseTable(kind: TableKind, schemaDefault: JsonValue | undefined, profile: PathProfile | undefined): (string | number)[] {
  const cost = formatNamed(kind).table;
  const fixed: (string | number)[] = [];
  if (schemaDefault !== undefined && tableable(kind, schemaDefault)) fixed.push(schemaDefault);
  if (profile === undefined) return fixed;
  // a string repeated within one message is a string-table reference after its first occurrence: a table
  // saves (about) its first occurrence per message; other values are saved at every occurrence
  const candidates = [...profile.values.values()]
    .filter((c) => c.count >= MIN_OCCURRENCES && tableable(kind, c.value) && !fixed.some((f) => Object.is(f, c.value)))
    .map((c) => {
      const plain = plainSize(kind, c.value);
      const uses = cost.interned ? c.samples : c.count;
      return { value: c.value, count: c.count, uses, plain, saving: uses * (plain - 1) };
    })
    .filter((c) => c.saving >= MIN_SAVING)
    .sort((a, b) => b.saving - a.saving || b.count - a.count || (String(a.value) < String(b.value) ? -1 : String(a.value) > String(b.value) ? 1 : 0));
  // what each extra table size costs the other values (a shifted header, a tag byte)
  const shiftCost = (size: number, tabled: Set<string | number>): number => {
    let total = 0;
    for (const c of profile.values.values()) {
      if (tabled.has(c.value)) continue;
      total += (cost.interned ? c.samples : c.count) * cost.shift(c.value, size);
    }
    return total;
  };
  let best = fixed.length;
  let bestGain = 0;
  let gain = 0;
  const chosen = [...fixed];
  for (let i = 0; i < candidates.length && chosen.length < MAX_DEFAULT_TABLE; i++) {
    const c = candidates[i]!;
    gain += c.uses * (c.plain - cost.reference(chosen.length));
    chosen.push(c.value);
    const total = gain - (shiftCost(chosen.length, new Set(chosen)) - shiftCost(fixed.length, new Set(fixed)));
    if (total > bestGain) {
      bestGain = total;
      best = chosen.length;
    }
  }
  return chosen.slice(0, best);
}

/**
 * The tables of a dictionary for `ir`: every table position of a live dictionary path, from its schema default
 * and the profile. Undefined when no path gets a table.
 */
export function buildTables(ir: SchemaIR, dict: Dictionary, profile: Profile | undefined): DefaultTables | undefined {
  const ids = new Map<string, number>();
  const retired = new Set(dict.retired.map((r) => r.id));
  for (const seg of [dict.base, ...dict.extensions]) for (const e of seg.entries) if (!retired.has(e.id) && !ids.has(e.path)) ids.set(e.path, e.id);
  const tables: DefaultTableEntry[] = [];
  for (const [path, shape] of tablePositions(ir)) {
    const kind = tableKind(shape)!;
    const id = ids.get(path);
    if (id === undefined) continue;
    const values = chooseTable(kind, shape.default, profile?.paths.get(path));
    if (values.length > 0) tables.push({ id, path, values });
  }
  if (tables.length === 0) return undefined;
  tables.sort((a, b) => a.id - b.id);
  return sealTables(dict.base, tables);
}

/**
 * The canonical form the DEFAULTS fingerprint hashes: the base segment's canonical form (docs/FORMAT.md §5.3),
 * then per table, in ID order, a line feed and `[id, path, "table", [values...]]`.
 */
export function tablesCanonicalForm(base: Segment, tables: readonly DefaultTableEntry[]): string {
  return canonicalForm(base.entries) + tables.map((t) => "\n" + JSON.stringify([t.id, t.path, "table", t.values])).join("");
}

export function sealTables(base: Segment, tables: DefaultTableEntry[]): DefaultTables {
  const fp = fingerprintOf(tablesCanonicalForm(base, tables));
  return { fingerprint: fp.fingerprint, hash64: fp.hash64, tables };
}

/** True when the dictionary has tables (its codecs write DEFAULTS messages). */
export function hasTables(dict: Dictionary | undefined): boolean {
  return dict?.defaults !== undefined && dict.defaults.tables.length > 0;
}

/** The fingerprint a codec of `dict` writes and expects: the DEFAULTS one when it has tables. */
export function codecFingerprint(dict: Dictionary): number {
  return hasTables(dict) ? dict.defaults!.fingerprint : dict.base.fingerprint;
}

/**
 * The IR with `table` set on every position the dictionary tables (copies along the way; the input is not
 * changed). Unchanged when the dictionary has no tables.
 */
export function withDefaultTables(ir: SchemaIR, dict: Dictionary): SchemaIR {
  if (!hasTables(dict)) return ir;
  const byPath = new Map(dict.defaults!.tables.map((t) => [t.path, t.values]));
  return mapShapesByPath(ir, (s, path) => {
    if (s.kind !== "string" && s.kind !== "integer" && s.kind !== "number") return s;
    const t = byPath.get(path);
    return t === undefined ? s : { ...s, table: t };
  });
}

/** Does the file's `defaults` section still hash to what it says (hand edits are refused, as for segments)? */
export function tablesIntact(dict: Dictionary): boolean {
  if (dict.defaults === undefined) return true;
  return fingerprintOf(tablesCanonicalForm(dict.base, dict.defaults.tables)).hash64 === dict.defaults.hash64;
}
