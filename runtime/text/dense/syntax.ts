/**
 * The dense layout's lexical rules (docs/TEXT.md §3), shared by the writer and the reader so that what one
 * spells raw the other reads back as the same value.
 */

/**
 * What a number cell must look like: JSON number syntax, or a fraction without its leading zero (`.96`, `-.5`),
 * which the writer spells for numbers between -1 and 1 (`spellCellNumber`). The two alternatives begin with
 * different characters (a digit, a dot), so the match is linear.
 */
export const NUMBER_RE = /^-?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/**
 * Whether a string cell must be quoted (JSON string syntax) whatever its schema: empty (an empty cell is an
 * absent field), `null` (read as TOON reads it), white space at either end (a space, or any character
 * `String.prototype.trim` removes, such as U+2028, which a reply's extraction would cut off), or holding a
 * separator (`,` `;` `]`), a quote, a backslash or a control character. Everything else is written as it is:
 * the schema says it is a string.
 */
export function needsQuotes(s: string): boolean {
  const n = s.length;
  if (n === 0 || isTrimmed(s.charCodeAt(0)) || isTrimmed(s.charCodeAt(n - 1))) return true;
  if (n === 4 && s === "null") return true; // "null" raw is the null of TOON: a string field rejects it
  // one native scan: 1.7x faster than a charCodeAt loop over the examples' 1,108 strings (one character class,
  // so linear, no backtracking)
  return QUOTED_CHAR.test(s);
}

/**
 * A character `trim` removes that is not a control (those are quoted anyway): space, U+00A0, U+1680,
 * U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
 */
function isTrimmed(c: number): boolean {
  if (c < 0xa0) return c === 32;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** , ; ] " \ and C0 controls, DEL: a string holding one is quoted. */
