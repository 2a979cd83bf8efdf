// The dense text layout (runtime/text/dense, docs/TEXT.md): lossless round trips of every example's data and of
// seeded random values of every example and inline schema; strict errors with line, column and path.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { baseName, generate } from "../generator/pipeline.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { withInt64Mode } from "../generator/ir/int64.ts";
import type { SchemaIR } from "../generator/ir/types.ts";
import { ToonError } from "../runtime/index.ts";
import { denseOf } from "../runtime/text/dense/index.ts";
import { setOwn } from "../runtime/wire/objects.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { Rng } from "./support/rng.ts";
import { exampleProjects } from "./support/gen.ts";
import { INLINE_SCHEMAS } from "./support/schemas.ts";
import { catchToon } from "./support/toon-error.ts";

function show(v: unknown): string {
  const s = JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x));
  return s === undefined ? String(v) : s.length > 600 ? s.slice(0, 597) + "..." : s;
}

interface Subject {
  label: string;
  ir: SchemaIR;
  data?: unknown;
}

let subjectsPromise: Promise<Subject[]> | undefined;
function subjects(): Promise<Subject[]> {
  subjectsPromise ??= (async () => {
    const out: Subject[] = [];
    for (const p of exampleProjects()) {
      const r = await generate(p.config, { cwd: p.dir, dryRun: true });
      for (const s of r.schemas) {
        if (!s.input.endsWith(".json")) continue;
        const file = path.join(p.dir, "data", `${baseName(s.input)}.json`);
        out.push({ label: `${p.name}/${s.ir.name}`, ir: s.ir, ...(existsSync(file) ? { data: JSON.parse(readFileSync(file, "utf8")) } : {}) });
      }
    }
    for (const [key, schema] of Object.entries(INLINE_SCHEMAS)) out.push({ label: `inline/${key}`, ir: schemaToIR(schema, { source: `${key}.schema.json`, baseDir: process.cwd() }) });
    return out;
  })();
  return subjectsPromise;
}

function roundTrip(s: Subject, v: unknown, what: string): void {
  const d = denseOf(s.ir);
  const text = d.toText(v);
  let back: unknown;
  try {
    back = d.fromText(text);
  } catch (e) {
    assert.fail(`${s.label} ${what}: fromText failed: ${(e as Error).message} at ${(e as ToonError).path}\nvalue: ${show(v)}\ntext:\n${text.slice(0, 1500)}`);
  }
  if (!isDeepStrictEqual(back, v)) assert.fail(`${s.label} ${what}: round trip differs\nvalue: ${show(v)}\nback:  ${show(back)}\ntext:\n${text.slice(0, 1500)}`);
}

test("dense: every example's data round-trips", async () => {
  let n = 0;
  for (const s of await subjects()) {
    if (s.data === undefined) continue;
    roundTrip(s, s.data, "data");
    n++;
  }
  assert.ok(n >= 4, `${n} example datasets`);
});

test("dense: seeded random values of every example and inline schema round-trip", async () => {
  for (const s of await subjects()) {
    const count = s.label === "inline/wide" ? 20 : 150;
    for (let seed = 1; seed <= count; seed++) roundTrip(s, arbitrary(s.ir, seed), `seed ${seed}`);
  }
});

test("dense: bad text fails with a ToonError naming line, column and the value's path", async () => {
  const orders = (await subjects()).find((s) => s.label === "orders/OrderList")!;
  const d = denseOf(orders.ir);
  const good = d.toText(orders.data);
  const lines = good.split("\n");
  const at = (text: string) => catchToon(() => d.fromText(text));

  // one row fewer than declared
  let e = at(lines.slice(0, -1).join("\n"));
  assert.equal(e.code, "TEXT_SYNTAX");
  assert.match(e.message, /declares 30 rows, found 29/);

  // a number cell holding a word: the row's path and the field
  const bad = lines.slice();
  bad[2] = bad[2]!.replace(",1010,", ",ten,");
  e = at(bad.join("\n"));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/orders/1/customer/id");
  assert.equal(e.line, 3);
  assert.equal(e.column, bad[2]!.indexOf("ten") + 1);

  // a field the schema does not have
  e = at(good.replace("{id,customer{", "{id,colour,customer{"));
  assert.equal(e.code, "INVALID_VALUE");
  assert.match(e.message, /unknown field "colour"/);
  assert.equal(e.line, 1);

  // a required field left out of the header
  e = at(good.replace(",total,", ",").replace(/,(\d+(\.\d+)?),(CNY|HKD|JPY|KRW|SGD|USD|EUR|GBP),/g, ",$3,"));
  assert.match(e.message, /missing required field "total"/);

  // an empty cell is an absent field: required ones must not be empty
  const empty = lines.slice();
  empty[1] = empty[1]!.replace(/^ORD-[0-9-]+,/, ",");
  e = at(empty.join("\n"));
  assert.equal(e.path, "/orders/0/id");
  assert.match(e.message, /missing required field "id"/);

  // more cells than the header names
  const extra = lines.slice();
  extra[1] = extra[1] + ",x";
  e = at(extra.join("\n"));
  assert.equal(e.code, "TEXT_SYNTAX");
  assert.equal(e.line, 2);
});

