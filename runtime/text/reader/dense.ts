/**
 * The dense reader (docs/TEXT.md): dense text back to a value of the codec's schema, one line at a time. Text
 * arrives in pieces split anywhere (`push`); each complete line is bound to the schema by the per-line tokenizer
 * (./dense-cells.ts), and what spans lines (an object's field lines, a table's rows, a list's items, a block after
 * `key:`) is a frame on an explicit stack, so the reader never recurses across lines and never looks past the line
 * it is reading. "Need more input" is a state: `end()` says the text is over, and only then is what is still open
 * an error (a table short of rows, a missing field), raised with `atEnd` set.
 *
 * A line is `text[ls, le)` of a string that may go on past `le` (its blanks, its line break, the next lines):
 * nothing reads there.
 *
 * An error at the very end of a line is thrown with the next character, or by `end()` with `atEnd` when none
 * comes: only then is it known whether the line ended the input (a reply cut off there).
 */
import { ToonError, pointerSegment } from "../../wire/errors.ts";
import { setOwn } from "../../wire/objects.ts";
import type { Shape } from "../../codec/descriptor.ts";
import type { DenseModel, ShapeInfo } from "../dense/model.ts";
import { openRootLines } from "../dense/syntax.ts";
import { LineLexer, type LineSink } from "./lines.ts";
import { SurrogateWatch } from "./well-formed.ts";
import { ABSENT, prefixed, type Pos } from "./dense-line.ts";
import type { BGroup } from "./dense-headers.ts";
import { DenseCells, withDisc } from "./dense-cells.ts";
import { AGAIN, CLOSE_NEXT, COLON, CONSUMED, FIELDS, KEYED, LIST, LITERALS, PENDING, POP, READ_LINE, ROOT_LITERAL, TABLE, VARIANT, VIA, frame, type DenseReaderHooks, type Frame } from "./dense-frames.ts";

export class DenseTextReader extends DenseCells implements LineSink {
  // (read by ./dense-plan.ts: where the unfinished line goes)
  lexer = new LineLexer(this);
  readonly stack: Frame[] = [];
  /** The root value once read; `started`: the first line was read. */
  private value: unknown = undefined;
  started = false;
  /** An error at the end of a line, thrown with the next character (or, by `end()`, as `atEnd`). */
  held: ToonError | undefined;
  failed: unknown;
  /** The input is over: what fails now failed at its end. */
  private ending = false;
  /**
   * The last line seen (blank ones too): its number, length and where reading stopped on it (the end of a field
   * line, the colon of a `key:` that waits for its block): where errors raised at `end()` are.
   */
  private lastNo = 0;
  private lastLen = 0;
  private lastPos = 0;
  /** Where the first lone surrogate is: its line fails before it is read. */
  private readonly unicode = new SurrogateWatch();

  /** VIA frames open: what is read inside them is no value of the schema's until checked. */
  vias = 0;

  constructor(
    model: DenseModel,
    private readonly hooks?: DenseReaderHooks,
  ) {
    super(model);
  }

  /**
   * Ready for another text, as new (`fromText` reuses one reader per codec: making one costs more than a small
   * text's reading). What the last text left (its string, its value) is let go.
   */
  reset(): void {
    this.lexer = new LineLexer(this);
    this.stack.length = 0;
    this.value = undefined;
    this.started = false;
    this.held = undefined;
    this.failed = undefined;
    this.ending = false;
    this.lastNo = this.lastLen = this.lastPos = 0;
    this.unicode.reset();
    this.vias = 0;
    this.text = "";
    this.pos = this.ls = this.le = this.lineNo = 0;
    this.lineIndent = -1;
    this.failedAtLineEnd = false;
    this.inItem = false;
    this.fraction = false;
    this.depth = 0;
  }

  /** Read every line `chunk` completes. Throws the first error in them (and again on any later call). */
  push(chunk: string): void {
    if (this.failed !== undefined) throw this.failed;
    if (chunk.length === 0) return;
    if (this.held !== undefined) this.die(this.held); // more text: the line that failed did not end the input
    this.unicode.piece(chunk, this.lexer);
    this.lexer.push(chunk);
    if (this.held !== undefined && this.lexer.pending.length > 0) this.die(this.held);
  }

