// Schemaless mode (docs/FORMAT.md §10.4): lossless round trips of the examples, the corpus datasets and
// seeded random JSON; every truncation and random corruption ends in a ToonError (or a value, never anything
// else); hostile dictionaries are bounded; the worked examples of the spec; sizes against msgpackr with records.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Packr } from "msgpackr";
import { ToonError } from "../runtime/wire/errors.ts";
import { decodeSchemaless, encodeSchemaless, inferSchemaless, SchemalessKind as K, type SchemalessType } from "../runtime/schemaless.ts";
import { corpusRelative, datasetFiles } from "./corpus/index.ts";
import { Rng } from "./support/rng.ts";
import { OrderList } from "../examples/orders/gen/order-list.ts";
import { catchToon as toonError } from "./support/toon-error.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MAIN = path.join(ROOT, "generator", "cli", "main.ts");
const TSX = import.meta.resolve("tsx");

/** Every JSON document of the examples: data files and recorded API traffic (JSONL: one value per line). */
function exampleDocuments(): { name: string; value: unknown }[] {
  const out: { name: string; value: unknown }[] = [];
  const ex = path.join(ROOT, "examples");
  for (const d of readdirSync(ex, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const sub of ["data", "recorded"]) {
      let files: string[];
      try {
        files = readdirSync(path.join(ex, d.name, sub));
      } catch {
        continue;
      }
      for (const f of files.sort()) {
        const text = readFileSync(path.join(ex, d.name, sub, f), "utf8");
        if (f.endsWith(".json")) out.push({ name: `${d.name}/${sub}/${f}`, value: JSON.parse(text) });
        else if (f.endsWith(".jsonl")) {
          const lines = text.split("\n").filter((l) => l.trim() !== "");
          out.push({ name: `${d.name}/${sub}/${f}`, value: lines.map((l) => JSON.parse(l)) });
        }
      }
    }
  }
  return out;
}

