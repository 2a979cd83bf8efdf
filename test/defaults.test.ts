// Default-value tables (docs/FORMAT.md §10.1): profiling picks frequent values; every tabled kind round-trips
// through references and through values not in the table; generated and interpreted codecs write the same bytes;
// a decoder with another table (or none) fails with FINGERPRINT_MISMATCH; corrupt references are refused; tables
// are frozen in the committed dictionary; and the orders and logs examples shrink.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync, cpSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ToonError } from "../runtime/wire/errors.ts";
import { Flag } from "../runtime/wire/wire.ts";
import { Writer } from "../runtime/wire/writer.ts";
import { Reader } from "../runtime/wire/reader.ts";
import { writeHeader } from "../runtime/wire/header.ts";
import * as rt from "../runtime/wire/defaults.ts";
import { formatDictionary, parseDictionary, type Dictionary } from "../generator/dictionary/file.ts";
import { evolveDictionary, integrityFindings } from "../generator/dictionary/evolve.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { applyWireLayout } from "../generator/dictionary/wire-layout.ts";
import { emitModule } from "../generator/emit/module.ts";
import { interpret } from "../generator/interpret/index.ts";
import type { SchemaIR } from "../generator/ir/types.ts";
import { loadSchemaFile, schemaToIR } from "../generator/load/index.ts";
import { generate } from "../generator/pipeline.ts";
import { profileSamples, type Profile } from "../generator/samples/profile.ts";
import { chooseTable, hasTables } from "../generator/samples/tables.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { REPO, suiteDir } from "./support/gen.ts";
import { makeData as makeOrders } from "../examples/orders/make-data.ts";
import { makeData as makeLogs } from "../examples/logs/make-data.ts";

interface Codec {
  name: string;
  fingerprint: number;
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
}

let DIR = "";
before(async () => {
  await initHash();
  DIR = suiteDir("defaults");
});

let counter = 0;
/** Emit and import the codec of `ir` with dictionary `dict` (wire layout applied as `generate` does). */
async function compile(ir: SchemaIR, dict: Dictionary, base = `m${counter++}`): Promise<Codec> {
  const file = path.join(DIR, `${base}.ts`);
  writeFileSync(file, emitModule(applyWireLayout(ir, dict), dict, { fileName: `${base}.ts` }));
  const mod = (await import(pathToFileURL(file).href)) as Record<string, Codec>;
  return mod[ir.name]!;
}

function irOf(schema: unknown, name = "Thing"): SchemaIR {
  return schemaToIR({ title: name, ...(schema as object) }, { source: `${name}.schema.json`, baseDir: REPO });
}

function fresh(ir: SchemaIR, samples?: unknown[]): Dictionary {
  const profile = samples === undefined ? undefined : profileSamples(ir, samples);
  return evolveDictionary(ir, undefined, profile === undefined ? {} : { profile }).dictionary;
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof ToonError) return e.code;
    throw e;
  }
  return "ok";
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString("hex");
}

/** Every tabled kind, in the places a table can sit: required, optional, array items, map values, union branches. */
const ALL_KINDS = {
  type: "object",
  properties: {
    unit: { type: "string", default: "celsius" },
    count: { type: "integer" },
    big: { type: "integer", format: "int64" },
    price: { type: "number" },
    at: { type: "string", format: "date-time" },
    day: { type: "string", format: "date" },
    id64: { type: "string", format: "int64" },
    uid: { type: "string", format: "uuid" },
    tags: { type: "array", items: { type: "string" } },
    labels: { type: "object", additionalProperties: { type: "string" } },
    either: { oneOf: [{ type: "string" }, { type: "integer" }] },
    note: { type: "string" },
  },
  required: ["unit", "count", "price"],
  additionalProperties: false,
};

