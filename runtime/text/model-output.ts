/**
 * Finding the payload in what a language model wrote: a ```toon or ```json fence, prose before or after it,
 * JSON instead of TOON, or bare TOON. Used by generated `fromModelOutput`, which parses the payload strictly and
 * checks it against the schema: the result is the whole typed value or a ToonError, never a partial value.
 *
 * Before the search:
 * - the output may be a string or the reply as the SDKs give it (content parts, a message, a completion, a
 *   Responses `output` list): text parts are joined, reasoning parts (`thinking`, `redacted_thinking`,
 *   `reasoning`) and a Chat message's `reasoning_content` are skipped;
 * - `<think>`, `<thinking>` and `<reasoning>` blocks are blanked out (newlines kept, so line numbers hold), as is
 *   everything before a closing tag that has no opening one (templates that put `<think>` in the prompt). A block
 *   that is never closed runs to the end: with no payload outside it, the output is INCOMPLETE.
 *
 * Candidates, tried in this order until one decodes and checks (at most {@link MAX_CANDIDATES}):
 * 1. fenced blocks (``` or ~~~) labelled `toon`, then `json`/`json5`/`jsonc`, then any other fence; a fence that is
 *    never closed is a candidate that fails with INCOMPLETE (the output was cut off);
 * 2. without fences: the whole text when it is JSON (starts with `{` or `[`) or TOON (starts like the schema's
 *    root: one of its keys, or an array header); else, inside prose, the TOON block that starts with a line naming
 *    a root key (or a root array header) and runs while lines are indented, blank, or name a root key; then the
 *    first `{` (or `[`, for array roots) that opens JSON (`{"`, `{}`) and its balanced end.
 * The search is linear in the length of the output: each character is looked at a bounded number of times
 * (`stats.scanned` counts them; test/model-output.test.ts holds it to that on hostile inputs).
 *
 * The format of a candidate is detected from its content (a fence labelled json holding TOON still decodes).
 * Truncation is INCOMPLETE, fenced or not: an unclosed fence, JSON that ends before its value does, unfenced TOON
 * at the end of the output with fewer rows or items than its header declares. JSON errors name the slip
 * ("trailing comma before ]", "single-quoted string", "Python's True"); `{ repair: true }` fixes the common ones
 * (./json-repair.ts) and reports each. The fill spec (./model-fill.ts) reads empty TOON cells of optional fields
 * as absent and fills schema defaults. When no candidate succeeds, the error of the first one is thrown (line
 * numbers count from the start of the model output); when there is none at all, NO_PAYLOAD.
 */
import { ToonError, type ToonErrorOptions } from "../errors.ts";
import { checkDecoded, type TextCheckFn } from "./check.ts";
import { decodeTextExact, locateText, offsetToLineColumn } from "./decode.ts";
import { further } from "./layout-error.ts";
import { parseJsonRepairing, type JsonRepair } from "./json-repair.ts";
import { locateJson, parseJsonExact, type JsonParse } from "./reader/json-value.ts";
import { MAX_COUNT_REPAIRS, repairCount } from "./count-repair.ts";
import { applyFill, type FillSpec } from "./model-fill.ts";

export { parseJsonExact, type JsonParse } from "./reader/json-value.ts";

/** What the generated codec knows about its root, to spot an unfenced TOON payload inside prose. */
export interface PayloadHints {
  /** "object" (with `keys`: its declared property names; empty for a map), "array", or "other". */
  root: "object" | "array" | "other";
  keys: readonly string[];
}

/** Options of `fromModelOutput`. */
export interface ModelOutputOptions {
  /**
   * Accept the common JSON slips of models: trailing commas, single quotes, `True`/`False`/`None`, comments, raw
   * line breaks in strings, one missing closing `}` at the very end; and in TOON text of either layout, a table's
   * or list's `[N]` that does not match its rows or items, where the payload is complete (a closed fence, or
   * more of the reply after it). Off by default (strict).
   */
  repair?: boolean;
  /** Called for each repair made (with `repair: true`), once the repaired payload has decoded and checked. */
  onRepair?: (repair: JsonRepair) => void;
}

/** A model's reply: its text, or the reply as the SDKs give it (content parts, a message, a completion, a Responses output). */
export type ModelOutput = string | readonly unknown[] | { readonly [key: string]: unknown };

