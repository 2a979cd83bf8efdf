/**
 * A JSON value embedded in dense text (a composite cell, or a field the structured forms cannot carry): parsed
 * in place, so the reader knows where it ends. Strict RFC 8259 syntax; numbers as JSON.parse reads them, except
 * integers beyond 2^53, which are TextNumbers (their token kept) for the schema's check to read.
 */
import { TextNumber } from "../decode.ts";
export interface JsonCursor {
  text: string;
  pos: number;
  /** Where the value may not run past (the end of its line). */
  end: number;
  fail(message: string, at?: number, code?: "DEPTH_LIMIT"): never;
  /** TextNumbers read since the caller reset it (the text check turns them back into numbers, see below). */
  raws: number;
}

/**
 * How deeply dense text may nest (objects, arrays, headers and JSON cells together), as the TOON reader's default
 * `maxDepth`: deeper text is DEPTH_LIMIT, so a hostile document cannot exhaust the call stack.
 */
export const DENSE_MAX_DEPTH = 1000;

const NUM_CHARS = /[-+.eE0-9]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `depth`: the nesting the value starts at (the dense reader's, for a JSON cell). */
export function readJson(c: JsonCursor, depth = 0): unknown {
  if (depth > DENSE_MAX_DEPTH) c.fail(`nesting deeper than ${DENSE_MAX_DEPTH} levels`, c.pos, "DEPTH_LIMIT");
  skipWs(c);
  if (c.pos >= c.end) c.fail("expected a JSON value");
  const ch = c.text.charCodeAt(c.pos);
  if (ch === 34) return readJsonString(c);
  if (ch === 123) {
    c.pos++;
    const o: Record<string, unknown> = {};
    skipWs(c);
    if (c.text.charCodeAt(c.pos) === 125) {
      c.pos++;
      return o;
    }
    for (;;) {
      skipWs(c);
      if (c.text.charCodeAt(c.pos) !== 34) c.fail('expected a quoted key in a JSON object');
      const k = readJsonString(c);
      skipWs(c);
      if (c.text.charCodeAt(c.pos) !== 58) c.fail('expected ":" in a JSON object');
      c.pos++;
      const v = readJson(c, depth + 1);
      if (Object.prototype.hasOwnProperty.call(o, k)) c.fail(`duplicate key ${JSON.stringify(k)} in a JSON object`);
      Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
      skipWs(c);
      const n = c.text.charCodeAt(c.pos);
      c.pos++;
      if (n === 125) return o;
      if (n !== 44) c.fail('expected "," or "}" in a JSON object', c.pos - 1);
    }
  }
  if (ch === 91) {
    c.pos++;
    const a: unknown[] = [];
    skipWs(c);
    if (c.text.charCodeAt(c.pos) === 93) {
      c.pos++;
      return a;
    }
    for (;;) {
      a.push(readJson(c, depth + 1));
      skipWs(c);
      const n = c.text.charCodeAt(c.pos);
      c.pos++;
      if (n === 93) return a;
      if (n !== 44) c.fail('expected "," or "]" in a JSON array', c.pos - 1);
    }
  }
  for (const [lit, v] of [["true", true], ["false", false], ["null", null]] as const) {
    if (c.text.startsWith(lit, c.pos)) {
      c.pos += lit.length;
      return v;
    }
  }
  const start = c.pos;
  while (c.pos < c.end && NUM_CHARS.test(c.text[c.pos]!)) c.pos++;
  const tok = c.text.slice(start, c.pos);
  if (!/^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/.test(tok)) c.fail("expected a JSON value", start);
  const n = Number(tok);
  // JSON.parse reads `1e999` as Infinity, which no codec encodes: refused here, not after decoding
  if (!Number.isFinite(n)) c.fail("a number beyond the range of float64", start);
  // an integer beyond 2^53 keeps its token, as in the TOON reader's exact mode: an int64 position reads it as the
  // text check does (digits as the bigint they spell, 12345678901234567890), every other position as the double
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) {
    c.raws++;
    return new TextNumber(n, tok);
  }
  return n;
}

function skipWs(c: JsonCursor): void {
  while (c.pos < c.end) {
    const ch = c.text.charCodeAt(c.pos);
    if (ch !== 32 && ch !== 9) break;
    c.pos++;
  }
}

/** A JSON string at `c.pos` (which holds the opening quote). */
export function readJsonString(c: JsonCursor): string {
  const text = c.text;
  const start = c.pos;
  let i = start + 1;
  let escaped = false;
  for (; i < c.end; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34) break;
    if (ch === 92) {
      escaped = true;
      i++;
    } else if (ch < 32) c.fail("control character in a quoted string", i);
  }
  if (i >= c.end) {
    c.pos = c.end; // read to the end of the line (of the text, when a reply was cut off inside the string)
    c.fail("unterminated quoted string", start);
  }
  c.pos = i + 1;
  if (!escaped) return text.slice(start + 1, i);
  let s: string;
  try {
    s = JSON.parse(text.slice(start, i + 1)) as string;
  } catch {
    return c.fail("invalid escape in a quoted string", start);
  }
  // an escape may spell a lone surrogate, which text (and a value encode accepts) cannot hold
  if (LONE_SURROGATE.test(s)) c.fail("a lone surrogate in a \\u escape (text must be well-formed Unicode)", start);
  return s;
}
