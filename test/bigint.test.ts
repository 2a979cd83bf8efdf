// Integers beyond 64 bits (issue 11, docs/FORMAT.md §3.2): `{"type":"integer"}` takes every integral number
// JSON.parse yields (1e20, 2^64, -1e300, the largest double), through binary (the escape u = 2^64 + 1, then the
// float64) and text, generated code and engine alike, int64-marked and tabled positions too; the bytes of
// 64-bit values do not change, and a malformed escape is INVALID_ENCODING.

import { test } from "node:test";
import assert from "node:assert/strict";
import { schemaToIR } from "../generator/load/index.ts";
import { interpret } from "../generator/interpret/index.ts";
import { describeCodec } from "../generator/emit/descriptor.ts";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { textCheckOf } from "../runtime/codec/engine/text-check.ts";
import { fromTextWith } from "../runtime/text/check.ts";
import { defaultTable, readTabledInt, readTabledInt64, writeTabledInt } from "../runtime/wire/defaults.ts";
import { Reader } from "../runtime/wire/reader.ts";
import { Writer } from "../runtime/wire/writer.ts";
import { emitTo, hex, importCodec, suiteDir } from "./support/gen.ts";

const WIDE = [1e20, -1e20, 2 ** 64, -(2 ** 63) - 2048, 2 ** 70, 1e300, -1.7976931348623157e308, Number.MAX_VALUE];

function bytesOf(f: (w: Writer) => void): string {
  const w = new Writer();
  f(w);
  return hex(w.finish(), 64);
}

function f64(x: number): string {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, x, true);
  return hex(b);
}

test("wire: the escape and the float64 beyond 64 bits; 64-bit values keep their bytes", () => {
  assert.equal(bytesOf((w) => assert.ok(w.int(1e20))), hex(new Uint8Array([0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02])) + " " + f64(1e20));
  // FORMAT §3.2's table, unchanged
  assert.equal(bytesOf((w) => w.int(2 ** 53)), hex(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20])));
  assert.equal(bytesOf((w) => w.int(2 ** 63)), hex(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02])));
  assert.equal(bytesOf((w) => w.int(-(2 ** 63))), hex(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])));
  assert.equal(bytesOf((w) => w.int(3)), hex(new Uint8Array([0x06])));
  for (const x of WIDE) {
    const w = new Writer();
    assert.ok(w.int(x), String(x));
    const r = new Reader(w.finish());
    assert.equal(r.int(), x);
    const r64 = new Reader(w.finish());
    assert.equal(r64.int64(), x, "int64 positions decode the number");
  }
  // the escape is for integers beyond 64 bits only
  assert.equal(new Writer().wideInt(5), false, "a 64-bit value never takes the escape");
  assert.equal(new Writer().wideInt(1e20 + 0.5), true, "1e20 + 0.5 is the double 1e20");
  assert.equal(new Writer().wideInt(Infinity), false);
});

test("wire: a malformed escape is INVALID_ENCODING", () => {
  const escape = [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02];
  for (const x of [5, 1.5, Infinity, NaN, 2 ** 63, -(2 ** 63)]) {
    const b = new Uint8Array(18);
    b.set(escape);
    new DataView(b.buffer).setFloat64(10, x, true);
    for (const read of [(r: Reader) => r.int(), (r: Reader) => r.int64()]) {
      assert.throws(() => read(new Reader(b)), (e: any) => e.code === "INVALID_ENCODING", String(x));
    }
  }
  // truncated after the escape
  assert.throws(() => new Reader(new Uint8Array(escape)).int(), (e: any) => e.code === "TRUNCATED");
  // other odd values at and above 2^64 stay invalid: zz(-2^63 - 2)
  assert.throws(() => new Reader(new Uint8Array([0x83, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02])).int(), (e: any) => e.code === "INVALID_ENCODING");
});

test("wire: tabled integer positions shift the escape like any value", () => {
  const t = defaultTable([7, 1e20]);
  for (const x of [...WIDE, 7, 5, 2 ** 63]) {
    const w = new Writer();
    assert.ok(writeTabledInt(w, x, t), String(x));
    const bytes = w.finish();
    assert.equal(readTabledInt(new Reader(bytes), t), x);
    const v64 = readTabledInt64(new Reader(bytes), t);
    assert.equal(typeof v64 === "bigint" ? Number(v64) : v64, x);
  }
  // 1e20 is entry 1: one byte; 1e21 is not: the escape + 2, then the double
  const w = new Writer();
  writeTabledInt(w, 1e21, t);
  assert.equal(hex(w.finish(), 64), hex(new Uint8Array([0x83, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02])) + " " + f64(1e21));
});

test("codecs: integer fields beyond 64 bits round-trip through binary and text, generated and interpreted", async () => {
  await initHash();
  const dir = suiteDir("bigint");
  const schema = {
    title: "Big",
    type: "object",
    required: ["i"],
    properties: { i: { type: "integer" }, l: { type: "integer", format: "int64" }, list: { type: "array", items: { type: "integer" } }, u: { anyOf: [{ type: "integer" }, { type: "string" }] } },
  };
  const ir = schemaToIR(schema, { source: "big.schema.json" });
  const dict = buildDictionary(ir);
  const engine = interpret(ir, dict);
  const check = textCheckOf(describeCodec(ir, dict));
  const Big: any = await importCodec((await emitTo(ir, dir, "big")).file, "Big");
  for (const x of WIDE) {
    const v = { i: x, l: x, list: [1, x, -x], u: x };
    const bytes = Big.encode(v);
    assert.deepEqual(engine.encode(v), bytes, `same bytes for ${x}`);
    assert.deepStrictEqual(Big.decode(bytes), v, `generated binary ${x}`);
    assert.deepStrictEqual(engine.decode(bytes), v, `engine binary ${x}`);
    const text = Big.toText(v);
    assert.deepStrictEqual(Big.fromText(text), v, `generated text ${x}: ${text}`);
    assert.deepStrictEqual(fromTextWith(text, undefined, check), v, `interpreted text ${x}`);
    assert.equal(Big.validate(v).ok, true);
  }
  // still integers only
  assert.throws(() => Big.encode({ i: 1.5 }), (e: any) => e.code === "INVALID_VALUE" && /expected an integer/.test(e.message));
  // a bigint beyond 64 bits has no wire form
  assert.throws(() => Big.encode({ i: 1, l: 2n ** 64n }), (e: any) => e.code === "INVALID_VALUE");
});