const QUOTED_CHAR = /[\x00-\x1f",;\]\\\x7f]/;

/**
 * Whether a string cell of a scalar union must be quoted because its raw spelling would read as another branch:
 * `null`, `true`/`false`, or a number where the union also allows those.
 */
export function ambiguousInUnion(s: string, kinds: Set<string>): boolean {
  if (kinds.has("null") && s === "null") return true;
  if (kinds.has("boolean") && (s === "true" || s === "false")) return true;
  if ((kinds.has("number") || kinds.has("integer")) && NUMBER_RE.test(s)) return true;
  return false;
}

/** A key spelled raw in headers and field lines: no separators, brackets, braces, colons, quotes or spaces. */
export function keyNeedsQuotes(k: string): boolean {
  const n = k.length;
  if (n === 0 || isTrimmed(k.charCodeAt(0)) || isTrimmed(k.charCodeAt(n - 1))) return true;
  if (k.charCodeAt(0) === 45) return true; // a leading "-" would read as a list item
  for (let i = 0; i < n; i++) {
    const c = k.charCodeAt(i);
    // space , ; : [ ] { } " \ and controls
    if (c <= 32 || c === 44 || c === 59 || c === 58 || c === 91 || c === 93 || c === 123 || c === 125 || c === 34 || c === 92 || c === 127) return true;
  }
  return false;
}

export function spellKey(k: string): string {
  return keyNeedsQuotes(k) ? JSON.stringify(k) : k;
}

/** A number in JSON syntax, `-0` kept (lossless): JSON cells and the document's JSON. */
export function spellNumber(n: number): string {
  return n === 0 && 1 / n < 0 ? "-0" : String(n);
}

/**
 * A number in a text cell: as `spellNumber`, but a fraction between -1 and 1 without its leading zero (`.96`,
 * `-.5`): `,0.96` is 4 tokens in o200k_base, `,.96` 2 (the extraction example's confidences go
 * from 1,661 to 1,591 tokens), and a model reads both as the same number. The reader takes either spelling.
 */
export function spellCellNumber(n: number): string {
  const s = spellNumber(n);
  const c = s.charCodeAt(0);
  if (c === 48) return s.length > 1 && s.charCodeAt(1) === 46 ? s.slice(1) : s; // 0.x (not 0)
  if (c === 45 && s.charCodeAt(1) === 48 && s.charCodeAt(2) === 46) return "-" + s.slice(2); // -0.x (not -0)
  return s;
}

/**
 * Whether the text of an open root (anything, a map) is field lines, not JSON: JSON begins with `{` `[` `"` `-` or
 * a digit, or is `null`, `true` or `false`. The writer writes a root whose lines would begin so (a first key that
 * is quoted or starts with a digit) as JSON.
 */
export function openRootLines(t: string): boolean {
  const c = t.charCodeAt(0);
  if (t.length === 0 || c === 123 || c === 91 || c === 34 || c === 45 || (c >= 48 && c <= 57)) return false;
  return t !== "null" && t !== "true" && t !== "false";
}

/**
 * Whether text uses syntax only the dense layout has (a field group, an inline array, `key:1`): when it is neither
 * valid dense nor valid TOON, the error to report is the dense reader's if so, TOON's otherwise.
 */
export function looksDense(text: string): boolean {
  return DENSE_SYNTAX.test(text);
}

const DENSE_SYNTAX = /^ *(?:- )?(?:"[^"\n]*"|[^\s:[{"-][^:[{\n]*)(?:\{|:[-0-9.])|\{[^}\n]*(?:\{|\[\])|\[[0-9]+:/m;

/**
 * A `date-time` field's UTC stamp in ISO 8601 basic form: `2025-03-14T08:57:34Z` costs 13 tokens in o200k_base,
 * `20250314T085734Z` 7, and a model reads both as the same instant. Only the exact UTC form (upper-case `T` and
 * `Z`, optional fraction) is shortened, so the reader restores it character for character; other spellings
 * (offsets, lower case) are written as they are.
 */
export function basicStamp(s: string): string | undefined {
  const n = s.length;
  // YYYY-MM-DDTHH:MM:SS[.f+]Z, checked by hand: this runs on every date-time cell (a regex costs more)
  if (n < 20 || s.charCodeAt(n - 1) !== 90 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  if (!digits(s, 0, 4) || !digits(s, 5, 7) || !digits(s, 8, 10) || !digits(s, 11, 13) || !digits(s, 14, 16) || !digits(s, 17, 19)) return undefined;
  if (n > 20 && (n < 22 || s.charCodeAt(19) !== 46 || !digits(s, 20, n - 1))) return undefined;
  // one flat string from the code units (1.6x faster than joining five slices, and no rope for the caller)
  const basic = fromCharCode(s.charCodeAt(0), s.charCodeAt(1), s.charCodeAt(2), s.charCodeAt(3), s.charCodeAt(5), s.charCodeAt(6), s.charCodeAt(8), s.charCodeAt(9), 84, s.charCodeAt(11), s.charCodeAt(12), s.charCodeAt(14), s.charCodeAt(15), s.charCodeAt(17), s.charCodeAt(18));
  return n === 20 ? basic + "Z" : basic + s.slice(19);
}

const fromCharCode = String.fromCharCode;

export type StampFormat = "date-time" | "date";

/** A `date-time` or `date` string in ISO 8601 basic form, or undefined when it is not in the exact extended form. */
export function compactStamp(format: StampFormat, s: string): string | undefined {
  return format === "date" ? basicDate(s) : basicStamp(s);
}

/** The extended form of a raw basic `date-time` or `date` cell (undefined: not a basic form, read as written). */
export function expandStamp(format: StampFormat, s: string): string | undefined {
  return format === "date" ? extendedDate(s) : extendedStamp(s);
}

/**
 * A `date` field's `YYYY-MM-DD` in ISO 8601 basic form, `YYYYMMDD`: `2025-01-15` costs 5 tokens in o200k_base
 * after a comma, `20250115` 3 (bench/dense.ts measures the whole texts).
 */
export function basicDate(s: string): string | undefined {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || !digits(s, 0, 4) || !digits(s, 5, 7) || !digits(s, 8, 10)) return undefined;
  return fromCharCode(s.charCodeAt(0), s.charCodeAt(1), s.charCodeAt(2), s.charCodeAt(3), s.charCodeAt(5), s.charCodeAt(6), s.charCodeAt(8), s.charCodeAt(9));
}

/** The extended form of a raw basic date (a date string that was `YYYYMMDD` to begin with is quoted). */
export function extendedDate(s: string): string | undefined {
  if (s.length !== 8 || !digits(s, 0, 8)) return undefined;
  return fromCharCode(s.charCodeAt(0), s.charCodeAt(1), s.charCodeAt(2), s.charCodeAt(3), 45, s.charCodeAt(4), s.charCodeAt(5), 45, s.charCodeAt(6), s.charCodeAt(7));
}

/** The extended form of a raw basic stamp (a date-time string that was basic to begin with is quoted). */
export function extendedStamp(s: string): string | undefined {
  const n = s.length;
  // YYYYMMDDTHHMMSS[.f+]Z
  if (n < 16 || s.charCodeAt(n - 1) !== 90 || s.charCodeAt(8) !== 84 || !digits(s, 0, 8) || !digits(s, 9, 15)) return undefined;
  if (n > 16 && (n < 18 || s.charCodeAt(15) !== 46 || !digits(s, 16, n - 1))) return undefined;
  // YYYY-MM-DDTHH:MM:SS as one flat string from the code units (1.6x faster than joining slices)
  const head = fromCharCode(s.charCodeAt(0), s.charCodeAt(1), s.charCodeAt(2), s.charCodeAt(3), 45, s.charCodeAt(4), s.charCodeAt(5), 45, s.charCodeAt(6), s.charCodeAt(7), 84, s.charCodeAt(9), s.charCodeAt(10), 58, s.charCodeAt(11), s.charCodeAt(12), 58, s.charCodeAt(13), s.charCodeAt(14));
  return n === 16 ? head + "Z" : head + s.slice(15);
}

function digits(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
