// O(1) field access (docs/FORMAT.md §10.2): with the config `index`, every message carries a field offset
// table and `Codec.peek.<path>(bytes)` reads one value by jumping to it. For every example codec (and random
// values), every accessor equals the field of the full decode; decoders without the index read indexed messages
// unchanged; corrupt and truncated input fails with a ToonError; another fingerprint with FINGERPRINT_MISMATCH;
// and peek reads nothing but its value: garbage in the other fields does not disturb it.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { ToonError } from "../runtime/wire/errors.ts";
import { setCompressor } from "../runtime/compression.ts";
import { pickPath } from "../runtime/features/field-peek.ts";
import { Flag } from "../runtime/wire/wire.ts";
import { parseDictionary, type Dictionary } from "../generator/dictionary/file.ts";
import { evolveDictionary } from "../generator/dictionary/evolve.ts";
import { fingerprintOf, initHash } from "../generator/dictionary/hash.ts";
import { canonicalForm } from "../generator/dictionary/build.ts";
import { applyWireLayout } from "../generator/dictionary/wire-layout.ts";
import { emitModule } from "../generator/emit/module.ts";
import { indexCandidates } from "../generator/emit/peek.ts";
import type { SchemaIR } from "../generator/ir/types.ts";
import { loadSchemaFile, schemaToIR } from "../generator/load/index.ts";
import { generate } from "../generator/pipeline.ts";
import { profileSamples } from "../generator/samples/profile.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { exampleProjects, REPO, suiteDir, typecheck } from "./support/gen.ts";

