/**
 * The strings of a schemaless message, both sides: the value table of STR positions and the prefixed forms
 * (a prefix of the previous string of the same site or of the message, then a suffix). The dictionary and the
 * body share one table, so this is its own module.
 */
import type { Reader } from "../wire/reader.ts";
import type { Writer } from "../wire/writer.ts";
import { readUtf8, writeUtf8 } from "../wire/utf8.ts";
import { INTERN_MAX_BYTES } from "../wire/wire.ts";
import { MAX_PREFIX, NODE_BUDGET_BASE, PREFIX_BUDGET_FACTOR, type SchemalessType } from "./types.ts";
import { utf8Length, varintSize } from "./json-values.ts";

/**
 * Strings at STR positions (and STR map keys, and the strings of the dictionary) have a table of their own, the
 * *value table*, and two more forms: a prefix of an earlier string followed by a suffix (URLs, paths and IDs
 * share long prefixes). The earlier string is either the previous string of the same *site* (the same slot of
 * the same dictionary type: the `url` of the previous array element) or the previous string of the message.
 *
 *   h even        a literal of h/2 UTF-8 bytes (h = 0: the empty string)
 *   h = 4i + 1    a reference to entry i of the value table
 *   h = 8p + 3    the first p code points of the site's previous string, then varint n and an n-byte suffix
 *   h = 8p + 7    the same from the message's previous string
 *
 * Literals and prefixed strings of 1..256 UTF-8 bytes (the whole string) enter the value table.
 */
export interface SchemalessSite {
  /** The last string read or written at this site ("" before the first). */
  prev: string;
}

/** Common prefix of `a` and `b`: UTF-16 units (never splitting a surrogate pair) and code points. */
function commonPrefix(a: string, b: string): { units: number; points: number } {
  const max = Math.min(a.length, b.length);
  let u = 0;
  while (u < max && a.charCodeAt(u) === b.charCodeAt(u)) u++;
  if (u > 0 && u < b.length) {
    const c = b.charCodeAt(u - 1);
    if (c >= 0xd800 && c < 0xdc00) u--;
  }
  let p = u;
  for (let i = 0; i < u; i++) {
    const c = b.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00) {
      p--;
      i++;
    }
  }
  if (p > MAX_PREFIX) {
    // stay within the limit: the first MAX_PREFIX code points
    u = 0;
    for (let i = 0; i < MAX_PREFIX; i++) u += b.charCodeAt(u) >= 0xd800 && b.charCodeAt(u) < 0xdc00 ? 2 : 1;
    p = MAX_PREFIX;
  }
  return { units: u, points: p };
}

export class StrWriter {
  private table = new Map<string, number>();
  private prev = "";
  /** Code points copied by prefixed strings so far (bounded, see PREFIX_BUDGET_FACTOR). */
  private copied = 0;
  /** Canonical id of a type: types the dictionary writes once (REF) share their sites, as in the decoder. */
  canon: (t: SchemalessType) => number = () => 0;
  private shared = new Map<number, SchemalessSite[]>();

  sitesOf(t: SchemalessType & { sites?: SchemalessSite[] }): SchemalessSite[] {
    let s = t.sites;
    if (s === undefined) {
      const id = this.canon(t);
      s = this.shared.get(id);
      if (s === undefined) this.shared.set(id, (s = []));
      t.sites = s;
    }
    return s;
  }

