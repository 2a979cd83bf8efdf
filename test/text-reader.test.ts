/**
 * The one resumable text reader (runtime/text/reader): a reply or a text read whole, one character at a time and
 * in seeded random pieces of 1-8 characters gives the same value, or the same error (code, path, line, column),
 * as `fromModelOutput` / `fromText` read it whole; events arrive as rows and fields complete, checked and typed by
 * path; snapshots hold only complete parts; an error never takes back an event already returned.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { readFileSync } from "node:fs";
import { ToonError } from "../runtime/wire/errors.ts";
import { textReader, type TextReader } from "../runtime/text/reader/text-reader.ts";
import type { ReaderSpec } from "../runtime/text/reader/payload-reader.ts";
import type { StreamEvent } from "../runtime/stream/events.ts";
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
  fromText(t: string, o?: { layout?: "toon" | "dense" }): unknown;
  fromModelOutput(r: string, o?: { repair?: boolean }): unknown;
  reader(o?: { layout?: "toon" | "dense" | "json"; input?: "reply" | "text"; repair?: boolean; onEvent?: (e: StreamEvent) => void }): TextReader<unknown>;
};

const EXAMPLES: [string, Codec, unknown][] = [
  ["orders", OrderList as unknown as Codec, data("orders/data/order-list.json")],
  ["logs", LogReport as unknown as Codec, data("logs/data/log-report.json")],
  ["extraction", ExtractionResult as unknown as Codec, data("extraction/data/extraction-result.json")],
  ["tool-calls", ToolCallBatch as unknown as Codec, data("tool-calls/data/tool-call-batch.json")],
];

function data(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`../examples/${file}`, import.meta.url), "utf8"));
}

type Outcome = { ok: true; value: unknown } | { ok: false; code: string; path: string; line: number | undefined; column: number | undefined };

function outcome(f: () => unknown): Outcome {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (!(e instanceof ToonError)) throw e;
    return { ok: false, code: e.code, path: e.path, line: e.line, column: e.column };
  }
}

/** `text` in pieces: whole (0), one character at a time (1), or seeded random pieces of 1-8 characters (a seed). */
function pieces(text: string, how: number): string[] {
  if (how === 0) return [text];
  if (how === 1) return text.split("");
  return Rng.pieces(text, how);
}

/** Read `text` through `r` in `parts`; the events and the outcome. */
function read(r: TextReader<unknown>, parts: string[]): { events: StreamEvent[]; out: Outcome } {
  const events: StreamEvent[] = [];
  const out = outcome(() => {
    for (const p of parts) for (const e of r.push(p)) events.push(e);
    return r.end();
  });
  return { events, out };
}

/** Whether `part` is `whole` with some members or items left out (what a snapshot may hold of it). */
function partOf(part: unknown, whole: unknown): boolean {
  if (part === undefined) return true;
  if (part === null || typeof part !== "object") return isDeepStrictEqual(part, whole);
  if (whole === null || typeof whole !== "object" || Array.isArray(part) !== Array.isArray(whole)) return false;
  for (const k of Object.keys(part)) if (!partOf((part as Record<string, unknown>)[k], (whole as Record<string, unknown>)[k])) return false;
  return true;
}

function same(a: Outcome, b: Outcome, label: string): void {
  if (!isDeepStrictEqual(a, b)) assert.fail(`${label}\nexpected ${JSON.stringify(a).slice(0, 400)}\nactual   ${JSON.stringify(b).slice(0, 400)}`);
}

function replies(c: Codec, value: unknown): [string, string][] {
  const dense = c.toText(value, { layout: "dense" });
  const toon = c.toText(value);
  const json = JSON.stringify(value, null, 2);
  return [
    ["dense, bare", dense],
    ["dense, fenced, prose around", `Here it is:\n\n\`\`\`toon\n${dense}\n\`\`\`\n\nAnything else?`],
    ["TOON, fenced", `\`\`\`toon\n${toon}\n\`\`\``],
    ["TOON, bare, after a reasoning block", `<think>\nthe user wants orders\n</think>\n${toon}`],
    ["JSON, fenced", `\`\`\`json\n${json}\n\`\`\``],
    ["JSON, compact in prose", `Result: ${JSON.stringify(value)} (done)`],
  ];
}

