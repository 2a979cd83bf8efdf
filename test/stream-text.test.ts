// The stream encoder's text mode (`StreamEncoder.text`, runtime/stream/text.ts): a model's reply or bare text,
// dense, TOON v4 or JSON, fed in small pieces, made into frames as its values complete. The frames decode to
// exactly the value `fromText` / `fromModelOutput` reads; rows go out as their lines are read; an error stops the
// frames after the rows before it; a reply cut off leaves the receiver INCOMPLETE.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError, type StreamCodec, type StreamEvent } from "../runtime/index.ts";
import { OrderList } from "../examples/orders/gen/order-list.ts";
import { LogReport } from "../examples/logs/gen/log-report.ts";
import { ExtractionResult } from "../examples/extraction/gen/extraction-result.ts";
import { Rng } from "./support/rng.ts";
import { compileSchema, REPO, suiteDir } from "./support/gen.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { INLINE_SCHEMAS } from "./support/schemas.ts";
import { sameDecoded } from "./support/same-value.ts";

interface TextCodec {
  toText(v: any, options?: { layout?: "dense" }): string;
  fromText(text: string, options?: { layout?: "dense" }): any;
  fromModelOutput(output: string): any;
  stream: StreamCodec<any, any>;
}

const readData = (rel: string): any => JSON.parse(readFileSync(path.join(REPO, "examples", rel), "utf8"));

const EXAMPLES: { name: string; codec: TextCodec; value: any }[] = [
  { name: "orders", codec: OrderList as unknown as TextCodec, value: readData("orders/data/order-list.json") },
  { name: "logs", codec: LogReport as unknown as TextCodec, value: readData("logs/data/log-report.json") },
  { name: "extraction", codec: ExtractionResult as unknown as TextCodec, value: readData("extraction/data/extraction-result.json") },
];

type Layout = "dense" | "toon" | "json";

function payloadOf(codec: TextCodec, value: unknown, layout: Layout): string {
  if (layout === "json") return JSON.stringify(value, null, 2);
  return layout === "dense" ? codec.toText(value, { layout: "dense" }) : codec.toText(value);
}

/** A reply as a model writes it: a line of prose, the payload in its fence, a line of prose after it. */
function replyOf(payload: string, layout: Layout): string {
  return `Here is what you asked for.\n\n\`\`\`${layout === "json" ? "json" : "toon"}\n${payload}\n\`\`\`\n\nAnything else?`;
}

/** `text` in pieces of 1 to 8 characters (seeded). */
const pieces = Rng.pieces;

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof ToonError ? e.code : `not a ToonError: ${String(e)}`;
  }
  return undefined;
};

/** Feed `parts` to a new encoder (then `end()` unless `end` is false), every frame straight into a decoder. */
function feed(codec: TextCodec, parts: readonly string[], options: { input?: "reply" | "text"; layout?: Layout } = {}, end = true) {
  const enc = codec.stream.encoder();
  const dec = codec.stream.decoder();
  const events: { event: StreamEvent<any, any>; fed: number }[] = [];
  let fed = 0;
  let doneAt: number | undefined;
  const take = (frames: Uint8Array[]): void => {
    for (const f of frames) for (const event of dec.push(f)) events.push({ event, fed });
  };
  for (const p of parts) {
    fed += p.length;
    take(enc.text(p, options));
    if (enc.done && doneAt === undefined) doneAt = fed;
  }
  if (end) take(enc.end());
  return { enc, dec, events, doneAt };
}

test("stream text: the examples' dense, TOON v4 and JSON texts and replies, in 1-8 character pieces, decode to what fromText / fromModelOutput reads", () => {
  let seed = 1;
  for (const ex of EXAMPLES) {
    for (const layout of ["dense", "toon", "json"] as const) {
      const payload = payloadOf(ex.codec, ex.value, layout);
      const reply = replyOf(payload, layout);
      const cases: { input: "reply" | "text"; text: string; expected: unknown }[] = [{ input: "reply", text: reply, expected: ex.codec.fromModelOutput(reply) }];
      if (layout !== "json") cases.push({ input: "text", text: payload, expected: ex.codec.fromText(payload, layout === "dense" ? { layout: "dense" } : undefined) });
      for (const c of cases) {
        for (let round = 0; round < 3; round++) {
          const label = `${ex.name} ${layout} ${c.input} seed ${seed}`;
          const r = feed(ex.codec, pieces(c.text, seed++), { input: c.input });
          assert.ok(r.enc.done, label);
          // a reply is complete when its fence closes, before its last line of prose; bare text at end()
          if (c.input === "reply") {
            const fenceEnd = reply.lastIndexOf("```") + 3; // the closing fence's line break
            assert.ok(r.doneAt !== undefined && r.doneAt > fenceEnd && r.doneAt <= fenceEnd + 8, `${label}: complete after ${r.doneAt} characters`);
          } else assert.equal(r.doneAt, undefined, label);
          assert.deepStrictEqual(r.dec.end(), c.expected, label);
          assert.equal(r.events[r.events.length - 1]!.event.type, "value", label);
        }
      }
    }
  }
});

