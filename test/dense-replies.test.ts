// Dense text as a model's reply really comes (runtime/text/model-output.ts over the dense reader): prose and
// fences around it, CRLF line ends, spaces and tabs left at line ends; and a reply cut off anywhere inside a
// table row is INCOMPLETE (the dense reader ran into the end of the text), never TEXT_SYNTAX or INVALID_VALUE
// about the half-written cell.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { REPO } from "./support/gen.ts";
import { catchToon } from "./support/toon-error.ts";
import { EXAMPLES, exampleCodec } from "../bench/dense-cases.ts";
import { spacedOut, withBlankLines } from "./support/model-replies.ts";

interface Prompted {
  toText(v: unknown, o?: { layout?: "dense" | "toon" }): string;
  fromText(t: string, o?: { layout?: "dense" | "toon" }): unknown;
  fromModelOutput(t: string): unknown;
}

async function examples(): Promise<{ name: string; codec: Prompted; value: unknown; dense: string }[]> {
  const out = [];
  for (const [dir, base, name] of EXAMPLES) {
    const codec = (await exampleCodec(dir, base, name)) as unknown as Prompted;
    const value = JSON.parse(readFileSync(path.join(REPO, "examples", dir, "data", `${base}.json`), "utf8"));
    out.push({ name: dir, codec, value, dense: codec.toText(value, { layout: "dense" }) });
  }
  return out;
}

