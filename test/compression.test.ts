// Compression on top (docs/FORMAT.md §10.5): the COMPRESSED flag, the 8 KiB threshold, round trips through
// the generated, interpreted and schemaless codecs, the missing-decompressor error, hostile compressed sections,
// and `toon-gen encode --compress`.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ToonError } from "../runtime/wire/errors.ts";
import {
  DEFAULT_COMPRESS_THRESHOLD,
  compressMessage,
  getCompressor,
  inflateMessage,
  payloadStart,
  setCompressor,
  type Compressor,
} from "../runtime/compression.ts";
import { decodeSchemaless, encodeSchemaless } from "../runtime/schemaless.ts";
import { Flag } from "../runtime/wire/wire.ts";
import { buildDictionary, parseDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { interpret } from "../generator/interpret/index.ts";
import { loadSchemaFile } from "../generator/load/index.ts";
import { loadZstd } from "../generator/inspect/zstd.ts";
import { OrderList } from "../examples/orders/gen/order-list.ts";
import { LogReport } from "../examples/logs/gen/log-report.ts";
import { catchToon as toonError } from "./support/toon-error.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MAIN = path.join(ROOT, "generator", "cli", "main.ts");
const TSX = import.meta.resolve("tsx");

const orders = JSON.parse(readFileSync(path.join(ROOT, "examples/orders/data/order-list.json"), "utf8"));
const logs = JSON.parse(readFileSync(path.join(ROOT, "examples/logs/data/log-report.json"), "utf8"));
/** `copies` of a list, each element's string `key` made unique per copy (so the string table cannot fold them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON test data, typed by the codec it goes into
function grown(list: any[], key: string, copies: number): any[] {
  return Array.from({ length: copies }, (_, k) => list.map((o) => ({ ...o, [key]: `${String(o[key])}-${k}` }))).flat();
}
/** The smallest number of copies whose message payload reaches 1.5 x 8 KiB. */
function bigEnough<T>(make: (copies: number) => T, encode: (v: T) => Uint8Array): T {
  for (let copies = 2; ; copies++) {
    const v = make(copies);
    const b = encode(v);
    if (b.length - payloadStart(b)! >= 1.5 * DEFAULT_COMPRESS_THRESHOLD) return v;
  }
}
/** An order list whose TOON payload is well above 8 KiB. */
const bigOrders = bigEnough((n) => ({ orders: grown(orders.orders, "id", n) }), (v) => OrderList.encode(v));

let zstd: Compressor;
before(async () => {
  zstd = await loadZstd();
  setCompressor(zstd);
});

const flagsOf = (b: Uint8Array): number => (b[5]! << 8) | b[6]!;
const compressed = (b: Uint8Array): boolean => (flagsOf(b) & Flag.COMPRESSED) !== 0;
const payloadLength = (b: Uint8Array): number => b.length - payloadStart(b)!;


describe("threshold", () => {
  test("below 8 KiB a message is never compressed, whatever compress says", () => {
    const plain = OrderList.encode(orders);
    assert.ok(payloadLength(plain) < DEFAULT_COMPRESS_THRESHOLD, `payload ${payloadLength(plain)}`);
    const asked = OrderList.encode(orders, { compress: true });
    assert.equal(compressed(asked), false);
    assert.deepEqual(asked, plain);
  });

  test("at or above the threshold the payload is compressed and the flag set", () => {
    const plain = OrderList.encode(bigOrders);
    const n = payloadLength(plain);
    assert.ok(n >= DEFAULT_COMPRESS_THRESHOLD, `payload ${n}`);
    const z = OrderList.encode(bigOrders, { compress: true });
    assert.equal(compressed(z), true);
    assert.equal(flagsOf(z), flagsOf(plain) | Flag.COMPRESSED);
    assert.ok(z.length < plain.length / 2, `${z.length} vs ${plain.length}`);
    // the threshold is inclusive: exactly the payload length compresses, one more does not
    assert.equal(compressed(OrderList.encode(bigOrders, { compress: true, threshold: n })), true);
    assert.equal(compressed(OrderList.encode(bigOrders, { compress: true, threshold: n + 1 })), false);
    // without the option: never
    assert.equal(compressed(plain), false);
  });

  test("a custom threshold compresses small messages too, and never when it would not be smaller", () => {
    const z = OrderList.encode(orders, { compress: true, threshold: 0 });
    assert.equal(compressed(z), true);
    assert.deepEqual(OrderList.decode(z), orders);
    // a tiny payload: zstd's frame overhead makes it bigger, so it stays uncompressed
    const tiny = encodeSchemaless({ a: 1 });
    assert.deepEqual(encodeSchemaless({ a: 1 }, { compress: true, threshold: 0 }), tiny);
  });

  test("the header stays readable: fingerprint and flags are outside the compressed section", () => {
    const z = OrderList.encode(bigOrders, { compress: true });
    assert.deepEqual([...z.subarray(0, 5)], [0x54, 0x4f, 0x4f, 0x4e, 1]);
    assert.equal((z[7]! << 8) | z[8]!, OrderList.fingerprint);
    assert.equal(z[9], 0x01, "algorithm byte: zstd");
  });
});

describe("round trips", () => {
  test("generated codecs", () => {
    const z = OrderList.encode(bigOrders, { compress: true });
    assert.deepEqual(OrderList.decode(z), bigOrders);
    const bigLogs = bigEnough((n) => ({ ...logs, services: grown(logs.services, "service", n) }), (v) => LogReport.encode(v));
    const lz = LogReport.encode(bigLogs, { compress: true });
    assert.equal(compressed(lz), true);
    assert.deepEqual(LogReport.decode(lz), bigLogs);
  });

  test("inflateMessage gives back the uncompressed message exactly", () => {
    const plain = OrderList.encode(bigOrders);
    const z = compressMessage(plain, { compress: true });
    assert.equal(compressed(z), true);
    assert.deepEqual(inflateMessage(z), plain);
    assert.deepEqual(inflateMessage(plain), plain);
  });

  test("the interpreted codec (toon-gen encode/decode) writes and reads the same bytes", async () => {
    await initHash();
    const dir = path.join(ROOT, "examples/orders");
    const ir = await loadSchemaFile("schemas/order-list.schema.json", { cwd: dir });
    const dict = buildDictionary(ir, parseDictionary(readFileSync(path.join(dir, "dictionaries/order-list.dictionary.json"), "utf8"), "d"));
    const codec = interpret(ir, dict);
    const z = codec.encode(bigOrders, { compress: true });
    assert.deepEqual(z, OrderList.encode(bigOrders, { compress: true }));
    assert.deepEqual(codec.decode(z), bigOrders);
    assert.deepEqual(OrderList.decode(z), bigOrders);
  });

  test("schemaless messages", () => {
    const z = encodeSchemaless(bigOrders, { compress: true, threshold: 1024 });
    assert.equal(compressed(z), true);
    assert.equal(flagsOf(z), Flag.EMBEDDED_DICTIONARY | Flag.COMPRESSED);
    assert.deepEqual(decodeSchemaless(z), bigOrders);
  });
});

describe("errors", () => {
  test("a compressed message without a registered decompressor: UNSUPPORTED_FLAGS saying how to register one", () => {
    const z = OrderList.encode(bigOrders, { compress: true });
    const saved = getCompressor();
    setCompressor(undefined);
    try {
      const e = toonError(() => OrderList.decode(z));
      assert.equal(e.code, "UNSUPPORTED_FLAGS");
      assert.equal(e.offset, 5);
      assert.match(e.message, /COMPRESSED/);
      assert.match(e.message, /setCompressor/);
      assert.match(e.message, /zstd-napi/);
      // and encoding with compress asked for fails plainly
      const c = toonError(() => OrderList.encode(bigOrders, { compress: true }));
      assert.equal(c.code, "CONFIG_ERROR");
      assert.match(c.message, /setCompressor/);
    } finally {
      setCompressor(saved);
    }
  });

  test("the schemaless decoder too", () => {
    const z = encodeSchemaless(bigOrders, { compress: true });
    assert.equal(compressed(z), true);
    const saved = getCompressor();
    setCompressor(undefined);
    try {
      const e = toonError(() => decodeSchemaless(z));
      assert.equal(e.code, "UNSUPPORTED_FLAGS");
      assert.match(e.message, /setCompressor/);
    } finally {
      setCompressor(saved);
    }
  });

  test("hostile compressed sections fail with a ToonError", () => {
    const z = OrderList.encode(bigOrders, { compress: true });
    const at = payloadStart(z)!; // the algorithm byte
    const mutate = (f: (b: Uint8Array) => Uint8Array): ToonError => toonError(() => OrderList.decode(f(z.slice())));
    assert.equal(
      mutate((b) => ((b[at] = 2), b)).code,
      "INVALID_ENCODING",
      "unknown algorithm",
    );
    // a declared length that does not match what the frame inflates to
    const lenBytes = (n: number): number[] => {
      const out: number[] = [];
      for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n & 0x7f) | 0x80);
      out.push(n);
      return out;
    };
    let p = at + 1;
    while (z[p]! & 0x80) p++;
    const frame = z.subarray(p + 1);
    const withLength = (n: number): Uint8Array => new Uint8Array([...z.subarray(0, at + 1), ...lenBytes(n), ...frame]);
    assert.equal(toonError(() => OrderList.decode(withLength(payloadLength(OrderList.encode(bigOrders)) + 1))).code, "INVALID_ENCODING");
    assert.equal(toonError(() => OrderList.decode(withLength(0))).code, "INVALID_ENCODING");
    const bomb = toonError(() => OrderList.decode(withLength(2 ** 30)));
    assert.equal(bomb.code, "INVALID_ENCODING");
    assert.match(bomb.message, /limit/);
    // a frame cut short, and garbage instead of a frame
    assert.equal(toonError(() => OrderList.decode(z.subarray(0, z.length - 10))).code, "INVALID_ENCODING");
    const garbage = z.slice();
    for (let i = p + 1; i < garbage.length; i++) garbage[i] = (i * 37) & 0xff;
    assert.equal(toonError(() => OrderList.decode(garbage)).code, "INVALID_ENCODING");
    // cut inside the section header
    assert.equal(toonError(() => OrderList.decode(z.subarray(0, at))).code, "TRUNCATED");
    assert.equal(toonError(() => OrderList.decode(z.subarray(0, at + 1))).code, "TRUNCATED");
  });

  test("every truncation of a compressed message is a ToonError", () => {
    const z = OrderList.encode(bigOrders, { compress: true });
    for (let n = 0; n < z.length; n++) {
      const e = toonError(() => OrderList.decode(z.subarray(0, n)));
      assert.ok(["TRUNCATED", "INVALID_ENCODING", "BAD_MAGIC"].includes(e.code), `${n}: ${e.code}`);
    }
  });

  test("only zstd can be registered", () => {
    assert.equal(toonError(() => setCompressor({ ...zstd, name: "gzip" as "zstd" })).code, "CONFIG_ERROR");
  });
});