  /** The text is over: the value, or the error about what it lacks (`atEnd`). */
  end(): unknown {
    if (this.failed !== undefined) throw this.failed;
    if (this.held !== undefined) this.die(atEnd(this.held));
    this.ending = true;
    this.unicode.end(this.lexer);
    this.lexer.end();
    try {
      this.atInputEnd();
    } catch (e) {
      this.die(atEnd(this.withPath(e)));
    }
    return this.value;
  }

  // ------------------------------------------------------------------------------------------ lines

  line(text: string, start: number, end: number, no: number): void {
    if (this.held !== undefined) this.die(this.held); // a line after the one that failed: not the input's end
    if (no === this.unicode.line) this.die(this.unicode.error());
    this.lastNo = no;
    if (end === start) {
      this.lastLen = this.lastPos = 0;
      return; // a blank line is no part of any value (its number still counts)
    }
    // blanks at the end of a line are not part of it, as TOON decoders trim them (the writer quotes every value
    // that ends in white space); a line of blanks only stays whole: its indentation may be a row of one empty cell
    let e = end;
    for (let c = text.charCodeAt(e - 1); c === 32 || c === 9; c = text.charCodeAt(e - 1)) e--;
    if (e === start) e = end;
    this.text = text;
    this.ls = start;
    this.le = e;
    this.pos = start;
    this.lineNo = no;
    this.lineIndent = -1;
    this.lastLen = e - start;
    this.failedAtLineEnd = false;
    try {
      this.dispatch();
      this.lastPos = this.pos - start;
    } catch (err) {
      const x = this.withPath(err);
      if (x instanceof ToonError && this.failedAtLineEnd) {
        if (this.ending) this.die(atEnd(x)); // the last line, with no line break after it
        this.held = x; // at the end of the line: whether the input ends here, the next character tells
        return;
      }
      this.die(x);
    }
  }

  private die(e: unknown): never {
    this.failed = e;
    throw e;
  }

  /** The error with the path of the values being read prepended (each open frame's child, innermost first). */
  private withPath(e: unknown): unknown {
    if (!(e instanceof ToonError)) return e;
    for (let k = this.stack.length - 1; k >= 0; k--) {
      const key = this.stack[k]!.key;
      if (key !== undefined) e.prefixPath(pointerSegment(key));
    }
    return e;
  }

  private dispatch(): void {
    for (;;) {
      const f = this.stack[this.stack.length - 1];
      let r: number;
      if (f === undefined) r = this.rootLine();
      else {
        switch (f.t) {
          case FIELDS:
            r = this.fieldsLine(f);
            break;
          case TABLE:
            r = this.tableLine(f);
            break;
          case LIST:
            r = this.listLine(f);
            break;
          case KEYED:
            r = this.keyedLine(f);
            break;
          case VARIANT:
            r = this.variantLine(f);
            break;
          case COLON:
            return this.invalid("expected a value after the colon");
          case ROOT_LITERAL:
            this.literalRoot(f);
            r = AGAIN;
            break;
          default:
            throw new Error("internal: a frame that reads no lines");
        }
      }
      if (r === CONSUMED) return;
      if (r === POP) this.close();
    }
  }

  /** The input is over: close every open frame, innermost first (each raises what it lacks). */
  private atInputEnd(): void {
    // where every error from here on is: the end of the text
    this.text = "";
    this.ls = 0;
    this.lineIndent = -1;
    this.le = this.lastLen;
    this.pos = this.lastPos;
    this.lineNo = Math.max(1, this.lastNo);
    if (!this.started) {
      // no line at all: the root of the empty text (an object of no required fields, or an error)
      this.started = true;
      const v = this.startRoot(true);
      if (v !== PENDING && v !== READ_LINE) this.deliver(v);
    }
    for (let f = this.stack[this.stack.length - 1]; f !== undefined; f = this.stack[this.stack.length - 1]) {
      switch (f.t) {
        case TABLE:
          if (f.i < f.n) this.failCount(`the table declares ${f.n} rows, found ${f.i}`, this.le, f.at!, f.n, f.i, false, "rows", false);
          break;
        case LIST:
          if (f.i < f.n) this.failCount(`the list declares ${f.n} items, found ${f.i}`, this.le, f.at!, f.n, f.i, false, "items", false);
          break;
        case KEYED:
          if (f.i < f.n) this.failCount(`the keyed table declares ${f.n} entries, found ${f.i}`, this.le, f.at!, f.n, f.i, false, "entries", false);
          break;
        case VARIANT:
          this.fail(`expected ${f.info.disc!.property} (which kind of object this is)`);
          break;
        case COLON:
          this.invalid("expected a value after the colon");
          break;
        case ROOT_LITERAL:
          // the literal alone is the value for an open root (`any`); a map's root is an object, never a literal
          if (f.info.shape.kind === "object") this.invalid(`expected an object, got ${LITERALS[f.n]}`);
          this.stack.pop();
          this.deliver(f.n === 0 ? null : f.n === 1);
          continue;
        default:
          break;
      }
      this.close();
    }
  }

