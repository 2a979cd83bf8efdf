/**
 * Finding the payload in a model's reply while it streams (the whole reply's search is `findPayloads` in
 * ../model-output.ts; both follow ./payload-rules.ts). Reasoning blocks are skipped as they come; then the first
 * of these starts the payload, which is handed on as it arrives:
 * - a fence (of any label: the whole reply's search prefers a `toon` one, then `json`, which a stream cannot know
 *   of before they come): its lines up to the closing fence;
 * - a line that starts TOON for the root (one of its keys, a root array header): that line and the ones that
 *   continue the block (indented, blank, another root key's line);
 * - JSON: a line whose first character is `{` (or `[` that is no array header), or `{"` / `{}` inside prose (`[`
 *   for an array root): from that brace to where its value ends.
 * What comes after the payload is ignored. A streaming search cannot look ahead: where a whole reply holds
 * several candidates, the whole search may prefer a later one (a ```toon fence after a JSON-looking line).
 */
import { closesFence, continuesBlock, cutKeyLine, FENCE, FlushRows, isArrayHeader, opensJson, startsPayload, type PayloadHints } from "./payload-rules.ts";

/** Where the payload goes. */
export interface PayloadSink {
  /**
   * A payload begins: `json` (from its brace) or text (TOON, dense, or JSON a fence holds: the sink decides from
   * its first content), `line`: the reply's line (0-based) its first character is on, `column` (0-based),
   * `fence`: the fence's label (lower case) when fenced, else undefined.
   */
  begin(kind: "json" | "text", line: number, column: number, fence: string | undefined): void;
  /** More of the payload; returns how much of `chunk` it took (less: its value ended there, e.g. JSON's). */
  text(chunk: string): number;
  /**
   * The payload is over: `complete` when something closed it (its fence, more of the reply after it), false when
   * the reply ended in it (a cut); `unclosed`: the fence (its marker and label) that never closed.
   */
  end(complete: boolean, unclosed?: { label: string; line: number }): void;
}

// states
const PROSE = 0;
/** Inside our fence, before its first content (a fence of blank lines holds no payload). */
const FENCE_START = 2;
const FENCED = 3;
const TOON_BLOCK = 4;
const JSON_VALUE = 5;
const DONE = 6;

// where a prose line stands when it is looked at for JSON (`proseJson`)
const COMPLETE = 1;
const LAST = 2;

export class PayloadFinder {
  private state = PROSE;
  /** The reply's current line so far (prose, a TOON block's line, a fence's line while it may close it). */
  private line = "";
  /** 0-based number of the current line. */
  private lineNo = 0;
  private marker = "";
  private label = "";
  private fenceLine = 0;
  /** A TOON block's blank lines, handed on only when another of its lines follows. */
  private blanks = "";
  /** A fence's leading blank lines, before its first content. */
  private lead = "";
  private readonly reasoning = new ReasoningFilter();
  /** An unfenced block's flush rows (a dense table that ends the document), which no indentation continues. */
  private readonly flush = new FlushRows();
  private hasPayload = false;

  constructor(
    private readonly hints: PayloadHints,
    private readonly sink: PayloadSink,
  ) {}

  /** Whether a payload has begun. */
  get found(): boolean {
    return this.hasPayload;
  }

  /** Whether the payload is over (the rest of the reply is not read). */
  get over(): boolean {
    return this.state === DONE;
  }

  /** The payload's unfinished line this finder holds back (an unfenced block's lines go on when they end). */
  get held(): string {
    return this.state === TOON_BLOCK ? this.line : "";
  }

  /** What the held line gained since this was last asked (see `held`). */
  takeGrown(): string {
    const g = this.grown;
    this.grown = "";
    return g;
  }

  /** The reply's lines read so far (the number of the current one, 0-based). */
  get lines(): number {
    return this.lineNo;
  }

  private grown = "";

  /** Whether the reply ended inside a reasoning block (a cut, when no payload came). */
  get inReasoning(): boolean {
    return this.reasoning.open;
  }

  push(delta: string): void {
    if (this.state === DONE || delta.length === 0) return;
    const text = this.reasoning.push(delta);
    if (text.length > 0) this.feed(text);
  }

