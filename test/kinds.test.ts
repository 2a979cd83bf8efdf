// The per-kind guards of the binary path (runtime/codec/kinds): each error keeps the code, path and message the
// inline checks had (required properties report `missing`, with its path and key unescaped from the field's path),
// and the enum guards agree with the generated switch on every index and on the message.

import { test } from "node:test";
import assert from "node:assert/strict";
import { ToonError } from "../runtime/index.ts";
import { Writer, invalid } from "../runtime/wire/writer.ts";
import { missing } from "../runtime/wire/objects.ts";
import { enumExpected, enumFail, enumIndex, gArray, gObject, missingAt, wBool, wConst, wEnum, wEnumMap, wInt, wInt64, wJsonEnum, wNull, wNumber, wPlainString, wString, wUuid } from "../runtime/codec/kinds/index.ts";
import { FORMATS } from "../runtime/codec/formats.ts";
import { SCALAR_GUARDS, TABLED_GUARDS } from "../runtime/codec/kinds/scalar.ts";

function errorOf(f: () => void): { code: string; path: string; message: string } {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ToonError, String(e));
    return { code: e.code, path: e.path, message: e.message };
  }
  assert.fail("no error");
}
const same = (a: ToonError, f: () => void): void => assert.deepEqual(errorOf(f), { code: a.code, path: a.path, message: a.message });

test("kinds: a required property's undefined is `missing` at the field's path, with the key unescaped", () => {
  for (const [parent, key] of [["", "id"], ["/a/0", "x/y~z"], ["/q", "~01"], ["", ""]] as const) {
    const p = parent + "/" + key.replace(/~/g, "~0").replace(/\//g, "~1");
    same(missing(parent, key), () => {
      throw missingAt(p);
    });
    same(missing(parent, key), () => wString(new Writer(), undefined, p, 1));
    same(missing(parent, key), () => wInt(new Writer(), undefined, p, 1));
    same(missing(parent, key), () => gObject(undefined, p, 1));
  }
});

test("kinds: without `req`, undefined is a value of the wrong type (array items, tuple items, union arms)", () => {
  same(invalid("/0", "a string", undefined), () => wString(new Writer(), undefined, "/0"));
  same(invalid("", "a boolean", undefined), () => wBool(new Writer(), undefined, ""));
  same(invalid("/n", "null", undefined), () => wNull(undefined, "/n"));
  same(invalid("/a", "an array", undefined), () => gArray(undefined, "/a"));
});

test("kinds: messages of the scalar guards", () => {
  same(invalid("/s", "a string", 5), () => wString(new Writer(), 5, "/s", 1));
  same(invalid("/s", "a string without lone surrogates", "a\ud800"), () => wString(new Writer(), "a\ud800", "/s", 1));
  same(invalid("/i", "an integer", 1.5), () => wInt(new Writer(), 1.5, "/i"));
  same(invalid("/i", "a 64-bit integer (number or bigint)", "1"), () => wInt64(new Writer(), "1", "/i"));
  same(invalid("/n", "a finite number", NaN), () => wNumber(new Writer(), NaN, "/n"));
  same(invalid("/c", 'the constant "x"', "y"), () => wConst("y", "x", "/c"));
  same(invalid("/o", "an object", []), () => gObject([], "/o"));
  same(invalid("/u", "a UUID", "not-a-uuid"), () => wUuid(new Writer(), "not-a-uuid", "/u", 1));
  same(missing("", "u"), () => wUuid(new Writer(), undefined, "/u", 1));
  same(invalid("/s", "a string without lone surrogates", "\udc00"), () => wPlainString(new Writer(), "\udc00", "/s"));
});

test("kinds: every wire format has its guard pair", () => {
  for (const f of FORMATS) {
    assert.equal(typeof (SCALAR_GUARDS as Record<string, unknown>)[f.tabled], "function", f.name);
    assert.equal(typeof (TABLED_GUARDS as Record<string, unknown>)[f.tabled], "function", f.name);
  }
  // the guards' messages are the formats' own
  const bad: Record<string, unknown> = { string: "\ud800", "plain-string": "\ud800", "date-time": "\ud800", date: "\ud800", "decimal-string": "\ud800", uuid: "x", integer: 0.5, int64: 0.5, number: Infinity };
  for (const f of FORMATS) {
    const v = bad[f.name];
    same(invalid("/v", f.expected, v), () => (SCALAR_GUARDS as Record<string, (w: Writer, v: unknown, p: string) => void>)[f.tabled]!(new Writer(), v, "/v"));
  }
});

test("kinds: the enum guards write the first index of a value and list the values (cut at 200) on failure", () => {
  const values = ["a", "b", "a", 3, null, true];
  const index = enumIndex(values);
  for (const [x, i] of [["a", 0], ["b", 1], [3, 3], [null, 4], [true, 5]] as const) {
    for (const write of [(w: Writer) => wEnum(w, x, values, ""), (w: Writer) => wEnumMap(w, x, index, values, "")]) {
      const w = new Writer();
      write(w);
      assert.deepEqual([...w.buf.subarray(0, w.pos)], [i]);
    }
  }
  const expected = 'one of "a", "b", "a", 3, null, true';
  same(invalid("/e", expected, "c"), () => wEnum(new Writer(), "c", values, "/e"));
  same(invalid("/e", expected, "c"), () => wEnumMap(new Writer(), "c", index, values, "/e"));
  same(invalid("/e", expected, "c"), () => {
    throw enumFail("c", values, "/e");
  });
  same(missing("", "e"), () => wEnum(new Writer(), undefined, values, "/e", 1));
  const long = Array.from({ length: 100 }, (_, i) => "value" + i);
  const text = enumExpected(long);
  assert.equal(text.length, 200);
  assert.ok(text.endsWith("...") && text.startsWith('one of "value0", "value1"'));
  const w = new Writer();
  wJsonEnum(w, { a: [1] }, [{ a: [2] }, { a: [1] }], "");
  assert.deepEqual([...w.buf.subarray(0, w.pos)], [1]);
});
