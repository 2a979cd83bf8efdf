/**
 * One payload's text to a value of the codec's schema, in pieces: the layout decided by what the text is (JSON,
 * or TOON text of either layout, dense first), the value checked against the schema, and every line-level value
 * (a field, a table row, a list item) told as it completes, checked, with its pointer and stream path. It is what
 * both `fromModelOutput` (each candidate read whole) and a codec's streaming `reader()` (./text-reader.ts) run on.
 *
 * Dense first: text the dense writer wrote is often valid TOON v4 as well and must read back as written (an
 * empty cell is an absent field), so dense reads first, and the payload's text is kept: when the dense reading
 * fails, TOON v4 reads the text again from the start (the values it tells again are not told twice), and when both
 * fail, the error of the layout the text looks like is the one thrown (as `fromText` has always chosen). No line
 * decides for good: TOON v4 reads some text that looks dense (`a{b}: c` is a key and a value to it), and text
 * valid in both reads as dense.
 *
 * `repair`: JSON slips are read by the JSON reader itself; a table's or list's miscounted `[N]` is set to what is
 * under it and the text read again, once the payload is known to be complete (a closed fence, more of the reply
 * after it): a short count at the very end of a reply is a cut, never repaired.
 */
import { ToonError, pointerSegment, type ToonErrorOptions } from "../../wire/errors.ts";
import type { CodecDescriptor } from "../../codec/descriptor.ts";
import { assertSchema, type SchemaCheck } from "../../features/validate.ts";
import { checkDecoded, type TextCheckFn } from "../check.ts";
import { applyFill, applyFillAt, fillChild, type FillShape, type FillSpec } from "../model-fill.ts";
import type { JsonRepair } from "../json-repair.ts";
import { further } from "../layout-error.ts";
import { denseModel } from "../dense/index.ts";
import { DenseTextReader } from "./dense.ts";
import { ToonTextReader } from "./toon.ts";
import { JsonReader } from "./json.ts";
import { lineColumnAt, type JsonContainer, type JsonHandler } from "./json-handler.ts";
import { JsonValueBuilder, locateJson } from "./json-value.ts";
import { PathWalker, type PathNode } from "./paths.ts";
import { PartialCells, type Keys, type OpenText } from "./partial-text.ts";
import { densePlan } from "./dense-plan.ts";
import { toonPlan } from "./toon-plan.ts";
import { jsonPayload, type PayloadHints } from "./payload-rules.ts";
import { MAX_COUNT_REPAIRS, repairCount } from "../count-repair.ts";

function isBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** What a generated codec gives its readers: its descriptor, its TOON text check, its root, its fill spec. */
export interface ReaderSpec {
  readonly name: string;
  readonly descriptor: Pick<CodecDescriptor, "root" | "definitions">;
  /** The TOON text check of the root (`$ck<Root>`): TOON and JSON payloads are read without the schema, then checked. */
  readonly check: TextCheckFn;
  readonly hints: PayloadHints;
  /** Model output only: empty TOON cells of optional fields are absent, schema defaults fill missing fields. */
  readonly fill?: FillSpec;
  /** The JSON Schema check of the whole value (the codec's validator module), when it has one. */
  readonly schema?: SchemaCheck;
}

export type ReaderLayout = "toon" | "dense" | "json";

/** A line-level value the reader completed (a field, an element), or the whole value (`key` undefined). */
export interface ReadValue {
  /** Keys from the root to the value. */
  keys: readonly (string | number)[];
  node: PathNode;
  value: unknown;
}

/** Counts repaired in one payload at most (each is one more reading of it). */

/** The walker and checks a codec's readers share (built once per descriptor). */
const walkers = new WeakMap<object, PathWalker>();

export function walkerOf(spec: ReaderSpec): PathWalker {
  let w = walkers.get(spec.descriptor);
  if (w === undefined) walkers.set(spec.descriptor, (w = new PathWalker(spec.descriptor)));
  return w;
}

