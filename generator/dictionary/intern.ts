/**
 * Per-path string interning (docs/FORMAT.md §3.1, docs/EVOLUTION.md): which plain-string paths put their literals
 * in the message's string table. Interning pays where values repeat inside one message (a repeat travels as a
 * short reference and is decoded once); elsewhere it only costs a table lookup and insert on both sides and makes
 * every other reference longer. The decision is made when a path enters the dictionary and recorded there as
 * `"intern": false` (absent: interned, the behaviour of dictionaries written before the attribute existed);
 * like the rest of an entry it is frozen once committed, because it changes the wire.
 */
import { formatOf } from "../../runtime/codec/formats.ts";
import type { SchemaIR, Shape } from "../ir/types.ts";
import type { DictionaryEntry } from "./build.ts";
import type { Dictionary } from "./file.ts";
import { branchSegment, definitionRoot, itemsSegment, mapSegment, mapShapesByPath, propertySegment, tupleSegment } from "./paths.ts";
import type { Profile } from "../samples/profile.ts";
import { chooseTable } from "../samples/tables.ts";

/** A sampled path is interned when at least this share of its (untabled) occurrences repeat a value of the same message. */
export const MIN_REPEAT_SHARE = 0.1;

/**
 * Property names that say "one value per thing": such strings never repeat, wherever they occur. (Formats say
 * nothing of the kind: the same customer's e-mail or the same endpoint's URI recurs in a list like any name.)
 */
const UNIQUE_NAME = /^(id|uuid|guid)$|uuid$|guid$/i;

type Draft = Omit<DictionaryEntry, "id">;

interface Site {
  shape: Extract<Shape, { kind: "string" }>;
  /** The property name the string is the value of, when it is one. */
  name: string | undefined;
  /** The path can occur more than once per message (under an array, map, tuple rest or a shared definition). */
  multi: boolean;
}

/** Every plain-string path of `ir` (the walk of dictionary/build.ts) with whether it can occur more than once. */
function stringSites(ir: SchemaIR): Map<string, Site> {
  // a definition is "multi" when referenced from two sites, or from one that is itself multi (fixpoint)
  const refs = new Map<string, { inDef: string | undefined; multi: boolean }[]>();
  const collect = (s: Shape, inDef: string | undefined, multi: boolean): void => {
    switch (s.kind) {
      case "ref": {
        const list = refs.get(s.name) ?? [];
        list.push({ inDef, multi });
        refs.set(s.name, list);
        return;
      }
      case "object":
        for (const p of s.properties) collect(p.shape, inDef, multi);
        if (s.additional !== false) collect(s.additional, inDef, true);
        return;
      case "array":
        collect(s.items, inDef, true);
        return;
      case "tuple":
        for (const item of s.items) collect(item, inDef, multi);
        if (s.rest !== false) collect(s.rest, inDef, true);
        return;
      case "union":
        for (const b of s.branches) collect(b, inDef, multi);
        return;
      default:
        return;
    }
  };
  collect(ir.root, undefined, false);
  for (const d of ir.definitions) collect(d.shape, d.name, false);
  const multiDef = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, sites] of refs) {
      if (multiDef.has(name)) continue;
      if (sites.length > 1 || sites.some((x) => x.multi || (x.inDef !== undefined && multiDef.has(x.inDef)))) {
        multiDef.add(name);
        changed = true;
      }
    }
  }
  const out = new Map<string, Site>();
  const walk = (s: Shape, path: string, name: string | undefined, multi: boolean): void => {
    switch (s.kind) {
      case "string":
        // only plain strings have literals to intern: every other format (date-time, uuid, int64 ...) has its own encoding
        if (formatOf(s).name === "string") out.set(path, { shape: s, name, multi });
        return;
      case "object":
        for (const p of s.properties) walk(p.shape, propertySegment(path, p.name), p.name, multi);
        if (s.additional !== false) walk(s.additional, mapSegment(path), undefined, true);
        return;
      case "array":
        walk(s.items, itemsSegment(path), name, true);
        return;
      case "tuple":
        s.items.forEach((item, i) => walk(item, tupleSegment(path, i), undefined, multi));
        if (s.rest !== false) walk(s.rest, tupleSegment(path, "rest"), undefined, true);
        return;
      case "union":
        s.branches.forEach((b, i) => walk(b, branchSegment(path, i), name, multi));
        return;
      default:
        return;
    }
  };
  walk(ir.root, "$", undefined, false);
  for (const d of ir.definitions) walk(d.shape, definitionRoot(d.name), undefined, multiDef.has(d.name));
  return out;
}

/**
 * Whether a path interns. With samples: the share of its occurrences (values its default-value table would take
 * left out) that repeat a value already seen in the same message. Without (or when the samples never reach it):
 * a path that occurs at most once per message cannot repeat; one that can is interned unless its format or
 * property name says its values are unique (uuid, id, ...).
 */
export function internDecision(site: Site, path: string, profile: Profile | undefined): boolean {
  const p = profile?.paths.get(path);
  if (p !== undefined && p.kind === "string") {
    const tabled = new Set(chooseTable("string", site.shape.default, p));
    let occurrences = p.untracked;
    let repeats = 0;
    for (const c of p.values.values()) {
      if (tabled.has(c.value)) continue;
      occurrences += c.count;
      repeats += c.count - c.samples;
    }
    if (occurrences > 0) return repeats > 0 && repeats >= occurrences * MIN_REPEAT_SHARE;
  }
  if (!site.multi) return false;
  return !(site.name !== undefined && UNIQUE_NAME.test(site.name));
}

/** Mark the string drafts of `ir` that do not intern (`intern: false`), from `profile` or the schema rule. */
export function markInterning(ir: SchemaIR, drafts: Draft[], profile: Profile | undefined): void {
  const sites = stringSites(ir);
  for (const d of drafts) {
    if (d.type !== "string") continue;
    const site = sites.get(d.path);
    if (site !== undefined && !internDecision(site, d.path, profile)) d.intern = false;
  }
}

/**
 * The IR with `intern: false` on every string shape whose dictionary entry says so (copies along the way; the
 * input is not changed). Retired slots carry it already (dictionary/wire-layout.ts rebuilds them from entries).
 */
export function withInterning(ir: SchemaIR, dict: Dictionary): SchemaIR {
  const plain = new Set<string>();
  const retired = new Set(dict.retired.map((r) => r.id));
  for (const seg of [dict.base, ...dict.extensions]) for (const e of seg.entries) if (e.intern === false && !retired.has(e.id)) plain.add(e.path);
  if (plain.size === 0) return ir;
  return mapShapesByPath(ir, (s, path) => (s.kind === "string" && plain.has(path) && s.intern !== false ? { ...s, intern: false } : s));
}
