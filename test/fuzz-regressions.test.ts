// Hostile input, one regression per class of issue 12 (each failed before its fix): a wrong exception type, a
// few bytes that allocate gigabytes, a snapshot that hangs its consumer, superlinear text, encoders walking a
// sparse array's length, lone surrogates, exotic values. Budgets are asserted by their outcome (a ToonError
// with a code and path, or a value), never by timers: bytes allocated are measured in scripts/fuzz.ts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { ToonError } from "../runtime/wire/errors.ts";
import { decodeSchemaless, encodeSchemaless } from "../runtime/schemaless.ts";
import { decodeText, encodeText } from "../runtime/text/index.ts";
import { setCompressor, getCompressor, zstdContentSize } from "../runtime/compression.ts";
import { unknownOf } from "../runtime/features/extensions.ts";
import { Flag } from "../runtime/wire/wire.ts";
import { compileSchema, suiteDir } from "./support/gen.ts";

/** The generated codec surface these tests use (support/gen.ts's Codec, with options, text and streams). */
type Codec = any; // eslint-disable-line @typescript-eslint/no-explicit-any
import { loadZstd } from "../generator/inspect/zstd.ts";

const S2020 = "https://json-schema.org/draft/2020-12/schema";
const dir = suiteDir("fuzz-regressions");
const compile = async (schema: unknown, base: string): Promise<Codec> => (await compileSchema(schema, dir, base)).codec as Codec;

const nested = await compile({ $schema: S2020, title: "NullGrid", type: "array", items: { type: "array", items: { type: "null" } } }, "null-grid");
const ints = await compile({ $schema: S2020, title: "Ints", type: "array", items: { type: "integer" } }, "ints");
const point = await compile({ $schema: S2020, title: "Point", type: "object", properties: { x: { type: "integer" }, tags: { type: "array", items: { type: "string" } } }, required: ["x"], additionalProperties: false }, "point");

