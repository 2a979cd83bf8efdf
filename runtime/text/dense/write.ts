/**
 * The dense writer: a value of the codec's schema to dense text (docs/TEXT.md). Schema-valid values only (call
 * `validate` first for untrusted ones); anything the structured forms cannot carry goes out as compact JSON,
 * which the reader takes back where the schema allows a composite.
 */
import { ToonError, hostError } from "../../wire/errors.ts";
import { getOwn, hasOwn } from "../../wire/objects.ts";
import { DENSE_MAX_DEPTH } from "./json.ts";
import { nullAsEmpty, type DenseModel, type ShapeInfo } from "./model.ts";
import { ARRAY, CELL, CELL_SPEC, GROUP, branchOf, fitsObject, hasObjectArray, headerOf, isPlainObject, specOf, type GroupSpec, type Spec } from "./spec.ts";
import { estimateTokens } from "./estimate.ts";
import { ambiguousInUnion, compactStamp, expandStamp, needsQuotes, openRootLines, spellCellNumber, spellKey, spellNumber } from "./syntax.ts";

const INDENT = "  ";
/**
 * JSON wins the document when its estimate is below the dense lines' times this: the estimate undercounts
 * what dense spends (a quoted cell, `[N]`), and at a tie JSON is the safer read. 1.04 is the smallest factor
 * with which no corpus instance costs more than compact JSON (bench/dense.ts, o200k_base).
 */
const MARGIN = 1.04;
/**
 * The longest line that holds a JSON cell: three lines of an 80-column terminal, the most of one row a reviewer
 * (or a model asked to check its reply) still sees at once while matching each cell to its column, which nested
 * JSON makes hard; longer, the value goes to field lines (a table to a list, a field group to its field lines).
 */
const MAX_JSON_LINE = 240;

export class DenseWriter {
  /** Characters of the keys (`"key":`) JSON would spell for the cells written under headers in this document. */
  private keyed = 0;
  /** After `groupCells`: the empty cells at its end, whose commas are not written yet. */
  private tail = 0;
  /** Top-level cells of absent fields in the table rows written since it was reset (`arrayLine`). */
  private absent = 0;
  /** Containers open at the value being written: deeper than the reader takes (DENSE_MAX_DEPTH) is DEPTH_LIMIT. */
  private depth = 0;
  /** Objects and arrays written as JSON cells in rows, groups and inline arrays so far (the table-or-list choice). */
  private composites = 0;
  /**
   * The value being written ends the document at depth 0 (the root's last field, a root array): a table there
   * writes its rows flush left (docs/TEXT.md §2, "flush rows"), the two blanks before each row being two tokens.
   */
  private last = false;
  /**
   * Values laid out in lines only because their JSON line would be too long to read (MAX_JSON_LINE), in this
   * document: lines that may cost more than that JSON did, so the whole document's lines and JSON are always
   * weighed by the estimate (the shortcuts that skip it assume the lines are what the layout chose for cost).
   */
  private unfolded = 0;

  constructor(private readonly model: DenseModel) {}

  /**
   * The document: its dense lines, or compact JSON when the root is an object whose dense lines would not be
   * fewer tokens than its JSON (small objects of short arrays and maps, where `[N]` and line structure cost more
   * than JSON's punctuation). JSON is self-describing and the reader takes it where the root is an object.
   */
  document(value: unknown): string {
    this.keyed = 0;
    this.unfolded = 0;
    const lines = this.lines(value);
    try {
      return this.choose(value, lines);
    } catch (e) {
      throw hostError(e, "");
    }
  }