interface Codec {
  name: string;
  fingerprint: number;
  encode(value: unknown, options?: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
  peek: Record<string, (bytes: Uint8Array, options?: { maxZeroWidthItems?: number }) => unknown>;
}

let DIR = "";
before(async () => {
  await initHash();
  DIR = suiteDir("peek");
});

let counter = 0;
async function compile(ir: SchemaIR, dict: Dictionary, index: true | string[], base = `m${counter++}`): Promise<Codec> {
  const file = path.join(DIR, `${base}.ts`);
  writeFileSync(file, emitModule(applyWireLayout(ir, dict), dict, { fileName: `${base}.ts`, index }));
  const mod = (await import(pathToFileURL(file).href)) as Record<string, Codec>;
  return mod[ir.name]!;
}

/**
 * `d` as generators before per-path interning wrote it (every string path interns, docs/FORMAT.md §3.1): the
 * hostile-input cases are about string-table bases, which fields that occur once would otherwise not have.
 */
function interningAll(d: Dictionary): Dictionary {
  const entries = d.base.entries.map(({ intern: _i, ...e }) => e);
  const fp = fingerprintOf(canonicalForm(entries));
  return { ...d, base: { ...d.base, entries, fingerprint: fp.fingerprint, hash64: fp.hash64 } };
}

function irOf(schema: unknown, name = "Thing"): SchemaIR {
  return schemaToIR({ title: name, ...(schema as object) }, { source: `${name}.schema.json`, baseDir: REPO });
}

function outcome(f: () => unknown): { ok: true; v: unknown } | { ok: false; code: string } {
  try {
    return { ok: true, v: f() };
  } catch (e) {
    if (!(e instanceof ToonError)) throw new Error(`not a ToonError: ${(e as Error)?.stack ?? e}`);
    return { ok: false, code: e.code };
  }
}

/** Every accessor of `codec` against the full decode of `bytes`. */
function checkPeeks(codec: Codec, ir: SchemaIR, bytes: Uint8Array, label: string): number {
  const full = codec.decode(bytes);
  const keysOf = new Map([...indexCandidates(ir)].map(([p, c]) => [p, c.keys]));
  let n = 0;
  for (const [p, peek] of Object.entries(codec.peek)) {
    const keys = keysOf.get(p);
    assert.ok(keys, `${label}: ${p} is not an indexable path`);
    assert.deepStrictEqual(peek(bytes), pickPath(full, keys), `${label}: peek.${p}`);
    n++;
  }
  return n;
}

describe("every example codec", () => {
  for (const p of exampleProjects()) {
    test(`examples/${p.name}: index true; every accessor = the decoded field (example data and random values)`, async () => {
      const dir = path.join(DIR, `ex-${p.name}`);
      mkdirSync(dir, { recursive: true });
      cpSync(path.join(p.dir, p.config.dictionaryDir), path.join(dir, "dictionaries"), { recursive: true });
      const r = await generate({ ...p.config, outDir: path.join(dir, "gen"), dictionaryDir: path.join(dir, "dictionaries"), index: true }, { cwd: p.dir });
      let accessors = 0;
      let codecs = 0;
      for (const s of r.schemas) {
        const mod = (await import(pathToFileURL(s.modulePath).href)) as Record<string, Codec>;
        const codec = mod[s.ir.name];
        if (codec === undefined || codec.peek === undefined) {
          assert.ok(s.ir.root.kind !== "object" || indexCandidates(s.ir).size === 0, `${s.ir.name} has no peek`);
          continue;
        }
        codecs++;
        const committed = ((await import(pathToFileURL(path.join(p.dir, p.config.outDir, path.relative(path.join(dir, "gen"), s.modulePath))).href)) as Record<string, Codec>)[s.ir.name]!;
        assert.equal(codec.fingerprint, committed.fingerprint, "the index does not change the fingerprint");
        const values: unknown[] = [];
        const data = path.join(p.dir, "data", path.basename(s.input).replace(/(\.schema)?\.json$/, ".json"));
        if (existsSync(data)) values.push(JSON.parse(readFileSync(data, "utf8")));
        const ir = applyWireLayout(s.ir, s.dictionary);
        for (let seed = 1; seed <= 40; seed++) values.push(arbitrary(s.ir, seed));
        for (const [i, v] of values.entries()) {
          const bytes = codec.encode(v);
          assert.ok(((bytes[5]! << 8) | bytes[6]!) & Flag.FIELD_INDEX);
          accessors += checkPeeks(codec, ir, bytes, `${s.ir.name} value ${i}`);
          // the body is the ordinary body: a decoder without the index reads the indexed message, and the other
          // way round (peek falls back to a full decode on a message without its index)
          assert.deepStrictEqual(committed.decode(bytes), codec.decode(bytes));
          const plainBytes = committed.encode(v as never);
          assert.deepStrictEqual(codec.decode(plainBytes), committed.decode(plainBytes));
          checkPeeks(codec, ir, plainBytes, `${s.ir.name} value ${i} without index`);
        }
      }
      assert.ok(codecs > 0 && accessors > 0);
    });
  }
});

describe("nested paths, strings, tables, extensions", () => {
  const schema = {
    type: "object",
    properties: {
      kind: { type: "string" },
      status: { enum: ["new", "open", "closed"] },
      title: { type: "string" },
      owner: { type: "object", properties: { name: { type: "string" }, team: { type: "string" }, meta: { type: "object", properties: { tag: { type: "string" } } } }, required: ["name"], additionalProperties: false },
      tags: { type: "array", items: { type: "string" } },
      score: { type: "number", default: 0.5 },
      when: { type: "string", format: "date-time" },
      note: { type: "string" },
    },
    required: ["kind", "status", "title", "tags"],
    additionalProperties: false,
  };
  const value = (s: string, i: number) => ({
    kind: s,
    status: ["new", "open", "closed"][i % 3],
    title: s,
    owner: i % 4 === 3 ? undefined : { name: s, team: i % 2 ? s : "core", ...(i % 3 ? { meta: { tag: s } } : {}) },
    tags: [s, "core", s],
    score: i % 2 ? 0.5 : i / 8,
    when: "2025-01-15T10:30:00Z",
    ...(i % 5 === 0 ? { note: s } : {}),
  });
  const clean = (v: Record<string, unknown>) => JSON.parse(JSON.stringify(v));
  const index = ["title", "owner.team", "owner.meta.tag", "tags", "owner", "note", "score", "owner.meta"];

  test("a value that repeats strings of earlier fields: each indexed value reads alone (the string-table base)", async () => {
    const ir = irOf(schema);
    const dict = evolveDictionary(ir, undefined, { profile: profileSamples(ir, Array.from({ length: 10 }, (_, i) => clean(value("same", i))))! }).dictionary;
    assert.ok(dict.defaults !== undefined, "DEFAULTS and FIELD_INDEX together");
    const codec = await compile(ir, dict, index);
    const { defaults: _d, ...noTables } = dict;
    const plain = await compile(ir, noTables, index);
    for (let i = 0; i < 12; i++) {
      for (const s of ["same", "другое", "x".repeat(300), ""]) {
        const v = clean(value(s, i));
        for (const c of [codec, plain]) {
          const b = c.encode(v);
          assert.deepStrictEqual(c.decode(b), v);
          assert.equal(checkPeeks(c, ir, b, `${s} ${i}`), index.length);
        }
      }
    }
    // absent values: undefined
    const v = clean(value("a", 3));
    assert.equal(codec.peek["owner.team"]!(codec.encode(v)), undefined);
    assert.equal(codec.peek.note!(codec.encode(v)), undefined);
  });

  test("the per-call decode limits apply to a peeked value (docs/FORMAT.md §6.10)", async () => {
    const ir = irOf({ type: "object", properties: { id: { type: "integer" }, blanks: { type: "array", items: { type: "null" } } }, required: ["id", "blanks"], additionalProperties: false });
    const codec = await compile(ir, evolveDictionary(ir, undefined).dictionary, ["blanks", "id"]);
    const bytes = codec.encode({ id: 7, blanks: new Array(100).fill(null) });
    assert.equal((codec.peek.blanks!(bytes) as unknown[]).length, 100);
    assert.throws(() => codec.peek.blanks!(bytes, { maxZeroWidthItems: 10 }), (e: unknown) => e instanceof ToonError && e.path === "/blanks");
    assert.equal(codec.peek.id!(bytes, { maxZeroWidthItems: 10 }), 7);
  });

  test("accessors are typed (tsc --strict over a module and a file using it)", async () => {
    const ir = irOf(schema);
    await compile(ir, evolveDictionary(ir, undefined).dictionary, index, "typed");
    writeFileSync(
      path.join(DIR, "typed-use.ts"),
      `import { Thing } from "./typed.ts";
declare const b: Uint8Array;
export const title: string = Thing.peek.title(b);
export const team: string | undefined = Thing.peek["owner.team"](b);
export const tags: string[] = Thing.peek.tags(b);
export const score: number | undefined = Thing.peek.score(b);
export const meta: { tag?: string; [key: string]: unknown } | undefined = Thing.peek["owner.meta"](b);
// @ts-expect-error: an optional path may be absent
export const bad: string = Thing.peek["owner.team"](b);
// @ts-expect-error: only indexed paths have accessors
Thing.peek.kind(b);
`,
    );
    const r = typecheck(DIR, [path.join(DIR, "typed.ts"), path.join(DIR, "typed-use.ts")]);
    assert.ok(r.ok, r.output);
  });

  test("index paths that are not property chains through inline objects are refused", async () => {
    const ir = irOf(schema);
    const dict = evolveDictionary(ir, undefined).dictionary;
    for (const bad of ["tags[]", "nope", "owner.nope", "$"]) {
      assert.throws(() => emitModule(ir, dict, { fileName: "x.ts", index: [bad] }), (e: unknown) => e instanceof ToonError && e.code === "CONFIG_ERROR");
    }
    assert.throws(() => emitModule(ir, dict, { fileName: "x.ts", index: ["title", "title"] }), /twice/);
  });

  test("an evolved codec (extension level, retired slot): peek and full decoders agree; an older decoder reads indexed messages", async () => {
    const evoDir = path.join(REPO, "test", "evolution");
    const ir = await loadSchemaFile(path.join(evoDir, "schemas", "v2.schema.json"), { cwd: REPO });
    const dict = parseDictionary(readFileSync(path.join(evoDir, "dictionaries", "v2.dictionary.json"), "utf8"), "v2");
    const codec = await compile(ir, dict, true);
    const v2 = ((await import(pathToFileURL(path.join(evoDir, "gen", "v2.ts")).href)) as Record<string, Codec>)[ir.name]!;
    const v1 = ((await import(pathToFileURL(path.join(evoDir, "gen", "v1.ts")).href)) as Record<string, Codec>)[ir.name]!;
    const laid = applyWireLayout(ir, dict);
    for (let seed = 1; seed <= 60; seed++) {
      const v = arbitrary(ir, seed);
      const b = codec.encode(v);
      assert.ok(((b[5]! << 8) | b[6]!) & Flag.EXTENSIONS);
      checkPeeks(codec, laid, b, `seed ${seed}`);
      assert.deepStrictEqual(v2.decode(b), codec.decode(b));
      // (offsets in errors differ by the table's size: compare what failed and where)
      const older = (bytes: Uint8Array) => {
        const o = outcome(() => v1.decode(bytes));
        return o.ok ? o : { ok: false, code: o.code };
      };
      assert.deepStrictEqual(older(b), older(v2.encode(v as never)));
    }
  });

  test("a compressed message: peek inflates, then jumps", async () => {
    const ir = irOf(schema);
    const codec = await compile(ir, evolveDictionary(ir, undefined).dictionary, index);
    // a stand-in compressor (raw deflate under the zstd name): the framing is what matters here
    setCompressor({ name: "zstd", compress: (b) => deflateRawSync(b), decompress: (b) => inflateRawSync(b) });
    try {
      const v = clean({ ...value("compress me ".repeat(40), 1), tags: Array.from({ length: 50 }, (_, i) => `tag ${i % 7}`) });
      const b = codec.encode(v, { compress: true, threshold: 0 });
      assert.ok(((b[5]! << 8) | b[6]!) & Flag.COMPRESSED);
      checkPeeks(codec, ir, b, "compressed");
    } finally {
      setCompressor(undefined);
    }
  });
});

describe("hostile input", () => {
  const wide = {
    type: "object",
    properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, i % 3 === 0 ? { type: "string" } : i % 3 === 1 ? { type: "integer" } : { type: "number" }])),
    required: Array.from({ length: 30 }, (_, i) => `f${i}`),
    additionalProperties: false,
  };
  const v = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, i % 3 === 0 ? `value ${i % 4}` : i % 3 === 1 ? i * 1000 : i / 3]));
  let codec: Codec;
  let ir: SchemaIR;
  before(async () => {
    ir = irOf(wide, "Wide");
    codec = await compile(ir, interningAll(evolveDictionary(ir, undefined).dictionary), ["f0", "f13", "f29"]);
  });

  test("peek does not read other fields: garbage in a non-indexed field leaves it working (the full decode fails)", () => {
    const b = codec.encode(v);
    // f3 = "value 3": find its literal and turn its header into a huge length
    const at = Buffer.from(b).indexOf(Buffer.from([0x0e, ...Buffer.from("value 3")]));
    assert.ok(at > 0);
    const c = b.slice();
    c[at] = 0xfe; // a literal of 127 bytes: runs past the end
    assert.equal(outcome(() => codec.decode(c)).ok, false);
    assert.equal(codec.peek.f0!(c), "value 0");
    assert.equal(codec.peek.f13!(c), 13000);
    assert.equal(codec.peek.f29!(c), 29 / 3);
    // and garbage everywhere between the indexed values
    const d = b.slice();
    const keep = new Set<number>();
    // positions of the three values: re-encode with each changed, and keep the bytes that differ
    for (const [f, x] of [["f0", "value 9"], ["f13", 7], ["f29", 1.25]] as const) {
      const e = codec.encode({ ...v, [f]: x });
      for (let i = 0; i < Math.min(e.length, b.length); i++) if (e[i] !== b[i]) keep.add(i);
    }
    const ixEnd = 9 + 2 + 1 + 1 + 3 * 2; // header, tag, count, widths, 3 entries of (offset 1 byte, base 1 byte)
    for (let i = ixEnd; i < d.length; i++) if (!keep.has(i) && !keep.has(i - 1) && !keep.has(i + 1)) d[i] = 0xff;
    assert.equal(codec.peek.f13!(d), 13000);
    assert.equal(codec.peek.f29!(d), 29 / 3);
  });

  test("wrong fingerprint: FINGERPRINT_MISMATCH; bad magic, version, flags: their errors", () => {
    const b = codec.encode(v);
    const c = b.slice();
    c[8] ^= 0x01;
    for (const p of Object.values(codec.peek)) assert.deepEqual(outcome(() => p(c)), { ok: false, code: "FINGERPRINT_MISMATCH" });
    const m = b.slice();
    m[0] = 0x00;
    assert.deepEqual(outcome(() => codec.peek.f0!(m)), { ok: false, code: "BAD_MAGIC" });
    const ver = b.slice();
    ver[4] = 2;
    assert.deepEqual(outcome(() => codec.peek.f0!(ver)), { ok: false, code: "UNSUPPORTED_VERSION" });
    const fl = b.slice();
    fl[5] = 0x80;
    assert.deepEqual(outcome(() => codec.peek.f0!(fl)), { ok: false, code: "UNSUPPORTED_FLAGS" });
  });

  test("truncated input: a ToonError at every length (or the value, once it is complete)", () => {
    const b = codec.encode(v);
    for (let n = 0; n < b.length; n++) {
      const t = b.subarray(0, n);
      for (const [f, p] of Object.entries(codec.peek)) {
        const o = outcome(() => p(t));
        if (o.ok) assert.deepStrictEqual(o.v, v[f], `${f} at length ${n}`);
        else assert.ok(["TRUNCATED", "BAD_MAGIC"].includes(o.code) || n > 13, `${f} at length ${n}: ${o.code}`);
      }
      assert.equal(outcome(() => codec.decode(t)).ok, false);
    }
  });

  test("every byte corrupted: a value or a ToonError, never anything else", () => {
    const b = codec.encode(v);
    for (let i = 0; i < b.length; i++) {
      for (const x of [0x00, 0x01, 0x7f, 0x80, 0xff, b[i]! ^ 0x10]) {
        const c = b.slice();
        c[i] = x;
        for (const p of Object.values(codec.peek)) outcome(() => p(c));
      }
    }
  });

  test("a corrupt table: bad widths, a count past the end, an offset past the end, an impossible string base", () => {
    const b = codec.encode(v);
    const widths = 9 + 2 + 1;
    const w = b.slice();
    w[widths] = 0x50;
    assert.deepEqual(outcome(() => codec.peek.f0!(w)), { ok: false, code: "INVALID_ENCODING" });
    assert.deepEqual(outcome(() => codec.decode(w)), { ok: false, code: "INVALID_ENCODING" });
    const n = b.slice();
    n[widths - 1] = 0x7f;
    assert.deepEqual(outcome(() => codec.decode(n)), { ok: false, code: "TRUNCATED" });
    const o = b.slice();
    o[widths + 1] = 0xff;
    assert.deepEqual(outcome(() => codec.peek.f0!(o)), { ok: false, code: "TRUNCATED" });
    const s = b.slice();
    s[widths + 2] = 0x7f; // f0's string-table base: 127 strings before byte 0 of the body
    assert.deepEqual(outcome(() => codec.peek.f0!(s)), { ok: false, code: "INVALID_ENCODING" });
    assert.deepStrictEqual(codec.decode(s), v, "a full decode ignores the entries");
  });

  test("a message with another codec's index (other tag): peek decodes in full, same answer", async () => {
    const other = await compile(ir, interningAll(evolveDictionary(ir, undefined).dictionary), ["f1", "f2"]);
    const b = other.encode(v);
    assert.equal(codec.peek.f13!(b), 13000);
    assert.equal(other.peek.f2!(codec.encode(v)), 2 / 3);
  });
});