function sample(i: number): Record<string, unknown> {
  const common = ["alpha", "beta", "gamma"];
  return {
    unit: i % 4 === 0 ? "kelvin" : "celsius",
    count: [1, 1000, 1000, 123456, -5][i % 5],
    big: [2 ** 60, 77, 77][i % 3]! >= 2 ** 53 ? 2n ** 60n : 77,
    price: [19.99, 19.99, 0.1, 1234.5][i % 4],
    at: ["2025-01-15T10:30:00Z", "2025-01-15T10:30:00Z", "2025-01-15T10:30:00.123Z"][i % 3],
    day: ["2025-01-15", "2025-01-15", "1999-12-31"][i % 3],
    id64: ["18446744073709551615", "18446744073709551615", "007"][i % 3],
    uid: ["0f8fad5b-d9cb-469f-a165-70867728950e", "0f8fad5b-d9cb-469f-a165-70867728950e", "7c9e6679-7425-40de-944b-e07fc1f90ae" + (i % 10)][i % 3],
    tags: [common[i % 3]!, common[(i + 1) % 3]!, "rare-" + i],
    labels: { env: i % 2 === 0 ? "production" : "staging", region: "eu-west-1" },
    either: i % 2 === 0 ? "auto" : 42,
    ...(i % 3 === 0 ? { note: "leave at the door" } : {}),
  };
}

/** What a decoder returns for a value (int64 integers: numbers when safe). */
function decoded(v: Record<string, unknown>): Record<string, unknown> {
  const b = v.big;
  if (typeof b === "bigint" && b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER)) return { ...v, big: Number(b) };
  if (typeof b === "number" && !Number.isSafeInteger(b)) return { ...v, big: BigInt(b) };
  return v;
}

describe("profiling", () => {
  test("frequent values are picked, rare ones are not; the schema default comes first", () => {
    const ir = irOf(ALL_KINDS);
    const samples = Array.from({ length: 40 }, (_, i) => sample(i));
    const profile = profileSamples(ir, samples)!;
    assert.equal(profile.samples, 40);
    // path frequencies: every dictionary path the samples reach
    assert.equal(profile.frequency.get("$"), 40);
    assert.equal(profile.frequency.get("tags[]"), 120);
    assert.equal(profile.frequency.get("either<0>"), 20);
    assert.equal(profile.frequency.get("either<1>"), 20);
    assert.equal(profile.frequency.get("labels{}"), 80);
    const dict = fresh(ir, samples);
    assert.ok(hasTables(dict));
    const table = new Map(dict.defaults!.tables.map((t) => [t.path, t.values]));
    assert.deepEqual(table.get("unit")![0], "celsius", "schema default first");
    assert.ok(table.get("unit")!.includes("kelvin"));
    assert.ok(table.get("count")!.includes(123456) && table.get("count")!.includes(1000));
    assert.ok(!table.get("count")!.includes(1), "1 is one byte already: nothing to save");
    assert.deepEqual(table.get("price")!.slice(0, 1), [19.99]);
    assert.ok(table.get("at")!.includes("2025-01-15T10:30:00Z"));
    assert.ok(table.get("tags[]")!.includes("alpha") && !table.get("tags[]")!.some((v) => String(v).startsWith("rare-")));
    assert.ok(table.get("labels{}")!.includes("production"));
    assert.ok(table.get("either<0>")!.includes("auto"));
    assert.ok(table.get("either<1>") === undefined, "42 is one byte already");
    assert.ok(!table.has("note") || !table.get("note")!.includes("unique"), "no table for values seen once");
    for (const t of dict.defaults!.tables) assert.ok(t.values.length <= rt.MAX_DEFAULT_TABLE);
  });

  test("samples of another schema are skipped; no fitting sample means no profile", () => {
    const ir = irOf(ALL_KINDS);
    assert.equal(profileSamples(ir, [{ other: true }, [1, 2], "x"]), undefined);
    const p = profileSamples(ir, [{ other: true }, sample(1), sample(2)])!;
    assert.equal(p.samples, 2);
  });

  test("chooseTable ranks by bytes saved and stops when the table would not pay", () => {
    const profile = profileSamples(irOf({ type: "object", properties: { s: { type: "string" } }, required: ["s"] }), [
      ...Array.from({ length: 10 }, () => ({ s: "a-rather-long-frequent-value" })),
      ...Array.from({ length: 3 }, () => ({ s: "short" })),
      { s: "once" },
    ])!;
    const values = chooseTable("string", undefined, profile.paths.get("s"));
    assert.deepEqual(values, ["a-rather-long-frequent-value", "short"]);
    assert.deepEqual(chooseTable("string", "dflt", undefined), ["dflt"]);
    assert.deepEqual(chooseTable("integer", 1.5, undefined), [], "a default of the wrong kind is no entry");
    assert.deepEqual(chooseTable("number", -0, undefined), [], "-0 is never an entry");
  });

  test("uuid tables pay for the tag byte every other value then carries", () => {
    const uuidIr = irOf({ type: "object", properties: { u: { type: "string", format: "uuid" } }, required: ["u"] });
    const frequent = "0f8fad5b-d9cb-469f-a165-70867728950e";
    const unique = (i: number): string => `7c9e6679-7425-40de-944b-e07fc1f9${String(i).padStart(4, "0")}`;
    const mix = (repeats: number, uniques: number) =>
      profileSamples(uuidIr, [...Array.from({ length: repeats }, () => ({ u: frequent })), ...Array.from({ length: uniques }, (_, i) => ({ u: unique(i) }))])!.paths.get("u");
    // 30 references save 30 * 15 bytes; the 10 others pay a byte each
    assert.deepEqual(chooseTable("uuid", undefined, mix(30, 10)), [frequent]);
    // 2 references save 30 bytes; 38 others would pay 38
    assert.deepEqual(chooseTable("uuid", undefined, mix(2, 38)), []);
    assert.deepEqual(chooseTable("uuid", frequent.toUpperCase(), undefined), [], "an entry decodes as it went in: lower case only");
    assert.deepEqual(chooseTable("uuid", "not a uuid", undefined), []);
    assert.deepEqual(chooseTable("uuid", frequent, undefined), [frequent]);
  });
});

