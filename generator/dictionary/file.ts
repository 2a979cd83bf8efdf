/**
 * The dictionary file users commit (docs/EVOLUTION.md): pretty JSON with one entry per line and a stable key
 * order, so `git diff` shows exactly which paths came and went.
 */
import { ToonError } from "../../runtime/errors.ts";
import type { SchemaIR } from "../ir/types.ts";
import { assignIds, canonicalForm, collectEntries, type DictionaryEntry } from "./build.ts";
import { fingerprintOf } from "./hash.ts";

export const DICTIONARY_FORMAT = "toon-gen/dictionary@1";

export interface Segment {
  /** 0 for the base; 1, 2, ... for extension segments. */
  level: number;
  fingerprint: number;
  hash64: string;
  entries: DictionaryEntry[];
}

export interface RetiredEntry {
  id: number;
  path: string;
  /** The segment level it was retired at. */
  retiredAt: number;
}

export interface Dictionary {
  format: typeof DICTIONARY_FORMAT;
  name: string;
  source: string;
  base: Segment;
  extensions: Segment[];
  retired: RetiredEntry[];
}

/** Build the dictionary of `ir`, keeping the IDs of `previous` (the committed file) where paths match. */
export function buildDictionary(ir: SchemaIR, previous?: Dictionary): Dictionary {
  const prevEntries = previous ? [...previous.base.entries, ...previous.extensions.flatMap((s) => s.entries)] : undefined;
  const entries = assignIds(collectEntries(ir), prevEntries ? { entries: prevEntries, retiredIds: previous!.retired.map((r) => r.id) } : undefined);
  const fp = fingerprintOf(canonicalForm(entries));
  return {
    format: DICTIONARY_FORMAT,
    name: ir.name,
    source: ir.source,
    base: { level: 0, fingerprint: fp.fingerprint, hash64: fp.hash64, entries: [...entries].sort((a, b) => a.id - b.id) },
    extensions: [],
    retired: previous?.retired ?? [],
  };
}

export function hexFingerprint(n: number): string {
  return "0x" + n.toString(16).padStart(4, "0");
}

/** Stable text form: fixed key order, one entry per line, trailing newline. */
export function formatDictionary(d: Dictionary): string {
  const seg = (s: Segment, pad: string): string =>
    `{\n${pad}  "level": ${s.level},\n${pad}  "fingerprint": ${JSON.stringify(hexFingerprint(s.fingerprint))},\n${pad}  "hash64": ${JSON.stringify(s.hash64)},\n${pad}  "entries": [\n` +
    s.entries.map((e) => `${pad}    ${formatEntry(e)}`).join(",\n") +
    `\n${pad}  ]\n${pad}}`;
  return (
    `{\n  "format": ${JSON.stringify(d.format)},\n  "name": ${JSON.stringify(d.name)},\n  "source": ${JSON.stringify(d.source)},\n` +
    `  "base": ${seg(d.base, "  ")},\n` +
    `  "extensions": [${d.extensions.length === 0 ? "" : "\n" + d.extensions.map((s) => "    " + seg(s, "    ")).join(",\n") + "\n  "}],\n` +
    `  "retired": [${d.retired.length === 0 ? "" : "\n" + d.retired.map((r) => `    ${JSON.stringify({ id: r.id, path: r.path, retiredAt: r.retiredAt })}`).join(",\n") + "\n  "}]\n}\n`
  );
}

const ENTRY_KEYS = ["id", "path", "type", "required", "format", "int64", "closed", "values", "value", "ref"] as const;

function formatEntry(e: DictionaryEntry): string {
  const o: Record<string, unknown> = {};
  for (const k of ENTRY_KEYS) if (e[k] !== undefined) o[k] = e[k];
  return JSON.stringify(o);
}

/** Parse and sanity-check a committed dictionary file. */
export function parseDictionary(text: string, file: string): Dictionary {
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch (e) {
    throw new ToonError("IO_ERROR", `${file}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  const dict = d as Dictionary & { base: Segment & { fingerprint: unknown }; extensions: (Segment & { fingerprint: unknown })[] };
  if (typeof d !== "object" || d === null || dict.format !== DICTIONARY_FORMAT || typeof dict.base !== "object" || !Array.isArray(dict.base?.entries)) {
    throw new ToonError("IO_ERROR", `${file}: not a toon-gen dictionary (expected "format": "${DICTIONARY_FORMAT}")`);
  }
  const fix = (s: Segment & { fingerprint: unknown }): Segment => ({ ...s, fingerprint: typeof s.fingerprint === "string" ? parseInt(s.fingerprint, 16) : Number(s.fingerprint) });
  return { ...dict, base: fix(dict.base), extensions: (dict.extensions ?? []).map(fix), retired: dict.retired ?? [] };
}
