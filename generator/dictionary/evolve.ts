/**
 * Schema evolution (docs/EVOLUTION.md). The base segment is frozen once written: existing paths keep their IDs
 * and their wire facts forever; new paths (and values appended to enums) go to a new extension segment;
 * removed paths are retired (their IDs are never reused, and their entries stay so old data can still be
 * skipped). Anything else changes the wire incompatibly and is reported as a breaking finding, which
 * `generate` refuses (until `--rebase`) and `toon-gen check` fails on.
 */
import type { JsonValue, SchemaIR } from "../ir/types.ts";
import { canonicalForm, collectEntries, type DictionaryEntry } from "./build.ts";
import { fingerprintOf } from "./hash.ts";
import type { Dictionary, RetiredEntry, Segment } from "./types.ts";
import { DICTIONARY_FORMAT } from "./format.ts";
import { parentOfProperty } from "./paths.ts";
import type { Profile } from "../samples/profile.ts";
import { buildTables, hasTables, tablesIntact } from "../samples/tables.ts";
import { markInterning } from "./intern.ts";

export type Rule =
  | "required-removed"
  | "required-added"
  | "required-changed"
  | "type-changed"
  | "enum-changed"
  | "const-changed"
  | "closed-changed"
  | "tuple-changed"
  | "branch-removed"
  | "retired-reused"
  | "base-edited"
  | "segment-edited"
  | "duplicate-id"
  | "defaults-edited";

export interface Finding {
  rule: Rule;
  /** Dictionary path the finding is about. */
  path: string;
  breaking: boolean;
  message: string;
  fix: string;
}

export interface EvolveResult {
  dictionary: Dictionary;
  findings: Finding[];
  /** Paths added (new extension segment) and retired by this generation. */
  added: string[];
  retired: string[];
}

type Draft = Omit<DictionaryEntry, "id">;

export interface EvolveOptions {
  /** Fold everything into a fresh base (the explicit breaking release). */
  rebase?: boolean;
  /** Profiled samples (generator/samples): default-value tables for a fresh base, or a dictionary without tables. */
  profile?: Profile;
}

/** `dict` with default-value tables from the schema's defaults and `profile` (none: `dict` without tables). */
function withTables(ir: SchemaIR, dict: Dictionary, profile: Profile | undefined): Dictionary {
  const { defaults: _old, ...rest } = dict;
  const defaults = buildTables(ir, rest, profile);
  return defaults === undefined ? rest : { ...rest, defaults };
}

function segmentOf(level: number, entries: DictionaryEntry[]): Segment {
  const fp = fingerprintOf(canonicalForm(entries));
  return { level, fingerprint: fp.fingerprint, hash64: fp.hash64, entries };
}

/** A fresh base (first generation, or `--rebase`): IDs of `previous` are kept, retired IDs stay reserved. */
function freshBase(ir: SchemaIR, drafts: Draft[], previous: Dictionary | undefined): Dictionary {
  const known = new Map<string, number>();
  let next = 0;
  const retired: RetiredEntry[] = [];
  if (previous) {
    for (const s of [previous.base, ...previous.extensions]) for (const e of s.entries) next = Math.max(next, e.id + 1);
    for (const r of previous.retired) next = Math.max(next, r.id + 1);
    const retiredIds = new Set(previous.retired.map((r) => r.id));
    for (const s of [previous.base, ...previous.extensions]) for (const e of s.entries) if (!retiredIds.has(e.id)) known.set(e.path, e.id);
    // after a rebase retired entries are only reserved IDs: their entries left the segments
    for (const r of previous.retired) retired.push({ id: r.id, path: r.path, retiredAt: 0 });
  }
  const entries = drafts.map((d) => ({ id: known.get(d.path) ?? next++, ...d }));
  if (previous) {
    const now = new Set(drafts.map((d) => d.path));
    for (const s of [previous.base, ...previous.extensions]) {
      for (const e of s.entries) if (!now.has(e.path) && !retired.some((r) => r.id === e.id)) retired.push({ id: e.id, path: e.path, retiredAt: 0 });
    }
  }
  return { format: DICTIONARY_FORMAT, name: ir.name, source: ir.source, base: segmentOf(0, entries), extensions: [], retired };
}

/** What the wire of a path is, for comparison (enum values compared separately). */
function facts(e: Draft): string {
  return JSON.stringify([e.type, e.format ?? null, e.int64 ?? null, e.ref ?? null]);
}

/**
 * Evolve `previous` to describe `ir`. Without `previous` (or with `rebase`) the result is a fresh base.
 */
