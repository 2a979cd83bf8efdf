/**
 * The TOON v4 reader's lines (runtime/text/reader/toon.ts is its API): each line the lexer hands on is measured
 * (indentation, blank and comment lines, §5.1 and §12) and read into the open scopes, an explicit stack of frames:
 * a line closes the scopes it is not in, then is read in the one it belongs to. Whatever a line decides about the
 * one before it (is `key:` a nested object or {}? does a table go on? is the first line a scalar root?) is decided
 * here, when the line arrives, or when the text ends (`finish`); nothing looks past the current line.
 *
 * A whole text has always reported a bad indentation anywhere before a bad token above it, so the reader keeps that
 * order within a piece: when a line fails to read, the rest of the piece is still measured, and an indentation
 * error there is the one thrown.
 */

import { ToonError, pointerSegment } from "../../wire/errors.ts";
import { withFacts } from "./facts.ts";
import { hasOwn, setOwn } from "../../wire/objects.ts";
import { checkSizeAndDepth } from "../options.ts";
import { LineLexer, type LineSink } from "./lines.ts";
import type { TextPosition, ToonReaderHooks, ToonReaderOptions } from "./toon.ts";
import { trackAt, trackCells } from "./toon-track.ts";
import { isWellFormed, loneSurrogate, loneSurrogateError } from "./well-formed.ts";
import {
  type Header,
  type LineState,
  buildRow,
  classify,
  cutAt,
  depthErr,
  errAt,
  leafPath,
  literalKV,
  parseQuoted,
  prefix,
  splitCells,
  tokenValue,
} from "./toon-line.ts";

// Frame kinds: 0 F_OBJ the fields of an object, at `depth`; 1 F_KEY a `key:` line whose value the next line
// decides (a nested object when it is deeper, else {}), `depth` the key's own; 2 F_LINES the items, rows or
// entries under header `h` standing at `depth`.
// Root states: 0 nothing read; 1 the first line is a scalar (the root, unless another line comes); 2 the root is
// complete (`rootValue`; `rootWhat` names it for content after it); 3 the root is open (the stack).

/** An open scope. Plain object (one literal, one hidden class), reused as the stack grows and shrinks. */
export interface Frame {
  k: number;
  /** Its index in the stack. */
  i: number;
  /** The key (or index) its value gets in its parent; undefined for the root. */
  seg: string | number | undefined;
  /** The container being filled: `obj` for objects and keyed tables, `arr` for lists and tables. */
  obj: Record<string, unknown> | null;
  arr: unknown[] | null;
  depth: number;
  /** F_LINES: the depth of its lines, -1 until the first line after the header says (§8). */
  rows: number;
  lvl: number;
  /** Inside a list item: blank lines are errors in strict mode. */
  span: boolean;
  h: Header | null;
  /** F_LINES: lines read so far, and where the first one past the declared count starts (xl 0: none yet); F_OBJ: fields. */
  count: number;
  xl: number;
  xc: number;
  /** Where the value starts (hooks, positions). */
  line: number;
  col: number;
  /** F_KEY: the column a depth error points to (the key line's content; the line is `line`). */
  ec: number;
}

/**
 * A reader's state: what the line tokenizers read and leave (LineState), the lexer's sink (`line`: measureLine),
 * the current line, the open scopes and the root.
 */
