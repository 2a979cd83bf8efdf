/**
 * Plain values from the JSON tokenizer (./json.ts): objects, arrays, strings, booleans, null and numbers in the
 * form the caller needs (exact, as TextNumber where a double does not carry the token; integers beyond 2^53 only;
 * bigints; or doubles as `JSON.parse` gives them), `__proto__` as an own property, duplicate keys refused (or the
 * last one kept, as `JSON.parse` does), and optionally where each value starts (for error positions).
 *
 * - {@link readJsonText}: a whole text that is one JSON value (what `parseJsonExact` reads);
 * - {@link readJsonSlice}: one value at a place in a longer text, and where it ended (a dense cell);
 * - {@link JsonValueBuilder}: the handler itself, for text that arrives in pieces.
 */
import { TextNumber } from "../decode.ts";
import { JsonReader } from "./json.ts";
import type { JsonContainer, JsonHandler, JsonReaderOptions } from "./json-handler.ts";

/**
 * How numbers are read:
 * - "exact": a TextNumber whenever the double does not spell the token (`1.0`, `-0`, `1e2`, digits beyond 2^53,
 *   counted in `raws`), the token itself (a string) when it overflows to Infinity: what the text check reads;
 * - "safe-integers": doubles, except integers beyond 2^53 as TextNumber; beyond the range of a double a fault;
 * - "bigint": doubles, except integer tokens beyond 2^53 within the 64-bit range as exact bigints;
 * - "double": doubles, as `JSON.parse` reads them (`1e999` is Infinity).
 */
export type JsonNumbers = "exact" | "safe-integers" | "bigint" | "double";

export interface JsonValueOptions extends Omit<JsonReaderOptions, "stopAtEnd"> {
  /** Default "exact". */
  numbers?: JsonNumbers;
  /** A key an object has already: "refuse" (a fault, the default) or "last" (the later value wins, as `JSON.parse`). */
  duplicates?: "refuse" | "last";
  /** Record where each value starts (`JsonParse.track`). */
  track?: boolean;
}

/** A value read, how many TextNumbers it holds, and (when tracked) where each member or item starts. */
export interface JsonParse {
  value: unknown;
  raws: number;
  track: Map<object, Map<string | number, number>> | null;
}

/** {@link readJsonSlice}'s result: also the index just past the value. */
export interface JsonSliceRead extends JsonParse {
  end: number;
}

const hasOwn = Object.prototype.hasOwnProperty;
const MIN_INT64 = -(2n ** 63n);
const MAX_UINT64 = 2n ** 64n;

export class JsonValueBuilder implements JsonHandler {
  /** The value once the reader is done. */
  value: unknown = undefined;
  raws = 0;
  track: Map<object, Map<string | number, number>> | null;
  /** The reader feeding this builder: it raises the builder's faults with line, column and path. */
  reader: JsonReader | undefined;

  private readonly numbers: JsonNumbers;
  private readonly refuseDuplicates: boolean;
  /** The innermost open container (null at the root), whether it is an array, and its current key. */
  private cur: Record<string, unknown> | unknown[] | null = null;
  private curArray = false;
  private curKey = "";
  /** The enclosing containers and their keys, outermost first. */
  private readonly outer: (Record<string, unknown> | unknown[] | null)[] = [];
  private readonly outerKeys: string[] = [];
  /** Tracking: where the innermost container's members start, and the enclosing containers' maps. */
  private positions: Map<string | number, number> | undefined;
  private readonly outerPositions: (Map<string | number, number> | undefined)[] = [];
  private str = "";
  private strAt = 0;

  constructor(options: Pick<JsonValueOptions, "numbers" | "duplicates" | "track"> = {}) {
    this.numbers = options.numbers ?? "exact";
    this.refuseDuplicates = options.duplicates !== "last";
    this.track = options.track === true ? new Map() : null;
  }

  /** Ready for another value. */
  reset(): void {
    this.value = undefined;
    this.raws = 0;
    this.cur = null;
    this.outer.length = 0;
    this.outerKeys.length = 0;
    this.outerPositions.length = 0;
    this.positions = undefined;
    this.str = "";
    if (this.track !== null) this.track = new Map();
  }

  open(kind: JsonContainer, at: number): void {
    const c = kind === "object" ? {} : [];
    this.put(c, at);
    this.outer.push(this.cur);
    this.outerKeys.push(this.curKey);
    this.cur = c;
    this.curArray = kind === "array";
    if (this.track !== null) {
      this.outerPositions.push(this.positions);
      this.positions = new Map();
      this.track.set(c, this.positions);
    }
  }

  key(key: string, at: number): void {
    const o = this.cur as Record<string, unknown>;
    // (a key not there reads undefined, cheaper to learn than hasOwnProperty; an inherited one is checked)
    if (this.refuseDuplicates && Object.hasOwn(o, key)) this.reader?.fault("duplicate", at, key);
    this.curKey = key;
  }

  scalar(value: number | boolean | null, raw: string, at: number): void {
    this.put(typeof value === "number" ? this.number(value, raw, at) : value, at);
  }

  stringStart(at: number): void {
    this.str = "";
    this.strAt = at;
  }

  stringChunk(text: string): void {
    this.str += text;
  }

  stringEnd(): void {
    const s = this.str;
    this.str = "";
    this.put(s, this.strAt);
  }

