// The interpreted codec (generator/interpret) against the generated modules: one suite, run on both.
// For every example and a set of inline schemas covering every IR kind: the same bytes, each side decodes the
// other's bytes to the same value, invalid values and bad bytes fail with the same ToonError code, path and
// message on both, and validate() agrees.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ToonError } from "../runtime/wire/errors.ts";
import { unknownOf } from "../runtime/features/extensions.ts";
import { buildDictionary, parseDictionary, type Dictionary } from "../generator/dictionary/file.ts";
import { evolveDictionary } from "../generator/dictionary/evolve.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { applyWireLayout } from "../generator/dictionary/wire-layout.ts";
import { emitModule } from "../generator/emit/module.ts";
import { interpret } from "../generator/interpret/index.ts";
import type { SchemaIR } from "../generator/ir/types.ts";
import { loadSchemaFile, schemaToIR } from "../generator/load/index.ts";
import { outcome, type Outcome } from "./support/toon-error.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const GEN_DIR = path.join(ROOT, "test", ".gen", "interpret");

interface Codec {
  name: string;
  fingerprint: number;
  encode(value: any): Uint8Array;
  decode(bytes: Uint8Array): unknown;
  validate(value: unknown, options?: { constraints?: boolean }): unknown;
}


function hex(b: Uint8Array): string {
  return Buffer.from(b).toString("hex");
}

/** Encode on both sides: same bytes, or the same error. Returns the bytes (undefined on error). */
function sameEncode(gen: Codec, interp: Codec, value: unknown, label: string): Outcome {
  const g = outcome(() => gen.encode(value));
  const i = outcome(() => interp.encode(value));
  if (g.ok && i.ok) assert.equal(hex(i.value as Uint8Array), hex(g.value as Uint8Array), `${label}: interpreted bytes differ from generated`);
  else assert.deepEqual(i, g, `${label}: encode outcomes differ`);
  // the shape check (a generated module with its JSON Schema validator module checks the full schema first)
  assert.deepEqual(interp.validate(value, { constraints: false }), gen.validate(value, { constraints: false }), `${label}: validate() differs`);
  return g;
}

/** Decode on both sides: deep-equal values, or the same error (code, path, message with its byte offset). */
function sameDecode(gen: Codec, interp: Codec, bytes: Uint8Array, label: string): Outcome {
  const g = outcome(() => gen.decode(bytes));
  const i = outcome(() => interp.decode(bytes));
  assert.deepStrictEqual(i, g, `${label}: decode outcomes differ`);
  return g;
}

/** Byte positions to corrupt: all of them for small messages, else `limit` spread deterministically. */
function positions(length: number, limit: number): number[] {
  if (length <= limit) return Array.from({ length }, (_, i) => i);
  const out = new Set<number>();
  for (let i = 0; i < 16 && i < length; i++) out.add(i); // the header and the first values
  let x = 0x9e3779b9;
  while (out.size < limit) {
    // xorshift32
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.add((x >>> 0) % length);
  }
  return [...out].sort((a, b) => a - b);
}

/** Truncations and a few corruptions of each byte (of a sample, for big messages) decode the same on both sides. */
function sameOnBadBytes(gen: Codec, interp: Codec, bytes: Uint8Array, label: string, limit = Infinity): Set<string> {
  const codes = new Set<string>();
  const at = positions(bytes.length, limit);
  for (const n of at) {
    const o = sameDecode(gen, interp, bytes.subarray(0, n), `${label} truncated to ${n}`);
    if (!o.ok) codes.add(o.code);
  }
  const extended = new Uint8Array(bytes.length + 1);
  extended.set(bytes);
  const o = sameDecode(gen, interp, extended, `${label} + trailing byte`);
  if (!o.ok) codes.add(o.code);
  const copy = new Uint8Array(bytes);
  const variants = bytes.length <= limit ? (b: number) => [0x00, 0x01, 0x7f, 0x80, 0xff, b ^ 0x01, b ^ 0x40, (b + 1) & 0xff] : (b: number) => [0x00, 0xff, b ^ 0x01, (b + 1) & 0xff];
  for (const i of at) {
    const b = bytes[i]!;
    for (const x of new Set(variants(b))) {
      if (x === b) continue;
      copy[i] = x;
      const o = sameDecode(gen, interp, copy, `${label} byte ${i} = ${x}`);
      if (!o.ok) codes.add(o.code);
    }
    copy[i] = b;
  }
  return codes;
}

interface Invalid {
  label: string;
  value: unknown;
  /** Expected code and path (checked on both sides); omitted when only agreement is asserted. */
  code?: string;
  path?: string;
}

/** The shared suite: valid values round-trip identically, invalid ones fail identically. */
function runSuite(gen: Codec, interp: Codec, valid: { value: unknown; decoded?: unknown }[], invalid: Invalid[], label: string, limit = Infinity): Set<string> {
  const codes = new Set<string>();
  assert.equal(interp.name, gen.name);
  assert.equal(interp.fingerprint, gen.fingerprint, `${label}: fingerprints differ`);
  valid.forEach(({ value, decoded }, n) => {
    const l = `${label} valid #${n}`;
    const o = sameEncode(gen, interp, value, l);
    if (!o.ok) assert.fail(`${l}: ${o.message}`);
    const bytes = o.value as Uint8Array;
    const fromGen = interp.decode(bytes);
    const fromInterp = gen.decode(interp.encode(value));
    assert.deepStrictEqual(fromGen, fromInterp, `${l}: decoded values differ`);
    assert.deepStrictEqual(fromGen, decoded === undefined ? value : decoded, `${l}: does not round-trip`);
    for (const c of sameOnBadBytes(gen, interp, bytes, l, limit)) codes.add(c);
  });
  for (const inv of invalid) {
    const l = `${label} invalid: ${inv.label}`;
    const o = sameEncode(gen, interp, inv.value, l);
    assert.ok(!o.ok, `${l}: encoded without error`);
    if (inv.code !== undefined) assert.equal(o.code, inv.code, `${l}: ${o.message}`);
    if (inv.path !== undefined) assert.equal(o.path, inv.path, `${l}: ${o.message}`);
  }
  return codes;
}

// ---------------------------------------------------------------------------------------------------------
// The four examples: committed schemas, dictionaries, data and generated modules.

interface Example {
  dir: string;
  file: string;
  invalid: { label: string; mutate: (d: any) => void; code: string; path: string }[];
}

const lone = "ab\ud800cd";

