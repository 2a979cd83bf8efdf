/**
 * The dense layout's line state (docs/TEXT.md), under its per-line tokenizer (./dense-headers.ts, ./dense-cells.ts)
 * and its driver (./dense.ts): the current line (`text[ls, le)`, blanks at its end removed) and where reading is in
 * it, its indentation, field names, the errors (every failure is a ToonError TEXT_SYNTAX, malformed text, or
 * INVALID_VALUE, text that does not fit the schema, with the line, column and the JSON pointer of the value being
 * read) and the nesting bound; the caches every reader of one codec shares.
 */
import { ToonError, pointerSegment, type CountMismatch } from "../../wire/errors.ts";
import { withFacts } from "./facts.ts";
import type { TextCheckFn } from "../check.ts";
import type { Shape } from "../../codec/descriptor.ts";
import type { DenseModel, ShapeInfo } from "../dense/model.ts";
import { DENSE_MAX_DEPTH, readJsonString, type JsonCursor } from "../dense/json.ts";
import type { BGroup } from "./dense-headers.ts";

/** A cell or group that is not there (every cell of it empty). */
export const ABSENT = Symbol("absent");

/** What ends a raw cell (global: `cellEnd` starts it at `lastIndex`; one character class, no backtracking). */
const CELL_END = /[,;\]\n]/g;

/**
 * The JSON reader's view of a line reader's position. A class, not an object literal with accessors: a reader is
 * made per text, and closures made per reader would leave every `pos` access in the JSON reader megamorphic.
 */
class LineCursor implements JsonCursor {
  text = "";
  end = 0;
  raws = 0;
  constructor(private readonly r: DenseLine) {}
  get pos(): number {
    return (this.r as unknown as { pos: number }).pos;
  }
  set pos(p: number) {
    (this.r as unknown as { pos: number }).pos = p;
  }
  fail(m: string, at?: number, code?: "DEPTH_LIMIT"): never {
    return this.r.fail(m, at ?? this.pos, code);
  }
}

/** What the readers of one codec share: checks and header bindings, built once (a reader is made per text). */
const caches = new WeakMap<DenseModel, { checks: Map<Shape, TextCheckFn>; bounds: Map<ShapeInfo, { text: string; bound: BGroup }[]>; keys: (string | undefined)[] }>();

/** A position on an earlier line than the current one (a value that began there and is checked now). */
export interface Pos {
  line: number;
  column: number;
}

export class DenseLine {
  /** The current line is `text[ls, le)` (blanks at its end removed), number `lineNo`; `pos` is where reading is. */
  protected text = "";
  protected pos = 0;
  protected ls = 0;
  protected le = 0;
  protected lineNo = 0;
  /** The current line's indentation once `indent` has measured it (-1: not yet): a line that closes frames is asked again. */
  protected lineIndent = -1;
  /** The last failure's position was at the end of its line (whether it is the input's end is the driver's to say). */
  protected failedAtLineEnd = false;
  /** The text checks of positions read as JSON or `any`, per shape (kept per model: every reader of a codec shares them). */
  protected readonly checks: Map<Shape, TextCheckFn>;
  /** Reading the cells of an inline array item, which may leave out trailing empty cells. */
  protected inItem = false;
  /** After `plainNumber`: the number had a fraction part. */
  protected fraction = false;
  /** Containers (objects, arrays, header groups) open at the current position: at most DENSE_MAX_DEPTH. */
  protected depth = 0;

  protected readonly cur: JsonCursor;
  /** Headers read before, per shape, with their bindings (`boundHeader`; kept per model, as `checks`). */
  protected readonly bounds: Map<ShapeInfo, { text: string; bound: BGroup }[]>;
  /** Field names read before, by first character and length (`key`; kept per model: 256 at most). */
  protected readonly keys: (string | undefined)[];

  constructor(readonly model: DenseModel) {
    let cache = caches.get(model);
    if (cache === undefined) caches.set(model, (cache = { checks: new Map(), bounds: new Map(), keys: new Array<string | undefined>(256) }));
    this.checks = cache.checks;
    this.bounds = cache.bounds;
    this.keys = cache.keys;
    this.cur = new LineCursor(this);
  }

  /**
   * Leading spaces of the current line. Every line of dense text is indented by 2 spaces per level, so a tab there
   * or an odd count is an indentation error at that line, whichever value it would end (a table whose rows are
   * indented with tabs is not "0 rows").
   */
  protected indent(): number {
    if (this.lineIndent >= 0) return this.lineIndent;
    let i = this.ls;
    while (i < this.le && this.text.charCodeAt(i) === 32) i++;
    const n = i - this.ls;
    if (i < this.le && this.text.charCodeAt(i) === 9) this.fail("a tab in the indentation (indent with 2 spaces per level)", i);
    if ((n & 1) === 1) this.fail(`unexpected indentation (${n} space${n === 1 ? "" : "s"}; 2 per level)`, i);
    return (this.lineIndent = n);
  }

  fail(message: string, at: number | Pos = this.pos, code: "TEXT_SYNTAX" | "INVALID_VALUE" | "DEPTH_LIMIT" = "TEXT_SYNTAX", count?: CountMismatch): never {
    let line: number;
    let column: number;
    if (typeof at === "number") {
      line = this.lineNo;
      column = Math.max(1, at - this.ls + 1);
      // the value being read ran into the end of its line: when that line ends the input, a reply cut off there
      this.failedAtLineEnd = this.pos >= this.le || at >= this.le;
    } else {
      line = at.line;
      column = at.column;
      this.failedAtLineEnd = this.pos >= this.le;
    }
    throw withFacts(new ToonError(code, `dense text line ${line}, column ${column}: ${message}`, { path: "", line, column }), count, undefined);
  }

