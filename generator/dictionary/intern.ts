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
import type { Dictionary } from "./types.ts";
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

/**
 * Numbers one event gets (a parcel's tracking number, an invoice's number): unique like an id, under any owner.
 * A phone, house or account number is not among them: it recurs with its customer or address.
 */
const EVENT_NUMBER = /^(tracking|invoice|serial|confirmation|receipt|transaction)(number|no|id|code)$/i;

/** Suffixes that make a property its owner's own identifier when the rest of the name is the owner's (`Order.orderNumber`). */
const OWN_ID_SUFFIX = /^(.*?)(id|number|no|key|code|ref)$/i;

/**
 * Free text a person writes (a note at checkout, a description): the same words rarely come twice in one message.
 * Machine-written text (an error message, a status line) is not listed: it repeats.
 */
const FREE_TEXT_NAME = /^(note|notes|comment|comments|description|summary|remarks|instructions|bio|feedback|review|body)$/i;

/**
 * Values this short (UTF-16 units, from `maxLength` or the pattern) do not intern: a literal of n bytes costs 1 + n,
 * a reference 1 or 2, so a repeat saves at most n bytes, while every value pays a table lookup and insert on both
 * sides (country and currency codes, a card's last four digits).
 */
export const SHORT_STRING_MAX = 4;

/** A fixed-width token of this many characters or more from one class (`^[0-9a-f]{32}$`, `^rpt_[0-9a-z]{12}$`) is an identifier or a hash. */
export const TOKEN_MIN_RUN = 8;

type Draft = Omit<DictionaryEntry, "id">;

export interface Site {
  shape: Extract<Shape, { kind: "string" }>;
  /** The property name the string is the value of, when it is one. */
  name: string | undefined;
  /**
   * What the object holding that property is called: its definition's name, or the property (an array's items:
   * the array's property) it is the value of. Undefined at the root and under maps and tuples.
   */
  owner?: string | undefined;
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
  // name: the property the shape is the value of (an array's items keep the array's); owner: what the object
  // holding that property is called (the property it is the value of, else its definition's name)
  const walk = (s: Shape, path: string, name: string | undefined, owner: string | undefined, multi: boolean): void => {
    switch (s.kind) {
      case "string":
        // only plain strings have literals to intern: every other format (date-time, uuid, int64 ...) has its own encoding
        if (formatOf(s).name === "string") out.set(path, { shape: s, name, owner, multi });
        return;
      case "object":
        for (const p of s.properties) walk(p.shape, propertySegment(path, p.name), p.name, name ?? owner, multi);
        if (s.additional !== false) walk(s.additional, mapSegment(path), undefined, undefined, true);
        return;
      case "array":
        walk(s.items, itemsSegment(path), name, owner, true);
        return;
      case "tuple":
        s.items.forEach((item, i) => walk(item, tupleSegment(path, i), undefined, undefined, multi));
        if (s.rest !== false) walk(s.rest, tupleSegment(path, "rest"), undefined, undefined, true);
        return;
      case "union":
        s.branches.forEach((b, i) => walk(b, branchSegment(path, i), name, owner, multi));
        return;
      default:
        return;
    }
  };
  walk(ir.root, "$", undefined, undefined, false);
  for (const d of ir.definitions) walk(d.shape, definitionRoot(d.name), undefined, d.name, multiDef.has(d.name));
  return out;
}

/** `orders` → `order`, `addresses` → `address`, `entries` → `entry`: enough to compare an owner with a property name's stem. */
function singular(word: string): string {
  const w = word.toLowerCase();
  if (w.endsWith("ies")) return w.slice(0, -3) + "y";
  if (/(ss|x|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

/** Whether `name` is the identifier of the object it belongs to: `orderNumber` in `Order`, `order_id` in `orders[]`. */
export function isOwnIdentifier(name: string, owner: string | undefined): boolean {
  if (owner === undefined) return false;
  const m = OWN_ID_SUFFIX.exec(name);
  if (m === null) return false;
  const stem = m[1]!.replace(/[_-]$/, "").toLowerCase();
  return stem !== "" && singular(stem) === singular(owner.replace(/[_-]/g, ""));
}

/**
 * The most UTF-16 units a pattern lets a value have, when the pattern is an anchored sequence of single
 * characters and classes with bounded counts (`^[A-Z]{2}$`, `^\+[1-9][0-9]{6,14}$`); else undefined. `run` is the
 * longest fixed count of one class (`{32}` in `^[0-9a-f]{32}$`): a token, when long.
 */
export function patternBounds(pattern: string): { max: number; run: number } | undefined {
  if (!pattern.startsWith("^") || !pattern.endsWith("$") || pattern.endsWith("\\$")) return undefined;
  const src = pattern.slice(1, -1);
  let max = 0;
  let run = 0;
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    let isClass = false;
    if (c === "[") {
      // to the closing bracket: escapes skipped, a "]" right after "[" or "[^" is a member
      let j = i + 1;
      if (src[j] === "^") j++;
      if (src[j] === "]") j++;
      while (j < src.length && src[j] !== "]") j += src[j] === "\\" ? 2 : 1;
      if (j >= src.length) return undefined;
      i = j + 1;
      isClass = true;
    } else if (c === ".") {
      i++;
      isClass = true;
    } else if (c === "\\") {
      const e = src[i + 1];
      if (e === undefined) return undefined;
      // \d \w: classes; \+ \. \- ...: the character; anything else (\b, \p{...}, backreferences) is left alone
      if (e === "d" || e === "w") isClass = true;
      else if (!/[\\^$.|?*+()[\]{}\/-]/.test(e)) return undefined;
      i += 2;
    } else if ("()|*+?{}".includes(c)) {
      return undefined;
    } else {
      i++;
    }
    let lo = 1;
    let hi = 1;
    const q = /^\{(\d+)(,(\d+))?\}|^\?/.exec(src.slice(i));
    if (q !== null) {
      if (q[0] === "?") {
        lo = 0;
      } else {
        lo = Number(q[1]);
        hi = q[2] === undefined ? lo : Number(q[3]);
      }
      i += q[0].length;
    }
    max += hi;
    if (isClass && lo === hi) run = Math.max(run, hi);
  }
  return { max, run };
}

/**
 * The schema's word on a repeatable plain-string path (no samples reach it): false when its values are an
 * identifier (a unique name, an event's number, its object's own id, a fixed-width token), person-written free
 * text, or so short that a reference saves next to nothing; true otherwise (names, titles, cities, e-mails, tags,
 * product ids: what a list repeats).
 */
export function schemaSaysIntern(site: Site): boolean {
  const name = site.name;
  if (name !== undefined && (UNIQUE_NAME.test(name) || EVENT_NUMBER.test(name) || FREE_TEXT_NAME.test(name) || isOwnIdentifier(name, site.owner))) {
    return false;
  }
  const c = site.shape.constraints;
  const bounds = c?.pattern !== undefined ? patternBounds(c.pattern) : undefined;
  const max = Math.min(c?.maxLength ?? Infinity, bounds?.max ?? Infinity);
  if (max <= SHORT_STRING_MAX) return false;
  if (bounds !== undefined && bounds.run >= TOKEN_MIN_RUN) return false;
  return true;
}

/**
 * Whether a path interns. With samples: the share of its occurrences (values its default-value table would take
 * left out) that repeat a value already seen in the same message. Without (or when the samples never reach it):
 * a path that occurs at most once per message cannot repeat; one that can is interned unless the schema says its
 * values are identifiers, free text or very short (schemaSaysIntern).
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
  return schemaSaysIntern(site);
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
