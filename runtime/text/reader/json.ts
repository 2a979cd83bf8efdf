/**
 * The runtime's one JSON tokenizer: a character-level state machine with an explicit stack (no recursion, so
 * nesting costs no call stack), fed text in pieces split anywhere (inside a string, an escape, a `\uXXXX`, a
 * number, a literal, between the halves of a surrogate pair). It calls a {@link JsonHandler} for each token and
 * knows where the root value ended, so that a caller can stop there (a JSON cell in a line of dense text, tool-
 * call text with something after it). "Need more input" is a state, never an error: only `end()` says the text
 * is over. Errors are faults (./json-fault.ts) with line, column and the JSON pointer of the value being read,
 * handed to `raise` (by default, the strict reader's ToonError).
 *
 * Whole text is read fast: a string or number that lies whole in the piece is scanned by a tight loop and
 * sliced once; only one split by the piece's end, or holding escapes, goes character by character.
 *
 * With `repair: true` it also reads the slips models make (`fromModelOutput(reply, { repair: true })`) and
 * reports each as a {@link JsonRepair}: a trailing comma, a single-quoted string, Python's `True`/`False`/
 * `None`, a `//` or `/* *\/` comment, a raw control character in a string, one `}` missing at the very end of
 * the root object. Nothing else: a cut-off value stays INCOMPLETE.
 */
import { pointerSegment } from "../../wire/errors.ts";
import type { JsonRepair, JsonRepairKind } from "../json-repair.ts";
import { pythonLiteral, throwJsonFault, type JsonExpected, type JsonFault, type JsonFaultKind } from "./json-fault.ts";
import type { JsonHandler, JsonReaderOptions } from "./json-handler.ts";
import { isNumberChar, isWordChar, isWordStart, literalPrefix, literalStart, literalValue, numberShape } from "./json-grammar.ts";

/** How deeply JSON may nest by default. */
export const JSON_MAX_DEPTH = 1000;

// states: where the reader is between tokens ...
const VALUE = 0; // a value: the root's, or after `:`
const ARR_FIRST = 1; // after `[`: a value or `]`
const ARR_NEXT = 2; // after `,` in an array: a value
const OBJ_FIRST = 3; // after `{`: a key or `}`
const OBJ_NEXT = 4; // after `,` in an object: a key
const COLON = 5; // after a key
const AFTER = 6; // after a member or an item: `,` or the closer
const DONE = 7; // after the root value
// ... and inside one (`resume` is the state a comment returns to)
const STRING = 8;
const ESCAPE = 9;
const UNICODE = 10;
const NUMBER = 11;
const WORD = 12; // a literal, or a word read to name it in an error
const SLASH = 13;
const LINE_COMMENT = 14;
const BLOCK_COMMENT = 15;
const BLOCK_STAR = 16;

const OBJECT = 0;
const ARRAY = 1;

/** Where the number's (`kind` NUMBER) or word's characters that start at `j` end (at most `to`). */
function runEnd(chunk: string, j: number, to: number, kind: number): number {
  if (kind === NUMBER) while (j < to && isNumberChar(chunk.charCodeAt(j))) j++;
  else while (j < to && isWordChar(chunk.charCodeAt(j))) j++;
  return j;
}

export class JsonReader {
  private maxDepth: number;
  private readonly stopAtEnd: boolean;
  private readonly wellFormed: boolean;
  private readonly repair: boolean;
  private readonly onRepair: ((repair: JsonRepair) => void) | undefined;
  private readonly raise: (fault: JsonFault) => never;
  private readonly lineStarts: number[] | undefined;

  private state = VALUE;
  /** The state a comment (or a `/` not yet known to start one) returns to. */
  private resume = VALUE;
  /** Open containers: kind, current key (objects), items so far (arrays), per level. */
  private depth = 0;
  private readonly kinds: number[] = [];
  private readonly keys: string[] = [];
  private readonly counts: number[] = [];

  /** Characters read before the current piece; `base + i` is the offset of the piece's character `i`. */
  private consumed = 0;
  private base = 0;
  /** The line being read (1-based) and the offset where it starts. */
  private line = 1;
  private lineAt = 0;
  /** Where the root value ended in the current piece (-1: not in it). */
  private endIndex = -1;

