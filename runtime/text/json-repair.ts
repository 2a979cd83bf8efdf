/**
 * Opt-in repair of the JSON slips models make (`fromModelOutput(text, { repair: true })`): trailing commas,
 * single-quoted strings, Python's `True`/`False`/`None`, `//` and `/* *\/` comments, raw line breaks and tabs
 * inside strings, and one missing closing `}` at the very end. The JSON tokenizer reads them itself in its
 * repair mode (./reader/json.ts), in one pass over the text as the model wrote it, and reports every repair with
 * its line and column there. Anything else stays an error: the repair never guesses at content (an unterminated
 * string, a value cut off mid-way and several missing closers are truncation, which stays INCOMPLETE).
 */
import { readJsonText, type JsonParse } from "./reader/json-value.ts";

/** What `repair: true` fixed: a JSON slip, or a table's or list's miscounted `[N]` (text/count-repair.ts). */
export type JsonRepairKind = "trailing-comma" | "single-quotes" | "python-literal" | "comment" | "raw-control" | "missing-brace" | "count";

export interface JsonRepair {
  kind: JsonRepairKind;
  /** 1-based, in the payload as written. */
  line: number;
  column: number;
  message: string;
}

/**
 * `text` read as `parseJsonExact(text, true)` reads it (exact numbers, positions tracked), the slips above
 * repaired, and the repairs made in the order they stand in the text (a trailing comma is known to be one only at
 * the closer, after any comment between them).
 */
export function parseJsonRepairing(text: string): JsonParse & { repairs: JsonRepair[] } {
  const repairs: JsonRepair[] = [];
  const r = readJsonText(text, { track: true, repair: true, onRepair: (x) => repairs.push(x) });
  repairs.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ...r, repairs };
}