/** Deep equality that also checks key order, -0 and number-vs-bigint. */
function same(a: unknown, b: unknown, at = ""): string | undefined {
  if (typeof a !== typeof b) return `${at}: ${typeof a} vs ${typeof b}`;
  if (typeof a === "number") return Object.is(a, b) ? undefined : `${at}: ${a} vs ${b}`;
  if (typeof a !== "object" || a === null || b === null) return a === b ? undefined : `${at}: ${String(a)} vs ${String(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${at}: array vs object`;
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  if (ka.join("\u0000") !== kb.join("\u0000")) return `${at}: keys ${JSON.stringify(ka)} vs ${JSON.stringify(kb)}`;
  for (const k of ka) {
    const why = same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}/${k}`);
    if (why) return why;
  }
  return undefined;
}

function roundTrip(value: unknown, label: string): Uint8Array {
  const bytes = encodeSchemaless(value);
  const back = decodeSchemaless(bytes);
  const why = same(value, back);
  assert.equal(why, undefined, `${label}: ${why}`);
  return bytes;
}


const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");

// -------------------------------------------------------------------------------------------- random JSON

const WORDS = ["id", "name", "url", "type", "value", "items", "__proto__", "", "é", "日本", "a/b", "~0", "x.y", "constructor", "k1", "k2"];
const PREFIXES = ["https://api.example.com/v1/users/", "/repos/o/r/issues/", "", "😀 ", "2025-01-"];

function randomString(rng: Rng): string {
  switch (rng.int(0, 7)) {
    case 0:
      return "";
    case 1:
      return rng.pick(PREFIXES) + rng.int(0, 1000);
    case 2:
      return new Date(Date.UTC(2000 + rng.int(0, 40), rng.int(0, 11), rng.int(1, 28), rng.int(0, 23), rng.int(0, 59), rng.int(0, 59), rng.chance(0.5) ? rng.int(0, 999) : 0))
        .toISOString()
        .replace(rng.chance(0.5) ? /\.000Z$/ : /^$/, "Z");
    case 3:
      return String(rng.int(-1e9, 1e9)) + (rng.chance(0.2) ? "0".repeat(rng.int(1, 12)) : "");
    case 4:
      return "x".repeat(rng.int(200, 300));
    case 5:
      return rng.pick(WORDS);
    case 6: {
      let s = "";
      for (let i = rng.int(1, 6); i > 0; i--) s += String.fromCodePoint(rng.pick([0x41, 0xe9, 0x65e5, 0x1f600, 0x10ffff, 0x7f, 0]));
      return s;
    }
    default:
      return "2024-02-29";
  }
}

function randomNumber(rng: Rng): number {
  return rng.pick([0, -0, 1, -1, 31, 32, 0.5, 19.99, -1e-7, 1e21, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 64 - 2048, 1e300, 5e-324, Number.MAX_VALUE, 0.1 + 0.2, rng.int(-1e6, 1e6), rng.int(0, 1e6) / 100]);
}

function randomScalar(rng: Rng): unknown {
  switch (rng.int(0, 5)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
    case 3:
      return randomNumber(rng);
    case 4:
      return rng.chance(0.1) ? rng.pick([2n ** 63n, -(2n ** 63n), 2n ** 64n - 1n, 12345678901234567890n]) : randomString(rng);
    default:
      return randomString(rng);
  }
}

function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Random JSON with repeated shapes (records, optional keys, reordered keys, maps, mixed arrays). */
function randomValue(rng: Rng, depth: number, shapes: string[][]): unknown {
  if (depth <= 0 || rng.chance(0.3)) return randomScalar(rng);
  switch (rng.int(0, 5)) {
    case 0:
    case 1: {
      // an array of records of a few shapes
      const n = rng.int(0, 6);
      const a: unknown[] = [];
      for (let i = 0; i < n; i++) a.push(randomValue(rng, depth - 1, shapes));
      return a;
    }
    case 2: {
      const n = rng.int(0, 5);
      return Array.from({ length: n }, () => (rng.chance(0.5) ? randomScalar(rng) : randomValue(rng, depth - 2, shapes)));
    }
    case 3: {
      // a map with numeric keys
      const o: Record<string, unknown> = {};
      const n = rng.int(0, 12);
      for (let i = 0; i < n; i++) setKey(o, String(rng.int(0, 1e6)), randomValue(rng, depth - 1, shapes));
      return o;
    }
    default: {
      if (shapes.length === 0 || rng.chance(0.2)) shapes.push(Array.from({ length: rng.int(0, 6) }, () => rng.pick(WORDS)));
      const keys = [...new Set(rng.pick(shapes))];
      if (rng.chance(0.2)) keys.reverse();
      const o: Record<string, unknown> = {};
      for (const k of keys) if (!rng.chance(0.15)) setKey(o, k, randomValue(rng, depth - 1, shapes));
      return o;
    }
  }
}

// -------------------------------------------------------------------------------------------- tests

describe("round trips", () => {
  test("every example document", () => {
    const docs = exampleDocuments();
    assert.ok(docs.length >= 10, `${docs.length} documents`);
    for (const d of docs) roundTrip(d.value, d.name);
  });

  test("every corpus dataset", (t) => {
    const files = datasetFiles();
    if (files.length === 0) {
      console.log("NOTICE: /work/shared/corpus is absent; corpus datasets skipped");
      t.skip("corpus absent");
      return;
    }
    for (const f of files) roundTrip(JSON.parse(readFileSync(f, "utf8")), corpusRelative(f));
  });

  test("edge values: -0, big numbers, __proto__, empty and nested containers, key order, bigints", () => {
    const proto = JSON.parse('{"__proto__": {"x": 1}, "a": [1, "b", null, [2, [3]], {}], "b": -0}');
    const cases: unknown[] = [
      null, true, false, 0, -0, 1.5, -1e-300, 1e300, 5e-324, 2 ** 53 + 2, -(2 ** 63), 2 ** 64 - 2048, "", "x", "é😀",
      [], {}, [[]], [{}], [[], [[]]], [[1, 2], [3, "4"], ["5", null], []],
      proto, [proto, proto], [{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1 }, { c: 3 }],
      [-0, -0, -0], [0, -0], { "": 1, "a/b": { "~": [true, false, true] } },
      [2n ** 63n, -(2n ** 63n), 2n ** 64n - 1n, 7, 2 ** 60],
      ["2025-01-15T10:30:00Z", "2025-01-15T10:30:00.123Z", "2025-01-15T10:30:00+01:00", "x", "2025-01-15T10:30:00.000Z"],
      Object.fromEntries(Array.from({ length: 200 }, (_, i) => [String(100000 + i), { id: i, name: "n" + i }])),
      Array.from({ length: 100000 }, () => null),
      Array.from({ length: 100000 }, () => ({ type: "Feature", a: null })),
      Array.from({ length: 70000 }, () => ({})),
      Array.from({ length: 300 }, (_, i) => `https://api.example.com/v1/items/${i}/comments`),
    ];
    cases.forEach((c, i) => roundTrip(c, `case ${i}`));
    const back = decodeSchemaless(encodeSchemaless(proto)) as Record<string, unknown>;
    assert.ok(Object.prototype.hasOwnProperty.call(back, "__proto__"));
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
    // bigints beyond the safe range come back as bigints, safe ones beside them as numbers
    assert.deepEqual(decodeSchemaless(encodeSchemaless([2n ** 63n, 5n, 5])), [2n ** 63n, 5, 5]);
  });

  test("seeded random JSON values (2000)", () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const rng = new Rng(seed);
      const v = randomValue(rng, 6, []);
      const bytes = encodeSchemaless(v);
      const why = same(v, decodeSchemaless(bytes));
      assert.equal(why, undefined, `seed ${seed}: ${why}`);
    }
  });
});