// what reads the payload
const UNDECIDED = 0;
const JSON_TEXT = 1;
const DENSE = 2;
const TOON = 3;

export interface PayloadOptions {
  layout?: ReaderLayout | undefined;
  repair?: boolean | undefined;
  /** Read as model output: JSON payloads, the fill spec, INCOMPLETE for what the reply's end cut off. */
  reply?: boolean | undefined;
  /** A fence's label, when the payload is fenced ("" for a bare fence). */
  fence?: string | undefined;
  /** Told each value as it completes (none: no values are told, and none are checked on the way). */
  onValue?: ((v: ReadValue) => void) | undefined;
  /** Follow strings still arriving (`openText`), for a reader's `partialText`. */
  partialText?: boolean | undefined;
}

export class PayloadReader {
  private mode = UNDECIDED;
  /** A TOON or dense payload's text, kept while another reading of it may come (dense undecided, count repair, locating errors). */
  private kept: string[] | null = [];
  /** The payload's blanks before its first character; its text from there while it does not decide JSON or text. */
  private blankLead = "";
  private lead = "";
  private dense: DenseTextReader | undefined;
  private toon: ToonTextReader | undefined;
  private json: { reader: JsonReader; builder: JsonValueBuilder; hooks: JsonHooks | undefined; lineStarts: number[] } | undefined;
  private denseError: ToonError | undefined;
  private countError: ToonError | undefined;
  private readonly repairs: JsonRepair[] = [];
  private jsonRepairs: JsonRepair[] = [];
  /** Values told so far, and how many a new reading of the text (after a fallback or a repair) passes over. */
  private told = 0;
  private skip = 0;
  private failed: unknown;
  /** The payload was cut: what its readers close now is not told one by one. */
  private ending = false;
  private readonly walker: PathWalker;
  /** `partialText`: the open string cell of the unfinished TOON or dense line, and the reader it was planned for. */
  private partial: PartialCells | undefined;
  private partialOf: object | undefined;
  /** `partialText`: the text taken since the last `openText` (what the unfinished line gained, when no line ended). */
  private recent = "";

  constructor(
    private readonly spec: ReaderSpec,
    private readonly options: PayloadOptions,
  ) {
    this.walker = walkerOf(spec);
    const layout = options.layout;
    if (layout === "json") this.startJson();
    else if (layout === "dense") this.startDense();
    else if (layout === "toon") this.startToon();
  }