test("stream text: a layout given in the options, and the frames onFrame receives are the ones returned", () => {
  const ex = EXAMPLES[0]!;
  const payload = payloadOf(ex.codec, ex.value, "dense");
  const seen: Uint8Array[] = [];
  const enc = ex.codec.stream.encoder({ onFrame: (f) => seen.push(f) });
  const returned: Uint8Array[] = [];
  for (const p of pieces(payload, 5)) returned.push(...enc.text(p, { input: "text", layout: "dense" }));
  returned.push(...enc.end());
  assert.deepStrictEqual(seen, returned);
  assert.equal(returned.length, 1 + ex.value.orders.length + 2, "the header, one VALUE per order, END orders, END root");
  assert.deepStrictEqual(ex.codec.stream.decode(returned), ex.codec.fromText(payload, { layout: "dense" }));
});

test("stream text: each order goes out as its row's line is read, not at the end", () => {
  const ex = EXAMPLES[0]!;
  const n = ex.value.orders.length;
  // dense: one line per order; its frame comes with the piece that brings the line's break
  const dense = replyOf(payloadOf(ex.codec, ex.value, "dense"), "dense");
  const start = dense.indexOf("```toon\n") + 8;
  const rowEnds: number[] = [];
  let at = dense.indexOf("\n", start); // the header line
  for (let k = 0; k < n; k++) rowEnds.push((at = dense.indexOf("\n", at + 1)));
  for (const seed of [11, 12, 13]) {
    const r = feed(ex.codec, pieces(dense, seed));
    const rows = r.events.filter((e) => e.event.type === "element" && e.event.path === "orders[]");
    assert.deepEqual(
      rows.map((e) => e.event.pointer),
      Array.from({ length: n }, (_, k) => `/orders/${k}`),
    );
    rows.forEach((e, k) => {
      assert.ok(e.fed > rowEnds[k]! && e.fed <= rowEnds[k]! + 8, `seed ${seed}: order ${k} arrived after ${e.fed} characters; its line ends at ${rowEnds[k]}`);
      assert.deepStrictEqual((e.event as { value: unknown }).value, ex.value.orders[k]);
    });
    // the line items travel inside their order's frame: no events of their own
    assert.ok(!r.events.some((e) => /^\/orders\/\d+\/items/.test(e.event.pointer)));
  }
  // TOON v4: a list item is complete when the next one begins (its `- ` line)
  const toon = replyOf(payloadOf(ex.codec, ex.value, "toon"), "toon");
  const itemStarts: number[] = [];
  for (let i = toon.indexOf("\n  - "); i >= 0; i = toon.indexOf("\n  - ", i + 1)) itemStarts.push(i + 1);
  assert.equal(itemStarts.length, n);
  const r = feed(ex.codec, pieces(toon, 21));
  const rows = r.events.filter((e) => e.event.type === "element" && e.event.path === "orders[]");
  assert.equal(rows.length, n);
  for (let k = 0; k + 1 < n; k++) {
    const lineEnd = toon.indexOf("\n", itemStarts[k + 1]!);
    assert.ok(rows[k]!.fed > lineEnd && rows[k]!.fed <= lineEnd + 8, `order ${k} arrived after ${rows[k]!.fed} characters; order ${k + 1}'s first line ends at ${lineEnd}`);
  }
  assert.ok(rows[n - 1]!.fed < toon.length, "the last order arrives when the fence closes, before the reply is over");
});

