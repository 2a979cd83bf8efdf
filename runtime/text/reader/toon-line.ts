/**
 * The TOON v4 reader's work on one line (runtime/text/reader/toon.ts drives it): classify a line (§5.2: a scalar,
 * a key-value line or an array/keyed header), parse headers and field lists, split cells, unescape quoted strings,
 * read number tokens. Everything here reads the current line only, by character code against the string the line
 * is a range of; only keys and string values are ever sliced out.
 *
 * Numbers, not named constants, with the name in a comment. A named constant costs twice over: a bundler keeps a
 * module's own constants as variables when the module imports anything (about 130 B gzipped of a text bundle), and
 * constants imported from a module of their own are live bindings that Node reads at every use when nothing
 * bundles (the decoder measured 5% slower). Line kinds (classify): 0 K_NONE no unquoted colon, a scalar line;
 * 1 K_KV a key-value line (s.key, s.vs set); 2 K_HDR an array or keyed header (s.hdr set).
 */

import { ToonError, pointerSegment } from "../../wire/errors.ts";
import { withFacts } from "./facts.ts";
import { setOwn } from "../../wire/objects.ts";
import { TextNumber } from "./text-number.ts";
import { POW10 } from "../../wire/writer.ts";

/** A parsed `{…}` field list, possibly with nested groups. */
export interface FieldGroup {
  names: string[];
  kids: (FieldGroup | null)[];
  leaves: number;
  proto: boolean;
  dup: string | null;
  /** The names as a set, once the list is long enough that scanning it for a duplicate would be quadratic. */
  seen: Set<string> | null;
}

// Plain objects, not classes: the target's class fields print every field twice (declaration and constructor
// assignment), and property names survive minification; one literal per type keeps one hidden class.

/** A parsed array / keyed header. */
export interface Header {
  key: string | null;
  len: number;
  keyed: boolean;
  delim: number;
  fields: FieldGroup | null;
  /** Inline values range on the header's line (empty when vs === ve). */
  vs: number;
  ve: number;
  /** Line and column of the `[` (count errors point there). */
  line: number;
  column: number;
}

/** What the line tokenizers read and leave behind: the current line and scratch results. */
export interface LineState {
  /** The string the current line is a range of. */
  t: string;
  /** The current line's number and the offset of its start in `t` (columns count from there). */
  ln: number;
  ls: number;
  /** Offset of the current line's content (after its indentation): where depth errors point. */
  la: number;
  /** The current line ends the text without a line break: a token that runs out of it ran into the input's end. */
  last: boolean;
  readonly strict: boolean;
  readonly maxDepth: number;
  /** Scratch results of classify / parseQuoted / parseFields. */
  key: string;
  vs: number;
  q: number;
  hdr: Header | null;
  /** Recently seen unquoted keys by (first character, length): the same key text is sliced (and internalized) once. */
  keys: (string | undefined)[];
  /** Scratch cell buffer for tabular rows and keyed entries, and the cell cursor. */
  cells: unknown[];
  ck: number;
  /** Exact-number mode: number tokens a double does not carry exactly become TextNumber. */
  readonly exact: boolean;
  /** How many TextNumber tokens were produced. */
  raws: number;
  /** Start offsets of the cells of the last splitCells call (position tracking only). */
  cpos: number[] | null;
}


/** Field lists up to this long are searched for duplicates by scanning; longer ones use a set. */
const DUP_SCAN_MAX = 16;

/** Whether `name` is already in `g` (a header of 20,000 field names must not take 20,000² comparisons). */
function hasName(g: FieldGroup, name: string): boolean {
  const names = g.names;
  if (names.length <= DUP_SCAN_MAX) return names.indexOf(name) >= 0;
  if (g.seen === null) g.seen = new Set(names);
  return g.seen.has(name);
}

// ---------------------------------------------------------------------------------------------------------------
// Errors

/** TEXT_SYNTAX (or `code`) at offset `pos` of the current line. */
export function errAt(s: LineState, reason: string, pos: number, code: "TEXT_SYNTAX" | "DEPTH_LIMIT" = "TEXT_SYNTAX"): ToonError {
  return new ToonError(code, reason, { line: s.ln, column: pos - s.ls + 1 });
}