describe("templates", () => {
  const kinds = (t: SchemalessType): string => JSON.stringify(t, (k, v) => (k === "select" || k === "index" || k === "sites" ? undefined : v));

  test("same-shaped array elements share one object template, written once", () => {
    const v = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `user${i}`, active: i % 3 === 0 }));
    const t = inferSchemaless(v);
    assert.equal(t.kind, K.ARRAY);
    const item = (t as { items: SchemalessType }).items;
    assert.equal(item.kind, K.OBJECT);
    assert.deepEqual((item as { keys: string[] }).keys, ["id", "name", "active"]);
    // the keys travel once: 50 records cost about their values
    const bytes = encodeSchemaless(v);
    assert.ok(bytes.length < 50 * 8, `${bytes.length} bytes`);
    assert.equal(new TextDecoder("latin1").decode(bytes).split("name").length, 2, "key `name` written once");
  });

  test("optional keys become one template with a presence bitmap; reordered keys another branch", () => {
    const t = inferSchemaless([{ a: 1, b: "x" }, { a: 2 }, { a: 3, b: "y", c: true }]);
    assert.match(kinds(t), /"optional":\[false,true,true\]/);
    const u = inferSchemaless([{ a: 1, b: 2 }, { b: 2, a: 1 }]);
    assert.equal((u as { items: SchemalessType }).items.kind, K.UNION);
  });

  test("objects keyed by data (IDs) are maps; repeated values become constants and enums", () => {
    const m = inferSchemaless({ events: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [String(1000 + i), { id: i }])) });
    assert.match(kinds(m), /"kind":14,"keyKind":8/);
    // in a message with many distinct strings a reference costs 2 bytes, an enum index 1
    const c = inferSchemaless(Array.from({ length: 200 }, (_, i) => ({ type: "Feature", status: ["open", "closed", "draft"][i % 3]!, name: `user ${i}` })));
    assert.match(kinds(c), /"kind":10,"value":"Feature"/);
    assert.match(kinds(c), /"kind":11,"values":\["open","closed","draft"\]/);
  });
});

describe("the spec's worked examples", () => {
  test("example 1: three records in 83 bytes", () => {
    const v = [
      { id: 1, name: "ann", url: "https://x.io/u/ann", admin: true },
      { id: 2, name: "bob", url: "https://x.io/u/bob", admin: false, note: null },
      { id: 3, name: "ann", url: "https://x.io/u/ann", admin: false },
    ];
    const b = roundTrip(v, "example 1");
    assert.equal(
      hex(b),
      "54 4f 4f 4e 01 00 20 0c 0d 05 10 04 69 64 03 08 6e 61 6d 65 05 06 75 72 6c 05 0a 61 64 6d 69 6e 02 08 6e 6f 74 65 " +
        "01 03 00 02 06 61 6e 6e 24 68 74 74 70 73 3a 2f 2f 78 2e 69 6f 2f 75 2f 61 6e 6e 01 01 04 06 62 6f 62 7b 03 62 6f " +
        "62 00 00 06 15 19 00",
    );
  });

  test("example 2: a mixed array", () => {
    assert.equal(hex(roundTrip({ v: [1, "a", null] }, "example 2")), "54 4f 4f 4e 01 00 20 0d 01 00 02 76 0c 0f 03 01 03 05 03 01 02 02 02 61 00");
  });
});