test("stream text: a bad cell in row 3 throws from text() after rows 0-2 went out; the receiver holds exactly those rows", () => {
  const ex = EXAMPLES[0]!;
  const lines = payloadOf(ex.codec, ex.value, "dense").split("\n");
  lines[4] = lines[4]!.replace(/\],([0-9.]+),/, "],12x,"); // order 3's total
  for (const [input, text] of [
    ["reply", replyOf(lines.join("\n"), "dense")],
    ["text", lines.join("\n")],
  ] as const) {
    const whole = codeOf(() => (input === "reply" ? ex.codec.fromModelOutput(text) : ex.codec.fromText(text, { layout: "dense" })));
    assert.equal(whole, "INVALID_VALUE");
    const enc = ex.codec.stream.encoder();
    const dec = ex.codec.stream.decoder();
    let error: ToonError | undefined;
    let fed = 0;
    for (const p of pieces(text, 31)) {
      try {
        for (const f of enc.text(p, { input })) dec.push(f);
      } catch (e) {
        error = e as ToonError;
        break;
      }
      fed += p.length;
    }
    assert.ok(error instanceof ToonError, input);
    assert.equal(error.code, "INVALID_VALUE");
    assert.equal(error.path, "/orders/3/total");
    assert.equal(error.line, input === "reply" ? 8 : 5, "lines count from the reply's (or the text's) start");
    assert.equal(error.column, lines[4]!.indexOf("12x") + 1);
    const lineEnd = text.indexOf("\n", text.indexOf("12x"));
    assert.ok(fed <= lineEnd && fed + 8 > lineEnd, `thrown by the call that brought the bad line's break (after ${fed} characters; the line ends at ${lineEnd})`);
    assert.deepStrictEqual(dec.snapshot(), { orders: ex.value.orders.slice(0, 3) });
    assert.equal(codeOf(() => dec.end()), "INCOMPLETE");
    // the feed is over: the same error again, and no frames
    assert.throws(() => enc.text("more"), (e) => e === error);
    assert.throws(() => enc.end(), (e) => e === error);
    assert.equal(enc.done, false);
  }
  // the whole text in one call: the rows before the bad one completed in the call that throws; onFrame has them
  const seen: Uint8Array[] = [];
  const enc = ex.codec.stream.encoder({ onFrame: (f) => seen.push(f) });
  assert.equal(codeOf(() => enc.text(lines.join("\n"), { input: "text" })), "INVALID_VALUE");
  const dec = ex.codec.stream.decoder();
  for (const f of seen) dec.push(f);
  assert.deepStrictEqual(dec.snapshot(), { orders: ex.value.orders.slice(0, 3) });
});

test("stream text: a reply cut off leaves the receiver INCOMPLETE with the orders that were whole", () => {
  const ex = EXAMPLES[0]!;
  const reply = replyOf(payloadOf(ex.codec, ex.value, "dense"), "dense");
  // cut in the middle of order 10's line
  const start = reply.indexOf("```toon\n") + 8;
  let at = reply.indexOf("\n", start);
  for (let k = 0; k < 10; k++) at = reply.indexOf("\n", at + 1);
  const cut = reply.slice(0, at + 20);
  const r = feed(ex.codec, pieces(cut, 41), {}, false);
  assert.equal(r.enc.done, false);
  assert.deepStrictEqual(r.dec.snapshot(), { orders: ex.value.orders.slice(0, 10) });
  assert.equal(codeOf(() => r.dec.end()), "INCOMPLETE");
  // end() says the reply is over: the reader's INCOMPLETE (the fence never closed), and no frames
  assert.throws(() => r.enc.end(), (x: unknown) => x instanceof ToonError && x.code === "INCOMPLETE" && /never closed/.test(x.message));
  assert.deepStrictEqual(r.dec.snapshot(), { orders: ex.value.orders.slice(0, 10) });
});

test("stream text: the rest of a reply after its payload makes no frames; text() after end(), or on a root with frames, is an error", () => {
  const ex = EXAMPLES[0]!;
  const value = { orders: ex.value.orders.slice(0, 2) };
  const reply = replyOf(payloadOf(ex.codec, value, "dense"), "dense");
  const enc = ex.codec.stream.encoder();
  const frames = enc.text(reply);
  assert.ok(enc.done);
  assert.deepStrictEqual(enc.text("\n\nAnd here is another block:\n```toon\norders[0]:\n```\n"), []);
  assert.deepStrictEqual(enc.end(), [], "the fence closed the value: end() has nothing to send");
  assert.deepStrictEqual(ex.codec.stream.decode(frames), value);
  assert.equal(codeOf(() => enc.text("more")), "INVALID_VALUE");
  assert.equal(codeOf(() => enc.end()), "INVALID_VALUE");
  // the text feeds the whole value: not a root that already has frames
  const e2 = ex.codec.stream.encoder();
  e2.set("/orders/0", value.orders[0]);
  assert.equal(codeOf(() => e2.text("orders[1]")), "INVALID_VALUE");
  // options and deltas are checked
  assert.equal(codeOf(() => ex.codec.stream.encoder().text("x", { input: "html" as "text" })), "CONFIG_ERROR");
  assert.equal(codeOf(() => ex.codec.stream.encoder().text("x", { layout: "yaml" as "toon" })), "CONFIG_ERROR");
  assert.equal(codeOf(() => ex.codec.stream.encoder().text(42 as unknown as string)), "INVALID_VALUE");
  // a reply with no payload at all: NO_PAYLOAD at end()
  const e3 = ex.codec.stream.encoder();
  assert.deepStrictEqual(e3.text("I cannot help with that."), []);
  assert.equal(codeOf(() => e3.end()), "NO_PAYLOAD");
});