/** A generated module's prompting group (`<Codec>Prompt`): the documentation its members show in an editor. */
export interface PromptGroup<T> {
  readonly name: string;
  readonly fingerprint: number;
  /**
   * The value in a model's reply (its text, or the SDK's content parts): a ```toon or ```json block, TOON (either
   * layout) or JSON with prose around it, reasoning blocks skipped. Parsed strictly and checked like `fromText`
   * (empty table cells of optional fields are absent, schema defaults fill missing fields); `{ repair: true }`
   * accepts common JSON slips. Throws ToonError (NO_PAYLOAD when there is none, INCOMPLETE when cut off), never a
   * partial value.
   */
  fromModelOutput(output: ModelOutput, options?: ModelOutputOptions): T;
  /**
   * A prompt snippet showing the expected TOON shape (headers with field names, one example row); `{ layout:
   * "dense" }`: the dense layout's (docs/TEXT.md).
   */
  formatInstructions(options?: { layout?: "toon" | "dense" }): string;
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
  /** Unfenced, and it runs to the end of the output (so a shortfall at its end is a cut, not a slip). */
  atEnd?: boolean;
}

/** Work counter of the payload search (characters looked at). */
export interface PayloadSearchStats {
  scanned: number;
}

/** Candidates tried at most: a reply with hundreds of code fences costs a bounded number of decode attempts. */
export const MAX_CANDIDATES = 32;

const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+.-]*)[^\n]*$/;

// ---------------------------------------------------------------------------------------------------------------
// The reply's text

const REASONING_PARTS = new Set(["thinking", "redacted_thinking", "reasoning", "reasoning_text", "summary_text"]);

/** The text of a reply: a string as is; text parts of content lists, messages and completions joined by newlines. */
export function modelOutputText(output: ModelOutput): string {
  const parts: string[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof v === "string") {
      parts.push(v);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    if (typeof v !== "object" || v === null) return;
    const o = v as Record<string, unknown>;
    if (typeof o.type === "string" && REASONING_PARTS.has(o.type)) return;
    if (typeof o.text === "string" && (o.type === undefined || o.type === "text" || o.type === "output_text")) parts.push(o.text);
    else if (Array.isArray(o.choices)) visit((o.choices[0] as { message?: unknown } | undefined)?.message, depth + 1);
    else if (o.content !== undefined && o.content !== null) visit(o.content, depth + 1); // (reasoning_content is skipped)
    else if (Array.isArray(o.output)) visit(o.output, depth + 1);
  };
  visit(output, 0);
  return parts.join("\n");
}

const OPEN_TAG = /<(think|thinking|reasoning)\b[^>\n]{0,200}>/gi; // (attributes bounded: no rescans of a long line)
const CLOSE_TAG = /<\/(think|thinking|reasoning)\s*>/gi;

function blank(s: string): string {
  return s.replace(/[^\n]/g, " ");
}

/**
 * `text` with its reasoning blocks blanked out (same length, same lines); `open`: a block that never closed
 * (it runs to the end). One pass: each tag search starts where the previous one ended (`stats.scanned` adds the
 * characters the searches passed over).
 */
export function stripReasoning(text: string, stats: PayloadSearchStats = { scanned: 0 }): { text: string; open: boolean } {
  if (text.indexOf("<") < 0) return { text, open: false };
  const out: string[] = [];
  let from = 0;
  // a closing tag before any opening one: everything before it was reasoning
  OPEN_TAG.lastIndex = 0;
  CLOSE_TAG.lastIndex = 0;
  const firstOpen = OPEN_TAG.exec(text);
  const firstClose = CLOSE_TAG.exec(text);
  const upTo = (m: RegExpExecArray | null, start: number): number => (m === null ? text.length : m.index + m[0].length) - start;
  stats.scanned += upTo(firstOpen, 0) + upTo(firstClose, 0);
  if (firstClose !== null && (firstOpen === null || firstClose.index < firstOpen.index)) {
    from = firstClose.index + firstClose[0].length;
    out.push(blank(text.slice(0, from)));
  }
  let open = false;
  for (;;) {
    OPEN_TAG.lastIndex = from;
    const m = OPEN_TAG.exec(text);
    stats.scanned += upTo(m, from);
    if (m === null) break;
    out.push(text.slice(from, m.index));
    const close = new RegExp(`</${m[1]}\\s*>`, "gi");
    close.lastIndex = m.index + m[0].length;
    const c = close.exec(text);
    stats.scanned += upTo(c, m.index + m[0].length);
    if (c === null) {
      out.push(blank(text.slice(m.index)));
      from = text.length;
      open = true;
      break;
    }
    const end = c.index + c[0].length;
    out.push(blank(text.slice(m.index, end)));
    from = end;
  }
  out.push(text.slice(from));
  return { text: out.join(""), open };
}

