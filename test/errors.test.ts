// Errors: every failure is a ToonError with a stable code and a JSON-pointer path. Header errors (magic,
// version, fingerprint), trailing bytes, invalid values on encode (with the path of the offending value, and
// nothing returned), NaN/Infinity, and hostile bytes: a 10,000-level depth bomb, huge counts in a few bytes,
// invalid UTF-8.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { ToonError } from "../runtime/index.ts";
import { compileSchema, importCodec, REPO, suiteDir, type Codec } from "./support/gen.ts";

const orders = await importCodec(path.join(REPO, "examples/orders/gen/order-list.ts"), "OrderList");
const logs = await importCodec(path.join(REPO, "examples/logs/gen/log-report.ts"), "LogReport");
const extraction = await importCodec(path.join(REPO, "examples/extraction/gen/extraction-result.ts"), "ExtractionResult");
const ordersData = (): any => JSON.parse(readFileSync(path.join(REPO, "examples/orders/data/order-list.json"), "utf8"));
const logsData = (): any => JSON.parse(readFileSync(path.join(REPO, "examples/logs/data/log-report.json"), "utf8"));
const extractionData = (): any => JSON.parse(readFileSync(path.join(REPO, "examples/extraction/data/extraction-result.json"), "utf8"));

const dir = suiteDir("errors");
const compile = async (schema: unknown, base: string): Promise<Codec> => (await compileSchema(schema, dir, base)).codec;

