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

// a field, array or table line of TOON, or of the dense layout (a field group `key{a,b{c}}:`, docs/TEXT.md)
const KEY_LINE = /^(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_][A-Za-z0-9_.]*))[ \t]*(?:\[[^\]]*\])?[ \t]*(?:\{[^\n]*\})?[ \t]*:/;

/** Whether `line` (at column 0) can start a TOON payload for the root described by `hints`. */
export function startsPayload(line: string, hints: PayloadHints): boolean {
  if (line.length === 0 || line[0] === " " || line[0] === "\t") return false;
  if (hints.root === "array") return isArrayHeader(line) && line.includes(":");
  if (hints.root !== "object") return false;
  return rootKeyLine(line, hints);
}

/** Whether `line` is a field line of one of the root's keys (any key, for an open root). */
export function rootKeyLine(line: string, hints: PayloadHints): boolean {
  const m = KEY_LINE.exec(line);
  if (m === null) return false;
  if (hints.keys.length === 0) return true;
  let key = m[2];
  if (key === undefined) {
    try {
      key = JSON.parse('"' + m[1]! + '"') as string;
    } catch {
      return false;
    }
  }
  return hints.keys.includes(key);
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
