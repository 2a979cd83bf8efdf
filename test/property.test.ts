// Property tests: seeded random values (test/support/arbitrary.ts) round-trip through the example codecs and
// through inline schemas covering tuples, maps, unions, recursion and int64; every truncation of every encoded
// example fails with ToonError TRUNCATED; random byte corruption either fails with a ToonError or decodes to a
// value the codec's own `validate` accepts, and never hangs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { baseName, generate } from "../generator/pipeline.ts";
import type { SchemaIR } from "../generator/ir/types.ts";
import { ToonError } from "../runtime/index.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { Rng } from "./support/rng.ts";
import { compileSchema, exampleProjects, hex, importCodec, suiteDir, type Codec } from "./support/gen.ts";
import { INLINE_SCHEMAS } from "./support/schemas.ts";

const VALUES_PER_SCHEMA = 200;

function show(v: unknown): string {
  const s = JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x));
  return s === undefined ? String(v) : s.length > 400 ? s.slice(0, 397) + "..." : s;
}

interface Subject {
  label: string;
  ir: SchemaIR;
  codec: Codec;
  /** Encoded sample messages (example data, or a few random values): truncated and corrupted below. */
  samples: Uint8Array[];
  /** How many random values to round-trip (fewer for the very wide schema, whose values are large). */
  values: number;
}

// -------------------------------------------------------------------------------------------- subjects

let subjectsPromise: Promise<Subject[]> | undefined;

async function loadSubjects(): Promise<Subject[]> {
  const out: Subject[] = [];
  for (const p of exampleProjects()) {
    const dataDir = path.join(p.dir, "data");
    const r = await generate(p.config, { cwd: p.dir, dryRun: true });
    for (const s of r.schemas) {
      // only plain schema inputs with their own module (tool sets are covered by their own suites)
      if (!s.input.endsWith(".json")) continue;
      const codec = await importCodec(s.modulePath, s.ir.name);
      const samples: Uint8Array[] = [];
      const data = path.join(dataDir, `${baseName(s.input)}.json`);
      if (existsSync(dataDir) && readdirSync(dataDir).includes(path.basename(data))) {
        samples.push(codec.encode(JSON.parse(readFileSync(data, "utf8"))));
      }
      out.push({ label: `${p.name}/${s.ir.name}`, ir: s.ir, codec, samples, values: VALUES_PER_SCHEMA });
    }
  }
  const dir = suiteDir("property");
  for (const [key, schema] of Object.entries(INLINE_SCHEMAS)) {
    const c = await compileSchema(schema, dir, key);
    // small samples: every prefix of each is decoded, which is quadratic in its size
    const samples = [1, 2, 3, 4, 5]
      .map((seed) => c.codec.encode(arbitrary(c.ir, seed * 7919, { maxItems: 3, maxDepth: 4 })))
      .filter((b) => b.length <= 3000)
      .slice(0, 3);
    out.push({ label: `inline/${key}`, ir: c.ir, codec: c.codec, samples, values: key === "wide" ? 25 : VALUES_PER_SCHEMA });
  }
  return out;
}

function subjects(): Promise<Subject[]> {
  subjectsPromise ??= loadSubjects();
  return subjectsPromise;
}

// -------------------------------------------------------------------------------------------- round trips

test("property: the arbitrary generator is deterministic per seed", async () => {
  for (const s of await subjects()) {
    for (const seed of [1, 99]) {
      assert.ok(isDeepStrictEqual(arbitrary(s.ir, seed), arbitrary(s.ir, seed)), `${s.label}: seed ${seed} gives two different values`);
    }
    const distinct = new Set(Array.from({ length: 20 }, (_, i) => show(arbitrary(s.ir, i))));
    assert.ok(distinct.size > 3, `${s.label}: 20 seeds give only ${distinct.size} distinct values`);
  }
});

test(`property: ${VALUES_PER_SCHEMA} random values per schema round-trip (examples + inline tuples, maps, unions, recursion, int64, a very wide object)`, async () => {
  const all = await subjects();
  assert.ok(all.filter((s) => s.label.startsWith("inline/")).length >= 8);
  assert.ok(all.filter((s) => !s.label.startsWith("inline/")).length >= 4);
  let total = 0;
  const failures: string[] = [];
  for (const s of all) {
    let fails = 0;
    for (let seed = 1; seed <= s.values; seed++) {
      const value = arbitrary(s.ir, seed);
      let why: string | undefined;
      try {
        // the shape: random values ignore patterns and bounds, which decoders do not check either
        const v = s.codec.validate(value, { constraints: false });
        if (!v.ok) why = `validate rejects it: ${JSON.stringify(v.errors)}`;
        else {
          const bytes = s.codec.encode(value);
          const back = s.codec.decode(bytes);
          if (!isDeepStrictEqual(back, value)) why = `decodes to ${show(back)}`;
          else if (Buffer.compare(s.codec.encode(back), bytes) !== 0) why = "re-encoding the decoded value gives other bytes";
        }
      } catch (e) {
        why = `threw ${(e as Error).message}`;
      }
      total++;
      if (why !== undefined && fails++ < 3) failures.push(`${s.label} seed ${seed}: ${show(value)}\n    ${why}`);
    }
  }
  console.log(`# ${total} random values over ${all.length} schemas`);
  assert.deepEqual(failures, [], "random values that do not round-trip (reproduce with arbitrary(ir, seed))");
});