  /** The token being read: its start, and the line and column there when it spans lines (0: it does not). */
  private tokAt = 0;
  private tokLine = 0;
  private tokColumn = 0;
  /** A split token's text so far: a number's or word's characters, a string's decoded text not yet handed on. */
  private buf = "";
  private inKey = false;
  /** The quote that closes the string (`'` when repairing a single-quoted one). */
  private quote = 34;
  /** The `\u` escape being read: its value so far and the hex digits still to come. */
  private hex = 0;
  private hexLeft = 0;
  /** The string's last code unit was a high surrogate: the next must be its low half. */
  private high = false;
  /** The state a word was met in (a literal where a value goes; elsewhere it is only read whole for the error). */
  private wordIn = VALUE;
  /** Repair: the line and column of the last `,`; the start of the comment being read (or of a `/`). */
  private commaLine = 0;
  private commaColumn = 0;
  private commentAt = 0;
  private commentLine = 0;
  private commentColumn = 0;

  constructor(
    private readonly handler: JsonHandler,
    options: JsonReaderOptions = {},
  ) {
    this.maxDepth = options.maxDepth ?? JSON_MAX_DEPTH;
    this.stopAtEnd = options.stopAtEnd === true;
    this.wellFormed = options.loneSurrogates !== true;
    this.repair = options.repair === true;
    this.onRepair = options.onRepair;
    this.raise = options.raise ?? throwJsonFault;
    this.lineStarts = options.lineStarts;
  }

  /** The root value is complete. */
  get done(): boolean {
    return this.state === DONE;
  }

  /** Something other than whitespace has been read. */
  get started(): boolean {
    return this.state !== VALUE || this.depth > 0;
  }

  /** Characters read so far (with `stopAtEnd`, up to the end of the root value). */
  get offset(): number {
    return this.consumed;
  }

  /** Back to the start, to read another value (a reader can be reused), with another depth limit if given. */
  reset(maxDepth = this.maxDepth): void {
    this.maxDepth = maxDepth;
    this.state = VALUE;
    this.resume = VALUE;
    this.depth = 0;
    this.consumed = 0;
    this.base = 0;
    this.line = 1;
    this.lineAt = 0;
    this.endIndex = -1;
    this.tokLine = 0;
    this.buf = "";
    this.high = false;
  }