  // ------------------------------------------------------------------------------------------ frames

  private open(f: Frame): Frame {
    this.stack.push(f);
    return f;
  }

  /** Pop the top frame and hand its value to the frame below (or make it the root's). */
  private close(): void {
    const f = this.stack[this.stack.length - 1]!;
    let v: unknown;
    if (f.t === FIELDS) {
      const o = this.complete(f.info, f.o!, 0);
      v = f.skip !== undefined && f.disc !== undefined ? withDisc(o, f.skip, f.disc) : o;
    } else if (f.t === TABLE || f.t === LIST) v = f.out;
    else if (f.t === KEYED) v = this.complete(f.map!, f.o!, 0);
    else throw new Error("internal: closing a frame that holds no value");
    this.depth = f.d0;
    this.stack.pop();
    this.deliver(v);
  }

  /** `v` is complete at `key` of the value frame `f` (the top one) reads: stored there, and told to the hooks. */
  private store(f: Frame, key: string | number, v: unknown): void {
    if (f.t === FIELDS) setOwn(f.o!, key as string, v);
    else if (f.t === KEYED) {
      setOwn(f.o!, key as string, v);
      f.i++;
    } else {
      f.out!.push(v);
      f.i++;
    }
    f.key = undefined;
    // (not inside a value read as `any`: what it holds is the union's only once it is checked, as a whole)
    if (this.hooks !== undefined && this.vias === 0) this.hooks.child(this.openPath(), key, v);
  }

  /** The keys from the root to the value the top frame reads. */
  private openPath(): (string | number)[] {
    return this.keysTo(this.stack.length - 1);
  }

  /** The keys from the root to the value frame `k` reads (./dense-plan.ts asks for a frame below the top). */
  keysTo(k: number): (string | number)[] {
    const path: (string | number)[] = [];
    for (let j = 0; j < k; j++) {
      const key = this.stack[j]!.key;
      if (key !== undefined) path.push(key);
    }
    return path;
  }

  /** A value complete for the frame on top (the child it was waiting for), or the root's. */
  private deliver(v: unknown): void {
    for (;;) {
      const p = this.stack[this.stack.length - 1];
      if (p === undefined) {
        this.value = v;
        return;
      }
      if (p.t === FIELDS || p.t === LIST) return this.store(p, p.key!, v);
      if (p.t !== VIA) throw new Error("internal: a frame that takes no child");
      this.stack.pop();
      this.vias--;
      v = this.checkAs(p.info, v, 0, p.at!);
    }
  }

  // ------------------------------------------------------------------------------------------ the root

  private rootLine(): number {
    // the value is complete: anything more is out of place
    if (this.started) this.fail("unexpected line after the value (indentation?)", this.ls);
    this.started = true;
    const v = this.startRoot(true);
    if (v === READ_LINE) return AGAIN;
    if (v !== PENDING) this.deliver(v);
    return CONSUMED;
  }

  /**
   * The first line (or the empty text, at the end): how the root is written decides what reads it. `literal`: a
   * first line of `null` (for a nullable root), `true` or `false` alone (for an open one) waits to see whether it is
   * the whole text.
   */
  private startRoot(literal: boolean): unknown {
    let info = this.model.root;
    if (info.nonNull !== undefined) {
      if (literal && this.literalLine() === 0) return this.waitLiteral(info, 0);
      info = info.nonNull;
    }
    if (info.viaAny === undefined) return this.root(info, literal);
    // a union laid out as `any` (model.ts asAny), or an array of them: read as that, then checked against it
    const via = this.open(frame(VIA, info, 0, this.depth));
    via.at = { line: this.lineNo, column: 1 };
    this.vias++;
    const v = this.root(info.viaAny, literal);
    if (v === PENDING || v === READ_LINE) return v;
    this.stack.pop();
    this.vias--;
    return this.checkAs(info, v, 0, via.at);
  }