  /** The reply is over. */
  end(): void {
    const rest = this.reasoning.end();
    if (rest.length > 0) this.feed(rest);
    if ((this.state === FENCE_START || this.state === FENCED) && !this.partial && closesFence(this.line, this.marker)) {
      // the closing fence, the reply's last line
      this.line = "";
      if (this.state === FENCED) this.sink.end(true);
      this.state = DONE;
      return;
    }
    switch (this.state) {
      case FENCE_START:
      case FENCED:
        if (this.state === FENCED || this.line.trim() !== "" || this.lead.trim() !== "") {
          if (this.state === FENCE_START) this.startFence();
          if (this.line.length > 0) this.forward(this.line);
          this.sink.end(false, { label: this.label, line: this.fenceLine });
        } else this.sink.end(false, { label: this.label, line: this.fenceLine });
        break;
      case TOON_BLOCK: {
        // the last line, unfinished: part of the block when it continues it (or is a cut key line)
        const l = this.line;
        if (l.length > 0 && (this.flush.inRows || continuesBlock(l, this.hints) || cutKeyLine(l, this.hints))) {
          if (l.trim() !== "") this.forward(this.blanks + l);
          this.sink.end(false);
        } else this.sink.end(l.trim() !== "");
        break;
      }
      case JSON_VALUE:
        this.sink.end(false);
        break;
      case PROSE:
        this.proseEnd();
        break;
      default:
        break;
    }
    this.state = DONE;
  }

  private feed(text: string): void {
    let i = 0;
    while (i < text.length && this.state !== DONE) {
      if (this.state === JSON_VALUE) {
        const rest = i === 0 ? text : text.slice(i);
        const took = this.sink.text(rest);
        if (took < rest.length) {
          this.state = DONE;
          this.sink.end(true);
        }
        return;
      }
      if (this.state === FENCED && !this.partial && this.line.length === 0) {
        i = this.fencedLines(text, i);
        if (i >= text.length) return;
      }
      const nl = text.indexOf("\n", i);
      if (this.partial) {
        // the rest of a fence line already handed on in part: it cannot close the fence
        this.forward(nl < 0 ? text.slice(i) : text.slice(i, nl + 1));
        if (nl < 0) return;
        this.partial = false;
        this.lineDoneReset();
        this.lineNo++;
        i = nl + 1;
        continue;
      }
      const part = nl < 0 ? text.slice(i) : text.slice(i, nl);
      this.line += part;
      if (this.state === TOON_BLOCK) this.grown = nl < 0 ? this.grown + part : "";
      i = nl < 0 ? text.length : nl + 1;
      if (nl < 0) {
        // an unfinished line, looked at by what it gained (reading all of it at every piece would copy all of it
        // at every piece: a string built by appending): prose may open JSON in it already (its value then streams
        // from the brace); a fence's line that cannot close it goes on as it comes (its first: the payload begins)
        if (this.state === PROSE) this.prosePart(part);
        else if (this.state === FENCED || this.state === FENCE_START) {
          if (this.closable) this.closable = fenceChars(part, this.marker.charCodeAt(0));
          if (this.blankLine && part.trim() !== "") this.blankLine = false;
          if ((this.state === FENCED || !this.blankLine) && !this.closable) {
            if (this.state === FENCE_START) this.startFence();
            this.forward(this.line);
            this.line = "";
            this.partial = true;
          }
        }
        return;
      }
      let l = this.line;
      if (l.endsWith("\r")) l = l.slice(0, -1);
      this.line = "";
      this.scanned = 0;
      this.lineDoneReset();
      this.lineDone(l);
      this.lineNo++;
    }
  }

  /**
   * The whole lines of a fenced payload from `i` go on as one slice of `text` (a reply read whole hands its payload
   * on in one piece, as text it arrived in, not line by line rebuilt with their breaks), up to the line that may
   * close the fence (one with the marker in it), a line that ends in `\r` (the line path drops it) or the unfinished
   * last line, which the line path reads. Returns where it stopped.
   */
  private fencedLines(text: string, i: number): number {
    const from = i;
    const marker = this.marker;
    let m = text.indexOf(marker, i);
    let nl = text.indexOf("\n", i);
    while (nl >= 0) {
      if (nl > i && text.charCodeAt(nl - 1) === 13) break;
      if (m >= 0 && m < nl) {
        if (closesFence(text.slice(i, nl), marker)) break;
        m = text.indexOf(marker, nl);
      }
      this.lineNo++;
      i = nl + 1;
      nl = text.indexOf("\n", i);
    }
    if (i > from) this.forward(from === 0 && i === text.length ? text : text.slice(from, i));
    return i;
  }