export interface R extends LineState, LineSink {
  readonly indent: number;
  /** log2 of `indent` when it is a power of two, else -1. */
  readonly shift: number;
  readonly lex: LineLexer;
  stack: Frame[];
  sp: number;
  /** Index of the frame whose path an error raised now belongs under (-1: the root's). */
  at: number;
  root: number;
  rootValue: unknown;
  rootErr: ToonError | null;
  rootWhat: string;
  /** Root state 1: where "missing ':' after key" points when a second line comes. */
  rl: number;
  rc: number;
  /** The current line: content end, depth, and the first blank line since the previous content line (0: none). */
  b: number;
  dep: number;
  blk: number;
  /** First blank line since the last content line, 0 if none. */
  blank: number;
  /** The piece being read when it has no lone surrogate inside (its lines need no check of their own), else "". */
  wf: string;
  /** The `child` hook (called with `hooks` as this). */
  child: NonNullable<ToonReaderHooks["child"]> | null;
  /** No hook and no tracking: a value is stored and nothing else. */
  plain: boolean;
  hooks: ToonReaderHooks | null;
  track: Map<object, Map<string | number, TextPosition>> | null;
  /** Track mode: where the first content of the text is (null: none yet), and where the text ended. */
  first: TextPosition | null;
  endAt: TextPosition | null;
  /**
   * The error thrown (and thrown again by every later call). While the last piece is read as a whole text
   * (`whole`), the first line that fails to read leaves it here and the rest are only measured: a lone surrogate or a
   * bad indentation further on is the one thrown, as a whole text has always reported them first.
   */
  failed: unknown;
  whole: boolean;
  ended: boolean;
}

/** The state of a reader with `options` (CONFIG_ERROR for a bad indent size or depth limit). */
export function newState(options: ToonReaderOptions | undefined): R {
  const indentSize = options?.indentSize ?? 2;
  const strict = options?.strict ?? true;
  const maxDepth = options?.maxDepth ?? 1000;
  checkSizeAndDepth(indentSize, maxDepth);
  const track = options?.track === true;
  const hooks = options?.hooks ?? null;
  const s: R = {
    t: "",
    ln: 0,
    ls: 0,
    la: 0,
    last: false,
    strict: strict !== false,
    maxDepth,
    key: "",
    vs: 0,
    q: 0,
    hdr: null,
    keys: new Array<string | undefined>(256),
    cells: [],
    ck: 0,
    exact: options?.exact === true,
    raws: 0,
    cpos: track ? [] : null,
    indent: indentSize,
    shift: (indentSize & (indentSize - 1)) === 0 && indentSize < 2 ** 30 ? 31 - Math.clz32(indentSize) : -1,
    lex: undefined as unknown as LineLexer,
    line: measureLine,
    stack: [],
    sp: -1,
    at: -1,
    root: 0,
    rootValue: undefined,
    rootErr: null,
    rootWhat: "",
    rl: 0,
    rc: 0,
    b: 0,
    dep: 0,
    blk: 0,
    blank: 0,
    wf: "",
    child: hooks?.child ?? null,
    plain: hooks?.child == null && !track,
    hooks,
    track: track ? new Map() : null,
    first: null,
    endAt: null,
    failed: undefined,
    whole: false,
    ended: false,
  };
  (s as { lex: LineLexer }).lex = new LineLexer(s);
  return s;
}

/**
 * Line `no` (`t[pos, end)`, of a piece not known to be free of lone surrogates): a lone surrogate in it is an error.
 * A short string (a line made of streamed pieces) is asked natively first; in a long one only the line is scanned.
 */
function checkLine(s: R, t: string, pos: number, end: number, no: number): void {
  if (t.length <= 4 * (end - pos) + 64 && isWellFormed(t)) return;
  const i = loneSurrogate(t, pos, end);
  if (i < 0) return;
  // a high half the text ends with: the input ended between the halves of a pair
  const cut = s.last && i === end - 1 && (t.charCodeAt(i) & 0xfc00) === 0xd800;
  s.at = -1;
  throw loneSurrogateError(t.charCodeAt(i), no, i - pos + 1, cut);
}

/**
 * Measure line `no` (`t[start, end)`), then read it: a lone surrogate in it is an error, comment lines are dropped,
 * blank lines marked on the next content line, indentation checked (strict) and turned into a depth. After a line
 * of the last piece failed to read, lines are only measured (see `failed`).
 */
