// Per-path string interning (docs/FORMAT.md §3.1, generator/dictionary/intern.ts): the decision (samples, or the
// schema rule), its place in the dictionary (file round trip, canonical form and fingerprint, frozen once
// committed, absent = interned with today's bytes), generated and engine codecs writing the same bytes on
// `"intern": false` paths (default tables included), the wire rule on decode, and `toon-gen inspect`'s counts.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ToonError } from "../runtime/wire/errors.ts";
import { Reader } from "../runtime/wire/reader.ts";
import { Writer } from "../runtime/wire/writer.ts";
import * as rt from "../runtime/wire/defaults.ts";
import { canonicalForm, type DictionaryEntry } from "../generator/dictionary/build.ts";
import { formatDictionary, parseDictionary, type Dictionary } from "../generator/dictionary/file.ts";
import { evolveDictionary, integrityFindings } from "../generator/dictionary/evolve.ts";
import { fingerprintOf, initHash } from "../generator/dictionary/hash.ts";
import { applyWireLayout } from "../generator/dictionary/wire-layout.ts";
import { emitModule } from "../generator/emit/module.ts";
import { interpret } from "../generator/interpret/index.ts";
import { walkSchemaMessage } from "../generator/inspect/walk.ts";
import type { SchemaIR } from "../generator/ir/types.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { profileSamples } from "../generator/samples/profile.ts";
import { isOwnIdentifier, patternBounds } from "../generator/dictionary/intern.ts";
import { REPO, suiteDir } from "./support/gen.ts";

interface Codec {
  fingerprint: number;
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
}

let DIR = "";
before(async () => {
  await initHash();
  DIR = suiteDir("intern");
});

let counter = 0;
async function compile(ir: SchemaIR, dict: Dictionary): Promise<Codec> {
  const base = `m${counter++}`;
  const file = path.join(DIR, `${base}.ts`);
  writeFileSync(file, emitModule(applyWireLayout(ir, dict), dict, { fileName: `${base}.ts` }));
  const mod = (await import(pathToFileURL(file).href)) as Record<string, Codec>;
  return mod[ir.name]!;
}

function irOf(schema: unknown, name = "Thing"): SchemaIR {
  return schemaToIR({ title: name, ...(schema as object) }, { source: `${name}.schema.json`, baseDir: REPO });
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

function entry(d: Dictionary, p: string): DictionaryEntry {
  const e = [d.base, ...d.extensions].flatMap((s) => s.entries).find((x) => x.path === p);
  assert.ok(e, `no entry ${p}`);
  return e;
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

// once per message: title; under an array: tags[] (interned), people[].id (a unique name), people[].city
// (interned); a definition referenced twice (Addr: shared) and one referenced once (Meta: not)
const SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["title", "tags", "people", "home", "work", "meta"],
  properties: {
    title: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    people: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "city", "ref"],
        properties: { id: { type: "string" }, city: { type: "string" }, ref: { type: "string", format: "uuid" }, at: { type: "string", format: "date-time" } },
      },
    },
    home: { $ref: "#/$defs/Addr" },
    work: { $ref: "#/$defs/Addr" },
    meta: { $ref: "#/$defs/Meta" },
  },
  $defs: {
    Addr: { type: "object", additionalProperties: false, required: ["street"], properties: { street: { type: "string" } } },
    Meta: { type: "object", additionalProperties: false, required: ["note"], properties: { note: { type: "string" } } },
  },
};

const VALUE = {
  title: "red",
  tags: ["red", "red", "blue"],
  people: [
    { id: "p1", city: "Oslo", ref: "6f1c0d0e-0000-4000-8000-000000000001" },
    { id: "p2", city: "Oslo", ref: "6f1c0d0e-0000-4000-8000-000000000002", at: "2025-01-15T10:30:00Z" },
  ],
  home: { street: "Main" },
  work: { street: "Main" },
  meta: { note: "red" },
};

