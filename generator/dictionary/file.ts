/**
 * The dictionary file users commit (docs/EVOLUTION.md): pretty JSON with one entry per line and a stable key
 * order, so `git diff` shows exactly which paths came and went.
 */
import { ToonError } from "../../runtime/wire/errors.ts";
import type { SchemaIR } from "../ir/types.ts";
import type { DictionaryEntry } from "./build.ts";
import { evolveDictionary } from "./evolve.ts";
import { DICTIONARY_FORMAT } from "./format.ts";
import type { DefaultTables, Dictionary, Segment } from "./types.ts";

export { DICTIONARY_FORMAT };
// the file's readers (the programmatic API, inspect, tests) name its types where they read it
export type { DefaultTableEntry, DefaultTables, Dictionary, RetiredEntry, Segment } from "./types.ts";

/**
 * Build the dictionary of `ir`, evolving `previous` (the committed file) when given: IDs stay, new paths go to a
 * new extension segment, removed ones are retired. Throws SCHEMA_ERROR on a breaking change unless `rebase`.
 * Segments keep their entries in the order they were hashed (wire order), so the file can be re-verified.
 */
export function buildDictionary(ir: SchemaIR, previous?: Dictionary, options: { rebase?: boolean } = {}): Dictionary {
  const result = evolveDictionary(ir, previous, options);
  const breaking = result.findings.filter((f) => f.breaking);
  if (breaking.length > 0) {
    throw new ToonError("SCHEMA_ERROR", `${ir.source}: ${breaking.length} breaking change(s) against the previous dictionary`, {
      details: breaking.map((f) => ({ path: f.path, message: `[${f.rule}] ${f.message}; fix: ${f.fix}` })),
    });
  }
  return result.dictionary;
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
    `  "retired": [${d.retired.length === 0 ? "" : "\n" + d.retired.map((r) => `    ${JSON.stringify({ id: r.id, path: r.path, retiredAt: r.retiredAt })}`).join(",\n") + "\n  "}]` +
    (d.defaults === undefined
      ? ""
      : `,\n  "defaults": {\n    "fingerprint": ${JSON.stringify(hexFingerprint(d.defaults.fingerprint))},\n    "hash64": ${JSON.stringify(d.defaults.hash64)},\n    "tables": [` +
        d.defaults.tables.map((t) => `\n      ${JSON.stringify({ id: t.id, path: t.path, values: t.values })}`).join(",") +
        `${d.defaults.tables.length === 0 ? "" : "\n    "}]\n  }`) +
    `\n}\n`
  );
}

const ENTRY_KEYS = ["id", "path", "type", "required", "format", "int64", "closed", "values", "value", "ref", "intern"] as const;

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
  const out: Dictionary = { ...dict, base: fix(dict.base), extensions: (dict.extensions ?? []).map(fix), retired: dict.retired ?? [] };
  const defaults = (dict as { defaults?: unknown }).defaults as (DefaultTables & { fingerprint: unknown }) | undefined;
  if (defaults !== undefined) {
    if (typeof defaults !== "object" || defaults === null || !Array.isArray(defaults.tables) || typeof defaults.hash64 !== "string") {
      throw new ToonError("IO_ERROR", `${file}: "defaults" must be an object with "fingerprint", "hash64" and "tables"`);
    }
    out.defaults = { ...defaults, fingerprint: typeof defaults.fingerprint === "string" ? parseInt(defaults.fingerprint, 16) : Number(defaults.fingerprint) };
  }
  return out;
}
