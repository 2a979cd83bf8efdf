/**
 * Text growing inside a string cell of the line a model is still writing (`reader({ partialText: true })`): a TOON
 * or dense line is read when its break comes, but a UI wants a long string as it is typed. The line driver that
 * would read the line says, from its open frames alone, where the line's values go ({@link LinePlan}: the keys of
 * the field or row, and which cells are strings); {@link PartialCells} then follows the unfinished line as it
 * grows, each character once, decoding the open string cell (quoted, with JSON's escapes, which TOON's are a part
 * of; or raw, up to the delimiter). Nothing here decides a value: the line, once complete, is read by its driver
 * as any other, and its event carries the final value.
 */

export type Keys = readonly (string | number)[];

/** Where an unfinished line's values go, as the driver that will read it sees it. */
export interface LinePlan {
  /** Keys from the root to the field the line writes, or to the row or item. */
  keys: Keys;
  /** Where in the line the first value begins. */
  start: number;
  /** A table row's delimiter (a character code); 0: one value, to the end of the line. */
  delim: number;
  /**
   * Per cell, the keys below `keys` of a string cell, null for any other cell (its text is no text to show); or
   * `items`: an inline array's `count` string items, cell k at key k.
   */
  cells: readonly (Keys | null)[] | "items";
  count?: number;
}

/** The driver's answer: a plan, null (nothing on this line is text to show), undefined (more of the line decides). */
export type PlanAnswer = LinePlan | null | undefined;

/** A string cell's text so far: all of it (`text`), and what is new since it was last told (`delta`). */
export interface OpenText {
  keys: Keys;
  text: string;
  delta: string;
}

/** Lines longer than this are not planned while unfinished (a key that never ends is not scanned again and again). */
export const PLAN_MAX = 4096;

// where the scan is inside the current cell
const LEAD = 0; // blanks before the cell's first character
const RAW = 1;
const QUOTED = 2;
const ESCAPE = 3;
const UNICODE = 4;
const CLOSED = 5; // after the closing quote: the cell's string is complete

/**
 * The open string cell of one unfinished line, followed as the line grows. It is given what the line gained since
 * the last call, never the whole line again: a line streamed in small pieces is a string built by appending, and
 * reading all of it each time would copy all of it each time.
 */
export class PartialCells {
  private plan: LinePlan | null | undefined = undefined;
  /** The line followed (its number). */
  private lineNo = -1;
  /** The line so far while no plan is made (at most PLAN_MAX characters). */
  private head = "";
  private cell = 0;
  private mode = LEAD;
  /**
   * The current cell's text: what was told, and what was decoded since (its blanks at the end, in a raw cell, are
   * not told until something follows them: they may end the cell). Kept in two parts so that telling costs the
   * new text only: slicing a string built by appending would copy all of it, each time.
   */
  private shown = "";
  private fresh = "";
  private trail = 0;
  private hex = 0;
  private hexLeft = 0;

  /** The number of the line followed (-1: none). */
  get line(): number {
    return this.lineNo;
  }

  /**
   * `text`: what the unfinished line number `no` gained since the last call (all of it so far, for a line not
   * followed yet). Tells into `out` the string cell open at its end with its new text, and the last text of one
   * that ended, when part of it was told. `plan` is asked where the line's values go, once per line (again while
   * it answers undefined, with the line so far). Every character is scanned once.
   */
  feed(text: string, no: number, plan: (line: string) => PlanAnswer, out: OpenText[]): void {
    if (no !== this.lineNo) this.restart(no);
    if (this.plan === undefined) {
      const head = this.head + text;
      if (head.length > PLAN_MAX) {
        this.plan = null;
        this.head = "";
        return;
      }
      const p = plan(head);
      if (p === undefined) {
        this.head = head;
        return;
      }
      this.plan = p;
      this.head = "";
      if (p === null) return;
      text = head.slice(p.start);
    }
    if (this.plan === null) return;
    this.scan(text, out);
  }