  close(): void {
    this.cur = this.outer.pop()!;
    this.curKey = this.outerKeys.pop()!;
    this.curArray = Array.isArray(this.cur);
    if (this.track !== null) this.positions = this.outerPositions.pop();
  }

  private put(v: unknown, at: number): void {
    const c = this.cur;
    if (c === null) {
      this.value = v;
      return;
    }
    if (this.curArray) {
      const a = c as unknown[];
      if (this.track !== null) this.positions!.set(a.length, at);
      a.push(v);
      return;
    }
    const o = c as Record<string, unknown>;
    const k = this.curKey;
    if (this.track !== null) this.positions!.set(k, at);
    // `__proto__` is data here, not the object's prototype
    if (k === "__proto__") Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    else o[k] = v;
  }

  private number(x: number, raw: string, at: number): unknown {
    switch (this.numbers) {
      case "double":
        return x;
      case "exact":
        if (x - x !== 0) return raw; // overflow to ±Infinity: the token, as decodeText keeps it
        if (x === 0) return raw === "0" ? 0 : this.textNumber(0, raw);
        if (!Number.isSafeInteger(x) && Number.isInteger(x)) return this.textNumber(x, raw);
        return String(x) === raw ? x : this.textNumber(x, raw);
      case "safe-integers":
        if (x - x !== 0) return this.reader?.fault("range", at, raw);
        return Number.isInteger(x) && !Number.isSafeInteger(x) ? this.textNumber(x, raw) : x;
      case "bigint": {
        if (Number.isSafeInteger(x) || !isIntegerToken(raw)) return x;
        const b = BigInt(raw);
        return b < MIN_INT64 || b >= MAX_UINT64 ? x : b; // beyond 64 bits: the double
      }
    }
  }

  private textNumber(x: number, raw: string): TextNumber {
    this.raws++;
    return new TextNumber(x, raw);
  }
}

/** Digits with an optional minus: an integer as written (no fraction, no exponent). */
function isIntegerToken(raw: string): boolean {
  for (let i = raw.charCodeAt(0) === 45 ? 1 : 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The JSON value that `text` is (whitespace around it, nothing else), built as `options` say. */
export function readJsonText(text: string, options: JsonValueOptions = {}): JsonParse {
  const builder = new JsonValueBuilder(options);
  const reader = new JsonReader(builder, options);
  builder.reader = reader;
  reader.push(text);
  reader.end();
  return { value: builder.value, raws: builder.raws, track: builder.track };
}

/**
 * Reads one JSON value at a place in a longer text, again and again (a reader and a builder kept for all of
 * them: a dense table's cells are many and small).
 */
export class JsonSliceReader {
  private readonly builder: JsonValueBuilder;
  private readonly reader: JsonReader;

  constructor(options: JsonValueOptions = {}) {
    this.builder = new JsonValueBuilder(options);
    this.reader = new JsonReader(this.builder, { ...options, stopAtEnd: true });
    this.builder.reader = this.reader;
  }

  /**
   * The JSON value at `from` in `text` (after spaces), read no further than `to` (the end of its line): the value
   * and the index just past it. Offsets in faults and `track` count from `from`. A value that runs into `to` is
   * complete there (a number) or a fault at the end (INCOMPLETE, `atEnd`). `maxDepth`: this value's limit.
   */
  read(text: string, from: number, to: number, maxDepth?: number): JsonSliceRead {
    const { builder, reader } = this;
    builder.reset();
    reader.reset(maxDepth);
    let end = reader.push(text, from, to);
    if (end < 0) {
      reader.end();
      end = to;
    }
    const value = builder.value;
    builder.value = undefined; // (not kept alive by the reader between reads)
    return { value, raws: builder.raws, track: builder.track, end };
  }
}

/** {@link JsonSliceReader.read} once. */
export function readJsonSlice(text: string, from: number, to: number, options: JsonValueOptions = {}): JsonSliceRead {
  return new JsonSliceReader(options).read(text, from, to);
}

/**
 * Parse JSON strictly (RFC 8259: no duplicate keys, nothing after the value but whitespace), like `JSON.parse`
 * except that number tokens a double does not carry exactly become {@link TextNumber} (as in `decodeTextExact`),
 * `__proto__` keys become own properties, and errors are ToonError TEXT_SYNTAX with line and column, naming
 * the slip when it is a common one (a trailing comma, single quotes, an unquoted name, Python's `True`, a
 * comment, a raw line break in a string). Text that ends before its value does is INCOMPLETE (truncated).
 * `track`: record where each value starts (see {@link locateJson}).
 */
export function parseJsonExact(text: string, track = false): JsonParse {
  return readJsonText(text, { track });
}

/** The offset where the value at JSON pointer `path` starts (as far as `r.track` knows it; 0 for the root). */
export function locateJson(r: JsonParse, path: string): number {
  let v = r.value;
  let pos = 0;
  const segs = path === "" ? [] : path.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  for (const seg of segs) {
    if (v === null || typeof v !== "object") break;
    const key: string | number = Array.isArray(v) ? Number(seg) : seg;
    const at = r.track?.get(v)?.get(key);
    if (at === undefined) break;
    pos = at;
    v = (v as Record<string | number, unknown>)[key];
  }
  return pos;
}