describe("the decision", () => {
  test("without samples: once per message, unique names and formats do not intern; repeatable paths do", () => {
    const d = evolveDictionary(irOf(SCHEMA), undefined).dictionary;
    const plain = (p: string) => entry(d, p).intern === false;
    assert.equal(plain("title"), true, "once per message");
    assert.equal(plain("tags[]"), false, "under an array");
    assert.equal(plain("people[].id"), true, "a unique name");
    assert.equal(entry(d, "people[].ref").intern, undefined, "uuid strings travel as 16 bytes, not as plain strings");
    assert.equal(plain("people[].city"), false);
    assert.equal(entry(d, "people[].at").intern, undefined, "date-time strings are not plain strings");
    assert.equal(plain("#Addr.street"), false, "a definition referenced twice");
    assert.equal(plain("#Meta.note"), true, "a definition referenced once");
    for (const p of ["$", "tags", "people", "people[]", "home"]) assert.equal(entry(d, p).intern, undefined, `${p}: only strings carry it`);
  });

  test("without samples, what the schema says of a repeatable path: identifiers, free text and short codes do not intern", () => {
    const str = (extra: object = {}) => ({ type: "string", ...extra });
    const ir = irOf({
      type: "object",
      properties: { orders: { type: "array", items: { $ref: "#/$defs/Order" } } },
      $defs: {
        Order: {
          type: "object",
          properties: {
            orderNumber: str({ pattern: "^[0-9]{8}$" }),
            trackingNumber: str({ maxLength: 40 }),
            note: str({ maxLength: 200 }),
            tags: { type: "array", items: str({ maxLength: 32 }) },
            currency: str({ pattern: "^[A-Z]{3}$" }),
            last4: str({ pattern: "^[0-9]{4}$" }),
            code: str({ maxLength: 4 }),
            traceId: str({ pattern: "^[0-9a-f]{32}$" }),
            reportRef: str({ pattern: "^rpt_[0-9a-z]{12}$" }),
            phone: str({ pattern: "^\\+[1-9][0-9]{6,14}$" }),
            email: str({ format: "email" }),
            productId: str(),
            city: str({ maxLength: 60 }),
            postcode: str({ maxLength: 12 }),
            lines: { type: "array", items: { type: "object", properties: { lineNo: str(), title: str() } } },
          },
        },
      },
    });
    const d = evolveDictionary(ir, undefined).dictionary;
    const interns = (p: string) => entry(d, `#Order.${p}`).intern !== false;
    // identifiers: the object's own (orderNumber in Order, lineNo in lines[]), an event's number, fixed-width tokens
    for (const p of ["orderNumber", "trackingNumber", "lines[].lineNo", "traceId", "reportRef"]) assert.equal(interns(p), false, p);
    assert.equal(interns("note"), false, "free text a person writes");
    for (const p of ["currency", "last4", "code"]) assert.equal(interns(p), false, `${p}: at most ${4} characters`);
    // what a list repeats: names, tags, e-mails and phones (with their customer), another object's id, codes of 5+ characters
    for (const p of ["tags[]", "phone", "email", "productId", "city", "postcode", "lines[].title"]) assert.equal(interns(p), true, p);
  });

  test("patternBounds: the longest value and the longest fixed run of one class, for anchored simple patterns only", () => {
    assert.deepEqual(patternBounds("^[A-Z]{2}$"), { max: 2, run: 2 });
    assert.deepEqual(patternBounds("^\\+[1-9][0-9]{6,14}$"), { max: 16, run: 1 });
    assert.deepEqual(patternBounds("^ORD-[0-9]{4}-[0-9]{6}$"), { max: 15, run: 6 });
    assert.deepEqual(patternBounds("^[\\]a]{3}\\d?$"), { max: 4, run: 3 });
    assert.deepEqual(patternBounds("^.{2}x$"), { max: 3, run: 2 });
    for (const p of ["[A-Z]{2}", "^[A-Z]{2}", "^[A-Z0-9-]+$", "^(a|b)$", "^a*$", "^\\p{L}{2}$", "^[a-z]{2,}$", "^a\\$"]) assert.equal(patternBounds(p), undefined, p);
  });

  test("isOwnIdentifier: a name that is its owner's name and an id suffix", () => {
    assert.equal(isOwnIdentifier("orderNumber", "Order"), true);
    assert.equal(isOwnIdentifier("order_id", "orders"), true);
    assert.equal(isOwnIdentifier("entryKey", "entries"), true);
    assert.equal(isOwnIdentifier("addressId", "addresses"), true);
    assert.equal(isOwnIdentifier("productId", "OrderLine"), false);
    assert.equal(isOwnIdentifier("customerId", "Order"), false);
    assert.equal(isOwnIdentifier("id", "Order"), false, "the bare names are UNIQUE_NAME's");
    assert.equal(isOwnIdentifier("orderNumber", undefined), false);
  });

  test("with samples: the within-message repeat share decides, default-table values left out", () => {
    const ir = irOf({ type: "array", items: { type: "object", required: ["a", "b", "c"], additionalProperties: false, properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } } } });
    // a: every value unique; b: each value twice per message; c: one value everywhere (a default table takes it)
    const sample = (n: number) => Array.from({ length: 8 }, (_, i) => ({ a: `a${n}-${i}`, b: `b${n}-${i >> 1}`, c: "same" }));
    const d = evolveDictionary(ir, undefined, { profile: profileSamples(ir, [sample(0), sample(1), sample(2)])! }).dictionary;
    assert.equal(entry(d, "$[].a").intern, false, "no repeats");
    assert.equal(entry(d, "$[].b").intern, undefined, "half of the occurrences repeat");
    assert.deepEqual(d.defaults?.tables.find((t) => t.path === "$[].c")?.values, ["same"]);
    assert.equal(entry(d, "$[].c").intern, undefined, "every sampled value is a table entry: the schema rule decides");
    // samples that never reach a path: the schema rule
    const ir2 = irOf({ type: "object", properties: { x: { type: "string" }, y: { type: "array", items: { type: "string" } } } });
    const d2 = evolveDictionary(ir2, undefined, { profile: profileSamples(ir2, [{}])! }).dictionary;
    assert.equal(entry(d2, "x").intern, false);
    assert.equal(entry(d2, "y[]").intern, undefined);
  });
});