export function evolveDictionary(ir: SchemaIR, previous: Dictionary | undefined, options: EvolveOptions = {}): EvolveResult {
  const defaults = new Map<string, JsonValue>();
  const drafts = collectEntries(ir, defaults);
  // new paths decide their interning now; committed entries keep theirs (compared nowhere: it is frozen with them)
  markInterning(ir, drafts, options.profile);
  if (!previous || options.rebase) {
    const dictionary = freshBase(ir, drafts, previous);
    const unchanged = previous && previous.extensions.length === 0 && previous.base.hash64 === dictionary.base.hash64;
    return {
      dictionary: withTables(ir, unchanged ? { ...dictionary, retired: previous!.retired } : dictionary, options.profile),
      findings: [],
      added: previous ? drafts.filter((d) => !hasPath(previous, d.path)).map((d) => d.path) : drafts.map((d) => d.path),
      retired: [],
    };
  }

  const findings: Finding[] = [...integrityFindings(previous)];
  const level = previous.extensions.length + 1;
  const retiredIds = new Set(previous.retired.map((r) => r.id));
  // effective previous entry per live path, with enum values accumulated across segments
  const prev = new Map<string, { entry: DictionaryEntry; values?: JsonValue[] }>();
  for (const s of [previous.base, ...previous.extensions]) {
    for (const e of s.entries) {
      if (retiredIds.has(e.id)) continue;
      const known = prev.get(e.path);
      if (known && e.values !== undefined && known.entry.type === "enum") known.values = [...(known.values ?? []), ...e.values];
      else if (!known) prev.set(e.path, e.values !== undefined ? { entry: e, values: e.values } : { entry: e });
    }
  }
  let next = 0;
  for (const s of [previous.base, ...previous.extensions]) for (const e of s.entries) next = Math.max(next, e.id + 1);
  for (const r of previous.retired) next = Math.max(next, r.id + 1);

  const current = new Set(drafts.map((d) => d.path));
  const added: DictionaryEntry[] = [];
  const addedPaths: string[] = [];
  for (const d of drafts) {
    const p = prev.get(d.path);
    if (!p) {
      const e = { id: next++, ...d };
      added.push(e);
      addedPaths.push(d.path);
      const tupleParent = /\[\d+\]$/.test(d.path) ? d.path.replace(/\[\d+\]$/, "") : undefined;
      if (tupleParent !== undefined && prev.has(tupleParent)) {
        findings.push({
          rule: "tuple-changed",
          path: d.path,
          breaking: true,
          message: "a tuple position was added (positions are positional: older readers would take it for a rest item, or reject the length)",
          fix: `keep the tuple as it was (add a property elsewhere), or rebase (toon-gen generate --rebase ${ir.name})`,
        });
      }
      const parent = parentOfProperty(d.path);
      if (d.required === true && parent !== undefined && prev.has(parent.parent) && d.type !== "const") {
        if (!defaults.has(d.path)) {
          findings.push({
            rule: "required-added",
            path: d.path,
            breaking: true,
            message: `new required property ${JSON.stringify(parent.name)}: data written before it has no value for it`,
            fix: `make it optional, give it a "default", or rebase (toon-gen generate --rebase ${ir.name})`,
          });
        }
      }
      continue;
    }
    const was = p.entry;
    if (facts(was) !== facts(d)) {
      findings.push({
        rule: "type-changed",
        path: d.path,
        breaking: true,
        message: `wire type changed from ${describeFacts(was)} to ${describeFacts(d)}`,
        fix: `keep the old type (add a new optional property for the new one) or rebase (toon-gen generate --rebase ${ir.name})`,
      });
      continue;
    }
    if ((was.required ?? null) !== (d.required ?? null)) {
      const tuple = /\[\d+\]$/.test(d.path);
      findings.push({
        rule: tuple ? "tuple-changed" : "required-changed",
        path: d.path,
        breaking: true,
        message: `${tuple ? "tuple item" : "property"} changed from ${was.required ? "required" : "optional"} to ${d.required ? "required" : "optional"} (required fields are positional, optional ones take a presence bit)`,
        fix: `restore it, or rebase (toon-gen generate --rebase ${ir.name})`,
      });
    }
    if ((was.closed ?? false) !== (d.closed ?? false)) {
      findings.push({
        rule: "closed-changed",
        path: d.path,
        breaking: true,
        message: `additionalProperties changed from ${was.closed ? "false" : "allowed"} to ${d.closed ? "false" : "allowed"} (open objects carry an extras bit)`,
        fix: `restore additionalProperties, or rebase (toon-gen generate --rebase ${ir.name})`,
      });
    }
    if (d.type === "const" && JSON.stringify(was.value) !== JSON.stringify(d.value)) {
      findings.push({
        rule: "const-changed",
        path: d.path,
        breaking: true,
        message: `const changed from ${JSON.stringify(was.value)} to ${JSON.stringify(d.value)} (constants never travel: old readers would produce the old value)`,
        fix: `restore the constant, or rebase (toon-gen generate --rebase ${ir.name})`,
      });
    }
    if (d.type === "enum") {
      const old = p.values ?? [];
      const now = d.values ?? [];
      const prefix = old.length <= now.length && old.every((v, i) => JSON.stringify(v) === JSON.stringify(now[i]));
      if (!prefix) {
        findings.push({
          rule: "enum-changed",
          path: d.path,
          breaking: true,
          message: `enum values were removed or reordered (the wire carries the index): was ${JSON.stringify(old)}, now ${JSON.stringify(now)}`,
          fix: `keep the old values in their order and append new ones at the end, or rebase (toon-gen generate --rebase ${ir.name})`,
        });
      } else if (now.length > old.length) {
        added.push({ id: was.id, path: d.path, type: "enum", values: now.slice(old.length) });
        addedPaths.push(d.path);
      }
    }
  }

  // removed paths: retired; required ones (whose object is still there) break old readers
  const retired: RetiredEntry[] = [...previous.retired];
  const retiredPaths: string[] = [];
  for (const [path, p] of prev) {
    if (current.has(path)) continue;
    retired.push({ id: p.entry.id, path, retiredAt: level - 1 });
    retiredPaths.push(path);
    const parent = parentOfProperty(path);
    const parentLives = parent !== undefined && current.has(parent.parent);
    if (p.entry.required === true && parentLives) {
      findings.push({
        rule: "required-removed",
        path,
        breaking: true,
        message: `required property ${JSON.stringify(parent.name)} was removed or renamed: readers of the old schema need it`,
        fix: `keep it (it may become optional only with a rebase), or rebase (toon-gen generate --rebase ${ir.name})`,
      });
    } else if (/<\d+>$/.test(path) && current.has(path.replace(/<\d+>$/, ""))) {
      findings.push({
        rule: "branch-removed",
        path,
        breaking: true,
        message: "a union branch was removed (the wire carries the branch index)",
        fix: `keep the branch, or rebase (toon-gen generate --rebase ${ir.name})`,
      });
    } else if (/\[\d+\]$/.test(path) && current.has(path.replace(/\[\d+\]$/, ""))) {
      findings.push({ rule: "tuple-changed", path, breaking: true, message: "a tuple item was removed", fix: `restore it, or rebase (toon-gen generate --rebase ${ir.name})` });
    }
  }

  const extensions = [...previous.extensions];
  if (added.length > 0) extensions.push(segmentOf(level, added));
  // default-value tables are frozen with the base; a dictionary without any gets them when samples first come
  const evolved: Dictionary = { ...previous, name: ir.name, source: ir.source, extensions, retired };
  const dictionary = hasTables(previous) || options.profile === undefined ? evolved : withTables(ir, evolved, options.profile);
  return { dictionary, findings, added: addedPaths, retired: retiredPaths };
}