test("reader: every example reply, whole, one character at a time and in random pieces, reads as fromModelOutput does", () => {
  let reads = 0;
  for (const [name, c, value] of EXAMPLES) {
    for (const [how, reply] of replies(c, value)) {
      const expected = outcome(() => c.fromModelOutput(reply));
      assert.equal(expected.ok, true, `${name} ${how}: fromModelOutput fails: ${JSON.stringify(expected)}`);
      for (const split of [0, 1, 7, 8]) {
        const { events, out } = read(c.reader(), pieces(reply, split));
        same(expected, out, `${name}, ${how}, pieces ${split}`);
        // a payload that closed before the reply's end (a fence, JSON's last brace) told its whole value then
        const last = events[events.length - 1];
        if (last?.type === "value") assert.ok(isDeepStrictEqual(last.value, (expected as { value: unknown }).value));
        reads++;
      }
    }
  }
  assert.equal(reads, EXAMPLES.length * 6 * 4);
});

test("reader: a reply cut anywhere fails as fromModelOutput fails (INCOMPLETE, or the same error at the same place)", () => {
  let cuts = 0;
  for (const [name, c, value] of EXAMPLES) {
    for (const [how, reply] of replies(c, value)) {
      const step = Math.max(1, Math.floor(reply.length / 60));
      for (let at = 1; at < reply.length; at += step) {
        const cut = reply.slice(0, at);
        const expected = outcome(() => c.fromModelOutput(cut));
        const whole = read(c.reader(), [cut]).out;
        same(expected, whole, `${name}, ${how}, cut at ${at} (${JSON.stringify(cut.slice(-40))}), whole`);
        same(expected, read(c.reader(), pieces(cut, at)).out, `${name}, ${how}, cut at ${at}, in pieces`);
        cuts++;
      }
    }
  }
  assert.ok(cuts > 1000, `${cuts} cuts`);
});

test("reader: text input reads TOON v4 and dense as fromText does, in any pieces", () => {
  for (const [name, c, value] of EXAMPLES) {
    for (const layout of ["dense", "toon"] as const) {
      const text = c.toText(value, { layout });
      const expected = outcome(() => c.fromText(text));
      for (const split of [0, 1, 5]) same(expected, read(c.reader({ input: "text" }), pieces(text, split)).out, `${name}, ${layout}, pieces ${split}`);
      // forced layouts
      same(outcome(() => c.fromText(text, { layout })), read(c.reader({ input: "text", layout }), pieces(text, 3)).out, `${name}, ${layout} forced`);
    }
  }
});

test("reader: events come as rows complete, typed and checked, with pointers and stream paths; snapshots hold complete parts", () => {
  const value = data("orders/data/order-list.json") as { orders: unknown[] };
  const c = OrderList as unknown as Codec;
  for (const layout of ["dense", "toon", "json"] as const) {
    const body = layout === "json" ? JSON.stringify(value, null, 1) : c.toText(value, { layout });
    const reply = `\`\`\`${layout === "json" ? "json" : "toon"}\n${body}\n\`\`\``;
    const rows: number[] = [];
    const ended: StreamEvent[] = [];
    let inEnd = false;
    const r = c.reader({ onEvent: (e) => void (inEnd && ended.push(e)) });
    let snapshots = 0;
    const check = (e: StreamEvent): void => {
      if (e.type === "element" && e.path === "orders[]") {
        assert.equal(e.pointer, `/orders/${e.index}`);
        assert.deepEqual(e.value, value.orders[e.index], `${layout}: row ${e.index}`);
        rows.push(e.index);
      }
    };
    for (const p of pieces(reply, 3)) {
      for (const e of r.push(p)) check(e);
      const snap = r.snapshot() as { orders?: unknown[] } | undefined;
      if (snap?.orders !== undefined) {
        // every row the snapshot holds is (part of) the row, in order
        snapshots++;
        assert.ok(snap.orders.length <= value.orders.length);
        for (let i = 0; i < snap.orders.length; i++) assert.ok(partOf(snap.orders[i], value.orders[i]), `${layout}: snapshot row ${i} is no part of the row`);
      }
    }
    inEnd = true;
    assert.deepEqual(r.end(), value);
    for (const e of ended) check(e);
    assert.equal(ended[ended.length - 1]?.type, "value", `${layout}: end() tells the whole value`);
    assert.deepEqual(rows, value.orders.map((_, i) => i), `${layout}: one element event per row, in order`);
    assert.ok(snapshots > 0);
    assert.ok(r.done);
  }
});