function measureLine(this: R, t: string, start: number, end: number, no: number, last?: boolean): void {
  const s = this;
  // (the text's last line, with no line break: a token that runs out of it ran into the end of the input)
  if (last === true) s.last = true;
  let pos = start;
  if (no === 1 && end > start && t.charCodeAt(start) === 0xfeff) pos++;
  if (t !== s.wf) checkLine(s, t, pos, end, no);
  if (s.first === null && s.track !== null) firstContent(s, t, pos, end, no);
  let p = pos;
  while (p < end && t.charCodeAt(p) === 32 /* space */) p++;
  // a comment line (§5.1): dropped without interpretation
  if (p < end && t.charCodeAt(p) === 35 /* # */) return;
  let q = p;
  let tabs = 0;
  while (q < end) {
    const c = t.charCodeAt(q);
    if (c === 9 /* tab */) tabs++;
    else if (c !== 32 /* space */) break;
    q++;
  }
  let e = end;
  while (e > q && t.charCodeAt(e - 1) === 32 /* space */) e--;
  if (q === e) {
    if (s.blank === 0) s.blank = no;
    return;
  }
  let depth: number;
  if (tabs > 0) {
    // the first tab is at p: the spaces before it end there, and a tab follows them or none is counted
    if (s.strict) throw measureErr(s, "tab character used for indentation (not allowed in strict mode)", no, p - pos + 1);
    depth = Math.floor((q - pos - tabs) / s.indent) + tabs;
  } else {
    const sp = p - pos;
    // an indent size that is a power of two (2, the default, or 4) divides by a shift, not a division per line
    const shift = s.shift;
    if (s.strict && (shift >= 0 ? sp & ((1 << shift) - 1) : sp % s.indent) !== 0) {
      throw measureErr(s, `indentation of ${sp} spaces is not a multiple of the indent size ${s.indent}`, no, sp + 1);
    }
    depth = shift >= 0 ? sp >> shift : Math.floor(sp / s.indent);
  }
  if (s.failed !== undefined) return;
  s.t = t;
  s.ln = no;
  s.ls = pos;
  s.la = q;
  s.b = e;
  s.dep = depth;
  s.blk = s.blank;
  s.blank = 0;
  try {
    readLine(s);
  } catch (x) {
    s.failed = withPath(s, x);
    if (!s.whole) throw s.failed;
  }
}

/** An indentation error (in the last piece: before any error in reading the lines above it). */
function measureErr(s: R, reason: string, line: number, column: number): ToonError {
  s.at = -1;
  return new ToonError("TEXT_SYNTAX", reason, { line, column });
}

/** Track mode: the first code unit past spaces, controls and byte-order marks is where "" points. */
function firstContent(s: R, t: string, pos: number, end: number, no: number): void {
  for (let i = pos; i < end; i++) {
    const c = t.charCodeAt(i);
    if (c > 32 && c !== 0xfeff) {
      s.first = { line: no, column: i - pos + 1 };
      return;
    }
  }
}

/** The error a push or end throws (and keeps throwing): a ToonError gets the path of the scope it arose in. */
export function withPath(s: R, e: unknown): unknown {
  if (e instanceof ToonError) {
    for (let i = s.at; i >= 0; i--) {
      const seg = s.stack[i].seg;
      if (seg !== undefined) e.prefixPath(pointerSegment(seg));
    }
  } else if (e instanceof RangeError) {
    e = new ToonError("DEPTH_LIMIT", "input too deeply nested (" + e.message + ")", { cause: e });
  }
  return e;
}

// ---------------------------------------------------------------------------------------------------------------
// Scopes

/** Read the current line: close the scopes it ends, then read it in the one it belongs to. */
function readLine(s: R): void {
  const stack = s.stack;
  for (;;) {
    const sp = s.sp;
    if (sp < 0) return rootLine(s);
    const f = stack[sp];
    s.at = sp;
    const dep = s.dep;
    if (f.k === 0 /* F_OBJ */) {
      if (dep < f.depth) {
        close(s, false);
        continue;
      }
      if (dep !== f.depth) throw overIndentErr(s, f.depth);
      if (s.blk !== 0 && f.span && s.strict) throw blankErr(s);
      field(s, f, s.la, s.b, classify(s, s.la, s.b));
      return;
    }
    if (f.k === 1 /* F_KEY */) {
      if (dep > f.depth) nest(s, f);
      else close(s, false);
      continue;
    }
    if (f.rows < 0) f.rows = scopeDepth(s, f.depth);
    if (dep > f.depth && lineUnder(s, f)) return;
    // a line at or above the header's depth, or a key-value line where a row was expected: the lines are over
    close(s, false);
  }
}

