/**
 * The resumable TOON v4 reader (runtime/text/reader/toon.ts): text in pieces split anywhere reads as the whole
 * text does (every spec fixture and example, strict and not, whole, one character at a time and in seeded random
 * pieces); the `child` hook fires as documented; `snapshot()` holds complete children only; `locateText`
 * positions; count errors' facts and `atEnd`; bounded work on a line that never ends.
 */

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { ToonError } from "../runtime/wire/errors.ts";
import { decodeText, decodeTextExact, encodeText, locateText, TextNumber } from "../runtime/text/index.ts";
import { ToonTextReader, type ToonReaderOptions } from "../runtime/text/reader/toon.ts";
import { exampleJsonTexts } from "./support/example-data.ts";
import { Rng } from "./support/rng.ts";
import { catchToon } from "./support/toon-error.ts";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const fixturesDir = join(resolve(repo, "../shared"), "toon-spec", "fixtures");

interface Case {
  name: string;
  text: string;
  options?: ToonReaderOptions;
}

/** Every decode fixture's input and every encode fixture's output. */
function fixtureTexts(): Case[] {
  if (!existsSync(fixturesDir)) return [];
  const out: Case[] = [];
  for (const cat of ["decode", "encode"]) {
    for (const f of readdirSync(join(fixturesDir, cat)).filter((x) => x.endsWith(".json")).sort()) {
      const tests = (JSON.parse(readFileSync(join(fixturesDir, cat, f), "utf8")) as { tests: { name: string; input: unknown; expected: unknown; options?: Record<string, unknown> }[] }).tests;
      for (const t of tests) {
        if (cat === "decode") out.push({ name: `${cat}/${f}: ${t.name}`, text: t.input as string, options: t.options as ToonReaderOptions });
        else out.push({ name: `${cat}/${f}: ${t.name}`, text: t.expected as string, options: t.options?.indent === undefined ? undefined : { indentSize: t.options.indent as number } });
      }
    }
  }
  return out;
}

function exampleTexts(): Case[] {
  return exampleJsonTexts().map((e) => ({ name: `examples/${e.name}`, text: encodeText(JSON.parse(e.text)) }));
}

type Outcome = { value: unknown; raws: number } | { error: ToonError };

function outcome(f: () => { value: unknown; raws: number }): Outcome {
  try {
    return f();
  } catch (e) {
    if (e instanceof ToonError) return { error: e };
    throw e;
  }
}

function inPieces(text: string, sizes: () => number, options?: ToonReaderOptions): Outcome {
  const r = new ToonTextReader({ ...options, exact: true });
  return outcome(() => {
    for (let i = 0; i < text.length; ) {
      const n = sizes();
      r.push(text.slice(i, i + n));
      i += n;
    }
    return { value: r.end(), raws: r.raws };
  });
}

/** Everything an error says: code, message, position, path and the structured facts. */
function facts(e: ToonError): unknown {
  return { code: e.code, message: e.message, line: e.line, column: e.column, path: e.path, count: e.count, atEnd: e.atEnd };
}

function assertSame(got: Outcome, want: Outcome, how: string): void {
  if ("error" in want) {
    assert.ok("error" in got, `${how}: expected ${want.error.message}, got a value`);
    assert.deepEqual(facts(got.error), facts(want.error), how);
  } else {
    assert.ok(!("error" in got), `${how}: expected a value, got ${"error" in got ? got.error.message : ""}`);
    assert.deepStrictEqual(got, want, how);
  }
}

const cases = [...fixtureTexts(), ...exampleTexts()];

describe("toon reader: pieces read as the whole text", () => {
  for (const c of cases) {
    test(c.name, () => {
      for (const strict of [true, false]) {
        const options = { ...c.options, strict: strict && c.options?.strict !== false };
        const whole = outcome(() => decodeTextExact(c.text, options));
        assertSame(inPieces(c.text, () => 1, options), whole, `strict ${options.strict}, one character at a time`);
        const rng = new Rng(c.text.length * 7 + (strict ? 1 : 0));
        for (let k = 0; k < 3; k++) assertSame(inPieces(c.text, () => rng.int(1, 8), options), whole, `strict ${options.strict}, random pieces #${k}`);
      }
    });
  }
  test("the cases were found", () => {
    assert.ok(cases.filter((c) => c.name.startsWith("examples/")).length >= 4);
    if (existsSync(fixturesDir)) assert.ok(cases.length > 300);
  });
});

// ---------------------------------------------------------------------------------------------------------------