  write(w: Writer, s: string, site?: SchemalessSite): void {
    const prev = this.prev;
    this.prev = s;
    const sitePrev = site === undefined ? "" : site.prev;
    if (site !== undefined) site.prev = s;
    if (s.length === 0) {
      w.byte(0);
      return;
    }
    const ref = this.table.get(s);
    if (ref !== undefined) {
      w.varint(ref * 4 + 1);
      return;
    }
    const len = utf8Length(s);
    if (len <= INTERN_MAX_BYTES) this.table.set(s, this.table.size);
    let best = varintSize(2 * len) + len;
    let form = 0;
    let chosen = { units: 0, points: 0 };
    for (const [from, tag] of [
      [sitePrev, 3],
      [prev, 7],
    ] as const) {
      if (from.length < 3) continue;
      const c = commonPrefix(from, s);
      if (c.points < 3) continue;
      const suffixLen = len - utf8Length(s.slice(0, c.units));
      const cost = varintSize(8 * c.points + tag) + varintSize(suffixLen) + suffixLen;
      if (cost < best) {
        best = cost;
        form = tag;
        chosen = c;
      }
    }
    if (form !== 0 && this.copied + chosen.points <= PREFIX_BUDGET_FACTOR * w.pos + NODE_BUDGET_BASE) {
      this.copied += chosen.points;
      const suffix = s.slice(chosen.units);
      const suffixLen = utf8Length(suffix);
      w.varint(8 * chosen.points + form);
      w.varint(suffixLen);
      utf8Bytes(w, suffix, suffixLen);
      return;
    }
    w.varint(2 * len);
    utf8Bytes(w, s, len);
  }
}

function utf8Bytes(w: Writer, s: string, len: number): void {
  w.ensure(len);
  w.pos = writeUtf8(s, w.buf, w.pos);
}

/** The decoder's side of STR strings (see StrWriter): the value table and the previous string. */
export class SchemalessStrings {
  readonly table: string[] = [];
  prev = "";
  copied = 0;

  constructor(private readonly prefixBudget: number) {}

  /** One string; `site` is undefined in the dictionary (no site form there). */
  read(r: Reader, site?: SchemalessSite): string {
    const h = r.varint();
    let s: string;
    if (h % 2 === 0) {
      const n = h / 2;
      s = n === 0 ? "" : this.utf8(r, n);
      if (n > 0 && n <= INTERN_MAX_BYTES) this.table.push(s);
    } else if (h % 4 === 1) {
      const e = this.table[(h - 1) / 4];
      if (e === undefined) throw r.fail("INVALID_ENCODING", "string reference to an unknown entry");
      s = e;
    } else {
      const fromSite = h % 8 === 3;
      const p = (h - (fromSite ? 3 : 7)) / 8;
      if (p === 0 || p > MAX_PREFIX) throw r.fail("INVALID_ENCODING", `string prefix of ${p} code points (1..${MAX_PREFIX})`);
      if (fromSite && site === undefined) throw r.fail("INVALID_ENCODING", "a site prefix in the dictionary");
      if ((this.copied += p) > this.prefixBudget) throw r.fail("INVALID_ENCODING", `prefixed strings copy more than ${this.prefixBudget} code points (the message's length allows no more)`);
      const prev = fromSite ? site!.prev : this.prev;
      let u = 0;
      for (let i = 0; i < p; i++) {
        if (u >= prev.length) throw r.fail("INVALID_ENCODING", `string prefix of ${p} code points, but the earlier string has fewer`);
        const c = prev.charCodeAt(u);
        u += c >= 0xd800 && c < 0xdc00 ? 2 : 1;
      }
      const n = r.varint();
      const prefix = prev.slice(0, u);
      s = n === 0 ? prefix : prefix + this.utf8(r, n);
      if (utf8Length(prefix) + n <= INTERN_MAX_BYTES) this.table.push(s);
    }
    this.prev = s;
    if (site !== undefined) site.prev = s;
    return s;
  }

  private utf8(r: Reader, n: number): string {
    if (n > r.end - r.pos) throw r.truncated();
    const s = readUtf8(r.buf, r.pos, n);
    if (s === undefined) throw r.fail("INVALID_UTF8", "string is not well-formed UTF-8");
    r.pos += n;
    return s;
  }
}

/** The body: `v` encoded with the type inferred for it. */
/** The site of slot `i` (created on first use). */
export function siteAt(sites: SchemalessSite[], i: number): SchemalessSite {
  return (sites[i] ??= { prev: "" });
}