/** The first line decides what the root is (§5.2 root form); lines after a complete root. */
function rootLine(s: R): void {
  s.at = -1;
  if (s.root === 2) {
    if (s.strict) throw errAt(s, `unexpected content after ${s.rootWhat}`, s.la);
    return;
  }
  if (s.root === 1) throw new ToonError("TEXT_SYNTAX", "missing ':' after key", { line: s.rl, column: s.rc });
  if (s.dep !== 0) throw overIndentErr(s, 0);
  const a = s.la;
  const b = s.b;
  if (isEmptyArray(s.t, a, b)) {
    s.root = 2;
    s.rootValue = [];
    s.rootWhat = "an empty root array";
    return;
  }
  const kind = classify(s, a, b);
  if (kind === 2 /* K_HDR */ && (s.hdr as Header).key === null) {
    const h = s.hdr as Header;
    s.rootWhat = h.keyed ? "a keyed root object" : "a root array";
    const v = headerValue(s, h, undefined, 0, 1, false, a - s.ls + 1);
    s.root = v === null ? 3 : 2;
    s.rootValue = v;
    return;
  }
  if (kind === 0 /* K_NONE */) {
    // a scalar root, unless a second line comes (then this is a key without its colon)
    s.root = 1;
    s.rl = s.ln;
    s.rc = b - s.ls + 1;
    try {
      s.rootValue = tokenValue(s, a, b);
    } catch (e) {
      if (!(e instanceof ToonError)) throw e;
      s.rootErr = e;
    }
    return;
  }
  s.root = 3;
  const f = open(s, 0 /* F_OBJ */, undefined, 0, 1, false, s.ln, a - s.ls + 1, {}, null);
  s.at = 0;
  field(s, f, a, b, kind);
}

/**
 * Push a scope with its container (`obj` or `arr`, both null for F_KEY). The fields only F_LINES reads (h, rows,
 * xl) are set by its opener: a reused frame keeps stale ones otherwise, which nothing else reads.
 */
function open(s: R, k: number, seg: string | number | undefined, depth: number, lvl: number, span: boolean, line: number, col: number, obj: Record<string, unknown> | null, arr: unknown[] | null): Frame {
  const i = ++s.sp;
  let f = s.stack[i];
  if (f === undefined) {
    f = { k, i, seg, obj, arr, depth, rows: -1, lvl, span, h: null, count: 0, xl: 0, xc: 0, line, col, ec: 0 };
    s.stack.push(f);
    return f;
  }
  f.k = k;
  f.seg = seg;
  f.obj = obj;
  f.arr = arr;
  f.depth = depth;
  f.lvl = lvl;
  f.span = span;
  f.count = 0;
  f.line = line;
  f.col = col;
  return f;
}

/** Whether [a, b) of `t` is exactly `[]` (an empty array written inline). */
function isEmptyArray(t: string, a: number, b: number): boolean {
  return b - a === 2 && t.charCodeAt(a) === 91 /* [ */ && t.charCodeAt(a + 1) === 93 /* ] */;
}

/** Pop the top scope and store its value (`atEnd`: the text ended it). */
function close(s: R, atEnd: boolean): void {
  const f = s.stack[s.sp];
  s.at = s.sp;
  let v: unknown;
  if (f.k === 2 /* F_LINES */) {
    checkCount(s, f, atEnd);
    v = f.arr ?? f.obj;
  } else {
    v = f.k === 1 /* F_KEY */ ? {} : f.obj;
  }
  const p = --s.sp;
  if (p < 0) {
    s.root = 2;
    s.rootValue = v;
    return;
  }
  const parent = s.stack[p];
  if (s.plain) {
    if (parent.arr !== null) parent.arr.push(v);
    else setOwn(parent.obj as Record<string, unknown>, f.seg as string, v);
    return;
  }
  s.at = p;
  try {
    store(s, parent, f.seg as string | number, v, f.line, f.col);
  } catch (e) {
    throw prefix(e, f.seg as string | number);
  }
}