test("reader: an error later in the reply never takes back the events before it", () => {
  const value = data("orders/data/order-list.json") as { orders: { total: number }[] };
  const c = OrderList as unknown as Codec;
  const dense = c.toText(value, { layout: "dense" }).split("\n");
  // row 3's total is a word
  dense[4] = dense[4]!.replace(/,(\d+(\.\d+)?),(CNY|USD|EUR|JPY|HKD|SGD|KRW|GBP),/, ",lots,$3,");
  const text = dense.join("\n");
  const r = c.reader();
  const rows: number[] = [];
  let error: unknown;
  try {
    for (const p of pieces(text, 5)) for (const e of r.push(p)) if (e.type === "element") rows.push(e.index);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof ToonError && error.code === "INVALID_VALUE", String(error));
  assert.equal((error as ToonError).path, "/orders/3/total");
  assert.deepEqual(rows, [0, 1, 2]);
  // the reader stays failed
  assert.throws(() => r.push("x"), (e: unknown) => e === error);
  assert.throws(() => r.end(), (e: unknown) => e === error);
});

test("reader: a fence's opening line whose info string holds braces is a fence in pieces as whole, not JSON in prose", () => {
  const c = OrderList as unknown as Codec;
  const value = { orders: (data("orders/data/order-list.json") as { orders: unknown[] }).orders.slice(0, 2) };
  for (const info of ['json {"a":1}', 'toon [{"b":2}] x', 'jsoN"}},"items":[{"sku":"X"}]']) {
    const reply = `\`\`\`${info}\n${JSON.stringify(value)}\n\`\`\`\n`;
    const whole = outcome(() => c.fromModelOutput(reply));
    for (const how of [0, 1, 3, 7]) same(whole, read(c.reader(), pieces(reply, how)).out, `${info} in pieces (${how})`);
  }
});

test("reader: how a payload begins decides JSON or text in pieces as whole (a quoted start in a json fence, `[N:]`, blank lines first)", () => {
  const c = OrderList as unknown as Codec;
  const blank = "\n".repeat(300);
  for (const reply of [
    '```json\n"orders": []\n```\n',
    '```json\n"orders"\n```\n',
    '```json\n  "orders" : 1, "x": {"y": [1, 2, 3]}, "z": "a long enough start to pass sixty-four"\n```\n',
    "```json\n-12\n```\n",
    "```json\ntrue\n```\n",
    "```toon\n[12:]{a}:\n  k: 1\n```\n",
    "```toon\n[2|]: a|b\n```\n",
    `\`\`\`json\n${blank}{"orders":[]}\n\`\`\`\n`,
    `\`\`\`toon\n${blank}orders[0]:\n\`\`\`\n`,
  ]) {
    const whole = outcome(() => c.fromModelOutput(reply));
    for (const how of [0, 1, 2, 3, 9]) same(whole, read(c.reader(), pieces(reply, how)).out, `${JSON.stringify(reply.slice(0, 40))} in pieces (${how})`);
  }
});

test("reader: a JSON payload's check errors are placed at their line and column without its text kept", () => {
  const c = OrderList as unknown as Codec;
  const value = data("orders/data/order-list.json") as { orders: { total: unknown }[] };
  value.orders[2]!.total = "lots";
  for (const json of [JSON.stringify(value, null, 2), JSON.stringify(value)]) {
    const reply = `Here:\n\n\`\`\`json\n${json}\n\`\`\`\n`;
    const lines = json.split("\n");
    const row = lines.findIndex((l) => l.includes('"lots"'));
    const whole = outcome(() => c.fromModelOutput(reply));
    assert.equal(whole.ok, false);
    assert.deepEqual([!whole.ok && whole.path, !whole.ok && whole.line], ["/orders/2/total", row + 4]);
    assert.equal(!whole.ok && whole.column, lines[row]!.indexOf('"lots"') + 1);
    for (const how of [0, 1, 5]) same(whole, read(c.reader(), pieces(reply, how)).out, `JSON in pieces (${how})`);
  }
});

