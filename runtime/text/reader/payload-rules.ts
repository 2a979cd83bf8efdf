/**
 * How a payload shows itself in a model's reply: fences, the line that starts TOON (either layout) for a root,
 * the braces that start JSON. One set of rules for both searches: the whole reply's (`findPayloads`,
 * ../model-output.ts) and the streaming one (./payload.ts), so a reply read in pieces finds what the whole does.
 */

/** What the generated codec knows about its root, to spot an unfenced TOON payload inside prose. */
export interface PayloadHints {
  /** "object" (with `keys`: its declared property names; empty for a map), "array", or "other". */
  root: "object" | "array" | "other";
  keys: readonly string[];
}

/** A fence line: its marker (3+ backticks or tildes) and its label. Anchored, one optional run per part. */
export const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+.-]*)[^\n]*$/;

/** How much a fence's label says it holds our payload: 0 `toon`, 1 JSON, 2 anything else. */
export function fenceRank(label: string): number {
  const lang = label.toLowerCase();
  return lang === "toon" ? 0 : lang === "json" || lang === "json5" || lang === "jsonc" ? 1 : 2;
}

/** Whether `line` closes a fence opened with `marker`: the marker's character only, at least as many. */
export function closesFence(line: string, marker: string): boolean {
  // every line of a fenced payload is asked: most hold no marker at all, which one native search says
  if (!line.includes(marker)) return false;
  const l = line.trim();
  return l.length >= marker.length && l === marker[0]!.repeat(l.length);
}

/** `[3]:`, `[2|]{a|b}:`, `[2:]{x}:`: a keyless TOON array or keyed header (not JSON). */
export function isArrayHeader(line: string): boolean {
  return /^\[\d+:?[\t|]?\]/.test(line);
}

/** Whether a payload whose content begins with `t` (blanks before it removed) is JSON, given its fence's label. */
export function jsonPayload(t: string, lang: string): boolean {
  if (t.startsWith("{")) return true;
  if (t.startsWith("[")) return !isArrayHeader(t);
  return lang === "json" && /^(?:"(?:[^"\\]|\\.)*"|-?\d|true\b|false\b|null\b)/.test(t) && !/^"(?:[^"\\]|\\.)*"\s*(?:\[|:)/.test(t);
}

/** Spaces and tabs from `i`: the index after them. */
function blanks(line: string, i: number): number {
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  return i;
}

function identifierChar(c: number, first: boolean): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (!first && ((c >= 48 && c <= 57) || c === 46));
}

/**
 * The key of a field, array or table line of TOON, or of the dense layout (a field group `key{a,b{c}}:`,
 * docs/TEXT.md): `key`, `"quoted key"`, then optionally `[N]` and `{fields}`, then `:`; undefined when the line is
 * none, null when its quoted key is not a JSON string. One pass, each character looked at a bounded number of times (a pattern for this, with three runs of
 * blanks and a greedy `{...}`, took 650 ms on a line of 1,250 tabs).
 */
function keyOfLine(line: string): string | null | undefined {
  let i: number;
  let key: string | null;
  if (line.charCodeAt(0) === 34) {
    i = 1;
    while (i < line.length && line.charCodeAt(i) !== 34) i += line.charCodeAt(i) === 92 ? 2 : 1;
    if (i >= line.length) return undefined;
    try {
      key = JSON.parse(line.slice(0, i + 1)) as string;
    } catch {
      key = null; // (raw control characters, unknown escapes): a key line still, of no key JSON can name
    }
    i++;
  } else {
    if (line.length === 0 || !identifierChar(line.charCodeAt(0), true)) return undefined;
    i = 1;
    while (i < line.length && identifierChar(line.charCodeAt(i), false)) i++;
    key = line.slice(0, i);
  }
  i = blanks(line, i);
  if (line.charCodeAt(i) === 91) {
    const close = line.indexOf("]", i + 1);
    if (close === -1) return undefined;
    i = blanks(line, close + 1);
  }
  if (line.charCodeAt(i) === 123) {
    // fields, up to a `}` that blanks and the colon follow (the runs of blanks after each `}` do not overlap)
    for (let k = line.indexOf("}", i + 1); k !== -1; k = line.indexOf("}", k + 1)) {
      if (line.charCodeAt(blanks(line, k + 1)) === 58) return key;
    }
    return undefined;
  }
  return line.charCodeAt(i) === 58 ? key : undefined;
}

/** Whether `line` (at column 0) can start a TOON payload for the root described by `hints`. */
export function startsPayload(line: string, hints: PayloadHints): boolean {
  if (line.length === 0 || line[0] === " " || line[0] === "\t") return false;
  if (hints.root === "array") return isArrayHeader(line) && line.includes(":");
  if (hints.root !== "object") return false;
  return rootKeyLine(line, hints);
}

/** Whether `line` is a field line of one of the root's keys (any key, for an open root). */
export function rootKeyLine(line: string, hints: PayloadHints): boolean {
  const key = keyOfLine(line);
  if (key === undefined) return false;
  return hints.keys.length === 0 || (key !== null && hints.keys.includes(key));
}

/**
 * The rows a table header at column 0 declares (`key[N]{...}:`, `[N]{...}:`), 0 for any other line. The dense
 * layout writes the rows of a table that ends the document flush left (docs/TEXT.md §2): an unfenced block goes on
 * for that many lines when the first of them is flush left too.
 */
export function declaredRows(line: string): number {
  const m = TABLE_HEADER.exec(line);
  return m === null ? 0 : Number(m[1]);
}

/** A table header at column 0: a key (quoted or not; none at the root), `[N]`, a field list, the colon. */
const TABLE_HEADER = /^(?:"(?:[^"\\]|\\.)*"|[^\s"[{:]*)\[(\d{1,9})[|\t]?\]\{.*\}:[ \t]*$/;

