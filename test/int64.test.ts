// `"int64": "bigint"` (toon.config.json, `--int64 bigint`, generate()): int64 integers decode as bigints always,
// beside the default `"auto"` (a number when safe, a bigint beyond 2^53). Both modes give the same bytes,
// dictionary and fingerprint; the generated module (AOT) and the engine (descriptor-driven) agree, on binary and
// on text and in streams; a default-value table and a union branch take the same path; the generated types say
// `bigint`.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { generate, type GenerateConfig, type GenerateResult } from "../generator/pipeline.ts";
import { checkConfig } from "../generator/cli/config.ts";
import { runGenerate } from "../generator/cli/generate.ts";
import { withInt64Mode } from "../generator/ir/int64.ts";
import { interpret } from "../generator/interpret/index.ts";
import { describeCodec } from "../generator/emit/descriptor.ts";
import { textCheckOf } from "../runtime/codec/engine/text-check.ts";
import { fromTextWith } from "../runtime/text/check.ts";
import { catchToon } from "./support/toon-error.ts";
import { suiteDir } from "./support/gen.ts";

const SCHEMA = {
  title: "Ledger",
  type: "object",
  required: ["id", "ids", "count"],
  additionalProperties: false,
  properties: {
    id: { type: "integer", format: "int64" },
    ids: { type: "array", items: { type: "integer", format: "uint64" } },
    count: { type: "integer" },
    code: { type: "integer", "x-toon": "int64" }, // default-value table from the samples
    either: { oneOf: [{ type: "integer", format: "int64" }, { type: "string" }] },
    balances: { type: "object", additionalProperties: { type: "integer", format: "int64" } },
    pair: { type: "array", prefixItems: [{ type: "integer", format: "int64" }, { type: "boolean" }], items: false },
    decimal: { type: "string", format: "int64" }, // an int64 *string*: stays a string
  },
};

const BIG = 2n ** 60n + 7n;
const VALUES = [
  { id: 5, ids: [0, 1, 2 ** 40], count: 3 },
  { id: BIG, ids: [BIG, 18446744073709551615n], count: -1, code: 200, either: 9, balances: { a: 1, b: -BIG }, pair: [7, true], decimal: "12345678901234567890" },
  { id: -9007199254740991, ids: [], count: 0, code: 404, either: "x", pair: [BIG, false] },
];

/** `v` with every int64 integer (everything but `count` and `decimal`) as a bigint: what bigint mode decodes. */
function asBigints(v: (typeof VALUES)[number]): unknown {
  const big = (x: unknown) => (typeof x === "number" ? BigInt(x) : x);
  const out: Record<string, unknown> = { ...v, id: big(v.id), ids: v.ids.map(big) };
  if (v.code !== undefined) out.code = big(v.code);
  if (v.either !== undefined) out.either = big(v.either);
  if (v.balances !== undefined) out.balances = Object.fromEntries(Object.entries(v.balances).map(([k, x]) => [k, big(x)]));
  if (v.pair !== undefined) out.pair = [big(v.pair[0]), v.pair[1]];
  return out;
}

/** What auto mode decodes: bigints only beyond 2^53. */
function asAuto(v: (typeof VALUES)[number]): unknown {
  return JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" && x <= BigInt(Number.MAX_SAFE_INTEGER) && x >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : typeof x === "bigint" ? `${x}n` : x)), (_k, x) =>
    typeof x === "string" && /^-?\d+n$/.test(x) ? BigInt(x.slice(0, -1)) : x,
  );
}

interface Run {
  result: GenerateResult;
  module: string;
  codec: any;
}
const runs: Record<"auto" | "bigint", Run> = {} as never;
const dir = suiteDir("int64");

before(async () => {
  mkdirSync(path.join(dir, "samples"), { recursive: true });
  writeFileSync(path.join(dir, "ledger.schema.json"), JSON.stringify(SCHEMA));
  const samples = Array.from({ length: 40 }, (_, i) => ({ id: i, ids: [i], count: i, code: i % 3 === 0 ? 404 : 200 }));
  writeFileSync(path.join(dir, "samples", "ledger.json"), JSON.stringify(samples[0]));
  for (let i = 1; i < samples.length; i++) writeFileSync(path.join(dir, "samples", `ledger-${i}.json`), JSON.stringify(samples[i]));
  for (const mode of ["auto", "bigint"] as const) {
    const config: GenerateConfig = { inputs: ["ledger.schema.json"], outDir: `gen-${mode}`, dictionaryDir: `dict-${mode}`, samples: ["samples/*.json"] };
    if (mode === "bigint") config.int64 = "bigint";
    const result = await generate(config, { cwd: dir });
    const module = path.join(dir, `gen-${mode}`, "ledger.ts");
    const codec = ((await import(pathToFileURL(module).href)) as Record<string, unknown>).Ledger;
    runs[mode] = { result, module, codec };
  }
});

test("int64: both modes give the same dictionary, fingerprint and bytes; only the decoded type differs", () => {
  const read = (mode: string) => readFileSync(path.join(dir, `dict-${mode}`, "ledger.dictionary.json"), "utf8");
  assert.equal(read("bigint"), read("auto"));
  assert.ok((runs.auto.result.schemas[0]!.dictionary.defaults?.tables.length ?? 0) > 0, "the samples give a default-value table");
  assert.equal(runs.bigint.codec.fingerprint, runs.auto.codec.fingerprint);
  for (const v of VALUES) {
    const bytes = runs.auto.codec.encode(v);
    assert.deepEqual(runs.bigint.codec.encode(v), bytes, "encoders take numbers and bigints alike");
    assert.deepEqual(runs.bigint.codec.encode(asBigints(v)), bytes);
    assert.deepStrictEqual(runs.auto.codec.decode(bytes), asAuto(v));
    assert.deepStrictEqual(runs.bigint.codec.decode(bytes), asBigints(v));
  }
});