  private scan(t: string, out: OpenText[]): void {
    const delim = this.plan!.delim;
    const n = t.length;
    for (let i = 0; i < n; ) {
      const mode = this.mode;
      if (mode === RAW || mode === QUOTED) {
        // a run of plain characters, appended as one slice
        let j = i;
        if (mode === RAW) {
          for (; j < n; j++) {
            const c = t.charCodeAt(j);
            if (c === delim) break;
            this.trail = c === 32 ? this.trail + 1 : 0;
          }
        } else {
          for (; j < n; j++) {
            const c = t.charCodeAt(j);
            if (c === 34 || c === 92) break;
          }
        }
        if (j > i) this.fresh += t.slice(i, j);
        if (j === n) break;
        if (mode === RAW) {
          this.cellEnd(out);
          this.nextCell();
        } else if (t.charCodeAt(j) === 34) {
          this.cellEnd(out);
          this.mode = CLOSED;
        } else this.mode = ESCAPE;
        i = j + 1;
        continue;
      }
      const c = t.charCodeAt(i);
      switch (mode) {
        case LEAD:
          if (c === 32) break;
          if (c === delim) this.nextCell();
          else if (c === 34) this.mode = QUOTED;
          else {
            this.mode = RAW;
            continue; // (the character is the run's first)
          }
          break;
        case ESCAPE:
          if (c === 117) {
            this.mode = UNICODE;
            this.hex = 0;
            this.hexLeft = 4;
          } else {
            this.fresh += c === 110 ? "\n" : c === 116 ? "\t" : c === 114 ? "\r" : c === 98 ? "\b" : c === 102 ? "\f" : t[i];
            this.mode = QUOTED;
          }
          break;
        case UNICODE: {
          const h = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
          if (h < 0) {
            // no escape: the line will fail when it is read; show nothing more of this cell
            this.mode = CLOSED;
            break;
          }
          this.hex = this.hex * 16 + h;
          if (--this.hexLeft === 0) {
            this.fresh += String.fromCharCode(this.hex);
            this.mode = QUOTED;
          }
          break;
        }
        default: // CLOSED
          if (c === delim) this.nextCell();
      }
      i++;
    }
    if (this.mode === RAW || this.mode === QUOTED || this.mode === ESCAPE || this.mode === UNICODE) this.tell(out);
  }

  /** The open string cell's text, as a snapshot shows it (undefined: none). */
  current(): { keys: Keys; text: string } | undefined {
    const keys = this.cellKeys();
    if (keys === null || this.shown.length === 0) return undefined;
    return { keys, text: this.shown };
  }

  /** Tell the cell's new text (a string cell's), blanks that may end a raw cell aside. */
  private tell(out: OpenText[]): void {
    const n = this.fresh.length - this.trail;
    if (n <= 0) return;
    // a raw `null` is no text (a nullable string's null): held while the cell may still be that
    if (this.mode === RAW && this.shown.length === 0 && n <= 4 && "null".startsWith(this.fresh.slice(0, n))) return;
    const keys = this.cellKeys();
    if (keys === null) return;
    const delta = this.trail === 0 ? this.fresh : this.fresh.slice(0, n);
    this.fresh = this.trail === 0 ? "" : this.fresh.slice(n);
    this.shown += delta;
    out.push({ keys, text: this.shown, delta });
  }

  /** Forget the line (another begins, or the payload's reading starts again). */
  restart(no: number): void {
    this.lineNo = no;
    this.plan = undefined;
    this.head = "";
    this.cell = 0;
    this.mode = LEAD;
    this.shown = this.fresh = "";
    this.trail = 0;
  }

  private cellKeys(): Keys | null {
    const p = this.plan;
    if (p === undefined || p === null) return null;
    if (p.cells === "items") return this.cell < p.count! ? [...p.keys, this.cell] : null;
    const rel = this.cell < p.cells.length ? p.cells[this.cell]! : null;
    return rel === null ? null : rel.length === 0 ? p.keys : [...p.keys, ...rel];
  }