test("dense: an empty cell of an optional field is absent, \"\" is the empty string; schema strings need no quotes", async () => {
  const orders = (await subjects()).find((s) => s.label === "orders/OrderList")!;
  const d = denseOf(orders.ir);
  const v = structuredClone(orders.data) as { orders: Record<string, unknown>[] };
  v.orders = v.orders.slice(0, 2);
  v.orders[0]!.note = "";
  delete v.orders[1]!.note;
  v.orders[1]!.id = "123";
  const text = d.toText(v);
  const rows = text.split("\n");
  assert.ok(rows[1]!.endsWith(',""'), rows[1]);
  assert.ok(rows[2]!.endsWith(","), rows[2]);
  assert.ok(rows[2]!.startsWith("123,"), rows[2]);
  assert.deepStrictEqual(d.fromText(text), v);
});

test("dense: generated modules: toText/fromText with { layout }, detection, fromModelOutput and formatInstructions", async () => {
  const { OrderList } = await import("../examples/orders/gen/order-list.ts");
  const { ExtractionResult } = await import("../examples/extraction/gen/extraction-result.ts");
  const orders = (await subjects()).find((s) => s.label === "orders/OrderList")!;
  const value = orders.data as never;
  const dense = OrderList.toText(value, { layout: "dense" });
  assert.equal(dense, denseOf(orders.ir).toText(value), "the module's dense text is the runtime driver's");
  assert.notEqual(dense, OrderList.toText(value));
  assert.deepStrictEqual(OrderList.fromText(dense), value);
  assert.deepStrictEqual(OrderList.fromText(dense, { layout: "dense" }), value);
  assert.deepStrictEqual(OrderList.fromText(OrderList.toText(value)), value, "TOON v4 is still detected");
  assert.throws(() => OrderList.fromText(dense, { layout: "toon" }), ToonError);
  // a reply with prose around a fenced dense block
  assert.deepStrictEqual(OrderList.fromModelOutput("Here you go:\n\n```toon\n" + dense + "\n```\nAnything else?"), value);
  // cut off in the middle of the table: INCOMPLETE, never a partial value
  const cut = dense.split("\n").slice(0, 10).join("\n");
  assert.equal(catchToon(() => OrderList.fromModelOutput("```toon\n" + cut)).code, "INCOMPLETE");
  assert.equal(catchToon(() => OrderList.fromModelOutput(cut)).code, "INCOMPLETE");
  for (const codec of [OrderList, ExtractionResult] as { formatInstructions(o?: { layout?: "dense" }): string; fromModelOutput(o: string): unknown; fromText(t: string, o?: { layout?: "dense" }): unknown }[]) {
    const s = codec.formatInstructions({ layout: "dense" });
    assert.match(s, /^Reply with dense TOON/);
    assert.match(s, /Dense TOON rules:/);
    const block = /```toon\n([\s\S]*?)\n```/.exec(s)![1]!;
    // the example is dense text for this schema (placeholders like <id> are not schema-valid: fromText only)
    codec.fromText(block, { layout: "dense" });
    assert.notEqual(codec.formatInstructions(), s);
  }
  assert.match(OrderList.formatInstructions({ layout: "dense" }), /orders\[1\]\{id,customer\{id,name,email,address\{street,city,postcode,country\}\},items\[\]\{sku,name,qty,unitPrice\},/);
  assert.match(OrderList.formatInstructions({ layout: "dense" }), /Notes:\n- orders\[\]\.currency: one of/);
});

test("dense: strict about inline arrays, union rows, enums, nulls, indentation and JSON cells", async () => {
  const all = await subjects();
  const orders = denseOf(all.find((s) => s.label === "orders/OrderList")!.ir);
  const ex = all.find((s) => s.label === "extraction/ExtractionResult")!;
  const extraction = denseOf(ex.ir);
  const ordersText = orders.toText(all.find((s) => s.label === "orders/OrderList")!.data);
  const exText = extraction.toText(ex.data);
  const at = (d: typeof orders, text: string) => catchToon(() => d.fromText(text));

  // an inline array with fewer items than it declares
  let e = at(orders, ordersText.replace("[1:STD-LAP-AL,Laptop Stand,4,302.4]", "[2:STD-LAP-AL,Laptop Stand,4,302.4]"));
  assert.equal(e.code, "TEXT_SYNTAX");
  assert.match(e.message, /declares 2 items, found 1/);
  assert.equal(e.path, "/orders/0/items");
  // an enum value the schema does not list
  e = at(orders, ordersText.replace(",CNY,delivered,", ",CNY,lost,"));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/orders/0/status");
  assert.match(e.message, /one of "pending"/);
  // a union row: an unknown discriminator, and a cell in a column its variant does not have
  const lines = exText.split("\n");
  const row = lines.findIndex((l) => l.includes("[4:organization,"));
  const bad = lines.slice();
  bad[row] = bad[row]!.replace("[4:organization,", "[4:company,");
  e = at(extraction, bad.join("\n"));
  assert.equal(e.code, "INVALID_VALUE");
  assert.match(e.message, /type must be one of/);
  assert.match(e.path, /^\/documents\/\d+\/entities\/0\/type$/);
  assert.equal(e.line, row + 1);
  const extra = lines.slice();
  extra[row] = extra[row]!.replace(/\[4:person,([^,;]*),([^,;]*),([^,;]*),,/, "[4:person,$1,$2,$3,XYZ,");
  if (extra[row] !== lines[row]) {
    e = at(extraction, extra.join("\n"));
    assert.equal(e.code, "INVALID_VALUE");
    assert.match(e.message, /has no field for this column/);
  }
  // a raw null where the schema wants a string; quoted, it is the text "null"
  e = at(extraction, exText.replace(/^model: .*$/m, "model: null"));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/model");
  assert.equal((extraction.fromText(exText.replace(/^model: .*$/m, 'model: "null"')) as { model: string }).model, "null");
  // a field line at the wrong indentation, and a field the schema does not have
  e = at(extraction, exText.replace(/^model: /m, " model: "));
  assert.equal(e.code, "TEXT_SYNTAX");
  e = at(extraction, "colour: red\n" + exText);
  assert.equal(e.code, "INVALID_VALUE");
  assert.match(e.message, /unknown field "colour"/);
  assert.equal(e.line, 1);
});

test("dense: composite cells are JSON, checked against their shape", async () => {
  const d = denseOf(schemaToIR(
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "Mixed",
      type: "object",
      properties: {
        pairs: { type: "array", items: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false } },
        counts: { type: "object", additionalProperties: { type: "integer" } },
        rows: { type: "array", items: { type: "object", properties: { id: { type: "integer" }, meta: { type: "object", additionalProperties: { type: "string" } } }, required: ["id"], additionalProperties: false } },
      },
      required: ["pairs", "counts", "rows"],
      additionalProperties: false,
    },
    { source: "mixed.schema.json", baseDir: process.cwd() },
  ));
  const v = { pairs: [["a", 1], ["b,c", -0 === 0 ? 2 : 2]], counts: { x: 1, "y z": 2 }, rows: [{ id: 1, meta: { k: "v" } }, { id: 2 }] };
  // so small a document with no table is fewer tokens as compact JSON, which toText writes and fromText reads
  // (checked)
  const small = { pairs: v.pairs, counts: v.counts, rows: [] };
  const json = d.toText(small);
  assert.equal(json, JSON.stringify(small));
  assert.deepStrictEqual(d.fromText(json), small);
  const bad = catchToon(() => d.fromText(json.replace('"x":1', '"x":"one"')));
  assert.equal(bad.code, "INVALID_VALUE");
  assert.equal(bad.path, "/counts/x");
  assert.equal(catchToon(() => d.fromText(json + " x")).code, "TEXT_SYNTAX");
  // a number beyond float64 in a JSON cell (JSON.parse's Infinity) is refused, not decoded
  const huge = catchToon(() => d.fromText(json.replace('"x":1', '"x":1e999')));
  assert.equal(huge.code, "TEXT_SYNTAX");
  assert.match(huge.message, /beyond the range of float64/);
  // the dense lines of the same value
  const text = d.lines(v);
  assert.deepStrictEqual(d.fromText(text), v);
  assert.match(text, /^pairs: \[\["a",1\],\["b,c",2\]\]$/m);
  // maps of scalars are field groups and table columns of the keys they have (§3, open objects), their cells of
  // the map's value type; JSON there still reads
  assert.match(text, /^counts\{x,"y z"\}: 1,2$/m);
  assert.match(text, /^rows\[2\]\{id,meta\{k\}\}:$/m);
  assert.deepStrictEqual(d.fromText(text.replace('counts{x,"y z"}: 1,2', 'counts: {"x":1,"y z":2}').replace("rows[2]{id,meta{k}}:\n  1,v", 'rows[2]{id,meta}:\n  1,{"k":"v"}')), v);
  const e = catchToon(() => d.fromText(text.replace('counts{x,"y z"}: 1,2', 'counts{x,"y z"}: one,2')));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/counts/x");
  assert.equal(e.line, 2);
});