test("reader: a value checked as it completes fails at the line and column fromText names (TOON v4, forced and detected)", () => {
  // a number deep in the root array's third item made a word: the check of that item, not the text, refuses it
  const spoil = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.some(spoil);
    if (v === null || typeof v !== "object") return false;
    const o = v as Record<string, unknown>;
    for (const [k, x] of Object.entries(o)) if (typeof x === "number") return (o[k] = "lots"), true;
    return Object.values(o).some(spoil);
  };
  let checked = 0;
  for (const [name, c, value] of EXAMPLES) {
    const v = structuredClone(value) as Record<string, unknown>;
    const items = Object.values(v).find(Array.isArray) as unknown[];
    if (items === undefined || items.length < 3 || !spoil(items[2])) continue;
    const text = c.toText(v);
    for (const layout of ["toon", undefined] as const) {
      const whole = outcome(() => c.fromText(text, layout === undefined ? undefined : { layout }));
      assert.equal(whole.ok, false, `${name}: the spoiled value reads`);
      for (const how of [0, 1, 3, 7]) same(whole, read(c.reader({ input: "text", layout }), pieces(text, how)).out, `${name} ${layout ?? "detected"} in pieces (${how})`);
      checked++;
    }
  }
  assert.ok(checked >= 4, `${checked} texts checked`);
});

test("reader: random schemas' values in dense and TOON v4 text read in pieces as whole", () => {
  let reads = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const ir = schemaToIR(randomSchema(seed), { source: `random-${seed}.schema.json`, baseDir: process.cwd() });
    const { check, hints } = compileTextCheck(ir);
    const spec: ReaderSpec = { name: ir.name, descriptor: ir, check, hints };
    const dense = denseOf(ir);
    for (let k = 0; k < 5; k++) {
      const value = arbitrary(ir, seed * 1000 + k);
      for (const text of [dense.toText(value), encodeText(value)]) {
        const whole = read(textReader(spec, { input: "text" }), [text]).out;
        for (const split of [1, seed]) same(whole, read(textReader(spec, { input: "text" }), pieces(text, split)).out, `random ${seed}/${k}, pieces ${split}:\n${text.slice(0, 300)}`);
        // and as a fenced reply
        const reply = "```toon\n" + text + "\n```";
        const wholeReply = read(textReader(spec), [reply]).out;
        same(wholeReply, read(textReader(spec), pieces(reply, seed + 1)).out, `random ${seed}/${k} reply`);
        reads++;
      }
    }
  }
  assert.equal(reads, 600);
});

test("reader fuzz slice: mutated and hostile replies, whole and in pieces, give the same value or ToonError", async () => {
  const { textReaderTarget } = await import("./fuzz/text-reader-target.ts");
  const { caseInput, judge, readFixtures } = await import("./fuzz/harness.ts");
  const target = await textReaderTarget();
  const rng = new Rng(20261205);
  const failures: string[] = [];
  const kinds = new Set<string>();
  for (const s of target.seeds) {
    const o = judge(target, s as string);
    if (o.kind === "failure") failures.push(`seed: ${o.detail}`);
  }
  // every reply that failed once (test/fuzz/regressions/, written by `npm run fuzz`)
  for (const f of readFixtures().filter((x) => x.target === "text-reader")) {
    const o = judge(target, f.input as string);
    if (o.kind === "failure") failures.push(`regression (found: ${f.found.slice(0, 120)}): ${o.detail.slice(0, 300)}`);
  }
  for (let i = 0; i < 150; i++) {
    const c = caseInput(target, rng.fork());
    const o = judge(target, c.input as string);
    kinds.add(o.kind);
    if (o.kind === "failure") failures.push(`${c.how}: ${o.detail.slice(0, 300)}\n  ${JSON.stringify((c.input as string).slice(0, 200))}`);
  }
  assert.deepEqual(failures, []);
  assert.ok(kinds.has("value") && kinds.has("error"));
});