  /**
   * Whether the payload's start (from its first character that is no blank) may still turn out either JSON or
   * TOON text: a whole payload's first 64 characters decide (`jsonPayload`), so the pieces wait until they are
   * there, or until what has come can no longer change the answer: a brace; a `[` that no array header begins
   * (`[3]`, `[2:]`, `[2|]`); in a reply not fenced as JSON, anything else (TOON text, never a JSON scalar).
   */
  private undecided(start: string): boolean {
    if (start.length >= 64 || this.options.reply !== true) return false;
    const c = start.charCodeAt(0);
    if (c === 123) return false;
    if (c === 91) return /^\[[0-9]*:?[\t|]?$/.test(start);
    return this.options.fence === "json";
  }

  /** JSON, or TOON text read as dense first, by how the payload begins (`start`: its first character no blank). */
  private decide(start: string): void {
    if (this.options.reply === true && jsonPayload(start.slice(0, 64), this.options.fence ?? "")) this.startJson();
    else this.startDense();
  }

  /** More of the payload; returns how much of it was taken (JSON stops at the end of its value). */
  text(chunk: string): number {
    if (this.failed !== undefined) throw this.failed;
    if (this.options.partialText === true) this.recent += chunk;
    try {
      return this.take(chunk);
    } catch (e) {
      this.failed = e;
      throw e;
    }
  }

  private take(chunk: string): number {
    if (this.mode === UNDECIDED) {
      // blanks first (each looked at once, however many pieces they come in); then what begins the payload says
      let start: string;
      if (this.lead.length === 0) {
        let k = 0;
        while (k < chunk.length && isBlank(chunk.charCodeAt(k))) k++;
        if (k === chunk.length) {
          this.blankLead += chunk;
          return chunk.length;
        }
        if (k > 0) this.blankLead += chunk.slice(0, k);
        start = k === 0 ? chunk : chunk.slice(k);
      } else start = this.lead + chunk;
      if (this.undecided(start)) {
        this.lead = start;
        return chunk.length;
      }
      const t = this.blankLead + start;
      this.lead = this.blankLead = "";
      this.decide(start);
      const took = this.take(t);
      return Math.max(0, took - (t.length - chunk.length));
    }
    if (this.mode === JSON_TEXT) {
      const end = this.json!.reader.push(chunk);
      return end < 0 ? chunk.length : end;
    }
    if (this.kept !== null) this.kept.push(chunk);
    if (this.countError !== undefined) return chunk.length; // held until the payload's end says whether to repair
    if (this.mode === DENSE) {
      try {
        this.dense!.push(chunk);
      } catch (e) {
        this.denseFailed(e, false);
      }
      return chunk.length;
    }
    try {
      this.toon!.push(chunk);
    } catch (e) {
      this.toonFailed(e);
    }
    return chunk.length;
  }

  /**
   * The payload is over. `complete`: something closed it (a fence, more of the reply); false: the text ran to the
   * end of what there is (a reply's end: what is open there was cut off). Returns the value, checked.
   */
  end(complete: boolean): unknown {
    if (this.failed !== undefined) throw this.failed;
    try {
      return this.finish(complete);
    } catch (e) {
      this.failed = e;
      throw e;
    }
  }

  private finish(complete: boolean): unknown {
    // what closes at a cut is no whole value of its own: the whole value (or the cut's error) is all there is
    this.ending = !complete;
    if (this.mode === UNDECIDED) {
      const start = this.lead;
      const t = this.blankLead + start;
      this.lead = this.blankLead = "";
      if (start.length > 0) this.decide(start);
      else this.startDense();
      if (t.length > 0 || this.options.reply !== true) this.take(t);
    }
    const reply = this.options.reply === true;
    const fill = reply ? this.spec.fill : undefined;
    let v: unknown;
    if (this.mode === JSON_TEXT) {
      const j = this.json!;
      j.reader.end();
      v = j.builder.value;
      if (fill !== undefined) applyFill(v, fill, false);
      v = checkDecoded(v, j.builder.raws, this.spec.check, (e) => this.locateJson(e.path));
      for (const x of this.jsonRepairs) this.repairs.push(x);
    } else {
      v = this.endText(complete);
      if (this.mode === DENSE) {
        if (fill !== undefined) applyFill(v, fill, false);
      } else {
        if (fill !== undefined) applyFill(v, fill, true);
        const toon = this.toon!;
        const kept = this.kept;
        try {
          v = checkDecoded(v, toon.raws, this.spec.check, (e) => (kept === null ? toon.locate(e.path) : locateIn(kept.join(""), e.path)));
        } catch (e) {
          if (!(e instanceof ToonError)) throw e;
          // neither layout reads it (TOON's reading does not check): the error of the one the text looks like
          const d = this.denseError;
          throw this.classify(d !== undefined && kept !== null ? (further(d, e, kept.join("")) as ToonError) : e, complete);
        }
      }
    }
    if (this.spec.schema !== undefined && reply) v = assertSchema(v, this.spec.schema);
    return v;
  }

  /** The repairs made (kind, line and column in the payload as written), once the value has read. */
  get repaired(): readonly JsonRepair[] {
    return this.repairs;
  }

  // ------------------------------------------------------------------------------------------ strings arriving

  /**
   * With `partialText`: the string still arriving at the end of what was read, and any that ended since part of it
   * was told, into `out`. The reply's reader may hold back the payload's unfinished line (an unfenced block's lines
   * go on when they end): `held` is that line, `grown` what it gained since the last call, `heldNo` the reply's
   * line it is.
   */
  openText(held: string, grown: string, heldNo: number, out: OpenText[]): void {
    const recent = this.recent;
    this.recent = "";
    if (this.failed !== undefined || this.countError !== undefined || this.options.partialText !== true) return;
    if (this.mode === JSON_TEXT) return this.json!.hooks?.openText(out);
    if (this.mode === UNDECIDED) return;
    const p = (this.partial ??= new PartialCells());
    const r = this.mode === DENSE ? this.dense! : this.toon!;
    const lex = r instanceof DenseTextReader ? r.lexer : r.s.lex;
    // the line's identity: both counts only grow, so their sum changes when either does
    const no = lex.lines + heldNo;
    let text: string;
    if (this.partialOf !== r || p.line !== no) {
      // a line not followed yet (or another reading of the text, TOON v4 after dense): all of it so far
      this.partialOf = r;
      p.restart(no);
      text = lex.pending + held;
    } else text = recent + grown; // (no line ended: what was taken went to the unfinished line)
    const isText = this.isText;
    p.feed(text, no, r instanceof DenseTextReader ? (l) => densePlan(r, l, isText) : (l) => toonPlan(r.s, l, isText), out);
  }

  /** The string still arriving, as far as it was told (a snapshot shows it). */
  openString(): { keys: Keys; text: string } | undefined {
    if (this.failed !== undefined || this.options.partialText !== true) return undefined;
    if (this.mode === JSON_TEXT) return this.json!.hooks?.current();
    return this.mode === UNDECIDED ? undefined : this.partial?.current();
  }

  /** The schema's node at `keys` (null: the schema names no position there). */
  nodeAt(keys: Keys): PathNode | null {
    let n: PathNode | null = this.walker.root;
    for (let i = 0; i < keys.length && n !== null; i++) n = this.walker.child(n, keys[i]!);
    return n;
  }

  /** Whether the value at `keys` is plain text (a string of no format), whose growing text may be shown. */
  readonly isText = (keys: Keys): boolean => {
    const n = this.nodeAt(keys);
    return n !== null && this.walker.isText(n);
  };

  // ------------------------------------------------------------------------------------------ text layouts

  private startDense(): void {
    this.mode = DENSE;
    this.dense = new DenseTextReader(denseModel(this.spec.descriptor), this.hooks());
    if (this.options.layout === "dense" && this.options.repair !== true) this.kept = null;
  }

  private startToon(): void {
    this.mode = TOON;
    // the reader notes where values start (`track`): what places the errors of a value checked as it completes, and,
    // forced with no repair to read the text again, those of the whole value (then no text is kept)
    const alone = this.options.layout === "toon" && this.options.repair !== true;
    if (alone) this.kept = null;
    this.toon = new ToonTextReader({ exact: true, hooks: this.toonHooks(), track: alone || this.options.onValue !== undefined });
  }

  /** Dense failed: TOON v4 reads the text again, unless dense was decided (or forced). */
  private denseFailed(e: unknown, atEnd: boolean): void {
    if (!(e instanceof ToonError)) throw e;
    if (this.options.layout === "dense" || this.kept === null) {
      this.mode = DENSE;
      this.textError(e);
      return;
    }
    this.denseError = e;
    this.startToon();
    this.skip = this.told;
    // (read as pieces are: a whole text's reading would report a later line's indentation first, and a reply
    // read in pieces must fail as the same reply read whole)
    const text = this.kept.join("");
    try {
      this.toon!.push(text);
      if (atEnd) this.toon!.end();
    } catch (x) {
      this.toonFailed(x);
    }
  }

  private toonFailed(e: unknown): void {
    if (!(e instanceof ToonError)) throw e;
    const d = this.denseError;
    // neither layout reads it: the error of the one the text looks like
    if (d !== undefined && further(d, e, this.kept!.join("")) === d) return this.textError(d);
    this.textError(e);
  }

  /** A text layout's error: a count to repair later (repair, more to come), or thrown. */
  private textError(e: ToonError): void {
    if (this.options.repair === true && e.count !== undefined && !e.count.inline && this.kept !== null && this.repairs.length < MAX_COUNT_REPAIRS) {
      this.countError = e;
      return;
    }
    throw e;
  }

  /** The text layouts at the payload's end: the value, or the error, repaired and classified. */
  private endText(complete: boolean): unknown {
    for (;;) {
      if (this.countError === undefined) {
        try {
          if (this.mode === DENSE) {
            try {
              return this.dense!.end();
            } catch (e) {
              this.denseFailed(e, true);
              if (this.countError === undefined) return this.toon!.end();
            }
          } else return this.toon!.end();
        } catch (e) {
          if (!(e instanceof ToonError)) throw e;
          if (this.countError === undefined) {
            if (this.options.repair !== true || e.count === undefined || e.count.inline || this.kept === null) throw this.classify(e, complete);
            this.countError = e;
          }
        }
      }
      // a miscounted table or list: repaired where the payload is complete, then read again from the start
      const e = this.countError!;
      this.countError = undefined;
      const fix = complete && this.repairs.length < MAX_COUNT_REPAIRS ? repairCount(this.kept!.join(""), e.count!.line, e.count!.declared) : undefined;
      if (fix === undefined) throw this.classify(this.firstError ?? e, complete);
      this.firstError ??= e;
      this.repairs.push(fix.repair);
      this.kept = [fix.text];
      this.skip = this.told;
      this.denseError = undefined;
      this.startDense();
      try {
        this.dense!.push(fix.text);
      } catch (x) {
        this.denseFailed(x, false);
      }
    }
  }

  /** The first error a count repair did not make go away is the one thrown. */
  private firstError: ToonError | undefined;

  /**
   * INCOMPLETE for what the end of a reply cut off (model output, `complete` false): a table or list short of the
   * rows or items its header declares, or a value the dense reader ran into the end in the middle of.
   */
  private classify(e: ToonError, complete: boolean): ToonError {
    if (complete || this.options.reply !== true || this.options.fence !== undefined) return e;
    const c = e.count;
    // (dense's error, or TOON's once dense failed and TOON read the text again)
    const dense = this.mode === DENSE || e === this.denseError;
    if (c !== undefined && !c.more && c.found < c.declared && !c.inline && e.code === "TEXT_SYNTAX") {
      if (!dense) return incomplete(e, "unfenced TOON at the end of the output has fewer entries than its header declares: it looks truncated");
      return incomplete(e, "dense text at the end of the output has fewer entries than its header declares: it looks truncated");
    }
    const d = this.denseError ?? (dense ? e : undefined);
    if (d !== undefined && d.atEnd === true) return incomplete(d, "dense text at the end of the output stops in the middle of a value: it looks truncated");
    return e;
  }

  // ------------------------------------------------------------------------------------------ JSON

  private startJson(): void {
    this.mode = JSON_TEXT;
    const builder = new JsonValueBuilder({ numbers: "exact", track: true });
    const hooks = this.options.onValue === undefined ? undefined : new JsonHooks(builder, this, this.options.partialText === true);
    const repairs = this.jsonRepairs;
    // (no text kept: errors found after reading are placed by the line starts the reader notes)
    const lineStarts: number[] = [];
    const options = this.options.repair === true ? { repair: true, onRepair: (r: JsonRepair) => repairs.push(r), stopAtEnd: true, lineStarts } : { stopAtEnd: true, lineStarts };
    const reader = new JsonReader(hooks ?? builder, options);
    builder.reader = reader;
    this.json = { reader, builder, hooks, lineStarts };
    this.kept = null;
  }

  // ------------------------------------------------------------------------------------------ values as they complete

  /** A value at `key` of the container at `path` is complete (`raw`: read without the schema, to be checked). */
  complete(path: readonly (string | number)[], key: string | number, value: unknown, raw: boolean, at?: { line: number; column: number }): unknown {
    const onValue = this.options.onValue;
    if (onValue === undefined || this.ending) return value;
    // told: array items (table rows, list items, at any depth) and the root's members; anything else is told with
    // the item or member it is part of (checked once with it, not once per level), as is what a union or `any` holds
    if (path.length > 0 && typeof key !== "number") return value;
    let node: PathNode | null = this.walker.root;
    const fill = this.options.reply === true ? this.spec.fill : undefined;
    let part: FillShape | 0 = fill === undefined ? 0 : fill.root;
    for (let i = 0; i < path.length && node !== null; i++) {
      if (fill !== undefined) part = fillChild(part, path[i]!, fill);
      node = this.walker.child(node, path[i]!);
    }
    if (node !== null) node = this.walker.child(node, key);
    if (node === null || (!node.item && path.length > 0)) return value;
    // as a model writes it (fill: defaults; in TOON an empty cell of an optional field is absent), as the whole
    // value will be read; then, read without the schema, checked
    if (fill !== undefined) {
      part = fillChild(part, key, fill);
      if (part !== 0) applyFillAt(value, part, fill, this.mode === TOON);
    }
    if (raw) {
      const v = value;
      value = checkAt(this.walker.check(node), value, (relative) => (at !== undefined ? this.toon!.locateWithin(v, relative, at) : this.locateJson(pointerOf(path, key) + relative)));
    }
    if (this.skip > 0) {
      this.skip--;
      return value;
    }
    this.told++;
    onValue({ keys: [...path, key], node, value });
    return value;
  }

  /** Where the JSON value at `pointer` starts (the JSON payload's errors found while it streams). */
  private locateJson(pointer: string): { line: number; column: number } | undefined {
    const j = this.json;
    if (j === undefined) return undefined;
    const r = { value: j.builder.value, raws: j.builder.raws, track: j.builder.track };
    return lineColumnAt(j.lineStarts, locateJson(r, pointer));
  }

  private hooks(): { child(path: readonly (string | number)[], key: string | number, value: unknown): void } | undefined {
    if (this.options.onValue === undefined) return undefined;
    return { child: (path, key, value) => void this.complete(path, key, value, false) };
  }

  private toonHooks(): { child(parent: object, key: string | number, value: unknown, path: readonly (string | number)[], line: number, column: number): unknown } | undefined {
    if (this.options.onValue === undefined) return undefined;
    return { child: (_parent, key, value, path, line, column) => this.complete(path, key, value, true, { line, column }) };
  }
}

/**
 * A value read without the schema, checked at its place: its errors' paths are relative to it (the caller puts the
 * value's own in front), their line and column `locate`'s for the error's path.
 */
function checkAt(check: TextCheckFn, value: unknown, locate: (relative: string) => { line: number; column: number } | undefined): unknown {
  return checkDecoded(value, 1, check, (e) => locate(e.path));
}

/** Line and column of the value at `pointer` in TOON `text` (the first content, when it is not found). */
function locateIn(text: string, pointer: string): { line: number; column: number } | undefined {
  const r = new ToonTextReader({ exact: true, track: true });
  try {
    r.end(text);
  } catch {
    return undefined;
  }
  return r.locate(pointer);
}

function pointerOf(path: readonly (string | number)[], key: string | number): string {
  let p = "";
  for (const k of path) p += pointerSegment(k);
  return p + pointerSegment(key);
}

function incomplete(e: ToonError, why: string): ToonError {
  const opts: ToonErrorOptions = { path: e.path, cause: e };
  if (e.line !== undefined) opts.line = e.line;
  if (e.column !== undefined) opts.column = e.column;
  return new ToonError("INCOMPLETE", `${why} (${e.reason})`, opts);
}

/** The JSON reader's events, to the value builder and, as each member or item completes, to the payload reader. */
class JsonHooks implements JsonHandler {
  /** Open containers: the container and the key or index it has in its parent. */
  private readonly stack: { c: Record<string, unknown> | unknown[]; key: string | number | undefined }[] = [];
  private curKey: string | number | undefined;
  /**
   * `partial`: the keys of the plain-text string being read (undefined: none), its text told and its text since
   * (two parts: slicing a string built by appending would copy all of it on every piece).
   */
  private strKeys: (string | number)[] | undefined;
  private shown = "";
  private fresh = "";
  /** Strings that ended since part of them was told: their last text, to tell with the next `openText`. */
  private ended: OpenText[] = [];

