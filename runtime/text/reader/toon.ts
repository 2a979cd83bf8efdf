/**
 * The schemaless TOON v4 text reader (TOON spec v4.0), resumable: text arrives in pieces split anywhere (a model's
 * reply as it streams), each complete line is read once, and what is open is an explicit stack of scopes, never
 * the JS stack. Whatever a line decides about the one before it (is `key:` a nested object or an empty one? does a
 * table go on? is the root a scalar?) is decided when that line arrives, or at `end()`; nothing looks past the
 * current line. `decodeText` and friends (runtime/text/decode.ts) are this reader given the whole text at once.
 *
 * This module is the reader's face: the API, and what happens to a piece before its lines are read. The line
 * lexer (reader/lines.ts) hands on the lines a piece completes, which reader/toon-read.ts measures and reads into
 * the open scopes, reader/toon-line.ts tokenizing each; reader/toon-track.ts records positions (`track`).
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
 * - Errors come in the order of the lines when text is pushed: each line is read as it completes, and the first that
 *   fails (a lone surrogate or a bad indentation in it included) is the error, so the same text pushed in any
 *   pieces reads the same. A whole text given to `end` (`decodeText`) is read as whole texts always have been: a
 *   lone surrogate anywhere in it first, then a bad indentation anywhere in it, then the first line that fails.
 */

import { ToonError } from "../../wire/errors.ts";
import { setOwn } from "../../wire/objects.ts";
import { type R, finish, newState, withPath } from "./toon-read.ts";
import { locateIn } from "./toon-track.ts";
import { isWellFormed, loneSurrogate, loneSurrogateError } from "./well-formed.ts";

/** Options of `decodeText` and of the reader. */
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

/** What the reader tells its caller while it reads. */
export interface ToonReaderHooks {
  /**
   * A value is complete and about to be stored into `parent` under `key`: a field line's value (an inline array
   * with its values), a table row or keyed entry as a whole (not each cell), a list item, a nested object or an
   * array when its scope closes (after the hooks of everything in it). `path` is the keys from the root to
   * `parent` (a fresh array); `line`/`column` where the value starts. Returns the value to store instead (a
   * schema-aware caller checks it and may coerce it). A ToonError it throws gets the path of the value in front
   * of its own. Not called for the root value, which `end()` returns.
   */
  child?(parent: object, key: string | number, value: unknown, path: readonly (string | number)[], line: number, column: number): unknown;
}

export interface ToonReaderOptions extends TextDecodeOptions {
  /** Number tokens a JS number does not carry exactly decode to TextNumber (`decodeTextExact`); see `raws`. */
  exact?: boolean;
  /** Record where every child starts, for {@link ToonTextReader.locate} (`locateText`). */
  track?: boolean;
  hooks?: ToonReaderHooks;
}

/** A 1-based line and UTF-16 column, as in errors. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * Reads TOON text given in pieces. `push` reads every line a piece completes (throws ToonError on bad text, and
 * the same error on every later call); `end` says the text is over and returns the value (or throws). `snapshot`
 * shows the value so far at any time.
 */
export class ToonTextReader {
  /** The reader's state (./toon-plan.ts reads the open scopes: where the unfinished line goes). */
  readonly s: R;

  constructor(options?: ToonReaderOptions) {
    this.s = newState(options);
  }

  /**
   * Read every line `chunk` completes, in order; the rest waits for the next piece. An error is thrown when the line
   * it is in is read (a bad indentation or a lone surrogate too), so the same text pushed in any pieces reads the
   * same.
   */
  push(chunk: string): void {
    const s = this.s;
    if (s.failed !== undefined || s.ended || typeof chunk !== "string") refuse(s, chunk);
    // (every piece of a stream comes through here: the checks are the fewest that keep the order of errors)
    try {
      if (chunk.length < PIECE_CHECK) s.lex.push(chunk);
      else {
        // a long piece free of lone surrogates spares its lines a check each (natively: one-byte text costs nothing)
        if (isWellFormed(chunk)) s.wf = chunk;
        s.lex.push(chunk);
        s.wf = "";
      }
    } catch (e) {
      if (e !== s.failed) s.failed = withPath(s, e);
    }
    if (s.failed !== undefined) throw s.failed;
  }

  /**
   * The text is over: its last line is read, every open scope closed, and the value returned. `last`: the text's
   * last piece, read as a whole text always has been (`decodeText`): a lone surrogate anywhere in it, then a bad
   * indentation anywhere in it, comes before an error in reading its lines. So `end(text)` may report a later line
   * of `text` than `push(text); end()`, which reports the first line that fails.
   */
  end(last?: string): unknown {
    return endText(this.s, last);
  }

  /**
   * The value so far: complete children only, with the containers open along the current path as shallow copies
   * (their complete children shared, not copied), or undefined before anything is read. Never throws.
   */
  snapshot(): unknown {
    const s = this.s;
    if (s.root !== 3) return s.root === 0 || s.rootErr !== null ? undefined : s.rootValue;
    let child: unknown;
    let seg: string | number | undefined;
    for (let i = s.sp; i >= 0; i--) {
      const f = s.stack[i];
      if (f.k === 1 /* F_KEY */) {
        // its value is not decided yet
        child = undefined;
      } else if (f.arr !== null) {
        const c = f.arr.slice();
        if (child !== undefined) c.push(child);
        child = c;
      } else {
        const c = { ...f.obj };
        if (child !== undefined) setOwn(c, seg as string, child);
        child = c;
      }
      seg = f.seg;
    }
    return child;
  }

