/**
 * `toon-gen inspect`: what a message is (header, flags by name, which dictionary it matches), its dictionary
 * table, the decoded tree and where its bytes go, per dictionary path. Works on truncated and corrupt input:
 * the report then shows what decoded and where decoding stopped.
 *
 * Which dictionary: with `--schema`, the schema's (its committed dictionary when ./toon.config.json lists it,
 * as `toon-gen decode` does) and whether the fingerprints match; without, the dictionaries in the
 * `dictionaryDir` of ./toon.config.json whose fingerprint is the message's (the body is then decoded with the
 * schema that produced that dictionary, found by a dry run of `generate`). Schemaless messages carry theirs.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { buildDictionary, parseDictionary, type Dictionary } from "../dictionary/file.ts";
import { initHash } from "../dictionary/hash.ts";
import type { DictionaryEntry } from "../dictionary/build.ts";
import type { SchemaIR } from "../ir/types.ts";
import { loadSchemaFile } from "../load/index.ts";
import { generate } from "../pipeline.ts";
import { committedDictionary, DEFAULT_CONFIG_FILE, loadConfig } from "../cli/config.ts";
import { ToonError } from "../../runtime/wire/errors.ts";
import { hex16, peekHeader, type Header } from "../../runtime/wire/header.ts";
import { Reader } from "../../runtime/wire/reader.ts";
import { FORMAT_VERSION, Flag, KNOWN_FLAGS, MAGIC, SCHEMALESS_FLAGS } from "../../runtime/wire/wire.ts";
import { codecFingerprint, hasTables } from "../samples/tables.ts";
import { walkSchemaMessage, walkSchemalessMessage, type PathRow, type WalkError, type WalkResult } from "./walk.ts";
import { useZstd } from "./zstd.ts";

export interface InspectOptions {
  /** Schema file (relative to cwd) to decode with. */
  schema?: string;
  /** Dictionary file to use with `schema` (default: the committed one, or a fresh one). */
  dictionary?: string;
  cwd: string;
}

export interface DictionaryMatch {
  /** `fixed`: a dictionary named by fingerprint; `embedded`: schemaless; `none`: no header to tell. */
  kind: "fixed" | "embedded" | "none";
  /** How it was looked for: `--schema`, `toon.config.json`, or nothing found to compare with. */
  via: "--schema" | "toon.config.json" | "embedded" | "none";
  /** The codec the matching dictionary belongs to. */
  name?: string;
  /** Its dictionary file, relative to cwd (when there is one). */
  file?: string;
  /** The fingerprint of the dictionary compared with (for --schema). */
  fingerprint?: string;
  matches: boolean;
  /** Every dictionary with the message's fingerprint (more than one: 16-bit fingerprints collide). */
  candidates?: { name: string; file: string }[];
  /** Why the body could not be decoded, when it was not. */
  note?: string;
  bytes?: number;
  entries: { id: number; path: string; type: string }[];
}

export interface InspectReport {
  file: string;
  bytes: number;
  header: {
    magic: boolean;
    version?: number;
    flags?: number;
    flagNames?: string[];
    fingerprint?: string;
    level?: number;
    bytes: number;
  };
  compression?: { algorithm: string; storedBytes: number; inflatedBytes: number };
  dictionary: DictionaryMatch;
  /** The decoded value (partial when `complete` is false); absent when the body was not decoded at all. */
  value?: unknown;
  complete: boolean;
  error?: WalkError;
  /** Per path, sorted by TOON bytes (the waste still on the wire), largest first. */
  paths: PathRow[];
  totals: { toonBytes: number; jsonBytes: number };
}

const FLAG_NAMES = Object.entries(Flag) as [string, number][];

export function flagNames(flags: number): string[] {
  const names: string[] = [];
  let rest = flags;
  for (const [n, bit] of FLAG_NAMES) {
    if (flags & bit) {
      names.push(n);
      rest &= ~bit;
    }
  }
  for (let b = 0; b < 16; b++) if (rest & (1 << b)) names.push(`unassigned bit ${b} (${hex16(1 << b)})`);
  return names;
}

function rel(cwd: string, file: string): string {
  return path.relative(cwd, file).split(path.sep).join("/") || ".";
}

function entryType(e: DictionaryEntry): string {
  let t = e.type;
  if (e.format !== undefined) t += ` (${e.format})`;
  if (e.int64) t += " (int64)";
  if (e.values !== undefined) t += ` ${JSON.stringify(e.values).slice(0, 60)}`;
  if (e.value !== undefined) t += ` ${JSON.stringify(e.value).slice(0, 60)}`;
  if (e.ref !== undefined) t += ` -> #${e.ref}`;
  if (e.required === false) t += ", optional";
  if (e.closed) t += ", closed";
  return t;
}

