// The real `toon-gen` command, spawned as a user would run it (through tsx), in temporary directories.
// Independent checks run concurrently: each spawn pays Node + tsx start-up.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after } from "node:test";
import { fileURLToPath } from "node:url";
import { buildDictionary, parseDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { interpret } from "../generator/interpret/index.ts";
import { loadSchemaFile } from "../generator/load/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MAIN = path.join(ROOT, "generator", "cli", "main.ts");
const TSX = import.meta.resolve("tsx");
const ORDERS = path.join(ROOT, "examples", "orders");

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

function toonGen(args: string[], cwd: string, stdin?: Uint8Array | string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=toon-dev", "--import", TSX, MAIN, ...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }));
    child.stdin.end(stdin ?? "");
  });
}

const temps: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), "toon-gen-cli-"));
  temps.push(d);
  return d;
}
after(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** A copy of examples/orders: config, schemas, data, and (optionally) the committed dictionaries. */
function ordersCopy(withDictionaries: boolean): string {
  const d = tempDir();
  cpSync(path.join(ORDERS, "toon.config.json"), path.join(d, "toon.config.json"));
  cpSync(path.join(ORDERS, "schemas"), path.join(d, "schemas"), { recursive: true });
  cpSync(path.join(ORDERS, "data"), path.join(d, "data"), { recursive: true });
  if (withDictionaries) cpSync(path.join(ORDERS, "dictionaries"), path.join(d, "dictionaries"), { recursive: true });
  return d;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

const SCHEMA = "schemas/order-list.schema.json";

describe("toon-gen CLI", { concurrency: true }, () => {
  test("--help documents generate, encode, decode and the config", async () => {
    const r = await toonGen(["--help"], tempDir());
    assert.equal(r.code, 0, r.stderr);
    const help = r.stdout.toString();
    for (const word of ["generate", "encode", "decode", "--config", "toon.config.json", "inputs", "outDir", "dictionaryDir", "--schema"]) {
      assert.ok(help.includes(word), `--help does not mention ${word}`);
    }
    assert.equal(r.stderr, "");
  });

  test("generate: one summary line, files written, then nothing to write", async () => {
    const d = ordersCopy(false);
    const first = await toonGen(["generate"], d);
    assert.equal(first.code, 0, first.stderr);
    const line = first.stdout.toString();
    assert.match(line, /^toon-gen: 1 schema read, 4 files written, 0 unchanged in \d+ ms\n$/);
    for (const f of ["gen/order-list.ts", "gen/index.ts", "dictionaries/order-list.dictionary.json"]) assert.ok(existsSync(path.join(d, f)), `${f} was not written`);
    assert.match(readFileSync(path.join(d, "gen/order-list.ts"), "utf8"), /export const OrderList = \/\*@__PURE__\*\/ \$rt\.codecOf\(/);
    const mtime = statSync(path.join(d, "gen/order-list.ts")).mtimeMs;
    const second = await toonGen([], d); // `generate` is the default command
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout.toString(), /^toon-gen: 1 schema read, 0 files written, 4 unchanged in \d+ ms \(cached\)\n$/);
    assert.equal(statSync(path.join(d, "gen/order-list.ts")).mtimeMs, mtime, "an unchanged file was rewritten");
  });

  test("generate without a config fails on stderr and writes nothing", async () => {
    const d = tempDir();
    const r = await toonGen(["generate"], d);
    assert.notEqual(r.code, 0);
    assert.equal(r.stdout.length, 0);
    assert.match(r.stderr, /toon\.config\.json/);
    assert.deepEqual(listFiles(d), []);
  });

  test("encode then decode round-trips a JSON file, with the committed dictionary's fingerprint", async () => {
    const d = ordersCopy(true);
    const data = JSON.parse(readFileSync(path.join(d, "data/order-list.json"), "utf8"));
    // stdin in, --out file out (the positional input file and stdout are used by the other tests)
    const enc = await toonGen(["encode", "-s", SCHEMA, "-o", "orders.toon"], d, readFileSync(path.join(d, "data/order-list.json")));
    assert.equal(enc.code, 0, enc.stderr);
    assert.equal(enc.stderr, "");
    assert.equal(enc.stdout.length, 0);
    // the bytes are the interpreted codec's, with the IDs of the committed dictionary
    await initHash();
    const ir = await loadSchemaFile(SCHEMA, { cwd: d });
    const dictFile = path.join(d, "dictionaries/order-list.dictionary.json");
    const codec = interpret(ir, buildDictionary(ir, parseDictionary(readFileSync(dictFile, "utf8"), dictFile)));
    assert.deepEqual(new Uint8Array(readFileSync(path.join(d, "orders.toon"))), codec.encode(data));
    const dec = await toonGen(["decode", "--schema", SCHEMA, "orders.toon"], d);
    assert.equal(dec.code, 0, dec.stderr);
    assert.deepEqual(JSON.parse(dec.stdout.toString()), data);
    assert.ok(dec.stdout.toString().endsWith("}\n"));
  });

  test("decode of a truncated or foreign file exits 1 with the code on stderr and nothing on stdout", async () => {
    const d = ordersCopy(true);
    await initHash();
    const ir = await loadSchemaFile(SCHEMA, { cwd: d });
    const dictFile = path.join(d, "dictionaries/order-list.dictionary.json");
    const codec = interpret(ir, buildDictionary(ir, parseDictionary(readFileSync(dictFile, "utf8"), dictFile)));
    const bytes = codec.encode(JSON.parse(readFileSync(path.join(d, "data/order-list.json"), "utf8")));
    writeFileSync(path.join(d, "cut.toon"), bytes.subarray(0, bytes.length - 7));
    const flipped = new Uint8Array(bytes);
    flipped[7]! ^= 0xff; // the fingerprint
    const [cut, other] = await Promise.all([toonGen(["decode", "--schema", SCHEMA, "cut.toon"], d), toonGen(["decode", "--schema", SCHEMA], d, flipped)]);
    for (const [r, code] of [
      [cut, "TRUNCATED"],
      [other, "FINGERPRINT_MISMATCH"],
    ] as const) {
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout.length, 0, `${code}: something on stdout`);
      assert.match(r.stderr, new RegExp(`^toon-gen: ${code}: `));
    }
    assert.match(cut.stderr, / at \/orders\/\d+/, "the path of the cut value");
  });

  test("encode of invalid data exits 1 naming the path", async () => {
    const d = ordersCopy(false);
    const data = JSON.parse(readFileSync(path.join(d, "data/order-list.json"), "utf8"));
    data.orders[4].customer.address.city = 5;
    writeFileSync(path.join(d, "bad.json"), JSON.stringify(data));
    const [bad, notJson] = await Promise.all([toonGen(["encode", "--schema", SCHEMA, "bad.json"], d), toonGen(["encode", "--schema", SCHEMA], d, '{"orders": [')]);
    assert.equal(bad.code, 1);
    assert.equal(bad.stdout.length, 0);
    assert.match(bad.stderr, /^toon-gen: INVALID_VALUE: .* at \/orders\/4\/customer\/address\/city\n$/);
    assert.equal(notJson.code, 1);
    assert.equal(notJson.stdout.length, 0);
    assert.match(notJson.stderr, /not valid JSON/);
  });

  test("int64 values beyond 2^53 travel exactly through encode and decode", async () => {
    const d = tempDir();
    writeFileSync(
      path.join(d, "s.json"),
      JSON.stringify({ type: "object", properties: { big: { type: "integer", format: "int64" }, list: { type: "array", items: { anyOf: [{ type: "integer", format: "uint64" }, { type: "string" }] } }, n: { type: "number" } } }),
    );
    const text = '{"big": -9223372036854775808, "list": [18446744073709551615, "9007199254740993", 7], "n": 9007199254740993}';
    const enc = await toonGen(["encode", "-s", "s.json", "-o", "v.toon"], d, text);
    assert.equal(enc.code, 0, enc.stderr);
    const dec = await toonGen(["decode", "-s", "s.json", "v.toon"], d);
    assert.equal(dec.code, 0, dec.stderr);
    const out = dec.stdout.toString();
    assert.match(out, /"big": -9223372036854775808,/);
    assert.match(out, /18446744073709551615,\n\s*"9007199254740993",\n\s*7\n/);
    assert.match(out, /"n": 9007199254740992\n/); // a plain number field gets what JSON.parse gives
  });

  test("unknown commands and flags exit 2", async () => {
    const d = tempDir();
    const runs = await Promise.all([toonGen(["frobnicate"], d), toonGen(["encode", "--schema", SCHEMA, "--bogus"], d), toonGen(["generate", "--bogus"], d)]);
    for (const r of runs) {
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout.length, 0);
      assert.match(r.stderr, /^toon-gen: CONFIG_ERROR: /);
    }
    assert.match(runs[0]!.stderr, /unknown command "frobnicate"/);
    assert.match(runs[1]!.stderr, /--bogus/);
    assert.match(runs[2]!.stderr, /--bogus/);
    assert.deepEqual(listFiles(d), []);
  });
});