// ---------------------------------------------------------------------------------------------------------------
// The search

/** The payload candidates of `output`, in the order they are tried. */
export function findPayloads(output: string, hints: PayloadHints, stats: PayloadSearchStats = { scanned: 0 }): Payload[] {
  const lines = output.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  stats.scanned += output.length;
  const fences: (Payload & { rank: number })[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]!);
    if (m === null) continue;
    const marker = m[1]!;
    const lang = m[2]!.toLowerCase();
    let end = -1;
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!.trim();
      stats.scanned += lines[j]!.length + 1;
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
    return fences.slice(0, MAX_CANDIDATES).map(({ rank: _rank, ...p }) => p);
  }
  const out: Payload[] = [];
  const first = firstContentLine(lines);
  if (first < 0) return out;
  const head = lines[first]!;
  const lead = head.trimStart();
  if (lead.startsWith("{") || (lead.startsWith("[") && !isArrayHeader(lead))) {
    // JSON, possibly with prose after it
    const start = offsetOfLine(lines, first) + (head.length - lead.length);
    const end = balancedEnd(output, start, stats);
    const p: Payload = { kind: "json", text: output.slice(start, end < 0 ? output.length : end), line: first, source: "whole" };
    if (end < 0) p.atEnd = true;
    out.push(p);
    return out;
  }
  if (startsPayload(head, hints)) {
    const last = toonBlockEnd(lines, first, hints);
    const p: Payload = { kind: "toon", text: lines.slice(first, last + 1).join("\n"), line: first, source: first === 0 && last === lines.length - 1 ? "whole" : "prose" };
    if (lines.slice(last + 1).every((l) => l.trim() === "")) p.atEnd = true;
    out.push(p);
  } else {
    for (let i = first + 1; i < lines.length; i++) {
      if (startsPayload(lines[i]!, hints)) {
        const last = toonBlockEnd(lines, i, hints);
        const p: Payload = { kind: "toon", text: lines.slice(i, last + 1).join("\n"), line: i, source: "prose" };
        if (lines.slice(last + 1).every((l) => l.trim() === "")) p.atEnd = true;
        out.push(p);
        break;
      }
    }
  }
  // the first brace that opens JSON, and only its balanced end: one scan, however many braces the prose holds
  const open = hints.root === "array" ? "[" : "{";
  for (let at = output.indexOf(open); at >= 0; at = output.indexOf(open, at + 1)) {
    if (!looksLikeJsonStart(output, at, stats)) continue;
    const end = balancedEnd(output, at, stats);
    if (end < 0) {
      // truncated JSON: a candidate that fails with the parser's error (INCOMPLETE)
      if (out.length === 0) out.push({ kind: "json", text: output.slice(at), line: lineOf(output, at), source: "prose", atEnd: true });
      break;
    }
    out.push({ kind: "json", text: output.slice(at, end), line: lineOf(output, at), source: "prose" });
    break;
  }
  return out;
}

/**
 * Decode the payload in model output with the check pass `check`: the typed value, or a ToonError (NO_PAYLOAD,
 * INCOMPLETE for a cut-off payload, TEXT_SYNTAX, INVALID_VALUE, ...) with lines counted in `output`.
 */