/** Store a complete value from the current line, starting at `pos` on it, into the container of `p`. */
function put(s: R, p: Frame, key: string | number, v: unknown, pos: number): void {
  if (s.plain) {
    if (p.arr !== null) p.arr.push(v);
    else setOwn(p.obj as Record<string, unknown>, key as string, v);
  } else store(s, p, key, v, s.ln, pos - s.ls + 1);
}

/** Store a complete value into the container of `p` (through the `child` hook; recording its position). */
function store(s: R, p: Frame, key: string | number, v: unknown, line: number, col: number): void {
  const parent = (p.arr ?? p.obj) as object;
  if (s.child !== null) v = s.child.call(s.hooks, parent, key, v, pathTo(s, p), line, col);
  if (s.track !== null) trackAt(s, parent, key, line, col);
  if (p.arr !== null) p.arr.push(v);
  else setOwn(p.obj as Record<string, unknown>, key as string, v);
}

/** The keys from the root to the container of `p`. */
function pathTo(s: R, p: Frame): (string | number)[] {
  const path: (string | number)[] = [];
  for (let i = 0; i <= p.i; i++) {
    const seg = s.stack[i].seg;
    if (seg !== undefined) path.push(seg);
  }
  return path;
}

/** Content depth of the scope a line at `depth` opens, from its first line (§8, strict: exactly one deeper). */
function scopeDepth(s: R, depth: number): number {
  const nd = s.dep;
  if (nd > depth + 1) {
    if (s.strict) throw errAt(s, `indentation jumps from depth ${depth} to ${nd} (expected ${depth + 1})`, s.la);
    return nd;
  }
  return depth + 1;
}

/** An F_KEY scope whose next line is deeper: its value is a nested object, whose fields start with that line. */
function nest(s: R, f: Frame): void {
  if (f.lvl + 1 > s.maxDepth) {
    s.at = f.i - 1;
    throw new ToonError("DEPTH_LIMIT", `nesting deeper than ${s.maxDepth} levels`, { line: f.line, column: f.ec });
  }
  f.depth = scopeDepth(s, f.depth);
  f.k = 0 /* F_OBJ */;
  f.obj = {};
  f.lvl++;
}

// ---------------------------------------------------------------------------------------------------------------
// Lines in scopes

/** One field of the object of `f` from the current line (content [a, b), already classified as `kind`). */
function field(s: R, f: Frame, a: number, b: number, kind: number): void {
  let h = kind === 2 /* K_HDR */ ? (s.hdr as Header) : null;
  if (h !== null && h.key === null) {
    if (s.strict) {
      throw errAt(s, h.keyed ? "a keyless keyed header is only valid at the document root" : "a keyless array header is only valid at the document root or as a list item", h.column - 1 + s.ls);
    }
    kind = literalKV(s, a, b);
    h = null;
  }
  if (kind === 0 /* K_NONE */) throw cutAt(s, "missing ':' after key", b);
  const t = s.t;
  const key = h !== null ? (h.key as string) : s.key;
  // a key-value line: its value starts at p (p >= b: none on the line, a nested object follows or it is empty)
  let p = s.vs;
  if (h === null) while (p < b && t.charCodeAt(p) === 32 /* space */) p++;
  // (an object's first field needs no look)
  if (s.strict && f.count++ !== 0 && hasOwn(f.obj as object, key)) throw errAt(s, `duplicate key "${key}"`, a);
  if (h === null && p >= b) {
    const k = open(s, 1 /* F_KEY */, key, f.depth, f.lvl, f.span, s.ln, a - s.ls + 1, null, null);
    k.ec = s.la - s.ls + 1;
    return;
  }
  try {
    let v: unknown;
    if (h !== null) {
      v = headerValue(s, h, key, f.depth, f.lvl + 1, f.span, a - s.ls + 1);
      if (v === null) return;
    } else v = isEmptyArray(t, p, b) ? [] : tokenValue(s, p, b);
    put(s, f, key, v, h !== null ? a : p);
  } catch (e) {
    throw prefix(e, key);
  }
}

/**
 * The value introduced by header `h` standing at depth `hd`: its inline values (returned), or a scope for the
 * lines under it (opened; returns null). `col`: where the value starts on the current line.
 */