test("dense: UTC date-time stamps are written in ISO 8601 basic form and read back character for character", async () => {
  const d = denseOf(schemaToIR(
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "Stamps",
      type: "object",
      properties: {
        events: {
          type: "array",
          items: {
            type: "object",
            properties: { at: { type: "string", format: "date-time" }, until: { type: ["string", "null"], format: "date-time" }, note: { type: "string" } },
            required: ["at"],
            additionalProperties: false,
          },
        },
      },
      required: ["events"],
      additionalProperties: false,
    },
    { source: "stamps.schema.json", baseDir: process.cwd() },
  ));
  const events = [
    { at: "2025-03-14T08:57:34Z", until: "2025-03-14T09:00:00.250Z", note: "2025-03-14T08:57:34Z" },
    { at: "2025-03-14T08:57:34+08:00", until: null, note: "a" },
    { at: "20250314T085734Z", note: "b" }, // already basic (not RFC 3339): quoted, so it is not expanded
    { at: "2025-03-14t08:57:34z", note: "c" },
    { at: "2025-03-14T08:57:34Z", note: "d" },
    { at: "2025-03-14T08:57:34Z", note: "e" },
  ];
  const text = d.lines({ events });
  assert.deepStrictEqual(d.fromText(text), { events });
  assert.match(text, /^20250314T085734Z,20250314T090000\.250Z,2025-03-14T08:57:34Z$/m); // a plain string field keeps its spelling
  assert.match(text, /^2025-03-14T08:57:34\+08:00,null,a$/m);
  assert.match(text, /^"20250314T085734Z",,b$/m);
  // a model that writes the extended form is read as written
  assert.deepStrictEqual(d.fromText(text.replace("20250314T085734Z,20250314T090000.250Z", "2025-03-14T08:57:34Z,2025-03-14T09:00:00.250Z")), { events });
});