function dictionaryEntries(d: Dictionary): { id: number; path: string; type: string }[] {
  const out: { id: number; path: string; type: string }[] = [];
  const tables = new Map((d.defaults?.tables ?? []).map((t) => [t.path, t.values]));
  for (const seg of [d.base, ...d.extensions]) {
    for (const e of seg.entries) {
      const table = tables.get(e.path);
      const extra = (seg.level > 0 ? ` [level ${seg.level}]` : "") + (table === undefined ? "" : `, default table ${JSON.stringify(table).slice(0, 60)}`);
      out.push({ id: e.id, path: e.path, type: entryType(e) + extra });
    }
  }
  return out.sort((a, b) => a.id - b.id);
}

/** Header fields as far as the bytes go (also for a header that is cut short). */
function headerOf(bytes: Uint8Array): { header?: Header; info: InspectReport["header"] } {
  const magic = MAGIC.every((m, i) => i >= bytes.length || bytes[i] === m) && bytes.length > 0;
  const info: InspectReport["header"] = { magic, bytes: 0 };
  if (!magic) return { info };
  if (bytes.length > 4) info.version = bytes[4];
  if (bytes.length > 6) {
    info.flags = (bytes[5]! << 8) | bytes[6]!;
    info.flagNames = flagNames(info.flags);
  }
  try {
    const r = new Reader(bytes);
    const header = peekHeader(r);
    if (header.fingerprint !== undefined) info.fingerprint = hex16(header.fingerprint);
    info.level = header.level;
    info.bytes = r.pos;
    return { header, info };
  } catch {
    if (info.flags !== undefined && info.flags & Flag.FIXED_DICTIONARY && bytes.length >= 9) info.fingerprint = hex16((bytes[7]! << 8) | bytes[8]!);
    info.bytes = Math.min(bytes.length, 9);
    return { info };
  }
}

interface Codec {
  ir: SchemaIR;
  dictionary: Dictionary;
  name: string;
  file?: string;
}


function readDictionaryFile(file: string): Dictionary {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ToonError("IO_ERROR", `cannot read ${file}: ${(e as Error).message}`);
  }
  return parseDictionary(text, file);
}

async function codecFromSchema(options: InspectOptions): Promise<Codec> {
  await initHash();
  const ir = await loadSchemaFile(options.schema!, { cwd: options.cwd });
  const file = options.dictionary !== undefined ? path.resolve(options.cwd, options.dictionary) : committedDictionary(options.schema!, options.cwd);
  const previous = file === undefined ? undefined : readDictionaryFile(file);
  const codec: Codec = { ir, dictionary: buildDictionary(ir, previous), name: ir.name };
  if (file !== undefined) codec.file = rel(options.cwd, file);
  return codec;
}

/** Dictionaries in the config's dictionaryDir with this fingerprint, and the codec of the first (dry-run generate). */
async function codecFromConfig(fingerprint: number, cwd: string, match: DictionaryMatch): Promise<Codec | undefined> {
  if (!existsSync(path.join(cwd, DEFAULT_CONFIG_FILE))) {
    match.note = `no --schema and no ${DEFAULT_CONFIG_FILE} in the working directory: pass --schema <schema.json> to decode the body`;
    return undefined;
  }
  const { config, baseDir } = loadConfig(undefined, cwd);
  const dir = path.resolve(baseDir, config.dictionaryDir);
  match.via = "toon.config.json";
  const candidates: { name: string; file: string; dict: Dictionary }[] = [];
  if (existsSync(dir)) {
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith(".dictionary.json")) continue;
      try {
        const d = readDictionaryFile(path.join(dir, f));
        if (codecFingerprint(d) === fingerprint || d.base.fingerprint === fingerprint) candidates.push({ name: d.name, file: rel(cwd, path.join(dir, f)), dict: d });
      } catch {
        /* not a dictionary: skip */
      }
    }
  }
  match.candidates = candidates.map(({ name, file }) => ({ name, file }));
  if (candidates.length === 0) {
    match.note = `no dictionary in ${rel(cwd, dir)} has fingerprint ${hex16(fingerprint)}: pass --schema <schema.json> to decode the body`;
    return undefined;
  }
  const first = candidates[0]!;
  match.matches = true;
  match.name = first.name;
  match.file = first.file;
  if (candidates.length > 1) match.note = `${candidates.length} dictionaries share fingerprint ${hex16(fingerprint)} (16-bit fingerprints collide); decoded with ${first.name}`;
  try {
    const run = await generate(config, { cwd: baseDir, dryRun: true });
    const s = run.schemas.find((x) => x.ir.name === first.name && codecFingerprint(x.dictionary) === fingerprint) ?? run.schemas.find((x) => x.ir.name === first.name);
    if (s === undefined) {
      match.note = `dictionary ${first.name} matches, but no input of ${DEFAULT_CONFIG_FILE} generates it: pass --schema to decode the body`;
      return undefined;
    }
    return { ir: s.ir, dictionary: s.dictionary, name: s.ir.name, file: first.file };
  } catch (e) {
    match.note = `dictionary ${first.name} matches, but its schema could not be loaded (${(e as Error).message}): pass --schema`;
    return undefined;
  }
}