  private waitLiteral(info: ShapeInfo, literal: number): symbol {
    const f = this.open(frame(ROOT_LITERAL, info, 0, this.depth));
    f.n = literal;
    f.i = this.lineNo;
    return PENDING;
  }

  /** A root literal line that more lines follow: it was the first of the value's lines; read it as such now. */
  private literalRoot(f: Frame): void {
    const { text, ls, le, pos, lineNo, lineIndent } = this;
    const lit = LITERALS[f.n]!;
    this.stack.length = 0; // (and the VIA below it, which the reading starts again)
    this.depth = 0;
    this.vias = 0;
    this.text = lit;
    this.ls = this.pos = 0;
    this.lineIndent = -1;
    this.le = lit.length;
    this.lineNo = f.i;
    const v = this.startRoot(false);
    if (v === READ_LINE) this.dispatch();
    else if (v !== PENDING) this.deliver(v);
    this.text = text;
    this.ls = ls;
    this.le = le;
    this.pos = pos;
    this.lineNo = lineNo;
    this.lineIndent = lineIndent;
  }

  /** The root value as `info` from the current (first) line; PENDING or READ_LINE when its lines follow. */
  private root(info: ShapeInfo, literal: boolean): unknown {
    const t = this.text;
    const c = t.charCodeAt(this.ls);
    // an object root written as compact JSON (the writer's choice when that is fewer tokens): no field line
    // begins with "{" (such a key is quoted)
    if ((info.spelling === "object" || info.disc !== undefined) && c === 123) {
      this.pos = this.ls;
      const v = this.jsonCell(info);
      if (this.pos !== this.le) this.fail("unexpected text after the value");
      return v;
    }
    if (info.spelling === "object") {
      this.fieldsFrame(info, 0, -1);
      return READ_LINE;
    }
    if (info.disc !== undefined) {
      this.open(frame(VARIANT, info, 0, this.depth));
      return READ_LINE;
    }
    if (info.fieldMap === true && c === 91) {
      this.pos = this.ls;
      return this.fieldValue(info, 0); // a map's keyed table, `[N:]{...}:` (a JSON root begins with "{")
    }
    if (info.shape.kind === "array") {
      // a root array is a field's value part after an empty key: `[N]...`, or `: [...]` (a JSON cell, for what the
      // writer cannot lay out as a table or list: arrays of arrays), or a JSON array (`[]`, `[{"a":1}]`: the
      // writer's choice when fewer tokens), which no `[N]` header looks like: `[`, digits, `]`, then `:` or `{`
      if (c !== 91 && c !== 58) this.fail('expected a root array header [N] (or ": " and a JSON array)');
      this.pos = this.ls;
      if (c === 91 && !this.arrayHeaderAt()) {
        const v = this.jsonCell(info);
        if (this.pos !== this.le) this.fail("unexpected text after the value");
        return v;
      }
      return this.fieldValue(info, 0);
    }
    if (info.shape.kind === "any" && c === 91 && this.arrayHeaderAt()) {
      this.pos = this.ls;
      return this.fieldValue(this.model.anyArray, 0); // a root `any` holding a table `[N]{...}:` (or a list)
    }
    if ((info.open !== undefined || info.fieldMap === true) && openRootLines(t.slice(this.ls, this.ls + 1))) {
      // (`null`, `true` or `false` alone is that scalar when no line follows: the writer writes such a root so)
      const lit = literal ? this.literalLine() : -1;
      if (lit >= 0) return this.waitLiteral(info, lit);
      this.fieldsFrame(this.model.openObject(info), 0, -1); // an open root's object as its keys' lines
      return READ_LINE;
    }
    this.pos = this.ls;
    const v = this.scalarCell(info, false);
    // an empty document is no scalar (the writer quotes the empty string)
    if (v === ABSENT) this.invalid(this.expected(info) + ", got an empty text");
    if (this.pos !== this.le) this.fail("unexpected text after the value");
    return v;
  }

