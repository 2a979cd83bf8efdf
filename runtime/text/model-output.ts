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
import { ToonError, optionsArg } from "../wire/errors.ts";
import type { StreamEvent } from "../stream/events.ts";
import type { JsonRepair } from "./json-repair.ts";
import { PayloadReader, type ReaderSpec } from "./reader/payload-reader.ts";
import { shiftLines } from "./reader/shift.ts";
import { FENCE, FlushRows, closesFence, continuesBlock, cutKeyLine, fenceRank, isArrayHeader, jsonPayload, opensJson, startsPayload, type PayloadHints } from "./reader/payload-rules.ts";
import type { TextReader, TextReaderOptions } from "./reader/text-reader.ts";
import type { TextSource } from "./reader/read-stream.ts";

export { parseJsonExact, type JsonParse } from "./reader/json-value.ts";
export type { PayloadHints } from "./reader/payload-rules.ts";

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
export interface PromptGroup<T, P extends Record<string, unknown> = Record<string, unknown>> {
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
   * A streaming reader of a model's reply (or, with `{ input: "text" }`, of TOON text of either layout):
   * `push(delta)` returns the events the delta completed (a field's value, a table row or list item, the whole
   * value), typed by this module's stream paths; `snapshot()` is the value so far (complete, checked parts
   * only); `end()` the whole value, checked as `fromModelOutput` checks it, or ToonError (INCOMPLETE naming what
   * was cut off). The payload is found as the reply streams (prose, a ```toon or ```json fence, reasoning blocks
   * skipped) and its layout (TOON v4, dense, JSON) told by its first line. An error later in the reply never takes
   * back an event already returned.
   */
  reader(options?: TextReaderOptions): TextReader<T, P>;
  /**
   * The events of a streamed reply, as they complete: from an `AsyncIterable<string>` of text deltas (the AI
   * SDK's `textStream`), or from the OpenAI Chat Completions or Responses stream, or the Anthropic Messages stream
   * (their text deltas; reasoning skipped). The last event is the whole value (`type: "value"`).
   */
  readStream(source: TextSource, options?: TextReaderOptions): AsyncIterable<StreamEvent<T, P>>;
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
  /** A fence's label (lower case). */
  label?: string;
}

/** Work counter of the payload search (characters looked at). */
export interface PayloadSearchStats {
  scanned: number;
}

/** Candidates tried at most: a reply with hundreds of code fences costs a bounded number of decode attempts. */
export const MAX_CANDIDATES = 32;

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
      stats.scanned += lines[j]!.length + 1;
      if (closesFence(lines[j]!, marker)) {
        end = j;
        break;
      }
    }
    const body = lines.slice(i + 1, end < 0 ? lines.length : end).join("\n");
    const rank = fenceRank(lang);
    if (body.trim() !== "" || end < 0) {
      const p: Payload & { rank: number } = { kind: jsonPayload(body.trimStart(), lang) ? "json" : "toon", text: body, line: i + 1, source: rank === 0 ? "fence:toon" : rank === 1 ? "fence:json" : "fence", rank, label: lang };
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
 * The value in model output, read by the codec's reader spec: the typed value, or a ToonError (NO_PAYLOAD,
 * INCOMPLETE for a cut-off payload, TEXT_SYNTAX, INVALID_VALUE, ...) with lines counted in `output`.
 */
export function fromModelOutputWith<T>(output: ModelOutput, spec: ReaderSpec, options: ModelOutputOptions = {}): T {
  if (typeof output !== "string" && (typeof output !== "object" || output === null)) throw new ToonError("INVALID_VALUE", "fromModelOutput expects the reply's text (or its content parts)");
  optionsArg(options, "fromModelOutput");
  const { text, open } = stripReasoning(modelOutputText(output));
  const candidates = findPayloads(text, spec.hints);
  if (candidates.length === 0) {
    if (open) throw new ToonError("INCOMPLETE", "the output ends inside a reasoning block (<think>, <thinking> or <reasoning> never closed): it looks truncated");
    throw new ToonError("NO_PAYLOAD", "no TOON or JSON payload found in the model output");
  }
  let first: ToonError | undefined;
  for (const c of candidates) {
    try {
      return decodePayload<T>(c, spec, options);
    } catch (e) {
      if (!(e instanceof ToonError)) throw e;
      first ??= e;
    }
  }
  throw first as ToonError;
}

/** Read and check one candidate, whole (line numbers in errors count from the start of the model output). */
export function decodePayload<T>(c: Payload, spec: ReaderSpec, options: ModelOutputOptions = {}): T {
  if (c.unclosed) {
    throw new ToonError("INCOMPLETE", `the ${c.source === "fence:toon" ? "```toon" : c.source === "fence:json" ? "```json" : "fenced"} block is never closed: the output looks truncated`, {
      line: c.line,
      column: 1,
    });
  }
  const fenced = c.source.startsWith("fence");
  const r = new PayloadReader(spec, { layout: c.kind === "json" ? "json" : undefined, repair: options.repair === true, reply: true, fence: fenced ? (c.label ?? "") : undefined });
  try {
    r.text(c.text);
    const v = r.end(c.atEnd !== true) as T;
    for (const x of r.repaired) options.onRepair?.({ ...x, line: x.line + c.line });
    return v;
  } catch (e) {
    throw e instanceof ToonError ? shiftLines(e, c.line) : e;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The TOON block in prose

/** Last line of the TOON block starting at `first`: indented, blank and root-key lines continue it. */
function toonBlockEnd(lines: string[], first: number, hints: PayloadHints): number {
  let last = first;
  // (flush rows: a dense table that ends the document, whose rows no indentation continues)
  const flush = new FlushRows();
  flush.header(lines[first]!);
  for (let i = first + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() === "") continue;
    if (flush.row(l)) {
      last = i;
      continue;
    }
    if (continuesBlock(l, hints)) {
      flush.header(l);
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
  return opensJson(text.charCodeAt(at), text.charCodeAt(i));
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