describe("the dictionary", () => {
  test("round trip through the file; part of the canonical form and the fingerprint; hand edits are refused", () => {
    const ir = irOf(SCHEMA);
    const d = evolveDictionary(ir, undefined).dictionary;
    const text = formatDictionary(d);
    assert.match(text, /"path":"title","type":"string","required":true,"intern":false\}/);
    const back = parseDictionary(text, "x.json");
    assert.deepEqual(back, d);
    assert.deepEqual(integrityFindings(back), []);
    // the attribute is the 11th element of the line, only when present
    const lines = canonicalForm(d.base.entries).split("\n");
    assert.equal(lines.find((l) => l.includes('"title"')), '[1,"title","string",true,null,null,null,null,null,null,false]');
    assert.equal(lines.find((l) => l.includes('"tags[]"')), '[3,"tags[]","string",null,null,null,null,null,null,null]');
    // without the attribute: another fingerprint, and the file (claiming the old one) is a hand edit
    const stripped = text.replace(/,"intern":false/g, "");
    assert.ok(integrityFindings(parseDictionary(stripped, "x.json")).some((f) => f.rule === "base-edited"));
    const none: DictionaryEntry[] = d.base.entries.map(({ intern: _i, ...e }) => e);
    assert.notEqual(canonicalForm(none), canonicalForm(d.base.entries));
  });

  test("frozen once committed: a dictionary without the attribute keeps it absent, its fingerprint and its bytes", async () => {
    const ir = irOf(SCHEMA);
    const decided = evolveDictionary(ir, undefined).dictionary;
    // a dictionary as generators before the attribute wrote it: the same entries without it, sealed
    const entries = decided.base.entries.map(({ intern: _i, ...e }) => e);
    const fp = fingerprintOf(canonicalForm(entries));
    const committed = parseDictionary(formatDictionary({ ...decided, base: { level: 0, fingerprint: fp.fingerprint, hash64: fp.hash64, entries } }), "x.json");
    assert.deepEqual(integrityFindings(committed), []);
    assert.notEqual(fp.fingerprint, decided.base.fingerprint);
    const evolved = evolveDictionary(ir, committed);
    assert.deepEqual(evolved.findings, []);
    assert.deepEqual(evolved.dictionary.base, committed.base, "the base stays as committed");
    // its codec interns everywhere, as before: title's literal is referenced by tags[0] and meta.note
    const gen = await compile(ir, evolved.dictionary);
    const interp = interpret(ir, evolved.dictionary);
    const b = gen.encode(VALUE);
    assert.equal(hex(interp.encode(VALUE)), hex(b));
    assert.equal(gen.fingerprint, fp.fingerprint);
    assert.ok(hex(b).includes("06726564" + "03" + "01" + "01" + "08626c7565"), hex(b));
    assert.deepEqual(gen.decode(b), VALUE);
    // a new path added later decides for itself, in the extension segment; the old ones stay absent
    const ir2 = irOf({ ...SCHEMA, properties: { ...SCHEMA.properties, subtitle: { type: "string" } } });
    const next = evolveDictionary(ir2, committed).dictionary;
    assert.equal(next.extensions.length, 1);
    assert.equal(entry(next, "subtitle").intern, false);
    assert.equal(entry(next, "title").intern, undefined);
    // --rebase decides again
    assert.equal(entry(evolveDictionary(ir, committed, { rebase: true }).dictionary, "title").intern, false);
  });
});