const S2020 = "https://json-schema.org/draft/2020-12/schema";
const chain = await compile({ $schema: "http://json-schema.org/draft-07/schema#", title: "Chain", type: "object", properties: { next: { $ref: "#" } }, additionalProperties: false }, "chain");
const tree = await compile(
  { $schema: S2020, title: "Tree", $ref: "#/$defs/Node", $defs: { Node: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/Node" } } }, required: ["kids"], additionalProperties: false } } },
  "tree",
);
const anyCodec = await compile({ $schema: S2020, title: "AnyValue" }, "any-value");
const strings = await compile({ $schema: S2020, title: "Strings", type: "array", items: { type: "string" } }, "strings");
const nulls = await compile({ $schema: S2020, title: "Nulls", type: "array", items: { type: "null" } }, "nulls");
const map = await compile({ $schema: S2020, title: "Counts", type: "object", additionalProperties: { type: "integer" } }, "counts");
const text = await compile({ $schema: S2020, title: "Text", type: "string" }, "text");
const pair = await compile({ $schema: S2020, title: "Pair", type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: { type: "boolean" } }, "pair");
const wide = await compile(
  { $schema: S2020, title: "Wide", type: "object", properties: { n: { type: "number" }, i: { type: "integer" }, big: { type: "integer", format: "int64" }, any: {}, s: { type: "string" } }, additionalProperties: false },
  "wide",
);

/** Assert that `f` throws a ToonError with `code` (and `path`, when given); returns it. */
function throwsToon(f: () => unknown, code: string, p?: string): ToonError {
  let error: unknown;
  let returned: unknown;
  try {
    returned = f();
  } catch (e) {
    error = e;
  }
  assert.ok(error !== undefined, `expected ToonError ${code}, but it returned ${String(returned).slice(0, 80)}`);
  assert.ok(error instanceof ToonError, `expected ToonError ${code}, got ${(error as Error)?.name}: ${(error as Error)?.message}`);
  assert.equal(error.code, code, error.message);
  if (p !== undefined) assert.equal(error.path, p, error.message);
  return error;
}

function varint(n: bigint): number[] {
  const out: number[] = [];
  while (n >= 0x80n) {
    out.push(Number(n & 0x7fn) | 0x80);
    n >>= 7n;
  }
  out.push(Number(n));
  return out;
}

function concat(...parts: (Uint8Array | number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Length of the common prefix of two messages of `c` (the header plus whatever else they share). */
function headerLength(c: Codec, a: unknown, b: unknown): number {
  const x = c.encode(a);
  const y = c.encode(b);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/**
 * Split `enc(2 levels)` as `enc(1 level)` with a chunk inserted: returns [prefix, unit, suffix] such that
 * prefix + unit^k + suffix is the message of k+1 levels (checked by the caller against real encodings).
 */
function periodic(one: Uint8Array, two: Uint8Array): [Uint8Array, Uint8Array, Uint8Array] {
  const L = two.length - one.length;
  assert.ok(L > 0);
  for (let p = 0; p <= one.length; p++) {
    let ok = true;
    for (let i = 0; i < p && ok; i++) ok = one[i] === two[i];
    for (let i = p; i < one.length && ok; i++) ok = one[i] === two[i + L];
    if (ok) return [one.subarray(0, p), two.subarray(p, p + L), one.subarray(p)];
  }
  throw new Error("the two messages are not one chunk apart");
}

function repeat(unit: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(unit.length * n);
  for (let i = 0; i < n; i++) out.set(unit, i * unit.length);
  return out;
}

// -------------------------------------------------------------------------------------------- ToonError

test("errors: ToonError has name, code, path, and is an Error", () => {
  const e = throwsToon(() => orders.decode(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9])), "BAD_MAGIC");
  assert.equal(e.name, "ToonError");
  assert.ok(e instanceof Error);
  assert.equal(typeof e.code, "string");
  assert.equal(typeof e.path, "string");
  assert.ok(e.message.includes("BAD_MAGIC"), e.message);
  const v = throwsToon(() => orders.encode({ orders: [{}] } as never), "INVALID_VALUE");
  assert.equal(v.name, "ToonError");
  assert.ok(v.path.startsWith("/orders/0"), v.path);
  assert.ok(v.message.includes(v.path), `message does not name the path: ${v.message}`);
});

// -------------------------------------------------------------------------------------------- header

test("errors: wrong magic is BAD_MAGIC", () => {
  const good = orders.encode(ordersData());
  for (const magic of ["TOOM", "JSON", "{\"or", "toon", "\u0000\u0000\u0000\u0000"]) {
    const bad = good.slice();
    for (let i = 0; i < 4; i++) bad[i] = magic.charCodeAt(i);
    throwsToon(() => orders.decode(bad), "BAD_MAGIC");
  }
  throwsToon(() => orders.decode(new TextEncoder().encode(JSON.stringify(ordersData()))), "BAD_MAGIC");
  throwsToon(() => orders.decode(new Uint8Array([0x54, 0x4f, 0x4f, 0x4d])), "BAD_MAGIC");
});

test("errors: an unsupported format version is UNSUPPORTED_VERSION", () => {
  const good = orders.encode(ordersData());
  for (const version of [0, 2, 0x7f, 0xff]) {
    const bad = good.slice();
    bad[4] = version;
    throwsToon(() => orders.decode(bad), "UNSUPPORTED_VERSION");
  }
});

test("errors: a fingerprint mismatch names both fingerprints", () => {
  const hex = (n: number): string => "0x" + n.toString(16).padStart(4, "0");
  assert.notEqual(orders.fingerprint, logs.fingerprint);
  const e = throwsToon(() => logs.decode(orders.encode(ordersData())), "FINGERPRINT_MISMATCH");
  assert.ok(e.message.toLowerCase().includes(hex(orders.fingerprint)), `message does not name the message's fingerprint ${hex(orders.fingerprint)}: ${e.message}`);
  assert.ok(e.message.toLowerCase().includes(hex(logs.fingerprint)), `message does not name the decoder's fingerprint ${hex(logs.fingerprint)}: ${e.message}`);
  // a one-bit change of the fingerprint bytes
  const bad = orders.encode(ordersData());
  bad[8]! ^= 1;
  const f = throwsToon(() => orders.decode(bad), "FINGERPRINT_MISMATCH");
  assert.ok(f.message.toLowerCase().includes(hex(orders.fingerprint ^ 1)), f.message);
});

test("errors: bytes after a complete value are TRAILING_BYTES", () => {
  const good = orders.encode(ordersData());
  throwsToon(() => orders.decode(concat(good, [0])), "TRAILING_BYTES");
  throwsToon(() => orders.decode(concat(good, good)), "TRAILING_BYTES");
  const t = text.encode("x");
  throwsToon(() => text.decode(concat(t, [0x54])), "TRAILING_BYTES");
});

// -------------------------------------------------------------------------------------------- encode

test("errors: invalid values on encode are INVALID_VALUE at the JSON pointer of the offending value, and return nothing", () => {
  const valid = ordersData();
  const reference = orders.encode(valid);
  const cases: [string, (d: any) => void, string][] = [
    ["qty as a string", (d) => (d.orders[3].items[0].qty = "7"), "/orders/3/items/0/qty"],
    ["qty not an integer", (d) => (d.orders[3].items[0].qty = 1.5), "/orders/3/items/0/qty"],
    ["missing required sku", (d) => delete d.orders[3].items[0].sku, "/orders/3/items/0/sku"],
    ["unknown property on a closed object", (d) => (d.orders[7].customer.nickname = "x"), "/orders/7/customer/nickname"],
    ["nested definition field", (d) => (d.orders[29].customer.address.city = 5), "/orders/29/customer/address/city"],
    ["enum value", (d) => (d.orders[3].status = "lost"), "/orders/3/status"],
    ["array expected", (d) => (d.orders[0].items = {}), "/orders/0/items"],
    ["object expected", (d) => (d.orders[1] = null), "/orders/1"],
    ["lone surrogate", (d) => (d.orders[2].note = "a\ud800b"), "/orders/2/note"],
    ["undefined required", (d) => (d.orders[4].total = undefined), "/orders/4/total"],
    ["bigint in a number field", (d) => (d.orders[4].total = 10n), "/orders/4/total"],
    ["root not an object", (d) => void d, ""],
  ];
  for (const [what, mutate, where] of cases) {
    const d = ordersData();
    mutate(d);
    const input = what === "root not an object" ? [d] : d;
    throwsToon(() => orders.encode(input), "INVALID_VALUE", where);
    const v = orders.validate(input);
    assert.equal(v.ok, false, what);
    assert.ok(!v.ok && v.errors.some((e) => e.path === where), `${what}: validate reports ${JSON.stringify(!v.ok && v.errors)}`);
    // the failed encode left nothing behind in the shared writer
    assert.deepEqual(orders.encode(valid), reference, `${what}: the next encode differs`);
  }
  // other examples: arrays of definitions, union branches picked by discriminator
  const l = logsData();
  l.services[2].topErrors[0].count = -0.5;
  throwsToon(() => logs.encode(l), "INVALID_VALUE", "/services/2/topErrors/0/count");
  const x = extractionData();
  const doc = x.documents.findIndex((d: any) => d.entities.length > 0);
  x.documents[doc].entities[0].confidence = "high";
  throwsToon(() => extraction.encode(x), "INVALID_VALUE", `/documents/${doc}/entities/0/confidence`);
  const y = extractionData();
  y.documents[doc].entities[0].type = "spaceship";
  throwsToon(() => extraction.encode(y), "INVALID_VALUE", `/documents/${doc}/entities/0/type`);
});

test("errors: NaN and Infinity are rejected on encode (numbers, integers, int64, any)", () => {
  for (const bad of [NaN, Infinity, -Infinity]) {
    const d = ordersData();
    d.orders[0].total = bad;
    throwsToon(() => orders.encode(d), "INVALID_VALUE", "/orders/0/total");
    const q = ordersData();
    q.orders[5].items[0].qty = bad;
    throwsToon(() => orders.encode(q), "INVALID_VALUE", "/orders/5/items/0/qty");
    throwsToon(() => wide.encode({ n: bad }), "INVALID_VALUE", "/n");
    throwsToon(() => wide.encode({ i: bad }), "INVALID_VALUE", "/i");
    throwsToon(() => wide.encode({ big: bad }), "INVALID_VALUE", "/big");
    throwsToon(() => wide.encode({ any: { deep: [1, bad] } }), "INVALID_VALUE", "/any/deep/1");
    throwsToon(() => anyCodec.encode(bad), "INVALID_VALUE", "");
  }
  // bigints outside int64/uint64 (an integral number beyond 64 bits is valid: docs/FORMAT.md §3.2)
  assert.deepStrictEqual(wide.decode(wide.encode({ i: 2 ** 64 })), { i: 2 ** 64 });
  throwsToon(() => wide.encode({ big: 2n ** 64n }), "INVALID_VALUE", "/big");
  throwsToon(() => wide.encode({ big: -(2n ** 63n) - 1n }), "INVALID_VALUE", "/big");
  // values JSON cannot carry
  throwsToon(() => wide.encode({ any: { f: () => 1 } }), "INVALID_VALUE", "/any/f");
  throwsToon(() => wide.encode({ any: Symbol("s") }), "INVALID_VALUE", "/any");
});

test("errors: cyclic and too deep values fail with DEPTH_LIMIT on encode, not a stack overflow", () => {
  const cyclic: any = {};
  cyclic.next = cyclic;
  throwsToon(() => chain.encode(cyclic), "DEPTH_LIMIT");
  const arr: any[] = [];
  arr.push(arr);
  throwsToon(() => anyCodec.encode(arr), "DEPTH_LIMIT");
  let deep: any = {};
  for (let i = 0; i < 10000; i++) deep = { next: deep };
  throwsToon(() => chain.encode(deep), "DEPTH_LIMIT");
});

// -------------------------------------------------------------------------------------------- hostile bytes

test("errors: a 10,000-level depth bomb is DEPTH_LIMIT, not a stack overflow", () => {
  const nest = (levels: number, leaf: unknown, wrap: (v: unknown) => unknown): unknown => {
    let v = leaf;
    for (let i = 0; i < levels; i++) v = wrap(v);
    return v;
  };
  const subjects: [string, Codec, unknown, (v: unknown) => unknown][] = [
    ["chain ($ref: #)", chain, {}, (v) => ({ next: v })],
    ["tree (array of definitions)", tree, { kids: [] }, (v) => ({ kids: [v] })],
    ["any (nested arrays)", anyCodec, null, (v) => [v]],
    ["any (nested objects)", anyCodec, 1, (v) => ({ k: v })],
  ];
  for (const [label, codec, leaf, wrap] of subjects) {
    const [prefix, unit, suffix] = periodic(codec.encode(nest(1, leaf, wrap)), codec.encode(nest(2, leaf, wrap)));
    // the crafting is right: 50 levels decode to the 50-level value
    const fifty = concat(prefix, repeat(unit, 49), suffix);
    assert.ok(isDeepStrictEqual(codec.decode(fifty), nest(50, leaf, wrap)), `${label}: crafted 50-level message does not decode to 50 levels`);
    const bomb = concat(prefix, repeat(unit, 9999), suffix);
    const started = performance.now();
    throwsToon(() => codec.decode(bomb), "DEPTH_LIMIT");
    assert.ok(performance.now() - started < 1000, `${label}: took ${performance.now() - started} ms`);
  }
});

test("errors: a huge count in a few bytes is a ToonError at once, not an allocation", () => {
  const hdr = headerLength(strings, [], ["x"]);
  const header = strings.encode([]).subarray(0, hdr);
  const huge = [2n ** 40n, 2n ** 52n, 2n ** 31n, 1000000n];
  const started = performance.now();
  for (const n of huge) {
    // arrays of strings and of zero-width items, maps, strings, tuples and any containers: a count the input
    // cannot hold is TRUNCATED; one beyond what a count can be at all (2^53 and up) may be INVALID_ENCODING
    const throwsToonCount = (f: () => unknown): void => void (n < 2n ** 50n ? throwsToon(f, "TRUNCATED") : assert.throws(f, (e: unknown) => e instanceof ToonError));
    throwsToonCount(() => strings.decode(concat(header, varint(n), [0, 0, 0])));
    const nh = nulls.encode([]).subarray(0, headerLength(nulls, [], [null]));
    assert.throws(() => nulls.decode(concat(nh, varint(n))), (e: unknown) => e instanceof ToonError);
    const mh = map.encode({}).subarray(0, headerLength(map, {}, { a: 1 }));
    throwsToonCount(() => map.decode(concat(mh, varint(n), [2, 0x61, 0])));
    const th = text.encode("").subarray(0, headerLength(text, "", "x"));
    throwsToonCount(() => text.decode(concat(th, varint(n * 2n), [0x61])));
    const ph = pair.encode(["", 0]).subarray(0, headerLength(pair, ["", 0], ["", 0, true]));
    throwsToonCount(() => pair.decode(concat(ph, varint(n), [0, 0])));
    const emptyArray = anyCodec.encode([]);
    throwsToonCount(() => anyCodec.decode(concat(emptyArray.subarray(0, emptyArray.length - 1), varint(n), [0])));
    const emptyObject = anyCodec.encode({});
    throwsToonCount(() => anyCodec.decode(concat(emptyObject.subarray(0, emptyObject.length - 1), varint(n), [0])));
  }
  // zero-width items: counts beyond the cap are refused without looping
  const nh = nulls.encode([]).subarray(0, headerLength(nulls, [], [null]));
  throwsToon(() => nulls.decode(concat(nh, varint(2n ** 40n))), "INVALID_ENCODING");
  assert.deepEqual(nulls.decode(concat(nh, varint(3n))), [null, null, null]);
  // varints beyond what a count can be
  throwsToon(() => strings.decode(concat(header, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])), "INVALID_ENCODING");
  const ms = performance.now() - started;
  assert.ok(ms < 500, `huge counts took ${ms.toFixed(0)} ms to refuse`);
});

test("errors: invalid UTF-8 in a string is INVALID_UTF8 (short and long strings, with the path)", () => {
  const th = text.encode("").subarray(0, headerLength(text, "", "x"));
  const bad: number[][] = [
    [0xff],
    [0xfe],
    [0x80],
    [0xc3, 0x28],
    [0xc0, 0xaf],
    [0xc1, 0xbf],
    [0xe0, 0x80, 0xaf],
    [0xed, 0xa0, 0x80], // UTF-16 surrogate
    [0xed, 0xbf, 0xbf],
    [0xf4, 0x90, 0x80, 0x80], // beyond U+10FFFF
    [0xf5, 0x80, 0x80, 0x80],
    [0xf0, 0x80, 0x80, 0xaf], // overlong
    [0xe2, 0x82], // cut multibyte at the end
    [0xf0, 0x9f, 0x98],
  ];
  for (const seq of bad) {
    for (const pad of [0, 40, 300]) {
      const payload = [...new Array<number>(pad).fill(0x61), ...seq];
      throwsToon(() => text.decode(concat(th, varint(BigInt(payload.length * 2)), payload)), "INVALID_UTF8");
    }
  }
  // well-formed boundaries still decode
  const good: [number[], string][] = [
    [[0xf4, 0x8f, 0xbf, 0xbf], "\u{10FFFF}"],
    [[0xef, 0xbf, 0xbf], "\uFFFF"],
    [[0xee, 0x80, 0x80], "\uE000"],
    [[0xc2, 0x80], "\u0080"],
  ];
  for (const [seq, s] of good) assert.equal(text.decode(concat(th, varint(BigInt(seq.length * 2)), seq)), s);
  // inside a real message: the error names the field
  const d = ordersData();
  d.orders[2].customer.name = "QQQQZZZZ";
  const bytes = orders.encode(d);
  const marker = new TextEncoder().encode("QQQQZZZZ");
  const at = bytes.findIndex((_, i) => marker.every((m, k) => bytes[i + k] === m));
  assert.ok(at > 0);
  bytes.set([0x41, 0x42, 0xed, 0xa0, 0x80, 0x43, 0x44, 0x45], at);
  throwsToon(() => orders.decode(bytes), "INVALID_UTF8", "/orders/2/customer/name");
});
