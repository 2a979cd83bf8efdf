/**
 * The dense layout's per-line tokenizer and binder (docs/TEXT.md): keys, headers bound to the schema, rows, field
 * groups, inline arrays and cells of one line, read against the schema. The line driver (./dense.ts) hands it one
 * line at a time (`text[ls, le)`, blanks at its end removed) and owns everything that spans lines; nothing here
 * looks past the current line. Every failure is a ToonError TEXT_SYNTAX (malformed text) or INVALID_VALUE (text
 * that does not fit the schema) with the line, column and the JSON pointer of the value being read.
 */
import { ToonError, pointerSegment, type CountMismatch } from "../../errors.ts";
import { withFacts } from "./facts.ts";
import { setOwn } from "../../objects.ts";
import { textCheckOf } from "../../codec/engine/text-check.ts";
import { checkDecoded, tcInt64, tcInteger, tcUuid, type TextCheckFn } from "../check.ts";
import type { Shape } from "../../codec/descriptor.ts";
import { droppedConst, nullAsEmpty, type DenseModel, type ShapeInfo } from "../dense/model.ts";
import { DENSE_MAX_DEPTH, readJson, readJsonString, type JsonCursor } from "../dense/json.ts";
import { NUMBER_RE, expandStamp } from "../dense/syntax.ts";
import { TextNumber } from "../decode.ts";
import { POW10 } from "../../writer.ts";

/** A parsed header entry: `key`, `key{...}`, `key[]...`. */
export type HSpec = { t: 0 } | { t: 1; cols: HCol[] } | { t: 2; item: HSpec };
export interface HCol {
  key: string;
  spec: HSpec;
  at: number;
}

/** A header bound to the schema. */
export type Bound = BCell | BGroup | BArray;
export interface BCell {
  t: 0;
  info: ShapeInfo;
}
export interface BGroup {
  t: 1;
  info: ShapeInfo;
  /** Plain group: one entry per column. */
  cols?: { key: string; bound: Bound; required: boolean }[];
  /** Variant group: per branch, one entry per column (undefined: the branch has no such field). */
  branches?: ({ key: string; bound: Bound; required: boolean } | undefined)[][];
  discCol?: number;
  /** Variant group: each column's leaf count (a column a branch lacks is that many empty cells). */
  colLeaves?: number[];
  /** Variant group: per branch, the error binding the header to it (thrown by a row of that branch). */
  unfit?: (unknown | undefined)[];
  /** Plain group: some property has no column (a dropped const to put back). */
  needsComplete?: boolean;
  /** Per branch (or [0] for a plain group): required fields no column carries. */
  missing: (string | undefined)[];
  leaves: number;
}
export interface BArray {
  t: 2;
  info: ShapeInfo;
  item: Bound;
}

export const ABSENT = Symbol("absent");

const INTEGER_TOKEN = /^-?[0-9]+$/;

