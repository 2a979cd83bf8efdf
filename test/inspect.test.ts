// `toon-gen inspect` (generator/cli/inspect.ts, generator/inspect/): the instrumented walk decodes exactly what
// the codecs decode and accounts for every byte; the CLI on an example message (dictionary found through
// toon.config.json, or --schema), on a truncated one, its --json shape, schemaless and compressed messages.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { buildDictionary, parseDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { interpret } from "../generator/interpret/index.ts";
import { loadSchemaFile } from "../generator/load/index.ts";
import { walkSchemaMessage, walkSchemalessMessage } from "../generator/inspect/walk.ts";
import { inspectMessage, type InspectReport } from "../generator/inspect/report.ts";
import { loadZstd } from "../generator/inspect/zstd.ts";
import { setCompressor } from "../runtime/compression.ts";
import { encodeSchemaless } from "../runtime/schemaless.ts";
import { OrderList } from "../examples/orders/gen/order-list.ts";
import { Order as V1 } from "./evolution/gen/v1.ts";
import { Order as V2 } from "./evolution/gen/v2.ts";
import { Order as V3 } from "./evolution/gen/v3.ts";
import { datasetFiles } from "./corpus/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MAIN = path.join(ROOT, "generator", "cli", "main.ts");
const TSX = import.meta.resolve("tsx");
const ORDERS = path.join(ROOT, "examples", "orders");
const orders = JSON.parse(readFileSync(path.join(ORDERS, "data/order-list.json"), "utf8"));