test("dense: date fields are written as YYYYMMDD and read back as YYYY-MM-DD; a union with a number keeps the extended form", () => {
  const d = denseOf(schemaToIR(
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "Days",
      type: "object",
      properties: {
        days: {
          type: "array",
          items: {
            type: "object",
            properties: {
              on: { type: "string", format: "date" },
              maybe: { type: ["string", "null"], format: "date" },
              either: { anyOf: [{ type: "string", format: "date" }, { type: "integer" }] },
              note: { type: "string" },
            },
            required: ["on"],
            additionalProperties: false,
          },
        },
        first: { type: "string", format: "date" },
      },
      required: ["days"],
      additionalProperties: false,
    },
    { source: "days.schema.json", baseDir: process.cwd() },
  ));
  const value = {
    first: "2025-01-15",
    days: [
      { on: "2025-01-15", maybe: "2025-02-01", either: "2025-03-01", note: "2025-01-15" },
      { on: "20250115", maybe: null, either: 20250115, note: "a" }, // already basic (not a date): quoted, not expanded
      { on: "2025-1-5", note: "b" }, // not the exact form: as written
      { on: "2025-12-31", note: "c" },
    ],
  };
  const text = d.lines(value);
  assert.deepStrictEqual(d.fromText(text), value);
  assert.match(text, /^first:20250115$/m);
  assert.match(text, /^ {2}20250115,20250201,2025-03-01,2025-01-15$/m); // string|integer and plain strings keep their spelling
  assert.match(text, /^ {2}"20250115",null,20250115,a$/m);
  assert.match(text, /^ {2}2025-1-5,,,b$/m);
  // a model that writes the extended form is read as written
  assert.deepStrictEqual(d.fromText(text.replace("first:20250115", "first: 2025-01-15")), value);
  // a basic stamp reads as no number: a date-time union with an integer branch still takes the basic form
  const s = denseOf(schemaToIR({ type: "object", properties: { at: { anyOf: [{ type: "string", format: "date-time" }, { type: "integer" }] } }, additionalProperties: false }, { source: "at.schema.json", baseDir: process.cwd() }));
  for (const at of ["2025-03-14T08:57:34Z", 1741942654, "20250314T085734Z"]) assert.deepStrictEqual(s.fromText(s.lines({ at })), { at });
  assert.equal(s.lines({ at: "2025-03-14T08:57:34Z" }), "at:20250314T085734Z");
  assert.equal(s.lines({ at: "20250314T085734Z" }), 'at: "20250314T085734Z"');
});

test("dense: an inline array item leaves out its trailing empty cells; a table row may not", async () => {
  const d = denseOf(schemaToIR(
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "Trail",
      type: "object",
      properties: {
        rows: {
          type: "array",
          items: {
            type: "object",
            properties: {
              id: { type: "integer" },
              tags: { type: "array", items: { type: "object", properties: { k: { type: "string" }, v: { type: "string" }, w: { type: "object", properties: { x: { type: "integer" }, y: { type: "integer" } }, required: ["x"], additionalProperties: false } }, required: ["k"], additionalProperties: false } },
              note: { type: "string" },
            },
            required: ["id", "tags"],
            additionalProperties: false,
          },
        },
      },
      required: ["rows"],
      additionalProperties: false,
    },
    { source: "trail.schema.json", baseDir: process.cwd() },
  ));
  const v = {
    rows: [
      { id: 1, tags: [{ k: "a" }, { k: "b", v: "1" }, { k: "c", w: { x: 1 } }, { k: "d", v: "", w: { x: 2, y: 3 } }], note: "n" },
      { id: 2, tags: [{ k: "e", v: "2" }] },
    ],
  };
  const text = d.lines(v);
  assert.deepStrictEqual(d.fromText(text), v);
  assert.match(text, /^1,\[4:a;b,1;c,,1;d,"",2,3\],n$/m);
  assert.match(text, /^2,\[1:e,2\],$/m); // the row keeps its empty last cell (a table row has every cell)
  // the full spelling reads the same
  assert.deepStrictEqual(d.fromText(text.replace("[4:a;b,1;c,,1;", "[4:a,,,;b,1,,;c,,1,;")), v);
  // a required field cannot be left out, nor can a table row's cells
  const e = catchToon(() => d.fromText(text.replace("[4:a;b,1;c,,1;", "[4:a;b,1;c,,,2;")));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/rows/0/tags/2/w/x");
  assert.equal(catchToon(() => d.fromText(text.replace("[1:e,2],", "[1:e,2]"))).code, "TEXT_SYNTAX");
});

test("dense: a number cell beyond float64 is INVALID_VALUE at its path, never Infinity", async () => {
  const { LogReportDense } = await import("../examples/logs/gen/log-report.ts");
  const v = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "examples", "logs", "data", "log-report.json"), "utf8"));
  const text = LogReportDense.toText(v);
  // as the writer spells a text cell: a fraction below 1 without its leading zero
  const rate = String(v.services[0].errorRate).replace(/^(-?)0\./, "$1.");
  const i = text.indexOf("," + rate + ",");
  assert.ok(i > 0, "the first service's errorRate is a table cell");
  const e = catchToon(() => LogReportDense.fromText(text.slice(0, i + 1) + "1e999" + text.slice(i + 1 + rate.length)));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/services/0/errorRate");
});