  /** The dense lines, or the value's compact JSON where that costs fewer tokens (see `document`). */
  private choose(value: unknown, lines: string): string {
    const c0 = lines.charCodeAt(0);
    if (c0 === 123) return lines; // already JSON
    // an array root the lines spell as `: [...]` (arrays of arrays, mixed items): the JSON alone, which the reader
    // takes as well (`: ` is a token more)
    if (c0 === 58) return Array.isArray(value) ? lines.slice(2) : lines;
    // a root array: `[N]...` lines or its JSON, whichever costs fewer tokens (`[0]:` is 3 tokens, `[]` one; a
    // short list of small objects is cheaper as JSON), as for objects below; the reader takes a root that
    // begins with "[" and is no `[N]` header as JSON
    if (Array.isArray(value)) return this.cheaper(value, lines);
    if (!isPlainObject(value)) return lines; // a scalar root
    // no lines at all (an empty object, or one of dropped consts only): its JSON, `{}`, so that the text is never
    // empty and a model's reply that holds it has something to find (fromModelOutput)
    if (lines === "") return this.json(value);
    return this.cheaper(value, lines);
  }

  /** The lines, or the value's compact JSON when its estimated tokens are fewer (see `document`). */
  private cheaper(value: unknown, lines: string): string {
    // the keys JSON would spell for the cells written under headers (`"key":` each) add up to more than a quarter
    // of the lines: JSON is that much longer, the lines win by far, and skipping the estimate keeps toText fast on
    // the tables dense is for (unless the line limit laid values out in lines: see `unfolded`)
    if (this.keyed * 4 > lines.length && this.unfolded === 0) return lines;
    let size: number;
    try {
      size = JSON.stringify(value).length; // a cheap first look: dense lines much shorter than JSON win anyway
    } catch {
      size = Infinity; // bigint: the writer's own JSON below
    }
    if (lines.length < size * 0.8 && this.unfolded === 0) return lines;
    const json = this.json(value);
    return estimateTokens(json) < estimateTokens(lines) * MARGIN ? json : lines;
  }

  /**
   * The document as dense lines (never the JSON fallback): what the prompt example teaches. A value nested deeper
   * than the reader takes, or than the call stack allows (a cycle), is DEPTH_LIMIT, never a RangeError.
   */
  lines(value: unknown): string {
    this.depth = 0;
    try {
      return this.linesOf(value);
    } catch (e) {
      throw hostError(e, "");
    }
  }

  private linesOf(value: unknown): string {
    let info = this.model.root;
    if (info.nonNull !== undefined && value !== null) info = info.nonNull;
    // a union laid out as `any` (model.ts asAny), or an array of them: as that, read back and checked
    if (info.viaAny !== undefined) info = info.viaAny;
    if (info.spelling === "object" && isPlainObject(value)) return trimEnd(this.fields(info, value, ""));
    if (info.disc !== undefined && branchOf(info, value, false) >= 0) return trimEnd(this.variantFields(info, value as Record<string, unknown>, ""));
    if (info.shape.kind === "array" && Array.isArray(value)) {
      this.last = true;
      try {
        return trimEnd(this.arrayLine("", "", info, value));
      } finally {
        this.last = false;
      }
    }
    // an open root (anything, a map) holding an object: its field lines, unless they would read as JSON (a first
    // key that is quoted or begins with a digit)
    if ((info.open !== undefined || info.fieldMap === true) && isPlainObject(value)) {
      const before = this.keyed;
      const table = info.fieldMap === true ? this.keyedTable("", "", info, value) : undefined;
      const tableKeyed = this.keyed;
      this.keyed = before;
      const lines = trimEnd(this.fields(this.model.openObject(info), value, ""));
      if (table !== undefined && estimateTokens(table) <= estimateTokens(lines)) {
        this.keyed = tableKeyed;
        return trimEnd(table);
      }
      return openRootLines(lines) ? lines : this.json(value);
    }
    // anything, holding an array: a table when its items are objects, JSON otherwise (arrayLines)
    if (info.shape.kind === "any" && Array.isArray(value)) {
      const lines = trimEnd(this.arrayLine("", "", this.model.anyArray, value));
      return lines.charCodeAt(0) === 58 ? lines.slice(2) : lines; // `: [...]`: the JSON alone, as a root `any` reads it
    }
    return this.scalar(info, value);
  }