  /** 0 `null`, 1 `true`, 2 `false` when the current line is that alone; -1 otherwise. */
  private literalLine(): number {
    const n = this.le - this.ls;
    for (let k = 0; k < 3; k++) if (n === LITERALS[k]!.length && this.text.startsWith(LITERALS[k]!, this.ls)) return k;
    return -1;
  }

  /** Whether the line begins with a root array header: `[`, a count, `]`, then `:` or `{` (else it is JSON). */
  private arrayHeaderAt(): boolean {
    const t = this.text;
    let i = this.ls + 1;
    while (i < this.le && t.charCodeAt(i) >= 48 && t.charCodeAt(i) <= 57) i++;
    if (i === this.ls + 1 || t.charCodeAt(i) !== 93) return false;
    const c = t.charCodeAt(i + 1);
    return c === 58 || c === 123;
  }

  // ------------------------------------------------------------------------------------------ field lines

  private fieldsFrame(info: ShapeInfo, ind: number, first: number): Frame {
    const d0 = this.depth;
    this.deeper();
    const f = this.open(frame(FIELDS, info, ind, d0));
    f.o = {};
    f.first = first;
    return f;
  }

  /** One field line of an object (or the line that ends it). */
  private fieldsLine(f: Frame): number {
    const t = this.text;
    if (f.first >= 0) {
      this.pos = f.first;
      f.first = -1;
    } else if (f.first === CLOSE_NEXT) {
      return POP;
    } else {
      const n = this.indent();
      if (n < f.ind) return POP;
      if (n > f.ind) this.fail(`unexpected indentation (${n} spaces, expected ${f.ind})`, this.ls + n);
      this.pos = this.ls + n;
      if (t.charCodeAt(this.pos) === 45 && (this.pos + 1 === this.le || t.charCodeAt(this.pos + 1) === 32)) return POP; // the next list item
    }
    const info = f.info;
    const s = info.shape as Extract<Shape, { kind: "object" }>;
    const at = this.pos;
    // the property that came after the last one read in the object before (in the first object: the schema's next)
    // is matched in place first: no scan for the key's end, no lookup by name
    const keys = info.keys!;
    const n = keys.length;
    let follows = info.follows;
    if (follows === undefined && n > 0) {
      follows = info.follows = new Int32Array(n + 1);
      for (let k = 0; k < n; k++) follows[k] = k + 1;
      follows[n] = 0;
    }
    const last = f.next < 0 ? n : f.next;
    let key: string;
    let j: number | undefined = n > 0 ? follows![last]! : n;
    if (j < n && this.bareNameAt(info.props![j]!.name, keys[j]!)) key = info.props![j]!.name;
    else {
      key = this.key();
      j = info.index!.get(key);
      if (j !== undefined) follows![last] = j;
    }
    if (key === f.skip) this.fail(`${key} twice`, at);
    let pinfo: ShapeInfo;
    if (j !== undefined) {
      pinfo = info.propInfos![j]!;
      f.next = j;
    }
    else if (s.additional !== false) pinfo = this.model.info(s.additional);
    else this.invalid(`unknown field ${JSON.stringify(key)}`, at);
    if (Object.prototype.hasOwnProperty.call(f.o, key)) this.fail(`field ${JSON.stringify(key)} twice`, at);
    f.key = key;
    const v = this.fieldValue(pinfo, f.ind);
    if (v !== PENDING) this.store(f, key, v);
    return CONSUMED;
  }

  /** A discriminated union's object at the start of its lines: the discriminator line. */
  private variantLine(f: Frame): number {
    const n = this.indent();
    if (n !== f.ind) this.fail(`expected ${f.info.disc!.property} (which kind of object this is)`);
    this.stack.pop();
    this.pos = this.ls + n;
    this.variantHead(f.info, f.ind);
    return CONSUMED;
  }