  /** A complete line of the reply (its break removed). */
  private lineDone(l: string): void {
    switch (this.state) {
      case PROSE: {
        const m = FENCE.exec(l);
        if (m !== null) {
          this.marker = m[1]!;
          this.label = m[2]!.toLowerCase();
          this.fenceLine = this.lineNo;
          // (any fence: a whole reply's search prefers a `toon` or `json` one over others, which a stream cannot
          // know of yet; a model asked for a payload rarely writes another fence before it)
          this.state = FENCE_START;
          this.lead = "";
          return;
        }
        if (startsPayload(l, this.hints)) {
          this.begin("text", this.lineNo, 0, undefined);
          this.state = TOON_BLOCK;
          this.flush.header(l);
          this.forward(l + "\n");
          return;
        }
        this.line = l;
        if (this.proseJson(COMPLETE)) return;
        this.line = "";
        return;
      }
      case FENCE_START:
        if (closesFence(l, this.marker)) {
          this.state = PROSE; // a fence of blank lines: no payload, the search goes on
          return;
        }
        if (l.trim() === "") {
          this.lead += l + "\n";
          return;
        }
        this.startFence();
        this.forward(l + "\n");
        return;
      case FENCED:
        if (closesFence(l, this.marker)) {
          this.state = DONE;
          this.sink.end(true);
          return;
        }
        this.forward(l + "\n");
        return;
      case TOON_BLOCK:
        if (l.trim() === "") {
          this.blanks += l + "\n";
          return;
        }
        const row = this.flush.row(l);
        if (row || continuesBlock(l, this.hints)) {
          if (!row) this.flush.header(l);
          this.forward(this.blanks + l + "\n");
          this.blanks = "";
          return;
        }
        this.state = DONE;
        this.sink.end(true);
        return;
      default:
        return;
    }
  }

  private startFence(): void {
    this.state = FENCED;
    this.begin("text", this.fenceLine + 1, 0, this.label);
    if (this.lead.length > 0) this.forward(this.lead);
    this.lead = "";
  }

  private begin(kind: "json" | "text", line: number, column: number, fence: string | undefined): void {
    this.hasPayload = true;
    this.sink.begin(kind, line, column, fence);
  }

  private forward(text: string): void {
    if (text.length > 0) this.sink.text(text);
  }

  // What the unfinished line held so far, kept as it grows: the line is never read whole before it ends.
  /** Its length; whether it is blanks only (as `trim` sees them); whether it may still close a fence. */
  private lineLen = 0;
  private blankLine = true;
  private closable = true;
  /** Prose: where its first character that is no blank is (-1: none yet), and the start of the line from there. */
  private first = -1;
  private head = "";
  /** Prose: a space came after the first character; a brace after one waits for its next character (-1: none). */
  private spaced = false;
  private waiting = -1;
  /**
   * Prose: the first brace before any space (-1: none): not decided while the line is unfinished (the line may turn
   * out to be TOON), looked at again when it ends (`proseJson`), as a whole line's reading does.
   */
  private loose = -1;

  /** The prose line so far begins with a backtick or a tilde: it may be a fence's opening line. */
  private maybeFence = false;

  private lineDoneReset(): void {
    this.lineLen = 0;
    this.maybeFence = false;
    this.blankLine = this.closable = true;
    this.first = this.waiting = this.loose = -1;
    this.head = "";
    this.spaced = false;
  }