const EXAMPLES: Example[] = [
  {
    dir: "orders",
    file: "order-list",
    invalid: [
      { label: "nested wrong type", mutate: (d) => (d.orders[3].customer.address.city = 5), code: "INVALID_VALUE", path: "/orders/3/customer/address/city" },
      { label: "missing required", mutate: (d) => delete d.orders[2].total, code: "INVALID_VALUE", path: "/orders/2/total" },
      { label: "missing required (nested def)", mutate: (d) => delete d.orders[0].customer.email, code: "INVALID_VALUE", path: "/orders/0/customer/email" },
      { label: "unknown key on closed object", mutate: (d) => (d.orders[1].items[0].color = "red"), code: "INVALID_VALUE", path: "/orders/1/items/0/color" },
      { label: "unknown key at the root", mutate: (d) => (d["a/b~"] = 1), code: "INVALID_VALUE", path: "/a~1b~0" },
      { label: "NaN", mutate: (d) => (d.orders[4].total = NaN), code: "INVALID_VALUE", path: "/orders/4/total" },
      { label: "Infinity", mutate: (d) => (d.orders[4].items[0].unitPrice = Infinity), code: "INVALID_VALUE", path: "/orders/4/items/0/unitPrice" },
      { label: "fractional integer", mutate: (d) => (d.orders[5].items[0].qty = 1.5), code: "INVALID_VALUE", path: "/orders/5/items/0/qty" },
      { label: "lone surrogate", mutate: (d) => (d.orders[6].customer.name = lone), code: "INVALID_VALUE", path: "/orders/6/customer/name" },
      { label: "lone surrogate in a date-time", mutate: (d) => (d.orders[6].createdAt = lone), code: "INVALID_VALUE", path: "/orders/6/createdAt" },
      { label: "wrong enum", mutate: (d) => (d.orders[7].currency = "XXX"), code: "INVALID_VALUE", path: "/orders/7/currency" },
      { label: "array item wrong", mutate: (d) => (d.orders[8].items[1] = "item"), code: "INVALID_VALUE", path: "/orders/8/items/1" },
      { label: "array is an object", mutate: (d) => (d.orders[8].items = {}), code: "INVALID_VALUE", path: "/orders/8/items" },
      { label: "root not an object", mutate: (d) => (d.orders = null), code: "INVALID_VALUE", path: "/orders" },
      { label: "optional wrong type", mutate: (d) => (d.orders[9].note = 1), code: "INVALID_VALUE", path: "/orders/9/note" },
    ],
  },
  {
    dir: "logs",
    file: "log-report",
    invalid: [
      { label: "int64 as string", mutate: (d) => (d.totalBytes = "12"), code: "INVALID_VALUE", path: "/totalBytes" },
      { label: "int64 beyond 64 bits", mutate: (d) => (d.services[2].bytesIngested = 2n ** 64n), code: "INVALID_VALUE", path: "/services/2/bytesIngested" },
      { label: "nullable wrong type", mutate: (d) => (d.services[1].incidentId = 5), code: "INVALID_VALUE", path: "/services/1/incidentId" },
      { label: "wrong enum deep", mutate: (d) => (d.services[0].topErrors[0].level = "warn"), code: "INVALID_VALUE", path: "/services/0/topErrors/0/level" },
      { label: "string array item wrong", mutate: (d) => (d.services[0].topErrors[0].sampleTraceIds[0] = null), code: "INVALID_VALUE", path: "/services/0/topErrors/0/sampleTraceIds/0" },
      { label: "boolean wrong", mutate: (d) => (d.truncated = 0), code: "INVALID_VALUE", path: "/truncated" },
      { label: "missing in def", mutate: (d) => delete d.services[3].counts.fatal, code: "INVALID_VALUE", path: "/services/3/counts/fatal" },
      { label: "NaN in def", mutate: (d) => (d.services[3].latencyMs.p99 = NaN), code: "INVALID_VALUE", path: "/services/3/latencyMs/p99" },
      { label: "unknown key in def", mutate: (d) => (d.window.tz = "UTC"), code: "INVALID_VALUE", path: "/window/tz" },
    ],
  },
  {
    dir: "extraction",
    file: "extraction-result",
    invalid: [
      { label: "wrong const (discriminator)", mutate: (d) => (d.documents[0].entities[0].type = "animal"), code: "INVALID_VALUE", path: "/documents/0/entities/0/type" },
      { label: "missing discriminator", mutate: (d) => delete d.documents[1].entities[0].type, code: "INVALID_VALUE", path: "/documents/1/entities/0/type" },
      { label: "branch field wrong", mutate: (d) => (d.documents[2].entities[0].confidence = "high"), code: "INVALID_VALUE", path: "/documents/2/entities/0/confidence" },
      { label: "entity not an object", mutate: (d) => (d.documents[2].entities[1] = [1]), code: "INVALID_VALUE", path: "/documents/2/entities/1" },
      { label: "unknown key in a branch", mutate: (d) => (d.documents[0].entities[0].extra = true), code: "INVALID_VALUE", path: "/documents/0/entities/0/extra" },
      { label: "lone surrogate in text", mutate: (d) => (d.documents[3].text = "\udfff"), code: "INVALID_VALUE", path: "/documents/3/text" },
    ],
  },
  {
    dir: "tool-calls",
    file: "tool-call-batch",
    invalid: [
      { label: "wrong enum", mutate: (d) => (d.calls[2].action = "get_time"), code: "INVALID_VALUE", path: "/calls/2/action" },
      { label: "date wrong type", mutate: (d) => (d.calls[3].args.date = 20250101), code: "INVALID_VALUE", path: "/calls/3/args/date" },
      { label: "missing args", mutate: (d) => delete d.calls[0].args, code: "INVALID_VALUE", path: "/calls/0/args" },
      { label: "unknown key", mutate: (d) => (d.calls[0].args.units = "metric"), code: "INVALID_VALUE", path: "/calls/0/args/units" },
    ],
  },
];

describe("interpreted codec = generated module: examples", () => {
  before(() => initHash());
  for (const ex of EXAMPLES) {
    test(ex.dir, async () => {
      const dir = path.join(ROOT, "examples", ex.dir);
      const ir = await loadSchemaFile(`schemas/${ex.file}.schema.json`, { cwd: dir });
      const dictFile = path.join(dir, "dictionaries", `${ex.file}.dictionary.json`);
      // the committed dictionary, as a user decoding the module's messages would pass it
      const dict = parseDictionary(readFileSync(dictFile, "utf8"), dictFile);
      const interp = interpret(ir, dict);
      const mod = await import(pathToFileURL(path.join(dir, "gen", `${ex.file}.ts`)).href);
      const gen = mod[ir.name] as Codec;
      assert.ok(gen, `gen/${ex.file}.ts exports ${ir.name}`);
      const data = JSON.parse(readFileSync(path.join(dir, "data", `${ex.file}.json`), "utf8"));
      const invalid: Invalid[] = ex.invalid.map((c) => {
        const d = structuredClone(data);
        c.mutate(d);
        return { label: c.label, value: d, code: c.code, path: c.path };
      });
      const codes = runSuite(gen, interp, [{ value: data }], invalid, ex.dir, 120);
      assert.ok(codes.has("TRUNCATED") && codes.has("TRAILING_BYTES"), [...codes].join(", "));
      // bad headers
      const bytes = gen.encode(data);
      for (const [what, patch] of [
        ["magic", [0, 0x55]],
        ["version", [4, 2]],
        ["flags", [6, 3]],
        ["fingerprint", [7, bytes[7]! ^ 1]],
      ] as const) {
        const b = new Uint8Array(bytes);
        b[patch[0]] = patch[1];
        const o = sameDecode(gen, interp, b, `${ex.dir} bad ${what}`);
        assert.ok(!o.ok);
      }
      assert.equal((sameDecode(gen, interp, new Uint8Array(0), "empty") as { code: string }).code, "TRUNCATED");
      assert.equal((sameDecode(gen, interp, new TextEncoder().encode("{}"), "JSON") as { code: string }).code, "BAD_MAGIC");
      assert.throws(() => interp.decode("TOON" as any), { name: "ToonError", code: "INVALID_ENCODING" });
    });
  }
});

// ---------------------------------------------------------------------------------------------------------
// Inline schemas: every IR kind, generated into test/.gen/interpret/ and compared the same way.

interface InlineCase {
  name: string;
  schema: unknown;
  /** IR kinds the root (or its definitions) must contain, so the case keeps testing what it claims to. */
  kinds: string[];
  valid: { value: unknown; decoded?: unknown }[];
  invalid: Invalid[];
  /** Extra byte-level checks on the pair. */
  bytes?: (gen: Codec, interp: Codec) => void;
}

const j = (text: string): unknown => JSON.parse(text);
const v = (value: unknown, decoded?: unknown): { value: unknown; decoded?: unknown } => (decoded === undefined ? { value } : { value, decoded });
const bad = (label: string, value: unknown, path?: string, code = "INVALID_VALUE"): Invalid => (path === undefined ? { label, value, code } : { label, value, code, path });

function chain(depth: number): any {
  let node: any = { name: "leaf" };
  for (let i = 0; i < depth; i++) node = { name: "n" + i, children: [node] };
  return node;
}

const cyclic: any = { name: "loop", children: [] };
cyclic.children.push(cyclic);

const manyKeys = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`o${i}`, { type: "integer" }]));
const big = Array.from({ length: 200 }, (_, i) => `v${i}`);

/** An object big enough that the emitter splits its functions into helpers (MAX_FUNCTION_LINES). */
function hugeObject(n: number, prefix: string): Record<string, unknown> {
  const shapes = [{ type: "integer" }, { type: "string" }, { type: "object", properties: { x: { type: "number" } }, required: ["x"], additionalProperties: false }, { type: "array", items: { type: "boolean" } }];
  const properties = Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, shapes[i % 4]]));
  return { type: "object", properties, required: [`${prefix}0`, `${prefix}${n - 2}`], additionalProperties: false };
}
function hugeValue(n: number, prefix: string, every: number): Record<string, unknown> {
  const make = [(i: number) => i, (i: number) => `s${i}`, (i: number) => ({ x: i / 4 }), (i: number) => [i % 2 === 0]];
  const o: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) if (i % every === 0 || i === n - 2) o[`${prefix}${i}`] = make[i % 4]!(i);
  return o;
}