/** Where an unfenced block stands after its lines so far, as to flush rows (see `declaredRows`). */
export class FlushRows {
  /** Rows the last header declared, not read yet; -1: none (or the rows are indented, as blocks read them). */
  private left = -1;
  private armed = false;

  /** A line of the block (not blank) was read: true when it is a flush row of the table above it. */
  row(line: string): boolean {
    if (this.armed) {
      this.armed = false;
      if (line.length > 0 && line[0] !== " " && line[0] !== "\t") this.left = this.pending;
    }
    if (this.left > 0) {
      this.left--;
      return true;
    }
    this.left = -1;
    return false;
  }

  /** A line that continues the block: a table header at column 0 arms it (its first row says flush or not). */
  header(line: string): void {
    const n = declaredRows(line);
    this.armed = n > 0;
    this.pending = n;
  }

  /** The block is at a flush row still to come (a cut line there is part of the block). */
  get inRows(): boolean {
    return this.left > 0 || this.armed;
  }

  private pending = 0;
}

/** Whether `line` continues an unfenced TOON block: blank, indented, or a root key's line. */
export function continuesBlock(line: string, hints: PayloadHints): boolean {
  return line.trim() === "" || line[0] === " " || line[0] === "\t" || (hints.root === "object" && rootKeyLine(line, hints));
}

/**
 * Whether `line` is the start of a root field line cut off before its colon: a prefix of a root key (any word
 * where the keys are open), or a whole root key followed by the start of its `[N]` or `{...}` header. The reply's
 * last line so is part of the block before it, so that reading it runs into the end of the reply (INCOMPLETE),
 * never a value that silently lacks the fields after it.
 */
export function cutKeyLine(line: string, hints: PayloadHints): boolean {
  if (hints.root !== "object") return false;
  const m = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(line);
  if (m === null) return false;
  const word = m[0];
  const rest = line.slice(word.length);
  if (rest !== "" && rest[0] !== "[" && rest[0] !== "{") return false;
  if (rest.includes(":")) return false; // a whole header and its colon: a key line (rootKeyLine), or not one at all
  if (hints.keys.length === 0) return true;
  return rest === "" ? hints.keys.some((k) => k.startsWith(word)) : hints.keys.includes(word);
}

/** Whether the character after an opening brace or bracket (blanks skipped) says it opens JSON, not prose. */
export function opensJson(open: number, next: number): boolean {
  if (open === 123) return next === 34 || next === 125; // {" or {}
  // [{  [[  ["  []  [-  [0-9  [t  [f  [n
  return next === 123 || next === 91 || next === 34 || next === 93 || next === 45 || (next >= 48 && next <= 57) || next === 116 || next === 102 || next === 110;
}
