// Text unions without a discriminator (issue 11): fromText picks the branch the text fits as it is, under TOON's
// typing (an unquoted `1` is a number, `true` a boolean), before any branch may coerce it; so
// fromText(toText(v)) is v for every valid v, in objects, arrays and tabular rows alike. A lone string branch
// still takes an unquoted number (what a model writes), as before.

import { test } from "node:test";
import assert from "node:assert/strict";
import { schemaToIR } from "../generator/load/index.ts";
import { textCheckOf } from "../runtime/codec/engine/text-check.ts";
import { fromTextWith } from "../runtime/text/check.ts";
import { describeCodec } from "../generator/emit/descriptor.ts";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { emitTo, importCodec, suiteDir } from "./support/gen.ts";

const SCHEMA = {
  title: "U",
  type: "object",
  required: ["v", "w"],
  properties: {
    v: { anyOf: [{ type: "object", required: ["a"], properties: { a: { type: "string" } } }, { type: "object", required: ["a"], properties: { a: { type: "integer" } } }] },
    w: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "array", items: { type: "boolean" } }] },
    rows: {
      type: "array",
      items: { anyOf: [{ type: "object", required: ["k"], properties: { k: { type: "string" } } }, { type: "object", required: ["k"], properties: { k: { type: "number" } } }] },
    },
    s: { type: "string" },
  },
};

const VALUES = [
  { v: { a: 1 }, w: [true, false] },
  { v: { a: "1" }, w: ["true", "false"] },
  { v: { a: "x" }, w: [] },
  { v: { a: 2 }, w: ["x"], rows: [{ k: 1 }, { k: 2.5 }] },
  { v: { a: "2" }, w: [false], rows: [{ k: "1" }, { k: "2.5" }] },
];

test("text unions: the branch the text fits exactly, generated and interpreted alike", async () => {
  await initHash();
  const ir = schemaToIR(SCHEMA, { source: "u.schema.json" });
  const dir = suiteDir("text-unions");
  const e = await emitTo(ir, dir, "u");
  const U: any = await importCodec(e.file, "U");
  const check = textCheckOf(describeCodec(ir, buildDictionary(ir)));
  for (const v of VALUES) {
    const text = U.toText(v);
    assert.deepStrictEqual(U.fromText(text), v, text);
    assert.deepStrictEqual(fromTextWith(text, undefined, check), v, `interpreted: ${text}`);
    assert.deepStrictEqual(U.decode(U.encode(v)), v);
  }
  // a string position alone still takes an unquoted number: the coercion models rely on
  assert.deepStrictEqual(U.fromText("v:\n  a: x\nw: []\ns: 12"), { v: { a: "x" }, w: [], s: "12" });
  // and a union whose only fitting branch needs it still coerces
  const only = schemaToIR({ title: "O", anyOf: [{ type: "object", required: ["a"], properties: { a: { type: "string" } } }, { type: "array" }] }, { source: "o.schema.json" });
  const O: any = await importCodec((await emitTo(only, dir, "o")).file, "O");
  assert.deepStrictEqual(O.fromText("a: 7"), { a: "7" });
});

test("a uuid field in text takes a UUID only (what binary encode takes), generated and interpreted", async () => {
  await initHash();
  const ir = schemaToIR({ title: "Id", type: "object", required: ["id"], properties: { id: { type: "string", format: "uuid" } } }, { source: "id.schema.json" });
  const dir = suiteDir("text-uuid");
  const Id: any = await importCodec((await emitTo(ir, dir, "id")).file, "Id");
  const check = textCheckOf(describeCodec(ir, buildDictionary(ir)));
  const good = "id: 56D24EAC-25C3-4EA3-8DDA-2E4FCB0E1D2F";
  assert.deepStrictEqual(Id.fromText(good), { id: "56D24EAC-25C3-4EA3-8DDA-2E4FCB0E1D2F" });
  assert.deepEqual(Id.decode(Id.encode(Id.fromText(good))), { id: "56d24eac-25c3-4ea3-8dda-2e4fcb0e1d2f" });
  for (const bad of ["id: 56d2{4eac-25c3-8ea3-8dda-2e4fcb0e1d2f", "id: 12", 'id: "nope"']) {
    for (const run of [() => Id.fromText(bad), () => fromTextWith(bad, undefined, check)]) {
      assert.throws(run, (e: any) => e.code === "INVALID_VALUE" && e.path === "/id" && /expected a UUID/.test(e.message), bad);
    }
  }
});
