/**
 * A codec's dictionary survives a rename or move of its schema file. Dictionary files are named after the
 * input file (`invoice.schema.json` -> `invoice.dictionary.json`, a tool set's `<file>/...`), so after
 * `git mv invoice.schema.json bill.schema.json` the new input finds no dictionary at its own path, while the
 * old file is still there, claimed by no input: an orphan. This module matches the two, so the renamed input
 * evolves the old dictionary (same IDs, same fingerprint) instead of starting a fresh one.
 *
 * An orphan group (the dictionaries one old input produced, by their `source`) is taken over when its main
 * dictionary carries the new codec's name (the schema has a `title`, or a Zod export's name: the rename kept
 * the codec's name; edits are then evolved as usual), or, failing that, when the new schema describes exactly
 * what that dictionary does (a rename without edits, the codec name coming from the file name). The match
 * must be unique, else nothing is adopted (a fresh dictionary, as before).
 */
import * as path from "node:path";
import type { SchemaIR } from "../ir/types.ts";
import { evolveDictionary } from "./evolve.ts";
import { formatDictionary } from "./file.ts";
import type { Dictionary } from "./types.ts";

export interface OrphanDictionary {
  /** Path relative to dictionaryDir, `/` separated. */
  rel: string;
  dictionary: Dictionary;
}

/** The input file a dictionary came from: its `source` without `#Export` or ` (tool "x" arguments)`. */
export function sourceFileOf(source: string): string {
  return source.replace(/ \(.*\)$/, "").replace(/#[^/]*$/, "");
}

/** `order-list.schema.json` -> `order-list` (as the pipeline and the tool inputs name their files). */
function stemOf(file: string): string {
  return path.basename(file).replace(/(\.schema)?\.json$/i, "");
}

/** Where a dictionary of the input with stem `from` goes for the input with stem `to` (undefined: not stem-named). */
function restem(rel: string, from: string, to: string): string | undefined {
  if (rel === `${from}.dictionary.json`) return `${to}.dictionary.json`;
  if (rel.startsWith(`${from}/`)) return `${to}/${rel.slice(from.length + 1)}`;
  return undefined;
}

/** The same dictionary, apart from the name and source it records. */
function sameContent(a: Dictionary, b: Dictionary): boolean {
  return formatDictionary({ ...a, name: "", source: "" }) === formatDictionary({ ...b, name: "", source: "" });
}

/**
 * The orphaned dictionaries (by their path relative to dictionaryDir) that the units of one input take over,
 * keyed by the unit's own dictionary path; empty when there is no unique match. `gone(source)` says whether
 * an orphan's old input is no longer an input of this run (only those can have been renamed).
 */
export function adoptRenamed(
  input: string,
  units: readonly { ir: SchemaIR; dictionary: string }[],
  orphans: ReadonlyMap<string, OrphanDictionary>,
  gone: (sourceFile: string) => boolean,
): Map<string, Dictionary> {
  const main = units[0];
  if (main === undefined) return new Map();
  const stem = stemOf(input.replace(/#.*$/, ""));
  const groups = new Map<string, OrphanDictionary[]>();
  for (const o of orphans.values()) {
    const file = sourceFileOf(o.dictionary.source);
    if (!gone(file)) continue;
    groups.set(file, [...(groups.get(file) ?? []), o]);
  }
  const strong: string[] = [];
  const weak: string[] = [];
  for (const [file, group] of groups) {
    const oldStem = stemOf(file);
    const rel = restem(main.dictionary, stem, oldStem);
    const old = rel === undefined ? undefined : group.find((o) => o.rel === rel);
    if (old === undefined) continue;
    if (old.dictionary.name === main.ir.name) strong.push(file);
    else if (sameContent(evolveDictionary(main.ir, old.dictionary).dictionary, old.dictionary)) weak.push(file);
  }
  const chosen = strong.length === 1 ? strong[0] : strong.length === 0 && weak.length === 1 ? weak[0] : undefined;
  const out = new Map<string, Dictionary>();
  if (chosen === undefined) return out;
  const oldStem = stemOf(chosen);
  for (const u of units) {
    const rel = restem(u.dictionary, stem, oldStem);
    const old = rel === undefined ? undefined : orphans.get(rel);
    if (old !== undefined && sourceFileOf(old.dictionary.source) === chosen) out.set(u.dictionary, old.dictionary);
  }
  return out;
}