function hasPath(d: Dictionary, path: string): boolean {
  return [d.base, ...d.extensions].some((s) => s.entries.some((e) => e.path === path));
}

function describeFacts(e: Draft): string {
  return e.type + (e.format ? ` (${e.format})` : "") + (e.int64 ? " (int64)" : "") + (e.ref ? ` ${e.ref}` : "");
}

/** Checks that need no schema: hand edits to frozen segments, ID reuse. */
export function integrityFindings(d: Dictionary): Finding[] {
  const out: Finding[] = [];
  const check = (s: Segment, what: string, rule: Rule) => {
    const fp = fingerprintOf(canonicalForm(s.entries));
    if (fp.hash64 !== s.hash64 || fp.fingerprint !== s.fingerprint) {
      out.push({
        rule,
        path: "$",
        breaking: true,
        message: `the ${what} of dictionary ${d.name} was edited by hand (its entries hash to ${fp.hash64}, fingerprint 0x${fp.fingerprint.toString(16).padStart(4, "0")}; the file says ${s.hash64}, 0x${s.fingerprint.toString(16).padStart(4, "0")})`,
        fix: "restore the dictionary file from git (git checkout -- <file>); to change the base, rebase",
      });
    }
  };
  check(d.base, "base segment", "base-edited");
  if (!tablesIntact(d)) {
    out.push({
      rule: "defaults-edited",
      path: "$",
      breaking: true,
      message: `the default-value tables of dictionary ${d.name} were edited by hand (they no longer hash to ${d.defaults!.hash64})`,
      fix: "restore the dictionary file from git (git checkout -- <file>); to change the tables, rebase",
    });
  }
  d.extensions.forEach((s) => check(s, `extension segment ${s.level}`, "segment-edited"));
  const retiredIds = new Map(d.retired.map((r) => [r.id, r.path]));
  const seen = new Map<number, string>();
  for (const s of [d.base, ...d.extensions]) {
    for (const e of s.entries) {
      const owner = seen.get(e.id);
      if (owner !== undefined && owner !== e.path) {
        out.push({ rule: "duplicate-id", path: e.path, breaking: true, message: `ID ${e.id} is used by both ${owner} and ${e.path}`, fix: "restore the dictionary file from git" });
      }
      seen.set(e.id, e.path);
      const r = retiredIds.get(e.id);
      if (r !== undefined && r !== e.path) {
        out.push({ rule: "retired-reused", path: e.path, breaking: true, message: `ID ${e.id} was retired (${r}) and must never be reused`, fix: "restore the dictionary file from git" });
      }
    }
  }
  return out;
}
