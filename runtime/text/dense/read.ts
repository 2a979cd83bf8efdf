/**
 * The dense reader: dense text back to a value of the codec's schema (docs/TEXT.md). Strict: counts, cells,
 * indentation, field names and kinds are checked against the headers and the schema; every failure is a
 * ToonError TEXT_SYNTAX (malformed text) or INVALID_VALUE (text that does not fit the schema) with the line,
 * column and the JSON pointer of the value being read.
 */
import { ToonError, pointerSegment } from "../../errors.ts";
import { setOwn } from "../../objects.ts";
import { formatOf } from "../../codec/formats.ts";
import { textCheckOf } from "../../codec/engine/text-check.ts";
import { checkDecoded, tcInt64, tcInteger, tcUuid, type TextCheckFn } from "../check.ts";
import type { Shape } from "../../codec/descriptor.ts";
import { droppedConst, nullAsEmpty, type DenseModel, type ShapeInfo } from "./model.ts";
import { DENSE_MAX_DEPTH, readJson, readJsonString, type JsonCursor } from "./json.ts";
import { NUMBER_RE, expandStamp, openRootLines } from "./syntax.ts";
import { markEnded } from "./ended.ts";
import { TextNumber, checkWellFormed } from "../decode.ts";

/** A parsed header entry: `key`, `key{...}`, `key[]...`. */
type HSpec = { t: 0 } | { t: 1; cols: HCol[] } | { t: 2; item: HSpec };
interface HCol {
  key: string;
  spec: HSpec;
  at: number;
}

/** A header bound to the schema. */
type Bound = BCell | BGroup | BArray;
interface BCell {
  t: 0;
  info: ShapeInfo;
}
interface BGroup {
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
interface BArray {
  t: 2;
  info: ShapeInfo;
  item: Bound;
}

const ABSENT = Symbol("absent");

const INTEGER_TOKEN = /^-?[0-9]+$/;

/** A JSON cell's check errors get the cell's position (jsonCell), not one located in the text by path. */
const noLocation = (): undefined => undefined;

/** What ends a raw cell (global: `cellEnd` starts it at `lastIndex`; one character class, no backtracking). */
const CELL_END = /[,;\]\n]/g;

/** 10^0 .. 10^22, each exact as a double. */
const POW10: number[] = [];
for (let k = 0, p = 1; k <= 22; k++, p *= 10) POW10.push(p);

class Fail extends Error {}

export class DenseReader {
  private text = "";
  private pos = 0;
  /** Current line: [lineStart, lineEnd), 1-based number. */
  private ls = 0;
  private le = 0;
  private lineNo = 0;
  /** The number of the text's first line that is not blank (blank lines before the value are cut off). */
  private firstLine = 1;
  private readonly checks = new Map<Shape, TextCheckFn>();
  /** Reading the cells of an inline array item, which may leave out trailing empty cells. */
  private inItem = false;
  /** After `plainNumber`: the number had a fraction part. */
  private fraction = false;
  /** Containers (objects, arrays, header groups) open at the current position: at most DENSE_MAX_DEPTH. */
  private depth = 0;

  private readonly cur: JsonCursor;
  /** Headers read before, per shape, with their bindings (`boundHeader`). */
  private readonly bounds = new Map<ShapeInfo, { text: string; bound: BGroup }[]>();

  constructor(private readonly model: DenseModel) {
    const self = this;
    this.cur = {
      text: "",
      get pos() {
        return self.pos;
      },
      set pos(p: number) {
        self.pos = p;
      },
      end: 0,
      fail: (m: string, at?: number, code?: "DEPTH_LIMIT"): never => self.fail(m, at ?? self.pos, code),
      raws: 0,
    };
  }