describe("the wire", () => {
  let ir: SchemaIR;
  let dict: Dictionary;
  let gen: Codec;
  let interp: ReturnType<typeof interpret>;
  before(async () => {
    ir = irOf(SCHEMA);
    dict = evolveDictionary(ir, undefined).dictionary;
    gen = await compile(ir, dict);
    interp = interpret(ir, dict);
  });

  test("generated and engine codecs write the same bytes; plain literals never enter the table", () => {
    const b = gen.encode(VALUE);
    assert.equal(hex(interp.encode(VALUE)), hex(b));
    assert.deepEqual(gen.decode(b), VALUE);
    assert.deepEqual(interp.decode(b), VALUE);
    const body = hex(b);
    // title "red" (plain) is a literal; tags[0] "red" is a literal again (entry 0), tags[1] a reference to it (01)
    assert.ok(body.includes("06726564" + "03" + "06726564" + "01" + "08626c7565"), body);
    // meta.note "red" (plain): a literal again, although "red" is in the table
    assert.ok(body.endsWith("06726564"), body);
  });

  test("an odd header at a plain path is INVALID_ENCODING on both sides", () => {
    const b = gen.encode(VALUE);
    const i = hex(b).lastIndexOf("06726564") / 2;
    const bad = new Uint8Array(b);
    bad[i] = 0x01; // a reference to entry 0 ("red") where meta.note does not intern
    const cut = bad.subarray(0, i + 1);
    assert.equal(codeOf(() => gen.decode(cut)), "INVALID_ENCODING");
    assert.equal(codeOf(() => interp.decode(cut)), "INVALID_ENCODING");
  });

  test("default tables on a plain path: references, shifted literals, the same bytes in the engine", async () => {
    const tir = irOf({ type: "object", required: ["s"], additionalProperties: false, properties: { s: { type: "string" } } });
    const samples = Array.from({ length: 20 }, (_, i) => ({ s: i % 2 === 0 ? "frequent" : `rare${i}` }));
    const tdict = evolveDictionary(tir, undefined, { profile: profileSamples(tir, samples)! }).dictionary;
    assert.equal(entry(tdict, "s").intern, false);
    assert.deepEqual(tdict.defaults?.tables.map((t) => t.values), [["frequent"]]);
    const tgen = await compile(tir, tdict);
    const tint = interpret(tir, tdict);
    for (const v of [{ s: "frequent" }, { s: "other" }, { s: "" }]) {
      const b = tgen.encode(v);
      assert.equal(hex(tint.encode(v)), hex(b));
      assert.deepEqual(tgen.decode(b), v);
      assert.deepEqual(tint.decode(b), v);
    }
    // the runtime pair: entry 0 as 00, a literal with its header 2n shifted by K = 1, an odd unshifted header refused
    const t = rt.defaultTable(["frequent"]);
    const w = new Writer();
    rt.writeTabledPlainString(w, "frequent", t);
    rt.writeTabledPlainString(w, "ab", t);
    rt.writeTabledPlainString(w, "ab", t);
    assert.equal(hex(w.buf.subarray(0, w.pos)), "00" + "056162" + "056162");
    const r = new Reader(w.buf.subarray(0, w.pos));
    assert.deepEqual([rt.readTabledPlainString(r, t), rt.readTabledPlainString(r, t), rt.readTabledPlainString(r, t)], ["frequent", "ab", "ab"]);
    assert.equal(codeOf(() => rt.readTabledPlainString(new Reader(Uint8Array.of(2)), t)), "INVALID_ENCODING");
  });

  test("Writer.plainString / Reader.plainString: literals only, no table", () => {
    const w = new Writer();
    w.plainString("ab");
    w.string("ab");
    w.plainString("ab");
    w.string("ab");
    w.plainString("");
    assert.equal(hex(w.buf.subarray(0, w.pos)), "046162" + "046162" + "046162" + "01" + "00");
    assert.equal(w.tableSize, 1);
    const r = new Reader(w.buf.subarray(0, w.pos));
    assert.deepEqual([r.plainString(), r.string(), r.plainString(), r.string(), r.plainString()], ["ab", "ab", "ab", "ab", ""]);
    assert.equal(codeOf(() => new Reader(Uint8Array.of(0x01)).plainString()), "INVALID_ENCODING");
    assert.equal(codeOf(() => new Reader(Uint8Array.of(0x06, 0x61)).plainString()), "TRUNCATED");
    assert.equal(codeOf(() => new Reader(Uint8Array.of(0x02, 0xff)).plainString()), "INVALID_UTF8");
    assert.equal(new Writer().plainString("a\ud800"), false);
  });
});