describe("hostile input", () => {
  const messages = (): { name: string; bytes: Uint8Array }[] =>
    exampleDocuments()
      .filter((d) => JSON.stringify(d.value).length < 40000)
      .map((d) => ({ name: d.name, bytes: encodeSchemaless(d.value) }));

  test("every truncation of every example message is TRUNCATED", () => {
    let n = 0;
    for (const m of messages()) {
      for (let len = 0; len < m.bytes.length; len++) {
        const e = toonError(() => decodeSchemaless(m.bytes.subarray(0, len)));
        assert.equal(e.code, "TRUNCATED", `${m.name} cut at ${len}: ${e.message}`);
        n++;
      }
    }
    assert.ok(n > 10000, `${n} truncations`);
  });

  test("random corruption gives a ToonError or a value, never another exception", () => {
    const rng = new Rng(20250601);
    const ms = messages();
    let errors = 0;
    let values = 0;
    for (let trial = 0; trial < 6000; trial++) {
      const m = rng.pick(ms);
      const b = m.bytes.slice();
      for (let k = rng.int(1, 3); k > 0; k--) {
        const at = rng.int(7, b.length - 1);
        b[at] = rng.chance(0.5) ? rng.int(0, 255) : b[at]! ^ (1 << rng.int(0, 7));
      }
      try {
        decodeSchemaless(b);
        values++;
      } catch (e) {
        if (!(e instanceof ToonError)) throw new Error(`trial ${trial} (${m.name}): ${(e as Error).stack}`);
        errors++;
      }
    }
    assert.ok(errors > 1000, `${errors} errors, ${values} values`);
  });

  const header = [0x54, 0x4f, 0x4f, 0x4e, 0x01, 0x00, 0x20];
  const msg = (...bytes: number[]): Uint8Array => new Uint8Array([...header, ...bytes]);
  const code = (b: Uint8Array): string => toonError(() => decodeSchemaless(b)).code;

  test("bad dictionaries", () => {
    assert.equal(code(msg(0x11)), "INVALID_ENCODING", "unknown kind");
    assert.equal(code(msg(0x10, 0x00)), "INVALID_ENCODING", "REF to nothing");
    assert.equal(code(msg(0x0f, 0x01, 0x01)), "INVALID_ENCODING", "union of one branch");
    assert.equal(code(msg(0x0b, 0x00)), "INVALID_ENCODING", "enum of no values");
    assert.equal(code(msg(0x0a, 0x05, 0x00)), "INVALID_ENCODING", "array constant");
    assert.equal(code(msg(0x0e, 0x03, 0x01)), "INVALID_ENCODING", "map key kind");
    assert.equal(code(msg(0x0d, 0x02, 0x00, 0x02, 0x61, 0x01, 0x01, 0x01)), "INVALID_ENCODING", "duplicate template key");
    assert.equal(code(msg(0x0d, 0x01, 0x02, 0x02, 0x61, 0x01)), "INVALID_ENCODING", "optional-mask bit beyond the keys");
    assert.equal(code(msg(...new Array(600).fill(0x0c), 0x01)), "DEPTH_LIMIT", "nested too deep");
    assert.equal(code(msg(0x0d, 0x01, 0x00, 0x0b, 0x01, 0x01)), "INVALID_ENCODING", "site prefix in the dictionary");
  });

  test("zero-width amplification is bounded by the value budget", () => {
    // ARRAY of NULL with a count of 2^40
    const t0 = performance.now();
    assert.equal(code(msg(0x0c, 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20)), "INVALID_ENCODING");
    // a DAG of objects: 40 levels, each an object whose "a" is the level below (written in full) and whose "b"
    // is a REF to that same level: 2^41 values from about 400 bytes
    // level 0: OBJECT {a: CONST 1, b: CONST 1}; types complete in the order CONST (0), CONST (1), OBJECT (2)
    let t: number[] = [0x0d, 0x02, 0x00, 0x02, 0x61, 0x0a, 0x21, 0x02, 0x62, 0x0a, 0x21];
    for (let index = 2; index < 42; index++) t = [0x0d, 0x02, 0x00, 0x02, 0x61, ...t, 0x02, 0x62, 0x10, index];
    assert.equal(code(msg(...t)), "INVALID_ENCODING");
    assert.ok(performance.now() - t0 < 2000, "bounded time");
  });

  test("prefix copies are bounded by the copy budget", () => {
    // ARRAY of STR: a 1000-byte literal, then 5000 strings that each copy its 1000 code points
    const lit = [0xd0, 0x0f, ...new Array(1000).fill(0x61)]; // h = 2000
    const copy = [0xc3, 0x3e, 0x00]; // h = 8*1000 + 3 = 8003, suffix of 0 bytes
    const count = 5001;
    const items: number[] = [...lit];
    for (let i = 1; i < count; i++) items.push(...copy);
    const e = toonError(() => decodeSchemaless(msg(0x0c, 0x05, 0x89, 0x27, ...items)));
    assert.equal(e.code, "INVALID_ENCODING");
    assert.match(e.message, /copy more than/);
    // within the budget it decodes
    const few = [...lit, ...copy, ...copy];
    assert.deepEqual(decodeSchemaless(msg(0x0c, 0x05, 0x03, ...few)), ["a".repeat(1000), "a".repeat(1000), "a".repeat(1000)]);
  });

  test("duplicate map keys, bad references and prefixes in the body", () => {
    // MAP of NULL with the key "a" twice
    assert.equal(code(msg(0x0e, 0x05, 0x01, 0x02, 0x02, 0x61, 0x02, 0x61)), "INVALID_ENCODING");
    // ARRAY of STR: a reference to entry 3 of an empty table; a prefix longer than the previous string
    assert.equal(code(msg(0x0c, 0x05, 0x01, 0x0d)), "INVALID_ENCODING");
    assert.equal(code(msg(0x0c, 0x05, 0x02, 0x02, 0x61, 0x13, 0x00)), "INVALID_ENCODING");
    assert.equal(code(msg(0x0c, 0x05, 0x01, 0x04, 0xff, 0xfe)), "INVALID_UTF8");
  });

  test("headers: schema messages, schemaless messages in a schema codec, unknown flags", () => {
    const orders = JSON.parse(readFileSync(path.join(ROOT, "examples/orders/data/order-list.json"), "utf8"));
    const fixed = OrderList.encode(orders);
    const e = toonError(() => decodeSchemaless(fixed));
    assert.equal(e.code, "FINGERPRINT_MISMATCH");
    assert.match(e.message, /--schema/);
    const s = toonError(() => OrderList.decode(encodeSchemaless(orders)));
    assert.equal(s.code, "UNSUPPORTED_FLAGS");
    assert.match(s.message, /decodeSchemaless/);
    assert.equal(code(new Uint8Array([0x54, 0x4f, 0x4f, 0x4e, 0x01, 0x00, 0x24, 0x01])), "UNSUPPORTED_FLAGS");
    assert.equal(code(new Uint8Array([0x54, 0x4f, 0x4f, 0x4e, 0x02, 0x00, 0x20, 0x01])), "UNSUPPORTED_VERSION");
    assert.equal(code(new Uint8Array([0x50, 0x4b])), "BAD_MAGIC");
    assert.equal(code(msg(0x01, 0x00)), "TRAILING_BYTES");
  });

  test("values that are not JSON are refused with their path", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const cases: [unknown, string, string][] = [
      [{ a: [1, NaN] }, "INVALID_VALUE", "/a/1"],
      [[1, undefined], "INVALID_VALUE", "/1"],
      [{ f: () => 1 }, "INVALID_VALUE", "/f"],
      [{ d: new Date(0) }, "INVALID_VALUE", "/d"],
      [{ s: "\ud800" }, "INVALID_VALUE", "/s"],
      [[2n ** 64n], "INVALID_VALUE", "/0"],
      [cyclic, "DEPTH_LIMIT", "/self/self"],
    ];
    for (const [v, c, p] of cases) {
      const e = toonError(() => encodeSchemaless(v));
      assert.equal(e.code, c);
      assert.ok(e.path.startsWith(p), `${e.path} vs ${p}`);
    }
  });
});