describe("toon-gen encode --compress", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "toon-gen-compress-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args: string[], cwd: string) =>
    spawnSync(process.execPath, ["--conditions=toon-dev", "--import", TSX, MAIN, ...args], { cwd, encoding: "buffer" });

  test("with a schema: compressed above the threshold, decoded back", () => {
    const input = path.join(dir, "big.json");
    writeFileSync(input, JSON.stringify(bigOrders));
    const cwd = path.join(ROOT, "examples/orders");
    const out = path.join(dir, "big.toon");
    const enc = run(["encode", "--schema", "schemas/order-list.schema.json", "--compress", input, "--out", out], cwd);
    assert.equal(enc.status, 0, enc.stderr.toString());
    const bytes = new Uint8Array(readFileSync(out));
    assert.equal(compressed(bytes), true);
    assert.deepEqual(bytes, OrderList.encode(bigOrders, { compress: true }));
    const dec = run(["decode", "--schema", "schemas/order-list.schema.json", out], cwd);
    assert.equal(dec.status, 0, dec.stderr.toString());
    assert.deepEqual(JSON.parse(dec.stdout.toString()), bigOrders);
  });

  test("schemaless, with --compress-threshold", () => {
    const input = path.join(ROOT, "examples/orders/data/order-list.json");
    const out = path.join(dir, "small.toon");
    const plain = run(["encode", "--compress", input, "--out", out], dir);
    assert.equal(plain.status, 0, plain.stderr.toString());
    assert.equal(compressed(new Uint8Array(readFileSync(out))), false, "3 KB: below the default threshold");
    const forced = run(["encode", "--compress", "--compress-threshold", "100", input, "--out", out], dir);
    assert.equal(forced.status, 0, forced.stderr.toString());
    assert.equal(compressed(new Uint8Array(readFileSync(out))), true);
    const dec = run(["decode", out], dir);
    assert.equal(dec.status, 0, dec.stderr.toString());
    assert.deepEqual(JSON.parse(dec.stdout.toString()), orders);
  });

  test("usage errors", () => {
    const bad = run(["encode", "--compress-threshold", "10", path.join(ROOT, "examples/orders/data/order-list.json")], dir);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr.toString(), /--compress-threshold needs --compress/);
    const dec = run(["decode", "--compress", path.join(dir, "small.toon")], dir);
    assert.equal(dec.status, 2);
  });
});