test("int64: the generated types say bigint in bigint mode and number | bigint in auto mode", () => {
  const auto = readFileSync(runs.auto.module, "utf8");
  const big = readFileSync(runs.bigint.module, "utf8");
  assert.match(auto, /\bid: number \| bigint;/);
  assert.match(big, /\bid: bigint;/);
  assert.match(big, /\bids: bigint\[\];/);
  assert.match(big, /\bcount: number;/);
  assert.match(big, /\bdecimal\?: string \| undefined;/);
  assert.match(big, /\bcode\?: bigint \| undefined;/);
  assert.doesNotMatch(big, /number \| bigint/);
});

test("int64: bigint mode in text, generated and interpreted alike", () => {
  const { ir, dictionary } = runs.bigint.result.schemas[0]!;
  const check = textCheckOf(describeCodec(withInt64Mode(ir, "bigint"), dictionary));
  const autoCheck = textCheckOf(describeCodec(ir, dictionary));
  for (const v of VALUES) {
    const text = runs.bigint.codec.toText(v);
    assert.equal(runs.auto.codec.toText(asBigints(v)), text, "toText writes a bigint and a number the same");
    assert.deepStrictEqual(runs.bigint.codec.fromText(text), asBigints(v), text);
    assert.deepStrictEqual(fromTextWith(text, undefined, check), asBigints(v), `interpreted: ${text}`);
    assert.deepStrictEqual(runs.auto.codec.fromText(text), asAuto(v), text);
    assert.deepStrictEqual(fromTextWith(text, undefined, autoCheck), asAuto(v), `interpreted auto: ${text}`);
  }
  // what a model writes: an integer token; a fraction is still refused with the int64 guard's message
  assert.deepStrictEqual(runs.bigint.codec.fromText("id: 12\nids[0]:\ncount: 1").id, 12n);
  const bad = catchToon(() => runs.bigint.codec.fromText("id: 1.5\nids[0]:\ncount: 1"));
  const same = catchToon(() => runs.auto.codec.fromText("id: 1.5\nids[0]:\ncount: 1"));
  assert.equal(bad.code, same.code);
  assert.equal(bad.path, "/id");
  assert.equal(bad.message, same.message);
});

test("int64: bigint mode in the engine (interpret) decodes the generated module's bytes the same", () => {
  const { ir, dictionary } = runs.bigint.result.schemas[0]!;
  const engine = interpret(withInt64Mode(ir, "bigint"), dictionary);
  const autoEngine = interpret(ir, dictionary);
  assert.equal(engine.fingerprint, runs.bigint.codec.fingerprint);
  for (const v of VALUES) {
    const bytes = runs.bigint.codec.encode(v);
    assert.deepEqual(engine.encode(asBigints(v)), bytes);
    assert.deepStrictEqual(engine.decode(bytes), asBigints(v));
    assert.deepStrictEqual(autoEngine.decode(bytes), asAuto(v));
  }
  // the descriptor carries the mode (streams and the CLI run from it); the auto descriptor does not
  assert.match(JSON.stringify(describeCodec(withInt64Mode(ir, "bigint"), dictionary)), /"int64":true,"bigint":true/);
  assert.doesNotMatch(JSON.stringify(describeCodec(ir, dictionary)), /"bigint"/);
});

test("int64: streams decode bigints in bigint mode, from the descriptor the module embeds", () => {
  for (const v of VALUES) {
    for (const mode of ["auto", "bigint"] as const) {
      const codec = runs[mode].codec;
      const d = codec.stream.decoder();
      const events = d.push(codec.stream.encode(v));
      assert.deepStrictEqual(d.end(), mode === "bigint" ? asBigints(v) : asAuto(v), mode);
      const id = events.find((e: { pointer?: string }) => e.pointer === "/id");
      assert.equal(typeof id.value, mode === "bigint" || typeof v.id === "bigint" ? "bigint" : "number", `${mode}: the /id event`);
    }
  }
});

test("int64: withInt64Mode copies, and \"auto\" is the loaded IR itself", () => {
  const { ir } = runs.auto.result.schemas[0]!;
  assert.equal(withInt64Mode(ir, "auto"), ir);
  assert.equal(withInt64Mode(ir, undefined), ir);
  const before = JSON.stringify(ir);
  const big = withInt64Mode(ir, "bigint");
  assert.equal(JSON.stringify(ir), before, "the input IR is not changed");
  assert.notEqual(JSON.stringify(big), before);
});

test("int64: the config key and the --int64 flag take auto or bigint, and name the mistake otherwise", async () => {
  const base = { inputs: ["ledger.schema.json"], outDir: "gen" };
  assert.equal(checkConfig({ ...base, int64: "bigint" }, "toon.config.json").int64, "bigint");
  assert.equal(checkConfig({ ...base, int64: "auto" }, "toon.config.json").int64, "auto");
  assert.equal(checkConfig(base, "toon.config.json").int64, undefined);
  const e = catchToon(() => checkConfig({ ...base, int64: "number" }, "toon.config.json"));
  assert.equal(e.code, "CONFIG_ERROR");
  assert.equal(e.path, "/int64");
  assert.match(e.message, /"int64" must be "auto" or "bigint"/);
  const flag = await catchToonAsync(() => runGenerate(["--int64", "big"]));
  assert.equal(flag.code, "CONFIG_ERROR");
  assert.match(flag.message, /--int64 must be auto or bigint, not "big"/);
});

async function catchToonAsync(f: () => Promise<unknown>) {
  try {
    await f();
  } catch (e) {
    return catchToon(() => {
      throw e;
    });
  }
  assert.fail("expected a ToonError");
}
