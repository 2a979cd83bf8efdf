/**
 * Dense texts as a model may write them, for the reader's tests (test/dense-replies.test.ts over the examples,
 * test/dense-corpus.test.ts over the corpus): the same value, laid out with what the reader must take.
 */

/**
 * `text` with spaces around its cells and header names, as a model may write them: after every "," and ";" of a
 * header or table row outside quotes, before every second one, and after the ":" that opens an inline array.
 * Field lines are left alone: their values run to the end of the line.
 */
export function spacedOut(text: string): string {
  let tableInd = -1;
  let flush: boolean | undefined;
  return text
    .split("\n")
    .map((line) => {
      const ind = line.length - line.trimStart().length;
      const header = /^\s*[^\s"]+\[\d+\]\{.*\}:$/.test(line) || /^\s*[^\s"]+\{.*\}: /.test(line);
      // a table's rows are one level in, or (a table at depth 0 whose first row is) flush left to the end
      if (flush === undefined && tableInd === 0 && line.trim() !== "") flush = ind === 0;
      const row = tableInd >= 0 && (ind > tableInd || (tableInd === 0 && flush === true));
      if (!row) {
        tableInd = /\[\d+\]\{.*\}:$/.test(line) ? ind : -1;
        flush = undefined;
      }
      if (!header && !row) return line;
      let out = "";
      let quoted = false;
      let n = 0;
      for (let i = 0; i < line.length; i++) {
        const c = line[i]!;
        if (quoted) {
          out += c;
          if (c === "\\") out += line[++i]!;
          else if (c === '"') quoted = false;
          continue;
        }
        if (c === '"') quoted = true;
        // a row's cells start after its indentation; a field group line's after its ": "
        if ((c === "," || c === ";") && (row || out.includes("}"))) out += (n++ % 2 === 0 ? "" : " ") + c + " ";
        else if (c === "," && header) out += ", ";
        else if (c === ":" && /\[\d+$/.test(out)) out += ": ";
        else out += c;
      }
      return out;
    })
    .join("\n");
}

/**
 * `text` with an empty line before every field line but the first and before every second indented line (rows,
 * items, nested fields). Empty lines only: a line of spaces may be a table row of empty cells.
 */
export function withBlankLines(text: string): string {
  const out: string[] = [];
  text.split("\n").forEach((l, i) => {
    if (i > 0 && (!l.startsWith(" ") || i % 2 === 0)) out.push("");
    out.push(l);
  });
  return out.join("\n");
}