function headerValue(s: R, h: Header, seg: string | number | undefined, hd: number, lvl: number, span: boolean, col: number): unknown[] | null {
  if (lvl > s.maxDepth) throw depthErr(s);
  if (h.vs < h.ve) {
    const arr: unknown[] = [];
    const cnt = splitCells(s, h.vs, h.ve, h.delim, false, arr);
    if (s.strict && cnt !== h.len) throw countErr(h, cnt, "values", true, h.line, h.column, s.last && cnt < h.len);
    if (s.track !== null) for (let i = 0; i < cnt; i++) trackAt(s, arr, i, s.ln, (s.cpos as number[])[i] - s.ls + 1);
    return arr;
  }
  const f = h.keyed ? open(s, 2 /* F_LINES */, seg, hd, lvl, span, s.ln, col, {}, null) : open(s, 2 /* F_LINES */, seg, hd, lvl, span, s.ln, col, null, []);
  f.h = h;
  f.rows = -1;
  f.xl = 0;
  return null;
}

/**
 * The current line under the header of `f` (deeper than it): a list item (§9.4, no field list), a row of a tabular
 * array (§9.3) or an entry of a keyed table (§9.5, `key: cells`). False when a row turns out to be a key-value
 * line (an unquoted colon before the first delimiter): the rows are over.
 */
function lineUnder(s: R, f: Frame): boolean {
  const h = f.h as Header;
  const g = h.fields;
  const t = s.t;
  const a = s.la;
  const b = s.b;
  const strict = s.strict;
  if (g === null) {
    const n = f.count;
    try {
      if (s.dep !== f.rows) throw overIndentErr(s, f.rows);
      if (t.charCodeAt(a) !== 45 /* - */ || (b - a > 1 && t.charCodeAt(a + 1) !== 32 /* space */)) throw errAt(s, "expected a list item ('- …')", a);
      if (strict && s.blk !== 0 && (f.span || n > 0)) throw blankErr(s);
      if (n === h.len && f.xl === 0) extraAt(s, f);
      f.count = n + 1;
      listItem(s, f, n, a, b);
    } catch (e) {
      throw prefix(e, n);
    }
    return true;
  }
  const keyed = h.keyed;
  let i = a;
  let key: string | number = f.count;
  if (keyed) {
    // an entry: the blank-line check comes first (a row's comes after its cells: a key-value line ends a table)
    if (s.dep !== f.rows) throw overIndentErr(s, f.rows);
    if (strict && s.blk !== 0 && (f.span || f.count > 0)) throw blankErr(s);
    let k: string;
    if (t.charCodeAt(a) === 34 /* " */) {
      k = parseQuoted(s, a, b);
      i = s.q;
      while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
      if (i >= b) throw cutAt(s, "expected ':' after entry key", i);
      if (t.charCodeAt(i) !== 58 /* : */) throw errAt(s, "expected ':' after entry key", i);
    } else {
      if (literalKV(s, a, b) === 0 /* K_NONE */) throw cutAt(s, "expected an entry row 'key: values' in keyed table", a);
      k = s.key;
      i = s.vs - 1;
    }
    i++;
    while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
    if (strict && hasOwn(f.obj as object, k)) throw errAt(s, `duplicate key "${k}"`, a);
    key = k;
  }
  const leaves = g.leaves;
  let inCells = false;
  try {
    if (s.dep !== f.rows) throw overIndentErr(s, f.rows);
    inCells = true;
    // a row is never empty (content lines are not); an entry's cells may be
    const cnt = i < b ? splitCells(s, i, b, h.delim, !keyed, s.cells) : 0;
    inCells = false;
    if (cnt < 0) return false;
    if (!keyed && strict && s.blk !== 0 && (f.span || f.count > 0)) throw blankErr(s);
    if (f.count === h.len && f.xl === 0) extraAt(s, f);
    if (cnt !== leaves) {
      const reason = `${keyed ? "entry" : "row"} has ${cnt} values but the header declares ${leaves} fields`;
      throw cnt < leaves ? cutAt(s, reason, i) : errAt(s, reason, i);
    }
    s.ck = 0;
    const row = buildRow(s, g, s.cells);
    f.count++;
    if (s.track !== null) trackCells(s, row, g);
    put(s, f, key, row, a);
  } catch (e) {
    if (inCells && e instanceof ToonError && s.ck < leaves) e.prefixPath(leafPath(g, s.ck));
    throw prefix(e, key);
  }
  return true;
}