describe("references", () => {
  const ir = irOf(ALL_KINDS);
  const samples = Array.from({ length: 40 }, (_, i) => sample(i));
  let dict: Dictionary;
  let gen: Codec;
  let interp: ReturnType<typeof interpret>;
  let plain: Codec;
  before(async () => {
    dict = fresh(ir, samples);
    gen = await compile(ir, dict);
    interp = interpret(ir, dict);
    const { defaults: _d, ...noTables } = dict;
    plain = await compile(ir, noTables);
  });

  test("values in the table and values not in it round-trip, byte-identical in the interpreter", () => {
    for (let i = 0; i < 60; i++) {
      const v = sample(i);
      const b = gen.encode(v);
      assert.equal(hex(interp.encode(v)), hex(b), `sample ${i}`);
      assert.deepEqual(gen.decode(b), decoded(v), `sample ${i}`);
      assert.deepEqual(interp.decode(b), decoded(v), `sample ${i}`);
      assert.ok(b.length <= plain.encode(v).length, `sample ${i}: tables never make it bigger here`);
    }
  });

  test("the header carries the DEFAULTS flag and the tables' fingerprint", () => {
    const b = gen.encode(sample(1));
    const flags = (b[5]! << 8) | b[6]!;
    assert.ok(flags & Flag.DEFAULTS);
    assert.equal((b[7]! << 8) | b[8]!, dict.defaults!.fingerprint);
    assert.equal(gen.fingerprint, dict.defaults!.fingerprint);
    assert.notEqual(dict.defaults!.fingerprint, dict.base.fingerprint);
    assert.equal(interp.fingerprint, gen.fingerprint);
  });

  test("edge values of every kind (not in the table) round-trip", () => {
    const edges: Record<string, unknown>[] = [
      { unit: "", count: 0, price: 0, big: 0 },
      { unit: "x".repeat(60), count: 2 ** 53 - 1, price: -1e300, big: 2n ** 63n - 1n, id64: "-9223372036854775808" },
      { unit: "y".repeat(300), count: -(2 ** 53) + 1, price: 0.1 + 0.2, big: -(2n ** 63n), id64: "18446744073709551614" },
      { unit: "é😀", count: 2 ** 60, price: -0, big: 2n ** 64n - 1n, at: "2025-01-15T10:30:00+01:00", day: "not a date" },
      { unit: "kelvin", count: -(2 ** 63), price: 5e-324, big: 2 ** 53, at: "9999-12-31T23:59:59.999Z", day: "0000-01-01" },
      { unit: "celsius", count: 55, price: 3749, tags: ["", "alpha", "alpha", "x".repeat(257)], labels: {}, either: "" },
      { unit: "celsius", count: 1, price: 1, uid: "00000000-0000-0000-0000-000000000000" },
      { unit: "celsius", count: 1, price: 1, uid: "ffffffff-ffff-ffff-ffff-ffffffffffff" },
    ];
    for (const v of edges) {
      const b = gen.encode(v);
      assert.equal(hex(interp.encode(v)), hex(b));
      const expect = decoded(v);
      if (Object.is(v.price, -0)) expect.price = -0;
      assert.deepStrictEqual(gen.decode(b), expect);
      assert.deepStrictEqual(interp.decode(b), expect);
    }
  });

  test("random values of the schema round-trip (generated = interpreted)", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const v = arbitrary(ir, seed) as Record<string, unknown>;
      const b = gen.encode(v);
      assert.equal(hex(interp.encode(v)), hex(b), `seed ${seed}`);
      assert.deepStrictEqual(gen.decode(b), v, `seed ${seed}`);
    }
  });

  test("invalid values fail as without a table", () => {
    const bad = [{ ...sample(1), uid: "0f8fad5b-d9cb-469f-a165-70867728950" }, { ...sample(1), uid: 7 }, { ...sample(1), unit: 5 }, { ...sample(1), count: 1.5 }, { ...sample(1), price: NaN }, { ...sample(1), unit: "\ud800" }, { ...sample(1), big: "x" }];
    for (const v of bad) {
      const a = (() => { try { gen.encode(v); return "ok"; } catch (e) { return (e as ToonError).code + " " + (e as ToonError).path + " " + (e as ToonError).message; } })();
      const b = (() => { try { plain.encode(v); return "ok"; } catch (e) { return (e as ToonError).code + " " + (e as ToonError).path + " " + (e as ToonError).message; } })();
      assert.equal(a, b);
      assert.match(a, /^INVALID_VALUE/);
    }
    // an integer beyond 64 bits is valid (docs/FORMAT.md §3.2): the tabled and the plain codec both carry it
    const wide = { ...sample(1), count: 2 ** 64 };
    assert.deepStrictEqual(gen.decode(gen.encode(wide)), wide);
    assert.deepStrictEqual(plain.decode(plain.encode(wide)), wide);
  });

  test("a decoder with another table, or none, fails with FINGERPRINT_MISMATCH (both ways)", async () => {
    const other = fresh(ir, Array.from({ length: 30 }, (_, i) => ({ ...sample(i), unit: "fahrenheit" })));
    assert.notEqual(other.defaults!.fingerprint, dict.defaults!.fingerprint);
    const otherCodec = await compile(ir, other);
    const b = gen.encode(sample(3));
    assert.equal(codeOf(() => otherCodec.decode(b)), "FINGERPRINT_MISMATCH");
    assert.equal(codeOf(() => gen.decode(otherCodec.encode(sample(3)))), "FINGERPRINT_MISMATCH");
    assert.equal(codeOf(() => plain.decode(b)), "FINGERPRINT_MISMATCH");
    assert.equal(codeOf(() => gen.decode(plain.encode(sample(3)))), "FINGERPRINT_MISMATCH");
  });

  test("header: the tables' fingerprint without DEFAULTS, or DEFAULTS on a codec without tables, is refused", () => {
    const body = gen.encode(sample(2)).subarray(9);
    const craft = (flags: number, fp: number): Uint8Array => {
      const w = new Writer(64);
      writeHeader(w, flags, fp);
      w.bytes(body);
      return w.finish();
    };
    assert.equal(codeOf(() => gen.decode(craft(Flag.FIXED_DICTIONARY, dict.defaults!.fingerprint))), "FINGERPRINT_MISMATCH");
    assert.equal(codeOf(() => plain.decode(craft(Flag.FIXED_DICTIONARY | Flag.DEFAULTS, dict.base.fingerprint))), "UNSUPPORTED_FLAGS");
    assert.equal(codeOf(() => interp.decode(craft(Flag.FIXED_DICTIONARY, dict.defaults!.fingerprint))), "FINGERPRINT_MISMATCH");
  });

  test("corrupt bytes: a value or a ToonError, the same on both sides", () => {
    const b = gen.encode(sample(5));
    for (let i = 9; i < b.length; i++) {
      for (const x of [0x00, 0x0f, 0x1f, 0x7f, 0xff, 0x03, 0x33]) {
        const c = b.slice();
        c[i] = x;
        const g = (() => { try { return { v: gen.decode(c) }; } catch (e) { assert.ok(e instanceof ToonError, String(e)); return { e: e.code + e.path + e.message }; } })();
        const n = (() => { try { return { v: interp.decode(c) }; } catch (e) { assert.ok(e instanceof ToonError, String(e)); return { e: e.code + e.path + e.message }; } })();
        assert.deepStrictEqual(n, g, `byte ${i} = ${x}`);
      }
    }
    for (let n = 0; n < b.length; n++) assert.notEqual(codeOf(() => gen.decode(b.subarray(0, n))), "ok");
  });
});