// The reader parses plain number cells in place (read.ts plainNumber) and hands everything else to the general
// path: both must give exactly what Number(token) gives, and the same errors, in every cell position.
test("dense: number cells read as Number(token) does: in place for plain decimals, the general path for the rest", () => {
  const ir = schemaToIR(
    {
      type: "object",
      required: ["n"],
      properties: {
        n: { type: "number" },
        i: { type: "integer" },
        rows: { type: "array", items: { type: "object", properties: { x: { type: "number" }, y: { type: "integer" } } } },
        tags: { type: "array", items: { type: "number" } },
      },
    },
    { source: "numbers.schema.json", baseDir: process.cwd() },
  );
  const d = denseOf(ir);
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const digits = (n: number): string => Array.from({ length: n }, () => String(rnd(10))).join("");
  const tokens = ["0", "-0", "0.5", "-0.125", "1.0", "302.4", "9007199254740991", "999999999999999", "0.1", "0.30000000000000004", "123456789012345.6", "1e5", "5E-3", "1.5e+300", ".5", "-.125", ".0", ".30000000000000004", "-.5e3", ".25E-2"];
  for (let k = 0; k < 400; k++) {
    const int = rnd(4) === 0 ? "0" : String(1 + rnd(9)) + digits(rnd(16));
    const tok = (rnd(3) === 0 ? "-" : "") + int + (rnd(2) === 0 ? "." + digits(1 + rnd(18)) : "");
    tokens.push(tok);
  }
  for (const tok of tokens) {
    const want = Number(tok);
    const v = d.fromText(`n:${tok}\nrows[2]{x,y}:\n  ${tok},1\n  1,\ntags[2]: ${tok},${tok}`) as { n: number; rows: { x: number }[]; tags: number[] };
    for (const got of [v.n, v.rows[0]!.x, v.tags[0]!, v.tags[1]!]) assert.ok(Object.is(got, want), `${tok}: got ${got}, want ${want}`);
    if (Number.isSafeInteger(want)) assert.ok(Object.is((d.fromText(`n:1\ni:${tok}`) as { i: number }).i, want), tok);
    else if (Number.isInteger(want)) assert.equal((d.fromText(`n:1\ni:${tok}`) as { i: number }).i, want, tok);
    else assert.equal(catchToon(() => d.fromText(`n:1\ni:${tok}`)).code, "INVALID_VALUE", tok);
  }
  // not numbers: each one the same error wherever it stands
  for (const tok of ["01", "1.", ".", "-.", ".e5", "..5", "-", "+1", "1.5.2", "0x10", "1e", "12a", "1e999", "- 1"]) {
    const e1 = catchToon(() => d.fromText(`n:1\nrows[1]{x,y}:\n  ${tok},1`));
    assert.equal(e1.path, "/rows/0/x", tok);
    assert.equal(e1.line, 3, tok);
    assert.equal(e1.column, 3, tok);
    const e2 = catchToon(() => d.fromText(`n:${tok}`));
    assert.equal(e2.path, "/n", tok);
    assert.equal(e2.column, 3, tok);
  }
});

test("dense: int64 cells: safe values as numbers (bigints under int64: bigint), -0 and fractions as the text check reads them", () => {
  const schema = { type: "object", required: ["a"], properties: { a: { type: "integer", format: "int64" }, t: { type: "array", items: { type: "integer", format: "int64" } } } };
  const auto = denseOf(schemaToIR(schema, { source: "i64.schema.json", baseDir: process.cwd() }));
  const big = denseOf(withInt64Mode(schemaToIR(schema, { source: "i64.schema.json", baseDir: process.cwd() }), "bigint"));
  const cases: [string, number | bigint, bigint][] = [
    ["12", 12, 12n],
    ["-7", -7, -7n],
    ["-0", 0, 0n],
    ["1.0", 1, 1n],
    ["999999999999999", 999999999999999, 999999999999999n],
    ["9007199254740993", 9007199254740993n, 9007199254740993n],
    ["-9223372036854775808", -9223372036854775808n, -9223372036854775808n],
  ];
  for (const [tok, a, b] of cases) {
    const x = auto.fromText(`a:${tok}\nt[2]: ${tok},${tok}`) as { a: unknown; t: unknown[] };
    assert.ok(Object.is(x.a, a) && Object.is(x.t[0], a) && Object.is(x.t[1], a), `${tok}: ${String(x.a)}`);
    const y = big.fromText(`a:${tok}\nt[2]: ${tok},${tok}`) as { a: unknown; t: unknown[] };
    assert.ok(y.a === b && y.t[0] === b && y.t[1] === b, `${tok} (bigint): ${String(y.a)}`);
  }
  assert.equal(catchToon(() => auto.fromText("a:1.5")).code, "INVALID_VALUE");
});

