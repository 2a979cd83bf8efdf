// Round trip (deep equality) of every example's data through its committed generated codec, and of every
// corpus schema/instance pair (test/corpus/index.ts: real schemas, instances that validate with ajv) through
// a codec generated into test/.gen/corpus/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { baseName, generate } from "../generator/pipeline.ts";
import { CORPUS_FAMILIES, corpusRoot, schemaInstancePairs, type CorpusFamily } from "./corpus/index.ts";
import { generateCorpusModules, instanceLabel, type CorpusModule } from "./support/corpus-gen.ts";
import { emitTo, exampleProjects, importCodec, REPO, suiteDir, type Codec } from "./support/gen.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { schemaToIR } from "../generator/load/index.ts";

/**
 * Corpus schemas and instances the generator cannot support yet, by case id (the whole schema) or
 * `<case id> @ <instance>` (one instance), with the reason. Everything else must round-trip; an entry here
 * that starts passing fails the test, so the list only ever shrinks.
 */
export const KNOWN_UNSUPPORTED: Readonly<Record<string, string>> = {};

function keyFor(id: string, label?: string): string {
  return label === undefined ? id : `${id} @ ${label}`;
}

function show(v: unknown): string {
  const s = JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x));
  return s === undefined ? String(v) : s.length > 300 ? s.slice(0, 297) + "..." : s;
}

/** The first path where two JSON-like values differ, for messages. */
function firstDiff(a: unknown, b: unknown, at = ""): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return `${at || "/"}: ${show(a)} vs ${show(b)}`;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const d = firstDiff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}/${k}`);
    if (d !== undefined) return d;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${at || "/"}: prototypes differ`;
  return undefined;
}

/** Encode, decode and compare; returns a failure message or undefined. */
function roundTrip(codec: Codec, value: unknown): string | undefined {
  let bytes: Uint8Array;
  try {
    bytes = codec.encode(value);
  } catch (e) {
    return `encode threw ${(e as Error).message}`;
  }
  let back: unknown;
  try {
    back = codec.decode(bytes);
  } catch (e) {
    return `decode threw ${(e as Error).message}`;
  }
  if (!isDeepStrictEqual(back, value)) return `decoded value differs at ${firstDiff(back, value) ?? "?"}`;
  // encoding is a function of the value: the decoded value encodes to the very same bytes
  const again = codec.encode(back);
  if (Buffer.compare(again, bytes) !== 0) return "re-encoding the decoded value gives different bytes";
  return undefined;
}

// -------------------------------------------------------------------------------------------- examples

test("round trip: every example data file through its committed codec", async () => {
  let checked = 0;
  for (const p of exampleProjects()) {
    const dataDir = path.join(p.dir, "data");
    if (!existsSync(dataDir)) continue;
    const r = await generate(p.config, { cwd: p.dir, dryRun: true });
    for (const file of readdirSync(dataDir).filter((f) => f.endsWith(".json")).sort()) {
      const base = baseName(file);
      const schema = r.schemas.find((s) => baseName(s.input) === base);
      if (schema === undefined) {
        // e.g. examples/tools/data/calls.json: tool calls, round-tripped by the tool-set suites
        console.log(`# examples/${p.name}/data/${file}: no schema named ${base} in the example; not a codec's data file`);
        continue;
      }
      const codec = await importCodec(schema.modulePath, schema.ir.name);
      const value = JSON.parse(readFileSync(path.join(dataDir, file), "utf8"));
      const v = codec.validate(value);
      assert.ok(v.ok, `examples/${p.name}/data/${file} does not validate: ${JSON.stringify(!v.ok && v.errors)}`);
      const failure = roundTrip(codec, value);
      assert.equal(failure, undefined, `examples/${p.name}/data/${file}: ${failure}`);
      const bytes = codec.encode(value);
      const json = Buffer.byteLength(JSON.stringify(value));
      console.log(`# ${p.name}/${file}: ${json} B compact JSON -> ${bytes.length} B TOON`);
      assert.ok(bytes.length < json, `${p.name}/${file}: TOON (${bytes.length} B) is not smaller than compact JSON (${json} B)`);
      checked++;
    }
  }
  assert.ok(checked >= 4, `only ${checked} example data files found`);
});

// -------------------------------------------------------------------------------------------- uuid

// No corpus schema has `format: "uuid"` (nor a UUID-valued string) today, so the corpus round trips below do not
// reach it: this schema puts uuid positions where corpus schemas have ids (required, optional, items, map
// values, nullable unions, a definition that recurses) and round-trips hand-picked and random values.
const EVENTS = {
  title: "Events",
  type: "array",
  items: { $ref: "#/$defs/event" },
  $defs: {
    event: {
      type: "object",
      required: ["id", "kind"],
      additionalProperties: false,
      properties: {
        id: { type: "string", format: "uuid" },
        kind: { enum: ["created", "updated", "deleted"] },
        parent: { anyOf: [{ type: "string", format: "uuid" }, { type: "null" }] },
        refs: { type: "array", items: { type: "string", format: "uuid" } },
        owners: { type: "object", additionalProperties: { type: "string", format: "uuid" } },
        label: { type: "string" },
        children: { type: "array", items: { $ref: "#/$defs/event" } },
      },
    },
  },
};

