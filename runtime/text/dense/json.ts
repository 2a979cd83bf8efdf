/**
 * A JSON value embedded in dense text (a composite cell, or a field the structured forms cannot carry): read in
 * place by the runtime's JSON reader (../reader/json.ts), which stops where the value ends, so the dense reader
 * goes on from there. Strict RFC 8259 syntax; numbers as JSON.parse reads them, except integers beyond 2^53,
 * which are TextNumbers (their token kept) for the schema's check to read, and numbers beyond the range of a
 * double, which are refused. Errors go through the cursor's `fail`, worded for dense text.
 */
import { JsonSliceReader, type JsonSliceRead } from "../reader/json-value.ts";
import type { JsonFault } from "../reader/json-fault.ts";

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

/** The cell being read (cells are read one at a time, by one reader): its cursor and where it starts. */
const cell: { cursor: JsonCursor | undefined; from: number } = { cursor: undefined, from: 0 };
const cells = new JsonSliceReader({ numbers: "safe-integers", raise: (f) => failAt(cell.cursor!, cell.from, f) });

/** `depth`: the nesting the value starts at (the dense reader's, for a JSON cell): it may open the rest. */
export function readJson(c: JsonCursor, depth = 0): unknown {
  cell.cursor = c;
  cell.from = c.pos;
  let r: JsonSliceRead;
  try {
    r = cells.read(c.text, c.pos, c.end, Math.max(0, DENSE_MAX_DEPTH - depth));
  } finally {
    cell.cursor = undefined; // (the text is not kept alive between cells)
  }
  c.pos = r.end;
  c.raws += r.raws;
  return r.value;
}

/**
 * A JSON string at `c.pos` (which holds the opening quote). One without escapes (most quoted cells: a comma in a
 * note, a date TOON quotes) is its text up to the closing quote; anything else the JSON reader reads, and names
 * what is wrong with it.
 */
export function readJsonString(c: JsonCursor): string {
  const t = c.text;
  const start = c.pos;
  for (let i = start + 1; i < c.end; i++) {
    const ch = t.charCodeAt(i);
    if (ch === 34) {
      c.pos = i + 1;
      return t.slice(start + 1, i);
    }
    if (ch === 92 || ch < 32) break;
  }
  return readJson(c) as string;
}

/** The dense reader's error for a fault of the JSON at `from`. */
function failAt(c: JsonCursor, from: number, f: JsonFault): never {
  const at = from + f.offset;
  // the reader stops where the fault is; a value cut off by the end of its line has read to that end
  c.pos = f.atEnd ? c.end : at;
  return c.fail(denseMessage(f), at, f.kind === "depth" ? "DEPTH_LIMIT" : undefined);
}

function denseMessage(f: JsonFault): string {
  switch (f.kind) {
    case "end":
      return f.token === "string" || f.token === "key" ? "unterminated quoted string" : expected(f);
    case "control":
      return "control character in a quoted string";
    case "escape":
      return "invalid escape in a quoted string";
    case "surrogate":
      return "a lone surrogate in a \\u escape (text must be well-formed Unicode)";
    case "depth":
      return `nesting deeper than ${DENSE_MAX_DEPTH} levels`;
    case "duplicate":
      return `duplicate key ${JSON.stringify(f.found)} in a JSON object`;
    case "range":
      return "a number beyond the range of float64";
    default:
      return expected(f);
  }
}

/** What the JSON needed where it went wrong. */
function expected(f: JsonFault): string {
  switch (f.expected) {
    case "key":
      return "expected a quoted key in a JSON object";
    case "colon":
      return 'expected ":" in a JSON object';
    case "object-next":
      return 'expected "," or "}" in a JSON object';
    case "array-next":
      return 'expected "," or "]" in a JSON array';
    default:
      return "expected a JSON value";
  }
}