test("stream text: an empty TOON cell of an optional property is absent in a reply, as fromModelOutput reads it", async () => {
  const c = await compileSchema(
    { type: "object", properties: { rows: { type: "array", items: { type: "object", properties: { a: { type: "string" }, c: { type: "string" } }, required: ["a"] } } }, required: ["rows"] },
    suiteDir("stream-text-fill"),
    "optional",
  );
  const codec = c.codec as unknown as TextCodec;
  // (a `|` delimiter: TOON v4, not dense, where an empty cell is the empty string unless it is model output)
  const toon = "rows[2|]{a|c}:\n  x|\n  y|z";
  assert.deepStrictEqual(codec.fromText(toon), { rows: [{ a: "x", c: "" }, { a: "y", c: "z" }] });
  const reply = replyOf(toon, "toon");
  assert.deepStrictEqual(codec.fromModelOutput(reply), { rows: [{ a: "x" }, { a: "y", c: "z" }] });
  assert.deepStrictEqual(feed(codec, pieces(reply, 51)).dec.end(), { rows: [{ a: "x" }, { a: "y", c: "z" }] });
  assert.deepStrictEqual(feed(codec, pieces(toon, 52), { input: "text" }).dec.end(), { rows: [{ a: "x", c: "" }, { a: "y", c: "z" }] });
});

test("stream text: a root array, and a root member whose inner table went out row by row, are completed and ENDed", async () => {
  const dir = suiteDir("stream-text");
  const nested = await compileSchema(
    {
      type: "object",
      properties: {
        title: { type: "string" },
        report: {
          type: "object",
          properties: {
            name: { type: "string" },
            rows: { type: "array", items: { type: "object", properties: { a: { type: "string" }, n: { type: "integer" } }, required: ["a", "n"] } },
            tags: { type: "array", items: { type: "string" } },
          },
          required: ["name", "rows"],
        },
        done: { type: "boolean" },
      },
      required: ["title", "report"],
    },
    dir,
    "nested",
  );
  const codec = nested.codec as unknown as TextCodec;
  const value = { title: "t", report: { name: "r", rows: [{ a: "x", n: 1 }, { a: "y", n: 2 }, { a: "z", n: 3 }], tags: ["p", "q"] }, done: true };
  for (const layout of ["dense", "toon", "json"] as const) {
    const payload = payloadOf(codec, value, layout);
    const reply = replyOf(payload, layout);
    const r = feed(codec, pieces(reply, 61));
    assert.deepStrictEqual(r.dec.end(), codec.fromModelOutput(reply), layout);
    assert.deepStrictEqual(r.dec.end(), value, layout);
    const got = r.events.map((e) => `${e.event.type} ${e.event.pointer}`);
    // the rows are elements of their own (no array item holds them), before the report they are part of
    for (const k of [0, 1, 2]) assert.ok(got.indexOf(`element /report/rows/${k}`) >= 0 && got.indexOf(`element /report/rows/${k}`) < got.indexOf("field /report"), `${layout}: ${got.join(", ")}`);
  }
  const list = await compileSchema({ type: "array", items: { type: "object", properties: { id: { type: "integer" }, tags: { type: "array", items: { type: "string" } } }, required: ["id"] } }, dir, "list");
  const lc = list.codec as unknown as TextCodec;
  const items = [{ id: 1, tags: ["a"] }, { id: 2, tags: [] }, { id: 3 }];
  for (const layout of ["dense", "toon", "json"] as const) {
    const payload = payloadOf(lc, items, layout);
    const reply = replyOf(payload, layout);
    const r = feed(lc, pieces(reply, 71));
    assert.deepStrictEqual(r.dec.end(), lc.fromModelOutput(reply), layout);
    assert.deepStrictEqual(r.dec.end(), items, layout);
    assert.deepEqual(
      r.events.filter((e) => e.event.type === "element" && /^\/\d+$/.test(e.event.pointer)).map((e) => e.event.pointer),
      ["/0", "/1", "/2"],
    );
    if (layout !== "json") {
      const t = feed(lc, pieces(payload, 72), { input: "text" });
      assert.deepStrictEqual(t.dec.end(), lc.fromText(payload, layout === "dense" ? { layout: "dense" } : undefined), layout);
    }
  }
  // a root that is no container: one VALUE frame when the text is over
  const scalar = await compileSchema({ type: "string" }, dir, "scalar");
  const sc = scalar.codec as unknown as TextCodec;
  const r = feed(sc, pieces("hello there", 81), { input: "text" });
  assert.deepStrictEqual(r.dec.end(), sc.fromText("hello there"));
});