describe("the writer's table across messages", () => {
  // a writer keeps past messages' strings in its map (runtime/wire/writer.ts): a message must read as if the writer
  // were new, its references numbered from 0 and never pointing into an earlier message
  const write = (w: Writer, xs: readonly string[]): string => {
    w.reset();
    for (const x of xs) w.string(x);
    return hex(w.buf.subarray(0, w.pos));
  };
  const fresh = (xs: readonly string[]): string => write(new Writer(), xs);

  test("each message's bytes are a fresh writer's, whatever the messages before it held", () => {
    const w = new Writer();
    const messages = [
      ["EUR", "Oslo", "EUR", "Bergen"],
      ["Bergen", "EUR", "Bergen"], // both strings were the previous message's: literals first, then references from 0
      ["x", "EUR", "x", "Oslo", "Oslo"],
      [],
      ["Oslo"],
    ];
    for (const m of messages) {
      assert.equal(write(w, m), fresh(m), JSON.stringify(m));
      assert.equal(w.tableSize, new Set(m).size);
    }
    assert.equal(write(w, ["Bergen", "EUR", "Bergen"]), "0c42657267656e" + "06455552" + "01");
  });

  test("a field index's floor still applies to an entry a past message also held", () => {
    const w = new Writer();
    write(w, ["abc", "abc"]);
    w.reset();
    w.string("abc");
    w.floor = w.tableSize;
    w.string("abc"); // below the floor: a literal again, numbered 1
    w.string("abc"); // a reference to entry 1
    assert.equal(hex(w.buf.subarray(0, w.pos)), "06616263" + "06616263" + "03");
  });

  test("what it keeps is bounded: many distinct strings, then a message that reads as a fresh writer's", () => {
    const w = new Writer();
    const many = Array.from({ length: 5000 }, (_, i) => `s${i}`);
    write(w, many);
    write(w, many.slice(0, 10));
    const again = ["s1", "s2", "s1"];
    assert.equal(write(w, again), fresh(again));
    assert.ok((w as unknown as { strings: Map<string, number> }).strings.size <= 4096 + again.length);
  });
});

describe("inspect", () => {
  test("byte counts per path follow the plain-string wire and add up to the message", async () => {
    const ir = irOf(SCHEMA);
    const dict = evolveDictionary(ir, undefined).dictionary;
    const codec = interpret(ir, dict);
    // title differs from tags[0]: a walker that entered title in the table would resolve tags[1] to it
    const value = { ...VALUE, title: "grn" };
    const b = codec.encode(value);
    const w = walkSchemaMessage(b, ir, dict);
    assert.equal(w.error, undefined, w.error?.message);
    assert.ok(w.complete);
    assert.deepEqual(w.value, value);
    const row = (p: string) => w.rows.find((x) => x.path === p)!;
    assert.equal(row("title").toonBytes, 4, "title: a 3-byte literal");
    assert.equal(row("tags[]").toonBytes, 4 + 1 + 5, "tags[]: red (literal), red (reference), blue");
    assert.equal(row("#Meta.note").toonBytes, 4, "meta.note: a literal, not a reference");
    assert.equal(row("people[].id").toonBytes, 6);
    assert.equal(w.rows.reduce((n, x) => n + x.toonBytes, 0), b.length);
  });
});