const INLINE: InlineCase[] = [
  {
    name: "Tuple",
    schema: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }, { type: "boolean" }], minItems: 1, items: { type: "number" } },
    kinds: ["tuple"],
    valid: [v(["a"]), v(["a", 1]), v(["a", -7, true]), v(["a", 1, false, 1.5, -2, 1e300, 0.1, 123.456, 2 ** 60])],
    invalid: [
      bad("not an array", "a", ""),
      bad("too few", [], ""),
      bad("first wrong", [1], "/0"),
      bad("second fractional", ["a", 1.5], "/1"),
      bad("third wrong", ["a", 1, "t"], "/2"),
      bad("rest wrong", ["a", 1, true, 1, "x"], "/4"),
      bad("rest NaN", ["a", 1, true, NaN], "/3"),
      bad("hole", ["a", 1, true, 1, , 2], "/4"), // eslint-disable-line no-sparse-arrays
    ],
  },
  {
    name: "ClosedTuple",
    schema: { type: "object", properties: { t: { type: "array", prefixItems: [{ type: "string" }, { type: "null" }, { type: "integer" }], items: false, minItems: 1 } }, required: ["t"], additionalProperties: false },
    kinds: ["tuple", "null"],
    valid: [v({ t: ["a"] }), v({ t: ["a", null] }), v({ t: ["a", null, 3] })],
    invalid: [bad("too long", { t: ["a", null, 1, 2] }, "/t"), bad("null wrong", { t: ["a", 0] }, "/t/1"), bad("empty", { t: [] }, "/t"), bad("int wrong", { t: ["a", null, "3"] }, "/t/2")],
  },
  {
    name: "IntMap",
    schema: { type: "object", additionalProperties: { type: "integer" } },
    kinds: ["object"],
    valid: [v({}), v(j('{"a":1,"b":-5,"__proto__":3,"":7,"x/y~z":2,"constructor":4}')), v({ a: undefined, b: 1 }, { b: 1 }), v({ 10: 1, 2: 2, z: 3 })],
    invalid: [bad("value wrong", { a: "1" }, "/a"), bad("value fractional", { ok: 1, a: 1.5 }, "/a"), bad("escaped key", { "x/y": "s" }, "/x~1y"), bad("lone surrogate key", { ok: 1, ["\ud800"]: 1 }, "/\ud800"), bad("array", [], "")],
  },
  {
    name: "ObjectMap",
    schema: { type: "object", properties: { m: { type: "object", additionalProperties: { $ref: "#/$defs/P" } } }, $defs: { P: { type: "object", properties: { x: { type: "number" } }, required: ["x"], additionalProperties: false } } },
    kinds: ["object", "ref"],
    valid: [v({}), v({ m: {} }), v({ m: { a: { x: 1 }, b: { x: 2.5 } }, other: [true] })],
    invalid: [bad("entry missing field", { m: { a: { x: 1 }, b: {} } }, "/m/b/x"), bad("entry extra key", { m: { a: { x: 1, y: 2 } } }, "/m/a/y"), bad("entry not object", { m: { a: 3 } }, "/m/a")],
  },
  {
    name: "OpenObject",
    schema: { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a"] },
    kinds: ["object", "any"],
    valid: [v({ a: "x" }), v({ a: "x", b: 1, c: [1, { d: null }], e: "s", f: -0, g: 31, h: 32, i: -1 }), v({ a: "x", z: undefined }, { a: "x" }), v(j('{"a":"x","__proto__":{"p":1}}'))],
    invalid: [
      bad("missing required", {}, "/a"),
      bad("declared wrong", { a: "x", b: "y" }, "/b"),
      bad("extra NaN", { a: "x", c: NaN }, "/c"),
      bad("extra function deep", { a: "x", c: { d: [1, () => 1] } }, "/c/d/1"),
      bad("extra bigint", { a: "x", c: 10n }, "/c"),
      bad("extra lone surrogate", { a: "x", c: ["\udc00"] }, "/c/0"),
      bad("extra lone surrogate key", { a: "x", c: { ["k\ud800"]: 1 } }, "/c/k\ud800"),
    ],
  },
  {
    name: "Wide",
    schema: { type: "object", properties: { req: { type: "boolean" }, ...manyKeys }, required: ["req"], additionalProperties: { type: "boolean" } },
    kinds: ["object"],
    valid: [v({ req: true }), v({ req: false, o0: 0, o7: 7, o8: 8, o11: 11 }), v({ req: true, o9: 1, extra: false }), v({ req: true, ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`o${i}`, i])), x: true, y: false })],
    invalid: [bad("extra wrong", { req: true, o1: 1, x: 1 }, "/x"), bad("optional wrong", { req: true, o10: "1" }, "/o10"), bad("required missing", { o1: 1 }, "/req")],
  },
  {
    name: "TwoObjects",
    schema: {
      type: "object",
      properties: {
        u: {
          oneOf: [
            { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
            { type: "object", properties: { b: { type: "integer" } }, required: ["b"], additionalProperties: { type: "string" } },
          ],
        },
        list: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "array", items: { type: "boolean" } }, { type: "null" }] } },
      },
    },
    kinds: ["union"],
    valid: [v({ u: { a: "x" } }), v({ u: { b: 1 } }), v({ u: { b: 1, extra: "y" } }), v({ u: { a: "x", b: 1, c: "s" } }), v({ list: ["s", 1, [true], null, []] })],
    invalid: [
      bad("no branch", { u: { a: 1 } }, "/u"),
      bad("no branch (extras)", { u: { b: 1, c: 1 } }, "/u"),
      bad("not an object", { u: "x" }, "/u"),
      bad("list item no branch", { list: ["s", true] }, "/list/1"),
      bad("list item deep", { list: ["s", [true, 1]] }, "/list/1/1"),
      bad("list item fractional", { list: [1.5] }, "/list/0"),
    ],
  },
  {
    name: "Nullable",
    schema: { type: "array", items: { type: ["string", "null"] } },
    kinds: ["union"],
    valid: [v(["x", null, ""])],
    invalid: [bad("number", ["x", 1], "/1"), bad("undefined", [undefined], "/0")],
  },
  {
    name: "NumInt",
    schema: { anyOf: [{ type: "integer" }, { type: "number" }, { type: "string" }] },
    kinds: ["union"],
    valid: [v(1), v(-1), v(1.5), v("s"), v(2 ** 53 + 2), v(-(2 ** 63)), v(1e300) /* integral but beyond 64 bits: the number branch */],
    invalid: [bad("boolean", true, ""), bad("NaN", NaN, ""), bad("Infinity", Infinity, ""), bad("bigint", 1n, "")],
  },
  {
    name: "Int64",
    schema: { type: "object", properties: { n: { type: "integer", format: "int64" }, list: { type: "array", items: { type: "integer", format: "uint64" } } } },
    kinds: ["integer"],
    valid: [
      v({ n: 0, list: [1, 2 ** 53 - 1] }),
      v({ n: -(2 ** 53) + 1 }),
      v({ n: 2n ** 53n + 1n, list: [9007199254740993n, 2n ** 64n - 1n, 2n ** 63n] }),
      v({ n: -(2n ** 63n) }),
      v({ n: 5n, list: [7n] }, { n: 5, list: [7] }),
      v({ n: 2 ** 60 }, { n: 2n ** 60n }),
      // a double beyond 64 bits travels as itself (docs/FORMAT.md §3.2)
      v({ n: 2 ** 65, list: [1e20] }),
    ],
    invalid: [
      bad("beyond uint64", { n: 2n ** 64n }, "/n"),
      bad("below int64", { n: -(2n ** 63n) - 1n }, "/n"),
      bad("fractional", { n: 1.5 }, "/n"),
      bad("string", { list: [1, "1"] }, "/list/1"),
    ],
  },
  {
    name: "Int64Union",
    schema: {
      type: "object",
      properties: {
        cheap: { type: "array", items: { anyOf: [{ type: "integer", format: "int64" }, { type: "string" }] } },
        overlap: { type: "array", items: { anyOf: [{ type: "integer", format: "int64" }, { type: "number" }, { type: "null" }] } },
      },
    },
    kinds: ["union", "integer"],
    valid: [v({ cheap: [1, "a", 2n ** 63n - 1n, -(2n ** 63n)], overlap: [1, 1.5, null, 2n ** 64n - 1n, 2 ** 70] }, { cheap: [1, "a", 2n ** 63n - 1n, -(2n ** 63n)], overlap: [1, 1.5, null, 2n ** 64n - 1n, 2 ** 70] })],
    invalid: [bad("boolean", { cheap: [true] }, "/cheap/0"), bad("bigint beyond 64 bits", { cheap: [2n ** 64n] }, "/cheap/0"), bad("overlap string", { overlap: ["1"] }, "/overlap/0")],
  },
  {
    name: "Int64String",
    schema: { type: "array", items: { type: "string", format: "int64" } },
    kinds: ["string"],
    valid: [v(["0", "-5", "123", "123456789012345678901", "007", "-0", "abc", "", "18446744073709551615", "18446744073709551616", "-9223372036854775808", "-9223372036854775809", "+1", "1e3"])],
    invalid: [bad("number", ["1", 5], "/1"), bad("bigint", [5n], "/0"), bad("lone surrogate", ["\ud800"], "/0")],
  },
  {
    name: "Dates",
    schema: { type: "object", properties: { d: { type: "string", format: "date" }, t: { type: "string", format: "date-time" }, ds: { type: "array", items: { type: "string", format: "date" } } }, additionalProperties: false },
    kinds: ["string"],
    valid: [
      v({ d: "2024-02-29", t: "2024-01-01T00:00:00Z" }),
      v({ t: "2024-01-01T00:00:00.123Z" }),
      v({ t: "2024-01-01T00:00:00+02:00" }),
      v({ t: "2024-01-01t00:00:00z" }),
      v({ t: "1969-12-31T23:59:59.999Z", d: "1969-12-31" }),
      v({ t: "2024-01-01T00:00:00.100Z" }),
      v({ t: "2024-01-01T00:00:00.1Z" }),
      v({ t: "2024-01-01T00:00:60Z" }),
      v({ t: "not a date", d: "2023-02-29" }),
      v({ d: "0001-01-01", ds: ["24-1-1", "9999-12-31", "2024-13-01", "", "2024-01-01"] }),
    ],
    invalid: [bad("number", { d: 20240101 }, "/d"), bad("lone surrogate", { t: "\udc00" }, "/t"), bad("array item", { ds: ["2024-01-01", null] }, "/ds/1"), bad("unknown key", { x: 1 }, "/x")],
  },
  {
    name: "Uuids",
    schema: {
      type: "object",
      properties: {
        id: { type: "string", format: "uuid" },
        ids: { type: "array", items: { type: "string", format: "uuid" } },
        either: { anyOf: [{ type: "string", format: "uuid" }, { type: "string" }] },
        ref: { anyOf: [{ type: "string", format: "uuid" }, { type: "integer" }] },
      },
      required: ["id"],
      additionalProperties: false,
    },
    kinds: ["string", "union"],
    valid: [
      v({ id: "123e4567-e89b-12d3-a456-426614174000" }),
      v({ id: "00000000-0000-0000-0000-000000000000", ids: ["ffffffff-ffff-ffff-ffff-ffffffffffff", "0f8fad5b-d9cb-469f-a165-70867728950e"], ref: 7 }),
      // any case in, lower case out
      v({ id: "123E4567-E89B-12D3-A456-426614174000", ids: ["AbCdEf01-2345-6789-aBcD-eF0123456789"] }, { id: "123e4567-e89b-12d3-a456-426614174000", ids: ["abcdef01-2345-6789-abcd-ef0123456789"] }),
      // a union tries the uuid branch first and takes the plain string for anything else
      v({ id: "123e4567-e89b-12d3-a456-426614174000", either: "123E4567-E89B-12D3-A456-426614174000" }, { id: "123e4567-e89b-12d3-a456-426614174000", either: "123e4567-e89b-12d3-a456-426614174000" }),
      v({ id: "123e4567-e89b-12d3-a456-426614174000", either: "urn:uuid:123e4567-e89b-12d3-a456-426614174000", ref: "0f8fad5b-d9cb-469f-a165-70867728950e" }),
    ],
    invalid: [
      bad("no dashes", { id: "123e4567e89b12d3a456426614174000" }, "/id"),
      bad("braces", { id: "{123e4567-e89b-12d3-a456-426614174000}" }, "/id"),
      bad("urn prefix", { id: "urn:uuid:123e4567-e89b-12d3-a456-426614174000" }, "/id"),
      bad("dash moved", { id: "123e456-7e89b-12d3-a456-426614174000" }, "/id"),
      bad("non-hex digit", { id: "123e4567-e89b-12d3-a456-42661417400g" }, "/id"),
      bad("Arabic-Indic digit", { id: "123e4567-e89b-12d3-a456-42661417400\u0660" }, "/id"),
      bad("too long", { id: "123e4567-e89b-12d3-a456-4266141740000" }, "/id"),
      bad("empty", { id: "" }, "/id"),
      bad("number", { id: 5 }, "/id"),
      bad("array item", { id: "123e4567-e89b-12d3-a456-426614174000", ids: ["123e4567-e89b-12d3-a456-426614174000", "x"] }, "/ids/1"),
      bad("union: neither a UUID nor an integer", { id: "123e4567-e89b-12d3-a456-426614174000", ref: "x" }, "/ref"),
    ],
    bytes: (gen, interp) => {
      const id = "123e4567-e89b-12d3-a456-426614174000";
      const b = gen.encode({ id });
      // the 16 raw bytes close the message (header, presence bitmap, then the required id)
      assert.equal(hex(b.subarray(b.length - 16)), "123e4567e89b12d3a456426614174000");
      for (const c of [gen, interp]) {
        for (let n = b.length - 15; n < b.length; n++) {
          const o = outcome(() => c.decode(b.subarray(0, n)));
          assert.equal(o.ok ? "decoded" : o.code, "TRUNCATED", `cut to ${n}`);
        }
        assert.deepEqual(c.validate({ id: "nope" }), { ok: false, errors: [{ path: "/id", message: 'expected a UUID, got the string "nope"' }] });
      }
      assert.equal(outcome(() => gen.encode({ id: "nope" })).ok, false);
      assert.match((outcome(() => interp.encode({ id: "nope" })) as { message: string }).message, /expected a UUID/);
    },
  },
  {
    name: "AnyValue",
    schema: {},
    kinds: ["any"],
    valid: [v(null), v(true), v(false), v(0), v(31), v(32), v(-1), v(-0), v(1.5), v(1e300), v("s"), v([]), v({}), v(j('{"a":[1,{"b":"c"}],"__proto__":1,"b":[null,[[]]]}')), v({ a: undefined }, {})],
    invalid: [
      bad("undefined", undefined, ""),
      bad("NaN", NaN, ""),
      bad("nested Infinity", { a: [1, -Infinity] }, "/a/1"),
      bad("array hole", [1, undefined], "/1"),
      bad("bigint", { a: 1n }, "/a"),
      bad("symbol", { a: { b: Symbol() } }, "/a/b"),
      bad("lone surrogate", ["\ud800"], "/0"),
      bad("cycle", cyclic, undefined, "DEPTH_LIMIT"),
    ],
  },
  {
    name: "Tree",
    schema: { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } }, required: ["name"] },
    kinds: ["ref"],
    valid: [v({ name: "r" }), v({ name: "r", children: [{ name: "a" }, { name: "b", children: [] }], meta: { x: 1 } }), v(chain(200))],
    invalid: [
      bad("deep wrong type", { name: "r", children: [{ name: "a" }, { name: "b", children: [{ name: 1 }] }] }, "/children/1/children/0/name"),
      bad("deep missing", { name: "r", children: [{}] }, "/children/0/name"),
      bad("too deep", chain(300), undefined, "DEPTH_LIMIT"),
      bad("cycle", cyclic, undefined, "DEPTH_LIMIT"),
    ],
    bytes: (gen, interp) => {
      // a 300-deep chain, written by hand: [bitmap: children] [name ""] [count 1] ... [bitmap 0] [name ""]
      const header = gen.encode({ name: "" }).subarray(0, 9);
      const body: number[] = [];
      for (let i = 0; i < 300; i++) body.push(0x01, 0x00, 0x01);
      body.push(0x00, 0x00);
      const bytes = new Uint8Array([...header, ...body]);
      const o = sameDecode(gen, interp, bytes, "Tree 300 deep");
      assert.equal(o.ok ? "ok" : o.code, "DEPTH_LIMIT");
    },
  },
  {
    name: "LinkedList",
    schema: {
      $ref: "#/$defs/Node",
      $defs: { Node: { type: "object", properties: { v: { type: "integer" }, next: { oneOf: [{ type: "null" }, { $ref: "#/$defs/Node" }] } }, required: ["v"], additionalProperties: false } },
    },
    kinds: ["ref", "union"],
    valid: [v({ v: 1 }), v({ v: 1, next: null }), v({ v: 1, next: { v: 2, next: { v: 3 } } })],
    invalid: [bad("deep wrong", { v: 1, next: { v: "x" } }, "/next/v"), bad("not null or object", { v: 1, next: 5 }, "/next"), bad("unknown key", { v: 1, w: 2 }, "/w"), bad("deep unknown key", { v: 1, next: { v: 2, next: { v: 3, u: 0 } } }, "/next/next/u")],
  },
  {
    name: "RecursiveUnion",
    schema: {
      $defs: {
        Expr: {
          anyOf: [
            { type: "object", properties: { num: { type: "number" } }, required: ["num"], additionalProperties: false },
            { type: "object", properties: { op: { type: "string" }, args: { type: "array", items: { $ref: "#/$defs/Expr" } } }, required: ["op", "args"], additionalProperties: false },
            { type: "object", properties: { tuple: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false } }, required: ["tuple"] },
          ],
        },
      },
      type: "object",
      properties: { e: { $ref: "#/$defs/Expr" } },
      required: ["e"],
    },
    kinds: ["union", "ref", "tuple"],
    valid: [v({ e: { num: 1 } }), v({ e: { op: "+", args: [{ num: 1 }, { op: "neg", args: [{ num: 2.5 }] }, { tuple: ["x", 1] }] } }), v({ e: { tuple: ["a", 2], more: 1 } })],
    invalid: [bad("no branch deep", { e: { op: "+", args: [{ num: "1" }] } }, "/e"), bad("tuple too long", { e: { tuple: ["a", 1, 2] } }, "/e"), bad("missing", {}, "/e")],
  },
  {
    name: "EnumValues",
    schema: {
      type: "object",
      properties: { e: { enum: [[1, 2], { a: 1 }, "x", null, 3] }, big: { enum: big }, mid: { type: "string", enum: big.slice(0, 20) }, one: { enum: [{ k: [1] }] } },
      additionalProperties: false,
    },
    kinds: ["enum"],
    valid: [v({ e: [1, 2] }), v({ e: { a: 1 } }), v({ e: "x", big: "v150", mid: "v19" }), v({ e: null, big: "v0" }), v({ e: 3, big: "v199", one: { k: [1] } })],
    invalid: [bad("array not in enum", { e: [1, 2, 3] }, "/e"), bad("object not in enum", { e: { a: 2 } }, "/e"), bad("big miss", { big: "nope" }, "/big"), bad("mid miss", { mid: "v20" }, "/mid"), bad("single miss", { one: { k: [2] } }, "/one")],
  },
  {
    name: "ConstValues",
    schema: { type: "object", properties: { c: { const: { a: [1, { b: null }] } }, s: { const: "fixed" }, n: { const: 0 } }, required: ["c"] },
    kinds: ["const"],
    valid: [v({ c: { a: [1, { b: null }] } }), v({ c: j('{"a":[1,{"b":null}]}'), s: "fixed", n: 0 }), v({ c: { a: [1, { b: null, z: undefined }] } }, { c: { a: [1, { b: null }] } })],
    invalid: [bad("nested differs", { c: { a: [1, { b: 0 }] } }, "/c"), bad("primitive differs", { c: { a: [1, { b: null }] }, s: "other" }, "/s"), bad("number differs", { c: { a: [1, { b: null }] }, n: "0" }, "/n"), bad("missing", {}, "/c")],
  },
  {
    name: "Discriminated",
    schema: {
      type: "array",
      items: {
        oneOf: [
          { type: "object", properties: { kind: { const: "a" }, x: { type: "integer" } }, required: ["kind"] },
          { type: "object", properties: { kind: { const: "b" }, y: { type: "string" } }, required: ["kind"], additionalProperties: false },
        ],
      },
    },
    kinds: ["union"],
    valid: [v([{ kind: "a" }, { kind: "a", x: 1, extra: [1] }, { kind: "b", y: "s" }])],
    invalid: [bad("unknown tag", [{ kind: "c" }], "/0/kind"), bad("branch field", [{ kind: "a" }, { kind: "a", x: "s" }], "/1/x"), bad("array", [[]], "/0"), bad("no tag", [{}], "/0/kind"), bad("closed branch", [{ kind: "b", z: 1 }], "/0/z")],
  },
  {
    name: "OddKeys",
    schema: j(`{
      "type": "object",
      "properties": { "__proto__": { "type": "string" }, "constructor": { "type": "integer" }, "a/b": { "type": "boolean" }, "~": { "type": "null" }, "": { "type": "integer" } },
      "required": ["__proto__", "constructor"],
      "additionalProperties": false
    }`),
    kinds: ["object"],
    valid: [v(j('{"__proto__":"p","constructor":1,"a/b":true,"~":null,"":0}')), v(j('{"__proto__":"p","constructor":2}'))],
    invalid: [bad("proto wrong", j('{"__proto__":1,"constructor":1}'), "/__proto__"), bad("inherited proto only", { constructor: 1 }, "/__proto__"), bad("escaped key wrong", j('{"__proto__":"p","constructor":1,"a/b":1}'), "/a~1b"), bad("tilde wrong", j('{"__proto__":"p","constructor":1,"~":1}'), "/~0"), bad("empty key wrong", j('{"__proto__":"p","constructor":1,"":"x"}'), "/")],
  },
  {
    name: "Huge",
    schema: { type: "object", properties: { h: hugeObject(160, "p"), u: { anyOf: [hugeObject(90, "a"), hugeObject(90, "b")] } } },
    kinds: ["object", "union"],
    valid: [v({ h: hugeValue(160, "p", 1) }), v({ h: hugeValue(160, "p", 7), u: hugeValue(90, "a", 3) }), v({ u: hugeValue(90, "b", 1) })],
    invalid: [
      bad("deep wrong type", { h: { ...hugeValue(160, "p", 5), p122: { x: "1" } } }, "/h/p122/x"),
      bad("missing required", { h: { p0: 0 } }, "/h/p158"),
      bad("unknown key", { h: { ...hugeValue(160, "p", 9), zz: 1 } }, "/h/zz"),
      bad("union no branch", { u: { ...hugeValue(90, "a", 2), b1: "x" } }, "/u"),
    ],
  },
  {
    name: "ZeroWidth",
    schema: { type: "object", properties: { nulls: { type: "array", items: { type: "null" } }, consts: { type: "array", items: { const: "k" } }, empties: { type: "array", items: { type: "object", additionalProperties: false } } } },
    kinds: ["array"],
    valid: [v({ nulls: [null, null], consts: ["k"], empties: [{}, {}] })],
    invalid: [bad("too many zero-width items", { nulls: new Array(65537).fill(null) }, "/nulls"), bad("const item", { consts: ["k", "j"] }, "/consts/1"), bad("empty with key", { empties: [{}, { a: 1 }] }, "/empties/1/a")],
  },
  {
    // intern: false paths (docs/FORMAT.md §3.1): title occurs once per message, people[].id is a unique name, the
    // rest interns; a value repeated across them is a literal again on the plain paths, a reference elsewhere
    name: "Interning",
    schema: {
      type: "object",
      additionalProperties: false,
      required: ["title", "tags", "people"],
      properties: {
        title: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
        people: { type: "array", items: { type: "object", required: ["id"], properties: { id: { type: "string" }, city: { type: "string" } } } },
      },
    },
    kinds: ["string", "array"],
    valid: [v({ title: "a", tags: ["a", "a", "b"], people: [{ id: "a", city: "a" }, { id: "a", city: "b", x: "a" }] }), v({ title: "", tags: [], people: [] })],
    invalid: [bad("lone surrogate on a plain path", { title: lone, tags: [], people: [] }, "/title"), bad("plain path wrong type", { title: "t", tags: [], people: [{ id: 1 }] }, "/people/0/id")],
    bytes: (gen, interp) => {
      const value = { title: "a", tags: ["a", "a"], people: [{ id: "a", city: "a" }] };
      const body = hex(gen.encode(value)).slice(18);
      assert.equal(hex(interp.encode(value)).slice(18), body);
      // title "a" literal (not entered) · tags: 2, "a" literal (entry 0), reference · people: 1, bitmap (city, no
      // extras), id "a" a literal (plain), city a reference to entry 0
      assert.equal(body, "0261" + "02" + "0261" + "01" + "01" + "01" + "0261" + "01");
    },
  },
];

