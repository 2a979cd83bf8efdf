/**
 * Finding the payload in what a language model wrote: a ```toon or ```json fence, prose before or after it,
 * JSON instead of TOON, or bare TOON. Used by generated `fromModelOutput`, which parses the payload strictly and
 * checks it against the schema: the result is the whole typed value or a ToonError, never a partial value.
 *
 * Candidates, tried in this order until one decodes and checks:
 * 1. fenced blocks (``` or ~~~) labelled `toon`, then `json`/`json5`/`jsonc`, then any other fence; a fence that is
 *    never closed is a candidate that fails with INCOMPLETE (the output was cut off);
 * 2. without fences: the whole text when it is JSON (starts with `{` or `[`) or TOON (starts like the schema's
 *    root: one of its keys, or an array header); else, inside prose, the TOON block that starts with a line naming
 *    a root key (or a root array header) and runs while lines are indented, blank, or name a root key; then the
 *    first balanced JSON object (or array, for array roots).
 * The format of a candidate is detected from its content (a fence labelled json holding TOON still decodes).
 * When no candidate succeeds, the error of the first one is thrown (line numbers count from the start of the
 * model output); when there is none at all, NO_PAYLOAD.
 */
import { ToonError, pointerSegment } from "../errors.ts";
import { checkDecoded, type TextCheckFn } from "./check.ts";
import { TextNumber, decodeTextExact, locateText, offsetToLineColumn } from "./decode.ts";

/** What the generated codec knows about its root, to spot an unfenced TOON payload inside prose. */
export interface PayloadHints {
  /** "object" (with `keys`: its declared property names; empty for a map), "array", or "other". */
  root: "object" | "array" | "other";
  keys: readonly string[];
}

/** A payload candidate found in model output. */
export interface Payload {
  kind: "toon" | "json";
  text: string;
  /** Zero-based line of the payload's first line in the model output. */
  line: number;
  /** How it was found: "fence:toon", "fence:json", "fence", "whole", "prose". */
  source: string;
  /** A fence that was opened and never closed. */
  unclosed?: boolean;
}

const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+.-]*)[^\n]*$/;

/** The payload candidates of `output`, in the order they are tried. */
export function findPayloads(output: string, hints: PayloadHints): Payload[] {
  const lines = output.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const fences: (Payload & { rank: number })[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]!);
    if (m === null) continue;
    const marker = m[1]!;
    const lang = m[2]!.toLowerCase();
    let end = -1;
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!.trim();
      if (l.length >= marker.length && l === marker[0]!.repeat(l.length)) {
        end = j;
        break;
      }
    }
    const body = lines.slice(i + 1, end < 0 ? lines.length : end).join("\n");
    const rank = lang === "toon" ? 0 : lang === "json" || lang === "json5" || lang === "jsonc" ? 1 : 2;
    if (body.trim() !== "" || end < 0) {
      const p: Payload & { rank: number } = { kind: detect(body, lang), text: body, line: i + 1, source: rank === 0 ? "fence:toon" : rank === 1 ? "fence:json" : "fence", rank };
      if (end < 0) p.unclosed = true;
      fences.push(p);
    }
    if (end < 0) break;
    i = end;
  }
  if (fences.length > 0) {
    fences.sort((a, b) => a.rank - b.rank);
    return fences.map(({ rank: _rank, ...p }) => p);
  }
  const out: Payload[] = [];
  const first = firstContentLine(lines);
  if (first < 0) return out;
  const head = lines[first]!;
  const lead = head.trimStart();
  if (lead.startsWith("{") || (lead.startsWith("[") && !isArrayHeader(lead))) {
    // JSON, possibly with prose after it
    const start = offsetOfLine(lines, first) + (head.length - lead.length);
    const end = balancedEnd(output, start);
    out.push({ kind: "json", text: output.slice(start, end < 0 ? output.length : end), line: first, source: "whole" });
    return out;
  }
  if (startsPayload(head, hints)) {
    const last = toonBlockEnd(lines, first, hints);
    out.push({ kind: "toon", text: lines.slice(first, last + 1).join("\n"), line: first, source: first === 0 && last === lines.length - 1 ? "whole" : "prose" });
  } else {
    for (let i = first + 1; i < lines.length; i++) {
      if (startsPayload(lines[i]!, hints)) {
        const last = toonBlockEnd(lines, i, hints);
        out.push({ kind: "toon", text: lines.slice(i, last + 1).join("\n"), line: i, source: "prose" });
        break;
      }
    }
  }
  const open = hints.root === "array" ? "[" : "{";
  for (let at = output.indexOf(open); at >= 0; at = output.indexOf(open, at + 1)) {
    const end = balancedEnd(output, at);
    if (end < 0) {
      // truncated JSON: a candidate that fails with the parser's error
      if (out.length === 0 && looksLikeJsonStart(output, at)) out.push({ kind: "json", text: output.slice(at), line: lineOf(output, at), source: "prose" });
      break;
    }
    const text = output.slice(at, end);
    if (looksLikeJsonStart(output, at)) {
      out.push({ kind: "json", text, line: lineOf(output, at), source: "prose" });
      break;
    }
  }
  return out;
}