  /** A count that does not match what is under (or after) its header at `header`: TEXT_SYNTAX with its facts. */
  protected failCount(message: string, at: number, header: Pos, declared: number, found: number, more: boolean, what: "rows" | "items" | "entries", inline: boolean): never {
    return this.fail(message, at, "TEXT_SYNTAX", { declared, found, more, what, inline, line: header.line, column: header.column });
  }

  /** Where `at` on the current line is, to report an error there after this line is gone. */
  protected here(at = this.pos): Pos {
    return { line: this.lineNo, column: Math.max(1, at - this.ls + 1) };
  }

  protected invalid(message: string, at: number | Pos = this.pos): never {
    return this.fail(message, at, "INVALID_VALUE");
  }

  /**
   * One more container open (its caller closes it with `depth--` when it returns; a failure ends the document, and
   * `document` starts again from 0): beyond DENSE_MAX_DEPTH the text is DEPTH_LIMIT, before the call stack is.
   */
  protected deeper(): void {
    if (++this.depth > DENSE_MAX_DEPTH) this.fail(`nesting deeper than ${DENSE_MAX_DEPTH} levels`, this.pos, "DEPTH_LIMIT");
  }

  // ------------------------------------------------------------------------------------------ field names

  protected key(): string {
    const t = this.text;
    if (t.charCodeAt(this.pos) === 34) return readJsonString(this.cursor());
    const start = this.pos;
    let i = start;
    while (i < this.le && !endsName(t.charCodeAt(i))) i++;
    if (i === start) this.fail("expected a field name");
    this.pos = i;
    // the same key text as before (field lines name the same keys line after line) is that string again: no
    // slice, and the Map lookups that follow find its hash computed
    const n = i - start;
    const h = (t.charCodeAt(start) * 7 + n) & 255;
    const keys = this.keys;
    const k = keys[h];
    if (k !== undefined && k.length === n && holdsAt(t, start, k)) return k;
    return (keys[h] = t.slice(start, i));
  }

  /**
   * Whether the line at `pos` names the field `name`, which the writer spells bare (`spelled` is `name` itself), as
   * `key` would read it: its characters, then one that ends a field name, or the line's end. Moves past it if so.
   */
  protected bareNameAt(name: string, spelled: string): boolean {
    const n = name.length;
    const p = this.pos;
    if (spelled !== name || n === 0 || p + n > this.le) return false;
    const t = this.text;
    if (!holdsAt(t, p, name) || (p + n < this.le && !endsName(t.charCodeAt(p + n)))) return false;
    this.pos = p + n;
    return true;
  }

  // ------------------------------------------------------------------------------------------ raw cells

  /**
   * Past spaces in a row (around a cell, as TOON decoders trim them: `a, b` is "a" and "b"; the writer writes
   * none, and quotes a string with a space at either end); returns the code unit after them.
   */
  protected blanks(): number {
    const t = this.text;
    let p = this.pos;
    while (p < this.le && t.charCodeAt(p) === 32) p++;
    this.pos = p;
    return t.charCodeAt(p);
  }

  protected rawToken(): string {
    const start = this.pos;
    const i = this.cellEnd(start);
    this.pos = i;
    return this.text.slice(start, i);
  }

  /**
   * Where a raw cell from `at` ends: before the spaces ahead of its separator (`,` `;` `]`; blanks) or the end
   * of the line.
   */
  protected cellEnd(at: number): number {
    // one native scan (1.8x a charCodeAt loop over the examples' cells); the newline bounds it to the line
    if (at >= this.le) return at;
    CELL_END.lastIndex = at;
    let i = this.le;
    if (CELL_END.test(this.text)) i = Math.min(CELL_END.lastIndex - 1, this.le);
    while (i > at && this.text.charCodeAt(i - 1) === 32) i--;
    return i;
  }

  protected errorAt(code: "TEXT_SYNTAX" | "INVALID_VALUE", message: string, at: number | Pos): ToonError {
    try {
      this.fail(message, at, code);
    } catch (e) {
      return e as ToonError;
    }
  }

  /** The JSON reader's view of this reader's position (one object per reader, bound to the current line). */
  protected cursor(): JsonCursor {
    const c = this.cur;
    c.text = this.text;
    c.end = this.le;
    return c;
  }
}

/** `e` (a ToonError) with `seg` in front of its path: the value it is in. */
export function prefixed(e: unknown, seg: string | number): unknown {
  if (e instanceof ToonError) {
    e.path = pointerSegment(seg) + e.path;
  }
  return e;
}

/** A character that ends a bare field name: `:` `{` `[` `,` `}` `]` or a space. */
function endsName(c: number): boolean {
  return c === 58 || c === 123 || c === 91 || c === 44 || c === 125 || c === 93 || c === 32;
}

/**
 * Whether `t` holds `s` at `at` (the caller knows it fits): compared in place, where a few characters cost less
 * than a call to startsWith or a slice to hash.
 */
export function holdsAt(t: string, at: number, s: string): boolean {
  for (let q = 0; q < s.length; q++) if (t.charCodeAt(at + q) !== s.charCodeAt(q)) return false;
  return true;
}