/** Where the flush rows of a table that ends the document begin (its header at column 0), or -1. */
function flushRowsStart(dense: string): number {
  const lines = dense.split("\n");
  let at = 0;
  for (let i = 0; i < lines.length - 1; i++) {
    at += lines[i]!.length + 1;
    if (/^[^\s"]*\[\d+\]\{.*\}:$/.test(lines[i]!) && !lines[i + 1]!.startsWith(" ")) return at;
  }
  return -1;
}

test("dense replies: fences, prose, CRLF and blanks at line ends read as the value", async () => {
  for (const { name, codec, value, dense } of await examples()) {
    const spaced = dense.split("\n").map((l, i) => l + (i % 2 === 0 ? "  " : "\t")).join("\n");
    const replies = {
      fenced: "```toon\n" + dense + "\n```",
      prose: "Here is the result:\n\n```\n" + dense + "\n```\n\nAnything else?",
      crlf: ("Sure.\n```toon\n" + dense + "\n```\n").replace(/\n/g, "\r\n"),
      blanks: "```toon\n" + spaced + "\n```",
      unfenced: "Result:\n" + dense,
    };
    for (const [how, reply] of Object.entries(replies)) assert.deepEqual(codec.fromModelOutput(reply), value, `${name}, ${how}`);
    assert.deepEqual(codec.fromText(spaced, { layout: "dense" }), value, `${name}: fromText with blanks at line ends`);
  }
});

test("dense replies: a reply cut off inside a table row is INCOMPLETE, wherever the cut falls", async () => {
  for (const { name, codec, dense } of await examples()) {
    if (name === "tool-calls") continue; // its table is plain TOON v4 too: a cut in its last cell can read as TOON (below)
    let cuts = 0;
    // every third position inside a row line (not at its end): an indented one, or one of the flush rows of the
    // table that ends the document (docs/TEXT.md §2), enough to hit every kind of cell
    const flushFrom = flushRowsStart(dense);
    for (let n = 1; n < dense.length; n += 3) {
      const lineStart = dense.lastIndexOf("\n", n - 1) + 1;
      const flush = flushFrom >= 0 && lineStart >= flushFrom;
      if ((!flush && !dense.startsWith("  ", lineStart)) || n - lineStart < (flush ? 1 : 2) || dense[n] === "\n") continue;
      const e = catchToon(() => codec.fromModelOutput("Result:\n" + dense.slice(0, n)));
      assert.equal(e.code, "INCOMPLETE", `${name} cut at ${n} (...${JSON.stringify(dense.slice(Math.max(0, n - 40), n))}): ${e.message}`);
      // the pointer of what was being read where the text ran out: the table, or a row or cell in it
      assert.match(e.path, /^\/[^/]+(\/\d+(\/|$)|$)/, `${name} cut at ${n}: path ${e.path}`);
      cuts++;
    }
    assert.ok(cuts > 500, `${name}: ${cuts} cuts`);
  }
  // a fenced block that was closed is no cut: the same half row is the error it is
  const { codec, dense } = (await examples()).find((x) => x.name === "orders")!;
  const half = dense.slice(0, dense.indexOf("\n", dense.indexOf("\n") + 1) - 20);
  assert.notEqual(catchToon(() => codec.fromModelOutput("```toon\n" + half + "\n```")).code, "INCOMPLETE");
});

test("dense replies: lines indented with tabs or an odd number of spaces are TEXT_SYNTAX about the indentation at that line, not a short table", async () => {
  for (const { name, codec, dense } of await examples()) {
    const lines = dense.split("\n");
    // the first indented line (a row, an item, a nested field), or the first flush row of a table that ends the
    // document: the first place a model's indentation shows
    const flush = flushRowsStart(dense);
    const i = flush >= 0 ? dense.slice(0, flush).split("\n").length - 1 : lines.findIndex((l) => l.startsWith("  "));
    assert.ok(i > 0, `${name}: an indented line or a flush row`);
    for (const [how, lead, column, message] of [
      ["a tab", "\t", 1, /a tab in the indentation/],
      ["a space and a tab", " \t", 2, /a tab in the indentation/],
      ["one space", " ", 2, /unexpected indentation \(1 space; 2 per level\)/],
      ["three spaces", "   ", 4, /unexpected indentation \(3 spaces; 2 per level\)/],
    ] as const) {
      const bad = [...lines.slice(0, i), lead + lines[i]!.replace(/^ +/, ""), ...lines.slice(i + 1)].join("\n");
      for (const [via, read] of [
        ["fromText", () => codec.fromText(bad, { layout: "dense" })],
        ["fromModelOutput", () => codec.fromModelOutput("```toon\n" + bad + "\n```")],
      ] as const) {
        const e = catchToon(read);
        assert.equal(e.code, "TEXT_SYNTAX", `${name}, ${how}, ${via}: ${e.message}`);
        assert.match(e.message, message, `${name}, ${how}, ${via}`);
        assert.equal(e.line, i + 1 + (via === "fromModelOutput" ? 1 : 0), `${name}, ${how}, ${via}: line`);
        assert.equal(e.column, column, `${name}, ${how}, ${via}: column`);
        assert.notEqual(e.path, undefined);
      }
    }
  }
});

test("dense replies: spaces around cells and header names are not part of them (TOON decoders trim them too)", async () => {
  for (const { name, codec, value, dense } of await examples()) {
    const spaced = spacedOut(dense);
    assert.notEqual(spaced, dense, name);
    assert.ok((spaced.match(/, /g) ?? []).length > 20, `${name}: ${spaced.slice(0, 200)}`);
    assert.deepEqual(codec.fromText(spaced, { layout: "dense" }), value, `${name}: ${spaced.slice(0, 300)}`);
    assert.deepEqual(codec.fromModelOutput("```toon\n" + spaced + "\n```"), value, `${name}, fromModelOutput`);
  }
  // a quoted string keeps its spaces; a raw one with a space inside keeps that space
  const orders = (await examples())[0]!;
  const one = { orders: [(orders.value as { orders: Record<string, unknown>[] }).orders[0]!] };
  const o = one.orders[0]! as { note?: string; customer: { name: string } };
  o.note = " padded ";
  o.customer.name = "Ann Lee";
  const text = orders.codec.toText(one, { layout: "dense" });
  assert.match(text, /,Ann Lee,/);
  assert.match(text, /," padded "$/m);
  assert.deepEqual(orders.codec.fromText(spacedOut(text), { layout: "dense" }), one);
});

test("dense replies: blank lines between sections and between rows are skipped, and still count in an error's line", async () => {
  for (const { name, codec, value, dense } of await examples()) {
    const blanked = withBlankLines(dense).split("\n");
    const text = blanked.join("\n");
    assert.ok(blanked.length > dense.split("\n").length + 2, name);
    assert.deepEqual(codec.fromText(text, { layout: "dense" }), value, name);
    assert.deepEqual(codec.fromModelOutput("```toon\n" + text + "\n```"), value, `${name}, fromModelOutput`);
    // blank lines before the value, too (a fenced block that starts with one)
    assert.deepEqual(codec.fromText("\n\n" + text, { layout: "dense" }), value, `${name}, leading blank lines`);
    assert.deepEqual(codec.fromText("\n" + text), value, `${name}, leading blank line, layout detected`);
    assert.deepEqual(codec.fromModelOutput("```toon\n\n" + text + "\n```"), value, `${name}, fromModelOutput, leading blank line`);
    // a bad cell on the last line: the error names that line of the text with its blank lines
    const last = blanked.length - 1;
    const bad = [...blanked.slice(0, last), blanked[last]!.replace(/[^,]*$/, '"unterminated')].join("\n");
    const e = catchToon(() => codec.fromText(bad, { layout: "dense" }));
    assert.equal(e.line, last + 1, `${name}: ${e.message}`);
    assert.equal(catchToon(() => codec.fromText("\n\n" + bad, { layout: "dense" })).line, last + 3, `${name}: after two leading blank lines`);
  }
});

test("dense replies: a reply cut off anywhere after its first line is INCOMPLETE: inside a key, a header, after a colon", async () => {
  for (const { name, codec, dense } of await examples()) {
    // (tool-calls: its last cell, a date cut short, reads as a string that only the schema check refuses; a
    // reply cut inside the last cell of a table's last row is not detectable unfenced, in TOON as in dense)
    const end = name === "tool-calls" ? dense.lastIndexOf(",") : dense.length;
    const counts = new Map<string, number>();
    for (let n = dense.indexOf("\n") + 1; n < end; n++) {
      const e = catchToon(() => codec.fromModelOutput("Result:\n" + dense.slice(0, n)));
      assert.equal(e.code, "INCOMPLETE", `${name} cut at ${n} (...${JSON.stringify(dense.slice(Math.max(0, n - 40), n))}): ${e.message}`);
      const at = dense[n - 1] === "\n" ? "line end" : /[{[,]/.test(dense[n - 1]!) ? "header or cell separator" : "inside a word";
      counts.set(at, (counts.get(at) ?? 0) + 1);
    }
    assert.ok((counts.get("inside a word") ?? 0) > 300, `${name}: ${JSON.stringify([...counts])}`);
  }
});