  document(text: string): unknown {
    checkWellFormed(text); // as TOON: no lone surrogates (TEXT_SYNTAX with line and column)
    this.text = text;
    this.inItem = false;
    this.depth = 0;
    this.ls = 0;
    this.lineNo = 1;
    this.le = this.findEol(0);
    this.pos = 0;
    // one trailing newline is allowed
    if (text.endsWith("\n")) this.text = text = text.slice(0, -1);
    // spaces and tabs at the end of a line are not part of it, as TOON decoders trim them (a model or an editor
    // may leave some): the writer quotes every value that ends in white space, so none is cut off
    if (hasTrailingBlanks(text)) this.text = text = withoutTrailingBlanks(text);
    // blank lines before the value are no part of it (nextLine skips those after its first line); their number
    // still counts in an error's line
    this.firstLine = 1;
    if (text.charCodeAt(0) === 10) {
      let k = 0;
      while (text.charCodeAt(k) === 10) k++;
      this.firstLine = k + 1;
      this.lineNo = k + 1;
      this.text = text = text.slice(k);
    }
    this.le = this.findEol(0);
    let info = this.model.root;
    if (info.nonNull !== undefined) {
      if (text === "null") return null;
      info = info.nonNull;
    }
    // a union laid out as `any` (model.ts asAny), or an array of them: read as that, then checked against it
    const v = info.viaAny !== undefined ? this.checkAs(info, this.root(info.viaAny), 0, 0) : this.root(info);
    if (this.ls < this.text.length) this.fail("unexpected line after the value (indentation?)", this.ls);
    return v;
  }

  /** The root value of the document's text (at its start), as `info`. */
  private root(info: ShapeInfo): unknown {
    let v: unknown;
    // an object root written as compact JSON (the writer's choice when that is fewer tokens): no field line
    // begins with "{" (such a key is quoted)
    if ((info.spelling === "object" || info.disc !== undefined) && this.text.charCodeAt(0) === 123) {
      this.pos = 0;
      v = this.jsonCell(info);
      if (this.pos !== this.le) this.fail("unexpected text after the value");
      this.nextLine();
    } else if (info.spelling === "object") v = this.fields(info, 0, undefined);
    else if (info.disc !== undefined) v = this.variantFields(info, 0, undefined);
    else if (info.shape.kind === "array") {
      // a root array is a field's value part after an empty key: `[N]...`, or `: [...]` (a JSON cell, for what the
      // writer cannot lay out as a table or list: arrays of arrays), or a JSON array (`[]`, `[{"a":1}]`: the
      // writer's choice when fewer tokens), which no `[N]` header looks like: `[`, digits, `]`, then `:` or `{`
      const c = this.text.charCodeAt(0);
      if (c !== 91 && c !== 58) this.fail('expected a root array header [N] (or ": " and a JSON array)');
      this.pos = 0;
      if (c === 91 && !arrayHeaderAt(this.text)) {
        v = this.jsonCell(info);
        if (this.pos !== this.le) this.fail("unexpected text after the value");
        this.nextLine();
      } else v = this.fieldValue(info, 0);
    } else if (info.shape.kind === "any" && this.text.charCodeAt(0) === 91 && arrayHeaderAt(this.text)) {
      this.pos = 0;
      v = this.fieldValue(this.model.anyArray, 0); // a root `any` holding a table `[N]{...}:` (or a list)
    } else if ((info.open !== undefined || info.fieldMap === true) && openRootLines(this.text)) {
      v = this.fields(this.model.openObject(info), 0, undefined); // an open root's object as its keys' lines
    } else {
      this.pos = 0;
      v = this.scalarCell(info, false);
      // an empty document is no scalar (the writer quotes the empty string)
      if (v === ABSENT) this.invalid(this.expected(info) + ", got an empty text");
      if (this.pos !== this.le) this.fail("unexpected text after the value");
      this.nextLine();
    }
    return v;
  }

  // ------------------------------------------------------------------------------------------ lines

  private findEol(from: number): number {
    const i = this.text.indexOf("\n", from);
    return i < 0 ? this.text.length : i;
  }

  /**
   * To the next line that is not blank: a blank line is no part of any value (a model may leave one between
   * sections or rows; TOON decoders skip those outside arrays), and its line number still counts.
   */
  private nextLine(): void {
    do {
      this.ls = this.le + 1;
      if (this.ls > this.text.length) {
        this.ls = this.le = this.text.length + 1;
        return;
      }
      this.le = this.findEol(this.ls);
      this.lineNo++;
      this.pos = this.ls;
    } while (this.le === this.ls && this.ls < this.text.length);
  }

  private atEnd(): boolean {
    return this.ls >= this.text.length;
  }

