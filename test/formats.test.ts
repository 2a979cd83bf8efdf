// The wire-format table (runtime/codec/formats.ts) and `format: "uuid"`: what the dictionary and the descriptor
// record brings back the same format (the engine and retired slots rebuild shapes from them), the uuid primitives
// (FORMAT.md §3.8), and the checks that say "expected a UUID".

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { ToonError } from "../runtime/wire/errors.ts";
import { FORMATS, formatOf } from "../runtime/codec/formats.ts";
import { Reader } from "../runtime/wire/reader.ts";
import { Writer } from "../runtime/wire/writer.ts";
import { checkShape, type Shape } from "../runtime/tools.ts";
import { isUuid, readUuid, writeUuid } from "../runtime/wire/uuid.ts";
import { wUuid } from "../runtime/codec/kinds/index.ts";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { describeCodec } from "../generator/emit/descriptor.ts";
import { schemaToIR } from "../generator/load/index.ts";

before(() => initHash());

const A = "123e4567-e89b-12d3-a456-426614174000";

test("formats: each entry's record selects that entry again, and every name is distinct", () => {
  assert.equal(new Set(FORMATS.map((f) => f.name)).size, FORMATS.length);
  for (const f of FORMATS) {
    // what the descriptor records (`record`, plus `decode` for a decoded-value variant such as int64-bigint)
    assert.equal(formatOf({ kind: f.kind, ...f.record, ...f.decode }), f, f.name);
  }
  // int64 marking wins over a format; a format that does not change the wire is a plain string
  assert.equal(formatOf({ kind: "string", format: "uuid", int64: true }).name, "decimal-string");
  assert.equal(formatOf({ kind: "string", format: "email" }).name, "string");
  assert.equal(formatOf({ kind: "integer", format: "uuid" }).name, "integer");
});

test("formats: the dictionary and the descriptor record uuid; the fingerprint tells it from a plain string", () => {
  const load = (format?: string) =>
    schemaToIR({ title: "T", type: "object", properties: { id: format === undefined ? { type: "string" } : { type: "string", format } }, required: ["id"] }, { source: "t.json" });
  const uuid = buildDictionary(load("uuid"));
  const plain = buildDictionary(load());
  const email = buildDictionary(load("email"));
  assert.deepEqual(uuid.base.entries.find((e) => e.path === "id"), { id: 1, path: "id", type: "string", required: true, format: "uuid" });
  assert.notEqual(uuid.base.hash64, plain.base.hash64);
  assert.equal(email.base.hash64, plain.base.hash64, "a format that does not change the wire is not recorded");
  const d = describeCodec(load("uuid"), uuid) as unknown as { root: { properties: { shape: unknown }[] } };
  assert.deepEqual(d.root.properties[0]!.shape, { kind: "string", format: "uuid" });
});

test("uuid: 16 bytes on the wire, any case in, lower case out", () => {
  const w = new Writer(8);
  assert.ok(writeUuid(w, A));
  assert.ok(writeUuid(w, A.toUpperCase()));
  assert.ok(writeUuid(w, "AbCdEf01-2345-6789-aBcD-eF0123456789"));
  const bytes = w.finish();
  assert.equal(Buffer.from(bytes).toString("hex"), "123e4567e89b12d3a456426614174000".repeat(2) + "abcdef0123456789abcdef0123456789");
  const r = new Reader(bytes);
  assert.deepEqual([readUuid(r), readUuid(r), readUuid(r)], [A, A, "abcdef01-2345-6789-abcd-ef0123456789"]);
  r.done();
});

test("uuid: anything but the canonical 8-4-4-4-12 form is refused and writes nothing", () => {
  const bad = ["", "x", A.slice(1), A + "0", A.replace(/-/g, ""), `{${A}}`, `urn:uuid:${A}`, A.replace("-", "_"), A.slice(0, 35) + "g", A.slice(0, 35) + "\u0660", A.slice(0, 8) + "0-" + A.slice(10), " " + A.slice(1)];
  for (const s of bad) {
    const w = new Writer(64);
    assert.equal(writeUuid(w, s), false, JSON.stringify(s));
    assert.equal(w.pos, 0);
    assert.equal(isUuid(s), false, JSON.stringify(s));
  }
  assert.equal(isUuid(A), true);
  assert.equal(isUuid(A.toUpperCase()), true);
  assert.equal(isUuid(5), false);
});

test("uuid: fewer than 16 bytes is TRUNCATED at the reader's path", () => {
  for (let n = 0; n < 16; n++) {
    const r = new Reader(new Uint8Array(n));
    r.at = "/id";
    assert.throws(() => readUuid(r), (e: unknown) => e instanceof ToonError && e.code === "TRUNCATED" && e.path === "/id");
  }
});

test("uuid: the constraint checker (tool-argument checks) says what encode says", () => {
  const shape: Shape = { kind: "string", format: "uuid" };
  assert.deepEqual(checkShape(A.toUpperCase(), shape), []);
  assert.deepEqual(checkShape("nope", shape, {}, "/id"), [{ path: "/id", message: 'expected a UUID, got the string "nope"' }]);
  assert.throws(() => wUuid(new Writer(), "nope", "/id"), (e: unknown) => e instanceof ToonError && e.path === "/id" && e.reason === 'expected a UUID, got the string "nope"');
  // date-time changes the encoding, not what a string position takes
  assert.deepEqual(checkShape("nope", { kind: "string", format: "date-time" }), []);
});