describe("runtime tag spaces", () => {
  const strings = rt.defaultTable(["a", "b"]);
  const numbers = rt.defaultTable([19.99, 7]);
  const roundTrip = <T>(write: (w: Writer) => boolean, read: (r: Reader) => T): { bytes: string; value: T } => {
    const w = new Writer(16);
    assert.ok(write(w));
    const bytes = w.finish();
    const r = new Reader(bytes);
    const value = read(r);
    r.done();
    return { bytes: hex(bytes), value };
  };

  test("each kind writes entry k in its reserved tag, other values as specified", () => {
    assert.deepEqual(roundTrip((w) => rt.writeTabledString(w, "b", strings), (r) => rt.readTabledString(r, strings)), { bytes: "01", value: "b" });
    assert.deepEqual(roundTrip((w) => rt.writeTabledString(w, "ab", strings), (r) => rt.readTabledString(r, strings)), { bytes: "066162", value: "ab" });
    assert.deepEqual(roundTrip((w) => rt.writeTabledString(w, "", strings), (r) => rt.readTabledString(r, strings)), { bytes: "02", value: "" });
    // a 62-byte literal: header 124 + 2 = 126 stays one byte; 63 bytes: 126 + 2 = 128 takes two
    assert.equal(roundTrip((w) => rt.writeTabledString(w, "z".repeat(63), strings), (r) => rt.readTabledString(r, strings)).bytes.slice(0, 4), "8001");
    assert.deepEqual(roundTrip((w) => rt.writeTabledDateTime(w, "b", strings), (r) => rt.readTabledDateTime(r, strings)), { bytes: "07", value: "b" });
    assert.deepEqual(roundTrip((w) => rt.writeTabledDate(w, "a", strings), (r) => rt.readTabledDate(r, strings)), { bytes: "02", value: "a" });
    assert.deepEqual(roundTrip((w) => rt.writeTabledDate(w, "1969-12-31", strings), (r) => rt.readTabledDate(r, strings)), { bytes: "03", value: "1969-12-31" });
    assert.deepEqual(roundTrip((w) => rt.writeTabledDecimalString(w, "b", strings), (r) => rt.readTabledDecimalString(r, strings)), { bytes: "03", value: "b" });
    assert.deepEqual(roundTrip((w) => rt.writeTabledDecimalString(w, "-1", strings), (r) => rt.readTabledDecimalString(r, strings)), { bytes: "0101", value: "-1" });
    assert.deepEqual(roundTrip((w) => rt.writeTabledNumber(w, 7, numbers), (r) => rt.readTabledNumber(r, numbers)), { bytes: "2f", value: 7 });
    assert.deepEqual(roundTrip((w) => rt.writeTabledNumber(w, 1, numbers), (r) => rt.readTabledNumber(r, numbers)), { bytes: "20", value: 1 });
    assert.deepEqual(roundTrip((w) => rt.writeTabledInt(w, 7, numbers), (r) => rt.readTabledInt(r, numbers)), { bytes: "01", value: 7 });
    assert.deepEqual(roundTrip((w) => rt.writeTabledInt(w, 0, numbers), (r) => rt.readTabledInt(r, numbers)), { bytes: "02", value: 0 });
    assert.deepEqual(roundTrip((w) => rt.writeTabledInt(w, -1, numbers), (r) => rt.readTabledInt(r, numbers)), { bytes: "03", value: -1 });
    assert.deepEqual(roundTrip((w) => rt.writeTabledInt64(w, 2n ** 64n - 1n, numbers), (r) => rt.readTabledInt64(r, numbers)), { bytes: "80808080808080808004", value: 2n ** 64n - 1n });
    // uuid: tag 1 + k for entry k; tag 0 and the 16 bytes for any other UUID (upper case decodes lower case)
    const uuids = rt.defaultTable(["0f8fad5b-d9cb-469f-a165-70867728950e"]);
    assert.deepEqual(roundTrip((w) => rt.writeTabledUuid(w, "0f8fad5b-d9cb-469f-a165-70867728950e", uuids), (r) => rt.readTabledUuid(r, uuids)), { bytes: "01", value: "0f8fad5b-d9cb-469f-a165-70867728950e" });
    assert.deepEqual(roundTrip((w) => rt.writeTabledUuid(w, "7C9E6679-7425-40DE-944B-E07FC1F90AE7", uuids), (r) => rt.readTabledUuid(r, uuids)), { bytes: "007c9e6679742540de944be07fc1f90ae7", value: "7c9e6679-7425-40de-944b-e07fc1f90ae7" });
    const w = new Writer(16);
    assert.equal(rt.writeTabledUuid(w, "not-a-uuid", uuids), false);
    assert.equal(w.pos, 0, "a refused value leaves nothing behind");
  });

  test("references beyond the table are INVALID_ENCODING", () => {
    const fail = (bytes: number[], read: (r: Reader) => unknown): string => codeOf(() => read(new Reader(new Uint8Array(bytes))));
    assert.equal(fail([0x0b], (r) => rt.readTabledDateTime(r, strings)), "INVALID_ENCODING"); // 4*2+3
    assert.equal(fail([0x06], (r) => rt.readTabledDate(r, strings)), "INVALID_ENCODING"); // 2*2+2
    assert.equal(fail([0x04], (r) => rt.readTabledDecimalString(r, strings)), "INVALID_ENCODING"); // 2+2
    assert.equal(fail([0x3f], (r) => rt.readTabledNumber(r, numbers)), "INVALID_ENCODING"); // 16*3+15
    assert.equal(fail([0x80], (r) => rt.readTabledInt(r, numbers)), "TRUNCATED");
    assert.equal(fail([0x03], (r) => rt.readTabledUuid(r, strings)), "INVALID_ENCODING"); // 1+2
    assert.equal(fail([0x00, 1, 2, 3], (r) => rt.readTabledUuid(r, strings)), "TRUNCATED");
    assert.equal(fail([], (r) => rt.readTabledUuid(r, strings)), "TRUNCATED");
    assert.equal(fail([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], (r) => rt.readTabledInt64(r, numbers)), "INVALID_ENCODING");
  });
});