// A text cell spells a fraction between -1 and 1 without its leading zero (`.96`: one token fewer in o200k_base);
// JSON stays JSON, and a string that would read as such a number in a string|number union is quoted.
test("dense: fractions below 1 drop their leading zero in text cells, keep it in JSON, and read back either way", () => {
  const ir = schemaToIR(
    {
      type: "object",
      required: ["p"],
      properties: {
        p: { type: "number" },
        rows: { type: "array", items: { type: "object", properties: { x: { type: "number" }, k: { type: "array", items: { type: "object", properties: { w: { type: "number" } } } } } } },
        tags: { type: "array", items: { type: "number" } },
        u: { type: "array", items: { type: ["string", "number"] } },
        j: {},
        z: { type: "array", items: { type: "number" } },
      },
    },
    { source: "fractions.schema.json", baseDir: process.cwd() },
  );
  const d = denseOf(ir);
  const v = { p: 0.96, rows: [{ x: -0.5, k: [{ w: 0.25 }, { w: 1.5 }] }, { x: 0 }], tags: [0.001, -0.07, 2, -0, 1e-7], u: [".5", 0.5, "0.5", "-.5"], j: { a: [0.5] }, z: [0] };
  const text = d.lines(v);
  assert.equal(
    text,
    ["p:.96", "rows[2]{x,k[]{w}}:", "  -.5,[2:.25;1.5]", "  0,", "tags[5]:.001,-.07,2,-0,1e-7", 'u[4]: ".5",.5,"0.5","-.5"', 'j{a}: [0.5]', "z[1]:0"].join("\n"),
  );
  assert.deepEqual(d.fromText(text), v);
  assert.ok(Object.is((d.fromText(text) as { tags: number[] }).tags[3], -0));
  // what a model may write: the leading zero, or none
  assert.deepEqual(d.fromText(text.replace("p:.96", "p: 0.96").replace("-.5,[2:.25", "-0.5,[2:0.25")), v);
  assert.deepEqual(d.fromText("p:-.5e1"), { p: -5 });
  for (const bad of ["p:.", "p:-.", "p:.e5", "p:..5", "p:0..5"]) {
    const e = catchToon(() => d.fromText(bad));
    assert.equal(e.code, "INVALID_VALUE", bad);
    assert.equal(e.path, "/p", bad);
  }
});