  /** The field lines of an object at indentation `ind`, each ending in "\n". */
  fields(info: ShapeInfo, v: Record<string, unknown>, ind: string, skip?: string): string {
    this.deeper();
    let out = "";
    const props = info.props!;
    const infos = info.propInfos!;
    const dropped = info.dropped!;
    const keys = info.keys!;
    const s = info.shape;
    const extra = s.kind === "object" && s.additional !== false;
    // the root's last field ends the document (its table's rows flush left)
    const lastAt = ind === "" && !(extra && hasExtraKeys(info, v)) ? lastField(info, v, skip) : -1;
    for (let j = 0; j < props.length; j++) {
      const name = props[j]!.name;
      const x = hasOwn(v, name) ? v[name] : undefined;
      if (x === undefined || dropped[j] || name === skip) continue;
      if (j !== lastAt) out += this.fieldLine(ind, keys[j]!, infos[j]!, x);
      else {
        this.last = true;
        try {
          out += this.fieldLine(ind, keys[j]!, infos[j]!, x);
        } finally {
          this.last = false;
        }
      }
    }
    if (extra) {
      const index = info.index!;
      let ainfo: ShapeInfo | undefined;
      for (const k of Object.keys(v)) {
        if (index.has(k)) continue;
        const x = v[k];
        if (x === undefined) continue;
        ainfo ??= this.model.info((s as Extract<ShapeInfo["shape"], { kind: "object" }>).additional as ShapeInfo["shape"]);
        out += this.fieldLine(ind, spellKey(k), ainfo, x);
      }
    }
    this.depth--;
    return out;
  }

  private deeper(): void {
    if (++this.depth > DENSE_MAX_DEPTH) throw new ToonError("DEPTH_LIMIT", `value nested deeper than ${DENSE_MAX_DEPTH} levels (the dense reader's limit; a cycle?)`, { path: "" });
  }

  /** A discriminated union's value as field lines: the discriminator first, then the branch's fields. */
  variantFields(info: ShapeInfo, v: Record<string, unknown>, ind: string): string {
    const d = info.disc!;
    const b = d.branches[branchOf(info, v, false)]!;
    return ind + spellKey(d.property) + ": " + this.discCell(v[d.property]) + "\n" + this.fields(b, v, ind, d.property);
  }