test("sizes against msgpackr with records (printed)", (t) => {
  const rows: { name: string; json: number; toon: number; msgpackr: number }[] = [];
  const add = (name: string, value: unknown): void => {
    rows.push({ name, json: Buffer.byteLength(JSON.stringify(value)), toon: encodeSchemaless(value).length, msgpackr: new Packr({ useRecords: true }).pack(value).length });
  };
  for (const d of exampleDocuments()) add(d.name, d.value);
  const files = datasetFiles();
  if (files.length === 0) console.log("NOTICE: /work/shared/corpus is absent; corpus datasets not measured");
  for (const f of files) add(corpusRelative(f), JSON.parse(readFileSync(f, "utf8")));
  const lines = ["| document | JSON | msgpackr (records) | TOON schemaless | TOON / msgpackr |", "| --- | ---: | ---: | ---: | ---: |"];
  for (const r of rows) lines.push(`| ${r.name} | ${r.json} | ${r.msgpackr} | ${r.toon} | ${((r.toon / r.msgpackr) * 100).toFixed(0)}% |`);
  const tot = rows.reduce((a, r) => ({ json: a.json + r.json, toon: a.toon + r.toon, msgpackr: a.msgpackr + r.msgpackr }), { json: 0, toon: 0, msgpackr: 0 });
  lines.push(`| total | ${tot.json} | ${tot.msgpackr} | ${tot.toon} | ${((tot.toon / tot.msgpackr) * 100).toFixed(0)}% |`);
  console.log(lines.join("\n"));
  t.diagnostic(`schemaless TOON is ${((tot.toon / tot.msgpackr) * 100).toFixed(0)}% of msgpackr-with-records over ${rows.length} documents`);
  // smaller than msgpackr in total, and on every document of more than a few hundred bytes
  assert.ok(tot.toon < tot.msgpackr);
  for (const r of rows) if (r.msgpackr > 500) assert.ok(r.toon < r.msgpackr, `${r.name}: ${r.toon} vs ${r.msgpackr}`);
});