test("property: tricky numbers, strings and keys travel exactly (inline schemas)", async () => {
  const all = await subjects();
  const maps = all.find((s) => s.label === "inline/maps")!;
  const value: Record<string, unknown> = {
    counts: { a: 0, b: 2 ** 53, c: 1 },
    labels: { "": "", "😀": "a😀b", "北京": "x".repeat(301), "line\nbreak": '"\\' },
    anything: { n: [-0, 0, 19.99, 1e-7, 1e21, 0.1 + 0.2, Number.MAX_SAFE_INTEGER, 5e-324, -1.7976931348623157e308] },
    extra: "é",
  };
  Object.defineProperty(value.labels as object, "__proto__", { value: "own", enumerable: true, writable: true, configurable: true });
  const back = maps.codec.decode(maps.codec.encode(value)) as Record<string, any>;
  assert.ok(isDeepStrictEqual(back, value), show(back));
  assert.ok(Object.is(back.anything.n[0], -0), "-0 inside an any value must stay -0");
  assert.equal(Object.getPrototypeOf(back.labels), Object.prototype);
  assert.ok(Object.prototype.hasOwnProperty.call(back.labels, "__proto__"));

  const ints = all.find((s) => s.label === "inline/int64")!;
  const big = { id: 2n ** 63n - 1n, bytes: 2n ** 64n - 1n, vendor: -(2n ** 63n), asString: "18446744073709551615", ids: [0, -1, 2n ** 53n + 1n, Number.MAX_SAFE_INTEGER], plain: 2 ** 60, ratio: -0 };
  const bigBack = ints.codec.decode(ints.codec.encode(big));
  assert.ok(isDeepStrictEqual(bigBack, big), show(bigBack));
});

// -------------------------------------------------------------------------------------------- truncation

test("property: every truncation of every encoded example throws ToonError TRUNCATED", async () => {
  let prefixes = 0;
  const failures: string[] = [];
  for (const s of await subjects()) {
    for (const bytes of s.samples) {
      for (let n = 0; n < bytes.length; n++) {
        const cut = bytes.subarray(0, n);
        prefixes++;
        try {
          const v = s.codec.decode(cut);
          failures.push(`${s.label}: prefix of ${n}/${bytes.length} bytes decoded to ${show(v)}`);
        } catch (e) {
          if (!(e instanceof ToonError) || e.code !== "TRUNCATED") {
            failures.push(`${s.label}: prefix of ${n}/${bytes.length} bytes threw ${(e as Error)?.name} ${(e as ToonError)?.code ?? ""}: ${(e as Error)?.message} (${hex(cut.subarray(Math.max(0, n - 16)))})`);
          }
        }
        if (failures.length > 10) break;
      }
    }
  }
  console.log(`# ${prefixes} truncated messages`);
  assert.ok(prefixes > 10000, `only ${prefixes} prefixes`);
  assert.deepEqual(failures, []);
});

// -------------------------------------------------------------------------------------------- corruption

// CORRUPT_SEED / CORRUPT_TRIALS override the seed and the number of trials, for longer hunts by hand
// (e.g. CORRUPT_TRIALS=60000 finds nothing more today; the time bound then does not hold).
test("property: random byte corruption throws ToonError or decodes a valid value, within the time bound", async () => {
  const all = (await subjects()).filter((s) => s.samples.length > 0);
  const rng = new Rng(Number(process.env.CORRUPT_SEED ?? 20250115));
  const TRIALS = Number(process.env.CORRUPT_TRIALS ?? 4000);
  const failures: string[] = [];
  const outcomes = { threw: 0, decoded: 0 };
  const codes = new Map<string, number>();
  let decodeMs = 0;
  for (let t = 0; t < TRIALS; t++) {
    const s = all[t % all.length]!;
    const original = s.samples[rng.int(0, s.samples.length - 1)]!;
    const bytes = original.slice();
    const edits = rng.int(1, 3);
    const what: string[] = [];
    for (let k = 0; k < edits; k++) {
      // mostly the body; sometimes the header
      const at = rng.chance(0.05) ? rng.int(0, Math.min(8, bytes.length - 1)) : rng.int(0, bytes.length - 1);
      const before = bytes[at]!;
      const mode = rng.int(0, 3);
      if (mode === 0) bytes[at] = before ^ (1 << rng.int(0, 7));
      else if (mode === 1) bytes[at] = rng.int(0, 255);
      else if (mode === 2) bytes[at] = rng.pick([0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0xc0, 0xed]);
      else bytes[at] = (before + rng.pick([1, -1, 2, 0x40])) & 0xff;
      what.push(`@${at}: ${before.toString(16)}->${bytes[at]!.toString(16)}`);
    }
    const started = performance.now();
    let decoded: unknown;
    let error: unknown;
    try {
      decoded = s.codec.decode(bytes);
    } catch (e) {
      error = e;
    }
    decodeMs += performance.now() - started;
    if (error !== undefined) {
      outcomes.threw++;
      if (!(error instanceof ToonError)) failures.push(`${s.label} trial ${t} (${what.join(", ")}): threw a ${(error as Error)?.name}: ${(error as Error)?.message}`);
      else codes.set(error.code, (codes.get(error.code) ?? 0) + 1);
    } else {
      outcomes.decoded++;
      const v = s.codec.validate(decoded, { constraints: false });
      if (!v.ok) failures.push(`${s.label} trial ${t} (${what.join(", ")}): decoded a value validate rejects: ${JSON.stringify(v.errors).slice(0, 300)}`);
    }
    if (failures.length > 10) break;
  }
  console.log(`# ${TRIALS} corrupted messages: ${outcomes.threw} ToonErrors (${[...codes].map(([c, n]) => `${c} ${n}`).join(", ")}), ${outcomes.decoded} valid decodes, ${decodeMs.toFixed(0)} ms decoding`);
  assert.deepEqual(failures, []);
  assert.ok(decodeMs < 5000, `decoding ${TRIALS} corrupted messages took ${decodeMs.toFixed(0)} ms`);
});