  fieldLine(ind: string, key: string, info: ShapeInfo, x: unknown): string {
    // a union laid out as `any` (model.ts asAny), or an array of them: as that, read back and checked; its value
    // has no shape the layout follows, so JSON where that is fewer tokens (`openOrJson`)
    const via = info.viaAny !== undefined;
    if (via) info = info.viaAny!;
    if (info.nonNull !== undefined && x !== null) info = info.nonNull;
    if (info.spelling === "object") {
      if (fitsObject(info, x)) {
        const spec = specOf(this.model, info, [x]) as GroupSpec;
        if (spec.leaves > 0 && !hasObjectArray(spec)) {
          const composites = this.composites;
          const cells = this.rowCells(spec, x);
          const line = ind + key + (spec.header ??= headerOf(spec.cols, spellKey)) + ": " + cells;
          // every cell empty (required nulls, written empty): field lines say what each one is; a line of JSON
          // cells too long to read (MAX_JSON_LINE): field lines lay them out
          if (!onlyCommas(cells) && (this.composites === composites || line.length <= MAX_JSON_LINE)) return line + "\n";
          if (!onlyCommas(cells)) this.unfolded++;
        }
        return ind + key + ":\n" + this.fields(info, x, ind + INDENT);
      }
      if (isPlainObject(x)) return ind + key + ":\n" + this.fields(info, x, ind + INDENT);
    } else if (info.disc !== undefined && branchOf(info, x, false) >= 0) {
      return ind + key + ":\n" + this.variantFields(info, x as Record<string, unknown>, ind + INDENT);
    } else if (info.shape.kind === "array" && Array.isArray(x)) {
      return this.arrayLine(ind, key, info, x);
    } else if (info.shape.kind === "any" && Array.isArray(x)) {
      // anything, holding an array: a table when its items are objects, JSON otherwise (arrayLines)
      const keyed = this.keyed;
      const lines = this.arrayLine(ind, key, this.model.anyArray, x);
      return via ? this.openOrJson(ind, key, x, keyed, lines) : lines;
    } else if (info.open !== undefined && isPlainObject(x)) {
      // an object where the schema leaves the keys open: field lines of its keys when one holds an array of
      // objects (a table there, not JSON in a cell), else a field group of the keys it has
      const keyed = this.keyed;
      let lines: string | undefined;
      if (holdsObjectArray(x)) lines = ind + key + ":\n" + this.fields(this.model.openObject(info), x, ind + INDENT);
      else {
        const spec = specOf(this.model, info, [x]);
        if (spec.t === GROUP) lines = ind + key + (spec.header ??= headerOf(spec.cols, spellKey)) + ": " + this.rowCells(spec, x) + "\n";
      }
      if (lines !== undefined) return via ? this.openOrJson(ind, key, x, keyed, lines) : lines;
    } else if (info.fieldMap === true && isPlainObject(x) && hasKeys(x)) {
      // a map of composites: a keyed table where one header fits its values, or field lines of its keys (each
      // value laid out by the map's value shape), whichever is fewer tokens
      const keyed = this.keyed;
      const table = this.keyedTable(ind, key, info, x);
      const tableKeyed = this.keyed;
      this.keyed = keyed;
      let lines = ind + key + ":\n" + this.fields(this.model.openObject(info), x, ind + INDENT);
      if (table !== undefined && estimateTokens(table) <= estimateTokens(lines)) {
        this.keyed = tableKeyed;
        lines = table;
      }
      return this.openOrJson(ind, key, x, keyed, lines);
    }
    // anything: a scalar spelled as an open object's cell (a string raw unless it would read as something else)
    return ind + key + colon(info.shape.kind === "any" ? this.text(info.open!, x) : this.scalar(info, x)) + "\n";
  }

  /**
   * A map whose values are objects as a keyed table, TOON v4's form: `key[N:]{hdr}:`, then one line per entry, its
   * key, `: ` and the value's cells under the one header that fits every value (as a table's rows); undefined
   * when none does (a null value, values that are no objects).
   */
  private keyedTable(ind: string, key: string, map: ShapeInfo, x: Record<string, unknown>): string | undefined {
    let value = this.model.info((map.shape as Extract<ShapeInfo["shape"], { kind: "object" }>).additional as ShapeInfo["shape"]);
    if (value.nonNull !== undefined) value = value.nonNull;
    if (value.spelling !== "object") return undefined;
    const keys: string[] = [];
    const values: unknown[] = [];
    for (const k of Object.keys(x)) {
      const v = x[k];
      if (v === undefined) continue;
      if (!fitsObject(value, v)) return undefined;
      keys.push(k);
      values.push(v);
    }
    if (keys.length === 0) return undefined;
    const spec = specOf(this.model, value, values);
    if (spec.t !== GROUP || spec.leaves === 0) return undefined;
    this.deeper();
    const rowInd = ind + INDENT;
    let rows = "";
    for (let i = 0; i < keys.length; i++) {
      const cells = this.rowCells(spec, values[i], true);
      rows += rowInd + spellKey(keys[i]!) + (cells === "" ? ":\n" : ": " + cells + "\n");
    }
    this.depth--;
    return ind + key + "[" + keys.length + ":]" + (spec.header ??= headerOf(spec.cols, spellKey)) + ":\n" + rows;
  }