/**
 * Decode the payload in model output with the check pass `check`: the typed value, or a ToonError (NO_PAYLOAD,
 * INCOMPLETE for an unclosed fence, TEXT_SYNTAX, INVALID_VALUE, ...) with lines counted in `output`.
 */
export function fromModelOutputWith<T>(output: string, check: TextCheckFn, hints: PayloadHints): T {
  if (typeof output !== "string") throw new ToonError("INVALID_VALUE", "fromModelOutput expects a string");
  const candidates = findPayloads(output, hints);
  if (candidates.length === 0) throw new ToonError("NO_PAYLOAD", "no TOON or JSON payload found in the model output");
  let first: ToonError | undefined;
  for (const c of candidates) {
    try {
      return decodePayload<T>(c, check);
    } catch (e) {
      if (!(e instanceof ToonError)) throw e;
      first ??= e;
    }
  }
  throw first as ToonError;
}

/** Decode and check one candidate (line numbers in errors count from the start of the model output). */
export function decodePayload<T>(c: Payload, check: TextCheckFn): T {
  if (c.unclosed) {
    throw new ToonError("INCOMPLETE", `the ${c.source === "fence:toon" ? "```toon" : c.source === "fence:json" ? "```json" : "fenced"} block is never closed: the output looks truncated`, {
      line: c.line,
      column: 1,
    });
  }
  try {
    if (c.kind === "json") {
      const r = parseJsonExact(c.text, true);
      return checkDecoded<T>(r.value, r.raws, check, (e) => {
        const at = locateJson(r, e.path);
        return offsetToLineColumn(c.text, at);
      });
    }
    const r = decodeTextExact(c.text);
    return checkDecoded<T>(r.value, r.raws, check, (e) => locateText(c.text, e.path));
  } catch (e) {
    throw shift(e, c.line);
  }
}

function shift(e: unknown, lines: number): unknown {
  if (!(e instanceof ToonError) || e.line === undefined || lines === 0) return e;
  const opts: ConstructorParameters<typeof ToonError>[2] = { path: e.path, line: e.line + lines, cause: e.cause ?? e };
  if (e.column !== undefined) opts.column = e.column;
  if (e.details !== undefined) opts.details = e.details;
  return new ToonError(e.code, e.reason, opts);
}

// ---------------------------------------------------------------------------------------------------------------
// Detection

function detect(body: string, lang: string): "toon" | "json" {
  const t = body.trimStart();
  if (t.startsWith("{")) return "json";
  if (t.startsWith("[")) return isArrayHeader(t) ? "toon" : "json";
  if (lang === "json" && /^(?:"(?:[^"\\]|\\.)*"|-?\d|true\b|false\b|null\b)/.test(t) && !/^"(?:[^"\\]|\\.)*"\s*(?:\[|:)/.test(t)) return "json";
  return "toon";
}

/** `[3]:`, `[2|]{a|b}:`, `[2:]{x}:` – a keyless TOON array or keyed header. */
function isArrayHeader(line: string): boolean {
  return /^\[\d+:?[\t|]?\]/.test(line);
}

const KEY_LINE = /^(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_][A-Za-z0-9_.]*))[ \t]*(?:\[[^\]]*\][ \t]*(?:\{[^}]*\})?)?[ \t]*:/;

