/**
 * Schemaless TOON text decoder (TOON spec v4.0).
 *
 * Design: one lexical pre-pass turns the text into a flat line table (content bounds, depth, line number,
 * blank-line marker), dropping comment lines (§5.1) and blank lines (§12), then a recursive-descent parser
 * walks the table. Tokens are scanned by character code against the original string; only keys and string
 * values are ever sliced out.
 *
 * Documented implementation choices (the spec leaves these to implementations):
 * - Numbers: tokens of the §4 grammar decode to JS numbers (IEEE-754 double). Integers beyond 2^53 lose
 *   precision; a token whose value overflows to ±Infinity (e.g. `1e999`) stays a string (lossless), one that
 *   underflows decodes to 0. `-0` decodes to `0`.
 * - A leading U+FEFF (byte-order mark) at the very start of the text is ignored.
 * - Blank lines: a line made only of spaces and tabs is blank.
 * - Non-strict mode: indentation depth is floor(spaces / indentSize) plus one level per tab character;
 *   blank lines inside arrays are ignored; count checks are skipped; duplicate keys resolve last-write-wins;
 *   malformed headers (bad lengths, content between `]` and `:`, bad field lists, keyless headers outside their
 *   positions) fall through to key-value lines with a literal key; content after a complete root array or
 *   keyed root object is ignored. Row/entry width mismatches and over-indented lines are errors in both modes.
 * - Strict mode additionally rejects raw control characters (other than tab) inside quoted strings, which the
 *   §7.1 `unescaped-char` grammar excludes.
 * - Columns in errors are 1-based UTF-16 code-unit offsets into the original line.
 * - `__proto__`, `constructor` and `prototype` become ordinary own properties (§15).
 */

import { ToonError, pointerSegment } from "../errors.ts";
import { hasOwn, setOwn } from "../objects.ts";
import { checkSizeAndDepth } from "./options.ts";