export async function inspectMessage(bytes: Uint8Array, file: string, options: InspectOptions): Promise<InspectReport> {
  const { header, info } = headerOf(bytes);
  const report: InspectReport = {
    file,
    bytes: bytes.length,
    header: info,
    dictionary: { kind: "none", via: "none", matches: false, entries: [] },
    complete: false,
    paths: [],
    totals: { toonBytes: 0, jsonBytes: 0 },
  };
  let walk: WalkResult | undefined;
  const stop = (code: string, message: string, offset?: number): void => {
    report.error = { code, message, path: "" };
    if (offset !== undefined) report.error.offset = offset;
  };
  if (header === undefined) {
    // not even a header: say why, as a decoder would
    try {
      peekHeader(new Reader(bytes));
    } catch (e) {
      if (e instanceof ToonError) stop(e.code, e.message, e.offset);
      else throw e;
    }
    report.paths = info.bytes > 0 ? [{ path: "(header)", count: 1, toonBytes: info.bytes, jsonBytes: 0 }] : [];
  } else if (header.version !== FORMAT_VERSION) {
    stop("UNSUPPORTED_VERSION", `format version ${header.version}; this inspector reads version ${FORMAT_VERSION}`, 4);
  } else {
    if (header.flags & Flag.COMPRESSED) {
      try {
        await useZstd();
      } catch {
        /* the walk reports UNSUPPORTED_FLAGS with how to register a decompressor */
      }
    }
    if (header.flags & Flag.EMBEDDED_DICTIONARY) {
      report.dictionary = { kind: "embedded", via: "embedded", matches: true, entries: [] };
      const unknown = header.flags & ~SCHEMALESS_FLAGS;
      if (unknown !== 0) stop("UNSUPPORTED_FLAGS", `header flags ${hex16(unknown)} are not supported by the schemaless decoder`, 5);
      else {
        walk = walkSchemalessMessage(bytes);
        report.dictionary.bytes = walk.embedded?.bytes ?? 0;
        report.dictionary.entries = walk.embedded?.entries ?? [];
      }
    } else if (header.fingerprint === undefined) {
      stop("FINGERPRINT_MISMATCH", "message has neither a dictionary fingerprint nor an embedded dictionary", 5);
    } else {
      const fp = header.fingerprint;
      const match: DictionaryMatch = { kind: "fixed", via: "none", matches: false, entries: [] };
      report.dictionary = match;
      let codec: Codec | undefined;
      if (options.schema !== undefined) {
        match.via = "--schema";
        codec = await codecFromSchema(options);
        match.name = codec.name;
        if (codec.file !== undefined) match.file = codec.file;
        match.fingerprint = hex16(codecFingerprint(codec.dictionary));
        match.matches = codecFingerprint(codec.dictionary) === fp;
        if (!match.matches) {
          match.note = `the message was written with dictionary ${hex16(fp)}, but ${codec.name} (${options.schema}) has ${match.fingerprint}: the body is not decoded with it`;
        }
      } else {
        codec = await codecFromConfig(fp, options.cwd, match);
      }
      if (codec !== undefined) match.entries = dictionaryEntries(codec.dictionary);
      // DEFAULTS: only with a dictionary that has default-value tables (docs/FORMAT.md §10.1)
      const unknown = header.flags & ~(KNOWN_FLAGS | (codec !== undefined && hasTables(codec.dictionary) ? Flag.DEFAULTS : 0));
      if (codec === undefined || !match.matches) {
        /* the body is not decoded: the note says why */
      } else if (unknown !== 0) stop("UNSUPPORTED_FLAGS", `header flags ${hex16(unknown)} are not supported by this inspector`, 5);
      else walk = walkSchemaMessage(bytes, codec.ir, codec.dictionary);
    }
  }
  if (walk !== undefined) {
    if (walk.compression) report.compression = walk.compression;
    if (walk.value !== undefined) report.value = walk.value;
    report.complete = walk.complete;
    if (walk.error) report.error = walk.error;
    report.paths = walk.rows;
    const accounted = walk.rows.reduce((n, r) => n + r.toonBytes, 0);
    if (walk.decodedBytes > accounted) report.paths.push({ path: "(not decoded)", count: 1, toonBytes: walk.decodedBytes - accounted, jsonBytes: 0 });
  } else if (report.paths.length === 0 && info.bytes > 0) {
    report.paths = [{ path: "(header)", count: 1, toonBytes: info.bytes, jsonBytes: 0 }];
    if (bytes.length > info.bytes) report.paths.push({ path: "(body, not decoded)", count: 1, toonBytes: bytes.length - info.bytes, jsonBytes: 0 });
  }
  report.paths = report.paths.filter((p) => p.toonBytes > 0 || p.jsonBytes > 0);
  report.paths.sort((a, b) => b.toonBytes - a.toonBytes || b.jsonBytes - a.jsonBytes || (a.path < b.path ? -1 : 1));
  for (const p of report.paths) {
    report.totals.toonBytes += p.toonBytes;
    report.totals.jsonBytes += p.jsonBytes;
  }
  return report;
}