function collectKinds(ir: SchemaIR): Set<string> {
  const out = new Set<string>();
  const walk = (s: any): void => {
    out.add(s.kind);
    if (s.kind === "object") {
      for (const p of s.properties) walk(p.shape);
      if (s.additional) walk(s.additional);
    } else if (s.kind === "array") walk(s.items);
    else if (s.kind === "tuple") {
      s.items.forEach(walk);
      if (s.rest) walk(s.rest);
    } else if (s.kind === "union") s.branches.forEach(walk);
  };
  walk(ir.root);
  for (const d of ir.definitions) walk(d.shape);
  return out;
}

describe("interpreted codec = generated module: inline schemas", () => {
  const pairs = new Map<string, { gen: Codec; interp: Codec; ir: SchemaIR }>();
  before(async () => {
    await initHash();
    mkdirSync(GEN_DIR, { recursive: true });
    await Promise.all(
      INLINE.map(async (c) => {
        const ir = schemaToIR(c.schema, { source: `test/${c.name}.schema.json`, name: c.name });
        const dict: Dictionary = buildDictionary(ir);
        const file = path.join(GEN_DIR, `${c.name}.ts`);
        const text = emitModule(ir, dict, { fileName: `${c.name}.ts` });
        let old = "";
        try {
          old = readFileSync(file, "utf8");
        } catch {
          /* first run */
        }
        if (old !== text) writeFileSync(file, text);
        const mod = await import(pathToFileURL(file).href);
        pairs.set(c.name, { gen: mod[ir.name] as Codec, interp: interpret(ir, dict), ir });
      }),
    );
  });

  for (const c of INLINE) {
    test(c.name, () => {
      const { gen, interp, ir } = pairs.get(c.name)!;
      const kinds = collectKinds(ir);
      for (const k of c.kinds) assert.ok(kinds.has(k), `${c.name}: the IR has no ${k} (has ${[...kinds].join(", ")})`);
      runSuite(gen, interp, c.valid, c.invalid, c.name, 160);
      c.bytes?.(gen, interp);
    });
  }

  test("every IR kind is covered", () => {
    const all = new Set<string>();
    for (const { ir } of pairs.values()) for (const k of collectKinds(ir)) all.add(k);
    for (const k of ["string", "integer", "number", "boolean", "null", "any", "enum", "const", "object", "array", "tuple", "union", "ref"]) assert.ok(all.has(k), `no inline schema uses ${k}`);
  });

  test("validate() reports the first violation with its path", () => {
    const { interp } = pairs.get("Tree")!;
    assert.deepEqual(interp.validate({ name: "a", children: [{ name: 2 }] }), { ok: false, errors: [{ path: "/children/0/name", message: "expected a string, got the number 2" }] });
    const ok = { name: "a" };
    assert.deepEqual(interp.validate(ok), { ok: true, value: ok });
  });

  test("interpret() compiles once; encode is not slower than 10x the generated code", () => {
    const { gen, interp } = pairs.get("Wide")!;
    const value = { req: true, o0: 0, o5: 5, o9: 9, x: true };
    const time = (c: Codec): number => {
      const t = performance.now();
      for (let i = 0; i < 20000; i++) c.encode(value);
      return performance.now() - t;
    };
    time(gen);
    time(interp);
    const g = time(gen);
    const i = time(interp);
    assert.ok(i < g * 10 + 20, `interpreted ${i.toFixed(1)} ms vs generated ${g.toFixed(1)} ms`);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Schema evolution: the committed matrix of test/evolution (v1..v4, test/evolution.test.ts) and an inline one
// that reaches what it does not (definitions, maps, open objects, tuple rest items, recursion, extension
// properties inside extension values, a retired definition). Every writer's bytes (the same on both sides) are
// read by every reader on both sides: same values, key order, kept records ($unknown), defaults and errors;
// what a reader keeps goes back out identically on re-encode.

interface EvoCodec extends Codec {
  decode(bytes: Uint8Array, options?: { unknown?: "keep" | "discard" }): unknown;
}

interface EvoVersion {
  label: string;
  gen: EvoCodec;
  interp: EvoCodec;
  ir: SchemaIR;
  dict: Dictionary;
}

const keptHex = (v: unknown): string[] | undefined => unknownOf(v)?.map(hex);

/** `sameDecode`, with decode options, key order (JSON text) and the kept records compared too. */
function sameEvoDecode(gen: EvoCodec, interp: EvoCodec, bytes: Uint8Array, label: string, options?: { unknown?: "keep" | "discard" }): Outcome {
  const g = outcome(() => gen.decode(bytes, options));
  const i = outcome(() => interp.decode(bytes, options));
  assert.deepStrictEqual(i, g, `${label}: decode outcomes differ`);
  if (g.ok && i.ok) {
    assert.equal(JSON.stringify(i.value), JSON.stringify(g.value), `${label}: key order differs`);
    assert.deepEqual(keptHex(i.value), keptHex(g.value), `${label}: kept records differ`);
  }
  return g;
}

interface EvoInvalid extends Invalid {
  /** Writers (labels) the value is encoded with. */
  writers: string[];
}

/**
 * Every value through every writer (same bytes or same error on both sides), then every writer's bytes through
 * every reader (kept and discarded unknown records, truncations and corruptions), then each reader's value back
 * out (kept records passed through) and into the writer again. Returns how many writer/reader pairs decoded.
 */
function runEvolution(versions: EvoVersion[], values: unknown[], invalid: EvoInvalid[], limit: number): { decoded: number; kept: number } {
  let decoded = 0;
  let kept = 0;
  for (const w of versions) {
    assert.equal(w.interp.name, w.gen.name);
    assert.equal(w.interp.fingerprint, w.gen.fingerprint, `${w.label}: fingerprints differ`);
    values.forEach((value, n) => {
      const lw = `${w.label} value #${n}`;
      const o = sameEncode(w.gen, w.interp, value, lw);
      if (!o.ok) return;
      const bytes = o.value as Uint8Array;
      for (const r of versions) {
        const l = `${lw} read by ${r.label}`;
        const d = sameEvoDecode(r.gen, r.interp, bytes, l);
        sameEvoDecode(r.gen, r.interp, bytes, `${l} (unknown: discard)`, { unknown: "discard" });
        sameOnBadBytes(r.gen, r.interp, bytes, l, limit);
        if (!d.ok) continue;
        decoded++;
        // what the reader keeps goes back out: the interpreter's decoded value through the interpreter, the
        // generated one through the generated codec
        const fromInterp = r.interp.decode(bytes);
        if (keptHex(fromInterp) !== undefined) kept++;
        const again = outcome(() => r.interp.encode(fromInterp));
        const againGen = outcome(() => r.gen.encode(d.value));
        if (again.ok && againGen.ok) assert.equal(hex(again.value as Uint8Array), hex(againGen.value as Uint8Array), `${l}: re-encoded bytes differ`);
        else assert.deepEqual(again, againGen, `${l}: re-encode outcomes differ`);
        if (againGen.ok) sameEvoDecode(w.gen, w.interp, againGen.value as Uint8Array, `${l}, re-encoded, read by ${w.label}`);
      }
    });
  }
  for (const inv of invalid) {
    for (const w of versions.filter((x) => inv.writers.includes(x.label))) {
      const l = `${w.label} invalid: ${inv.label}`;
      const o = sameEncode(w.gen, w.interp, inv.value, l);
      assert.ok(!o.ok, `${l}: encoded without error`);
      if (inv.code !== undefined) assert.equal(o.code, inv.code, `${l}: ${o.message}`);
      if (inv.path !== undefined) assert.equal(o.path, inv.path, `${l}: ${o.message}`);
    }
  }
  return { decoded, kept };
}

// the values of test/evolution.test.ts, and more
const ev1 = { id: "A-1", status: "paid", note: "ring twice", items: [{ sku: "S1", qty: 2 }], payment: { kind: "card", card: "4242" } };
const ev2 = {
  id: "A-2",
  status: "paid",
  note: "leave at door",
  items: [
    { sku: "S1", qty: 1, gift: true },
    { sku: "S2", qty: 3 },
  ],
  payment: { kind: "cash" },
  coupon: { code: "WELCOME", percent: 12.5 },
  channel: "app",
};
const ev3 = { id: "A-3", status: "new", items: [{ sku: "S9", qty: 5, gift: false }], coupon: { code: "X" }, channel: "web" };
const ORDER_VALUES: unknown[] = [
  ev1,
  ev2,
  ev3,
  { id: "", status: "new", items: [] },
  { id: "B", status: "new", items: [{ sku: "a", qty: 1 }, { sku: "b", qty: 2, gift: true }, { sku: "c", qty: 3, gift: false }, { sku: "d", qty: 4 }], channel: "web" },
  { id: "C", status: "shipped", items: [], payment: { kind: "voucher", voucher: "V-1" }, channel: "app" },
  { id: "D", status: "paid", note: "n", items: [{ sku: "x", qty: -7 }], payment: { kind: "card", card: "1" }, channel: "web" },
  { id: "E", status: "new", items: Array.from({ length: 10 }, () => ({ sku: "", qty: 0 })), channel: "web" },
  { id: "F", status: "paid", items: [{ sku: "g", qty: 1, gift: true }], coupon: { code: "ONLY" }, channel: "app" },
];
const ORDER_INVALID: EvoInvalid[] = [
  { label: "extension field of an array item, wrong type", value: { ...ev3, items: [{ sku: "a", qty: 1 }, { sku: "b", qty: 2, gift: "yes" }] }, code: "INVALID_VALUE", path: "/items/1/gift", writers: ["v2", "v3", "v4"] },
  { label: "inside an extension value", value: { ...ev3, coupon: { code: 5 } }, code: "INVALID_VALUE", path: "/coupon/code", writers: ["v2", "v3", "v4"] },
  { label: "unknown key inside an extension value", value: { ...ev3, coupon: { code: "c", extra: 1 } }, code: "INVALID_VALUE", path: "/coupon/extra", writers: ["v2", "v3", "v4"] },
  { label: "required extension property missing", value: { id: "x", status: "new", items: [] }, code: "INVALID_VALUE", path: "/channel", writers: ["v2", "v3", "v4"] },
  { label: "required extension property wrong", value: { ...ev3, channel: "fax" }, code: "INVALID_VALUE", path: "/channel", writers: ["v2", "v3", "v4"] },
  { label: "retired property", value: { ...ev3, note: "x" }, code: "INVALID_VALUE", path: "/note", writers: ["v3", "v4"] },
  { label: "new enum value for v1", value: { ...ev1, status: "shipped" }, code: "INVALID_VALUE", path: "/status", writers: ["v1"] },
];

const EVO_DIR = path.join(ROOT, "test", "evolution");

async function committedVersion(v: string): Promise<EvoVersion> {
  const ir = await loadSchemaFile(path.join(EVO_DIR, "schemas", `${v === "v4" ? "v3" : v}.schema.json`), { cwd: ROOT });
  const file = path.join(EVO_DIR, "dictionaries", `${v}.dictionary.json`);
  const dict = parseDictionary(readFileSync(file, "utf8"), file);
  const mod = await import(pathToFileURL(path.join(EVO_DIR, "gen", `${v}.ts`)).href);
  return { label: v, gen: mod[ir.name] as EvoCodec, interp: interpret(ir, dict) as EvoCodec, ir, dict };
}

// An inline evolution: v1 base; v2 adds properties inside a definition (reached through a property, array items
// and map values), inside extras of an open object, inside tuple rest items and a recursive definition, plus
// an object and an enum with a default at the root; v3 adds a property inside v2's extension object and
// retires a property added in v2 and one whose definition (with a required property, recursive) goes with it.
function evoSchema(level: number): unknown {
  const later = (from: number, props: Record<string, unknown>) => (level >= from ? props : {});
  return {
    title: "Evo",
    type: "object",
    additionalProperties: false,
    required: ["head"],
    properties: {
      head: { $ref: "#/$defs/Part" },
      parts: { type: "array", items: { $ref: "#/$defs/Part" } },
      byName: { type: "object", additionalProperties: { $ref: "#/$defs/Part" } },
      open: {
        type: "object",
        properties: { a: { type: "integer" } },
        additionalProperties: { type: "object", additionalProperties: false, properties: { x: { type: "integer" }, ...later(2, { z: { type: "string" } }) } },
      },
      row: { type: "array", prefixItems: [{ type: "string" }], items: { type: "object", additionalProperties: false, properties: { y: { type: "integer" }, ...later(2, { z: { type: "boolean" } }) } } },
      tree: { $ref: "#/$defs/Node" },
      ...(level < 3 ? { old: { $ref: "#/$defs/Gone" } } : {}),
      ...later(2, {
        meta: { type: "object", additionalProperties: false, required: ["k"], properties: { k: { type: "string" }, ...later(3, { more: { type: "array", items: { type: "integer" } } }) } },
        mode: { enum: ["a", "b"], default: "b" },
        prio: { type: "integer", default: 3 },
      }),
      ...(level === 2 ? { temp: { type: "string" } } : {}),
    },
    $defs: {
      Part: { type: "object", additionalProperties: false, required: ["n"], properties: { n: { type: "integer" }, ...later(2, { tag: { type: "string" }, w: { type: "number", default: 1.5 } }) } },
      Node: { type: "object", additionalProperties: false, properties: { v: { type: "integer" }, kids: { type: "array", items: { $ref: "#/$defs/Node" } }, ...later(2, { label: { type: "string" } }) } },
      ...(level < 3 ? { Gone: { type: "object", additionalProperties: false, required: ["g"], properties: { g: { type: "string" }, h: { type: "array", items: { $ref: "#/$defs/Gone" } } } } } : {}),
    },
  };
}

const EVO_VALUES: unknown[] = [
  { head: { n: 0 } },
  {
    head: { n: 1 },
    parts: [{ n: 2 }, { n: 3 }],
    byName: { a: { n: 4 }, "x/y~": { n: 5 } },
    open: { a: 1, e1: { x: 1 }, e2: {} },
    row: ["r", { y: 1 }, {}],
    tree: { v: 1, kids: [{ v: 2, kids: [{}] }] },
    old: { g: "x", h: [{ g: "y", h: [] }] },
  },
  {
    head: { n: 1, tag: "h", w: 2 },
    parts: [{ n: 2 }, { n: 3, tag: "p" }, { n: 4, w: 0.25 }],
    byName: { a: { n: 4, w: 0.5 }, "x/y~": { n: 5, tag: "t" } },
    open: { a: 1, e1: { x: 1, z: "z" }, "e/2": { z: "q" } },
    row: ["r", { y: 1, z: true }, { z: false }, {}],
    tree: { v: 1, label: "root", kids: [{ v: 2, kids: [{ label: "leaf" }, { v: 3 }] }] },
    old: { g: "x" },
    meta: { k: "k" },
    mode: "a",
    prio: 0,
    temp: "t",
  },
  { head: { n: 9, tag: "" }, mode: "b", meta: { k: "" }, temp: "" },
  {
    head: { n: 1, tag: "h" },
    parts: [{ n: 1, w: 3 }],
    meta: { k: "k", more: [1, 2, 3] },
    tree: { kids: [{ label: "a", kids: [{ label: "b" }] }] },
    byName: { "~": { n: 1, tag: "x" } },
    open: { z: { z: "deep" } },
    row: ["only"],
  },
  { head: { n: 2 }, meta: { k: "m", more: [] }, row: ["r", { z: true }] },
];
const EVO_INVALID: EvoInvalid[] = [
  { label: "extension property in array items of a definition", value: { head: { n: 1 }, parts: [{ n: 1 }, { n: 2, tag: 5 }] }, code: "INVALID_VALUE", path: "/parts/1/tag", writers: ["v2", "v3"] },
  { label: "extension property in map values", value: { head: { n: 1 }, byName: { "x/y~": { n: 1, w: "no" } } }, code: "INVALID_VALUE", path: "/byName/x~1y~0/w", writers: ["v2", "v3"] },
  { label: "extension property in extras", value: { head: { n: 1 }, open: { "e/2": { z: 1 } } }, code: "INVALID_VALUE", path: "/open/e~12/z", writers: ["v2", "v3"] },
  { label: "extension property in tuple rest items", value: { head: { n: 1 }, row: ["r", {}, { z: "t" }] }, code: "INVALID_VALUE", path: "/row/2/z", writers: ["v2", "v3"] },
  { label: "extension property deep in a recursive definition", value: { head: { n: 1 }, tree: { kids: [{ kids: [{ label: 1 }] }] } }, code: "INVALID_VALUE", path: "/tree/kids/0/kids/0/label", writers: ["v2", "v3"] },
  { label: "inside an extension value's extension value", value: { head: { n: 1 }, meta: { k: "k", more: [1, "x"] } }, code: "INVALID_VALUE", path: "/meta/more/1", writers: ["v3"] },
  { label: "required property of an extension value", value: { head: { n: 1 }, meta: {} }, code: "INVALID_VALUE", path: "/meta/k", writers: ["v2", "v3"] },
  { label: "retired property", value: { head: { n: 1 }, old: { g: "x" } }, code: "INVALID_VALUE", path: "/old", writers: ["v3"] },
];

describe("interpreted codec = generated module: schema evolution", () => {
  const order: EvoVersion[] = [];
  const evo: EvoVersion[] = [];
  before(async () => {
    await initHash();
    for (const v of ["v1", "v2", "v3", "v4"]) order.push(await committedVersion(v));
    const dir = path.join(GEN_DIR, "evolution");
    mkdirSync(dir, { recursive: true });
    let previous: Dictionary | undefined;
    for (const level of [1, 2, 3]) {
      const label = `v${level}`;
      const ir = schemaToIR(evoSchema(level), { source: `test/evo-${label}.schema.json`, name: "Evo" });
      const result = evolveDictionary(ir, previous);
      assert.deepEqual(result.findings.filter((f) => f.breaking), [], `${label}: breaking findings`);
      const dict = (previous = result.dictionary);
      const file = path.join(dir, `${label}.ts`);
      const text = emitModule(applyWireLayout(ir, dict), dict, { fileName: `${label}.ts` });
      let old = "";
      try {
        old = readFileSync(file, "utf8");
      } catch {
        /* first run */
      }
      if (old !== text) writeFileSync(file, text);
      const mod = await import(pathToFileURL(file).href);
      evo.push({ label, gen: mod[ir.name] as EvoCodec, interp: interpret(ir, dict) as EvoCodec, ir, dict });
    }
  });

  test("test/evolution v1..v4: every writer/reader pair", () => {
    const { decoded, kept } = runEvolution(order, ORDER_VALUES, ORDER_INVALID, 24);
    assert.ok(decoded >= 40, `only ${decoded} writer/reader pairs decoded`);
    assert.ok(kept >= 8, `only ${kept} decodes kept unknown records`);
  });

  test("test/evolution: what the readers see (test/evolution.test.ts), on the interpreter", () => {
    const [v1, v2, v3, v4] = order.map((x) => x.interp);
    assert.deepStrictEqual(v2!.decode(v1!.encode(ev1)), { ...ev1, channel: "web" }, "a default for data older than the property");
    assert.deepStrictEqual(v3!.decode(v1!.encode(ev1)), { id: "A-1", status: "paid", items: [{ sku: "S1", qty: 2 }], payment: { kind: "card", card: "4242" }, channel: "web" }, "a retired slot skipped");
    assert.deepStrictEqual(v1!.decode(v3!.encode(ev3)), { id: "A-3", status: "new", items: [{ sku: "S9", qty: 5 }] }, "extension records an older reader does not know");
    // unknown records kept through a decode/encode round trip, also inside array items
    const value = { ...ev2, items: [{ sku: "a", qty: 1 }, { sku: "b", qty: 2, gift: true }, { sku: "c", qty: 3, gift: false }] };
    const seenByV1 = v1!.decode(v2!.encode(value));
    assert.ok(Array.isArray((seenByV1 as { $unknown?: unknown }).$unknown), "v1 keeps the records it does not know");
    assert.equal(Object.keys(seenByV1 as object).includes("$unknown"), false, "kept records are not an enumerable key");
    assert.deepStrictEqual(v2!.decode(v1!.encode(seenByV1)), value);
    const { note: _note, ...withoutNote } = value;
    assert.deepStrictEqual(v3!.decode(v1!.encode(seenByV1)), withoutNote, "v3 drops the retired slot, applies the records v1 kept");
    const discarded = v1!.decode(v2!.encode(value), { unknown: "discard" });
    assert.equal(unknownOf(discarded), undefined);
    const { coupon: _coupon, ...withoutCoupon } = value;
    assert.deepStrictEqual(v2!.decode(v1!.encode(discarded)), { ...withoutCoupon, items: value.items.map(({ sku, qty }) => ({ sku, qty })), channel: "web" });
    // a writer at channel's level must send its record: a message that claims level 1 but lacks it is refused
    const body = v1!.encode(ev1);
    const claimed = new Uint8Array([...body.subarray(0, 9), 1, ...body.subarray(9), 0]);
    claimed[6]! |= 0x02; // EXTENSIONS: the level (1) after the fingerprint, an empty extension section at the end
    for (const x of order.slice(1, 3)) {
      const o = sameEvoDecode(x.gen, x.interp, claimed, `${x.label}: level 1 without the channel record`);
      assert.ok(!o.ok && o.code === "INVALID_ENCODING" && o.path === "/channel", JSON.stringify(o));
    }
    // rebased v4 and the others refuse each other's messages
    assert.throws(() => v1!.decode(v4!.encode(ev3)), { name: "ToonError", code: "FINGERPRINT_MISMATCH" });
    assert.throws(() => v4!.decode(v3!.encode(ev3)), { name: "ToonError", code: "FINGERPRINT_MISMATCH" });
  });

  test("test/evolution: an IR with the wire layout already applied, and the CLI's dictionary, give the same codec", () => {
    for (const x of order) {
      const laid = interpret(applyWireLayout(x.ir, x.dict), x.dict);
      const cli = interpret(x.ir, buildDictionary(x.ir, x.dict)); // generator/cli/codec.ts: the committed dictionary, evolved to the schema
      for (const [n, value] of ORDER_VALUES.entries()) {
        const want = outcome(() => x.gen.encode(value));
        for (const [what, c] of [["laid out", laid], ["cli", cli]] as const) {
          const got = outcome(() => c.encode(value));
          if (want.ok && got.ok) assert.equal(hex(got.value as Uint8Array), hex(want.value as Uint8Array), `${x.label} #${n} ${what}`);
          else assert.deepEqual(got, want, `${x.label} #${n} ${what}`);
        }
      }
    }
  });

  test("interpret() registers its dictionary: a mismatch names it", () => {
    const ir = schemaToIR({ title: "EvolutionProbe", type: "object", properties: { probe: { type: "string" } }, required: ["probe"], additionalProperties: false }, { source: "test/probe.schema.json", name: "EvolutionProbe" });
    const probe = interpret(ir, buildDictionary(ir));
    const bytes = probe.encode({ probe: "p" });
    assert.throws(() => order[0]!.interp.decode(bytes), (e: unknown) => e instanceof ToonError && e.code === "FINGERPRINT_MISMATCH" && e.message.includes("(EvolutionProbe)"));
  });

  test("inline evolution v1..v3 (definitions, maps, extras, tuple rest, recursion, nested extensions, a retired definition)", () => {
    const { decoded, kept } = runEvolution(evo, EVO_VALUES, EVO_INVALID, 24);
    assert.ok(decoded >= 25, `only ${decoded} writer/reader pairs decoded`);
    assert.ok(kept >= 5, `only ${kept} decodes kept unknown records`);
    // the interpreter alone: v3 data through v1 and back keeps everything, nested records included
    const [v1, v2, v3] = evo.map((x) => x.interp);
    const value = EVO_VALUES[4] as Record<string, any>;
    assert.deepStrictEqual(v3!.decode(v2!.encode(v2!.decode(v3!.encode(value)))), value);
    // (v1 re-encodes at its own level, 0: properties with a default that v3 left out get it)
    const withDefaults = { ...value, head: { ...value.head, w: 1.5 }, byName: { "~": { ...value.byName["~"], w: 1.5 } }, mode: "b", prio: 3 };
    assert.deepStrictEqual(v3!.decode(v1!.encode(v1!.decode(v3!.encode(value)))), withDefaults);
    // defaults for extension properties newer than the writer, inside definitions reached through loops
    assert.deepStrictEqual(v2!.decode(v1!.encode({ head: { n: 1 }, parts: [{ n: 2 }], byName: { k: { n: 3 } } })), { head: { n: 1, w: 1.5 }, parts: [{ n: 2, w: 1.5 }], byName: { k: { n: 3, w: 1.5 } }, mode: "b", prio: 3 });
    // a retired definition's data from an older writer is skipped
    assert.deepStrictEqual(v3!.decode(v1!.encode({ head: { n: 1 }, old: { g: "x", h: [{ g: "y" }] } })), { head: { n: 1, w: 1.5 }, mode: "b", prio: 3 });
    // a property added in v2 and retired in v3: v3 drops its records, v1 keeps them
    const temp = v2!.encode({ head: { n: 1 }, temp: "t" });
    assert.equal(unknownOf(v3!.decode(temp)), undefined);
    assert.equal(unknownOf(v1!.decode(temp))?.length, 1);
  });
});