  /** The discriminator line at `pos` (`type: person`): the branch's field lines follow, from the next line. */
  private variantHead(info: ShapeInfo, ind: number): void {
    const d = info.disc!;
    const at = this.pos;
    const key = this.key();
    if (key !== d.property || this.text.charCodeAt(this.pos) !== 58 || this.pos + 1 >= this.le || this.text.charCodeAt(this.pos + 1) !== 32) this.invalid(`expected "${d.property}: " first (which kind of object this is)`, at);
    this.pos += 2;
    const b = this.discValue(d);
    if (this.pos !== this.le) this.fail("unexpected text after the value");
    const f = this.fieldsFrame(d.branches[b]!, ind, -1);
    f.skip = d.property;
    // the discriminator first, as a JSON writer would have it: in the object from the start, unless the branch
    // requires it as a field of its own (then `complete` reports it missing, before `close` rebuilds it first)
    if (this.discFirst(d, b)) setOwn(f.o!, d.property, d.values[b]);
    else f.disc = d.values[b];
  }

  /** What follows a field's key: `: value`, `:` and a block, `{hdr}: cells`, `[N]...`; PENDING when lines follow. */
  private fieldValue(info: ShapeInfo, ind: number): unknown {
    // a union laid out as `any` (model.ts asAny), or an array of them: read as that, then checked against it
    if (info.viaAny !== undefined) {
      const at = this.pos;
      const via = this.open(frame(VIA, info, ind, this.depth));
      via.at = this.here(at);
      this.vias++;
      const v = this.fieldValue(info.viaAny, ind);
      if (v === PENDING) return PENDING;
      this.stack.pop();
      this.vias--;
      return this.checkAs(info, v, 0, at);
    }
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 58) {
      if (this.pos + 1 === this.le) {
        // a block: nested field lines (or an empty object)
        let inner = info;
        if (inner.nonNull !== undefined) inner = inner.nonNull;
        if (inner.spelling === "object") this.fieldsFrame(inner, ind + 2, -1);
        else if (inner.disc !== undefined) this.open(frame(VARIANT, inner, ind + 2, this.depth));
        else if (inner.open !== undefined || inner.fieldMap === true) this.fieldsFrame(this.model.openObject(inner), ind + 2, -1); // its keys' lines
        else this.open(frame(COLON, inner, ind + 2, this.depth));
        return PENDING;
      }
      // ":" and the value, a space between them optional (the writer leaves it out before numbers)
      this.pos += t.charCodeAt(this.pos + 1) === 32 ? 2 : 1;
      // anything (or anything or null, as the writer spells it: null is a cell of anything too): as an open object's
      // cell (a scalar, raw or quoted, or JSON from `{` or `[`)
      const anyInfo = info.shape.kind === "any" ? info : info.spelling !== "text" && info.nonNull?.shape.kind === "any" ? info.nonNull : undefined;
      const v = info.spelling === "text" ? this.textCell(info, false) : anyInfo !== undefined ? this.textCell(anyInfo.open!, false) : this.jsonCell(info);
      if (v === ABSENT) this.invalid("expected a value after the colon");
      if (this.pos !== this.le) this.fail("unexpected text after the value");
      return v;
    }
    let inner = info;
    if (inner.nonNull !== undefined) inner = inner.nonNull;
    if (c === 123) {
      const b = this.boundHeader(inner, "");
      // (at the character that is not ": ": the end of the text, where a reply was cut off after the colon)
      if (t.charCodeAt(this.pos) !== 58) this.fail('expected ": " after a field group header');
      if (this.pos + 1 >= this.le || t.charCodeAt(this.pos + 1) !== 32) this.fail('expected ": " after a field group header', this.pos + 1);
      this.pos += 2;
      this.deeper();
      const v = this.group(b as BGroup, true);
      this.depth--;
      if (this.pos !== this.le) this.fail("unexpected text after the row (more cells than the header names?)");
      return v;
    }
    if (c === 91) {
      if (inner.fieldMap === true) return this.keyedAfterKey(inner, ind);
      // anything may be an array: read as an array of anything (a table of open objects, a list of JSON)
      if (inner.shape.kind === "any") inner = this.model.anyArray;
      if (inner.shape.kind !== "array") this.invalid("not an array, but written as one");
      return this.arrayAfterKey(inner, ind);
    }
    return this.fail('expected ":" after the field name');
  }

  // ------------------------------------------------------------------------------------------ arrays

  /** `[N]: a,b` (the array) / `[N]{hdr}:` + rows / `[N]:` + list items (PENDING); at "[". */
  private arrayAfterKey(info: ShapeInfo, ind: number): unknown {
    const d0 = this.depth;
    this.deeper();
    const t = this.text;
    const header = this.here();
    this.pos++;
    const n = this.count();
    if (t.charCodeAt(this.pos) !== 93) this.fail('expected "]" after the array length');
    this.pos++;
    const item = this.model.info((info.shape as Extract<Shape, { kind: "array" }>).items);
    if (t.charCodeAt(this.pos) === 123) {
      const b = this.boundHeader(item, "/[]");
      if (this.pos + 1 !== this.le || t.charCodeAt(this.pos) !== 58) this.fail('expected ":" and the end of the line after a table header');
      const f = this.open(frame(TABLE, item, ind, d0));
      f.b = b;
      f.n = n;
      f.out = [];
      f.at = header;
      this.deeper(); // the rows' objects
      return PENDING;
    }
    if (t.charCodeAt(this.pos) !== 58) this.fail('expected ":" after the array length');
    this.pos++;
    if (this.pos === this.le) {
      const f = this.open(frame(LIST, item, ind, d0));
      f.n = n;
      f.out = [];
      f.at = header;
      return PENDING;
    }
    if (t.charCodeAt(this.pos) === 32) this.pos++;
    // where anything may stand, or a union laid out as anything, items may be inline too (`out[2]: a,1`), each an
    // open object's cell (the writer writes such arrays as JSON, the same tokens; a model may write either)
    const cell = item.shape.kind === "any" ? item.open! : item;
    if (cell.spelling !== "text" && cell.asAny !== true) this.invalid("these items are not scalars, but written inline");
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) {
      if (i > 0) {
        if (this.blanks() !== 44) this.failCount(`the array declares ${n} items, found ${i}`, this.pos, header, n, i, false, "items", true);
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
    if (this.pos !== this.le) this.failCount(`the array declares ${n} items, found more`, this.pos, header, n, n, true, "items", true);
    this.depth = d0;
    return out;
  }

  /**
   * A map whose values are objects as a keyed table, `[N:]{hdr}:` (at "["), then an entry per line one level in:
   * the key, `: `, the value's cells under the header (TOON v4's keyed table). PENDING: the entries follow.
   */
  private keyedAfterKey(map: ShapeInfo, ind: number): unknown {
    const d0 = this.depth;
    this.deeper();
    const t = this.text;
    const header = this.here();
    this.pos++;
    const n = this.count();
    if (t.charCodeAt(this.pos) !== 58 || t.charCodeAt(this.pos + 1) !== 93) this.fail('expected ":]" after the count of a keyed table (a map is written [N:]{...}:)');
    this.pos += 2;
    let value = this.model.info((map.shape as Extract<Shape, { kind: "object" }>).additional as Shape);
    if (value.nonNull !== undefined) value = value.nonNull;
    if (t.charCodeAt(this.pos) !== 123) this.fail('expected "{" and the fields of the keyed table\'s values');
    if (value.spelling !== "object" && value.disc === undefined) this.invalid("the map's values are not objects, but written as a keyed table");
    const b = this.boundHeader(value, "/*");
    if (this.pos + 1 !== this.le || t.charCodeAt(this.pos) !== 58) this.fail('expected ":" and the end of the line after a keyed table header');
    const f = this.open(frame(KEYED, value, ind, d0));
    f.b = b;
    f.n = n;
    f.o = {};
    f.at = header;
    f.map = this.model.openObject(map);
    this.deeper(); // the entries' objects
    return PENDING;
  }

  /** One entry of a keyed table (or the line after its last). */
  private keyedLine(f: Frame): number {
    const ind = f.ind;
    if (f.i === f.n) {
      if (this.indent() > ind) this.failCount(`the keyed table declares ${f.n} entries, found more`, this.ls, f.at!, f.n, f.n, true, "entries", false);
      return POP;
    }
    const k = this.indent();
    if (k < ind + 2) this.failCount(`the keyed table declares ${f.n} entries, found ${f.i}`, this.ls, f.at!, f.n, f.i, false, "entries", false);
    if (k !== ind + 2) this.fail(`unexpected indentation (${k} spaces, expected ${ind + 2})`, this.ls + k);
    const t = this.text;
    this.pos = this.ls + k;
    const at = this.pos;
    const key = this.key();
    if (t.charCodeAt(this.pos) !== 58) this.fail('expected ": " after the entry\'s key');
    this.pos += t.charCodeAt(this.pos + 1) === 32 ? 2 : 1;
    if (Object.prototype.hasOwnProperty.call(f.o, key)) this.fail(`key ${JSON.stringify(key)} twice`, at);
    f.key = key;
    const v = this.group(f.b!, true);
    if (this.pos !== this.le) this.fail(this.text.charCodeAt(this.pos) === 44 ? "more cells than the header names" : "unexpected text after the entry");
    this.store(f, key, v);
    return CONSUMED;
  }

  /** One row of a table (or the line after its last). */
  private tableLine(f: Frame): number {
    const ind = f.ind;
    const k = this.indent();
    if (f.i === f.n) {
      // after the last row: a deeper line is one row too many (after flush rows, any line: they end the document)
      if (k > ind || f.flush) this.failCount(`the table declares ${f.n} rows, found more`, this.ls, f.at!, f.n, f.n, true, "rows", false);
      return POP;
    }
    // rows one level in, or flush left: a table at depth 0 whose first row is, and that ends the document
    // (docs/TEXT.md §2)
    if (f.i === 0 && ind === 0 && k === 0) f.flush = true;
    const rows = f.flush ? ind : ind + 2;
    if (k < rows) this.failCount(`the table declares ${f.n} rows, found ${f.i}`, this.ls, f.at!, f.n, f.i, false, "rows", false);
    if (k !== rows && this.le - this.ls !== rows) this.fail(`unexpected indentation (${k} spaces, expected ${rows})`, this.ls + k);
    this.pos = Math.min(this.ls + rows, this.le);
    f.key = f.i;
    const v = this.group(f.b!, true);
    if (this.pos !== this.le) this.fail(this.text.charCodeAt(this.pos) === 44 ? "more cells than the header names" : "unexpected text after the row");
    this.store(f, f.i, v);
    return CONSUMED;
  }

  /** One item of a list (its first line), or the line after its last. */
  private listLine(f: Frame): number {
    const ind = f.ind;
    if (f.i === f.n) {
      if (this.indent() > ind) this.failCount(`the list declares ${f.n} items, found more`, this.ls, f.at!, f.n, f.n, true, "items", false);
      return POP;
    }
    if (this.indent() !== ind + 2) this.failCount(`the list declares ${f.n} items, found ${f.i}`, this.ls, f.at!, f.n, f.i, false, "items", false);
    const dash = this.ls + ind + 2;
    const t = this.text;
    if (t.charCodeAt(dash) !== 45) this.fail('expected "- " (a list item)', dash);
    f.key = f.i;
    let info = f.info;
    let v: unknown = ABSENT;
    if (dash + 1 === this.le) {
      // "-": an empty object
      if (info.nonNull !== undefined) info = info.nonNull;
      if (info.spelling !== "object") this.invalid("an empty list item, but the item is not an object", dash);
      // an object of no fields, checked (required fields missing) where the next line starts
      this.fieldsFrame(info, ind + 4, CLOSE_NEXT);
      return CONSUMED;
    } else {
      if (t.charCodeAt(dash + 1) !== 32) this.fail('expected "- " (a list item)', dash);
      const first = dash + 2;
      if (info.nonNull !== undefined) {
        if (t.startsWith("null", first) && first + 4 === this.le) v = null;
        else info = info.nonNull;
      }
      if (v === ABSENT) {
        // field lines (the first on this line), or JSON (`{` cannot start a raw key)
        if (t.charCodeAt(first) !== 123) {
          if (info.spelling === "object") {
            this.fieldsFrame(info, ind + 4, first);
            return AGAIN;
          }
          if (info.disc !== undefined) {
            this.pos = first;
            this.variantHead(info, ind + 4);
            return CONSUMED;
          }
        }
        this.pos = first;
        v = this.scalarCell(info, false);
        if (v === ABSENT) this.invalid("an empty list item");
        if (this.pos !== this.le) this.fail("unexpected text after the value");
      }
    }
    this.store(f, f.i, v);
    return CONSUMED;
  }
}

/** `e` as raised where the input ended. */
function atEnd(e: unknown): unknown {
  if (e instanceof ToonError && e.atEnd !== true) (e as { atEnd?: boolean }).atEnd = true;
  return e;
}