test("round trip: uuid positions (any case in, lower case out, 16 bytes each)", async () => {
  const ir = schemaToIR(EVENTS, { source: "events.schema.json" });
  const e = await emitTo(ir, suiteDir("roundtrip-uuid"), "events");
  const codec = await importCodec(e.file, ir.name);
  const a = "0f8fad5b-d9cb-469f-a165-70867728950e";
  const b = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
  const hand = [
    [],
    [{ id: a, kind: "created" }],
    [{ id: a, kind: "updated", parent: null, refs: [a, b, a], owners: { alice: b }, label: b, children: [{ id: b, kind: "deleted", parent: a }] }],
    [{ id: "00000000-0000-0000-0000-000000000000", kind: "created", owners: {} }, { id: "ffffffff-ffff-ffff-ffff-ffffffffffff", kind: "created" }],
  ];
  for (const v of hand) assert.equal(roundTrip(codec, v), undefined, JSON.stringify(v));
  for (let seed = 1; seed <= 200; seed++) {
    const v = arbitrary(ir, seed);
    assert.equal(roundTrip(codec, v), undefined, `seed ${seed}: ${show(v)}`);
  }
  // upper case decodes to the canonical lower case, which encodes to the same bytes
  const upper = [{ id: a.toUpperCase(), kind: "created", refs: [b.toUpperCase()] }];
  const bytes = codec.encode(upper);
  assert.deepStrictEqual(codec.decode(bytes), [{ id: a, kind: "created", refs: [b] }]);
  assert.equal(Buffer.compare(codec.encode(codec.decode(bytes)), bytes), 0);
  // each UUID is its 16 bytes: one more of them costs 16 bytes, not the 37 of a 36-character string
  const one = codec.encode([{ id: a, kind: "created", refs: [b] }]).length;
  const two = codec.encode([{ id: a, kind: "created", refs: [b, a] }]).length;
  assert.equal(two - one, 16);
  assert.equal(codec.validate([{ id: "x", kind: "created" }]).ok, false);
});

// -------------------------------------------------------------------------------------------- corpus

const root = corpusRoot();
const skip = root ? false : "corpus not found at ../shared/corpus (skipping corpus round trips)";
if (!root) console.log(`# ${skip}`);

test("round trip: known-unsupported corpus cases (printed)", () => {
  console.log(`# KNOWN_UNSUPPORTED: ${Object.keys(KNOWN_UNSUPPORTED).length} entries`);
  for (const [id, reason] of Object.entries(KNOWN_UNSUPPORTED)) console.log(`#   ${id}: ${reason}`);
  for (const [id, reason] of Object.entries(KNOWN_UNSUPPORTED)) assert.ok(reason.trim().length > 20, `${id}: give a precise reason`);
});

let modules: Promise<CorpusModule[]> | undefined;
function corpusModules(): Promise<CorpusModule[]> {
  modules ??= generateCorpusModules(schemaInstancePairs(), suiteDir("corpus"));
  return modules;
}

for (const family of CORPUS_FAMILIES) {
  test(`round trip: corpus ${family}`, { skip }, async () => {
    const all = await corpusModules();
    const mine = all.filter((m) => m.case.family === (family as CorpusFamily));
    assert.ok(mine.length > 0, `no corpus cases for ${family}`);
    const failures: string[] = [];
    const stale: string[] = [];
    let passed = 0;
    let expected = 0;
    for (const m of mine) {
      const id = m.case.id;
      const schemaKnown = KNOWN_UNSUPPORTED[id] !== undefined;
      if (m.error !== undefined) {
        if (schemaKnown) expected++;
        else failures.push(`${id}: generation failed: ${m.error.code ?? ""} ${m.error.message}`);
        continue;
      }
      let codec: Codec;
      try {
        codec = await importCodec(m.emitted!.file, m.emitted!.ir.name);
      } catch (e) {
        failures.push(`${id}: generated module ${path.relative(REPO, m.emitted!.file)} does not load: ${(e as Error).message}`);
        continue;
      }
      let caseFailed = false;
      for (const inst of m.case.instances) {
        const label = instanceLabel(inst);
        const known = schemaKnown || KNOWN_UNSUPPORTED[keyFor(id, label)] !== undefined;
        const failure = roundTrip(codec, inst.value);
        if (failure === undefined) {
          passed++;
          if (KNOWN_UNSUPPORTED[keyFor(id, label)] !== undefined) stale.push(keyFor(id, label));
        } else if (known) {
          expected++;
          caseFailed = true;
        } else failures.push(`${keyFor(id, label)}: ${failure}`);
      }
      if (schemaKnown && !caseFailed) stale.push(id);
    }
    console.log(`# ${family}: ${mine.length} schemas, ${passed} instances round-trip, ${expected} known unsupported`);
    assert.deepEqual(stale, [], `these KNOWN_UNSUPPORTED entries pass now: remove them`);
    assert.deepEqual(failures, [], `${failures.length} corpus round trips failed`);
  });
}

test("round trip: every KNOWN_UNSUPPORTED entry names a corpus case", { skip }, () => {
  const ids = new Set(schemaInstancePairs().map((c) => c.id));
  for (const key of Object.keys(KNOWN_UNSUPPORTED)) {
    const id = key.split(" @ ")[0]!;
    assert.ok(ids.has(id), `KNOWN_UNSUPPORTED names ${JSON.stringify(id)}, which is not a corpus case`);
  }
});