/** Whether `snap` is a part of `whole`: complete children equal, only the last child of a container open. */
function partOf(snap: unknown, whole: unknown): boolean {
  if (snap === undefined) return true;
  if (Array.isArray(snap)) {
    if (!Array.isArray(whole) || snap.length > whole.length) return false;
    return snap.every((v, i) => (i < snap.length - 1 ? equal(v, whole[i]) : partOf(v, whole[i])));
  }
  if (typeof snap === "object" && snap !== null) {
    if (typeof whole !== "object" || whole === null || Array.isArray(whole)) return false;
    const keys = Object.keys(snap);
    const wkeys = Object.keys(whole);
    if (keys.some((k, i) => wkeys[i] !== k)) return false;
    const s = snap as Record<string, unknown>;
    const w = whole as Record<string, unknown>;
    return keys.every((k, i) => (i < keys.length - 1 ? equal(s[k], w[k]) : partOf(s[k], w[k])));
  }
  return snap === whole;
}

function equal(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

describe("toon reader: snapshot()", () => {
  test("after each piece: complete children only, the open path as copies, never a throw", () => {
    for (const c of exampleTexts()) {
      const whole = decodeText(c.text);
      const r = new ToonTextReader();
      const seen: unknown[] = [];
      const rng = new Rng(c.text.length);
      for (let i = 0; i < c.text.length; ) {
        const n = rng.int(1, 8);
        r.push(c.text.slice(i, i + n));
        i += n;
        const snap = r.snapshot();
        assert.ok(partOf(snap, whole), `${c.name} after ${i} characters: ${JSON.stringify(snap)?.slice(0, 200)}`);
        seen.push(snap);
      }
      // copies: what an earlier snapshot holds does not change as reading goes on
      const before = JSON.stringify(seen[Math.floor(seen.length / 2)]);
      assert.deepStrictEqual(r.end(), whole);
      assert.equal(JSON.stringify(seen[Math.floor(seen.length / 2)]), before);
      assert.deepStrictEqual(r.snapshot(), whole);
    }
  });

  test("a value still being written is not shown; undefined before anything", () => {
    const r = new ToonTextReader();
    assert.equal(r.snapshot(), undefined);
    // `user:` is a nested object or {} only once the next line is complete and says which
    r.push("user:\n  name: Ali");
    assert.deepStrictEqual(r.snapshot(), {});
    r.push("ce\n  tags[2]: a,");
    assert.deepStrictEqual(r.snapshot(), { user: { name: "Alice" } });
    r.push("b\nrows[2]{x,y}:\n  1,2\n  3,");
    assert.deepStrictEqual(r.snapshot(), { user: { name: "Alice", tags: ["a", "b"] }, rows: [{ x: 1, y: 2 }] });
    r.push("4\nlist[1]:\n  - k: 1\n    m: ");
    assert.deepStrictEqual(r.snapshot(), { user: { name: "Alice", tags: ["a", "b"] }, rows: [{ x: 1, y: 2 }, { x: 3, y: 4 }], list: [{ k: 1 }] });
    // `empty:` is an object or {} only once the next line says which
    r.push("2\nempty:\n");
    assert.deepStrictEqual((r.snapshot() as Record<string, unknown>).empty, undefined);
    assert.deepStrictEqual((r.end() as Record<string, unknown>).empty, {});
  });

  test("after an error it still answers, and push and end throw that error again", () => {
    const r = new ToonTextReader();
    r.push("a: 1\nb[2]:\n  - x\n");
    const e = catchToon(() => r.push("c: 3\n"));
    assert.equal(e.message, "TEXT_SYNTAX: array declares 2 items but has 1 at /b");
    assert.deepStrictEqual(r.snapshot(), { a: 1, b: ["x"] });
    assert.equal(catchToon(() => r.push("d: 2\n")), e);
    assert.equal(catchToon(() => r.end()), e);
  });
});

// ---------------------------------------------------------------------------------------------------------------

const HOOKED = [
  "name: Ada",
  "tags[2]: x,y",
  "address:",
  "  city: Paris",
  '  zip: "75001"',
  "items[2]{sku,qty}:",
  "  A1,2",
  "  B2,3",
  "list[2]:",
  "  - k: 1",
  "    m: 2",
  "  - 7",
  "prices[2:]{amount}:",
  "  eur: 5",
  "  usd: 6",
  "empty:",
].join("\n");

describe("toon reader: the child hook", () => {
  test("fires for each complete value, with its path, key and where it starts, inner values first", () => {
    for (const sizes of [() => HOOKED.length, () => 1, () => 3]) {
      const calls: unknown[] = [];
      const r = new ToonTextReader({
        hooks: {
          child(parent, key, value, path, line, column) {
            calls.push([Array.isArray(parent) ? "[]" : "{}", key, JSON.stringify(value), path.join("/"), line, column]);
            return value;
          },
        },
      });
      for (let i = 0; i < HOOKED.length; ) {
        const n = sizes();
        r.push(HOOKED.slice(i, i + n));
        i += n;
      }
      assert.deepStrictEqual(r.end(), decodeText(HOOKED));
      assert.deepStrictEqual(calls, [
        ["{}", "name", '"Ada"', "", 1, 7],
        ["{}", "tags", '["x","y"]', "", 2, 1],
        ["{}", "city", '"Paris"', "address", 4, 9],
        ["{}", "zip", '"75001"', "address", 5, 8],
        ["{}", "address", '{"city":"Paris","zip":"75001"}', "", 3, 1],
        ["[]", 0, '{"sku":"A1","qty":2}', "items", 7, 3],
        ["[]", 1, '{"sku":"B2","qty":3}', "items", 8, 3],
        ["{}", "items", '[{"sku":"A1","qty":2},{"sku":"B2","qty":3}]', "", 6, 1],
        ["{}", "k", "1", "list/0", 10, 8],
        ["{}", "m", "2", "list/0", 11, 8],
        ["[]", 0, '{"k":1,"m":2}', "list", 10, 5],
        ["[]", 1, "7", "list", 12, 5],
        ["{}", "list", '[{"k":1,"m":2},7]', "", 9, 1],
        ["{}", "eur", '{"amount":5}', "prices", 14, 3],
        ["{}", "usd", '{"amount":6}', "prices", 15, 3],
        ["{}", "prices", '{"eur":{"amount":5},"usd":{"amount":6}}', "", 13, 1],
        ["{}", "empty", "{}", "", 16, 1],
      ]);
    }
  });

  test("what it returns is stored; a ToonError it throws gets the value's path", () => {
    const coerced = new ToonTextReader({ hooks: { child: (_p, _k, v) => (typeof v === "number" ? String(v) : v) } });
    coerced.push(HOOKED);
    const v = coerced.end() as Record<string, unknown>;
    // a row's cells are the row's, not children of their own
    assert.deepStrictEqual(v.items, [
      { sku: "A1", qty: 2 },
      { sku: "B2", qty: 3 },
    ]);
    assert.deepStrictEqual(v.list, [{ k: "1", m: "2" }, "7"]);
    const strict = new ToonTextReader({
      hooks: {
        child(_p, key, value) {
          if (key === 1 && (value as { qty?: number }).qty === 3) throw new ToonError("INVALID_VALUE", "qty too high", { path: "/qty" });
          return value;
        },
      },
    });
    const e = catchToon(() => strict.end(HOOKED));
    assert.equal(e.path, "/items/1/qty");
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("toon reader: positions", () => {
  test("locateText: fields, nested objects, list items, rows and their cells, keyed entries, inline values", () => {
    const at = (p: string) => locateText(HOOKED, p);
    assert.deepStrictEqual(at(""), { line: 1, column: 1 });
    assert.deepStrictEqual(at("/name"), { line: 1, column: 7 });
    assert.deepStrictEqual(at("/tags/1"), { line: 2, column: 12 });
    assert.deepStrictEqual(at("/address"), { line: 3, column: 1 });
    assert.deepStrictEqual(at("/address/zip"), { line: 5, column: 8 });
    assert.deepStrictEqual(at("/address/missing"), { line: 3, column: 1 });
    assert.deepStrictEqual(at("/items/1"), { line: 8, column: 3 });
    assert.deepStrictEqual(at("/items/1/qty"), { line: 8, column: 6 });
    assert.deepStrictEqual(at("/list/0/m"), { line: 11, column: 8 });
    assert.deepStrictEqual(at("/list/1"), { line: 12, column: 5 });
    assert.deepStrictEqual(at("/prices/usd/amount"), { line: 15, column: 8 });
    assert.deepStrictEqual(at("/empty/x"), { line: 16, column: 1 });
    assert.deepStrictEqual(locateText("a: [", "/a"), { line: 1, column: 4 });
    assert.equal(locateText('a: "open', "/a"), undefined);
  });

  test("locateText: the first content (a comment counts), past a byte-order mark and blank lines; an empty text", () => {
    assert.deepStrictEqual(locateText("\uFEFF\n\n  # note\na: 1", ""), { line: 3, column: 3 });
    assert.deepStrictEqual(locateText("\uFEFFa: 1", "/a"), { line: 1, column: 4 });
    assert.deepStrictEqual(locateText("", ""), { line: 1, column: 1 });
    assert.deepStrictEqual(locateText("\n  \n", ""), { line: 3, column: 1 });
  });

  test("the reader's locate, in pieces, from what it recorded (the text is not kept)", () => {
    const r = new ToonTextReader({ track: true });
    for (const ch of HOOKED) r.push(ch);
    r.end();
    assert.deepStrictEqual(r.locate("/items/0/sku"), { line: 7, column: 3 });
    assert.deepStrictEqual(r.locate("/list/0/k"), { line: 10, column: 8 });
    assert.equal(new ToonTextReader().locate("/x"), undefined);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("toon reader: count facts and the end of the input", () => {
  const table = "items[3]{a,b}:\n  1,2\n  3,4";

  test("a table cut short at the end: the count, atEnd", () => {
    for (const sizes of [() => table.length, () => 1]) {
      const got = inPieces(table, sizes);
      assert.ok("error" in got);
      const e = got.error;
      assert.equal(e.message, "TEXT_SYNTAX: array declares 3 rows but has 2 at /items");
      assert.deepStrictEqual([e.line, e.column], [1, 6]);
      assert.deepStrictEqual(e.count, { declared: 3, found: 2, more: false, what: "rows", inline: false, line: 1, column: 6 });
      assert.equal(e.atEnd, true);
    }
  });

  test("a short count a later line ends is not at the end; too many rows point at the first extra one", () => {
    const e = catchToon(() => decodeText(table + "\nnext: 1"));
    assert.equal(e.atEnd, undefined);
    assert.deepStrictEqual(e.count, { declared: 3, found: 2, more: false, what: "rows", inline: false, line: 1, column: 6 });
    const more = catchToon(() => decodeText("x:\n  list[1]:\n    - a\n    - b\n    - c"));
    assert.equal(more.message, "TEXT_SYNTAX: array declares 1 items but has 3 at /x/list");
    assert.deepStrictEqual([more.line, more.column], [4, 5]);
    assert.deepStrictEqual(more.count, { declared: 1, found: 3, more: false, what: "items", inline: false, line: 2, column: 7 });
    assert.equal(more.atEnd, undefined);
  });

  test("keyed tables and inline values", () => {
    const keyed = catchToon(() => decodeText("[3:]{n}:\n  a: 1\n  b: 2"));
    assert.deepStrictEqual(keyed.count, { declared: 3, found: 2, more: false, what: "entries", inline: false, line: 1, column: 1 });
    assert.equal(keyed.reason, "keyed table declares 3 entries but has 2");
    assert.equal(keyed.atEnd, true);
    const inline = catchToon(() => decodeText("a: 1\ntags[3]: x,y"));
    assert.deepStrictEqual(inline.count, { declared: 3, found: 2, more: false, what: "values", inline: true, line: 2, column: 5 });
    assert.equal(inline.atEnd, true);
    assert.equal(catchToon(() => decodeText("tags[3]: x,y\n")).atEnd, undefined);
    assert.equal(catchToon(() => decodeText("tags[1]: x,y")).atEnd, undefined);
  });

  test("a value cut off at the end is atEnd; the same line complete is not", () => {
    for (const text of ['a: "Ali', "a: 1\nb", "rows[1]{a,b,c}:\n  1,2", 'a: "\\u00', "x[2:", "[1:]{a}:\n  k", 'a: "x\\']) {
      assert.equal(catchToon(() => decodeText(text)).atEnd, true, JSON.stringify(text));
      assert.equal(catchToon(() => decodeText(text + "\n")).atEnd, undefined, JSON.stringify(text + "\n"));
    }
    // not a cut: more text would not mend it
    for (const text of ["a: 1\na: 2", 'a: "x" y', "rows[1]{a}:\n  1,2"]) assert.equal(catchToon(() => decodeText(text)).atEnd, undefined, text);
  });

  test("non-strict: no count checks", () => {
    assert.deepStrictEqual(decodeText(table, { strict: false }), { items: [{ a: 1, b: 2 }, { a: 3, b: 4 }] });
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("toon reader: pieces anywhere", () => {
  test("CRLF, a byte-order mark and a surrogate pair split across pieces", () => {
    const r = new ToonTextReader();
    for (const p of ["\uFEFF", "a: \uD83D", "\uDE00\r", "\nb: 2\r", "\n"]) r.push(p);
    assert.deepStrictEqual(r.end(), { a: "😀", b: 2 });
  });

  test("a lone surrogate: where it is; in pieces, before its line is read; at the end of the input when a high half ends it", () => {
    const e = catchToon(() => new ToonTextReader().end("a: 1\nb: x\uDC00"));
    assert.deepStrictEqual([e.reason, e.line, e.column], ["lone surrogate U+DC00 (text must be well-formed Unicode)", 2, 5]);
    assert.equal(catchToon(() => decodeText("a: 1\nb: x\uD83D")).atEnd, true);
    const r = new ToonTextReader();
    r.push("a: 1\nb: x\uD83D");
    const cut = catchToon(() => r.end());
    assert.deepStrictEqual([cut.line, cut.column, cut.atEnd], [2, 5, true]);
    const r2 = new ToonTextReader();
    r2.push("a: \uD83D");
    r2.push("x");
    const bad = catchToon(() => r2.push("\n"));
    assert.deepStrictEqual([bad.line, bad.column, bad.atEnd], [1, 4, undefined]);
  });

  test("push reads line by line, in any pieces alike; a whole text (end(text), decodeText) reports lone surrogates, then bad indentation, first", () => {
    for (const [text, pushed, whole] of [
      ['a: "x\n   b: 1', [1, "unterminated string"], [2, "indentation of 3 spaces is not a multiple of the indent size 2"]],
      ["a[2]: 1\nb: \uDC00", [1, "array declares 2 values but has 1"], [2, "lone surrogate U+DC00 (text must be well-formed Unicode)"]],
    ] as const) {
      for (const size of [text.length, 1, 3]) {
        const r = new ToonTextReader();
        const e = catchToon(() => {
          for (let i = 0; i < text.length; i += size) r.push(text.slice(i, i + size));
          r.end();
        });
        assert.deepStrictEqual([e.line, e.reason], pushed, `pieces of ${size}`);
      }
      const e = catchToon(() => decodeText(text));
      assert.deepStrictEqual([e.line, e.reason], whole);
      assert.deepStrictEqual(facts(catchToon(() => new ToonTextReader().end(text))), facts(e));
    }
  });

  test("exact numbers and raws, in pieces", () => {
    const r = new ToonTextReader({ exact: true });
    for (const ch of "a: 1.50\nb: 12345678901234567890\nc: 2") r.push(ch);
    const v = r.end() as Record<string, unknown>;
    assert.ok(v.a instanceof TextNumber && v.a.raw === "1.50");
    assert.ok(v.b instanceof TextNumber && v.b.raw === "12345678901234567890");
    assert.equal(v.c, 2);
    assert.equal(r.raws, 2);
  });

  test("a line that never ends is one growing tail: 200,000 one-character pieces in linear time", () => {
    const r = new ToonTextReader();
    const t0 = performance.now();
    r.push("key: ");
    for (let i = 0; i < 200_000; i++) r.push("x");
    assert.equal(r.snapshot(), undefined);
    r.push("\n");
    const ms = performance.now() - t0;
    assert.equal((r.end() as { key: string }).key.length, 200_000);
    assert.ok(ms < 3000, `${ms.toFixed(0)} ms`);
  });

  test("nesting: the depth limit, and no JS recursion across lines", () => {
    const deep = Array.from({ length: 40 }, (_, i) => "  ".repeat(i) + "k:").join("\n") + "\n" + "  ".repeat(40) + "v: 1";
    assert.equal(catchToon(() => decodeText(deep, { maxDepth: 20 })).code, "DEPTH_LIMIT");
    const huge = Array.from({ length: 20_000 }, (_, i) => " ".repeat(i) + "k:").join("\n") + "\n" + " ".repeat(20_000) + "v: 1";
    const v = decodeText(huge, { indentSize: 1, maxDepth: Infinity });
    let depth = 0;
    for (let o = v as Record<string, unknown>; typeof o.k === "object"; o = o.k as Record<string, unknown>) depth++;
    assert.equal(depth, 20_000);
  });

  test("misuse: push after end, and what is not a string", () => {
    const r = new ToonTextReader();
    r.end("a: 1");
    assert.equal(catchToon(() => r.push("b: 2")).code, "INVALID_VALUE");
    assert.equal(catchToon(() => new ToonTextReader().push(3 as unknown as string)).code, "INVALID_VALUE");
  });
});