/** A JSON cell's check errors get the cell's position (jsonCell), not one located in the text by path. */
const noLocation = (): undefined => undefined;

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

  // ------------------------------------------------------------------------------------------ keys and headers

  protected key(): string {
    const t = this.text;
    if (t.charCodeAt(this.pos) === 34) return readJsonString(this.cursor());
    const start = this.pos;
    let i = start;
    for (; i < this.le; i++) {
      const c = t.charCodeAt(i);
      if (c === 58 || c === 123 || c === 91 || c === 44 || c === 125 || c === 93 || c === 32) break;
    }
    if (i === start) this.fail("expected a field name");
    this.pos = i;
    // the same key text as before (field lines name the same keys line after line) is that string again: no
    // slice, and the Map lookups that follow find its hash computed
    const n = i - start;
    const h = (t.charCodeAt(start) * 7 + n) & 255;
    const keys = this.keys;
    const k = keys[h];
    if (k !== undefined && k.length === n) {
      // (compared here: a field name is a few characters, a call to startsWith costs more than the loop)
      let q = 0;
      while (q < n && k.charCodeAt(q) === t.charCodeAt(start + q)) q++;
      if (q === n) return k;
    }
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
    for (let q = 0; q < n; q++) if (t.charCodeAt(p + q) !== name.charCodeAt(q)) return false;
    if (p + n < this.le) {
      const c = t.charCodeAt(p + n);
      if (c !== 58 && c !== 123 && c !== 91 && c !== 44 && c !== 125 && c !== 93 && c !== 32) return false;
    }
    this.pos = p + n;
    return true;
  }

  /** Whether branch `bi`'s object may hold its discriminator first from the start (see `discFirst` below). */
  protected discFirst(d: NonNullable<ShapeInfo["disc"]>, bi: number): boolean {
    return (d.first ??= d.branches.map((br) => discFirst(br, d.property, this.model)))[bi]!;
  }

  protected header(): HCol[] {
    // at "{"
    this.deeper();
    this.pos++;
    const cols: HCol[] = [];
    // spaces around a field name are not part of it, as in rows (blanks): `{id, name}`
    if (this.blanks() === 125) {
      this.pos++;
      this.depth--;
      return cols;
    }
    for (;;) {
      const at = this.pos;
      const key = this.key();
      this.blanks();
      cols.push({ key, spec: this.suffix(), at });
      const c = this.blanks();
      this.pos++;
      if (c === 44) this.blanks();
      if (c === 125) {
        this.depth--;
        return cols;
      }
      if (c !== 44) this.fail('expected "," or "}" in a header', this.pos - 1);
    }
  }

  protected suffix(): HSpec {
    const c = this.text.charCodeAt(this.pos);
    if (c === 123) return { t: 1, cols: this.header() };
    if (c === 91) {
      if (this.text.charCodeAt(this.pos + 1) !== 93) this.fail('expected "[]" (an inline array column) in a header', this.pos + 1);
      this.pos += 2;
      this.deeper();
      const item = this.suffix();
      this.depth--;
      return { t: 2, item };
    }
    return { t: 0 };
  }

  /**
   * The header at `pos` (a "{"), bound to `info`: the same header text as an earlier document's (the common case:
   * a codec reads the same tables again) takes that binding, without parsing or binding it again. Only bindings
   * that hold no deferred error are kept (those carry a position of the text they came from), at most 8 per shape
   * and headers of at most 2,048 characters, so what a codec keeps stays small whatever it reads.
   */
  protected boundHeader(info: ShapeInfo, path: string): BGroup {
    const t = this.text;
    const at = this.pos;
    let seen = this.bounds.get(info);
    if (seen !== undefined) {
      for (const e of seen) {
        if (t.startsWith(e.text, at)) {
          this.pos = at + e.text.length;
          return e.bound;
        }
      }
    }
    const b = this.bind({ t: 1, cols: this.header() }, info, at, path) as BGroup;
    if (!deferred(b)) {
      if (seen === undefined) this.bounds.set(info, (seen = []));
      // a copy of the header text, not a slice that would keep the whole document alive
      if (seen.length < 8 && this.pos - at <= 2048) seen.push({ text: (" " + t.slice(at, this.pos)).slice(1), bound: b });
    }
    return b;
  }

  protected bind(h: HSpec, info: ShapeInfo, at: number, path: string): Bound {
    if (h.t === 0) return { t: 0, info };
    if (info.nonNull !== undefined) info = info.nonNull;
    if (h.t === 2) {
      if (info.shape.kind !== "array") this.invalid(`${path || "the value"} is not an array, but its header says []`, at);
      const item = this.model.info(info.shape.items);
      return { t: 2, info: item, item: this.bind(h.item, item, at, path + "/[]") };
    }
    if (info.spelling === "object") {
      const cols: { key: string; bound: Bound; required: boolean }[] = [];
      const seen = new Set<string>();
      for (const c of h.cols) {
        const j = info.index!.get(c.key);
        if (j === undefined) this.invalid(`unknown field ${JSON.stringify(c.key)}${path ? " in " + path : ""}`, c.at);
        if (seen.has(c.key)) this.fail(`field ${JSON.stringify(c.key)} twice in a header`, c.at);
        seen.add(c.key);
        const p = info.props![j]!;
        // the schema's own key (the same text, already an internalized string): every row's store uses it
        // a required const the writer drops may still have a column: empty there, `complete` puts it back
        cols.push({ key: p.name, bound: this.bind(c.spec, this.model.info(p.shape), c.at, path + "/" + c.key), required: p.required && !droppedConst(p, this.model) });
      }
      // dropped consts to put back, or fields no column names (checked against `required`): `complete`
      const needsComplete = info.props!.some((p) => !seen.has(p.name));
      return { t: 1, info, cols, missing: [this.missingOf(info, seen)], leaves: leaves(cols.map((c) => c.bound)), needsComplete };
    }
    if (info.disc !== undefined) {
      const d = info.disc;
      const discCol = h.cols.findIndex((c) => c.key === d.property);
      if (discCol !== 0) this.invalid(`a header of ${d.property}-discriminated objects must start with ${d.property}`, at);
      const branches: ({ key: string; bound: Bound; required: boolean } | undefined)[][] = [];
      const missing: (string | undefined)[] = [];
      // a header describes the branches its rows use: a column that does not fit another branch fails only on
      // a row of that branch
      const unfit: (unknown | undefined)[] = [];
      const known = new Set<string>([d.property]);
      for (const b of d.branches) {
        const row: ({ key: string; bound: Bound; required: boolean } | undefined)[] = [];
        const seen = new Set<string>([d.property]);
        for (const c of h.cols) {
          if (c.key === d.property) {
            row.push(undefined);
            continue;
          }
          const j = b.index!.get(c.key);
          if (j === undefined) {
            row.push(undefined);
            continue;
          }
          known.add(c.key);
          seen.add(c.key);
          const p = b.props![j]!;
          try {
            // a branch's required const is dropped (its cell empty) even where another branch fills the column
            row.push({ key: p.name, bound: this.bind(c.spec, this.model.info(p.shape), c.at, path + "/" + c.key), required: p.required && !droppedConst(p, this.model) });
          } catch (e) {
            unfit[branches.length] ??= e;
            row.push(undefined);
          }
        }
        branches.push(row);
        missing.push(this.missingOf(b, seen));
      }
      for (const c of h.cols) if (!known.has(c.key)) this.invalid(`unknown field ${JSON.stringify(c.key)}${path ? " in " + path : ""}`, c.at);
      let n = 0;
      for (const c of h.cols) n += c.spec.t === 1 ? countLeaves(c.spec) : 1;
      return { t: 1, info, branches, discCol, missing, unfit, leaves: n, colLeaves: h.cols.map((c) => countLeaves(c.spec)) };
    }
    if (info.open !== undefined) {
      // a position the schema leaves open (`any`, a map): the header names the keys, each one cell of the open info
      const cols: { key: string; bound: Bound; required: boolean }[] = [];
      const seen = new Set<string>();
      const cell: Bound = { t: 0, info: info.open };
      for (const c of h.cols) {
        // where anything may stand, a key's value may be an object of its own keys (a nested header); a map's
        // values are its value type, one cell each; arrays are JSON cells
        if (c.spec.t === 2 || (c.spec.t === 1 && info.open.anyCell !== true)) this.invalid(`${JSON.stringify(c.key)}${path ? " in " + path : ""} is a key of an open object: one cell${info.open.anyCell === true ? " or a field group" : ""}, not ${c.spec.t === 1 ? "a field group" : "an inline array"}`, c.at);
        if (seen.has(c.key)) this.fail(`field ${JSON.stringify(c.key)} twice in a header`, c.at);
        seen.add(c.key);
        cols.push({ key: c.key, bound: c.spec.t === 1 ? this.bind(c.spec, this.model.any, c.at, path + "/" + c.key) : cell, required: false });
      }
      return { t: 1, info, cols, missing: [undefined], leaves: leaves(cols.map((c) => c.bound)), needsComplete: false };
    }
    return this.invalid(`${path || "the value"} is not an object, but its header names fields`, at);
  }

  protected missingOf(info: ShapeInfo, seen: Set<string>): string | undefined {
    for (const p of info.props!) if (p.required && !seen.has(p.name) && !droppedConst(p, this.model)) return p.name;
    return undefined;
  }

  /** A discriminator's cell: the index of the branch it names. */
  protected discValue(d: NonNullable<ShapeInfo["disc"]>): number {
    const at = this.pos;
    let v: unknown;
    try {
      v = this.text.charCodeAt(this.pos) === 34 ? readJsonString(this.cursor()) : this.rawToken();
    } catch (e) {
      throw prefixed(e, d.property);
    }
    const values = d.values;
    let b = -1;
    for (let i = 0; i < values.length; i++) {
      const x = values[i];
      if (x === v || (typeof x !== "string" && String(x) === v)) {
        b = i;
        break;
      }
    }
    if (b < 0) throw prefixed(this.errorAt("INVALID_VALUE", `${d.property} must be one of ${d.values.map((x) => JSON.stringify(x)).join(", ")}`, at), d.property);
    return b;
  }

  /** An array length: digits, no leading zero, at most 9 of them. */
  protected count(): number {
    const start = this.pos;
    let n = 0;
    while (this.pos < this.le) {
      const c = this.text.charCodeAt(this.pos);
      if (c < 48 || c > 57) break;
      n = n * 10 + (c - 48);
      this.pos++;
    }
    if (this.pos === start || this.pos - start > 9 || (this.text.charCodeAt(start) === 48 && this.pos - start > 1)) this.fail("expected an array length", start);
    return n;
  }

  /** Put back dropped consts and check required fields. */
  protected complete(info: ShapeInfo, o: Record<string, unknown>, _seen: number): Record<string, unknown> {
    for (const p of info.props!) {
      if (Object.prototype.hasOwnProperty.call(o, p.name)) continue;
      if (droppedConst(p, this.model)) setOwn(o, p.name, structuredCloneJson((this.model.resolve(p.shape) as { value: unknown }).value));
      else if (p.required) throw prefixed(this.errorAt("INVALID_VALUE", `missing required field ${JSON.stringify(p.name)}`, this.pos), p.name);
    }
    return o;
  }

  // ------------------------------------------------------------------------------------------ rows

  /** The cells of a group; ABSENT when every cell is empty and `present` is false. */
  protected group(b: BGroup, present: boolean): unknown {
    const start = this.pos;
    const o: Record<string, unknown> = {};
    let any = false;
    if (b.branches !== undefined) {
      const d = b.info.disc!;
      // the discriminator cell first (the binder checked its column is first)
      const c0 = this.text.charCodeAt(this.pos);
      if (c0 === 44 || c0 === 59 || c0 === 93 || this.pos >= this.le) {
        if (present) this.invalid(`expected ${d.property} (which kind of object this is)`);
        this.skipEmpty(b.leaves);
        return ABSENT;
      }
      const bi = this.discValue(d);
      // the discriminator first, as a JSON writer would have it, unless the branch requires it as a field of its
      // own (then `complete` reports it missing, before the object is rebuilt with it first)
      const first = this.discFirst(d, bi);
      if (first) setOwn(o, d.property, d.values[bi]);
      const row = b.branches[bi]!;
      if (b.unfit![bi] !== undefined) throw b.unfit![bi];
      if (b.missing[bi] !== undefined) throw prefixed(this.errorAt("INVALID_VALUE", `missing required field ${JSON.stringify(b.missing[bi])} (the header has no column for it)`, start), b.missing[bi]!);
      let ended = false;
      for (let i = 1; i < row.length; i++) {
        const col = row[i];
        if (!ended && !this.more()) ended = true;
        if (ended) {
          // the item ended early: the remaining cells are empty
          if (col !== undefined && col.required) {
            if (!nullCell(col)) throw prefixed(this.errorAt("INVALID_VALUE", `missing required field ${JSON.stringify(col.key)}`, this.pos), col.key);
            setOwn(o, col.key, null);
          }
          continue;
        }
        if (col === undefined) {
          const k = b.colLeaves![i]!;
          for (let l = 0; l < k; l++) {
            if (l > 0 && !this.more()) {
              ended = true;
              break;
            }
            if (!this.emptyAhead()) this.invalid(`a ${d.property}=${String(d.values[bi])} object has no field for this column`);
          }
          continue;
        }
        const v = this.cell(col.bound, col.key, col.required);
        if (v !== ABSENT) {
          if (col.key === "__proto__") setOwn(o, col.key, v);
          else o[col.key] = v;
        } else if (col.required) {
          if (!nullCell(col)) throw prefixed(this.errorAt("INVALID_VALUE", `missing required field ${JSON.stringify(col.key)}`, this.pos), col.key);
          setOwn(o, col.key, null);
        }
      }
      // leaves of skipped group columns were empty cells; no more to read
      this.complete(d.branches[bi]!, o, 0);
      return first ? o : withDisc(o, d.property, d.values[bi]);
    }
    const cols = b.cols!;
    let lacking: string | undefined;
    // required field groups whose cells are all empty: `{}` if this object is there (known after its last cell);
    // no closure here: one per row would put this loop's variables in a heap context (fromText 2x slower)
    let empties: [BGroup, Record<string, unknown>, string][] | undefined;
    for (let i = 0; i < cols.length; i++) {
      if (i > 0 && !this.more()) {
        // the item ended early: the remaining cells are empty
        for (let j = i; j < cols.length; j++) {
          const c = cols[j]!;
          if (!c.required) continue;
          if (c.bound.t === 1) empties = pendingEmpty(o, c.bound, c.key, empties);
          else if (nullCell(c)) setOwn(o, c.key, null);
          else lacking ??= c.key;
        }
        break;
      }
      const col = cols[i]!;
      const v = this.cell(col.bound, col.key, false);
      if (v === ABSENT) {
        if (col.required) {
          if (col.bound.t === 1) empties = pendingEmpty(o, col.bound, col.key, empties);
          else if (nullCell(col)) setOwn(o, col.key, null);
          else lacking ??= col.key;
        }
        continue;
      }
      any = true;
      if (col.key === "__proto__") setOwn(o, col.key, v);
      else o[col.key] = v;
    }
    if (!any && !present) return ABSENT;
    if (b.missing[0] !== undefined) throw prefixed(this.errorAt("INVALID_VALUE", `missing required field ${JSON.stringify(b.missing[0])} (the header has no column for it)`, start), b.missing[0]!);
    if (lacking !== undefined) throw prefixed(this.errorAt("INVALID_VALUE", `missing required field ${JSON.stringify(lacking)}`, start), lacking);
    if (empties !== undefined) {
      for (const [g, e, key] of empties) {
        try {
          this.emptyObject(g, e, start);
        } catch (x) {
          throw prefixed(x, key);
        }
      }
    }
    return b.needsComplete ? this.complete(b.info, o, 0) : o;
  }

  /**
   * The object a required field group of empty cells stands for (its parent is there): `{}` (`o`), checked as
   * a row of it would be: its own required fields are missing unless they are field groups too (`{}` again), and
   * a discriminated union's object cannot be empty.
   */
  protected emptyObject(b: BGroup, o: Record<string, unknown>, at: number): void {
    if (b.branches !== undefined) this.invalid(`expected ${b.info.disc!.property} (which kind of object this is)`, at);
    if (b.missing[0] !== undefined) throw prefixed(this.errorAt("INVALID_VALUE", `missing required field ${JSON.stringify(b.missing[0])} (the header has no column for it)`, at), b.missing[0]!);
    for (const c of b.cols!) {
      if (!c.required) continue;
      if (c.bound.t !== 1) {
        if (!nullCell(c)) throw prefixed(this.errorAt("INVALID_VALUE", `missing required field ${JSON.stringify(c.key)}`, at), c.key);
        setOwn(o, c.key, null);
        continue;
      }
      const e: Record<string, unknown> = {};
      setOwn(o, c.key, e);
      try {
        this.emptyObject(c.bound, e, at);
      } catch (x) {
        throw prefixed(x, c.key);
      }
    }
    if (b.needsComplete) this.complete(b.info, o, 0);
  }

  /**
   * Before the next cell: true after its ",", false when an inline array item ends here (`;` or `]`: its
   * trailing empty cells were left out, which only items may do); anything else is too few cells.
   */
  protected more(): boolean {
    let c = this.text.charCodeAt(this.pos);
    if (c === 32) c = this.blanks();
    if (c === 44 && this.pos < this.le) {
      if (this.text.charCodeAt(++this.pos) === 32) this.blanks();
      return true;
    }
    if (this.inItem && (c === 59 || c === 93) && this.pos < this.le) return false;
    this.fail("fewer cells than the header names");
  }

  protected sep(i: number): void {
    if (i === 0) return;
    if (this.text.charCodeAt(this.pos) !== 44 || this.pos >= this.le) this.fail("fewer cells than the header names");
    this.pos++;
  }

  protected emptyAhead(): boolean {
    const c = this.text.charCodeAt(this.pos);
    return this.pos >= this.le || c === 44 || c === 59 || c === 93;
  }

  protected skipEmpty(leaves: number): void {
    for (let i = 1; i < leaves; i++) {
      this.blanks();
      if (this.inItem && this.emptyAhead() && this.text.charCodeAt(this.pos) !== 44 && this.pos < this.le) return; // the item ended
      if (this.text.charCodeAt(this.pos) !== 44 || !this.emptyAheadAt(this.pos + 1)) this.invalid("an absent object's cells must all be empty");
      this.pos++;
    }
  }

  protected emptyAheadAt(p: number): boolean {
    while (p < this.le && this.text.charCodeAt(p) === 32) p++;
    const c = this.text.charCodeAt(p);
    return p >= this.le || c === 44 || c === 59 || c === 93;
  }

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

  /**
   * One column's cells (ABSENT: empty). `required`: a field group's cells all empty are its object, present and
   * empty (`{}`), not an absent field (the writer writes a required `{}` that way).
   */
  protected cell(b: Bound, key: string, required: boolean): unknown {
    try {
      if (b.t === 1) {
        this.deeper();
        const v = this.group(b, required);
        this.depth--;
        return v;
      }
      if (b.t === 2) return this.inlineArray(b);
      return this.scalarCell(b.info, true);
    } catch (e) {
      throw prefixed(e, key);
    }
  }

  protected inlineArray(b: BArray): unknown {
    const t = this.text;
    if (this.emptyAhead()) return ABSENT;
    if (t.charCodeAt(this.pos) !== 91) this.invalid('expected an inline array "[N:...]"');
    const header = this.pos;
    // `[]`: the empty array (a token fewer than `[0:]`)
    if (t.charCodeAt(this.pos + 1) === 93) {
      this.pos += 2;
      return [];
    }
    this.pos++;
    const n = this.count();
    if (t.charCodeAt(this.pos) !== 58) this.fail('expected ":" after the inline array length');
    this.pos++;
    this.blanks();
    const out: unknown[] = [];
    const outer = this.inItem;
    this.inItem = true;
    // the array, and its items' objects
    const levels = b.item.t === 1 ? 2 : 1;
    this.deeper();
    if (levels === 2) this.deeper();
    for (let i = 0; i < n; i++) {
      if (i > 0) {
        if (this.blanks() !== 59) this.failCount(`the inline array declares ${n} items, found ${i}`, this.pos, this.here(header), n, i, false, "items", true);
        this.pos++;
        this.blanks();
      }
      let v: unknown;
      try {
        const item = b.item;
        if (item.t === 1) v = this.group(item, true);
        else if (item.t === 2) v = this.inlineArray(item);
        else v = this.scalarCell(item.info, true);
        if (v === ABSENT) this.invalid("an array item cannot be empty");
      } catch (e) {
        throw prefixed(e, i);
      }
      out.push(v);
    }
    this.depth -= levels;
    this.inItem = outer;
    if (this.blanks() !== 93) {
      if (t.charCodeAt(this.pos) === 59) this.failCount(`the inline array declares ${n} items, found more`, this.pos, this.here(header), n, n, true, "items", true);
      this.fail('expected "]" at the end of the inline array');
    }
    this.pos++;
    return out;
  }

  // ------------------------------------------------------------------------------------------ cells

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

  /** A scalar cell in text spelling; `inRow`: it ends at a separator, else at the end of the line. */
  protected textCell(info: ShapeInfo, inRow: boolean): unknown {
    const t = this.text;
    const at = this.pos;
    // the common cells first, read in place: a number of one kind, a plain string
    const f = info.fast;
    if (f === 3 || f === 4 || f === 6) {
      const n = this.plainNumber(inRow);
      if (n !== undefined) {
        if (f === 3 || (f === 4 && Number.isSafeInteger(n))) return n;
        // an int64 of up to 15 digits is a safe integer: a number, or the bigint the config asks for (-0 and
        // fractions take the general path, which reads them as the text check does)
        if (f === 6 && !this.fraction && !Object.is(n, -0)) return info.bigint === true ? BigInt(n) : n;
      }
      this.pos = at; // anything else (an exponent, many digits, not a number): the general path and its errors
    } else if (f === 1 && info.uuid !== true && t.charCodeAt(at) !== 34) {
      const i = inRow ? this.cellEnd(at) : this.le;
      if (i === at) return ABSENT;
      this.pos = i;
      if (!inRow && (t.charCodeAt(at) === 32 || t.charCodeAt(i - 1) === 32)) this.fail("a string with spaces at either end must be quoted", at);
      if (i - at === 4 && t.startsWith("null", at)) this.invalid('expected a string, got null (write "null" in quotes for the text)', at);
      const tok = t.slice(at, i);
      return info.stamp === undefined ? tok : (expandStamp(info.stamp, tok) ?? tok);
    } else if (f === 2 && t.charCodeAt(at) !== 34) {
      // a value of a string enum, compared in place: the enum's own string, no slice to hash for a lookup
      const i = inRow ? this.cellEnd(at) : this.le;
      if (i === at) return ABSENT;
      const list = (info.enumList ??= [...info.enumValues!]);
      const n = i - at;
      for (const e of list) {
        if (e.length !== n) continue;
        let q = 0;
        while (q < n && e.charCodeAt(q) === t.charCodeAt(at + q)) q++;
        if (q === n) {
          this.pos = i;
          return e;
        }
      }
    }
    const kinds = info.kinds!;
    // an open object's cell: `{` or `[` begins JSON (a string that does is quoted)
    if (info.anyCell === true && (t.charCodeAt(at) === 123 || t.charCodeAt(at) === 91)) return this.jsonCell(info, inRow);
    if (t.charCodeAt(this.pos) === 34) {
      const s = readJsonString(this.cursor());
      // an enum value first: a union's string branch may take only some strings (a uuid) that the value is not
      if (info.enumValues !== undefined && info.enumValues.has(s)) return s;
      if (kinds.has("string")) return this.checked(info, s, at);
      return this.invalid(this.expected(info), at);
    }
    let tok: string;
    if (inRow) tok = this.rawToken();
    else {
      tok = t.slice(this.pos, this.le);
      this.pos = this.le;
    }
    if (tok.length === 0) return ABSENT;
    // the common cases first: a cell of one kind
    switch (info.fast) {
      case 3:
        if (NUMBER_RE.test(tok)) {
          const n = Number(tok);
          if (Number.isFinite(n)) return n; // `1e999` is no number (TOON reads it as a string)
        }
        return this.invalid(this.expected(info), at);
      case 4:
        if (NUMBER_RE.test(tok)) {
          const n = Number(tok);
          if (Number.isSafeInteger(n)) return n;
        }
        break;
      case 5:
        if (tok === "true") return true;
        if (tok === "false") return false;
        return this.invalid(this.expected(info), at);
    }
    if (kinds.size === 1) {
      // the common case: one kind
      if (kinds.has("string")) {
        if (!inRow && (tok.charCodeAt(0) === 32 || tok.charCodeAt(tok.length - 1) === 32)) this.fail("a string with spaces at either end must be quoted", at);
        if (tok === "null") this.invalid('expected a string, got null (write "null" in quotes for the text)', at);
        return this.checked(info, info.stamp !== undefined ? (expandStamp(info.stamp, tok) ?? tok) : tok, at);
      }
      if (kinds.has("enum")) {
        if (info.enumValues!.has(tok)) return tok;
        return this.invalid(this.expected(info), at);
      }
    }
    if (kinds.has("null") && tok === "null") return null;
    if (kinds.has("boolean")) {
      if (tok === "true") return true;
      if (tok === "false") return false;
    }
    // a token beyond float64 (`1e999`) is no number, as TOON reads it: the string, or what the cell expects
    const n = (kinds.has("number") || kinds.has("integer")) && NUMBER_RE.test(tok) ? Number(tok) : NaN;
    if (Number.isFinite(n)) {
      // an int64 reads an integer as the text check does (tcInt64: a bigint beyond 2^53, the double beyond 64
      // bits), and in a union with number only the digits of one beyond 2^53: a double there is written with an
      // exponent (write.ts spellInt64Double) and stays a number
      const exact = info.int64 === true && Number.isInteger(n) && (!kinds.has("number") || (!Number.isSafeInteger(n) && INTEGER_TOKEN.test(tok)));
      if (!exact && kinds.has("number")) return n;
      if (Number.isInteger(n)) {
        // the text check's integer guards: their range and their messages
        try {
          if (info.int64) {
            const v = tcInt64(new TextNumber(n, tok));
            return info.bigint === true && typeof v === "number" ? BigInt(v) : v;
          }
          return tcInteger(n);
        } catch (e) {
          if (!kinds.has("string")) return this.invalid((e as ToonError).reason, at);
        }
      } else if (!kinds.has("string")) return this.invalid("expected an integer", at);
    }
    if (info.enumValues !== undefined && info.enumValues.has(tok)) return tok;
    if (kinds.has("string")) {
      if (tok === "null") this.invalid('expected a string, got null (write "null" in quotes for the text)', at);
      return this.checked(info, info.stamp !== undefined ? (expandStamp(info.stamp, tok) ?? tok) : tok, at);
    }
    return this.invalid(this.expected(info), at);
  }

  /**
   * A number cell of JSON syntax (or a fraction without its leading zero, `.5`) with at most 15 significant
   * digits, no exponent, read from the text without slicing it (undefined: anything else, left to the general
   * path). Such a decimal `m / 10^k` with m < 2^53 and k <= 22 is one correctly rounded division of two exact
   * doubles: the same double `Number(token)` gives.
   */
  protected plainNumber(inRow: boolean): number | undefined {
    const t = this.text;
    const le = this.le;
    let i = this.pos;
    let neg = false;
    if (t.charCodeAt(i) === 45) {
      neg = true;
      i++;
    }
    const start = i;
    let m = 0;
    let c = t.charCodeAt(i);
    if (c === 48) {
      i++;
      c = t.charCodeAt(i);
    } else {
      while (c >= 48 && c <= 57) {
        m = m * 10 + (c - 48);
        c = t.charCodeAt(++i);
      }
    }
    if (i === start && c !== 46) return undefined; // `.5` has no integer digits: its fraction must follow
    let digits = i - start;
    let k = 0;
    if (c === 46) {
      const f = ++i;
      c = t.charCodeAt(i);
      while (c >= 48 && c <= 57) {
        m = m * 10 + (c - 48);
        c = t.charCodeAt(++i);
      }
      k = i - f;
      if (k === 0) return undefined;
      digits += k;
    }
    if (digits > 15 || i > le) return undefined;
    // the cell ends here: a separator in a row (spaces before it are blanks), the end of the line otherwise
    if (i < le && (!inRow || (c !== 44 && c !== 59 && c !== 93))) {
      if (!inRow || c !== 32 || !this.emptyAheadAt(i)) return undefined;
    }
    this.pos = i;
    this.fraction = k > 0;
    const v = k === 0 ? m : m / POW10[k]!;
    return neg ? -v : v;
  }

  protected checked(info: ShapeInfo, s: string, at: number): string {
    if (info.uuid) {
      try {
        tcUuid(s);
      } catch (e) {
        this.invalid((e as Error).message, at);
      }
    }
    return s;
  }

  protected expected(info: ShapeInfo): string {
    const parts: string[] = [];
    for (const k of info.kinds!) if (k !== "enum") parts.push(k === "null" ? "null" : k === "integer" ? "an integer" : k === "boolean" ? "true or false" : "a " + k);
    if (info.enumValues !== undefined) parts.push("one of " + [...info.enumValues].map((v) => JSON.stringify(v)).join(", "));
    return "expected " + parts.join(" or ");
  }

  /**
   * One cell by its shape: a scalar in its text spelling; a union laid out as `any` (model.ts asAny) as an open
   * object's cell (a scalar raw or quoted, JSON from `{` or `[`), checked against the union; anything else JSON.
   */
  protected scalarCell(info: ShapeInfo, inRow: boolean): unknown {
    if (info.spelling === "text") return this.textCell(info, inRow);
    if (info.asAny !== true) return this.jsonCell(info, inRow);
    const at = this.pos;
    const v = this.textCell(this.model.any.open!, inRow);
    return v === ABSENT ? v : this.checkAs(info, v, 0, at);
  }

  protected jsonCell(info: ShapeInfo, inRow = false): unknown {
    if (inRow && this.emptyAhead()) return ABSENT;
    const at = this.pos;
    const c = this.cursor();
    c.raws = 0;
    const v = readJson(c, this.depth);
    return this.checkAs(info, v, c.raws, at);
  }

  /**
   * A value read without its shape (JSON, or as `any`) checked against `info`'s shape as the text check checks
   * TOON text (`raws`: how many TextNumbers it holds); its errors are at `at` with the check's path.
   */
  protected checkAs(info: ShapeInfo, v: unknown, raws: number, at: number | Pos): unknown {
    let check = this.checks.get(info.shape);
    if (check === undefined) {
      check = textCheckOf({ name: "", root: info.shape, definitions: this.model.definitions });
      this.checks.set(info.shape, check);
    }
    try {
      // with the count of TextNumbers in it: `any` positions turn them back into numbers only when there are some
      return checkDecoded(v, raws, check, noLocation);
    } catch (e) {
      if (e instanceof ToonError) {
        const where = at;
        const err = this.errorAt(e.code === "TEXT_SYNTAX" ? "TEXT_SYNTAX" : "INVALID_VALUE", e.reason, where);
        err.path = e.path;
        throw err;
      }
      throw e;
    }
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

/**
 * A required scalar column that may hold null: its empty cell is that null (a required field is never absent; the
 * writer writes such a null as an empty cell, model.ts `nullAsEmpty`).
 */
function nullCell(c: { required: boolean; bound: Bound }): boolean {
  return c.bound.t === 0 && nullAsEmpty(c.required, c.bound.info);
}

/** A required field group's `{}` in `o`, to be checked once its parent is known to be there (`group`). */
function pendingEmpty(o: Record<string, unknown>, b: BGroup, key: string, empties: [BGroup, Record<string, unknown>, string][] | undefined): [BGroup, Record<string, unknown>, string][] {
  const e: Record<string, unknown> = {};
  setOwn(o, key, e);
  (empties ??= []).push([b, e, key]);
  return empties;
}


/** Whether a binding holds an error for a row to throw (a variant column that does not fit some branch). */
function deferred(b: Bound): boolean {
  if (b.t === 2) return deferred(b.item);
  if (b.t === 0) return false;
  if (b.unfit !== undefined && b.unfit.some((e) => e !== undefined)) return true;
  if (b.cols !== undefined) return b.cols.some((c) => deferred(c.bound));
  return b.branches!.some((row) => row.some((c) => c !== undefined && deferred(c.bound)));
}

function leaves(bs: Bound[]): number {
  let n = 0;
  for (const b of bs) n += b.t === 1 ? b.leaves : 1;
  return n;
}

function countLeaves(h: HSpec): number {
  if (h.t !== 1) return 1;
  let n = 0;
  for (const c of h.cols) n += countLeaves(c.spec);
  return n;
}

export function prefixed(e: unknown, seg: string | number): unknown {
  if (e instanceof ToonError) {
    e.path = pointerSegment(seg) + e.path;
  }
  return e;
}

/** Whether a branch's object may hold its discriminator from the start: the branch has no such required field, or drops it (a const). */
function discFirst(branch: ShapeInfo, property: string, model: DenseModel): boolean {
  const j = branch.index!.get(property);
  if (j === undefined) return true;
  const p = branch.props![j]!;
  return !p.required || droppedConst(p, model);
}

/** The object with its discriminator first (key order as a JSON writer would have it). */
export function withDisc(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  setOwn(out, key, value);
  for (const k of Object.keys(o)) if (k !== key) setOwn(out, k, o[k]);
  return out;
}

function structuredCloneJson(v: unknown): unknown {
  return v === null || typeof v !== "object" ? v : JSON.parse(JSON.stringify(v));
}