  /**
   * A value at an open position laid out from its data (a table, field lines, a field group), or `key: ` and its
   * JSON where that is estimated fewer tokens (a one-row table, sparse keys, short values): the reader takes JSON
   * at every open position. `keyed`: the header count before the layout, restored when JSON wins.
   */
  private openOrJson(ind: string, key: string, x: unknown, keyed: number, lines: string): string {
    const json = ind + key + ": " + this.json(x) + "\n";
    // much shorter lines win without the estimate (the tables open positions are laid out for), and so do lines
    // where the JSON would be a line too long to read (MAX_JSON_LINE)
    if (lines.length < json.length * 0.7 || estimateTokens(lines) * MARGIN < estimateTokens(json)) return lines;
    if (json.length > MAX_JSON_LINE + 1) {
      this.unfolded++;
      return lines;
    }
    this.keyed = keyed;
    return json;
  }

  /** `key[N]: a,b`, a table `key[N]{..}:` with its rows, or a list `key[N]:` with `- ` items. */
  arrayLine(ind: string, key: string, info: ShapeInfo, x: unknown[]): string {
    this.deeper();
    const s = this.arrayLines(ind, key, info, x);
    this.depth--;
    return s;
  }

  private arrayLines(ind: string, key: string, info: ShapeInfo, x: unknown[]): string {
    const s = info.shape as Extract<ShapeInfo["shape"], { kind: "array" }>;
    const item = info.itemInfo ?? this.model.info(s.items);
    const n = x.length;
    if (n === 0) return ind + key + "[0]:\n";
    if (item.spelling === "text") {
      let line = "";
      for (let i = 0; i < n; i++) line += (i > 0 ? "," : "") + this.text(item, x[i]);
      return ind + key + "[" + n + "]" + colon(line) + "\n";
    }
    // items that are neither objects nor scalars (arrays, tuples, maps, mixed unions, anything): the array as JSON,
    // which costs no more than JSON, unless they are objects of scalars at an open position (a table of their keys)
    const opaque = item.spelling === "json" && item.disc === undefined && item.nonNull?.spelling !== "object";
    if (opaque && (item.nonNull ?? item).open === undefined) return ind + key + colon(this.json(x)) + "\n";
    const spec = specOf(this.model, item, x);
    if (opaque && spec.t !== GROUP) return ind + key + colon(this.json(x)) + "\n";
    if (spec.t === GROUP && spec.leaves > 0) {
      // (a row of one empty cell is no line flush left: a blank line)
      const rowInd = ind === "" && this.last && spec.leaves > 1 ? "" : ind + INDENT;
      let rows = "";
      this.absent = 0;
      const keyed = this.keyed;
      const composites = this.composites;
      // a row holding JSON cells longer than MAX_JSON_LINE: the list lays its items out in field lines
      let longJson = false;
      for (let i = 0; i < n; i++) {
        const before = this.composites;
        const row = rowInd + this.rowCells(spec, x[i], true);
        if (this.composites !== before && row.length > MAX_JSON_LINE) longJson = true;
        rows += row + "\n";
      }
      // a one-cell table has no empty cells to save
      const empties = spec.leaves > 1 ? this.absent : 0;
      const table = ind + key + "[" + n + "]" + (spec.header ??= headerOf(spec.cols, spellKey)) + ":\n" + rows;
      // mostly empty cells: a list naming the fields each item has may be shorter; objects or arrays in JSON cells
      // (a union the columns cannot follow, an open map): a list lays them out in its items' field lines, which
      // may be fewer tokens, and reads better than JSON inside a row
      const sparse = empties * 3 >= n * spec.leaves;
      const json = this.composites !== composites;
      if (!sparse && !json) return table;
      const keyedTable = this.keyed;
      const list = this.listLines(ind, key, item, x);
      if (list !== undefined && (longJson || (sparse && list.length < table.length) || (json && estimateTokens(list) < estimateTokens(table)))) {
        if (longJson) this.unfolded++;
        this.keyed = keyed + (this.keyed - keyedTable);
        return list;
      }
      this.keyed = keyedTable;
      return table;
    }
    return this.listLines(ind, key, item, x) ?? ind + key + ": " + this.json(x) + "\n";
  }