  /** Number tokens read as TextNumber so far (exact mode). */
  get raws(): number {
    return this.s.raws;
  }

  /**
   * Track mode: line and column of the value at JSON pointer `pointer` in what has been read; for a path that goes
   * past it (a missing property), the position of the deepest container on the way; the text's first content
   * for "". Undefined without the `track` option.
   */
  locate(pointer: string): TextPosition | undefined {
    return locateState(this.s, pointer);
  }

  /**
   * Track mode: line and column of the value at `relative` (a JSON pointer) inside `value`, a value the reader
   * read, which starts at `at` (a value told to a hook, not yet stored in its parent); `at` without tracking.
   */
  locateWithin(value: unknown, relative: string, at: TextPosition): TextPosition {
    return this.s.track === null ? at : locateIn(this.s.track, value, relative, at);
  }
}

/**
 * {@link ToonTextReader.end} on a reader's state: whole-text readers (decode.ts) call it on a state of their own,
 * so a bundle that only decodes whole texts carries none of the class's streaming methods.
 */
export function endText(s: R, last?: string): unknown {
  if (s.failed !== undefined) throw s.failed;
  if (!s.ended) {
    if (last !== undefined && typeof last !== "string") throw new ToonError("INVALID_VALUE", "ToonTextReader.end expects a string or nothing");
    s.ended = true;
    try {
      if (last !== undefined && last.length > 0) {
        checkLastPiece(s, last);
        s.whole = true;
      }
      if (s.track !== null) s.endAt = endOfText(s, last ?? "");
      s.lex.end(last);
      s.wf = "";
    } catch (e) {
      // an indentation error thrown while the lines before it wait with theirs (s.failed) comes first
      if (e !== s.failed) s.failed = withPath(s, e);
    }
    if (s.failed !== undefined) throw s.failed;
    try {
      finish(s);
    } catch (e) {
      throw (s.failed = withPath(s, e));
    }
  }
  return s.rootValue;
}

/** {@link ToonTextReader.locate} on a reader's state. */
export function locateState(s: R, pointer: string): TextPosition | undefined {
  if (s.track === null) return undefined;
  const root = s.root === 3 ? (s.stack[0].arr ?? s.stack[0].obj) : s.rootValue;
  return locateIn(s.track, root, pointer, s.first ?? s.endAt ?? endOfText(s));
}

// ---------------------------------------------------------------------------------------------------------------
// Pieces and lines

/** A push the reader cannot take: after its error (which it throws again), after end(), or of a non-string. */
function refuse(s: R, chunk: unknown): never {
  if (s.failed !== undefined) throw s.failed;
  if (s.ended) throw new ToonError("INVALID_VALUE", "ToonTextReader.push after end()");
  throw new ToonError("INVALID_VALUE", `ToonTextReader.push expects a string, got ${typeof chunk}`);
}

/** How many columns a leading byte-order mark takes from line 1 before `chunk` is lexed (it is not a column). */
function bomOf(s: R, chunk: string): number {
  const lex = s.lex;
  if (lex.lines > 0) return 0;
  const first = lex.pending.length > 0 ? lex.pending : chunk;
  return first.charCodeAt(0) === 0xfeff ? 1 : 0;
}

/** Where the text read so far, and then `more`, ends (track mode: where "" points in a text of no content). */
function endOfText(s: R, more = ""): TextPosition {
  const lex = s.lex;
  const nl = more.lastIndexOf("\n");
  if (nl < 0) return { line: lex.lines + 1, column: lex.pending.length + more.length + 1 - bomOf(s, more) };
  let line = lex.lines + 1;
  for (let i = more.indexOf("\n"); i >= 0; i = more.indexOf("\n", i + 1)) line++;
  return { line, column: more.length - nl };
}

/**
 * A pushed piece at least this long is asked for lone surrogates as a whole, which spares each of its lines the
 * question; shorter ones (a streamed token) are not, the lines made of them are asked once complete.
 */
const PIECE_CHECK = 64;

/**
 * The last piece (`end(last)`): a lone surrogate in it is an error before its lines are read, as in a whole text
 * (a low half that starts it pairs with a high half the unfinished line ends with; a high half that ends it is lone:
 * the input ended between the halves of a pair).
 */
function checkLastPiece(s: R, chunk: string): void {
  if (isWellFormed(chunk)) {
    s.wf = chunk;
    return;
  }
  const lex = s.lex;
  const tail = lex.pending;
  const c = chunk.charCodeAt(0);
  const paired = c >= 0xdc00 && c <= 0xdfff && tail.length > 0 && (tail.charCodeAt(tail.length - 1) & 0xfc00) === 0xd800;
  const i = loneSurrogate(chunk, paired ? 1 : 0, chunk.length);
  if (i < 0) return; // the pair across the pieces is checked with its line
  let line = lex.lines + 1;
  let start = -tail.length;
  for (let nl = chunk.indexOf("\n"); nl >= 0 && nl < i; nl = chunk.indexOf("\n", nl + 1)) {
    line++;
    start = nl + 1;
  }
  const cut = i === chunk.length - 1 && (chunk.charCodeAt(i) & 0xfc00) === 0xd800;
  s.at = -1;
  throw loneSurrogateError(chunk.charCodeAt(i), line, i - start + 1 - (line === 1 ? bomOf(s, chunk) : 0), cut);
}