/** Options of {@link decodeText}. */
export interface TextDecodeOptions {
  /** Spaces per indentation level (default 2). */
  indentSize?: number;
  /** Strict validation per spec §14 (default true). */
  strict?: boolean;
  /** Maximum container nesting depth before a `DEPTH_LIMIT` error (default 1000). */
  maxDepth?: number;
  /** A generated codec's text layout: detected when absent (dense or TOON v4), or forced (docs/TEXT.md). */
  layout?: "toon" | "dense";
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers, not named constants, with the name in a comment. A named constant costs twice over: a bundler keeps a
// module's own constants as variables when the module imports anything (about 130 B gzipped of a text bundle), and
// constants imported from a module of their own are live bindings that Node reads at every use when nothing
// bundles (the decoder measured 5% slower).
//
// The line table: 6 int32 slots per content line, at li * 6:
//   + 0 offset of the first content character (after indentation)
//   + 1 (end) offset after the last content character (trailing spaces and CR removed)
//   + 2 (depth) indentation depth
//   + 3 (line) 1-based line number in the original text
//   + 4 (blank) line number of the first blank line since the previous content line, 0 if none
//   + 5 (line start) offset of the start of the physical line (for columns)
// Line kinds (classify): 0 K_NONE no unquoted colon, a scalar line; 1 K_KV a key-value line (D.key, D.vs set);
// 2 K_HDR an array or keyed header (D.hdr set).

const POW10: number[] = [];
for (let i = 0, p = 1; i <= 22; i++, p *= 10) POW10.push(p);

/** A parsed `{…}` field list, possibly with nested groups. */
interface FieldGroup {
  names: string[];
  kids: (FieldGroup | null)[];
  leaves: number;
  proto: boolean;
  dup: string | null;
  /** The names as a set, once the list is long enough that scanning it for a duplicate would be quadratic. */
  seen: Set<string> | null;
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

// Plain objects, not classes: the target's class fields print every field twice (declaration and constructor
// assignment), and property names survive minification; one literal per type keeps one hidden class.

/** A parsed array / keyed header. */
interface Header {
  key: string | null;
  len: number;
  keyed: boolean;
  delim: number;
  fields: FieldGroup | null;
  /** Inline values range (empty when vs === ve). */
  vs: number;
  ve: number;
  /** Line index and offset of the `[`. */
  li: number;
  pos: number;
}

/** Decoder state. */
interface D {
  readonly t: string;
  readonly strict: boolean;
  readonly indent: number;
  readonly maxDepth: number;
  L: Int32Array;
  n: number;
  /** Next unconsumed line index. */
  p: number;
  /** Scratch results of classify / parseQuoted. */
  key: string;
  vs: number;
  q: number;
  hdr: Header | null;
  /** Recently seen unquoted keys by (first character, length): the same key text is sliced (and internalized) once. */
  keys: (string | undefined)[];
  /** Scratch cell buffer for tabular rows and keyed entries, and the cell cursor. */
  cells: unknown[];
  ck: number;
  /** Exact-number mode ({@link decodeTextExact}): number tokens a double does not carry exactly become TextNumber. */
  exact: boolean;
  /** How many TextNumber tokens were produced. */
  raws: number;
  /** Position tracking ({@link locateText}): child key or index -> offset of its value, per container. */
  track: Map<object, Map<string | number, number>> | null;
  /** Start offsets of the cells of the last splitCells call (tracking mode only). */
  cpos: number[] | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Errors

function errAt(d: D, reason: string, pos: number, li: number, code: "TEXT_SYNTAX" | "DEPTH_LIMIT" = "TEXT_SYNTAX"): ToonError {
  const o = li * 6;
  return new ToonError(code, reason, { line: d.L[o + 3 /* line */], column: pos - d.L[o + 5 /* line start */] + 1 });
}

function errLine(reason: string, line: number, column: number): ToonError {
  return new ToonError("TEXT_SYNTAX", reason, { line, column });
}

function depthErr(d: D, li: number): ToonError {
  return errAt(d, `nesting deeper than ${d.maxDepth} levels`, d.L[li * 6], li, "DEPTH_LIMIT");
}

function overIndentErr(d: D, li: number, expected: number): ToonError {
  const o = li * 6;
  return errAt(d, `unexpected indentation: line is at depth ${d.L[o + 2 /* depth */]} but its scope expects depth ${expected}`, d.L[o], li);
}

function blankErr(d: D, li: number): ToonError {
  return errLine("blank line inside an array (not allowed in strict mode)", d.L[li * 6 + 4 /* blank */], 1);
}

function prefix(e: unknown, seg: string | number): unknown {
  if (e instanceof ToonError) e.prefixPath(pointerSegment(seg));
  return e;
}

function showDelim(c: number): string {
  return c === 9 /* tab */ ? "tab" : c === 124 /* | */ ? "'|'" : "','";
}

// ---------------------------------------------------------------------------------------------------------------
// Pre-pass

function scanLines(d: D): void {
  const t = d.t;
  const len = t.length;
  const strict = d.strict;
  const ind = d.indent;
  let L = d.L;
  let n = 0;
  let pos = len > 0 && t.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNo = 0;
  let blank = 0;
  for (;;) {
    lineNo++;
    let nl = t.indexOf("\n", pos);
    if (nl < 0) nl = len;
    let end = nl;
    if (end > pos && t.charCodeAt(end - 1) === 13) end--;
    let p = pos;
    while (p < end && t.charCodeAt(p) === 32 /* space */) p++;
    if (p < end && t.charCodeAt(p) === 35 /* # */) {
      // comment line (§5.1): dropped without interpretation
    } else {
      let q = p;
      let tabs = 0;
      while (q < end) {
        const c = t.charCodeAt(q);
        if (c === 9 /* tab */) tabs++;
        else if (c !== 32 /* space */) break;
        q++;
      }
      let e = end;
      while (e > q && t.charCodeAt(e - 1) === 32 /* space */) e--;
      if (q === e) {
        if (blank === 0) blank = lineNo;
      } else {
        let depth: number;
        if (tabs > 0) {
          // the first tab is at p: the spaces before it end there, and a tab follows them or none is counted
          if (strict) throw errLine("tab character used for indentation (not allowed in strict mode)", lineNo, p - pos + 1);
          depth = Math.floor((q - pos - tabs) / ind) + tabs;
        } else {
          const sp = p - pos;
          if (strict && sp % ind !== 0) {
            throw errLine(`indentation of ${sp} spaces is not a multiple of the indent size ${ind}`, lineNo, sp + 1);
          }
          depth = Math.floor(sp / ind);
        }
        const o = n * 6;
        if (o + 6 > L.length) {
          const bigger = new Int32Array(L.length * 2);
          bigger.set(L);
          L = bigger;
        }
        L[o] = q;
        L[o + 1 /* end */] = e;
        L[o + 2 /* depth */] = depth;
        L[o + 3 /* line */] = lineNo;
        L[o + 4 /* blank */] = blank;
        L[o + 5 /* line start */] = pos;
        n++;
        blank = 0;
      }
    }
    if (nl >= len) break;
    pos = nl + 1;
  }
  d.L = L;
  d.n = n;
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

/** Four hex digits (a `\u` escape's). */
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * Parse the quoted string starting at `pos` (a `"`) within [pos, end); returns the unescaped value and sets
 * `d.q` to the index after the closing quote.
 */
function parseQuoted(d: D, pos: number, end: number, li: number): string {
  const t = d.t;
  let i = pos + 1;
  // one loop: without escapes `out` stays "" and the value is one slice ("" + slice is the slice itself)
  let out = "";
  let s = i;
  while (i < end) {
    const c = t.charCodeAt(i);
    if (c === 34 /* " */) {
      d.q = i + 1;
      return out + t.slice(s, i);
    }
    if (c === 92 /* \ */) {
      if (s !== i) out += t.slice(s, i);
      if (i + 1 >= end) throw errAt(d, "unterminated string", pos, li);
      const x = t.charCodeAt(i + 1);
      if (x === 110) out += "\n";
      else if (x === 34 /* " */) out += '"';
      else if (x === 92 /* \ */) out += "\\";
      else if (x === 116) out += "\t";
      else if (x === 114) out += "\r";
      else if (x === 117) {
        const hex = t.slice(i + 2, i + 6);
        if (i + 6 > end || !HEX4.test(hex)) throw errAt(d, "invalid escape: \\u needs four hex digits", i, li);
        const cp = parseInt(hex, 16);
        if (cp >= 0xd800 && cp <= 0xdfff) throw errAt(d, `invalid escape: \\u${hex} is a surrogate code point`, i, li);
        out += String.fromCharCode(cp);
        i += 6;
        s = i;
        continue;
      } else {
        throw errAt(d, `invalid escape sequence \\${String.fromCharCode(x)}`, i, li);
      }
      i += 2;
      s = i;
      continue;
    }
    if (c < 32 /* space */ && c !== 9 /* tab */ && d.strict) throw errAt(d, "raw control character in quoted string (use an escape)", i, li);
    i++;
  }
  throw errAt(d, "unterminated string", pos, li);
}

/**
 * The number the token [a, b) of the §4 grammar denotes, or undefined when it is not such a token (or its value
 * overflows a double). In exact mode ({@link decodeTextExact}) a {@link TextNumber} when the double does not carry the
 * token exactly: the token is `String(x)` and x a safe integer or no integer, else TextNumber. Decided from what
 * the scan saw, without a second pass over the token.
 */
function numberToken(d: D, a: number, b: number): unknown {
  const t = d.t;
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
  if (!d.exact) return x;
  if (x === 0) {
    if (b - a === 1) return 0;
  } else if (short) {
    // canonical unless it has a trailing fractional zero or is small enough for String() to use an exponent
    if (frac === 0 || (t.charCodeAt(b - 1) !== 48 && (x >= 1e-6 || x <= -1e-6))) return x;
  } else if (String(x) === t.slice(a, b) && !(Number.isInteger(x) && (x > 9007199254740991 || x < -9007199254740991))) {
    return x;
  }
  d.raws++;
  return new TextNumber(x, t.slice(a, b));
}

/** Value of the unquoted token [a, b) (already trimmed): literal, number or string. */
function unquotedValue(d: D, a: number, b: number): unknown {
  const t = d.t;
  const n = b - a;
  if (n === 0) return "";
  const c = t.charCodeAt(a);
  if (c <= 57) {
    if (c === 45 /* - */ || c >= 48) {
      const x = numberToken(d, a, b);
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
function tokenValue(d: D, a: number, b: number, li: number): unknown {
  if (d.t.charCodeAt(a) === 34 /* " */) {
    const s = parseQuoted(d, a, b, li);
    if (d.q !== b) throw errAt(d, "unexpected characters after closing quote", d.q, li);
    return s;
  }
  return unquotedValue(d, a, b);
}

/**
 * Split [a, b) on the unquoted delimiter `delim` into primitive values stored in `out` from index 0; returns the
 * count. With `colonCheck`, returns -1 when an unquoted colon comes before the first delimiter (§9.3: the line is a
 * key-value line, not a row). Sets `d.ck` to the index of the cell being parsed (for error paths).
 */
function splitCells(d: D, a: number, b: number, li: number, delim: number, colonCheck: boolean, out: unknown[]): number {
  const t = d.t;
  let i = a;
  let k = 0;
  for (;;) {
    d.ck = k;
    while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
    if (i < b && t.charCodeAt(i) === 34 /* " */) {
      const qs = i;
      const v = parseQuoted(d, i, b, li);
      i = d.q;
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
        throw errAt(d, "unexpected characters after closing quote", i, li);
      }
      if (d.cpos !== null) d.cpos[k] = qs;
      out[k++] = v;
    } else {
      const s = i;
      while (i < b) {
        const c = t.charCodeAt(i);
        if (c === delim) break;
        if (c === 34 /* " */) {
          i = skipQuoted(t, i, b);
          continue;
        }
        if (c === 58 /* : */ && colonCheck && k === 0) return -1;
        i++;
      }
      let e = i;
      while (e > s && t.charCodeAt(e - 1) === 32 /* space */) e--;
      if (d.cpos !== null) d.cpos[k] = s;
      out[k++] = unquotedValue(d, s, e);
    }
    if (i >= b) return k;
    i++; // the delimiter
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Line classification and headers

/** Malformed header: an error in strict mode, key-value fall-through (returns null) otherwise. */
function bad(d: D, reason: string, pos: number, li: number): null {
  if (d.strict) throw errAt(d, reason, pos, li);
  return null;
}

/** Parse a `{…}` field list starting at `p` (a `{`); sets d.q after the `}`; null on non-strict failure. */
function parseFields(d: D, p: number, b: number, li: number, delim: number, lvl: number): FieldGroup | null {
  if (lvl > d.maxDepth) throw depthErr(d, li);
  const t = d.t;
  const g: FieldGroup = { names: [], kids: [], leaves: 0, proto: false, dup: null, seen: null };
  p++;
  for (;;) {
    while (p < b && t.charCodeAt(p) === 32 /* space */) p++;
    if (p >= b) return bad(d, "unmatched '{' in field list", p, li);
    let c = t.charCodeAt(p);
    let name: string;
    if (c === 34 /* " */) {
      name = parseQuoted(d, p, b, li);
      p = d.q;
    } else {
      const s = p;
      while (p < b) {
        c = t.charCodeAt(p);
        if (c === delim || c === 123 /* { */ || c === 125 /* } */) break;
        if (c === 44 /* , */ || c === 124 /* | */ || c === 9 /* tab */) {
          return bad(d, `header delimiter mismatch: the bracket declares ${showDelim(delim)} but the field list uses ${showDelim(c)}`, p, li);
        }
        if (c === 58 /* : */ || c === 91 /* [ */ || c === 93 /* ] */ || c === 34 /* " */) {
          return bad(d, `unexpected '${String.fromCharCode(c)}' in field list`, p, li);
        }
        p++;
      }
      let e = p;
      while (e > s && t.charCodeAt(e - 1) === 32 /* space */) e--;
      if (e === s) return bad(d, g.names.length === 0 && c === 125 /* } */ ? "empty field list" : "empty field name", s, li);
      name = t.slice(s, e);
    }
    let kid: FieldGroup | null = null;
    if (p < b && t.charCodeAt(p) === 123 /* { */) {
      kid = parseFields(d, p, b, li, delim, lvl + 1);
      if (kid === null) return null;
      p = d.q;
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
    if (p >= b) return bad(d, "unmatched '{' in field list", p, li);
    c = t.charCodeAt(p);
    if (c === delim) {
      p++;
      continue;
    }
    if (c === 125 /* } */) {
      d.q = p + 1;
      return g;
    }
    if (c === 44 /* , */ || c === 124 /* | */ || c === 9 /* tab */) {
      return bad(d, `header delimiter mismatch: the bracket declares ${showDelim(delim)} but the field list uses ${showDelim(c)}`, p, li);
    }
    return bad(d, `unexpected '${String.fromCharCode(c)}' in field list`, p, li);
  }
}

/**
 * Parse the header whose `[` is at `i` (key already parsed). Sets d.hdr and returns true; on a malformed header
 * throws in strict mode and returns null otherwise.
 */
function parseHeader(d: D, key: string | null, i: number, b: number, li: number): true | null {
  const t = d.t;
  let p = i + 1;
  let c = p < b ? t.charCodeAt(p) : -1;
  let len = 0;
  if (c === 48) {
    p++;
    c = p < b ? t.charCodeAt(p) : -1;
    if (c >= 48 && c <= 57) return bad(d, "array length must not have leading zeros", i + 1, li);
  } else if (c >= 49 && c <= 57) {
    while (c >= 48 && c <= 57) {
      len = len * 10 + (c - 48);
      p++;
      c = p < b ? t.charCodeAt(p) : -1;
    }
  } else {
    return bad(d, c === 93 /* ] */ ? "array length missing in brackets" : "array length must be a non-negative integer", p, li);
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
    return bad(d, keyed ? "malformed keyed header marker (expected [N:], [N:<tab>] or [N:|])" : "malformed array length segment", p, li);
  }
  p++;
  let fields: FieldGroup | null = null;
  if (p < b && t.charCodeAt(p) === 123 /* { */) {
    fields = parseFields(d, p, b, li, delim, 1);
    if (fields === null) return null;
    p = d.q;
  }
  if (p >= b) return bad(d, "missing ':' after array header", p, li);
  if (t.charCodeAt(p) !== 58 /* : */) return bad(d, "unexpected content between array header and ':'", p, li);
  p++;
  while (p < b && t.charCodeAt(p) === 32 /* space */) p++;
  if (fields !== null) {
    if (p < b) return bad(d, "a header with a field list cannot carry inline values", p, li);
    if (fields.dup !== null && d.strict) throw errAt(d, `duplicate field name "${fields.dup}" in header`, i, li);
  } else if (keyed) {
    return bad(d, "keyed header requires a field list", i, li);
  }
  d.hdr = { key, len, keyed, delim, fields, vs: p, ve: b, li, pos: i };
  return true;
}

/** Key-value fall-through with a literal key (everything before the first unquoted colon). */
function literalKV(d: D, a: number, b: number): number {
  const t = d.t;
  const colon = findColon(t, a, b);
  if (colon < 0) return 0 /* K_NONE */;
  let e = colon;
  while (e > a && t.charCodeAt(e - 1) === 32 /* space */) e--;
  d.key = t.slice(a, e);
  d.vs = colon + 1;
  return 1 /* K_KV */;
}

/** The unquoted key [a, e): a cached string when the same key was seen before (saves the slice and its hashing). */
function keyOf(d: D, a: number, e: number): string {
  const t = d.t;
  const n = e - a;
  const h = (t.charCodeAt(a) * 7 + n) & 255;
  const k = d.keys[h];
  if (k !== undefined && k.length === n && t.startsWith(k, a)) return k;
  return (d.keys[h] = t.slice(a, e));
}

/** Classify the content [a, b) of line `li` (§5.2): K_NONE, K_KV (d.key, d.vs) or K_HDR (d.hdr). */
function classify(d: D, a: number, b: number, li: number): number {
  const t = d.t;
  if (t.charCodeAt(a) === 34 /* " */) {
    const key = parseQuoted(d, a, b, li);
    let i = d.q;
    if (i < b && t.charCodeAt(i) === 91 /* [ */) {
      if (findColon(t, i, b) < 0) return 0 /* K_NONE */;
      if (parseHeader(d, key, i, b, li)) return 2 /* K_HDR */;
      return literalKV(d, a, b);
    }
    while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
    if (i < b && t.charCodeAt(i) === 58 /* : */) {
      d.key = key;
      d.vs = i + 1;
      return 1 /* K_KV */;
    }
    if (findColon(t, i, b) < 0) return 0 /* K_NONE */;
    throw errAt(d, "expected ':' after quoted key", i, li);
  }
  let i = a;
  while (i < b) {
    const c = t.charCodeAt(i);
    if (c === 58 /* : */) {
      let e = i;
      while (e > a && t.charCodeAt(e - 1) === 32 /* space */) e--;
      d.key = keyOf(d, a, e);
      d.vs = i + 1;
      return 1 /* K_KV */;
    }
    if (c === 91 /* [ */) {
      if (findColon(t, i, b) < 0) return 0 /* K_NONE */;
      const pc = i > a ? t.charCodeAt(i - 1) : 0;
      // `foo [2]: x` fails the header grammar (§5.2) and is a key-value line in both modes.
      if (pc === 32 /* space */ || pc === 9 /* tab */) return literalKV(d, a, b);
      if (parseHeader(d, i === a ? null : keyOf(d, a, i), i, b, li)) return 2 /* K_HDR */;
      return literalKV(d, a, b);
    }
    if (c === 34 /* " */) i = skipQuoted(t, i, b);
    else i++;
  }
  return 0 /* K_NONE */;
}

// ---------------------------------------------------------------------------------------------------------------
// Values

/** Content depth of the scope opened by a line at `depth` (§8, strict: exactly one deeper). */
function scopeDepth(d: D, depth: number): number {
  if (d.p < d.n) {
    const nd = d.L[d.p * 6 + 2 /* depth */];
    if (nd > depth + 1) {
      if (d.strict) {
        const o = d.p * 6;
        throw errAt(d, `indentation jumps from depth ${depth} to ${nd} (expected ${depth + 1})`, d.L[o], d.p);
      }
      return nd;
    }
  }
  return depth + 1;
}

/** Build one row object from d.cells according to a field group (nested groups consume cells depth-first). */
function buildRow(d: D, g: FieldGroup, cells: unknown[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const names = g.names;
  const kids = g.kids;
  for (let j = 0; j < names.length; j++) {
    const kid = kids[j];
    const v = kid === null ? cells[d.ck++] : buildRow(d, kid, cells);
    if (g.proto) setOwn(o, names[j], v);
    else o[names[j]] = v;
  }
  return o;
}

/** JSON pointer (relative to a row) of leaf cell `k` of a field group. */
function leafPath(g: FieldGroup, k: number): string {
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

/**
 * Strict mode: a header's body holds the `count` it declares, else TEXT_SYNTAX at line `extra` (the first line past
 * the declared count, -1 when there is none) or at the header.
 */
function checkCount(d: D, h: Header, count: number, extra: number, what: string): void {
  if (d.strict && count !== h.len) {
    const reason = `${h.keyed ? "keyed table" : "array"} declares ${h.len} ${what} but has ${count}`;
    throw extra >= 0 ? errAt(d, reason, d.L[extra * 6], extra) : errAt(d, reason, h.pos, h.li);
  }
}

/** Decode the value introduced by header `h` standing at depth `hd`. */
function decodeHeaderValue(d: D, h: Header, hd: number, lvl: number, span: boolean): unknown {
  if (lvl > d.maxDepth) throw depthErr(d, h.li);
  if (h.vs < h.ve) {
    const arr: unknown[] = [];
    const cnt = splitCells(d, h.vs, h.ve, h.li, h.delim, false, arr);
    checkCount(d, h, cnt, -1, "values");
    if (d.track !== null) for (let i = 0; i < cnt; i++) trackAt(d, arr, i, (d.cpos as number[])[i]);
    return arr;
  }
  return decodeLines(d, h, hd, lvl, span);
}

/**
 * The lines under a header: the items of an expanded list (§9.4, no field list), the rows of a tabular array
 * (§9.3) or the entries of a keyed table (§9.5, `h.keyed`: `key: cells` lines). One loop for the three, since
 * they differ only in what one line holds.
 */
function decodeLines(d: D, h: Header, hd: number, lvl: number, span: boolean): unknown[] | Record<string, unknown> {
  const t = d.t;
  const L = d.L;
  const n = d.n;
  const g = h.fields;
  const leaves = g === null ? 0 : g.leaves;
  const keyed = h.keyed;
  const strict = d.strict;
  const cells = d.cells;
  const rowDepth = scopeDepth(d, hd);
  const arr: unknown[] = [];
  const obj: Record<string, unknown> = {};
  let count = 0;
  let extra = -1;
  // the path segment of the line being read (undefined: an entry whose key is not read yet)
  let key: string | number | undefined;
  let inCells = false;
  try {
    while (d.p < n) {
      const li = d.p;
      const o = li * 6;
      const dep = L[o + 2 /* depth */];
      if (dep <= hd) break;
      key = keyed ? undefined : count;
      if (dep !== rowDepth) throw overIndentErr(d, li, rowDepth);
      const a = L[o];
      const b = L[o + 1 /* end */];
      let i = a;
      let k = "";
      let cnt = 0;
      if (g === null) {
        if (t.charCodeAt(a) !== 45 /* - */ || (b - a > 1 && t.charCodeAt(a + 1) !== 32 /* space */)) {
          throw errAt(d, "expected a list item ('- …')", a, li);
        }
      } else {
        if (keyed) {
          // an entry: the blank-line check comes first (a row's comes after its cells: a key-value line ends a table)
          if (strict && L[o + 4 /* blank */] !== 0 && (span || count > 0)) throw blankErr(d, li);
          d.p = li + 1;
          if (t.charCodeAt(a) === 34 /* " */) {
            k = parseQuoted(d, a, b, li);
            i = d.q;
            while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
            if (i >= b || t.charCodeAt(i) !== 58 /* : */) throw errAt(d, "expected ':' after entry key", i, li);
          } else {
            if (literalKV(d, a, b) === 0 /* K_NONE */) throw errAt(d, "expected an entry row 'key: values' in keyed table", a, li);
            k = d.key;
            i = d.vs - 1;
          }
          i++;
          while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
          if (strict && hasOwn(obj, k)) throw errAt(d, `duplicate key "${k}"`, a, li);
          key = k;
        }
        inCells = true;
        // a row is never empty (content lines are not); an entry's cells may be
        cnt = i < b ? splitCells(d, i, b, li, h.delim, !keyed, cells) : 0;
        inCells = false;
        if (cnt < 0) break; // a key-value line (only rows check for one): the rows are over
      }
      if (!keyed) {
        if (strict && L[o + 4 /* blank */] !== 0 && (span || count > 0)) throw blankErr(d, li);
        d.p = li + 1;
      }
      if (count === h.len && extra < 0) extra = li;
      if (g === null) {
        if (d.track !== null) trackAt(d, arr, count, b - a > 1 ? a + 2 : a);
        arr.push(decodeListItem(d, li, a, b, rowDepth, lvl + 1));
      } else {
        if (cnt !== leaves) throw errAt(d, `${keyed ? "entry" : "row"} has ${cnt} values but the header declares ${leaves} fields`, i, li);
        d.ck = 0;
        const row = buildRow(d, g, cells);
        if (d.track !== null) trackRow(d, keyed ? obj : arr, keyed ? k : count, a, row, g);
        if (keyed) setOwn(obj, k, row);
        else arr.push(row);
      }
      count++;
    }
  } catch (e) {
    if (inCells && e instanceof ToonError && d.ck < leaves) e.prefixPath(leafPath(g as FieldGroup, d.ck));
    throw key === undefined ? e : prefix(e, key);
  }
  checkCount(d, h, count, extra, keyed ? "entries" : g === null ? "items" : "rows");
  return keyed ? obj : arr;
}

/** Decode list item line `li` ([a, b) starts with "-") at depth `itemDepth`. */
function decodeListItem(d: D, li: number, a: number, b: number, itemDepth: number, lvl: number): unknown {
  const t = d.t;
  let i = a + 1;
  while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
  if (i >= b) {
    if (lvl > d.maxDepth) throw depthErr(d, li);
    return {};
  }
  if (b - i === 2 && t.charCodeAt(i) === 91 /* [ */ && t.charCodeAt(i + 1) === 93 /* ] */) return [];
  let kind = classify(d, i, b, li);
  if (kind === 0 /* K_NONE */) return tokenValue(d, i, b, li);
  if (kind === 2 /* K_HDR */) {
    const h = d.hdr as Header;
    if (h.key === null) {
      if (!h.keyed && h.fields === null) return decodeHeaderValue(d, h, itemDepth, lvl, true);
      if (d.strict) {
        throw errAt(d, h.keyed ? "a keyless keyed header is only valid at the document root" : "a keyless header with a field list is only valid at the document root", h.pos, li);
      }
      kind = literalKV(d, i, b);
    }
  }
  if (lvl > d.maxDepth) throw depthErr(d, li);
  const obj: Record<string, unknown> = {};
  decodeField(d, obj, li, i, b, kind, itemDepth + 1, lvl, true);
  decodeObjectBody(d, obj, itemDepth + 1, lvl, true);
  return obj;
}

/**
 * Decode one field of `obj` from line `li` (content [a, b), already classified as `kind`), standing at depth
 * `fd` (for a first field on a hyphen line, the item depth + 1).
 */
function decodeField(d: D, obj: Record<string, unknown>, li: number, a: number, b: number, kind: number, fd: number, lvl: number, span: boolean): void {
  let h = kind === 2 /* K_HDR */ ? (d.hdr as Header) : null;
  if (h !== null && h.key === null) {
    if (d.strict) {
      throw errAt(d, h.keyed ? "a keyless keyed header is only valid at the document root" : "a keyless array header is only valid at the document root or as a list item", h.pos, li);
    }
    kind = literalKV(d, a, b);
    h = null;
  }
  if (kind === 0 /* K_NONE */) throw errAt(d, "missing ':' after key", b, li);
  const t = d.t;
  const key = h !== null ? (h.key as string) : d.key;
  // a key-value line: its value starts at p (p >= b: none on the line, a nested object follows or it is empty)
  let p = d.vs;
  if (h === null) while (p < b && t.charCodeAt(p) === 32 /* space */) p++;
  if (d.strict && hasOwn(obj, key)) throw errAt(d, `duplicate key "${key}"`, a, li);
  const nested = h === null && p >= b && d.p < d.n && d.L[d.p * 6 + 2 /* depth */] > fd;
  if (nested && lvl + 1 > d.maxDepth) throw depthErr(d, li);
  let v: unknown;
  try {
    if (h !== null) v = decodeHeaderValue(d, h, fd, lvl + 1, span);
    else if (p >= b) {
      v = {};
      if (nested) decodeObjectBody(d, v as Record<string, unknown>, scopeDepth(d, fd), lvl + 1, span);
    } else v = b - p === 2 && t.charCodeAt(p) === 91 /* [ */ && t.charCodeAt(p + 1) === 93 /* ] */ ? [] : tokenValue(d, p, b, li);
  } catch (e) {
    throw prefix(e, key);
  }
  if (d.track !== null) trackAt(d, obj, key, h !== null || p >= b ? a : p);
  setOwn(obj, key, v);
}

/** Decode the fields of `obj` at content depth `depth` until the scope ends. */
function decodeObjectBody(d: D, obj: Record<string, unknown>, depth: number, lvl: number, span: boolean): void {
  const L = d.L;
  const n = d.n;
  const strict = d.strict;
  while (d.p < n) {
    const li = d.p;
    const o = li * 6;
    const dep = L[o + 2 /* depth */];
    if (dep < depth) return;
    if (dep !== depth) throw overIndentErr(d, li, depth);
    if (span && strict && L[o + 4 /* blank */] !== 0) throw blankErr(d, li);
    d.p = li + 1;
    const a = L[o];
    const b = L[o + 1 /* end */];
    decodeField(d, obj, li, a, b, classify(d, a, b, li), depth, lvl, span);
  }
}

function decodeRoot(d: D): unknown {
  const n = d.n;
  if (n === 0) return {};
  const t = d.t;
  const L = d.L;
  if (L[2 /* depth */] !== 0) throw overIndentErr(d, 0, 0);
  const a = L[0];
  const b = L[1 /* end */];
  if (b - a === 2 && t.charCodeAt(a) === 91 /* [ */ && t.charCodeAt(a + 1) === 93 /* ] */) {
    d.p = 1;
    checkRootEnd(d, "an empty root array");
    return [];
  }
  const kind = classify(d, a, b, 0);
  if (kind === 2 /* K_HDR */) {
    const h = d.hdr as Header;
    if (h.key === null) {
      d.p = 1;
      const v = decodeHeaderValue(d, h, 0, 1, false);
      checkRootEnd(d, h.keyed ? "a keyed root object" : "a root array");
      return v;
    }
  } else if (kind === 0 /* K_NONE */ && n === 1) {
    return tokenValue(d, a, b, 0);
  }
  const obj: Record<string, unknown> = {};
  d.p = 0;
  decodeObjectBody(d, obj, 0, 1, false);
  return obj;
}

function checkRootEnd(d: D, what: string): void {
  if (d.p < d.n && d.strict) {
    const o = d.p * 6;
    throw errAt(d, `unexpected content after ${what}`, d.L[o], d.p);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Exact numbers and positions (for schema-aware decoders: generated `fromText`)

/**
 * A number token whose JS number does not carry it exactly: an integer beyond ±(2^53 - 1), or a token not in
 * canonical form (`1.0`, `1e3`, `0.10`, `-0`, `0.0000001`). Produced only by {@link decodeTextExact}, so that a
 * schema-aware pass can keep the token's text (a `string` field holding `1.10`) or its exact integer value (an
 * int64 field holding `12345678901234567890`). `value` is what {@link decodeText} would have produced.
 */
export class TextNumber {
  declare readonly value: number;
  declare readonly raw: string;
  constructor(value: number, raw: string) {
    this.value = value;
    this.raw = raw;
  }
}

function trackAt(d: D, container: object, key: string | number, pos: number): void {
  const track = d.track as Map<object, Map<string | number, number>>;
  let m = track.get(container);
  if (m === undefined) track.set(container, (m = new Map()));
  m.set(key, pos);
}

/** Record a row (at `pos`) of `container` and the positions of its cells (d.cpos, in field-group order). */
function trackRow(d: D, container: object, key: string | number, pos: number, row: Record<string, unknown>, g: FieldGroup): void {
  trackAt(d, container, key, pos);
  let k = 0;
  const cpos = d.cpos as number[];
  const walk = (o: Record<string, unknown>, h: FieldGroup): void => {
    for (let j = 0; j < h.names.length; j++) {
      const kid = h.kids[j];
      if (kid === null) trackAt(d, o, h.names[j], cpos[k++]);
      else {
        trackAt(d, o, h.names[j], cpos[k]);
        walk(o[h.names[j]] as Record<string, unknown>, kid);
      }
    }
  };
  walk(row, g);
}

/**
 * Like {@link decodeText}, but number tokens that a JS number does not carry exactly decode to {@link TextNumber}
 * (see there); `raws` counts them (0: the value is plain JSON data).
 */
export function decodeTextExact(text: string, options?: TextDecodeOptions): { value: unknown; raws: number } {
  const d = makeD(text, options);
  d.exact = true;
  const value = run(d);
  return { value, raws: d.raws };
}

/**
 * Line and column (1-based, as in decoder errors) of the value at JSON pointer `path` in TOON `text`: for a path
 * that goes past the decoded value (a missing property), the position of the deepest container on the way.
 * Undefined when the text does not decode. Slow (decodes again, recording positions): for error reporting.
 */
export function locateText(text: string, path: string, options?: TextDecodeOptions): { line: number; column: number } | undefined {
  const d = makeD(text, options);
  d.track = new Map();
  d.cpos = [];
  let v: unknown;
  try {
    v = run(d);
  } catch {
    return undefined;
  }
  let pos = 0;
  while (pos < text.length && (text.charCodeAt(pos) === 0xfeff || text.charCodeAt(pos) <= 32)) pos++; // first content
  const segs = path === "" ? [] : path.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  for (const seg of segs) {
    // a primitive has no entry in the track (only containers have): the walk ends there too
    const key: string | number = Array.isArray(v) ? Number(seg) : seg;
    const at = d.track.get(v as object)?.get(key);
    if (at === undefined) break;
    pos = at;
    v = (v as Record<string | number, unknown>)[key];
  }
  return offsetToLineColumn(text, pos);
}

/** 1-based line and UTF-16 column of offset `pos` (a leading byte-order mark does not count as a column). */
export function offsetToLineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < pos; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  if (line === 1 && text.charCodeAt(0) === 0xfeff) start = 1;
  return { line, column: pos - start + 1 };
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * Decode TOON text (spec v4.0) into a JSON value (plain objects and arrays, like `JSON.parse` output).
 * Throws `ToonError` with code `TEXT_SYNTAX` (with `line`/`column`, and `path` when inside a value) on malformed
 * text, or `DEPTH_LIMIT` beyond `maxDepth` nesting levels.
 */
export function decodeText(text: string, options?: TextDecodeOptions): unknown {
  return run(makeD(text, options));
}

function makeD(text: string, options: TextDecodeOptions | undefined): D {
  if (typeof text !== "string") throw new ToonError("INVALID_VALUE", "decodeText expects a string");
  checkWellFormed(text);
  const indentSize = options?.indentSize ?? 2;
  const strict = options?.strict ?? true;
  const maxDepth = options?.maxDepth ?? 1000;
  checkSizeAndDepth(indentSize, maxDepth);
  return {
    t: text,
    strict: strict !== false,
    indent: indentSize,
    maxDepth,
    L: new Int32Array(6 * 64),
    n: 0,
    p: 0,
    key: "",
    vs: 0,
    q: 0,
    hdr: null,
    keys: new Array<string | undefined>(256),
    cells: [],
    ck: 0,
    exact: false,
    raws: 0,
    track: null,
    cpos: null,
  };
}

const hasIsWellFormed = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function";

/**
 * TOON text is Unicode (UTF-8 on the wire): a lone surrogate code unit cannot be part of it, and a value holding
 * one is a value `encode` and `validate` refuse. TEXT_SYNTAX at the offending code unit, before anything is decoded.
 */
export function checkWellFormed(text: string): void {
  if (hasIsWellFormed && (text as string & { isWellFormed(): boolean }).isWellFormed()) return;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < text.length) {
      const n = text.charCodeAt(i + 1);
      if (n >= 0xdc00 && n <= 0xdfff) {
        i++;
        continue;
      }
    }
    const { line, column } = offsetToLineColumn(text, i);
    throw errLine(`lone surrogate U+${c.toString(16).toUpperCase()} (text must be well-formed Unicode)`, line, column);
  }
}

function run(d: D): unknown {
  try {
    scanLines(d);
    return decodeRoot(d);
  } catch (e) {
    if (e instanceof ToonError) throw e;
    if (e instanceof RangeError) throw new ToonError("DEPTH_LIMIT", "input too deeply nested (" + e.message + ")", { cause: e });
    throw e;
  }
}