  private listLines(ind: string, key: string, item: ShapeInfo, x: unknown[]): string | undefined {
    let out = ind + key + "[" + x.length + "]:\n";
    const itemInd = ind + INDENT;
    for (const v of x) {
      let info = item;
      if (info.nonNull !== undefined && v !== null) info = info.nonNull;
      let body: string;
      if (info.spelling === "object" && isPlainObject(v)) body = this.fields(info, v, itemInd + INDENT);
      else if (info.disc !== undefined && branchOf(info, v, false) >= 0) body = this.variantFields(info, v as Record<string, unknown>, itemInd + INDENT);
      else {
        out += itemInd + "- " + this.scalar(info, v) + "\n";
        continue;
      }
      out += body === "" ? itemInd + "-\n" : itemInd + "- " + body.slice(itemInd.length + 2);
    }
    return out;
  }

  /**
   * The cells of one value under a group spec (all empty when `v` is absent), without the commas of its trailing
   * empty cells: their count is left in `this.tail` (a row adds them back, an inline array item drops them; see
   * `trimmed`). Writing them only once a non-empty cell follows keeps an item from being built and then cut.
   * `top`: a table row's own columns, whose absent fields count into `this.absent` (the table-or-list choice).
   */
  groupCells(spec: GroupSpec, v: unknown, top = false): string {
    const cols = spec.cols;
    if (v === undefined) {
      this.tail = spec.leaves > 0 ? spec.leaves - 1 : 0;
      return "";
    }
    this.deeper();
    this.keyed += spec.keyChars ??= keyChars(cols);
    const o = v as Record<string, unknown>;
    let out = "";
    let pend = 0;
    const d = spec.info.disc;
    // a required null is an empty cell among others; alone (one cell) it is `null`, or the row or item would look empty
    const leaves = spec.leaves;
    const b = d === undefined ? -1 : d.values.indexOf(o[d.property] as string);
    const props = b < 0 ? undefined : d!.branches[b]!.propInfos!;
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i]!;
      if (i > 0) pend++;
      let x: unknown;
      let info: ShapeInfo | undefined;
      if (props === undefined) {
        info = c.info!;
        // a key Object.prototype does not have reads directly (an absent one cannot find an inherited value)
        x = c.safe === true ? o[c.key] : getOwn(o, c.key);
      } else if (c.disc === true) {
        out += commas(pend) + this.discCell(o[d!.property]);
        pend = 0;
        continue;
      } else {
        const j = c.props![b]!;
        if (j >= 0) {
          info = props[j]!;
          x = getOwn(o, c.key);
          // a required scalar's null: an empty cell, as in a plain group
          if (x === null && leaves > 1 && nullAsEmpty(d!.branches[b]!.props![j]!.required, info)) x = undefined;
        }
      }
      const spec = c.spec;
      if (x === undefined || (x === null && c.nullEmpty && leaves > 1)) {
        const n = spec.t === GROUP ? spec.leaves : 1;
        if (top) this.absent += n;
        pend += n - 1;
        continue;
      }
      if (spec.t === CELL) {
        if (typeof x === "object" && x !== null) this.composites++;
        out += commas(pend) + this.scalar(info!, x);
        pend = 0;
      } else if (spec.t === GROUP) {
        const s = this.groupCells(spec, x);
        if (s !== "") {
          out += commas(pend) + s;
          pend = 0;
        }
        pend += this.tail;
      } else {
        out += commas(pend) + this.inlineArray(spec, x as unknown[]);
        pend = 0;
      }
    }
    this.tail = pend;
    this.depth--;
    return out;
  }

  /** `[N:item;item]`, each item without its trailing empty cells (docs/TEXT.md §2). */
  inlineArray(spec: Extract<Spec, { t: 2 }>, a: unknown[]): string {
    if (a.length === 0) return "[]"; // (a token fewer than `[0:]`)
    this.deeper();
    let out = "[" + a.length + ":";
    const item = spec.item;
    for (let i = 0; i < a.length; i++) {
      if (i > 0) out += ";";
      if (item.t === GROUP) out += trimmed(this.groupCells(item, a[i]), this.tail);
      else out += this.cells(item, spec.info, a[i]);
    }
    this.depth--;
    return out + "]";
  }

  /** The cells of one value at the end of a line: a row or a field group's line, trailing empty cells kept. */
  rowCells(spec: GroupSpec, v: unknown, top = false): string {
    const s = this.groupCells(spec, v, top);
    return this.tail === 0 ? s : s + commas(this.tail);
  }

  cells(spec: Spec, info: ShapeInfo | undefined, x: unknown): string {
    if (spec.t === GROUP) return this.rowCells(spec, x);
    if (x === undefined) return "";
    if (spec.t === ARRAY) return this.inlineArray(spec, x as unknown[]);
    if (typeof x === "object" && x !== null) this.composites++;
    return this.scalar(info!, x);
  }

  discCell(v: unknown): string {
    return typeof v === "string" ? (needsQuotes(v) ? JSON.stringify(v) : v) : this.json(v);
  }

  /** One cell: text spelling when the shape is a scalar, JSON otherwise. */
  scalar(info: ShapeInfo, x: unknown): string {
    if (info.spelling === "text") return this.text(info, x);
    // a union laid out as `any`: its scalars spelled as an open object's cell (composites: JSON)
    return info.asAny === true ? this.text(this.model.any.open!, x) : this.json(x);
  }

  text(info: ShapeInfo, x: unknown): string {
    switch (typeof x) {
      case "string": {
        // the common cell: a string of one kind (string or string enum), no basic form to check
        if (info.stamp === undefined && (info.fast === 1 || info.fast === 2)) return needsQuotes(x) ? JSON.stringify(x) : x;
        const kinds = info.kinds!;
        if (info.stamp !== undefined) {
          const b = compactStamp(info.stamp, x);
          if (b !== undefined) return b;
          if (expandStamp(info.stamp, x) !== undefined) return JSON.stringify(x); // raw, it would read as the extended form
        }
        if (needsQuotes(x) || (kinds.size > 1 && ambiguousInUnion(x, kinds))) return JSON.stringify(x);
        // a cell of an open object's key reads `{` and `[` as JSON
        if (info.anyCell === true && startsJson(x)) return JSON.stringify(x);
        return x;
      }
      case "number":
        return info.int64 === true ? spellInt64Double(x) : spellCellNumber(x);
      case "bigint":
        return String(x);
      case "boolean":
        return x ? "true" : "false";
      default:
        return x === null ? "null" : this.json(x);
    }
  }

  /** Compact JSON, except that -0 stays -0 and bigints are written as integers (lossless). */
  json(x: unknown): string {
    switch (typeof x) {
      case "string":
        return JSON.stringify(x);
      case "number":
        return Number.isFinite(x) ? spellJsonNumber(x) : "null";
      case "bigint":
        return String(x);
      case "boolean":
        return x ? "true" : "false";
      case "object": {
        if (x === null) return "null";
        this.deeper();
        if (Array.isArray(x)) {
          let s = "[";
          for (let i = 0; i < x.length; i++) s += (i > 0 ? "," : "") + (x[i] === undefined ? "null" : this.json(x[i]));
          this.depth--;
          return s + "]";
        }
        let s = "{";
        let first = true;
        const o = x as Record<string, unknown>;
        for (const k of Object.keys(o)) {
          const v = o[k];
          if (v === undefined) continue;
          s += (first ? "" : ",") + JSON.stringify(k) + ":" + this.json(v);
          first = false;
        }
        this.depth--;
        return s + "}";
      }
      default:
        return "null";
    }
  }
}