/** List item `n` of `f` on the current line ([a, b) starts with "-"). */
function listItem(s: R, f: Frame, n: number, a: number, b: number): void {
  const t = s.t;
  const lvl = f.lvl + 1;
  const at = b - a > 1 ? a + 2 : a;
  let i = a + 1;
  while (i < b && t.charCodeAt(i) === 32 /* space */) i++;
  if (i >= b) {
    if (lvl > s.maxDepth) throw depthErr(s);
    return put(s, f, n, {}, at);
  }
  if (isEmptyArray(t, i, b)) return put(s, f, n, [], at);
  let kind = classify(s, i, b);
  if (kind === 0 /* K_NONE */) return put(s, f, n, tokenValue(s, i, b), at);
  if (kind === 2 /* K_HDR */) {
    const h = s.hdr as Header;
    if (h.key === null) {
      if (!h.keyed && h.fields === null) {
        const v = headerValue(s, h, n, f.rows, lvl, true, at - s.ls + 1);
        if (v !== null) put(s, f, n, v, at);
        return;
      }
      if (s.strict) {
        throw errAt(s, h.keyed ? "a keyless keyed header is only valid at the document root" : "a keyless header with a field list is only valid at the document root", h.column - 1 + s.ls);
      }
      kind = literalKV(s, i, b);
    }
  }
  if (lvl > s.maxDepth) throw depthErr(s);
  // an object item: its first field stands on the hyphen line, one level deeper than the hyphen
  field(s, open(s, 0 /* F_OBJ */, n, f.rows + 1, lvl, true, s.ln, at - s.ls + 1, {}, null), i, b, kind);
}

// ---------------------------------------------------------------------------------------------------------------
// Errors and counts

function overIndentErr(s: R, expected: number): ToonError {
  return errAt(s, `unexpected indentation: line is at depth ${s.dep} but its scope expects depth ${expected}`, s.la);
}

function blankErr(s: R): ToonError {
  return new ToonError("TEXT_SYNTAX", "blank line inside an array (not allowed in strict mode)", { line: s.blk, column: 1 });
}

/** The current line is the first one past the declared count of `f` (a count error points there). */
function extraAt(s: R, f: Frame): void {
  f.xl = s.ln;
  f.xc = s.la - s.ls + 1;
}

/** Strict mode: the lines under the header of `f` are as many as it declares (`atEnd`: the text ended them). */
function checkCount(s: R, f: Frame, atEnd: boolean): void {
  const h = f.h as Header;
  if (s.strict && f.count !== h.len) {
    const what = h.keyed ? "entries" : h.fields === null ? "items" : "rows";
    throw f.xl > 0 ? countErr(h, f.count, what, false, f.xl, f.xc, false) : countErr(h, f.count, what, false, h.line, h.column, atEnd && f.count < h.len);
  }
}

function countErr(h: Header, found: number, what: "rows" | "items" | "values" | "entries", inline: boolean, line: number, column: number, atEnd: boolean): ToonError {
  const e = new ToonError("TEXT_SYNTAX", `${h.keyed ? "keyed table" : "array"} declares ${h.len} ${what} but has ${found}`, { line, column });
  return withFacts(e, { declared: h.len, found, more: false, what, inline, line: h.line, column: h.column }, atEnd);
}

/** The text is over: every open scope closes (a short count there ran into the end of the input); the root's value. */
export function finish(s: R): void {
  while (s.sp >= 0) close(s, true);
  if (s.root === 0) {
    // no content at all: an empty object (§5.2)
    s.root = 2;
    s.rootValue = {};
  } else if (s.rootErr !== null) {
    s.at = -1;
    throw s.rootErr;
  }
}
