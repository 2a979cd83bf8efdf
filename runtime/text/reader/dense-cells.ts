/**
 * The dense layout's rows and cells (docs/TEXT.md): a row's cells under its bound header, field groups, inline
 * arrays, text cells in their spelling (numbers, enums, dates, strings raw or quoted), JSON cells, and the check of
 * a value read without its shape. One line at a time: the driver (./dense.ts) hands it the line and owns
 * everything that spans lines; nothing here looks past the current line.
 */
import { ToonError } from "../../wire/errors.ts";
import { setOwn } from "../../wire/objects.ts";
import { textCheckOf } from "../../codec/engine/text-check.ts";
import { checkDecoded, tcInt64, tcInteger, tcUuid } from "../check.ts";
import { droppedConst, nullAsEmpty, type ShapeInfo } from "../dense/model.ts";
import { readJson, readJsonString } from "../dense/json.ts";
import { NUMBER_RE, expandStamp } from "../dense/syntax.ts";
import { TextNumber } from "../decode.ts";
import { POW10 } from "../../wire/writer.ts";
import { ABSENT, holdsAt, prefixed, type Pos } from "./dense-line.ts";
import { DenseHeaders, leaves, type BArray, type BGroup, type Bound } from "./dense-headers.ts";

const INTEGER_TOKEN = /^-?[0-9]+$/;

/** A JSON cell's check errors get the cell's position (jsonCell), not one located in the text by path. */
const noLocation = (): undefined => undefined;

export class DenseCells extends DenseHeaders {
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
        if (e.length === n && holdsAt(t, at, e)) {
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