/**
 * A number in JSON (a JSON cell, the document's JSON): an integer beyond 2^53 with the digits of its exact value
 * (`9223372036854774784` for the double `String` spells `9223372036854775000`), because the reader keeps such a
 * token's digits for an int64 position (where the shortest spelling would be another integer); as long as
 * JSON's, and read back as the same double anywhere else. Every other number as `spellNumber`.
 */
function spellJsonNumber(x: number): string {
  return unsafeDigits(x) ? BigInt(x).toString() : spellNumber(x);
}

/**
 * A number in an int64 cell: an integer beyond 2^53 that is a double, not a bigint, in exponent form
 * (`1.2345678901234567e+19`), so that a union of number and int64 reads it back as that double (its digits would
 * read as the bigint they spell, of another type and value); a plain int64 position reads either as binary and
 * TOON text do (a bigint). Every other number as `spellCellNumber`.
 */
function spellInt64Double(x: number): string {
  return unsafeDigits(x) ? x.toExponential() : spellCellNumber(x);
}

/** An integer beyond 2^53 that `String` spells with digits (below 1e21), not the exact value they read as. */
function unsafeDigits(x: number): boolean {
  return !Number.isSafeInteger(x) && Number.isInteger(x) && x < 1e21 && x > -1e21;
}

/**
 * `": "` before a value, without the space before a number (`key:12`, `key:.5`): tokenizers split a space from a
 * digit or a dot, so the space would cost a token there; the reader takes either.
 */