  /**
   * Leading spaces of the current line. Every line of dense text is indented by 2 spaces per level, so a tab there
   * or an odd count is an indentation error at that line, whichever value it would end (a table whose rows are
   * indented with tabs is not "0 rows").
   */
  private indent(): number {
    let i = this.ls;
    while (i < this.le && this.text.charCodeAt(i) === 32) i++;
    const n = i - this.ls;
    if (i < this.le && this.text.charCodeAt(i) === 9) this.fail("a tab in the indentation (indent with 2 spaces per level)", i);
    if ((n & 1) === 1) this.fail(`unexpected indentation (${n} space${n === 1 ? "" : "s"}; 2 per level)`, i);
    return n;
  }

  fail(message: string, at = this.pos, code: "TEXT_SYNTAX" | "INVALID_VALUE" | "DEPTH_LIMIT" = "TEXT_SYNTAX"): never {
    // the line holding `at`
    let line = this.lineNo;
    let start = this.ls;
    if (at < this.ls) {
      line = this.firstLine;
      start = 0;
      for (let i = this.text.indexOf("\n"); i >= 0 && i < at; i = this.text.indexOf("\n", i + 1)) {
        line++;
        start = i + 1;
      }
    }
    const column = Math.max(1, at - start + 1);
    const err = new ToonError(code, `dense text line ${line}, column ${column}: ${message}`, { path: "", line, column });
    // the reader got to the end of the text (the value it was reading ran into it): a cut-off reply looks so
    // (or went past its last line looking for more)
    if (this.pos >= this.text.length || at >= this.text.length || this.ls > this.text.length) markEnded(err);
    throw err;
  }

  private invalid(message: string, at = this.pos): never {
    return this.fail(message, at, "INVALID_VALUE");
  }

  /**
   * One more container open (its caller closes it with `depth--` when it returns; a failure ends the document, and
   * `document` starts again from 0): beyond DENSE_MAX_DEPTH the text is DEPTH_LIMIT, before the call stack is.
   */
  private deeper(): void {
    if (++this.depth > DENSE_MAX_DEPTH) this.fail(`nesting deeper than ${DENSE_MAX_DEPTH} levels`, this.pos, "DEPTH_LIMIT");
  }

  // ------------------------------------------------------------------------------------------ keys and headers

  private key(): string {
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
    return t.slice(start, i);
  }