test("stream text: random values of the inline test schemas (tuples, maps, unions, recursion, int64), as dense, TOON v4 and JSON replies and texts", async () => {
  const dir = suiteDir("stream-text-random");
  const rng = new Rng(9);
  const failures: string[] = [];
  const show = (x: unknown): string => (JSON.stringify(x, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)) ?? "undefined").slice(0, 300);
  let total = 0;
  for (const [key, schema] of Object.entries(INLINE_SCHEMAS)) {
    const c = await compileSchema(schema, dir, key);
    const codec = c.codec as unknown as TextCodec & { validate(v: unknown): { ok: boolean } };
    for (let seed = 1; seed <= (key === "wide" ? 3 : 25); seed++) {
      const value = arbitrary(c.ir, seed * 104729, { maxItems: 3, maxDepth: 4 });
      if (!codec.validate(value).ok) continue;
      for (const layout of ["dense", "toon", "json"] as const) {
        let payload: string;
        try {
          payload = layout === "json" ? JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? Number(v) : v)) : payloadOf(codec, value, layout);
        } catch {
          continue; // (a value the text layouts cannot write)
        }
        const inputs: { input: "reply" | "text"; text: string }[] = [{ input: "reply", text: replyOf(payload, layout) }];
        if (layout !== "json") inputs.push({ input: "text", text: payload });
        for (const { input, text } of inputs) {
          total++;
          const label = `${key} seed ${seed} ${layout} ${input}`;
          let expected: { value: unknown } | { code: string };
          try {
            expected = { value: input === "reply" ? codec.fromModelOutput(text) : codec.fromText(text, layout === "dense" ? { layout: "dense" } : undefined) };
          } catch (e) {
            expected = { code: (e as ToonError).code };
          }
          try {
            const enc = codec.stream.encoder();
            const frames: Uint8Array[] = [];
            for (let i = 0; i < text.length; ) {
              const n = rng.int(1, 8);
              frames.push(...enc.text(text.slice(i, i + n), { input }));
              i += n;
            }
            frames.push(...enc.end());
            const got = codec.stream.decode(frames);
            // (an int64 beyond 2^53 given as a number decodes from binary as its bigint)
            if (!("value" in expected) || !sameDecoded(got, expected.value)) failures.push(`${label}: ${show(got)} != ${show(expected)}`);
          } catch (e) {
            if (!("code" in expected) || !(e instanceof ToonError) || e.code !== expected.code) failures.push(`${label}: threw ${String(e)}; read whole: ${show(expected)}`);
          }
        }
      }
    }
  }
  assert.ok(total > 500, `only ${total} texts`);
  assert.deepEqual(failures.slice(0, 5), []);
});

test("stream text: partialText sends a string the model is still writing as TEXT frames, the rest and its END when its value completes", () => {
  let seed = 100;
  for (const ex of EXAMPLES) {
    for (const layout of ["dense", "toon", "json"] as const) {
      const reply = replyOf(payloadOf(ex.codec, ex.value, layout), layout);
      const label = `${ex.name} ${layout}`;
      const r = feed(ex.codec, pieces(reply, seed++), { partialText: true } as never);
      assert.ok(r.enc.done, label);
      assert.deepStrictEqual(r.dec.end(), ex.codec.fromModelOutput(reply), label);
      // the receiver saw strings grow: text events whose text is the start of the string its pointer ends up holding
      const texts = r.events.filter((x) => x.event.type === "text").map((x) => x.event as { pointer: string; text: string });
      const final = r.dec.end();
      for (const t of texts) {
        const v = t.pointer.split("/").slice(1).reduce((o: any, k) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], final);
        assert.ok(typeof v === "string" && v.startsWith(t.text), `${label}: ${t.pointer}: ${JSON.stringify(t.text)} starts ${JSON.stringify(v)}`);
      }
      if (ex.name === "extraction") assert.ok(texts.length > 50, `${label}: ${texts.length} TEXT frames`);
      // without it: no TEXT frames
      const plain = feed(ex.codec, pieces(reply, seed), {});
      assert.equal(plain.events.filter((x) => x.event.type === "text").length, 0, label);
    }
  }
});