function toonError(f: () => unknown, code?: string): ToonError {
  let error: unknown;
  try {
    f();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof ToonError, `expected a ToonError, got ${error === undefined ? "no error" : `${(error as Error).name}: ${(error as Error).message}`}`);
  if (code !== undefined) assert.equal(error.code, code, error.message);
  assert.equal(typeof error.path, "string");
  return error;
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

test("1: decode(null) and decodeSchemaless(undefined) are ToonErrors, not TypeErrors", () => {
  for (const bad of [null, undefined, "TOON", 42, {}, [1, 2]]) {
    toonError(() => ints.decode(bad as never), "INVALID_ENCODING");
    toonError(() => decodeSchemaless(bad as never), "INVALID_ENCODING");
  }
});

test("2: unknown extension records are views into one copy, and their number is bounded", () => {
  // a valid message, flagged EXTENSIONS at level 0, then N unknown 2-byte records (id 9, empty payload)
  const plain = ints.encode([1]);
  const header = [...plain.subarray(0, 9)];
  header[6] = header[6]! | Flag.EXTENSIONS;
  const body = [...plain.subarray(9)];
  const message = (n: number): Uint8Array => new Uint8Array([...header, 0, ...body, ...varint(n), ...Array.from({ length: n }, () => [9, 0]).flat()]);
  const v = ints.decode(message(100));
  const kept = unknownOf(v)!;
  assert.equal(kept.length, 100);
  // every record a 2-byte view of one shared buffer: no record costs a buffer of its own
  assert.ok(kept.every((r) => r.length === 2 && r.buffer === kept[0]!.buffer));
  assert.deepEqual(ints.decode(ints.encode(v as never)), [1], "kept records travel on");
  toonError(() => ints.decode(message(5000)), "INVALID_ENCODING");
  assert.equal(unknownOf(ints.decode(message(5000), { maxUnknownRecords: 5000 }))!.length, 5000);
  assert.equal(unknownOf(ints.decode(message(5000), { unknown: "discard", maxUnknownRecords: 5000 })), undefined);
});

test("3: a zstd bomb is refused before it inflates (runtime and the CLI's decompressor)", async () => {
  const zstd = await loadZstd();
  const before = getCompressor();
  setCompressor(zstd);
  try {
    const big = new Uint8Array(8 * 1024 * 1024); // zeros: a frame of a few hundred bytes
    const frame = zstd.compress(big);
    assert.equal(zstdContentSize(frame, 0, frame.length), big.length);
    // the CLI's decompressor stops at the declared length, whatever the frame says
    assert.throws(() => zstd.decompress(frame, 1000), /more than the 1000 bytes/);
    // a message that declares fewer bytes than its frame states: refused before decompressing
    const plain = ints.encode([1]);
    const start = 9;
    const lie = new Uint8Array([...plain.subarray(0, start), 0x01, ...varint(plain.length - start), ...frame]);
    lie[6] = lie[6]! | Flag.COMPRESSED;
    toonError(() => ints.decode(lie), "INVALID_ENCODING");
    // the declared size is checked against the per-call limit (default 64 MiB)
    const huge = new Uint8Array([...plain.subarray(0, start), 0x01, ...varint(65 * 1024 * 1024), ...frame]);
    huge[6] = huge[6]! | Flag.COMPRESSED;
    assert.match(toonError(() => ints.decode(huge), "INVALID_ENCODING").message, /maxInflatedBytes/);
    const ok = ints.encode(Array.from({ length: 5000 }, () => 1), { compress: true, threshold: 0 });
    assert.ok(((ok[5]! << 8) | ok[6]!) & Flag.COMPRESSED);
    assert.equal((ints.decode(ok) as number[]).length, 5000);
    toonError(() => ints.decode(ok, { maxInflatedBytes: 100 }), "INVALID_ENCODING");
    toonError(() => ints.decode(ok, { maxInflatedBytes: -1 }), "CONFIG_ERROR");
  } finally {
    setCompressor(before);
  }
});

test("4: zero-width items are budgeted per message, not per count", () => {
  // 20 arrays of 65,536 nulls each: 80 bytes, 1.3 million items before the budget
  const head = nested.encode([]).subarray(0, 9);
  const bomb = new Uint8Array([...head, ...varint(20), ...Array.from({ length: 20 }, () => varint(65536)).flat()]);
  const e = toonError(() => nested.decode(bomb), "INVALID_ENCODING");
  assert.match(e.message, /maxZeroWidthItems/);
  assert.equal(e.path, "/1", "one array of 65,536 nulls fits the default budget (65,536), the second does not");
  const two = new Uint8Array([...head, ...varint(2), ...varint(3), ...varint(2)]);
  assert.deepEqual(nested.decode(two), [[null, null, null], [null, null]]);
  toonError(() => nested.decode(two, { maxZeroWidthItems: 4 }), "INVALID_ENCODING");
  assert.equal((nested.decode(bomb, { maxZeroWidthItems: 20 * 65536 }) as unknown[]).length, 20);
});

test("5: a stream row far past the items so far is refused, so snapshot() never holds a 2^31-long array", () => {
  const frames = ints.stream.frames([5, 7]);
  // frames: header, item 0, item 1, END; the first byte where items 0 and 1 differ is the row
  const [a, b] = [frames[1]!, frames[2]!];
  let at = 0;
  while (a[at] === b[at]) at++;
  assert.equal(b[at], 1, "row byte found");
  const row = varint(2 ** 31 - 2);
  const body = [...b.subarray(1, at), ...row, ...b.subarray(at + 1)];
  const hostile = new Uint8Array([...varint(body.length), ...body]);
  const d = ints.stream.decoder();
  d.push(frames[0]!);
  d.push(frames[1]!);
  toonError(() => d.push(hostile), "INVALID_ENCODING");
  const snap = d.snapshot() as unknown[];
  assert.deepEqual(snap, [5]);
  // a row a little ahead is fine: the holes are within the budget
  const near = new Uint8Array([...varint(body.length - row.length + 1), ...b.subarray(1, at), 5, ...b.subarray(at + 1)]);
  const d2 = ints.stream.decoder();
  d2.push(frames[0]!);
  d2.push(near);
  assert.equal((d2.snapshot() as unknown[]).length, 6);
});

test("7: a table header of 20,000 field names decodes (duplicate check by set, not by scan)", () => {
  const names = Array.from({ length: 20000 }, (_, i) => "f" + i);
  const text = `[1]{${names.join(",")}}:\n  ${names.map(() => "1").join(",")}`;
  const v = decodeText(text) as Record<string, number>[];
  assert.equal(Object.keys(v[0]!).length, 20000);
  const dup = `[1]{${[...names, "f19999"].join(",")}}:\n  ${[...names, "f"].map(() => "1").join(",")}`;
  assert.match(toonError(() => decodeText(dup), "TEXT_SYNTAX").message, /duplicate field name "f19999"/);
});

test("8: toText refuses a sparse array at its hole, without walking its length", () => {
  const sparse = Object.assign([], { length: 2 ** 32 - 1 });
  assert.equal(toonError(() => encodeText({ a: sparse }), "INVALID_VALUE").path, "/a/0");
  assert.equal(toonError(() => ints.toText(sparse as never), "INVALID_VALUE").path, "/0");
  const late: unknown[] = ["a"];
  late[2 ** 32 - 2] = "b";
  assert.equal(toonError(() => encodeText([late]), "INVALID_VALUE").path, "/0/1");
  // a hole inside a typed object's array
  const tags: string[] = ["x"];
  tags.length = 3;
  assert.equal(toonError(() => point.toText({ x: 1, tags }), "INVALID_VALUE").path, "/tags/1");
  assert.equal(encodeText([1, undefined, 2]), "[3]: 1,null,2", "an explicit undefined item stays null");
});

test("9: fromText and decodeText refuse lone surrogates (TEXT_SYNTAX)", () => {
  for (const t of ["\ud800", "a: x\udc00y", 'a: "\ud83d"', "[2]: 1,\ud800"]) {
    toonError(() => decodeText(t), "TEXT_SYNTAX");
  }
  toonError(() => point.fromText("x: 1\ntags[1]: \ud800"), "TEXT_SYNTAX");
  assert.deepEqual(decodeText("a: 😀"), { a: "😀" }, "a surrogate pair is fine");
});

test("11: exotic values: revoked proxies are INVALID_VALUE, user errors pass through, Date impostors are refused", async () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  for (const enc of [(v: unknown) => point.encode(v as never), (v: unknown) => point.toText(v as never), (v: unknown) => encodeText(v), (v: unknown) => encodeSchemaless(v)]) {
    toonError(() => enc(proxy), "INVALID_VALUE");
    assert.equal(toonError(() => enc({ x: 1, tags: proxy }), "INVALID_VALUE").path, "/tags", "at the proxy's own path");
  }
  const mine = new RangeError("mine");
  const getter = { get x(): number {
    throw mine;
  } };
  for (const enc of [(v: unknown) => point.encode(v as never), (v: unknown) => point.toText(v as never), (v: unknown) => encodeText(v)]) {
    assert.throws(() => enc(getter), (e: unknown) => e === mine || (e instanceof ToonError && e.cause === mine && e.code !== "DEPTH_LIMIT"));
  }
  // the stream encoder and validate too (validate reports it as a violation)
  toonError(() => point.stream.encode(proxy), "INVALID_VALUE");
  assert.equal(toonError(() => point.stream.encode({ x: 1, tags: proxy }), "INVALID_VALUE").path, "/tags");
  const checked = point.validate({ x: 1, tags: proxy });
  assert.equal(checked.ok, false);
  assert.equal(checked.errors[0]!.path, "/tags");
  // a codec with a JSON Schema validator module walks the value for bigints first: the proxy's pointer, deeper
  const { OrderList } = await import("../examples/orders/gen/order-list.ts");
  const nested = OrderList.validate({ orders: [{}, proxy] } as never);
  assert.equal(nested.ok, false);
  assert.equal(nested.ok ? "" : nested.errors[0]!.path, "/orders/1");
  assert.throws(() => point.validate(getter), (e: unknown) => e === mine, "validate: the user's RangeError passes through");
  const fake = Object.create(Date.prototype) as Date;
  toonError(() => encodeText({ when: fake }), "INVALID_VALUE");
  const sparse: number[] = [1];
  sparse.length = 3;
  toonError(() => ints.encode(sparse), "INVALID_VALUE");
});