export function fromModelOutputWith<T>(output: ModelOutput, check: TextCheckFn, hints: PayloadHints, options: ModelOutputOptions = {}, fill?: FillSpec, dense?: (text: string) => unknown): T {
  if (typeof output !== "string" && (typeof output !== "object" || output === null)) throw new ToonError("INVALID_VALUE", "fromModelOutput expects the reply's text (or its content parts)");
  const { text, open } = stripReasoning(modelOutputText(output));
  const candidates = findPayloads(text, hints);
  if (candidates.length === 0) {
    if (open) throw new ToonError("INCOMPLETE", "the output ends inside a reasoning block (<think>, <thinking> or <reasoning> never closed): it looks truncated");
    throw new ToonError("NO_PAYLOAD", "no TOON or JSON payload found in the model output");
  }
  let first: ToonError | undefined;
  for (const c of candidates) {
    try {
      return options.repair === true ? decodeRepairingCounts<T>(c, check, options, fill, dense) : decodePayload<T>(c, check, options, fill, dense);
    } catch (e) {
      if (!(e instanceof ToonError)) throw e;
      first ??= e;
    }
  }
  throw first as ToonError;
}

/**
 * `decodePayload` with `repair: true`: a table's or list's miscounted `[N]` in a complete payload (a closed fence,
 * or text that more of the reply follows) is set to what is under it and the payload read again
 * (text/count-repair.ts), up to MAX_COUNT_REPAIRS times; the repairs are reported once the value has decoded and
 * checked. A payload that may be cut off (an unclosed fence, text that runs to the end of the reply) is not
 * touched, and when the repairs do not make it read, the first error is the one thrown.
 */
function decodeRepairingCounts<T>(c: Payload, check: TextCheckFn, options: ModelOutputOptions, fill?: FillSpec, dense?: (text: string) => unknown): T {
  if (c.kind !== "toon" || c.unclosed === true || c.atEnd === true) return decodePayload<T>(c, check, options, fill, dense);
  const fixes: JsonRepair[] = [];
  let first: ToonError | undefined;
  let p = c;
  for (;;) {
    try {
      const v = decodePayload<T>(p, check, options, fill, dense);
      for (const r of fixes) options.onRepair?.({ ...r, line: r.line + c.line });
      return v;
    } catch (e) {
      if (!(e instanceof ToonError)) throw e;
      const m = e.code === "TEXT_SYNTAX" && e.line !== undefined && fixes.length < MAX_COUNT_REPAIRS ? COUNT_MISMATCH.exec(e.reason) : null;
      const fix = m === null ? undefined : repairCount(p.text, e.line! - c.line, Number(m[1]));
      if (fix === undefined) throw first ?? e;
      first ??= e;
      fixes.push(fix.repair);
      p = { ...p, text: fix.text };
    }
  }
}

/** A count error of the dense reader or the TOON decoder, with the count the header declares (count-repair.ts). */
const COUNT_MISMATCH = /declares (\d+) (?:rows|items|values|entries)(?:, found | but has )/;
const DENSE_SHORTFALL = /declares (\d+) (?:rows|items), found (\d+)/;
const SHORTFALL = /declares (\d+) (?:rows|items|values|entries) but has (\d+)/;