  private header(): HCol[] {
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

  private suffix(): HSpec {
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
  private boundHeader(info: ShapeInfo, path: string): BGroup {
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

  private bind(h: HSpec, info: ShapeInfo, at: number, path: string): Bound {
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

  private missingOf(info: ShapeInfo, seen: Set<string>): string | undefined {
    for (const p of info.props!) if (p.required && !seen.has(p.name) && !droppedConst(p, this.model)) return p.name;
    return undefined;
  }

  // ------------------------------------------------------------------------------------------ field lines

  /**
   * Field lines of an object at indentation `ind`. `first`: the first line's fields start at this offset of the
   * current line (a list item's `- `).
   */
  private fields(info: ShapeInfo, ind: number, first: number | undefined, skip?: string): Record<string, unknown> {
    this.deeper();
    const o: Record<string, unknown> = {};
    const s = info.shape as Extract<Shape, { kind: "object" }>;
    let seen = 0;
    let firstLine = first !== undefined;
    while (!this.atEnd()) {
      if (firstLine) {
        this.pos = first!;
        firstLine = false;
      } else {
        const n = this.indent();
        if (n < ind) break;
        if (n > ind) this.fail(`unexpected indentation (${n} spaces, expected ${ind})`, this.ls + n);
        this.pos = this.ls + n;
        if (this.text.charCodeAt(this.pos) === 45 && (this.pos + 1 === this.le || this.text.charCodeAt(this.pos + 1) === 32)) break; // the next list item
      }
      const at = this.pos;
      const key = this.key();
      if (key === skip) this.fail(`${key} twice`, at);
      const j = info.index!.get(key);
      let pinfo: ShapeInfo;
      if (j !== undefined) {
        pinfo = this.model.info(info.props![j]!.shape);
        seen++;
      } else if (s.additional !== false) pinfo = this.model.info(s.additional);
      else this.invalid(`unknown field ${JSON.stringify(key)}`, at);
      if (Object.prototype.hasOwnProperty.call(o, key)) this.fail(`field ${JSON.stringify(key)} twice`, at);
      let v: unknown;
      try {
        v = this.fieldValue(pinfo, ind);
      } catch (e) {
        throw prefixed(e, key);
      }
      setOwn(o, key, v);
    }
    this.complete(info, o, seen);
    this.depth--;
    return o;
  }

  /** A discriminated union's field lines: the discriminator first. */
  private variantFields(info: ShapeInfo, ind: number, first: number | undefined): Record<string, unknown> {
    const d = info.disc!;
    if (first !== undefined) this.pos = first;
    else {
      const n = this.indent();
      if (this.atEnd() || n !== ind) this.fail(`expected ${d.property} (which kind of object this is)`);
      this.pos = this.ls + n;
    }
    const at = this.pos;
    const key = this.key();
    if (key !== d.property || this.text.charCodeAt(this.pos) !== 58 || this.text.charCodeAt(this.pos + 1) !== 32) this.invalid(`expected "${d.property}: " first (which kind of object this is)`, at);
    this.pos += 2;
    const b = this.discValue(d);
    if (this.pos !== this.le) this.fail("unexpected text after the value");
    this.nextLine();
    const o = this.fields(d.branches[b]!, ind, undefined, d.property);
    return withDisc(o, d.property, d.values[b]);
  }

  private discValue(d: NonNullable<ShapeInfo["disc"]>): number {
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

  /** What follows a field's key: `: value`, `:` and a block, `{hdr}: cells`, `[N]...`. */
  private fieldValue(info: ShapeInfo, ind: number): unknown {
    // a union laid out as `any` (model.ts asAny), or an array of them: read as that, then checked against it
    if (info.viaAny !== undefined) {
      const at = this.pos;
      return this.checkAs(info, this.fieldValue(info.viaAny, ind), 0, at);
    }
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 58) {
      if (this.pos + 1 === this.le) {
        // a block: nested field lines (or an empty object)
        this.nextLine();
        let inner = info;
        if (inner.nonNull !== undefined) inner = inner.nonNull;
        if (inner.spelling === "object") return this.fields(inner, ind + 2, undefined);
        if (inner.disc !== undefined) return this.variantFields(inner, ind + 2, undefined);
        if (inner.open !== undefined || inner.fieldMap === true) return this.fields(this.model.openObject(inner), ind + 2, undefined); // its keys' lines
        this.invalid("expected a value after the colon");
      }
      // ":" and the value, a space between them optional (the writer leaves it out before numbers)
      this.pos += t.charCodeAt(this.pos + 1) === 32 ? 2 : 1;
      // anything: as an open object's cell (a scalar, raw or quoted, or JSON from `{` or `[`)
      const v = info.spelling === "text" ? this.textCell(info, false) : info.shape.kind === "any" ? this.textCell(info.open!, false) : this.jsonCell(info);
      if (v === ABSENT) this.invalid("expected a value after the colon");
      if (this.pos !== this.le) this.fail("unexpected text after the value");
      this.nextLine();
      return v;
    }
    let inner = info;
    if (inner.nonNull !== undefined) inner = inner.nonNull;
    if (c === 123) {
      const b = this.boundHeader(inner, "");
      // (at the character that is not ": ": the end of the text, where a reply was cut off after the colon)
      if (t.charCodeAt(this.pos) !== 58) this.fail('expected ": " after a field group header');
      if (t.charCodeAt(this.pos + 1) !== 32) this.fail('expected ": " after a field group header', this.pos + 1);
      this.pos += 2;
      this.deeper();
      const v = this.group(b as BGroup, true);
      this.depth--;
      if (this.pos !== this.le) this.fail("unexpected text after the row (more cells than the header names?)");
      this.nextLine();
      return v;
    }
    if (c === 91) {
      // anything may be an array: read as an array of anything (a table of open objects, a list of JSON)
      if (inner.shape.kind === "any") inner = this.model.anyArray;
      if (inner.shape.kind !== "array") this.invalid("not an array, but written as one");
      return this.arrayAfterKey(inner, ind);
    }
    return this.fail('expected ":" after the field name');
  }

  /** `[N]: a,b` / `[N]{hdr}:` + rows / `[N]:` + list items; at "[". */
  private arrayAfterKey(info: ShapeInfo, ind: number): unknown[] {
    this.deeper();
    const a = this.arrayLines(info, ind);
    this.depth--;
    return a;
  }

  private arrayLines(info: ShapeInfo, ind: number): unknown[] {
    const t = this.text;
    this.pos++;
    const n = this.count();
    if (t.charCodeAt(this.pos) !== 93) this.fail('expected "]" after the array length');
    this.pos++;
    const item = this.model.info((info.shape as Extract<Shape, { kind: "array" }>).items);
    const out: unknown[] = [];
    if (t.charCodeAt(this.pos) === 123) {
      const b = this.boundHeader(item, "/[]");
      if (this.pos + 1 !== this.le || t.charCodeAt(this.pos) !== 58) this.fail('expected ":" and the end of the line after a table header');
      this.nextLine();
      this.deeper(); // the rows' objects
      for (let i = 0; i < n; i++) {
        if (this.atEnd() || this.indent() < ind + 2) this.fail(`the table declares ${n} rows, found ${i}`, this.atEnd() ? this.text.length : this.ls);
        const k = this.indent();
        if (k !== ind + 2 && this.le - this.ls !== ind + 2) this.fail(`unexpected indentation (${k} spaces, expected ${ind + 2})`, this.ls + k);
        this.pos = Math.min(this.ls + ind + 2, this.le);
        let v: unknown;
        try {
          v = this.group(b, true);
          if (this.pos !== this.le) this.fail(this.text.charCodeAt(this.pos) === 44 ? "more cells than the header names" : "unexpected text after the row");
        } catch (e) {
          throw prefixed(e, i);
        }
        out.push(v);
        this.nextLine();
      }
      this.depth--;
      if (!this.atEnd() && this.indent() > ind) this.fail(`the table declares ${n} rows, found more`, this.ls);
      return out;
    }
    if (t.charCodeAt(this.pos) !== 58) this.fail('expected ":" after the array length');
    this.pos++;
    if (this.pos === this.le) {
      this.nextLine();
      for (let i = 0; i < n; i++) {
        if (this.atEnd() || this.indent() !== ind + 2) this.fail(`the list declares ${n} items, found ${i}`, this.atEnd() ? this.text.length : this.ls);
        const dash = this.ls + ind + 2;
        if (t.charCodeAt(dash) !== 45) this.fail('expected "- " (a list item)', dash);
        try {
          out.push(this.listItem(item, ind + 4, dash));
        } catch (e) {
          throw prefixed(e, i);
        }
      }
      if (!this.atEnd() && this.indent() > ind) this.fail(`the list declares ${n} items, found more`, this.ls);
      return out;
    }
    if (t.charCodeAt(this.pos) === 32) this.pos++;
    // where anything may stand, or a union laid out as anything, items may be inline too (`out[2]: a,1`), each an
    // open object's cell (the writer writes such arrays as JSON, the same tokens; a model may write either)
    const cell = item.shape.kind === "any" ? item.open! : item;
    if (cell.spelling !== "text" && cell.asAny !== true) this.invalid("these items are not scalars, but written inline");
    for (let i = 0; i < n; i++) {
      if (i > 0) {
        if (this.blanks() !== 44) this.fail(`the array declares ${n} items, found ${i}`);
        this.pos++;
        this.blanks();
      }
      let v: unknown;
      try {
        v = this.scalarCell(cell, true);
      } catch (e) {
        throw prefixed(e, i);
      }
      if (v === ABSENT) this.invalid("an array item cannot be empty (write \"\" for an empty string)");
      out.push(v);
    }
    if (this.pos !== this.le) this.fail(`the array declares ${n} items, found more`);
    this.nextLine();
    return out;
  }

  private listItem(item: ShapeInfo, ind: number, dash: number): unknown {
    let info = item;
    const t = this.text;
    if (dash + 1 === this.le) {
      // "-": an empty object
      if (info.nonNull !== undefined) info = info.nonNull;
      if (info.spelling !== "object") this.invalid("an empty list item, but the item is not an object", dash);
      this.nextLine();
      return this.complete(info, {}, 0);
    }
    if (t.charCodeAt(dash + 1) !== 32) this.fail('expected "- " (a list item)', dash);
    const first = dash + 2;
    if (info.nonNull !== undefined) {
      if (t.startsWith("null", first) && first + 4 === this.le) {
        this.nextLine();
        return null;
      }
      info = info.nonNull;
    }
    // field lines, or JSON (`{` cannot start a raw key)
    if (t.charCodeAt(first) !== 123) {
      if (info.spelling === "object") return this.fields(info, ind, first);
      if (info.disc !== undefined) return this.variantFields(info, ind, first);
    }
    this.pos = first;
    const v = this.scalarCell(info, false);
    if (v === ABSENT) this.invalid("an empty list item");
    if (this.pos !== this.le) this.fail("unexpected text after the value");
    this.nextLine();
    return v;
  }

  private count(): number {
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
  private complete(info: ShapeInfo, o: Record<string, unknown>, _seen: number): Record<string, unknown> {
    for (const p of info.props!) {
      if (Object.prototype.hasOwnProperty.call(o, p.name)) continue;
      if (droppedConst(p, this.model)) setOwn(o, p.name, structuredCloneJson((this.model.resolve(p.shape) as { value: unknown }).value));
      else if (p.required) throw prefixed(this.errorAt("INVALID_VALUE", `missing required field ${JSON.stringify(p.name)}`, this.pos), p.name);
    }
    return o;
  }

  // ------------------------------------------------------------------------------------------ rows

  /** The cells of a group; ABSENT when every cell is empty and `present` is false. */
  private group(b: BGroup, present: boolean): unknown {
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
      const first = (d.first ??= d.branches.map((br) => discFirst(br, d.property, this.model)))[bi]!;
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
  private emptyObject(b: BGroup, o: Record<string, unknown>, at: number): void {
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
  private more(): boolean {
    let c = this.text.charCodeAt(this.pos);
    if (c === 32) c = this.blanks();
    if (c === 44 && this.pos < this.le) {
      if (this.text.charCodeAt(++this.pos) === 32) this.blanks();
      return true;
    }
    if (this.inItem && (c === 59 || c === 93) && this.pos < this.le) return false;
    this.fail("fewer cells than the header names");
  }

  private sep(i: number): void {
    if (i === 0) return;
    if (this.text.charCodeAt(this.pos) !== 44 || this.pos >= this.le) this.fail("fewer cells than the header names");
    this.pos++;
  }

  private emptyAhead(): boolean {
    const c = this.text.charCodeAt(this.pos);
    return this.pos >= this.le || c === 44 || c === 59 || c === 93;
  }

  private skipEmpty(leaves: number): void {
    for (let i = 1; i < leaves; i++) {
      this.blanks();
      if (this.inItem && this.emptyAhead() && this.text.charCodeAt(this.pos) !== 44 && this.pos < this.le) return; // the item ended
      if (this.text.charCodeAt(this.pos) !== 44 || !this.emptyAheadAt(this.pos + 1)) this.invalid("an absent object's cells must all be empty");
      this.pos++;
    }
  }

  private emptyAheadAt(p: number): boolean {
    while (p < this.le && this.text.charCodeAt(p) === 32) p++;
    const c = this.text.charCodeAt(p);
    return p >= this.le || c === 44 || c === 59 || c === 93;
  }

  /**
   * Past spaces in a row (around a cell, as TOON decoders trim them: `a, b` is "a" and "b"; the writer writes
   * none, and quotes a string with a space at either end); returns the code unit after them.
   */
  private blanks(): number {
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
  private cell(b: Bound, key: string, required: boolean): unknown {
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

  private inlineArray(b: BArray): unknown {
    const t = this.text;
    if (this.emptyAhead()) return ABSENT;
    if (t.charCodeAt(this.pos) !== 91) this.invalid('expected an inline array "[N:...]"');
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
        if (this.blanks() !== 59) this.fail(`the inline array declares ${n} items, found ${i}`);
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
    if (this.blanks() !== 93) this.fail(t.charCodeAt(this.pos) === 59 ? `the inline array declares ${n} items, found more` : 'expected "]" at the end of the inline array');
    this.pos++;
    return out;
  }

  // ------------------------------------------------------------------------------------------ cells

  private rawToken(): string {
    const start = this.pos;
    const i = this.cellEnd(start);
    this.pos = i;
    return this.text.slice(start, i);
  }

  /**
   * Where a raw cell from `at` ends: before the spaces ahead of its separator (`,` `;` `]`; blanks) or the end
   * of the line.
   */
  private cellEnd(at: number): number {
    // one native scan (1.8x a charCodeAt loop over the examples' cells); the newline bounds it to the line
    if (at >= this.le) return at;
    CELL_END.lastIndex = at;
    let i = this.le;
    if (CELL_END.test(this.text)) i = Math.min(CELL_END.lastIndex - 1, this.le);
    while (i > at && this.text.charCodeAt(i - 1) === 32) i--;
    return i;
  }

  /** A scalar cell in text spelling; `inRow`: it ends at a separator, else at the end of the line. */
  private textCell(info: ShapeInfo, inRow: boolean): unknown {
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
  private plainNumber(inRow: boolean): number | undefined {
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

  private checked(info: ShapeInfo, s: string, at: number): string {
    if (info.uuid) {
      try {
        tcUuid(s);
      } catch (e) {
        this.invalid((e as Error).message, at);
      }
    }
    return s;
  }

  private expected(info: ShapeInfo): string {
    const parts: string[] = [];
    for (const k of info.kinds!) if (k !== "enum") parts.push(k === "null" ? "null" : k === "integer" ? "an integer" : k === "boolean" ? "true or false" : "a " + k);
    if (info.enumValues !== undefined) parts.push("one of " + [...info.enumValues].map((v) => JSON.stringify(v)).join(", "));
    return "expected " + parts.join(" or ");
  }

  /**
   * One cell by its shape: a scalar in its text spelling; a union laid out as `any` (model.ts asAny) as an open
   * object's cell (a scalar raw or quoted, JSON from `{` or `[`), checked against the union; anything else JSON.
   */
  private scalarCell(info: ShapeInfo, inRow: boolean): unknown {
    if (info.spelling === "text") return this.textCell(info, inRow);
    if (info.asAny !== true) return this.jsonCell(info, inRow);
    const at = this.pos;
    const v = this.textCell(this.model.any.open!, inRow);
    return v === ABSENT ? v : this.checkAs(info, v, 0, at);
  }

  private jsonCell(info: ShapeInfo, inRow = false): unknown {
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
  private checkAs(info: ShapeInfo, v: unknown, raws: number, at: number): unknown {
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

  private errorAt(code: "TEXT_SYNTAX" | "INVALID_VALUE", message: string, at: number): ToonError {
    try {
      this.fail(message, at, code);
    } catch (e) {
      return e as ToonError;
    }
  }

  /** The JSON reader's view of this reader's position (one object per reader, bound to the current line). */
  private cursor(): JsonCursor {
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

/** Whether `t` begins with a root array header: `[`, a count, `]`, then `:` or `{` (else it is JSON). */
function arrayHeaderAt(t: string): boolean {
  let i = 1;
  while (i < t.length && t.charCodeAt(i) >= 48 && t.charCodeAt(i) <= 57) i++;
  if (i === 1 || t.charCodeAt(i) !== 93) return false;
  const c = t.charCodeAt(i + 1);
  return c === 58 || c === 123;
}

function hasTrailingBlanks(t: string): boolean {
  const c = t.charCodeAt(t.length - 1);
  return c === 32 || c === 9 || t.indexOf(" \n") >= 0 || t.indexOf("\t\n") >= 0;
}

/** `t` with the spaces and tabs at the end of each line that has more than blanks removed (one pass, linear). */
function withoutTrailingBlanks(t: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const nl = t.indexOf("\n", from);
    const eol = nl < 0 ? t.length : nl;
    let end = eol;
    while (end > from && (t.charCodeAt(end - 1) === 32 || t.charCodeAt(end - 1) === 9)) end--;
    // a line of blanks only stays as it is: its indentation may be a row of one empty cell
    out += t.slice(from, end === from ? eol : end);
    if (nl < 0) return out;
    out += "\n";
    from = nl + 1;
  }
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

function prefixed(e: unknown, seg: string | number): unknown {
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
function withDisc(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  setOwn(out, key, value);
  for (const k of Object.keys(o)) if (k !== key) setOwn(out, k, o[k]);
  return out;
}

function structuredCloneJson(v: unknown): unknown {
  return v === null || typeof v !== "object" ? v : JSON.parse(JSON.stringify(v));
}

void Fail;
void formatOf;