/** An error where the line ran out before the token did: at the text's unterminated last line, the input's end. */
export function cutAt(s: LineState, reason: string, pos: number): ToonError {
  return withFacts(new ToonError("TEXT_SYNTAX", reason, { line: s.ln, column: pos - s.ls + 1 }), undefined, s.last);
}

export function depthErr(s: LineState): ToonError {
  return errAt(s, `nesting deeper than ${s.maxDepth} levels`, s.la, "DEPTH_LIMIT");
}

export function prefix(e: unknown, seg: string | number): unknown {
  if (e instanceof ToonError) e.prefixPath(pointerSegment(seg));
  return e;
}

function showDelim(c: number): string {
  return c === 9 /* tab */ ? "tab" : c === 124 /* | */ ? "'|'" : "','";
}

// ---------------------------------------------------------------------------------------------------------------
// Tokens

/** Index after the closing quote of the quoted run starting at `i` (or `end` when unterminated). */
function skipQuoted(t: string, i: number, end: number): number {
  i++;
  while (i < end) {
    const c = t.charCodeAt(i);
    if (c === 92 /* \ */) i += 2;
    else if (c === 34 /* " */) return i + 1;
    else i++;
  }
  return end;
}

/** First unquoted colon in [i, end), or -1. */
function findColon(t: string, i: number, end: number): number {
  while (i < end) {
    const c = t.charCodeAt(i);
    if (c === 58 /* : */) return i;
    if (c === 34 /* " */) i = skipQuoted(t, i, end);
    else i++;
  }
  return -1;
}

/** Four hex digits (a `\u` escape's); up to four, for an escape the line's end cut short. */
const HEX4 = /^[0-9a-fA-F]{4}$/;
const HEX_UPTO4 = /^[0-9a-fA-F]{0,3}$/;

/**
 * Parse the quoted string starting at `pos` (a `"`) within [pos, end); returns the unescaped value and sets
 * `s.q` to the index after the closing quote.
 */
export function parseQuoted(s: LineState, pos: number, end: number): string {
  const t = s.t;
  let i = pos + 1;
  // one loop: without escapes `out` stays "" and the value is one slice ("" + slice is the slice itself)
  let out = "";
  let from = i;
  while (i < end) {
    const c = t.charCodeAt(i);
    // neither the closing quote, an escape nor a control character: two comparisons
    if (c > 34 /* " */ && c !== 92 /* \ */) {
      i++;
      continue;
    }
    if (c === 34 /* " */) {
      s.q = i + 1;
      return out + t.slice(from, i);
    }
    if (c === 92 /* \ */) {
      if (from !== i) out += t.slice(from, i);
      if (i + 1 >= end) throw cutAt(s, "unterminated string", pos);
      const x = t.charCodeAt(i + 1);
      if (x === 110) out += "\n";
      else if (x === 34 /* " */) out += '"';
      else if (x === 92 /* \ */) out += "\\";
      else if (x === 116) out += "\t";
      else if (x === 114) out += "\r";
      else if (x === 117) {
        const hex = t.slice(i + 2, i + 6);
        if (i + 6 > end || !HEX4.test(hex)) {
          const reason = "invalid escape: \\u needs four hex digits";
          throw i + 6 > end && HEX_UPTO4.test(t.slice(i + 2, end)) ? cutAt(s, reason, i) : errAt(s, reason, i);
        }
        const cp = parseInt(hex, 16);
        if (cp >= 0xd800 && cp <= 0xdfff) throw errAt(s, `invalid escape: \\u${hex} is a surrogate code point`, i);
        out += String.fromCharCode(cp);
        i += 6;
        from = i;
        continue;
      } else {
        throw errAt(s, `invalid escape sequence \\${String.fromCharCode(x)}`, i);
      }
      i += 2;
      from = i;
      continue;
    }
    if (c < 32 /* space */ && c !== 9 /* tab */ && s.strict) throw errAt(s, "raw control character in quoted string (use an escape)", i);
    i++;
  }
  throw cutAt(s, "unterminated string", pos);
}