test("10: a backtracking pattern runs on re2js; one neither recheck nor RE2 vouches for is a generation error naming it and its path, unless opted in", async () => {
  const { schemaToIR } = await import("../generator/load/index.ts");
  const linear = schemaToIR({ type: "object", properties: { id: { type: "string", pattern: "(a+)+$" } }, patternProperties: { "^(\\d+)*x$": { type: "integer" } } }, { source: "redos.schema.json" });
  assert.ok(linear.warnings.some((w: string) => /properties\/id\/pattern: pattern: runs on re2js .*"\(a\+\)\+\$": it can backtrack exponentially/.test(w)), linear.warnings.join("\n"));
  assert.ok(linear.warnings.some((w: string) => w.includes("^(\\\\d+)*x$") && w.includes("runs on re2js")), linear.warnings.join("\n"));
  // a backreference: RE2 cannot say it, and recheck finds it exponential
  const schema = { type: "object", properties: { id: { type: "string", pattern: "^(a+)+\\1$" } } };
  let error: unknown;
  try {
    schemaToIR(schema, { source: "redos.schema.json" });
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof ToonError && error.code === "SCHEMA_ERROR", String(error));
  assert.match(error.message, /pattern "\^\(a\+\)\+\\\\1\$": it can backtrack exponentially .*RE2 has no backreferences/);
  assert.equal(error.path, "/properties/id/pattern");
  const ir = schemaToIR(schema, { source: "redos.schema.json", unsafePatterns: "allow" });
  assert.ok(ir.warnings.some((w: string) => w.includes('kept on RegExp by "unsafePatterns": "allow"')), ir.warnings.join("\n"));
  // certified patterns load as before, without a word
  assert.deepEqual(schemaToIR({ type: "string", pattern: "^[A-Z]{2}-\\d{4}$" }, { source: "safe.schema.json" }).warnings, []);
});

