/**
 * Opt-in repair of the JSON slips models make (`fromModelOutput(text, { repair: true })`): trailing commas,
 * single-quoted strings, Python's `True`/`False`/`None`, `//` and `/* *\/` comments, raw line breaks and tabs
 * inside strings, and one missing closing `}` at the very end. One linear pass over the text; every repair is
 * reported with its line and column (in the text as the model wrote it). Anything else is left for the strict
 * parser to reject: the repair never guesses at content (an unterminated string, a value cut off mid-way and
 * several missing closers are truncation, which stays INCOMPLETE).
 */
import { offsetToLineColumn } from "./decode.ts";

/** What `repair: true` fixed: a JSON slip, or a table's or list's miscounted `[N]` (text/count-repair.ts). */
export type JsonRepairKind = "trailing-comma" | "single-quotes" | "python-literal" | "comment" | "raw-control" | "missing-brace" | "count";

export interface JsonRepair {
  kind: JsonRepairKind;
  /** 1-based, in the payload as written. */
  line: number;
  column: number;
  message: string;
}

const PY: Record<string, string> = { True: "true", False: "false", None: "null" };

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Index of the first character at or after `i` that is neither whitespace nor inside a comment. */
function skipWsAndComments(t: string, i: number): number {
  for (;;) {
    while (i < t.length && isWs(t.charCodeAt(i))) i++;
    if (t.startsWith("//", i)) {
      const nl = t.indexOf("\n", i);
      i = nl < 0 ? t.length : nl;
    } else if (t.startsWith("/*", i)) {
      const end = t.indexOf("*/", i + 2);
      if (end < 0) return i;
      i = end + 2;
    } else return i;
  }
}

/** `text` with the slips above fixed, and what was fixed (empty when the text needed nothing). */
export function repairJson(text: string): { text: string; repairs: JsonRepair[] } {
  const repairs: JsonRepair[] = [];
  const note = (kind: JsonRepairKind, at: number, message: string): void => {
    const { line, column } = offsetToLineColumn(text, at);
    repairs.push({ kind, line, column, message });
  };
  let out = "";
  const stack: number[] = [];
  /** The last significant character written ends a value (a closer, a string, a number or a literal). */
  let afterValue = false;
  let i = 0;
  const t = text;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (isWs(c)) {
      out += t[i++];
      continue;
    }
    if (c === 47 && (t.startsWith("//", i) || t.startsWith("/*", i))) {
      const end = t.startsWith("//", i) ? (t.indexOf("\n", i) < 0 ? t.length : t.indexOf("\n", i)) : t.indexOf("*/", i + 2);
      if (end < 0) break; // an unterminated comment: left for the parser
      note("comment", i, "removed a comment (JSON has none)");
      i = t.startsWith("//", i) ? end : end + 2;
      continue;
    }
    if (c === 34 || c === 39) {
      // a string, double- or single-quoted; raw control characters inside are escaped
      const q = c;
      if (q === 39) note("single-quotes", i, "turned a single-quoted string into a double-quoted one");
      let j = i + 1;
      let s = '"';
      let closed = false;
      while (j < t.length) {
        const d = t.charCodeAt(j);
        if (d === q) {
          closed = true;
          break;
        }
        if (d === 92) {
          const e = t[j + 1];
          if (e === undefined) break;
          s += q === 39 && e === "'" ? "'" : "\\" + e;
          j += 2;
          continue;
        }
        if (d < 32) {
          note("raw-control", j, `escaped a raw ${d === 10 ? "line break" : d === 9 ? "tab" : "control character"} inside a string`);
          s += d === 10 ? "\\n" : d === 13 ? "\\r" : d === 9 ? "\\t" : "\\u" + d.toString(16).padStart(4, "0");
        } else if (q === 39 && d === 34) s += '\\"';
        else s += t[j];
        j++;
      }
      if (!closed) {
        out += t.slice(i); // unterminated: truncation, the parser says so
        return { text: out, repairs };
      }
      out += s + '"';
      i = j + 1;
      afterValue = true;
      continue;
    }
    if (c === 44) {
      const next = skipWsAndComments(t, i + 1);
      const n = t.charCodeAt(next);
      if (n === 125 || n === 93) {
        note("trailing-comma", i, `removed a trailing comma before ${t[next]}`);
        i++;
        continue;
      }
      out += ",";
      i++;
      afterValue = false;
      continue;
    }
    if (c === 123 || c === 91) {
      stack.push(c === 123 ? 125 : 93);
      out += t[i++];
      afterValue = false;
      continue;
    }
    if (c === 125 || c === 93) {
      if (stack.length > 0 && stack[stack.length - 1] === c) stack.pop();
      out += t[i++];
      afterValue = true;
      continue;
    }
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      let j = i;
      while (j < t.length && /[A-Za-z0-9_]/.test(t[j]!)) j++;
      const word = t.slice(i, j);
      const py = PY[word];
      if (py !== undefined) {
        note("python-literal", i, `wrote ${word} as ${py}`);
        out += py;
      } else out += word;
      i = j;
      afterValue = true;
      continue;
    }
    out += t[i++];
    afterValue = c !== 58; // a number (or anything else) after a colon ends a value; a colon itself does not
  }
  // one closing brace missing at the very end (the root object), after a complete value: a slip, not a cut
  if (stack.length === 1 && stack[0] === 125 && afterValue) {
    note("missing-brace", t.length, "added the missing closing } at the end");
    out = out.replace(/\s*$/, "") + "}";
  }
  return { text: out, repairs };
}