/**
 * The number the token [a, b) of the §4 grammar denotes, or undefined when it is not such a token (or its value
 * overflows a double). In exact mode a {@link TextNumber} when the double does not carry the token exactly: the
 * token is `String(x)` and x a safe integer or no integer, else TextNumber. Decided from what the scan saw, without
 * a second pass over the token.
 */
function numberToken(s: LineState, a: number, b: number): unknown {
  const t = s.t;
  let i = a;
  let neg = false;
  let c = t.charCodeAt(i);
  if (c === 45 /* - */) {
    neg = true;
    if (++i >= b) return undefined;
    c = t.charCodeAt(i);
  }
  if (c < 48 || c > 57) return undefined;
  const intStart = i;
  let m = 0;
  while (i < b) {
    c = t.charCodeAt(i);
    if (c < 48 || c > 57) break;
    m = m * 10 + (c - 48);
    i++;
  }
  let digits = i - intStart;
  if (digits > 1 && t.charCodeAt(intStart) === 48) return undefined; // forbidden leading zero
  let frac = 0;
  if (i < b && c === 46 /* . */) {
    const fs = ++i;
    while (i < b) {
      c = t.charCodeAt(i);
      if (c < 48 || c > 57) break;
      m = m * 10 + (c - 48);
      i++;
    }
    frac = i - fs;
    if (frac === 0) return undefined;
    digits += frac;
  }
  const exp = i < b;
  if (exp) {
    if (c !== 101 && c !== 69) return undefined;
    if (++i < b) {
      c = t.charCodeAt(i);
      if (c === 43 || c === 45 /* - */) i++;
    }
    if (i >= b) return undefined;
    while (i < b) {
      c = t.charCodeAt(i);
      if (c < 48 || c > 57) return undefined;
      i++;
    }
  }
  // up to 15 significant digits without an exponent: exact mantissa and power of ten, one correctly rounded
  // division (Clinger's fast path); and such a decimal token is the shortest round-trip form of its double
  const short = !exp && digits <= 15;
  let x: number;
  if (short) {
    x = frac === 0 ? m : m / POW10[frac];
    if (neg) x = x === 0 ? 0 : -x;
  } else {
    x = Number(t.slice(a, b));
    if (x - x !== 0) return undefined;
    if (x === 0) x = 0; // -0
  }
  if (!s.exact) return x;
  if (x === 0) {
    if (b - a === 1) return 0;
  } else if (short) {
    // canonical unless it has a trailing fractional zero or is small enough for String() to use an exponent
    if (frac === 0 || (t.charCodeAt(b - 1) !== 48 && (x >= 1e-6 || x <= -1e-6))) return x;
  } else if (String(x) === t.slice(a, b) && !(Number.isInteger(x) && (x > 9007199254740991 || x < -9007199254740991))) {
    return x;
  }
  s.raws++;
  return new TextNumber(x, t.slice(a, b));
}

/** Value of the unquoted token [a, b) (already trimmed): literal, number or string. */
function unquotedValue(s: LineState, a: number, b: number): unknown {
  const t = s.t;
  const n = b - a;
  if (n === 0) return "";
  const c = t.charCodeAt(a);
  if (c <= 57) {
    if (c === 45 /* - */ || c >= 48) {
      const x = numberToken(s, a, b);
      if (x !== undefined) return x;
    }
  } else if (c === 116) {
    if (n === 4 && t.startsWith("true", a)) return true;
  } else if (c === 102) {
    if (n === 5 && t.startsWith("false", a)) return false;
  } else if (c === 110) {
    if (n === 4 && t.startsWith("null", a)) return null;
  }
  return t.slice(a, b);
}

/** Value of the token [a, b) (trimmed, non-empty): quoted string or unquoted primitive. */
export function tokenValue(s: LineState, a: number, b: number): unknown {
  if (s.t.charCodeAt(a) === 34 /* " */) {
    const v = parseQuoted(s, a, b);
    if (s.q !== b) throw errAt(s, "unexpected characters after closing quote", s.q);
    return v;
  }
  return unquotedValue(s, a, b);
}