function colon(value: string): string {
  const c = value.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 45 || c === 46 ? ":" + value : ": " + value;
}

/**
 * An inline array item without its trailing empty cells (`;` or `]` ends it; docs/TEXT.md §2): the commas of
 * `tail` empty cells are dropped, except from an item of empty cells only, which keeps them (an empty item is not
 * an item). A cell is never empty when present, so `cells === ""` means every cell was empty.
 */
/** Whether `v` has a key its object's declared properties do not name (written after them). */
function hasExtraKeys(info: ShapeInfo, v: Record<string, unknown>): boolean {
  const index = info.index!;
  for (const k of Object.keys(v)) if (!index.has(k) && v[k] !== undefined) return true;
  return false;
}

/** The index of the last property of `info` that `v` writes a line for (-1: none). */
function lastField(info: ShapeInfo, v: Record<string, unknown>, skip: string | undefined): number {
  const props = info.props!;
  for (let j = props.length - 1; j >= 0; j--) {
    const name = props[j]!.name;
    if (name !== skip && !info.dropped![j] && hasOwn(v, name) && v[name] !== undefined) return j;
  }
  return -1;
}

function trimmed(cells: string, tail: number): string {
  return cells === "" ? commas(tail) : cells;
}

const COMMAS: string[] = [];
for (let s = ""; COMMAS.length < 32; s += ",") COMMAS.push(s);

function commas(n: number): string {
  return n < 32 ? COMMAS[n]! : ",".repeat(n);
}

function keyChars(cols: GroupSpec["cols"]): number {
  let n = 0;
  for (const c of cols) n += c.key.length + 3;
  return n;
}

/** An object with an own value that is an array holding an object (a table, written as field lines). */
function holdsObjectArray(o: Record<string, unknown>): boolean {
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (Array.isArray(x)) for (const y of x) if (isPlainObject(y)) return true;
  }
  return false;
}

/** An object with an own key whose value is not undefined (field lines have a line for it). */
function hasKeys(o: Record<string, unknown>): boolean {
  for (const k of Object.keys(o)) if (o[k] !== undefined) return true;
  return false;
}

/** Cells that are all empty: nothing but their commas. */
function onlyCommas(cells: string): boolean {
  for (let i = 0; i < cells.length; i++) if (cells.charCodeAt(i) !== 44) return false;
  return true;
}

function startsJson(s: string): boolean {
  const c = s.charCodeAt(0);
  return c === 123 || c === 91;
}

function trimEnd(s: string): string {
  return s.endsWith("\n") ? s.slice(0, -1) : s;
}

export { CELL, CELL_SPEC };
