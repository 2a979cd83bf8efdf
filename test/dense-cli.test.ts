// The dense layout on the command line: encode --text --layout dense, decode --text (detects the layout), stats.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT, toonGen } from "./support/cli.ts";

const DIR = path.join(ROOT, "examples", "orders");
const SCHEMA = "schemas/order-list.schema.json";
const DATA = "data/order-list.json";

test("dense CLI: encode --text --layout dense writes what Codec.toText(v, { layout: \"dense\" }) writes; decode --text reads it back", async () => {
  const { OrderList } = await import("../examples/orders/gen/order-list.ts");
  const value = JSON.parse(readFileSync(path.join(DIR, DATA), "utf8"));
  const enc = await toonGen(["encode", "--schema", SCHEMA, DATA, "--text", "--layout", "dense"], DIR);
  assert.equal(enc.code, 0, enc.stderr);
  const text = enc.stdout.toString("utf8");
  assert.equal(text, OrderList.toText(value, { layout: "dense" }) + "\n");
  assert.match(text, /^orders\[30\]\{id,customer\{id,name,email,address\{/);
  for (const args of [["--text"], ["--text", "--layout", "dense"]]) {
    const dec = await toonGen(["decode", "--schema", SCHEMA, ...args], DIR, text);
    assert.equal(dec.code, 0, dec.stderr);
    assert.deepEqual(JSON.parse(dec.stdout.toString("utf8")), value);
  }
  // forced to TOON v4, the dense text is rejected with a position
  const forced = await toonGen(["decode", "--schema", SCHEMA, "--text", "--layout", "toon"], DIR, text);
  assert.notEqual(forced.code, 0);
  assert.match(forced.stderr, /line \d+/);
  const bad = await toonGen(["encode", "--schema", SCHEMA, DATA, "--layout", "dense"], DIR);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /--layout applies to --text/);
});

test("dense CLI: stats shows the dense layout's bytes and tokens beside the others", async () => {
  const r = await toonGen(["stats", DATA, "--schema", SCHEMA, "--json"], DIR);
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout.toString("utf8")) as { format: string; bytes: number; tokens: number }[];
  const by = (f: string) => rows.find((x) => x.format === f)!;
  const dense = by("TOON text, dense layout");
  assert.ok(dense !== undefined, JSON.stringify(rows.map((x) => x.format)));
  assert.ok(dense.tokens < by("compact JSON").tokens, `dense ${dense.tokens} vs compact JSON ${by("compact JSON").tokens}`);
  assert.ok(dense.tokens < by("TOON text").tokens);
});