/**
 * Split [a, b) on the unquoted delimiter `delim` into primitive values stored in `out` from index 0; returns the
 * count. With `colonCheck`, returns -1 when an unquoted colon comes before the first delimiter (§9.3: the line is a
 * key-value line, not a row). Sets `s.ck` to the index of the cell being parsed (for error paths).
 */
export function splitCells(s: LineState, a: number, b: number, delim: number, colonCheck: boolean, out: unknown[]): number {
  const t = s.t;
  let i = a;
  let k = 0;
  for (;;) {
    s.ck = k;
    while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
    if (i < b && t.charCodeAt(i) === 34 /* " */) {
      const qs = i;
      const v = parseQuoted(s, i, b);
      i = s.q;
      while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
      if (i < b && t.charCodeAt(i) !== delim) {
        if (colonCheck && k === 0) {
          // Which comes first on this line: an unquoted colon or the delimiter?
          let j = qs;
          while (j < b) {
            const c = t.charCodeAt(j);
            if (c === delim) break;
            if (c === 58 /* : */) return -1;
            if (c === 34 /* " */) j = skipQuoted(t, j, b);
            else j++;
          }
        }
        throw errAt(s, "unexpected characters after closing quote", i);
      }
      if (s.cpos !== null) s.cpos[k] = qs;
      out[k++] = v;
    } else {
      const from = i;
      // the first cell of a row may turn out to be a key: its colon ends the rows
      const colon = colonCheck && k === 0 ? 58 /* : */ : -1;
      while (i < b) {
        const c = t.charCodeAt(i);
        if (c === delim) break;
        if (c === 34 /* " */) {
          i = skipQuoted(t, i, b);
          continue;
        }
        if (c === colon) return -1;
        i++;
      }
      let e = i;
      while (e > from && t.charCodeAt(e - 1) === 32 /* space */) e--;
      if (s.cpos !== null) s.cpos[k] = from;
      out[k++] = unquotedValue(s, from, e);
    }
    if (i >= b) return k;
    i++; // the delimiter
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Line classification and headers

/** Malformed header: an error in strict mode, key-value fall-through (returns null) otherwise. */
function bad(s: LineState, reason: string, pos: number, cut = false): null {
  if (s.strict) throw cut ? cutAt(s, reason, pos) : errAt(s, reason, pos);
  return null;
}

/** Parse a `{…}` field list starting at `p` (a `{`); sets s.q after the `}`; null on non-strict failure. */
function parseFields(s: LineState, p: number, b: number, delim: number, lvl: number): FieldGroup | null {
  if (lvl > s.maxDepth) throw depthErr(s);
  const t = s.t;
  const g: FieldGroup = { names: [], kids: [], leaves: 0, proto: false, dup: null, seen: null };
  p++;
  for (;;) {
    while (p < b && t.charCodeAt(p) === 32 /* space */) p++;
    if (p >= b) return bad(s, "unmatched '{' in field list", p, true);
    let c = t.charCodeAt(p);
    let name: string;
    if (c === 34 /* " */) {
      name = parseQuoted(s, p, b);
      p = s.q;
    } else {
      const from = p;
      while (p < b) {
        c = t.charCodeAt(p);
        if (c === delim || c === 123 /* { */ || c === 125 /* } */) break;
        if (c === 44 /* , */ || c === 124 /* | */ || c === 9 /* tab */) {
          return bad(s, `header delimiter mismatch: the bracket declares ${showDelim(delim)} but the field list uses ${showDelim(c)}`, p);
        }
        if (c === 58 /* : */ || c === 91 /* [ */ || c === 93 /* ] */ || c === 34 /* " */) {
          return bad(s, `unexpected '${String.fromCharCode(c)}' in field list`, p);
        }
        p++;
      }
      let e = p;
      while (e > from && t.charCodeAt(e - 1) === 32 /* space */) e--;
      if (e === from) return bad(s, g.names.length === 0 && c === 125 /* } */ ? "empty field list" : "empty field name", from);
      name = t.slice(from, e);
    }
    let kid: FieldGroup | null = null;
    if (p < b && t.charCodeAt(p) === 123 /* { */) {
      kid = parseFields(s, p, b, delim, lvl + 1);
      if (kid === null) return null;
      p = s.q;
      g.leaves += kid.leaves;
      if (kid.dup !== null && g.dup === null) g.dup = kid.dup;
    } else {
      g.leaves++;
    }
    if (g.dup === null && hasName(g, name)) g.dup = name;
    if (name === "__proto__") g.proto = true;
    g.names.push(name);
    if (g.seen !== null) g.seen.add(name);
    g.kids.push(kid);
    while (p < b && t.charCodeAt(p) === 32 /* space */) p++;
    if (p >= b) return bad(s, "unmatched '{' in field list", p, true);
    c = t.charCodeAt(p);
    if (c === delim) {
      p++;
      continue;
    }
    if (c === 125 /* } */) {
      s.q = p + 1;
      return g;
    }
    if (c === 44 /* , */ || c === 124 /* | */ || c === 9 /* tab */) {
      return bad(s, `header delimiter mismatch: the bracket declares ${showDelim(delim)} but the field list uses ${showDelim(c)}`, p);
    }
    return bad(s, `unexpected '${String.fromCharCode(c)}' in field list`, p);
  }
}

/**
 * Parse the header whose `[` is at `i` (key already parsed). Sets s.hdr and returns true; on a malformed header
 * throws in strict mode and returns null otherwise.
 */
function parseHeader(s: LineState, key: string | null, i: number, b: number): true | null {
  const t = s.t;
  let p = i + 1;
  let c = p < b ? t.charCodeAt(p) : -1;
  let len = 0;
  if (c === 48) {
    p++;
    c = p < b ? t.charCodeAt(p) : -1;
    if (c >= 48 && c <= 57) return bad(s, "array length must not have leading zeros", i + 1);
  } else if (c >= 49 && c <= 57) {
    while (c >= 48 && c <= 57) {
      len = len * 10 + (c - 48);
      p++;
      c = p < b ? t.charCodeAt(p) : -1;
    }
  } else {
    return bad(s, c === 93 /* ] */ ? "array length missing in brackets" : "array length must be a non-negative integer", p, c < 0);
  }
  let keyed = false;
  if (c === 58 /* : */) {
    keyed = true;
    p++;
    c = p < b ? t.charCodeAt(p) : -1;
  }
  let delim = 44 /* , */;
  if (c === 9 /* tab */ || c === 124 /* | */) {
    delim = c;
    p++;
    c = p < b ? t.charCodeAt(p) : -1;
  }
  if (c !== 93 /* ] */) {
    return bad(s, keyed ? "malformed keyed header marker (expected [N:], [N:<tab>] or [N:|])" : "malformed array length segment", p, c < 0);
  }
  p++;
  let fields: FieldGroup | null = null;
  if (p < b && t.charCodeAt(p) === 123 /* { */) {
    fields = parseFields(s, p, b, delim, 1);
    if (fields === null) return null;
    p = s.q;
  }
  if (p >= b) return bad(s, "missing ':' after array header", p, true);
  if (t.charCodeAt(p) !== 58 /* : */) return bad(s, "unexpected content between array header and ':'", p);
  p++;
  while (p < b && t.charCodeAt(p) === 32 /* space */) p++;
  if (fields !== null) {
    if (p < b) return bad(s, "a header with a field list cannot carry inline values", p);
    if (fields.dup !== null && s.strict) throw errAt(s, `duplicate field name "${fields.dup}" in header`, i);
  } else if (keyed) {
    return bad(s, "keyed header requires a field list", i);
  }
  s.hdr = { key, len, keyed, delim, fields, vs: p, ve: b, line: s.ln, column: i - s.ls + 1 };
  return true;
}

/** Key-value fall-through with a literal key (everything before the first unquoted colon). */
export function literalKV(s: LineState, a: number, b: number): number {
  const t = s.t;
  const colon = findColon(t, a, b);
  if (colon < 0) return 0 /* K_NONE */;
  let e = colon;
  while (e > a && t.charCodeAt(e - 1) === 32 /* space */) e--;
  s.key = t.slice(a, e);
  s.vs = colon + 1;
  return 1 /* K_KV */;
}

/** The unquoted key [a, e): a cached string when the same key was seen before (saves the slice and its hashing). */
function keyOf(s: LineState, a: number, e: number): string {
  const t = s.t;
  const n = e - a;
  const h = (t.charCodeAt(a) * 7 + n) & 255;
  const k = s.keys[h];
  if (k !== undefined && k.length === n && t.startsWith(k, a)) return k;
  return (s.keys[h] = t.slice(a, e));
}

/** Classify the content [a, b) of the current line (§5.2): K_NONE, K_KV (s.key, s.vs) or K_HDR (s.hdr). */
export function classify(s: LineState, a: number, b: number): number {
  const t = s.t;
  if (t.charCodeAt(a) === 34 /* " */) {
    const key = parseQuoted(s, a, b);
    let i = s.q;
    if (i < b && t.charCodeAt(i) === 91 /* [ */) {
      if (findColon(t, i, b) < 0) return 0 /* K_NONE */;
      if (parseHeader(s, key, i, b)) return 2 /* K_HDR */;
      return literalKV(s, a, b);
    }
    while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
    if (i < b && t.charCodeAt(i) === 58 /* : */) {
      s.key = key;
      s.vs = i + 1;
      return 1 /* K_KV */;
    }
    if (findColon(t, i, b) < 0) return 0 /* K_NONE */;
    throw errAt(s, "expected ':' after quoted key", i);
  }
  let i = a;
  while (i < b) {
    const c = t.charCodeAt(i);
    // a letter (most of a key) is none of the three characters below: one or two comparisons
    if (c > 91 /* [ */ || (c > 58 /* : */ && c !== 91)) {
      i++;
      continue;
    }
    if (c === 58 /* : */) {
      let e = i;
      while (e > a && t.charCodeAt(e - 1) === 32 /* space */) e--;
      s.key = keyOf(s, a, e);
      s.vs = i + 1;
      return 1 /* K_KV */;
    }
    if (c === 91 /* [ */) {
      if (findColon(t, i, b) < 0) return 0 /* K_NONE */;
      const pc = i > a ? t.charCodeAt(i - 1) : 0;
      // `foo [2]: x` fails the header grammar (§5.2) and is a key-value line in both modes.
      if (pc === 32 /* space */ || pc === 9 /* tab */) return literalKV(s, a, b);
      if (parseHeader(s, i === a ? null : keyOf(s, a, i), i, b)) return 2 /* K_HDR */;
      return literalKV(s, a, b);
    }
    if (c === 34 /* " */) i = skipQuoted(t, i, b);
    else i++;
  }
  return 0 /* K_NONE */;
}

// ---------------------------------------------------------------------------------------------------------------
// Rows

/** Build one row object from s.cells according to a field group (nested groups consume cells depth-first). */
export function buildRow(s: LineState, g: FieldGroup, cells: unknown[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const names = g.names;
  const kids = g.kids;
  for (let j = 0; j < names.length; j++) {
    const kid = kids[j];
    const v = kid === null ? cells[s.ck++] : buildRow(s, kid, cells);
    if (g.proto) setOwn(o, names[j], v);
    else o[names[j]] = v;
  }
  return o;
}

/** JSON pointer (relative to a row) of leaf cell `k` of a field group. */
export function leafPath(g: FieldGroup, k: number): string {
  let seen = 0;
  const walk = (h: FieldGroup, base: string): string | null => {
    for (let j = 0; j < h.names.length; j++) {
      const kid = h.kids[j];
      const p = base + pointerSegment(h.names[j]);
      if (kid === null) {
        if (seen++ === k) return p;
      } else {
        const r = walk(kid, p);
        if (r !== null) return r;
      }
    }
    return null;
  };
  return walk(g, "") ?? "";
}
