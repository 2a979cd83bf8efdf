/**
 * What a dictionary is (docs/EVOLUTION.md), as the stages hand it over: apart from file.ts, which builds, reads
 * and writes one, so the stages under it (samples, interning, the wire layout) name it without importing its
 * builder.
 */
import type { DictionaryEntry } from "./build.ts";
import type { DICTIONARY_FORMAT } from "./format.ts";

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

/** One path's default-value table (docs/FORMAT.md §10.1). */
export interface DefaultTableEntry {
  id: number;
  path: string;
  values: (string | number)[];
}

/**
 * The default-value tables (generator/samples/tables.ts): frozen once written, like the base. Their fingerprint
 * (of the base's canonical form and the tables) is the one DEFAULTS messages carry.
 */
export interface DefaultTables {
  fingerprint: number;
  hash64: string;
  tables: DefaultTableEntry[];
}

export interface Dictionary {
  format: typeof DICTIONARY_FORMAT;
  name: string;
  source: string;
  base: Segment;
  extensions: Segment[];
  retired: RetiredEntry[];
  /** Default-value tables, when the codec has any (absent: the file and the wire are as without the feature). */
  defaults?: DefaultTables;
}
