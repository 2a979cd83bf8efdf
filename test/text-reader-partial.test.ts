/**
 * `reader({ partialText: true })`: text growing inside a string as a model writes it, in JSON and in TOON v4 and
 * dense lines not yet complete (runtime/text/reader/partial-text.ts). Every text event must be the start of the
 * string its pointer ends up holding, with deltas that add up; snapshots show it; results are those of a reader
 * without the option.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { readFileSync } from "node:fs";
import { ToonError } from "../runtime/wire/errors.ts";
import { textReader, type TextReader } from "../runtime/text/reader/text-reader.ts";
import type { ReaderSpec } from "../runtime/text/reader/payload-reader.ts";
import type { StreamEvent, TextEvent } from "../runtime/stream/events.ts";
import { PartialCells, type OpenText } from "../runtime/text/reader/partial-text.ts";
import { compileTextCheck } from "../generator/emit/text.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { denseOf } from "../runtime/text/dense/index.ts";
import { encodeText } from "../runtime/text/encode.ts";
import { OrderList } from "../examples/orders/gen/order-list.ts";
import { LogReport } from "../examples/logs/gen/log-report.ts";
import { ExtractionResult } from "../examples/extraction/gen/extraction-result.ts";
import { ToolCallBatch } from "../examples/tool-calls/gen/tool-call-batch.ts";
import { randomSchema } from "./support/random-schema.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { Rng } from "./support/rng.ts";

type Codec = {
  toText(v: unknown, o?: { layout?: "toon" | "dense" }): string;
  fromModelOutput(r: string): unknown;
  reader(o?: { partialText?: boolean; input?: "reply" | "text" }): TextReader<unknown>;
};

const EXAMPLES: [string, Codec, string][] = [
  ["orders", OrderList as unknown as Codec, "orders/data/order-list.json"],
  ["logs", LogReport as unknown as Codec, "logs/data/log-report.json"],
  ["extraction", ExtractionResult as unknown as Codec, "extraction/data/extraction-result.json"],
  ["tool-calls", ToolCallBatch as unknown as Codec, "tool-calls/data/tool-call-batch.json"],
];

function data(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`../examples/${file}`, import.meta.url), "utf8"));
}

function pieces(text: string, how: number): string[] {
  return how === 1 ? text.split("") : Rng.pieces(text, how);
}

function at(value: unknown, pointer: string): unknown {
  let v = value;
  for (const seg of pointer.split("/").slice(1)) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[seg.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return v;
}

/**
 * Read `parts` with partialText; check each text event against the final value and the snapshot after it. Returns
 * the text events and the outcome (a value, or the ToonError's code).
 */
function readPartial(r: TextReader<unknown>, parts: string[], label: string): { texts: TextEvent[]; out: unknown } {
  const texts: TextEvent[] = [];
  const sofar = new Map<string, string>();
  const snaps: [TextEvent, unknown][] = [];
  let out: unknown;
  try {
    for (const p of parts) {
      let last: TextEvent | undefined;
      for (const e of r.push(p)) {
        if (e.type !== "text") continue;
        assert.equal(e.text, (sofar.get(e.pointer) ?? "") + e.delta, `${label}: ${e.pointer}: the deltas add up to the text`);
        assert.ok(e.delta.length > 0, `${label}: an event says something new`);
        sofar.set(e.pointer, e.text);
        texts.push(e);
        last = e;
      }
      if (last !== undefined) snaps.push([last, r.snapshot({ partialText: true })]);
    }
    out = r.end();
  } catch (e) {
    if (!(e instanceof ToonError)) throw e;
    return { texts, out: e.code };
  }
  for (const e of texts) {
    const final = at(out, e.pointer);
    assert.equal(typeof final, "string", `${label}: ${e.pointer} (${e.path}) ends up a string, not ${JSON.stringify(final)}`);
    assert.ok((final as string).startsWith(e.text), `${label}: ${e.pointer}: ${JSON.stringify(e.text)} starts ${JSON.stringify(final)}`);
  }
  // the snapshot after a piece holds the last string told, while it is open (short of its final text); one that
  // ended in the piece is shown whole once the value holding it is told
  for (const [e, snap] of snaps) {
    const shown = at(snap, e.pointer);
    const final = at(out, e.pointer);
    const ok = e.text !== final ? shown === e.text : shown === e.text || shown === undefined;
    assert.ok(ok, `${label}: snapshot at ${e.pointer}: ${JSON.stringify(shown)}, told ${JSON.stringify(e.text)}`);
  }
  return { texts, out };
}