test("toon-gen encode / decode without --schema", () => {
  const file = path.join(ROOT, "examples/logs/data/log-report.json");
  const run = (args: string[], input?: Uint8Array) =>
    spawnSync(process.execPath, ["--conditions=toon-dev", "--import", TSX, MAIN, ...args], { cwd: ROOT, input, encoding: "buffer" });
  const enc = run(["encode", file]);
  assert.equal(enc.status, 0, enc.stderr.toString());
  const bytes = new Uint8Array(enc.stdout);
  assert.deepEqual(bytes, encodeSchemaless(JSON.parse(readFileSync(file, "utf8"))));
  const dec = run(["decode"], bytes);
  assert.equal(dec.status, 0, dec.stderr.toString());
  assert.deepEqual(JSON.parse(dec.stdout.toString()), JSON.parse(readFileSync(file, "utf8")));
  // integers beyond 2^53 survive the CLI exactly (as int64)
  const big = run(["encode"], new TextEncoder().encode('{"id": 12345678901234567890, "n": [1, 9007199254740993]}'));
  assert.equal(big.status, 0, big.stderr.toString());
  const back = run(["decode"], new Uint8Array(big.stdout));
  assert.equal(back.stdout.toString().replace(/\s+/g, ""), '{"id":12345678901234567890,"n":[1,9007199254740993]}');
  // a fixed-dictionary message without --schema: told to pass one
  const orders = JSON.parse(readFileSync(path.join(ROOT, "examples/orders/data/order-list.json"), "utf8"));
  const fixed = run(["decode"], OrderList.encode(orders));
  assert.equal(fixed.status, 1);
  assert.match(fixed.stderr.toString(), /FINGERPRINT_MISMATCH.*--schema/);
  // --text still needs a schema
  assert.equal(run(["encode", "--text", file]).status, 2);
});