/** Whether `line` (at column 0) can start a TOON payload for the root described by `hints`. */
function startsPayload(line: string, hints: PayloadHints): boolean {
  if (line.length === 0 || line[0] === " " || line[0] === "\t") return false;
  if (hints.root === "array") return isArrayHeader(line) && line.includes(":");
  if (hints.root !== "object") return false;
  return rootKeyLine(line, hints);
}

function rootKeyLine(line: string, hints: PayloadHints): boolean {
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

/** Last line of the TOON block starting at `first`: indented, blank and root-key lines continue it. */
function toonBlockEnd(lines: string[], first: number, hints: PayloadHints): number {
  let last = first;
  for (let i = first + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() === "") continue;
    if (l[0] === " " || l[0] === "\t" || (hints.root === "object" && rootKeyLine(l, hints))) {
      last = i;
      continue;
    }
    break;
  }
  return last;
}

function firstContentLine(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) if (lines[i]!.trim() !== "") return i;
  return -1;
}

function offsetOfLine(lines: string[], n: number): number {
  let o = 0;
  for (let i = 0; i < n; i++) o += lines[i]!.length + 1;
  return o;
}

function lineOf(text: string, offset: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Whether the `{` or `[` at `at` opens JSON (`{"`, `{}`, `[{`, `[1`, ...) rather than prose braces. */
function looksLikeJsonStart(text: string, at: number): boolean {
  let i = at + 1;
  while (i < text.length && (text[i] === " " || text[i] === "\n" || text[i] === "\r" || text[i] === "\t")) i++;
  if (i >= text.length) return true;
  const c = text[i]!;
  return text[at] === "{" ? c === '"' || c === "}" : /[[{"\]\-0-9tfn]/.test(c);
}

/** Index after the bracket that closes the one at `start` (string-aware), or -1 when it is never closed. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------------------
// Strict JSON with exact numbers and positions

/** Result of {@link parseJsonExact}: the value, how many TextNumbers it holds, and (optionally) positions. */
export interface JsonParse {
  value: unknown;
  raws: number;
  track: Map<object, Map<string | number, number>> | null;
}

const MAX_JSON_DEPTH = 1000;

/**
 * Parse JSON strictly (RFC 8259: no duplicate keys, nothing after the value but whitespace), like `JSON.parse`
 * except that number tokens a double does not carry exactly become {@link TextNumber} (as in `decodeTextExact`),
 * `__proto__` keys become own properties, and errors are ToonError TEXT_SYNTAX with line and column.
 */
export function parseJsonExact(text: string, track = false): JsonParse {
  const p = new JsonParser(text, track);
  p.ws();
  const value = p.value(1);
  p.ws();
  if (p.i < text.length) throw p.fail("unexpected content after the JSON value");
  return { value, raws: p.raws, track: p.track };
}

class JsonParser {
  i = 0;
  raws = 0;
  readonly track: Map<object, Map<string | number, number>> | null;
  constructor(
    readonly t: string,
    track: boolean,
  ) {
    this.track = track ? new Map() : null;
  }

  fail(reason: string, at = this.i): ToonError {
    const { line, column } = offsetToLineColumn(this.t, at);
    return new ToonError("TEXT_SYNTAX", `invalid JSON: ${reason}`, { line, column });
  }

  ws(): void {
    const t = this.t;
    let c = t.charCodeAt(this.i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++this.i);
  }

  at(container: object, key: string | number, pos: number): void {
    if (this.track === null) return;
    let m = this.track.get(container);
    if (m === undefined) this.track.set(container, (m = new Map()));
    m.set(key, pos);
  }

  value(depth: number): unknown {
    const t = this.t;
    if (this.i >= t.length) throw this.fail("unexpected end of input (truncated?)");
    const c = t.charCodeAt(this.i);
    if (c === 123 || c === 91) {
      if (depth > MAX_JSON_DEPTH) throw new ToonError("DEPTH_LIMIT", `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, offsetToLineColumn(t, this.i));
      return c === 123 ? this.object(depth) : this.array(depth);
    }
    if (c === 34) return this.string();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    for (const [word, v] of LITERALS) {
      if (t.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    throw this.fail(`unexpected character ${JSON.stringify(t[this.i])}`);
  }

  object(depth: number): Record<string, unknown> {
    const t = this.t;
    const o: Record<string, unknown> = {};
    this.i++;
    this.ws();
    if (t.charCodeAt(this.i) === 125) {
      this.i++;
      return o;
    }
    for (;;) {
      if (t.charCodeAt(this.i) !== 34) throw this.fail(this.i >= t.length ? "unexpected end of input (truncated?)" : "expected a property name in double quotes");
      const keyAt = this.i;
      const k = this.string();
      if (Object.prototype.hasOwnProperty.call(o, k)) throw this.fail(`duplicate key ${JSON.stringify(k)}`, keyAt);
      this.ws();
      if (t.charCodeAt(this.i) !== 58) throw this.fail(this.i >= t.length ? "unexpected end of input (truncated?)" : "expected ':' after property name");
      this.i++;
      this.ws();
      this.at(o, k, this.i);
      let v: unknown;
      try {
        v = this.value(depth + 1);
      } catch (e) {
        if (e instanceof ToonError) e.prefixPath(pointerSegment(k));
        throw e;
      }
      if (k === "__proto__") Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      else o[k] = v;
      this.ws();
      const c = t.charCodeAt(this.i);
      this.i++;
      if (c === 44) {
        this.ws();
        continue;
      }
      if (c === 125) return o;
      this.i--;
      throw this.fail(this.i >= t.length ? "unexpected end of input (truncated?)" : "expected ',' or '}' after a property value");
    }
  }

  array(depth: number): unknown[] {
    const t = this.t;
    const a: unknown[] = [];
    this.i++;
    this.ws();
    if (t.charCodeAt(this.i) === 93) {
      this.i++;
      return a;
    }
    for (;;) {
      this.at(a, a.length, this.i);
      try {
        a.push(this.value(depth + 1));
      } catch (e) {
        if (e instanceof ToonError) e.prefixPath(pointerSegment(a.length));
        throw e;
      }
      this.ws();
      const c = t.charCodeAt(this.i);
      this.i++;
      if (c === 44) {
        this.ws();
        continue;
      }
      if (c === 93) return a;
      this.i--;
      throw this.fail(this.i >= t.length ? "unexpected end of input (truncated?)" : "expected ',' or ']' after an array item");
    }
  }

  string(): string {
    const t = this.t;
    const start = this.i;
    let i = start + 1;
    let escaped = false;
    for (;;) {
      if (i >= t.length) throw this.fail("unterminated string (truncated?)", start);
      const c = t.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) throw this.fail("raw control character in string", i);
      if (c === 92) {
        escaped = true;
        i += 2;
      } else i++;
    }
    this.i = i + 1;
    if (!escaped) return t.slice(start + 1, i);
    try {
      return JSON.parse(t.slice(start, i + 1)) as string;
    } catch {
      throw this.fail("invalid escape in string", start);
    }
  }

  number(): unknown {
    const t = this.t;
    const m = NUMBER.exec(t.slice(this.i, this.i + 400));
    if (m === null) throw this.fail("invalid number");
    const raw = m[0];
    this.i += raw.length;
    const x = Number(raw);
    if (x - x !== 0) return raw; // overflow to ±Infinity: keep the text (as decodeText does)
    if (x === 0) return raw === "0" ? 0 : (this.raws++, new TextNumber(0, raw));
    if (String(x) === raw && !(Number.isInteger(x) && (x > 9007199254740991 || x < -9007199254740991))) return x;
    this.raws++;
    return new TextNumber(x, raw);
  }
}

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/;
const LITERALS: readonly (readonly [string, unknown])[] = [
  ["true", true],
  ["false", false],
  ["null", null],
];

function locateJson(r: JsonParse, path: string): number {
  let v = r.value;
  let pos = 0;
  const segs = path === "" ? [] : path.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  for (const seg of segs) {
    if (v === null || typeof v !== "object") break;
    const key: string | number = Array.isArray(v) ? Number(seg) : seg;
    const at = r.track?.get(v)?.get(key);
    if (at === undefined) break;
    pos = at;
    v = (v as Record<string | number, unknown>)[key];
  }
  return pos;
}
