/**
 * Opt-in repair of a miscounted `[N]` in a model's reply (`fromModelOutput(reply, { repair: true })`): a table or
 * list whose header declares N rows or items where the model wrote another number of them. Only in a payload
 * that is complete (a closed fence, or text that more of the reply follows): there a count that is short is a
 * slip, not a cut (a payload that runs to the end of the reply stays INCOMPLETE). The header's count is set to
 * the rows or items under it and the text is read again, as strictly as before; the repair is reported with the
 * header's line and column. Line-based, so tables and lists of either text layout; an inline array's count
 * (`tags[2]: a,b,c`, `[2:a;b;c]`) is left to the strict reader.
 */
import type { JsonRepair } from "./json-repair.ts";

/**
 * A table, keyed table or list header alone on its line: indentation, a key (quoted or not; none at the root),
 * `[N]` (`[N:]` for a keyed table, with a TOON delimiter mark), an optional field list, and the colon that ends
 * the line. One pass, no nested quantifiers.
 */
const HEADER = /^( *)("(?:[^"\\]|\\.)*"|[^\s"[{:]*)\[(\d+)(:?)[|\t]?\](\{.*\})?:$/;

/** Counts repaired in one payload at most (each is one more strict read of it). */
export const MAX_COUNT_REPAIRS = 8;

/**
 * The payload `text` with the count of the header the error at `line` (1-based, in `text`) is about set to what
 * is under it, or undefined when no header there declares `declared` over another number of rows or items.
 */
export function repairCount(text: string, line: number, declared: number): { text: string; repair: JsonRepair } | undefined {
  const lines = text.split("\n");
  // the nearest header at or above the error's line that declares that count and has another under it (one that
  // has it is right: the error is about an array further out)
  for (let i = Math.min(line - 1, lines.length - 1); i >= 0; i--) {
    const h = HEADER.exec(lines[i]!.trimEnd());
    if (h === null || Number(h[3]) !== declared) continue;
    const ind = h[1]!.length;
    const table = h[5] !== undefined;
    const keyed = h[4] === ":";
    const has = countUnder(lines, i, ind, table);
    if (has === declared) continue;
    const at = ind + h[2]!.length + 1; // after "[" (as a 1-based column: the "[" itself)
    const fixed = lines[i]!.slice(0, at) + has + lines[i]!.slice(at + h[3]!.length);
    lines[i] = fixed;
    const [kind, what] = keyed ? ["keyed table", "entries"] : table ? ["table", "rows"] : ["list", "items"];
    return {
      text: lines.join("\n"),
      repair: { kind: "count", line: i + 1, column: at, message: `the ${kind} declares ${declared} ${what} and has ${has}: read as [${has}${keyed ? ":" : ""}]` },
    };
  }
  return undefined;
}

/**
 * Rows of a table (lines one level in; flush left, to the end of the payload, for a table at depth 0 whose first
 * row is: docs/TEXT.md §2) or items of a list (`-` lines one level in) under the header at `i`.
 */
function countUnder(lines: string[], i: number, ind: number, table: boolean): number {
  let n = 0;
  if (table && ind === 0) {
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === "") j++;
    if (j < lines.length && lines[j]!.charCodeAt(0) !== 32) {
      for (; j < lines.length; j++) if (lines[j]!.trim() !== "") n++;
      return n;
    }
  }
  for (let j = i + 1; j < lines.length; j++) {
    const l = lines[j]!;
    let k = 0;
    while (k < l.length && l.charCodeAt(k) === 32) k++;
    // an empty line is blank; a line of spaces one level in is a table row of empty cells, as the reader takes it
    if (k === l.length && !(table && k === ind + 2)) continue;
    if (k <= ind) break;
    if (k === ind + 2 && (table || l.charCodeAt(k) === 45)) n++;
  }
  return n;
}