describe("the dictionary file", () => {
  const ir = irOf(ALL_KINDS);
  const samples = Array.from({ length: 20 }, (_, i) => sample(i));

  test("tables survive the file; the fingerprint covers them; a hand edit is a breaking finding", () => {
    const dict = fresh(ir, samples);
    const back = parseDictionary(formatDictionary(dict), "x.json");
    assert.deepEqual(back, dict);
    assert.deepEqual(integrityFindings(back), []);
    const edited = structuredClone(back);
    edited.defaults!.tables[0]!.values.reverse();
    edited.defaults!.tables[0]!.values.push("sneaky");
    const f = integrityFindings(edited);
    assert.deepEqual(f.map((x) => x.rule), ["defaults-edited"]);
    assert.ok(f[0]!.breaking);
  });

  test("tables are frozen: new samples, new schema defaults and evolution keep them; --rebase re-profiles", () => {
    const dict = fresh(ir, samples);
    const otherProfile = profileSamples(ir, Array.from({ length: 20 }, (_, i) => ({ ...sample(i), unit: "other" }))) as Profile;
    const again = evolveDictionary(ir, dict, { profile: otherProfile }).dictionary;
    assert.deepEqual(again.defaults, dict.defaults);
    // a new property with a default (extension segment): the tables stay as they are
    const ir2 = irOf({ ...ALL_KINDS, properties: { ...ALL_KINDS.properties, extra: { type: "string", default: "zzz" } } });
    const evolved = evolveDictionary(ir2, dict, { profile: otherProfile });
    assert.equal(evolved.findings.filter((x) => x.breaking).length, 0);
    assert.deepEqual(evolved.dictionary.defaults, dict.defaults);
    const rebased = evolveDictionary(ir2, dict, { rebase: true, profile: otherProfile }).dictionary;
    assert.notDeepEqual(rebased.defaults, dict.defaults);
    assert.ok(rebased.defaults!.tables.some((t) => t.path === "extra" && t.values[0] === "zzz"));
  });

  test("an existing dictionary without tables gets them only from samples, never from schema defaults alone", () => {
    const plainIr = irOf({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    const noTables = evolveDictionary(plainIr, undefined).dictionary;
    assert.equal(noTables.defaults, undefined);
    const withDefault = irOf({ type: "object", properties: { a: { type: "string" }, b: { type: "string", default: "bee" } }, required: ["a"] });
    assert.equal(evolveDictionary(withDefault, noTables).dictionary.defaults, undefined, "existing codecs' bytes stay identical");
    const profiled = evolveDictionary(withDefault, noTables, { profile: profileSamples(withDefault, [{ a: "xyzxyz" }, { a: "xyzxyz", b: "bee" }])! }).dictionary;
    assert.deepEqual(
      profiled.defaults!.tables.map((t) => [t.path, t.values]),
      [
        ["a", ["xyzxyz"]],
        ["b", ["bee"]],
      ],
    );
    // a fresh dictionary: the schema's default alone makes a table
    assert.deepEqual(evolveDictionary(withDefault, undefined).dictionary.defaults!.tables.map((t) => t.values), [["bee"]]);
  });

  test("generate --samples (and config samples) in a project: tables written, summary reported, then frozen", async () => {
    const dir = path.join(DIR, "project");
    mkdirSync(path.join(dir, "schemas"), { recursive: true });
    mkdirSync(path.join(dir, "data"), { recursive: true });
    writeFileSync(path.join(dir, "schemas", "thing.schema.json"), JSON.stringify({ title: "Thing", ...ALL_KINDS }));
    writeFileSync(path.join(dir, "data", "a.jsonl"), samples.map((s) => JSON.stringify(s, (_k, v) => (typeof v === "bigint" ? Number(v) : v))).join("\n") + "\n");
    const config = { inputs: ["schemas/*.json"], outDir: "gen", dictionaryDir: "dictionaries" };
    const r = await generate(config, { cwd: dir, samples: ["data/*.jsonl"] });
    assert.deepEqual(r.profiled, [{ schema: "Thing", samples: 20, tables: JSON.parse(readFileSync(path.join(dir, "dictionaries", "thing.dictionary.json"), "utf8")).defaults.tables.length }]);
    const again = await generate({ ...config, samples: ["data/*.jsonl"] }, { cwd: dir, dryRun: true });
    assert.equal(again.written, 0, "regenerating changes nothing");
    assert.deepEqual(again.profiled, [], "frozen tables: samples are not profiled again");
  });
});

describe("examples", () => {
  const cases = [
    { name: "orders", schema: "examples/orders/schemas/order-list.schema.json", dict: "examples/orders/dictionaries/order-list.dictionary.json", data: "examples/orders/data/order-list.json", make: makeOrders },
    { name: "logs", schema: "examples/logs/schemas/log-report.schema.json", dict: "examples/logs/dictionaries/log-report.dictionary.json", data: "examples/logs/data/log-report.json", make: makeLogs },
  ];
  for (const c of cases) {
    test(`${c.name}: the committed tables shrink the message (in-sample and on freshly generated data)`, async () => {
      const ir = await loadSchemaFile(path.join(REPO, c.schema), { cwd: REPO });
      const dict = parseDictionary(readFileSync(path.join(REPO, c.dict), "utf8"), c.dict);
      assert.ok(hasTables(dict), `${c.dict} has default-value tables (examples/${c.name}/toon.config.json "samples")`);
      const { defaults: _d, ...noTables } = dict;
      const withT = interpret(ir, dict);
      const without = interpret(ir, noTables);
      const gen = (await import(pathToFileURL(path.join(REPO, `examples/${c.name}/gen/index.ts`)).href)) as Record<string, Codec>;
      const committed = gen[ir.name]!;
      const value = JSON.parse(readFileSync(path.join(REPO, c.data), "utf8"), (_k, v) => v);
      const sizes: Record<string, [number, number]> = {};
      for (const [label, v] of [["data", value], ["seed 1", c.make(1)], ["seed 2", c.make(2)]] as const) {
        const a = without.encode(v);
        const b = withT.encode(v);
        assert.equal(hex(committed.encode(v as never)), hex(b), "generated module = interpreter");
        assert.deepStrictEqual(committed.decode(b), withT.decode(b));
        assert.ok(b.length < a.length, `${c.name} ${label}: ${b.length} >= ${a.length}`);
        sizes[label] = [a.length, b.length];
      }
      const pct = (x: [number, number]) => `${x[0]} -> ${x[1]} bytes (${(((x[1] - x[0]) / x[0]) * 100).toFixed(1)}%)`;
      console.log(`# ${c.name}: ${Object.entries(sizes).map(([k, x]) => `${k}: ${pct(x)}`).join("; ")}`);
      assert.ok(sizes.data![1] < sizes.data![0] * 0.95, "at least 5% smaller on its own samples");
    });
  }

  test("the example tables were profiled from the example data (regenerating with samples is a no-op)", async () => {
    for (const ex of ["orders", "logs"]) {
      const dir = path.join(REPO, "examples", ex);
      const cfg = JSON.parse(readFileSync(path.join(dir, "toon.config.json"), "utf8"));
      assert.deepEqual(cfg.samples, ["data/*.json"]);
      // a copy of the project without its tables: profiling the data gives the committed tables back
      const copy = path.join(DIR, `copy-${ex}`);
      cpSync(dir, copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}gen`) });
      for (const f of ["order-list", "log-report"]) {
        const file = path.join(copy, "dictionaries", `${f}.dictionary.json`);
        try {
          const d = parseDictionary(readFileSync(file, "utf8"), file);
          const { defaults, ...rest } = d;
          writeFileSync(file, formatDictionary(rest));
          const r = await generate({ ...cfg, outDir: "gen" }, { cwd: copy, dryRun: true });
          const again = r.schemas[0]!.dictionary;
          assert.deepEqual(again.defaults, defaults);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
        }
      }
    }
  });
});