const tmp = mkdtempSync(path.join(tmpdir(), "toon-gen-inspect-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function toonGen(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["--conditions=toon-dev", "--import", TSX, MAIN, ...args], { cwd, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const jsonLength = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));
const bytesOf = (file: string): Uint8Array => new Uint8Array(readFileSync(file));
const sum = (r: { paths: { toonBytes: number; jsonBytes: number }[] }, k: "toonBytes" | "jsonBytes"): number => r.paths.reduce((n, p) => n + p[k], 0);

describe("the instrumented walk", () => {
  test("decodes every example message as the interpreted codec does, and accounts for every byte", async () => {
    await initHash();
    const examples: [string, string, string][] = [
      ["orders", "order-list", "data/order-list.json"],
      ["logs", "log-report", "data/log-report.json"],
      ["extraction", "extraction-result", "data/extraction-result.json"],
      ["tool-calls", "tool-call-batch", "data/tool-call-batch.json"],
    ];
    for (const [ex, base, data] of examples) {
      const dir = path.join(ROOT, "examples", ex);
      const ir = await loadSchemaFile(`schemas/${base}.schema.json`, { cwd: dir });
      const dict = buildDictionary(ir, parseDictionary(readFileSync(path.join(dir, `dictionaries/${base}.dictionary.json`), "utf8"), base));
      const codec = interpret(ir, dict);
      const value = JSON.parse(readFileSync(path.join(dir, data), "utf8"));
      const bytes = codec.encode(value);
      const w = walkSchemaMessage(bytes, ir, dict);
      assert.equal(w.error, undefined, `${ex}: ${w.error?.message}`);
      assert.ok(w.complete);
      assert.deepStrictEqual(w.value, codec.decode(bytes), ex);
      assert.equal(sum({ paths: w.rows }, "toonBytes"), bytes.length, `${ex}: TOON rows add up to the message`);
      assert.equal(sum({ paths: w.rows }, "jsonBytes"), jsonLength(value), `${ex}: JSON rows add up to JSON.stringify`);
    }
  });

  test("evolved messages: extension records, retired slots, defaults (test/evolution codecs)", async () => {
    await initHash();
    const dir = path.join(ROOT, "test", "evolution");
    const value = { id: "A-2", status: "paid", note: "x", items: [{ sku: "S1", qty: 1, gift: true }], payment: { kind: "cash" }, coupon: { code: "W", percent: 12.5 }, channel: "app" };
    for (const [name, writer, reader, v] of [
      ["v2", V2, "v2", value],
      ["v1", V1, "v2", { id: "A-1", status: "paid", note: "n", items: [{ sku: "S1", qty: 2 }], payment: { kind: "card", card: "4242" } }],
      ["v2", V2, "v3", value],
      ["v3", V3, "v3", { id: "A-3", status: "new", items: [{ sku: "S9", qty: 5, gift: false }], coupon: { code: "X" }, channel: "web" }],
    ] as const) {
      const schema = reader === "v2" ? "v2.schema.json" : "v3.schema.json";
      const ir = await loadSchemaFile(path.join(dir, "schemas", schema), { cwd: ROOT });
      const dict = parseDictionary(readFileSync(path.join(dir, "dictionaries", `${reader}.dictionary.json`), "utf8"), reader);
      const bytes = (writer as { encode(v: unknown): Uint8Array }).encode(v);
      const codec = interpret(ir, dict);
      const w = walkSchemaMessage(bytes, ir, dict);
      assert.equal(w.error, undefined, `${name}>${reader}: ${w.error?.message}`);
      assert.deepStrictEqual(w.value, codec.decode(bytes), `${name}>${reader}`);
      assert.equal(sum({ paths: w.rows }, "toonBytes"), bytes.length, `${name}>${reader}`);
    }
  });

  test("schemaless: every corpus dataset decodes as decodeSchemaless does", (t) => {
    const files = datasetFiles();
    if (files.length === 0) {
      console.log("NOTICE: /work/shared/corpus is absent; corpus datasets skipped");
      t.skip("corpus absent");
      return;
    }
    for (const f of files) {
      const value = JSON.parse(readFileSync(f, "utf8"));
      const bytes = encodeSchemaless(value);
      const w = walkSchemalessMessage(bytes);
      assert.ok(w.complete, `${f}: ${w.error?.message}`);
      assert.deepStrictEqual(w.value, value);
      assert.equal(sum({ paths: w.rows }, "toonBytes"), bytes.length);
      assert.equal(sum({ paths: w.rows }, "jsonBytes"), jsonLength(value));
    }
  });

  test("every truncation stops with TRUNCATED, the offset and path, and the value read so far", async () => {
    await initHash();
    const ir = await loadSchemaFile("schemas/order-list.schema.json", { cwd: ORDERS });
    const dict = buildDictionary(ir, parseDictionary(readFileSync(path.join(ORDERS, "dictionaries/order-list.dictionary.json"), "utf8"), "d"));
    const bytes = OrderList.encode(orders);
    let withValue = 0;
    for (let n = 0; n < bytes.length; n++) {
      const w = walkSchemaMessage(bytes.subarray(0, n), ir, dict);
      assert.equal(w.complete, false);
      assert.equal(w.error?.code, "TRUNCATED", `cut at ${n}: ${w.error?.message}`);
      assert.ok(w.error!.offset! <= n);
      if (w.value !== undefined) withValue++;
    }
    assert.ok(withValue > bytes.length - 20);
    const sb = encodeSchemaless(orders);
    for (let n = 0; n < sb.length; n++) assert.equal(walkSchemalessMessage(sb.subarray(0, n)).error?.code, "TRUNCATED", `schemaless cut at ${n}`);
  });
});

describe("toon-gen inspect", () => {
  const msgFile = path.join(tmp, "orders.toon");
  writeFileSync(msgFile, OrderList.encode(orders));

  test("an example message: header, dictionary found through toon.config.json, table, tree, bytes per path", () => {
    const r = toonGen(["inspect", msgFile], ORDERS);
    assert.equal(r.status, 0, r.stderr);
    const out = r.stdout;
    const flags = (bytesOf(msgFile)[5]! << 8) | bytesOf(msgFile)[6]!;
    assert.match(out, new RegExp(`flags\\s+0x${flags.toString(16).padStart(4, "0")}\\s+FIXED_DICTIONARY`));
    assert.match(out, new RegExp(`fingerprint\\s+0x${OrderList.fingerprint.toString(16).padStart(4, "0")}`));
    assert.match(out, /OrderList \(dictionaries\/order-list\.dictionary\.json, via toon\.config\.json\): fingerprint 0x[0-9a-f]{4} matches/);
    assert.match(out, /^\s+0\s+\$\s+object, closed$/m);
    assert.match(out, /#Order\.createdAt\s+string \(date-time\)/);
    assert.match(out, /"id": "ORD-2025-000397"/);
    assert.match(out, /complete: every byte decoded/);
    // the bytes table: sorted by TOON bytes, largest first, with the total of the message
    const table = out.slice(out.indexOf("Bytes per path"), out.indexOf("\nStatus"));
    const rows = table.split("\n").slice(2).filter((l) => l.trim() !== "" && !l.trim().startsWith("total"));
    const toon = rows.map((l) => Number(l.trim().split(/\s+/)[2]));
    assert.deepEqual(toon, [...toon].sort((a, b) => b - a));
    assert.match(table, new RegExp(`total\\s+${OrderList.encode(orders).length}\\s+${jsonLength(orders)}`));
  });

  test("--schema: the schema's dictionary, compared", () => {
    const r = toonGen(["inspect", msgFile, "--schema", "schemas/order-list.schema.json"], ORDERS);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /OrderList \(--schema, dictionaries\/order-list\.dictionary\.json\): fingerprint 0x[0-9a-f]{4} matches/);
    const other = toonGen(["inspect", msgFile, "--schema", path.join(ROOT, "examples/logs/schemas/log-report.schema.json")], ORDERS);
    assert.equal(other.status, 1);
    assert.match(other.stdout, /does NOT match/);
    assert.match(other.stdout, /body not decoded/);
  });

  test("a truncated message: what decoded, and where it stopped", () => {
    const cut = path.join(tmp, "cut.toon");
    const full = OrderList.encode(orders);
    const at = Math.floor(full.length * 0.6);
    writeFileSync(cut, full.subarray(0, at));
    const r = toonGen(["inspect", cut], ORDERS);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /Value \(partial: decoding stopped\)/);
    assert.match(r.stdout, new RegExp(`stopped at byte \\d+ at /orders/\\d+/[a-zA-Z/0-9]+: TRUNCATED: input ended in the middle of a value \\(byte \\d+\\)`));
    assert.match(r.stdout, /"id": "ORD-2025-000397"/, "what decoded is shown");
  });

  test("--json: one object with header, dictionary, value, paths, totals, error", () => {
    const r = toonGen(["inspect", msgFile, "--json"], ORDERS);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as InspectReport;
    assert.deepEqual(Object.keys(j).sort(), ["bytes", "complete", "dictionary", "file", "header", "paths", "totals", "value"].sort());
    const flags = (bytesOf(msgFile)[5]! << 8) | bytesOf(msgFile)[6]!;
    assert.equal(j.header.flags, flags);
    assert.equal(j.header.flagNames![0], "FIXED_DICTIONARY");
    assert.equal(j.header.fingerprint, `0x${OrderList.fingerprint.toString(16).padStart(4, "0")}`);
    assert.equal(j.dictionary.kind, "fixed");
    assert.equal(j.dictionary.via, "toon.config.json");
    assert.equal(j.dictionary.name, "OrderList");
    assert.equal(j.dictionary.matches, true);
    assert.deepEqual(j.dictionary.entries[0], { id: 0, path: "$", type: "object, closed" });
    assert.deepStrictEqual(j.value, orders);
    assert.equal(j.complete, true);
    assert.equal(j.totals.toonBytes, j.bytes);
    assert.equal(j.totals.jsonBytes, jsonLength(orders));
    for (const p of j.paths) assert.deepEqual(Object.keys(p).sort(), ["count", "jsonBytes", "path", "toonBytes"]);
    for (let i = 1; i < j.paths.length; i++) assert.ok(j.paths[i - 1]!.toonBytes >= j.paths[i]!.toonBytes);
    const truncated = JSON.parse(toonGen(["inspect", path.join(tmp, "cut.toon"), "--json"], ORDERS).stdout) as InspectReport;
    assert.equal(truncated.complete, false);
    assert.deepEqual(Object.keys(truncated.error!).sort(), ["code", "message", "offset", "path"]);
    assert.equal(truncated.error!.code, "TRUNCATED");
    assert.ok(truncated.error!.offset! <= Math.floor(OrderList.encode(orders).length * 0.6));
    assert.match(truncated.error!.path, /^\/orders\/\d+\//);
  });

  test("schemaless messages: the embedded dictionary", () => {
    const file = path.join(tmp, "logs.toon");
    const logs = JSON.parse(readFileSync(path.join(ROOT, "examples/logs/data/log-report.json"), "utf8"));
    const bytes = encodeSchemaless(logs);
    writeFileSync(file, bytes);
    const r = toonGen(["inspect", file], tmp);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /flags\s+0x0020\s+EMBEDDED_DICTIONARY/);
    assert.match(r.stdout, /embedded \(schemaless\): \d+ bytes, \d+ paths/);
    assert.match(r.stdout, /services\[\]\s+object/);
    assert.match(r.stdout, /\(dictionary\)\s+1\s+\d+/);
    const j = JSON.parse(toonGen(["inspect", file, "--json"], tmp).stdout) as InspectReport;
    assert.equal(j.dictionary.kind, "embedded");
    assert.deepStrictEqual(j.value, logs);
    assert.equal(j.totals.toonBytes, bytes.length);
    assert.equal(j.totals.jsonBytes, jsonLength(logs));
    // truncated inside the dictionary
    const cut = path.join(tmp, "logs-cut.toon");
    writeFileSync(cut, bytes.subarray(0, 20));
    const c = toonGen(["inspect", cut, "--json"], tmp);
    assert.equal(c.status, 1);
    const cj = JSON.parse(c.stdout) as InspectReport;
    assert.equal(cj.error?.code, "TRUNCATED");
    assert.equal(cj.value, undefined);
  });

  test("compressed messages: inflated and shown with both sizes", async () => {
    setCompressor(await loadZstd());
    const file = path.join(tmp, "big.toon");
    const big = { orders: Array.from({ length: 10 }, (_, k) => orders.orders.map((o: { id: string }) => ({ ...o, id: `${o.id}-${k}` }))).flat() };
    const bytes = OrderList.encode(big, { compress: true, threshold: 0 });
    writeFileSync(file, bytes);
    const j = JSON.parse(toonGen(["inspect", file, "--json"], ORDERS).stdout) as InspectReport;
    assert.ok(j.header.flagNames!.includes("FIXED_DICTIONARY") && j.header.flagNames!.includes("COMPRESSED"));
    assert.equal(j.compression?.algorithm, "zstd");
    assert.equal(j.compression?.storedBytes, bytes.length);
    assert.equal(j.compression?.inflatedBytes, OrderList.encode(big).length);
    assert.deepStrictEqual(j.value, big);
    assert.equal(j.totals.toonBytes, OrderList.encode(big).length);
  });

  test("no dictionary to match, not TOON, usage", async () => {
    const r = toonGen(["inspect", msgFile], tmp);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /no --schema and no toon\.config\.json/);
    assert.match(r.stdout, /\(body, not decoded\)/);
    const junk = path.join(tmp, "junk.bin");
    writeFileSync(junk, "PK\u0003\u0004");
    const b = toonGen(["inspect", junk], tmp);
    assert.equal(b.status, 1);
    assert.match(b.stdout, /not a TOON message/);
    assert.match(b.stdout, /BAD_MAGIC/);
    assert.equal(toonGen(["inspect"], tmp).status, 2);
    // in-process, the same report
    const report = await inspectMessage(new Uint8Array(readFileSync(msgFile)), "orders.toon", { cwd: ORDERS });
    assert.equal(report.complete, true);
    assert.match(toonGen(["--help"], tmp).stdout, /toon-gen inspect <file\.toon>/);
  });
});