  /** A string cell ended inside the line: its last text, when part of it was told (the rest comes with its row). */
  private cellEnd(out: OpenText[]): void {
    if (this.shown.length > 0) this.tell(out);
  }

  private nextCell(): void {
    this.cell++;
    this.mode = LEAD;
    this.shown = this.fresh = "";
    this.trail = 0;
  }
}

/**
 * A field line's key from `at` (raw, up to `:`, or quoted with JSON's escapes) and where it ends: undefined while
 * the line may still be writing it, null when it is no key.
 */
export function lineKey(line: string, at: number): { key: string; end: number } | null | undefined {
  if (at >= line.length) return undefined;
  if (line.charCodeAt(at) === 34) {
    for (let i = at + 1; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 92) i++;
      else if (c === 34) {
        try {
          return { key: JSON.parse(line.slice(at, i + 1)) as string, end: i + 1 };
        } catch {
          return null;
        }
      }
    }
    return undefined;
  }
  for (let i = at; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 58 || c === 123 || c === 91 || c === 44 || c === 32) return i === at ? null : { key: line.slice(at, i), end: i };
  }
  return undefined;
}

/** The blanks at the start of `line`: their count, or undefined while the line is only blanks. */
export function lineIndent(line: string): number | undefined {
  let n = 0;
  while (n < line.length && line.charCodeAt(n) === 32) n++;
  return n === line.length ? undefined : n;
}

/**
 * An inline array after a field's key (`end`: at its `[`): `[N]: a,b` (TOON: `[N|]`, `[N\t]` for another
 * delimiter), its count, delimiter and where its first value begins; undefined while the line may still be writing
 * it, null for anything else (a table's or list's header, whose rows or items are lines of their own).
 */
export function inlineArray(line: string, end: number): { count: number; delim: number; start: number } | null | undefined {
  let i = end + 1;
  let count = 0;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 48 || c > 57) break;
    count = count * 10 + (c - 48);
  }
  if (i >= line.length) return undefined;
  if (i === end + 1) return null;
  let delim = 44;
  const d = line.charCodeAt(i);
  if (d === 124 || d === 9) {
    delim = d;
    i++;
  }
  if (i >= line.length) return undefined;
  if (line.charCodeAt(i) !== 93) return null;
  const start = valueStart(line, i + 1);
  // `[N]:` alone: a list's header (or the start of `[N]: a,b`)
  if (start === undefined || start === null) return start;
  return { count, delim, start };
}

/**
 * Where a `key: value` line's value begins (`end`: just past the key): past `:` and one space if there is one (dense
 * writes `key:5`); undefined while the
 * line may still be writing it, null when the key is followed by anything else (a header, a block).
 */
export function valueStart(line: string, end: number): number | null | undefined {
  if (end >= line.length) return undefined;
  if (line.charCodeAt(end) !== 58) return null;
  if (end + 1 >= line.length) return undefined;
  if (line.charCodeAt(end + 1) === 32) return end + 2;
  return end + 1;
}

/**
 * The plan of a field line whose key ends at `end` (the field's keys: `field`): an inline array's items
 * (`key[N]: a,b`), or the value after `: `.
 */
export function fieldValuePlan(line: string, end: number, field: Keys, isText: (keys: Keys) => boolean): PlanAnswer {
  if (line.charCodeAt(end) === 91) {
    const a = inlineArray(line, end);
    if (a === undefined || a === null) return a;
    return isText([...field, 0]) ? { keys: field, start: a.start, delim: a.delim, cells: "items", count: a.count } : null;
  }
  const start = valueStart(line, end);
  if (start === undefined || start === null) return start;
  return isText(field) ? { keys: field, start, delim: 0, cells: [[]] } : null;
}