  constructor(
    private readonly b: JsonValueBuilder,
    private readonly p: PayloadReader,
    private readonly partial: boolean,
  ) {}

  /** The string still arriving and those that ended since part of them was told (see PayloadReader.openText). */
  openText(out: OpenText[]): void {
    for (const e of this.ended) out.push(e);
    this.ended = [];
    const keys = this.strKeys;
    if (keys !== undefined && this.fresh.length > 0) out.push(this.tell(keys));
  }

  current(): { keys: Keys; text: string } | undefined {
    const keys = this.strKeys;
    return keys === undefined || this.shown.length === 0 ? undefined : { keys, text: this.shown };
  }

  private tell(keys: Keys): OpenText {
    const delta = this.fresh;
    this.fresh = "";
    this.shown += delta;
    return { keys, text: this.shown, delta };
  }

  private childKey(): string | number | undefined {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) return undefined;
    return Array.isArray(top.c) ? top.c.length : this.curKey;
  }

  open(kind: JsonContainer, at: number): void {
    const key = this.childKey();
    this.b.open(kind, at);
    const top = this.stack[this.stack.length - 1];
    const c = (top === undefined ? this.b.value : (top.c as Record<string | number, unknown>)[key!]) as Record<string, unknown> | unknown[];
    this.stack.push({ c, key });
  }