  /**
   * JSON opened in the unfinished prose line, looked at by what it gained (`part`, already appended to it): JSON
   * from a first `{` (or a `[` that no array header begins, as far as its start says), or from an opening brace
   * after a space (while the line may still turn out to start TOON, `orders[2]{"a b",c}:`, only one in prose)
   * whose next character that is no blank opens JSON. Returns whether the payload began.
   */
  private prosePart(part: string): boolean {
    const base = this.lineLen;
    this.lineLen += part.length;
    let j = 0;
    if (this.first < 0) {
      while (j < part.length && (part.charCodeAt(j) === 32 || part.charCodeAt(j) === 9)) j++;
      if (j === part.length) return false;
      const at = base + j;
      const c = part.charCodeAt(j);
      this.first = at;
      const pending = this.pendingBrace;
      if (pending !== undefined) {
        // a brace ended the line before: this line's first character says whether it opened JSON
        this.pendingBrace = undefined;
        if (opensJson(pending.line.charCodeAt(pending.at), c)) {
          this.line = pending.line.slice(pending.at) + "\n" + this.line;
          return this.jsonAt(0, pending.lineNo, pending.at, false);
        }
      }
      if (c === 123) return this.jsonAt(at, this.lineNo, at, false);
      // a fence's line (its info string may hold anything, braces too): decided when it ends, as read whole
      if (c === 96 || c === 126) this.maybeFence = true;
      j++; // (braces count after the first character)
    }
    if (this.maybeFence) return false;
    // a line that begins with `[`: JSON once what follows it is no array header's count (decided within its start)
    if (this.head.length < HEAD_MAX) {
      this.head += part.slice(Math.max(0, this.first - base), this.first - base + HEAD_MAX);
      const h = this.head;
      if (h.charCodeAt(0) === 91 && !isArrayHeader(h) && (/^\[[0-9]*[^0-9\]]/.test(h) || /^\[[0-9]*\][^:{\t|]/.test(h))) {
        return this.jsonAt(this.first, this.lineNo, this.first, false);
      }
    }
    // an opening brace after a space, whose next character that is no blank opens JSON
    const open = this.hints.root === "array" ? 91 : 123;
    for (; j < part.length; j++) {
      const c = part.charCodeAt(j);
      if (this.waiting >= 0) {
        if (c === 32 || c === 9) continue;
        if (opensJson(open, c)) return this.jsonAt(this.waiting, this.lineNo, this.waiting, false);
        this.waiting = -1;
      }
      if (c === 32) this.spaced = true;
      else if (c === open) {
        if (this.spaced) this.waiting = base + j;
        else if (this.loose < 0) this.loose = base + j;
      }
    }
    this.scanned = this.loose >= 0 ? this.loose : this.waiting >= 0 ? this.waiting : this.lineLen;
    return false;
  }

  /** The current fence line has been handed on in part (it cannot close the fence): the rest goes as it comes. */
  private partial = false;

  /**
   * JSON opened in the prose line so far: its first character `{` (or `[` that is no array header), or `{"` / `{}`
   * further on (`[` and a value, for an array root) after something that is no field name (the braces `prosePart`
   * looked at while the line was unfinished are not looked at again). `at`: where the line stands: COMPLETE (its
   * break came: a brace at its end waits for the next line's first character), LAST (the reply ended in it).
   * Returns whether the payload began.
   */
  private proseJson(at: number): boolean {
    const l = this.line;
    let first = 0;
    while (first < l.length && (l.charCodeAt(first) === 32 || l.charCodeAt(first) === 9)) first++;
    if (first === l.length) return false;
    const eol = at === COMPLETE;
    const pending = this.pendingBrace;
    if (pending !== undefined) {
      // a brace ended the line before: this line's first character says whether it opened JSON
      this.pendingBrace = undefined;
      if (opensJson(pending.line.charCodeAt(pending.at), l.charCodeAt(first))) {
        this.line = pending.line.slice(pending.at) + "\n" + l;
        return this.jsonAt(0, pending.lineNo, pending.at, eol);
      }
    }
    const c0 = l.charCodeAt(first);
    if (c0 === 123 || (c0 === 91 && !isArrayHeader(l.slice(first)))) {
      return this.jsonAt(first, this.lineNo, first, eol);
    }
    const open = this.hints.root === "array" ? "[" : "{";
    for (let b = l.indexOf(open, Math.max(first + 1, this.scanned)); b > first; b = l.indexOf(open, b + 1)) {
      // `key{a,"b c"}: ...` is a field group's header, no JSON
      if (open === "{" && /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(l.slice(first, b))) continue;
      let k = b + 1;
      while (k < l.length && (l.charCodeAt(k) === 32 || l.charCodeAt(k) === 9)) k++;
      if (k === l.length) {
        // a brace the line ends with: the next line's first character decides; the reply's end: cut-off JSON
        if (at === LAST) return this.jsonAt(b, this.lineNo, b, false);
        this.pendingBrace = { line: l, at: b, lineNo: this.lineNo };
        return false;
      }
      if (opensJson(open.charCodeAt(0), l.charCodeAt(k))) return this.jsonAt(b, this.lineNo, b, eol);
    }
    this.scanned = l.length;
    return false;
  }

  /** How far the prose line so far was looked at for a brace that opens JSON. */
  private scanned = 0;

  /** A brace at the end of a prose line, waiting for the next line to say whether it opens JSON. */
  private pendingBrace: { line: string; at: number; lineNo: number } | undefined;

  /** JSON from `at` of the line so far, whose brace is at `line`/`column` of the reply. */
  private jsonAt(at: number, line: number, column: number, eol: boolean): boolean {
    const l = this.line;
    this.line = "";
    this.begin("json", line, column, undefined);
    this.state = JSON_VALUE;
    // (a complete line's break is the JSON's too: it may be inside a string, where it is no JSON)
    const rest = eol ? l.slice(at) + "\n" : l.slice(at);
    const took = this.sink.text(rest);
    if (took < rest.length) {
      this.state = DONE;
      this.sink.end(true);
    }
    return true;
  }

  /** The reply ended in prose: an unfinished line may still hold JSON, a TOON start, or open a fence. */
  private proseEnd(): void {
    const l = this.line;
    if (l.trim() === "") return;
    const m = FENCE.exec(l);
    if (m !== null) {
      // a fence opened on the reply's last line: never closed
      this.hasPayload = true;
      this.sink.end(false, { label: m[2]!.toLowerCase(), line: this.lineNo });
      return;
    }
    if (startsPayload(l, this.hints)) {
      this.begin("text", this.lineNo, 0, undefined);
      this.forward(l);
      this.sink.end(false);
      return;
    }
    if (this.proseJson(LAST) && this.state === JSON_VALUE) this.sink.end(false);
  }
}

/**
 * Reasoning blocks (`<think>`, `<thinking>`, `<reasoning>` and their closing tags, any case) removed from a reply
 * as it streams: their text goes, their line breaks stay (so line numbers hold). A `<` that may begin a tag is held
 * until the tag is decided (at most the 200 characters an opening tag's attributes may take).
 */
/** Whether `s` holds a `<` (a loop for the short pieces of a stream: no call into the engine). */
function hasLt(s: string): boolean {
  if (s.length > 16) return s.indexOf("<") >= 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 60) return true;
  return false;
}

