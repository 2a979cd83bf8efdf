/**
 * Dense keyed tables (issue 25): a map whose values are objects that one header fits is written as TOON v4 writes
 * its keyed table, `key[N:]{hdr}:` and an entry `key: cells` per line, read back by the dense reader (and counted,
 * repaired and cut as tables are).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { encode as toonEncode } from "@toon-format/toon";
import { schemaToIR } from "../generator/load/index.ts";
import { compileTextCheck } from "../generator/emit/text.ts";
import { denseOf } from "../runtime/text/dense/index.ts";
import { textReader } from "../runtime/text/reader/text-reader.ts";
import type { ReaderSpec } from "../runtime/text/reader/payload-reader.ts";
import { setOwn } from "../runtime/wire/objects.ts";
import { catchToon } from "./support/toon-error.ts";
import { Rng } from "./support/rng.ts";

const FLAG = {
  type: "object",
  required: ["enabled", "rollout", "owner", "updatedAt"],
  properties: { enabled: { type: "boolean" }, rollout: { type: "integer", minimum: 0, maximum: 100 }, owner: { type: "string" }, updatedAt: { type: "string", format: "date" }, note: { type: "string" } },
};
const SCHEMA = { type: "object", required: ["flags"], properties: { version: { type: "string" }, flags: { type: "object", additionalProperties: FLAG } } };
const ROOT_MAP = { type: "object", additionalProperties: FLAG };

function codecOf(schema: object) {
  const ir = schemaToIR(schema as never, { source: "keyed.schema.json", baseDir: process.cwd() });
  const { check, hints } = compileTextCheck(ir);
  return { dense: denseOf(ir), spec: { name: ir.name, descriptor: ir, check, hints } satisfies ReaderSpec };
}

function flags(n: number, seed: number): Record<string, unknown> {
  const rng = new Rng(seed);
  const out: Record<string, unknown> = {};
  const owners = ["Madilyn", "Ann Lee", "Bo", "Chen Yu"];
  for (let i = 0; i < n; i++) {
    const f: Record<string, unknown> = { enabled: rng.int(0, 1) === 1, rollout: rng.int(0, 100), owner: rng.pick(owners), updatedAt: `2025-0${rng.int(1, 9)}-1${rng.int(0, 9)}` };
    if (rng.int(0, 9) === 0) f.note = "rolled back, then on again";
    out[`flag_${i}_${rng.pick(["finding", "beta", "ui"])}`] = f;
  }
  return out;
}

test("keyed: a map of uniform objects is one header and a line per key, read back, fewer tokens than TOON's own keyed table", () => {
  const { dense } = codecOf(SCHEMA);
  const value = { version: "0.2.20", flags: flags(500, 7) };
  const text = dense.toText(value);
  const lines = text.split("\n");
  assert.equal(lines[1], "flags[500:]{enabled,rollout,owner,updatedAt,note}:");
  assert.equal(lines.length, 2 + 500);
  assert.match(lines[2]!, /^ {2}flag_0_[a-z]+: (true|false),\d+,[A-Za-z ]+,2025\d{4},$/);
  assert.deepStrictEqual(dense.fromText(text), value);
  const toon = toonEncode(value);
  assert.ok(countTokens(text) <= countTokens(toon), `dense ${countTokens(text)} tokens, TOON ${countTokens(toon)}`);
  // against the field lines it was before (a field group per key): the names once instead of 500 times
  const fieldLines = ["version: 0.2.20", "flags:", ...Object.entries(value.flags).map(([k, f]) => `  ${k}{${Object.keys(f as object).join(",")}}: ${Object.values(f as object).map((x) => (typeof x === "string" && x.includes(",") ? JSON.stringify(x) : String(x).replace(/^(\d{4})-(\d\d)-(\d\d)$/, "$1$2$3"))).join(",")}`)].join("\n");
  assert.deepStrictEqual(dense.fromText(fieldLines), value, "the field lines still read");
  assert.ok(countTokens(text) < countTokens(fieldLines) * 0.8, `${countTokens(text)} against ${countTokens(fieldLines)}`);
});

test("keyed: a root map, keys that must be quoted, __proto__ as a key, entries of empty cells", () => {
  const { dense } = codecOf(ROOT_MAP);
  const value: Record<string, unknown> = {};
  for (const k of ["__proto__", "a b", "-dash", "x: y", "", 'q"uote', "123", "ok"]) setOwn(value, k, { enabled: true, rollout: 5, owner: k || "none", updatedAt: "2025-01-02" });
  const text = dense.toText(value);
  assert.match(text, /^\[8:\]\{enabled,rollout,owner,updatedAt\}:\n/);
  const back = dense.fromText(text) as Record<string, unknown>;
  assert.deepStrictEqual(back, value);
  assert.ok(Object.prototype.hasOwnProperty.call(back, "__proto__"));
  assert.equal(Object.getPrototypeOf(back), Object.prototype);
  // an entry whose optional fields are all absent: its empty cells (one cell: nothing after the colon)
  const opt = codecOf({ type: "object", properties: { m: { type: "object", additionalProperties: { type: "object", properties: { a: { type: "integer" }, b: { type: "string" } } } } } });
  // (a map this small is written as JSON, fewer tokens: these texts are what a model may write)
  const m = { m: { x: {}, y: { a: 1, b: "two" }, z: { b: "three" } } };
  assert.equal(opt.dense.lines(m), 'm: {"x":{},"y":{"a":1,"b":"two"},"z":{"b":"three"}}');
  assert.deepStrictEqual(opt.dense.fromText("m[3:]{a,b}:\n  x: ,\n  y: 1,two\n  z: ,three"), m);
  const one = codecOf({ type: "object", properties: { m: { type: "object", additionalProperties: { type: "object", properties: { a: { type: "integer" } } } } } });
  assert.deepStrictEqual(one.dense.fromText("m[3:]{a}:\n  x:\n  y: 1\n  w:2"), { m: { x: {}, y: { a: 1 }, w: { a: 2 } } });
});

test("keyed: counts, duplicates, a missing field and the wrong header are errors with their place; a cut is INCOMPLETE", () => {
  const { dense, spec } = codecOf(SCHEMA);
  const head = "flags[2:]{enabled,rollout,owner,updatedAt}:\n";
  let e = catchToon(() => dense.fromText(head + "  a: true,1,x,20250101"));
  assert.equal(e.code, "TEXT_SYNTAX");
  assert.deepEqual([e.count?.declared, e.count?.found, e.count?.what, e.atEnd], [2, 1, "entries", true]);
  e = catchToon(() => dense.fromText(head + "  a: true,1,x,20250101\n  b: true,1,x,20250101\n  c: true,1,x,20250101"));
  assert.equal(e.code, "TEXT_SYNTAX");
  assert.equal(e.line, 4);
  e = catchToon(() => dense.fromText(head + "  a: true,1,x,20250101\n  a: true,2,x,20250101"));
  assert.equal(e.code, "TEXT_SYNTAX");
  assert.match(e.message, /"a" twice/);
  e = catchToon(() => dense.fromText("flags[1:]{enabled,rollout,owner}:\n  a: true,1,x"));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/flags/a/updatedAt");
  e = catchToon(() => dense.fromText(head + "  a: yes,1,x,20250101\n  b: true,1,x,20250101"));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/flags/a/enabled");
  e = catchToon(() => dense.fromText("flags[1]{enabled,rollout,owner,updatedAt}:\n  true,1,x,20250101"));
  assert.equal(e.code, "TEXT_SYNTAX");
  assert.equal(e.line, 1);
  e = catchToon(() => dense.fromText("flags[1:]:\n  a: true"));
  assert.equal(e.code, "TEXT_SYNTAX");
  assert.match(e.message, /expected "\{"/);
  assert.equal(e.path, "/flags");
  // a map whose values are arrays has no keyed table
  const lists = codecOf({ type: "object", properties: { m: { type: "object", additionalProperties: { type: "array", items: { type: "integer" } } } } });
  e = catchToon(() => lists.dense.fromText("m[1:]{a}:\n  k: 1"));
  assert.equal(e.code, "INVALID_VALUE");
  assert.equal(e.path, "/m");
  // a reply cut after the first entry: INCOMPLETE; a miscounted header in a closed fence: repaired with repair
  const r = textReader(spec);
  r.push("```toon\n" + head + "  a: true,1,x,20250101\n");
  assert.equal(catchToon(() => r.end()).code, "INCOMPLETE");
  const fixed = textReader(spec, { repair: true });
  fixed.push("```toon\n" + head + "  a: true,1,x,20250101\n```\n");
  assert.deepStrictEqual(fixed.end(), { flags: { a: { enabled: true, rollout: 1, owner: "x", updatedAt: "2025-01-01" } } });
});

test("keyed: values one header cannot carry stay field lines (a null value, a union of objects), and read back", () => {
  const nullable = codecOf({ type: "object", properties: { m: { type: "object", additionalProperties: { anyOf: [FLAG, { type: "null" }] } } } });
  const v = { m: { a: { enabled: true, rollout: 1, owner: "x", updatedAt: "2025-01-01" }, b: null } };
  const text = nullable.dense.toText(v);
  assert.doesNotMatch(text, /\[2:\]/);
  assert.deepStrictEqual(nullable.dense.fromText(text), v);
  // without the null: a keyed table, whose entries are the non-null branch
  const w = { m: { a: v.m.a, b: v.m.a } };
  assert.match(nullable.dense.toText(w), /^m\[2:\]\{/m);
  assert.deepStrictEqual(nullable.dense.fromText(nullable.dense.toText(w)), w);
});

test("keyed: a keyed table read in pieces, one character at a time, as whole", () => {
  const { dense, spec } = codecOf(SCHEMA);
  const value = { version: "1", flags: flags(40, 3) };
  const text = dense.toText(value);
  for (const split of [1, 5]) {
    const r = textReader(spec, { input: "text" });
    for (const p of split === 1 ? text.split("") : Rng.pieces(text, split)) r.push(p);
    assert.deepStrictEqual(r.end(), value);
  }
});