// Open positions (`{}`, maps): objects of scalars become field groups and table columns of the keys the data has
// (docs/TEXT.md §3), their cells spelled to read back without the schema. Seeded random values over awkward keys
// and the strings that would read as another kind or as JSON; sparse keys, `{}`, composites and nulls fall back to
// JSON cells, which read as before.
test("dense: open objects and maps of scalars take headers of their keys, and read back exactly", () => {
  const ir = schemaToIR(
    {
      type: "object",
      properties: {
        hits: { type: "array", items: { type: "object", required: ["id", "must"], properties: { id: { type: "integer" }, meta: { type: "object" }, must: {}, maybe: { type: ["object", "null"] } } } },
        labels: { type: "object", additionalProperties: { type: "string" } },
        nums: { type: "object", additionalProperties: { type: "number" } },
        rows: { type: "array", items: {} },
        one: {},
        typed: { type: "array", items: { type: "object", additionalProperties: { type: ["integer", "null"] } } },
      },
    },
    { source: "open.schema.json", baseDir: process.cwd() },
  );
  const d = denseOf(ir);
  const rng = new Rng(2026);
  const keys = ["x", "id", "__proto__", "constructor", "toString", "a b", "x,y", "k:v", "{b}", "[c]", "-d", "", " sp", "é名", 'q"', "u\u2028", "null"];
  const strings = ["", "a", "123", "-1", ".5", "1e5", "true", "false", "null", "{a", "[b", "a,b", "a;b", "x]", " lead", "trail ", '"q"', "\\", "\u2028", "北京", "-", "- x"];
  const scalar = (): unknown => {
    const r = rng.next();
    if (r < 0.5) return rng.pick(strings);
    if (r < 0.75) return rng.pick([0, -0, 1, -7, 0.5, -0.25, 1e21, 5e-7, 123456789.125]);
    if (r < 0.9) return rng.chance(0.5);
    return null;
  };
  const object = (ints = false, depth = 0): Record<string, unknown> => {
    const o: Record<string, unknown> = {};
    const n = rng.int(0, 4);
    for (let i = 0; i < n; i++) {
      const r = rng.next();
      setOwn(o, rng.pick(keys), ints ? (r < 0.8 ? rng.int(-9, 99) : null) : r < 0.05 ? [scalar()] : r < 0.2 && depth < 6 ? object(false, depth + 1) : scalar());
    }
    return o;
  };
  let groups = 0;
  for (let k = 0; k < 300; k++) {
    const v: Record<string, unknown> = {
      hits: Array.from({ length: rng.int(1, 4) }, (_, i) => {
        const h: Record<string, unknown> = { id: i, must: rng.chance(0.9) ? object() : scalar() };
        if (rng.chance(0.8)) h.meta = object();
        if (rng.chance(0.5)) h.maybe = rng.chance(0.8) ? object() : null;
        return h;
      }),
      labels: Object.fromEntries(Object.entries(object()).map(([key, x]) => [key, typeof x === "string" ? x : JSON.stringify(x)])),
      nums: Object.fromEntries(Object.entries(object(true)).map(([key, x]) => [key, x ?? 0.5])),
      rows: Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.9) ? object() : scalar())),
      one: rng.chance(0.7) ? object() : scalar(),
      typed: Array.from({ length: rng.int(0, 3) }, () => object(true)),
    };
    for (const text of [d.toText(v), d.lines(v)]) {
      let back: unknown;
      try {
        back = d.fromText(text);
      } catch (e) {
        assert.fail(`value ${k}: ${(e as Error).message}\n${text}`);
      }
      assert.ok(isDeepStrictEqual(back, v), `value ${k}: ${show(back)}\n!= ${show(v)}\n${text}`);
    }
    if (/^(?:hits\[\d+\]\{[^\n]*\{|labels\{|nums\{|rows\[\d+\]\{|one\{)/m.test(d.lines(v))) groups++;
  }
  assert.ok(groups > 150, `open headers written for ${groups} of 300 values`);
  // what the reader takes at an open position, and what it refuses
  assert.deepEqual(d.fromText('rows[2]{a,b}:\n  1,{"deep":[1]}\n  ,"x"\none{k,"a b"}: [2],'), { rows: [{ a: 1, b: { deep: [1] } }, { b: "x" }], one: { k: [2] } });
  assert.deepEqual(d.fromText("nums{a}: 2"), { nums: { a: 2 } });
  const typed = catchToon(() => d.fromText("nums{a,b}: 2,two"));
  assert.equal(typed.code, "INVALID_VALUE");
  assert.equal(typed.path, "/nums/b");
  const twice = catchToon(() => d.fromText("one{a,a}: 1,2"));
  assert.equal(twice.code, "TEXT_SYNTAX");
  assert.equal(twice.path, "/one");
  // where anything may stand, a key's objects are nested headers (the writer nests 4 below the first); a map's
  // values are one cell each, and an array is a JSON cell
  assert.deepEqual(d.fromText('one{a{b,c{d}},e}: 1,x,2'), { one: { a: { b: 1, c: { d: "x" } }, e: 2 } });
  assert.equal(d.lines({ one: { a: { b: { c: { d: { e: { f: 1 } } } } } } }), 'one{a{b{c{d{e}}}}}: {"f":1}');
  for (const [bad, at] of [["nums{a{b}}: 1", "/nums"], ["one{a[]}: [1:2]", "/one"]]) {
    const e = catchToon(() => d.fromText(bad!));
    assert.equal(e.code, "INVALID_VALUE", bad);
    assert.equal(e.path, at, bad);
    assert.match(e.message, /open object/, bad);
  }
  // a map of strings: its cells are strings, `{` and all (the schema says so)
  assert.deepEqual(d.fromText("labels{a,b}: {x,[y"), { labels: { a: "{x", b: "[y" } });
});

// Anything (`{}`) holding arrays and objects: a table where its items are objects, field lines where an object
// holds such an array, scalars raw where they read back as themselves; the root too. JSON still reads everywhere.
test("dense: an any position holds tables and field lines of its data's keys, and reads its JSON as before", () => {
  const ir = (schema: object) => schemaToIR(schema, { source: "any.schema.json", baseDir: process.cwd() });
  const root = denseOf(ir({}));
  const field = denseOf(ir({ type: "object", properties: { out: {}, n: { type: "integer" } } }));
  const map = denseOf(ir({ type: "object", additionalProperties: { type: "boolean" } }));
  const records = [{ id: 1, name: "a", score: 0.5 }, { id: 2, name: "true", score: 1 }];
  const cases: [ReturnType<typeof denseOf>, unknown, string][] = [
    [root, records, 'id,name,score}:\n  1,a,.5\n  2,"true",1'],
    [root, { results: records, total: 2, q: "hello", s: "123", z: null }, 'results[2]{id,name,score}:\n  1,a,.5\n  2,"true",1\ntotal:2\nq: hello\ns: "123"\nz: null'],
    [field, { out: records, n: 1 }, 'out[2]{id,name,score}:\n  1,a,.5\n  2,"true",1\nn:1'],
    [field, { out: { rows: records, page: 1 } }, 'out:\n  rows[2]{id,name,score}:\n    1,a,.5\n    2,"true",1\n  page:1'],
    [field, { out: "{not json" }, 'out: "{not json"'],
    [field, { out: [1, [2]] }, "out: [1,[2]]"],
  ];
  for (const [d, v, want] of cases) {
    const lines = d.lines(v);
    assert.ok(lines.endsWith(want), `${lines}\n-- does not end with --\n${want}`);
    assert.deepStrictEqual(d.fromText(lines), v, lines);
    assert.deepStrictEqual(d.fromText(d.toText(v)), v);
  }
  // a root whose lines would begin as JSON does (a key quoted or starting with a digit) is JSON
  assert.equal(map.lines({ "2": true, b: false }), '{"2":true,"b":false}');
  assert.equal(root.lines({ "a b": 1 }), '{"a b":1}');
  assert.deepStrictEqual(map.fromText("a: true\nb: false"), { a: true, b: false });
  // JSON and raw scalars at an any position
  assert.deepStrictEqual(field.fromText('out: {"a":[1]}\nn:2'), { out: { a: [1] }, n: 2 });
  assert.deepStrictEqual(field.fromText("out: plain words"), { out: "plain words" });
  assert.deepStrictEqual(root.fromText('"str"'), "str");
  assert.deepStrictEqual(root.fromText("[1,2]"), [1, 2]);
  const rows = catchToon(() => field.fromText("out[2]{a}:\n  1"));
  assert.equal(rows.code, "TEXT_SYNTAX");
  assert.equal(rows.path, "/out");
  const notBool = catchToon(() => map.fromText("a: maybe"));
  assert.equal(notBool.code, "INVALID_VALUE");
  assert.equal(notBool.path, "/a");
});

// `oneOf: [{type: "null"}, A, B]` (GeoJSON's geometry): the schema's union has no discriminator (null is no
// object), but its objects have one, so the dense layout writes them as X of `X | null`: a variant group.
test("dense: the discriminated objects of a union with a null branch are a variant group; a null among them is JSON", () => {
  const point = { type: "object", required: ["type", "coordinates"], properties: { type: { enum: ["Point"] }, coordinates: { type: "array", items: { type: "number" } } } };
  const line = { type: "object", required: ["type", "coordinates"], properties: { type: { enum: ["LineString"] }, coordinates: { type: "array", items: { type: "array", items: { type: "number" } } } } };
  const d = denseOf(schemaToIR(
    { type: "object", properties: { features: { type: "array", items: { type: "object", required: ["id", "geometry"], properties: { id: { type: "string" }, geometry: { oneOf: [{ type: "null" }, point, line] } } } } } },
    { source: "geo.schema.json", baseDir: process.cwd() },
  ));
  const v = { features: [{ id: "a", geometry: { type: "Point", coordinates: [-118.5, 0.25] } }, { id: "b", geometry: { type: "LineString", coordinates: [[1, 2], [3, 4]] } }] };
  const text = d.lines(v);
  assert.equal(text, 'features[2]{id,geometry{type,coordinates}}:\na,Point,[-118.5,0.25]\nb,LineString,[[1,2],[3,4]]');
  assert.deepStrictEqual(d.fromText(text), v);
  const withNull = { features: [...v.features, { id: "c", geometry: null }] };
  assert.match(d.lines(withNull), /^c,null$/m);
  assert.deepStrictEqual(d.fromText(d.lines(withNull)), withNull);
  const points = { features: [{ id: "p", geometry: { type: "Point", coordinates: [1, 2] } }] };
  assert.equal(d.lines(points), "features[1]{id,geometry{type,coordinates[]}}:\np,Point,[2:1;2]");
  const e = catchToon(() => d.fromText("features[1]{id,geometry{type,coordinates[]}}:\n  p,Polygon,[2:1;2]"));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/features/0/geometry/type");
});

// Strict structured outputs (OpenAI strict mode) make every field required and the optional ones nullable: such a
// null is an empty cell where its group has more than one cell (a required field is never absent, so the empty
// cell can only be null), and `null` where it stands alone, so that no row or item looks empty.
test("dense: a required nullable scalar's null is an empty cell among others, null alone, and either reads back", () => {
  const d = denseOf(schemaToIR(
    {
      type: "object",
      required: ["rows"],
      properties: {
        rows: { type: "array", items: { type: "object", required: ["id", "note", "tags", "sub"], properties: {
          id: { type: "string" }, note: { type: ["string", "null"] }, n: { type: ["integer", "null"] },
          tags: { type: "array", items: { type: "object", required: ["k", "v"], properties: { k: { type: "string" }, v: { type: ["number", "null"] } } } },
          sub: { type: "object", required: ["a", "b"], properties: { a: { type: ["string", "null"] }, b: { type: ["boolean", "null"] } } },
        } } },
        one: { type: "array", items: { type: "object", required: ["a"], properties: { a: { type: ["string", "null"] } } } },
        g: { type: "object", required: ["a", "b"], properties: { a: { type: ["string", "null"] }, b: { type: ["string", "null"] } } },
        ev: { type: "array", items: { oneOf: [
          { type: "object", required: ["kind", "p", "r"], properties: { kind: { const: "a" }, p: { type: ["string", "null"] }, r: { type: "string" } } },
          { type: "object", required: ["kind"], properties: { kind: { const: "b" }, q: { type: ["string", "null"] } } },
        ] } },
      },
    },
    { source: "strict.schema.json", baseDir: process.cwd() },
  ));
  const v = {
    rows: [
      { id: "1", note: null, n: null, tags: [{ k: "a", v: null }, { k: "b", v: 0.5 }], sub: { a: null, b: null } },
      { id: "2", note: "", n: 3, tags: [], sub: { a: "null", b: false } },
    ],
    one: [{ a: null }, { a: "x" }],
    g: { a: null, b: null },
    ev: [{ kind: "a", p: null, r: "s" }, { kind: "b", q: null }],
  };
  const text = d.lines(v);
  assert.equal(
    text,
    [
      "rows[2]{id,note,n,tags[]{k,v},sub{a,b}}:",
      "  1,,null,[2:a;b,.5],,", // note empty, optional n `null`, v dropped from its item, sub's two empties
      '  2,"",3,[],"null",false',
      "one[2]{a}:",
      "  null",
      "  x",
      "g:", // every cell empty: field lines say what each one is
      "  a: null",
      "  b: null",
      "ev[2]{kind,p,r,q}:",
      "a,,s,",
      "b,,,null",
    ].join("\n"),
  );
  assert.deepStrictEqual(d.fromText(text), v);
  // what a model may write: `null` spelled out, or an empty cell, wherever the field is required and nullable
  assert.deepStrictEqual(d.fromText(text.replace("  1,,null,[2:a;b,.5],,", "  1,null,null,[2:a,null;b,.5],null,null").replace("  null\n  x", "  \n  x")), v);
  // a required field that cannot be null still may not be empty
  const e = catchToon(() => d.fromText(text.replace("\na,,s,", "\na,,,")));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/ev/0/r");
});