export class ReasoningFilter {
  /** Inside a block: the tag's name (its closing tag ends it). */
  private inside: string | undefined;
  /** Text held back: a `<` and what follows it, while it may be a tag. */
  private held = "";

  get open(): boolean {
    return this.inside !== undefined;
  }

  push(delta: string): string {
    if (this.inside === undefined && this.held.length === 0 && !hasLt(delta)) return delta;
    let s = this.held + delta;
    this.held = "";
    let out = "";
    let i = 0;
    for (;;) {
      const lt = s.indexOf("<", i);
      if (lt < 0) {
        out += this.pass(s.slice(i));
        return out;
      }
      out += this.pass(s.slice(i, lt));
      const tag = this.tagAt(s, lt);
      if (tag === undefined) {
        // undecided: keep from the `<` (bounded: a tag that long is no tag)
        if (s.length - lt <= MAX_TAG) {
          this.held = s.slice(lt);
          return out;
        }
        out += this.pass("<");
        i = lt + 1;
        continue;
      }
      if (tag.length === 0) {
        out += this.pass("<");
        i = lt + 1;
        continue;
      }
      const end = lt + tag.length;
      const closing = tag.charCodeAt(1) === 47;
      const name = tagName(tag);
      if (this.inside === undefined && !closing) this.inside = name;
      else if (this.inside === name && closing) this.inside = undefined;
      else out += this.pass(tag);
      i = end; // (a tag is removed, its text with it)
    }
  }

  /** The reply is over: what was held back. */
  end(): string {
    const h = this.held;
    this.held = "";
    return this.pass(h);
  }

  private pass(t: string): string {
    if (this.inside === undefined || t.length === 0) return t;
    // inside a block: its line breaks only
    let n = "";
    for (let k = t.indexOf("\n"); k >= 0; k = t.indexOf("\n", k + 1)) n += "\n";
    return n;
  }

  /**
   * The reasoning tag at `lt` of `s`: its text, "" when it is no such tag, undefined when `s` ends before that is
   * known.
   */
  private tagAt(s: string, lt: number): string | undefined {
    const m = TAG.exec(s.slice(lt, lt + MAX_TAG + 1));
    if (m !== null) return m[0];
    // a prefix of a tag, cut by the end of what has come: wait
    return PREFIX.test(s.slice(lt, lt + MAX_TAG + 1)) && s.indexOf(">", lt) < 0 && s.indexOf("\n", lt) < 0 ? undefined : "";
  }
}

const MAX_TAG = 220;

/** How much of a prose line's start decides whether a `[` there opens JSON while the line is unfinished. */
const HEAD_MAX = 256;

/** Whether `t` is only the fence's marker character and blanks (a line so far that may still close the fence). */
function fenceChars(t: string, marker: number): boolean {
  for (let k = 0; k < t.length; k++) {
    const x = t.charCodeAt(k);
    if (x !== marker && x !== 32 && x !== 9 && x !== 13) return false;
  }
  return true;
}
/** An opening or closing reasoning tag (attributes bounded, one line). */
const TAG = /^<\/?(?:think|thinking|reasoning)(?:\s*>|\b[^>\n]{0,200}>)/i;
/** What may still become such a tag. */
const PREFIX = /^<\/?[a-z]*(?:\b[^>\n]*)?$/i;

function tagName(tag: string): string {
  return /^<\/?([a-z]+)/i.exec(tag)![1]!.toLowerCase();
}