function replies(c: Codec, value: unknown): [string, string][] {
  const dense = c.toText(value, { layout: "dense" });
  const toon = c.toText(value);
  return [
    ["dense, bare", dense],
    ["dense, fenced", `Here it is:\n\n\`\`\`toon\n${dense}\n\`\`\`\n`],
    ["TOON, fenced", `\`\`\`toon\n${toon}\n\`\`\``],
    ["TOON, bare", `<think>\nok\n</think>\n${toon}`],
    ["JSON, fenced", `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``],
    ["JSON, in prose", `Result: ${JSON.stringify(value)} (done)`],
  ];
}

test("partialText: every example reply in pieces tells strings as they grow, each the start of its final value", () => {
  const told = new Map<string, number>();
  for (const [name, c, file] of EXAMPLES) {
    const value = data(file);
    for (const [how, reply] of replies(c, value)) {
      const expected = c.fromModelOutput(reply);
      for (const split of [1, 3, 8]) {
        const { texts, out } = readPartial(c.reader({ partialText: true }), pieces(reply, split), `${name}, ${how}, pieces ${split}`);
        assert.ok(isDeepStrictEqual(out, expected), `${name}, ${how}, pieces ${split}: the value is fromModelOutput's`);
        told.set(`${name}, ${how}`, (told.get(`${name}, ${how}`) ?? 0) + texts.length);
      }
      // without the option: no text events
      const plain = c.reader();
      for (const p of pieces(reply, 3)) for (const e of plain.push(p)) assert.notEqual(e.type, "text");
    }
  }
  // the extraction documents' text, in every layout, and the logs' messages, grow as they come
  for (const how of ["dense, bare", "dense, fenced", "TOON, fenced", "TOON, bare", "JSON, fenced", "JSON, in prose"]) {
    assert.ok(told.get(`extraction, ${how}`)! > 50, `extraction, ${how}: ${told.get(`extraction, ${how}`)} text events`);
    assert.ok(told.get(`logs, ${how}`)! > 0, `logs, ${how}: no text events`);
  }
});

test("partialText: a long string in a field line, a table row's middle cell and a list item, quoted and raw", () => {
  const schema = {
    type: "object",
    required: ["title", "rows", "notes"],
    properties: {
      title: { type: "string" },
      rows: { type: "array", items: { type: "object", required: ["id", "note", "n"], properties: { id: { type: "integer" }, note: { type: "string" }, n: { type: "integer" } } } },
      notes: { type: "array", items: { type: "string" } },
      when: { type: "string", format: "date" },
    },
  };
  const ir = schemaToIR(schema, { source: "partial.schema.json", baseDir: process.cwd() });
  const { check, hints } = compileTextCheck(ir);
  const spec: ReaderSpec = { name: ir.name, descriptor: ir, check, hints };
  const long = "a long title, with commas, \"quotes\" and a\\backslash ".repeat(40);
  const value = { title: long, rows: [{ id: 1, note: "first note, quoted", n: 2 }, { id: 2, note: "second note raw", n: 3 }], notes: ["one note", "two, quoted"], when: "2026-12-05" };
  for (const text of [denseOf(ir).toText(value), encodeText(value), JSON.stringify(value)]) {
    const reply = "```" + (text.startsWith("{") ? "json" : "toon") + "\n" + text + "\n```";
    for (const split of [1, 2, 5]) {
      const { texts, out } = readPartial(textReader(spec, { partialText: true }), pieces(reply, split), `${text.slice(0, 20)} pieces ${split}`);
      assert.deepEqual(out, value);
      const pointers = new Set(texts.map((e) => e.pointer));
      for (const p of ["/title", "/rows/0/note", "/rows/1/note", "/notes/0", "/notes/1"]) assert.ok(pointers.has(p), `${text.slice(0, 20)} pieces ${split}: no text at ${p} (${[...pointers]})`);
      assert.ok(!pointers.has("/when") && !pointers.has("/rows/0/id"), "a date and a number are no text to show");
      const title = texts.filter((e) => e.pointer === "/title");
      assert.equal(title[0]!.path, "title");
      assert.ok(title.length > 100 / split, `the title grows piece by piece (${title.length} events)`);
    }
  }
});