test("4b: zero-width items weigh what they cost: 65,536 cloned const objects are over the default budget", async () => {
  const consts = await compile({ $schema: S2020, title: "ConstObjects", type: "array", items: { const: { a: [1, 2, 3] } } }, "const-objects");
  const head = consts.encode([]).subarray(0, 9);
  const bomb = new Uint8Array([...head, ...varint(65536)]); // 13 bytes: 65,536 clones of {a: [1, 2, 3]}, megabytes
  assert.match(toonError(() => consts.decode(bomb), "INVALID_ENCODING").message, /maxZeroWidthItems/);
  assert.equal((consts.decode(bomb, { maxZeroWidthItems: 65536 * 17 }) as unknown[]).length, 65536);
  assert.deepEqual(consts.decode(new Uint8Array([...head, 2])), [{ a: [1, 2, 3] }, { a: [1, 2, 3] }]);
});

test("12: a key line is recognised in one pass, as the pattern it replaced did (which took 650 ms on 1,250 tabs)", async () => {
  const { rootKeyLine } = await import("../runtime/text/reader/payload-rules.ts");
  const { Rng } = await import("./support/rng.ts");
  // the pattern as an oracle, on short lines only
  const KEY_LINE = /^(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_][A-Za-z0-9_.]*))[ \t]*(?:\[[^\]]*\])?[ \t]*(?:\{[^\n]*\})?[ \t]*:/;
  const oracle = (line: string, keys: string[]): boolean => {
    const m = KEY_LINE.exec(line);
    if (m === null) return false;
    if (keys.length === 0) return true;
    let key = m[2];
    if (key === undefined) {
      try {
        key = JSON.parse('"' + m[1]! + '"') as string;
      } catch {
        return false;
      }
    }
    return keys.includes(key);
  };
  const rng = new Rng(12);
  const chars = ["a", "b", "_", "1", ".", " ", "\t", "[", "]", "{", "}", ":", '"', "\\", "n", ",", "-"];
  let matched = 0;
  for (let i = 0; i < 30_000; i++) {
    let line = "";
    for (let k = rng.int(0, 14); k > 0; k--) line += rng.pick(chars);
    for (const keys of [[], ["a", "b", "ab"]]) {
      const want = oracle(line, keys);
      if (want) matched++;
      assert.equal(rootKeyLine(line, { root: "object", keys } as never), want, `${JSON.stringify(line)} with keys [${keys}]`);
    }
  }
  assert.ok(matched > 200, `${matched} key lines among the random ones`);
  assert.equal(rootKeyLine("Here" + "\t".repeat(100_000), { root: "object", keys: [] } as never), false);
  assert.equal(rootKeyLine("a{" + "}".repeat(50_000) + "x", { root: "object", keys: [] } as never), false);
});