/** Decode and check one candidate (line numbers in errors count from the start of the model output). */
export function decodePayload<T>(c: Payload, check: TextCheckFn, options: ModelOutputOptions = {}, fill?: FillSpec, dense?: (text: string) => unknown): T {
  let denseError: ToonError | undefined;
  if (c.unclosed) {
    throw new ToonError("INCOMPLETE", `the ${c.source === "fence:toon" ? "```toon" : c.source === "fence:json" ? "```json" : "fenced"} block is never closed: the output looks truncated`, {
      line: c.line,
      column: 1,
    });
  }
  try {
    if (c.kind === "json") {
      // with repair, the reader reads the slips itself (positions stay those of the text as written)
      const r: JsonParse & { repairs?: JsonRepair[] } = options.repair === true ? parseJsonRepairing(c.text) : parseJsonExact(c.text, true);
      if (fill !== undefined) applyFill(r.value, fill, false);
      const v = checkDecoded<T>(r.value, r.raws, check, (e) => offsetToLineColumn(c.text, locateJson(r, e.path)));
      for (const x of r.repairs ?? []) options.onRepair?.({ ...x, line: x.line + c.line });
      return v;
    }
    // the dense layout (docs/TEXT.md) first when the codec has one: strict, so TOON v4 that is not dense fails fast
    if (dense !== undefined) {
      try {
        const v = dense(c.text) as T;
        if (fill !== undefined) applyFill(v, fill, false);
        return v;
      } catch (e) {
        if (!(e instanceof ToonError)) throw e;
        denseError = e;
      }
    }
    let r: ReturnType<typeof decodeTextExact>;
    try {
      r = decodeTextExact(c.text);
    } catch (e) {
      if (denseError !== undefined && e instanceof ToonError && further(denseError, e, c.text) === denseError) throw denseError;
      const m = e instanceof ToonError && e.code === "TEXT_SYNTAX" && c.atEnd ? SHORTFALL.exec(e.reason) : null;
      if (m !== null && Number(m[2]) < Number(m[1])) throw asIncomplete(e as ToonError, "unfenced TOON at the end of the output has fewer entries than its header declares: it looks truncated");
      throw e;
    }
    if (fill !== undefined) applyFill(r.value, fill, true);
    try {
      return checkDecoded<T>(r.value, r.raws, check, (e) => locateText(c.text, e.path));
    } catch (e) {
      if (denseError !== undefined && e instanceof ToonError && further(denseError, e, c.text) === denseError) throw denseError;
      throw e;
    }
  } catch (e) {
    if (e instanceof ToonError && e.code === "TEXT_SYNTAX" && c.atEnd && c.kind !== "json") {
      const m = DENSE_SHORTFALL.exec(e.reason);
      if (m !== null && Number(m[2]) < Number(m[1])) throw shift(asIncomplete(e, "dense text at the end of the output has fewer entries than its header declares: it looks truncated"), c.line);
    }
    // the dense reader ran into the end of a payload that ends the output (TOON's error may have been the one
    // thrown, but the text was cut off mid-line)
    const cut = denseError?.atEnd === true ? denseError : undefined;
    if (cut !== undefined && c.atEnd && c.kind !== "json") {
      throw shift(asIncomplete(cut, "dense text at the end of the output stops in the middle of a value: it looks truncated"), c.line);
    }
    throw shift(e, c.line);
  }
}

function asIncomplete(e: ToonError, why: string): ToonError {
  const opts: ToonErrorOptions = { path: e.path, cause: e };
  if (e.line !== undefined) opts.line = e.line;
  if (e.column !== undefined) opts.column = e.column;
  return new ToonError("INCOMPLETE", `${why} (${e.reason})`, opts);
}

function shift(e: unknown, lines: number): unknown {
  if (!(e instanceof ToonError) || e.line === undefined || lines === 0) return e;
  const opts: ToonErrorOptions = { path: e.path, line: e.line + lines, cause: e.cause ?? e };
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

// a field, array or table line of TOON, or of the dense layout (a field group `key{a,b{c}}:`, docs/TEXT.md)
const KEY_LINE = /^(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_][A-Za-z0-9_.]*))[ \t]*(?:\[[^\]]*\])?[ \t]*(?:\{[^\n]*\})?[ \t]*:/;

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
    // the output's last line, cut off inside the key or header of the next field line (`e`, `window{start,en`):
    // part of the block, so that reading it runs into the end of the output (INCOMPLETE), never a value that
    // silently lacks the fields after it
    if (i === lines.length - 1 && cutKeyLine(l, hints)) last = i;
    break;
  }
  return last;
}

/**
 * Whether `line` is the start of a root field line cut off before its colon: a prefix of a root key (any word
 * where the keys are open), or a whole root key followed by the start of its `[N]` or `{...}` header.
 */
function cutKeyLine(line: string, hints: PayloadHints): boolean {
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
function looksLikeJsonStart(text: string, at: number, stats: PayloadSearchStats): boolean {
  let i = at + 1;
  while (i < text.length && (text[i] === " " || text[i] === "\n" || text[i] === "\r" || text[i] === "\t")) i++;
  stats.scanned += i - at;
  if (i >= text.length) return true;
  const c = text[i]!;
  return text[at] === "{" ? c === '"' || c === "}" : /[[{"\]\-0-9tfn]/.test(c);
}

/** Index after the bracket that closes the one at `start` (string-aware), or -1 when it is never closed. */
function balancedEnd(text: string, start: number, stats: PayloadSearchStats): number {
  let depth = 0;
  let i = start;
  try {
    for (; i < text.length; i++) {
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
  } finally {
    stats.scanned += Math.min(i, text.length) - start + 1;
  }
}