  /**
   * Read `chunk` from `from` to `to`. Returns the index in `chunk` just past the root value when it ended in this
   * piece (with `stopAtEnd` the reader stops there), else -1.
   */
  push(chunk: string, from = 0, to = chunk.length): number {
    this.endIndex = -1;
    if (this.state === DONE && this.stopAtEnd) return -1;
    this.base = this.consumed - from;
    let i = from;
    while (i < to) {
      const st = this.state;
      if (st >= STRING) {
        i = st <= UNICODE ? this.stringPart(chunk, i, to) : st <= WORD ? this.runPart(chunk, i, to) : this.commentPart(chunk, i, to);
        continue;
      }
      if (st === DONE && this.stopAtEnd) break;
      let c = chunk.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        // a run of whitespace (indentation) in one loop
        for (;;) {
          if (c === 10) this.newline(i);
          if (++i === to) break;
          c = chunk.charCodeAt(i);
          if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
        }
        continue;
      }
      if (st === DONE) {
        i = this.afterRoot(chunk, i, c);
        continue;
      }
      i = this.token(chunk, i, to, c, st);
    }
    // a string value's text read so far goes out now (a stream shows it as it comes)
    if (this.state >= STRING && this.state <= UNICODE && !this.inKey && this.buf !== "") {
      this.handler.stringChunk(this.buf);
      this.buf = "";
    }
    this.consumed = this.base + i;
    return this.endIndex;
  }

  /**
   * The text is over: a number or literal at its end is complete; a value that is not is a fault at the end
   * (INCOMPLETE, `atEnd`). With `repair`, a root object missing only its last `}` is closed here.
   */
  end(): void {
    this.base = this.consumed;
    const at = this.consumed;
    switch (this.state) {
      case NUMBER:
        this.state = this.wordIn;
        this.number(this.buf, this.tokAt, -1, true);
        break;
      case WORD:
        this.word(this.buf, this.tokAt, -1, true);
        break;
      case SLASH:
        this.unexpected(this.resume, "/", this.commentAt, this.commentLine, this.commentColumn);
        break;
      case LINE_COMMENT:
        this.note("comment", this.commentLine, this.commentColumn, "removed a comment (JSON has none)");
        this.state = this.resume;
        break;
      case BLOCK_COMMENT:
      case BLOCK_STAR:
        // never closed: what follows it is dropped, as when it is cut out of the text
        this.state = this.resume;
        break;
    }
    if (this.state === DONE) return;
    if (this.repair && this.state === AFTER && this.depth === 1 && this.kinds[0] === OBJECT) {
      this.note("missing-brace", this.line, at - this.lineAt + 1, "added the missing closing } at the end");
      this.close(0);
      return;
    }
    const st = this.state;
    const inString = st === STRING || st === ESCAPE || st === UNICODE;
    const token = inString ? (this.inKey ? "key" : "string") : undefined;
    // a cut-off string is reported at its opening quote, as a cut-off everything else at the end
    if (inString) this.fail("end", this.expectedIn(st), "", this.tokAt, this.tokenLine(), this.tokenColumn(), true, token);
    this.fail("end", this.expectedIn(st), "", at, this.line, at - this.lineAt + 1, true);
  }

  /**
   * A fault a handler finds in what it was handed (a duplicate key, a number it cannot hold), at `at`: the start
   * of the token just read. Raised as the reader's own, with line, column and path.
   */
  fault(kind: Extract<JsonFaultKind, "duplicate" | "range">, at: number, found: string): never {
    const line = at === this.tokAt ? this.tokenLine() : this.line;
    const column = at === this.tokAt ? this.tokenColumn() : at - this.lineAt + 1;
    return this.fail(kind, this.expectedIn(this.state), found, at, line, column, false);
  }

  // ------------------------------------------------------------------------------------------ between tokens

  private newline(i: number): void {
    this.line++;
    this.lineAt = this.base + i + 1;
    if (this.lineStarts !== undefined) this.lineStarts.push(this.lineAt);
  }

  /** A token starts at `i` (its first character `c`, not whitespace) in state `st`; returns where reading goes on. */
  private token(chunk: string, i: number, to: number, c: number, st: number): number {
    switch (st) {
      case VALUE:
      case ARR_FIRST:
      case ARR_NEXT:
        if (c === 34) return this.string(chunk, i, to, false, 34);
        if (c === 45 || (c >= 48 && c <= 57)) return this.runStart(chunk, i, to, NUMBER);
        if (c === 123 || c === 91) return this.open(c === 123 ? OBJECT : ARRAY, i);
        if (c === 93 && st !== VALUE) {
          if (st === ARR_NEXT) this.trailingComma(i, "]");
          return this.close(i);
        }
        break;
      case OBJ_FIRST:
      case OBJ_NEXT:
        if (c === 34) return this.string(chunk, i, to, true, 34);
        if (c === 125) {
          if (st === OBJ_NEXT) this.trailingComma(i, "}");
          return this.close(i);
        }
        break;
      case COLON:
        if (c === 58) {
          this.state = VALUE;
          return i + 1;
        }
        break;
      case AFTER: {
        const kind = this.kinds[this.depth - 1];
        if (c === 44) {
          if (this.repair) this.markComma(i);
          this.state = kind === OBJECT ? OBJ_NEXT : ARR_NEXT;
          // the next member's key (its line's indentation aside) at once: one trip through `push` fewer
          let k = i + 1;
          let d = chunk.charCodeAt(k);
          while ((d === 32 || d === 10) && k < to) {
            if (d === 10) this.newline(k);
            d = chunk.charCodeAt(++k);
          }
          return d === 34 && k < to ? this.string(chunk, k, to, kind === OBJECT, 34) : k < to ? k : to;
        }
        if (c === (kind === OBJECT ? 125 : 93)) return this.close(i);
        break;
      }
    }
    return this.slip(chunk, i, to, c, st);
  }

  /** A character the grammar has no place for in state `st`: a slip to repair or to name, or a fault. */
  private slip(chunk: string, i: number, to: number, c: number, st: number): number {
    const valueOrKey = st <= OBJ_NEXT;
    if (c === 39 && valueOrKey && this.repair) {
      this.note("single-quotes", this.line, this.base + i - this.lineAt + 1, "turned a single-quoted string into a double-quoted one");
      return this.string(chunk, i, to, st === OBJ_FIRST || st === OBJ_NEXT, 39);
    }
    // a `/` starts a comment (repaired, or named in the error) when what comes next is `/` or `*`
    if (c === 47 && (this.repair || st !== COLON)) {
      this.resume = st;
      this.state = SLASH;
      this.markComment(i);
      return i + 1;
    }
    // a word is read whole: a literal, Python's `True` (repaired or named), `NaN`, an unquoted key
    if (isWordStart(c) && st !== COLON) return this.runStart(chunk, i, to, WORD);
    return this.unexpected(st, chunk.charAt(i), this.base + i, this.line, this.base + i - this.lineAt + 1);
  }

  /** After the root value (not stopping there): whitespace, comments when repairing, nothing else. */
  private afterRoot(chunk: string, i: number, c: number): number {
    if (c === 47 && this.repair) {
      this.resume = DONE;
      this.state = SLASH;
      this.markComment(i);
      return i + 1;
    }
    return this.unexpected(DONE, chunk.charAt(i), this.base + i, this.line, this.base + i - this.lineAt + 1);
  }

  private open(kind: number, i: number): number {
    const d = this.depth;
    if (d >= this.maxDepth) this.fail("depth", this.expectedIn(this.state), kind === OBJECT ? "{" : "[", this.base + i, this.line, this.base + i - this.lineAt + 1, false);
    this.kinds[d] = kind;
    this.keys[d] = "";
    this.counts[d] = 0;
    this.depth = d + 1;
    this.state = kind === OBJECT ? OBJ_FIRST : ARR_FIRST;
    this.handler.open(kind === OBJECT ? "object" : "array", this.base + i);
    return i + 1;
  }

  /** The closer at `i` (`end()` passes 0 and ignores the result). */
  private close(i: number): number {
    this.depth--;
    this.handler.close();
    this.valueDone(i + 1);
    return i + 1;
  }

  /** A value ended just before `i`: the root's end, or the next member or item. */
  private valueDone(i: number): void {
    const d = this.depth;
    if (d === 0) {
      this.state = DONE;
      this.endIndex = i;
      return;
    }
    this.state = AFTER;
    if (this.kinds[d - 1] === ARRAY) this.counts[d - 1]++;
  }

  private markComma(i: number): void {
    this.commaLine = this.line;
    this.commaColumn = this.base + i - this.lineAt + 1;
  }

  private markComment(i: number): void {
    this.commentAt = this.base + i;
    this.commentLine = this.line;
    this.commentColumn = this.commentAt - this.lineAt + 1;
  }

  /** A closer right after a `,`: repaired (the comma dropped), or the fault that names it. */
  private trailingComma(i: number, closer: string): void {
    if (this.repair) this.note("trailing-comma", this.commaLine, this.commaColumn, `removed a trailing comma before ${closer}`);
    else this.fail("trailing-comma", this.expectedIn(this.state), closer, this.base + i, this.line, this.base + i - this.lineAt + 1, false);
  }

  // ------------------------------------------------------------------------------------------ strings

  /**
   * A string whose quote is at `q`. Whole in the piece and plain (no escape, no control character, no lone
   * surrogate): one scan and one slice. Otherwise it goes on character by character (`stringPart`), from the
   * first escape or control character, or the piece's end (where it may have split a surrogate pair).
   */
  private string(chunk: string, q: number, to: number, key: boolean, quote: number): number {
    const at = this.base + q;
    this.tokAt = at;
    let j = q + 1;
    if (quote === 34) {
      for (; j < to; j++) {
        const c = chunk.charCodeAt(j);
        if (c > 92) continue;
        if (c === 34) {
          const s = chunk.slice(q + 1, j);
          // a lone surrogate (rare): read again the slow way, which says where
          if (this.wellFormed && !s.isWellFormed()) {
            j = q + 1;
            break;
          }
          if (key) {
            this.gotKey(s, at);
            // the `:` after a key, at once when it follows (spaces aside): one trip through `push` fewer
            let k = j + 1;
            let d = chunk.charCodeAt(k);
            while (d === 32 && k < to) d = chunk.charCodeAt(++k);
            if (d !== 58 || k >= to) return j + 1;
            this.state = VALUE;
            do d = chunk.charCodeAt(++k);
            while (d === 32 && k < to);
            // and a string value right after it (its own string() does not look further)
            return d === 34 && k < to ? this.string(chunk, k, to, false, 34) : k < to ? k : to;
          }
          const h = this.handler;
          h.stringStart(at);
          if (s !== "") h.stringChunk(s);
          h.stringEnd();
          this.valueDone(j + 1);
          return j + 1;
        }
        if (c === 92 || c < 32) break;
      }
    }
    this.inKey = key;
    this.quote = quote;
    this.high = false;
    this.state = STRING;
    this.tokLine = this.line;
    this.tokColumn = at - this.lineAt + 1;
    const before = chunk.slice(q + 1, j);
    this.buf = before;
    // what the fast scan passed over is checked here when it holds a surrogate that is not one of a pair (or ends
    // with half of one, which the next piece may complete)
    if (this.wellFormed && !before.isWellFormed()) for (let k = 0; k < before.length; k++) this.unit(before.charCodeAt(k));
    if (!key) this.handler.stringStart(at);
    return j;
  }

  /** A string character by character (escapes, control characters, surrogates, a piece's end), from `i`. */
  private stringPart(chunk: string, i: number, to: number): number {
    let run = i; // the plain characters from `run` to `i` are appended in one slice
    while (i < to) {
      const st = this.state;
      if (st === STRING && !this.high) {
        // a run of plain characters (no closing quote, backslash, control character or surrogate half): one test each
        const q = this.quote;
        let d = chunk.charCodeAt(i);
        while (d >= 32 && d !== q && d !== 92 && (d < 0xd800 || d > 0xdfff)) {
          if (++i === to) break;
          d = chunk.charCodeAt(i);
        }
        if (i === to) break;
      }
      const c = chunk.charCodeAt(i);
      if (st === STRING) {
        if (c === this.quote) {
          this.buf += chunk.slice(run, i);
          return this.stringEnd(i + 1);
        }
        if (c === 92) {
          this.buf += chunk.slice(run, i);
          this.state = ESCAPE;
          run = ++i;
          continue;
        }
        if (c < 32) this.control(chunk, i, c);
        else if (this.wellFormed) this.unit(c);
        i++;
        continue;
      }
      if (st === ESCAPE) {
        const e = this.escape(c);
        if (e === -1) {
          this.hex = 0;
          this.hexLeft = 4;
          this.state = UNICODE;
        } else {
          if (this.wellFormed) this.unit(e);
          this.buf += String.fromCharCode(e);
          this.state = STRING;
        }
        run = ++i;
        continue;
      }
      // UNICODE
      const h = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
      if (h < 0) this.stringFault("escape");
      this.hex = this.hex * 16 + h;
      if (--this.hexLeft === 0) {
        if (this.wellFormed) this.unit(this.hex);
        this.buf += String.fromCharCode(this.hex);
        this.state = STRING;
      }
      run = ++i;
    }
    if (this.state === STRING) this.buf += chunk.slice(run, i);
    return i;
  }

  /** The character an escape `\c` stands for, -1 for `\u`; a fault for any other. */
  private escape(c: number): number {
    switch (c) {
      case 34:
      case 92:
      case 47:
        return c;
      case 98:
        return 8;
      case 102:
        return 12;
      case 110:
        return 10;
      case 114:
        return 13;
      case 116:
        return 9;
      case 117:
        return -1;
      case 39:
        if (this.quote === 39) return 39; // `\'` in a single-quoted string
    }
    return this.stringFault("escape");
  }

  /** A raw control character in a string: a fault, or (repairing) kept as the escape would have written it. */
  private control(chunk: string, i: number, c: number): void {
    const at = this.base + i;
    if (!this.repair) this.fail("control", "value", chunk.charAt(i), at, this.line, at - this.lineAt + 1, false);
    this.note("raw-control", this.line, at - this.lineAt + 1, `escaped a raw ${c === 10 ? "line break" : c === 9 ? "tab" : "control character"} inside a string`);
    if (c === 10) this.newline(i);
  }

  /** The next code unit of the string's text: surrogates must come in pairs. */
  private unit(u: number): void {
    if (this.high) {
      if ((u & 0xfc00) !== 0xdc00) this.stringFault("surrogate");
      this.high = false;
    } else if ((u & 0xf800) === 0xd800) {
      if (u >= 0xdc00) this.stringFault("surrogate");
      this.high = true;
    }
  }

  private stringFault(kind: "escape" | "surrogate"): never {
    return this.fail(kind, this.expectedIn(this.state), "", this.tokAt, this.tokenLine(), this.tokenColumn(), false);
  }

  /** The closing quote was read (`i` is past it). */
  private stringEnd(i: number): number {
    if (this.high) this.stringFault("surrogate");
    const s = this.buf;
    this.buf = "";
    if (this.inKey) this.gotKey(s, this.tokAt);
    else {
      if (s !== "") this.handler.stringChunk(s);
      this.handler.stringEnd();
      this.valueDone(i);
    }
    this.tokLine = 0;
    return i;
  }

  private gotKey(k: string, at: number): void {
    this.keys[this.depth - 1] = k;
    this.state = COLON;
    this.handler.key(k, at);
  }

  // ------------------------------------------------------------------------------------------ numbers and words

  /**
   * A number (`kind` NUMBER) or a word (WORD) starting at `i`: read to its end and handed on, or (the piece ends
   * inside it) kept, for `runPart` to go on with in the next piece.
   */
  private runStart(chunk: string, i: number, to: number, kind: number): number {
    this.tokAt = this.base + i;
    this.wordIn = this.state;
    const j = runEnd(chunk, i + 1, to, kind);
    if (j === to) {
      this.buf = chunk.slice(i, j);
      this.state = kind;
      return j;
    }
    this.runDone(kind, chunk.slice(i, j), j);
    return j;
  }

  private runPart(chunk: string, i: number, to: number): number {
    const kind = this.state;
    const j = runEnd(chunk, i, to, kind);
    this.buf += chunk.slice(i, j);
    if (j === to) return j;
    const raw = this.buf;
    this.buf = "";
    this.state = this.wordIn;
    this.runDone(kind, raw, j);
    return j;
  }

  private runDone(kind: number, raw: string, next: number): void {
    if (kind === NUMBER) this.number(raw, this.tokAt, next, false);
    else this.word(raw, this.tokAt, next, false);
  }

  /** A whole number token at `at`, the character after it at piece index `next` (-1: the text ended). */
  private number(raw: string, at: number, next: number, atEnd: boolean): void {
    const shape = numberShape(raw);
    if (shape !== 0) {
      // the start of a number cut off by the end (`1.`, `-`) is INCOMPLETE, reported at its start as a cut-off
      // string or literal is; anything else is no number
      const cut = shape === 1 && atEnd;
      this.fail(cut ? "end" : "number", "value", cut ? "" : raw, at, this.line, at - this.lineAt + 1, cut, "number");
    }
    this.handler.scalar(Number(raw), raw, at);
    this.valueDone(next);
  }

  /**
   * A whole word at `at`: where a value goes, a literal (or, repairing, Python's); else the fault it is, named
   * by the whole word. `next`: the piece index after it (-1: the text ended).
   */
  private word(w: string, at: number, next: number, atEnd: boolean): void {
    const st = this.wordIn;
    this.state = st;
    const column = at - this.lineAt + 1;
    if (st <= ARR_NEXT) {
      if (w === "true" || w === "false" || w === "null") {
        this.handler.scalar(literalValue(w), w, at);
        this.valueDone(next);
        return;
      }
      const py = this.repair ? pythonLiteral(w) : undefined;
      if (py !== undefined) {
        this.note("python-literal", this.line, column, `wrote ${w} as ${py}`);
        this.handler.scalar(literalValue(py), py, at);
        this.valueDone(next);
        return;
      }
      if (atEnd && literalStart(w, this.repair)) this.fail("end", "value", "", at, this.line, column, true, "word");
      // `truex`: named as the literal followed by what cannot follow a value (`x`), as parseJsonExact named it
      // (a value that stops at its end is the word's own fault: what stands after it is no business of the reader)
      const lit = literalPrefix(w);
      if (lit !== "" && !(this.stopAtEnd && this.depth === 0)) {
        this.valueDone(-1);
        const rest = at + lit.length;
        this.unexpected(this.state, w.slice(lit.length, lit.length + 64), rest, this.line, column + lit.length);
      }
    }
    this.unexpected(st, w.slice(0, 64), at, this.line, column);
  }

  // ------------------------------------------------------------------------------------------ comments

  /** After a `/`, inside a comment (repairing), or at its `*` that may close it. */
  private commentPart(chunk: string, i: number, to: number): number {
    const st = this.state;
    if (st === SLASH) {
      const c = chunk.charCodeAt(i);
      if (c !== 47 && c !== 42) this.unexpected(this.resume, "/", this.commentAt, this.commentLine, this.commentColumn);
      if (!this.repair) this.unexpected(this.resume, c === 47 ? "//" : "/*", this.commentAt, this.commentLine, this.commentColumn);
      this.state = c === 47 ? LINE_COMMENT : BLOCK_COMMENT;
      return i + 1;
    }
    if (st === LINE_COMMENT) {
      const nl = chunk.indexOf("\n", i);
      if (nl < 0 || nl >= to) return to;
      this.commentDone();
      return nl; // the line break is whitespace
    }
    for (; i < to; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 47 && this.state === BLOCK_STAR) {
        this.commentDone();
        return i + 1;
      }
      this.state = c === 42 ? BLOCK_STAR : BLOCK_COMMENT;
      if (c === 10) this.newline(i);
    }
    return i;
  }

  private commentDone(): void {
    this.note("comment", this.commentLine, this.commentColumn, "removed a comment (JSON has none)");
    this.state = this.resume;
  }

  // ------------------------------------------------------------------------------------------ faults and repairs

  private note(kind: JsonRepairKind, line: number, column: number, message: string): void {
    this.onRepair?.({ kind, line, column, message });
  }

  private tokenLine(): number {
    return this.tokLine > 0 ? this.tokLine : this.line;
  }

  private tokenColumn(): number {
    return this.tokLine > 0 ? this.tokColumn : this.tokAt - this.lineAt + 1;
  }

  /** What state `st` waits for (a token being read: what the state it started in waited for). */
  private expectedIn(st: number): JsonExpected {
    switch (st) {
      case VALUE:
      case ARR_FIRST:
      case ARR_NEXT:
      case NUMBER:
        return "value";
      case OBJ_FIRST:
      case OBJ_NEXT:
        return "key";
      case COLON:
        return "colon";
      case AFTER:
        return this.kinds[this.depth - 1] === OBJECT ? "object-next" : "array-next";
      case DONE:
        return "nothing";
      case STRING:
      case ESCAPE:
      case UNICODE:
        return this.inKey ? "key" : "value";
      case WORD:
        return this.expectedIn(this.wordIn);
      default:
        return this.expectedIn(this.resume);
    }
  }

  private unexpected(st: number, found: string, at: number, line: number, column: number): never {
    return this.fail("unexpected", this.expectedIn(st), found, at, line, column, false);
  }

  /**
   * Raise a fault. Its path is the value being read when the reader was where a value goes (or inside one), the
   * container when it was between members or items.
   */
  private fail(kind: JsonFaultKind, expected: JsonExpected, found: string, offset: number, line: number, column: number, atEnd: boolean, token?: JsonFault["token"]): never {
    const inValue = expected === "value" && kind !== "trailing-comma";
    const n = inValue ? this.depth : this.depth - 1;
    let path = "";
    for (let d = 0; d < n; d++) path += this.kinds[d] === OBJECT ? pointerSegment(this.keys[d]!) : "/" + this.counts[d];
    const fault: JsonFault = { kind, expected, found, offset, line, column, path, atEnd, limit: this.maxDepth };
    if (token !== undefined) fault.token = token;
    return this.raise(fault);
  }
}