test("partialText: random schemas' values, dense and TOON v4 in random pieces: every text event starts its final string", () => {
  let events = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const ir = schemaToIR(randomSchema(seed), { source: `random-${seed}.schema.json`, baseDir: process.cwd() });
    const { check, hints } = compileTextCheck(ir);
    const spec: ReaderSpec = { name: ir.name, descriptor: ir, check, hints };
    for (let k = 0; k < 4; k++) {
      const value = arbitrary(ir, seed * 1000 + k);
      for (const text of [denseOf(ir).toText(value), encodeText(value)]) {
        const whole = readPartial(textReader(spec, { input: "text" }), [text], `random ${seed}/${k} whole`).out;
        const r = readPartial(textReader(spec, { input: "text", partialText: true }), pieces(text, seed + k), `random ${seed}/${k}:\n${text.slice(0, 300)}`);
        assert.ok(isDeepStrictEqual(r.out, whole), `random ${seed}/${k}: partialText changes nothing read`);
        events += r.texts.length;
      }
    }
  }
  assert.ok(events > 100, `${events} text events`);
});

test("partialText: a line followed by what it gains: the plan asked once, blanks at a raw cell's end held, escapes decoded", () => {
  const cells = new PartialCells();
  const plan = { keys: ["rows", 0], start: 2, delim: 44, cells: [["id"], ["note"]] };
  let asked = 0;
  const out: OpenText[] = [];
  const line = "  7,  hello   world  ,x";
  for (const ch of line) cells.feed(ch, 5, (l) => (asked++, l.length < 3 ? undefined : plan), out);
  assert.equal(asked, 3, "asked again only while it cannot tell (1 and 2 characters), then once");
  const note = out.filter((o) => o.keys[2] === "note");
  assert.equal(note.map((o) => o.delta).join(""), "hello   world");
  assert.equal(note[note.length - 1]!.text, "hello   world");
  assert.ok(note.every((o) => !o.text.endsWith(" ")), "blanks at the end are not told before what follows them");
  assert.deepEqual(out.filter((o) => o.keys[2] === "id").map((o) => o.text), ["7"]);
  // another line: everything starts again; escapes split across pieces
  out.length = 0;
  for (const piece of ['  "a\\u00', 'e9\\', '"b', 'c\\n']) cells.feed(piece, 6, () => plan, out);
  assert.deepEqual(out.map((o) => o.text), ["a", "aé", 'aé"b', 'aé"bc\n']);
  assert.equal(cells.current()?.text, 'aé"bc\n');
  // a raw null is no text
  out.length = 0;
  for (const ch of "  null,x") cells.feed(ch, 7, () => plan, out);
  assert.deepEqual(out.map((o) => o.keys[2]), ["note"], "the id cell's null was never told");
});

test("partialText: readStream yields the text events too, from an async iterable of deltas", async () => {
  const value = data("extraction/data/extraction-result.json");
  const c = ExtractionResult;
  const reply = "```toon\n" + c.toText(value as never, { layout: "dense" }) + "\n```";
  async function* source(): AsyncGenerator<string> {
    for (const p of Rng.pieces(reply, 4)) yield p;
  }
  let texts = 0;
  let last: StreamEvent | undefined;
  for await (const e of c.readStream(source(), { partialText: true })) {
    if (e.type === "text") texts++;
    last = e as StreamEvent;
  }
  assert.ok(texts > 50, `${texts} text events`);
  assert.equal(last?.type, "value");
  assert.deepEqual((last as { value: unknown }).value, c.fromModelOutput(reply));
});