  key(key: string, at: number): void {
    this.b.key(key, at);
    this.curKey = key;
  }

  scalar(value: number | boolean | null, raw: string, at: number): void {
    const key = this.childKey();
    this.b.scalar(value, raw, at);
    this.done(key);
  }

  stringStart(at: number): void {
    if (this.partial) {
      const key = this.childKey();
      const keys = this.openKeys();
      keys.push(key!);
      this.strKeys = key !== undefined && this.p.isText(keys) ? keys : undefined;
      this.shown = this.fresh = "";
    }
    this.b.stringStart(at);
  }

  stringChunk(text: string): void {
    if (this.strKeys !== undefined) this.fresh += text;
    this.b.stringChunk(text);
  }

  stringEnd(): void {
    const keys = this.strKeys;
    if (keys !== undefined) {
      if (this.shown.length > 0 && this.fresh.length > 0) this.ended.push(this.tell(keys));
      this.strKeys = undefined;
      this.shown = this.fresh = "";
    }
    const key = this.childKey();
    this.b.stringEnd();
    this.done(key);
  }

  close(): void {
    this.b.close();
    const f = this.stack.pop()!;
    this.done(f.key);
  }

  /** The keys from the root to the innermost open container. */
  private openKeys(): (string | number)[] {
    const keys: (string | number)[] = [];
    for (let i = 1; i < this.stack.length; i++) keys.push(this.stack[i]!.key!);
    return keys;
  }

  /** The value just stored at `key` of the innermost open container is complete. */
  private done(key: string | number | undefined): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined || key === undefined) return;
    const c = top.c as Record<string | number, unknown>;
    // (only items and the root's members are told: others need no path)
    if (this.stack.length > 1 && !Array.isArray(c)) return;
    const path = this.openKeys();
    const stored = Array.isArray(c) ? c[c.length - 1] : c[key];
    const k = Array.isArray(c) ? c.length - 1 : key;
    let checked: unknown;
    try {
      checked = this.p.complete(path, k, stored, true);
    } catch (e) {
      if (e instanceof ToonError) e.prefixPath(pointerOf(path, k));
      throw e;
    }
    if (checked !== stored) {
      if (Array.isArray(c)) c[c.length - 1] = checked;
      else Object.defineProperty(c, key, { value: checked, enumerable: true, writable: true, configurable: true });
    }
  }
}
