/**
 * `npm run fuzz [-- --seed N --cases N --only PREFIX]`: the seeded fuzz campaign of issue 12 over every decoder
 * and parser (test/fuzz/targets.ts), plus random hostile schemas through the generator. Each case must give a
 * value of the schema's shape or a ToonError with a code and path (test/fuzz/harness.ts), within the bounds the
 * issue sets: memory at most 64 bytes per input byte plus 1 MiB, and no input over 250 ms. Memory is how much
 * the heap and array buffers grew over the case; a case over the bound is run again between two collections
 * (with --expose-gc, as the npm script runs) with its value held, so garbage does not count, what it keeps alive
 * does. Time is wall time, a slow case run twice. Every failing input is written to test/fuzz/regressions/, which
 * test/fuzz.test.ts replays in `npm test`. Then `--random-schemas N` seeded random schemas (test/support/random-
 * schema.ts, a longer run of test/random-schemas.test.ts): random values of each must round-trip through the
 * engine's binary codec and the dense layout. And `--patterns N` schemas holding patterns built to break ReDoS
 * checkers (test/fuzz/generator-target.ts): each generation must end within 10 s, and its validator must answer a
 * 10 KB string within 10 ms. And `--arguments N` calls of every public function of the examples' generated groups
 * and the runtime's entries with random arguments of the wrong kind (test/fuzz/arguments-target.ts): each must
 * return or throw a ToonError within the time limit. Deterministic for a seed (time and memory figures aside).
 */
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import * as path from "node:path";
import { buildTargets, hostileSchema, withZstd } from "../test/fuzz/targets.ts";
import { jsonReaderTarget } from "../test/fuzz/json-reader-target.ts";
import { toonReaderTarget } from "../test/fuzz/toon-reader-target.ts";
import { textReaderTarget } from "../test/fuzz/text-reader-target.ts";
import { caseInput, fixtureOf, judge, writeFixture } from "../test/fuzz/harness.ts";
import { Rng } from "../test/support/rng.ts";
import { GEN_ROOT } from "../test/support/gen.ts";
import { ToonError } from "../runtime/wire/errors.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { emitModule } from "../generator/emit/module.ts";
import { interpret } from "../generator/interpret/index.ts";
import { arbitrary } from "../test/support/arbitrary.ts";
import { randomSchema } from "../test/support/random-schema.ts";
import { sameDecoded } from "../test/support/same-value.ts";
import { denseOf } from "../runtime/text/dense/index.ts";
import { spacedOut, withBlankLines } from "../test/support/model-replies.ts";
import { argumentCase, publicFunctions } from "../test/fuzz/arguments-target.ts";
import { GENERATION_MS_LIMIT, generatorCase, hostilePattern, manyPatternsSchema, patternSchema } from "../test/fuzz/generator-target.ts";

const { values: args } = parseArgs({
  options: {
    seed: { type: "string", default: "12" },
    cases: { type: "string", default: "20000" },
    only: { type: "string" },
    schemas: { type: "string", default: "200" },
    "random-schemas": { type: "string", default: "2000" },
    patterns: { type: "string", default: "300" },
    arguments: { type: "string", default: "40000" },
  },
});
const seed = Number(args.seed);
const total = Number(args.cases);
const MS_LIMIT = 250;
const memLimit = (bytes: number): number => 64 * bytes + 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

function heap(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const zstd = await withZstd();
const targets = [...(await buildTargets(path.join(GEN_ROOT, "fuzz-script"), seed)), jsonReaderTarget()].filter((t) => args.only === undefined || t.name.startsWith(args.only));
// the TOON v4 reader in pieces, against the whole text
targets.push(...[toonReaderTarget()].filter((t) => args.only === undefined || t.name.startsWith(args.only)));
// a codec's streaming reader of model replies (dense, TOON v4, JSON, hostile streams) in pieces, against the whole
targets.push(...[await textReaderTarget()].filter((t) => args.only === undefined || t.name.startsWith(args.only)));
console.log(`fuzz: seed ${seed}, ${total} cases over ${targets.length} targets${zstd ? "" : " (zstd-napi missing: no compressed targets)"}${gc ? "" : " (no --expose-gc: memory figures are rough)"}`);

const rng = new Rng(seed);
interface Stat {
  cases: number;
  values: number;
  errors: number;
  failures: number;
  maxMs: number;
  maxMemRatio: number;
}
const stats = new Map<string, Stat>();
let failures = 0;
let opens = 0;
const started = performance.now();
for (let i = 0; i < total; i++) {
  const target = targets[i % targets.length]!;
  const c = caseInput(target, rng.fork());
  const before = heap();
  const t0 = performance.now();
  const outcome = judge(target, c.input);
  const ms = performance.now() - t0;
  let grew = heap() - before;
  // over the bound without a collection first: garbage or a real cost? Measure again what the case keeps alive
  // (its value, or the decoder state a stream keeps): a collection before and after, the value held
  if (grew > memLimit(c.size) && gc !== undefined) {
    gc();
    const b2 = heap();
    const again = judge(target, c.input);
    gc();
    grew = heap() - b2;
    void again.value;
  }
  const st = stats.get(target.name) ?? { cases: 0, values: 0, errors: 0, failures: 0, maxMs: 0, maxMemRatio: 0 };
  stats.set(target.name, st);
  st.cases++;
  st.maxMs = Math.max(st.maxMs, ms);
  st.maxMemRatio = Math.max(st.maxMemRatio, grew / memLimit(c.size));
  let why: string | undefined;
  if (outcome.kind === "failure") why = outcome.detail;
  else if (ms > MS_LIMIT && c.size <= 1024 * 1024) {
    // a second run tells a slow input from a pause of the shared machine
    const t1 = performance.now();
    judge(target, c.input);
    if (performance.now() - t1 > MS_LIMIT) why = `took ${ms.toFixed(0)} ms on ${c.size} bytes (limit ${MS_LIMIT} ms)`;
  } else if (gc !== undefined && grew > memLimit(c.size)) why = `kept ${(grew / 1e6).toFixed(1)} MB alive after a ${c.size}-byte input (limit 64 B/byte + 1 MiB)`;
  if (outcome.kind === "open") {
    opens++;
    if (opens <= 3) console.log(`open (known, test/fuzz/open/) ${target.name} (${c.how}): ${outcome.detail.slice(0, 160)}`);
  }
  if (outcome.kind === "value") st.values++;
  else if (outcome.kind === "error") st.errors++;
  if (why !== undefined) {
    st.failures++;
    failures++;
    const file = writeFixture(fixtureOf(target, c.input, `${c.how}: ${why}`));
    console.log(`FAIL ${target.name} (${c.how}): ${why}\n  -> ${path.relative(process.cwd(), file)}`);
  }
}

// random hostile schemas (injection strings in every name-like position) through the generator and the engine
const schemaRng = new Rng(seed ^ 0x5eed);
let schemaErrors = 0;
let schemaOk = 0;
const schemaStart = performance.now();
let schemaMaxMs = 0;
for (let i = 0; i < Number(args.schemas); i++) {
  const schema = { title: "Fuzz", ...hostileSchema(schemaRng.fork()) };
  try {
    const loadStart = performance.now();
    const ir = schemaToIR(schema, { source: "fuzz.schema.json" });
    const loadMs = performance.now() - loadStart;
    schemaMaxMs = Math.max(schemaMaxMs, loadMs);
    if (loadMs > GENERATION_MS_LIMIT) {
      failures++;
      console.log(`FAIL hostile schema ${JSON.stringify(schema).slice(0, 200)}: loading took ${loadMs.toFixed(0)} ms`);
    }
    const dict = buildDictionary(ir);
    emitModule(ir, dict, { fileName: "fuzz.ts" }); // hostile names must emit (test/hostile.test.ts imports such modules)
    const engine = interpret(ir, dict);
    let value: unknown;
    try {
      value = arbitrary(ir, schemaRng.u32(), { maxItems: 4, maxDepth: 3 });
    } catch {
      continue; // the test helper's own limits (a schema it cannot make a value of): no seed to mutate
    }
    const bytes = engine.encode(value);
    engine.decode(bytes);
    const target = { name: "hostile-schema", input: "bytes" as const, seeds: [bytes], run: (b: Uint8Array) => engine.decode(b), accept: (v: unknown) => void engine.encode(v) };
    for (let k = 0; k < 20; k++) {
      const c = caseInput(target, schemaRng.fork());
      const o = judge(target, c.input);
      if (o.kind === "failure") {
        failures++;
        console.log(`FAIL hostile schema ${JSON.stringify(schema).slice(0, 200)} (${c.how}): ${o.detail}`);
      }
    }
    schemaOk++;
  } catch (e) {
    if (e instanceof ToonError && typeof e.path === "string") {
      schemaErrors++;
      continue;
    }
    failures++;
    console.log(`FAIL hostile schema ${JSON.stringify(schema).slice(0, 200)}: ${(e as Error)?.stack ?? e}`);
  }
}

// patterns built to break ReDoS checkers and engines, in every place a schema holds one: generation ends within
// its limit with modules or a ToonError, and the validator it made answers 10 KB strings within its limit
const patternRng = new Rng(seed ^ 0x9a77e2);
const patternStart = performance.now();
const patternOutcomes = { generated: 0, refused: 0, failure: 0 };
let patternMaxMs = 0;
let patternMaxValidateMs = 0;
for (let i = 0; i < Number(args.patterns); i++) {
  const pattern = hostilePattern(patternRng.fork());
  const c = await generatorCase(patternSchema(patternRng.fork(), pattern), patternRng.fork());
  patternOutcomes[c.outcome]++;
  patternMaxMs = Math.max(patternMaxMs, c.ms);
  patternMaxValidateMs = Math.max(patternMaxValidateMs, c.validateMs);
  if (c.outcome === "failure") {
    failures++;
    console.log(`FAIL pattern ${JSON.stringify(pattern).slice(0, 200)}: ${c.detail}`);
  }
}

// every public function (generated groups, runtime entries) with random arguments of the wrong kind
const argumentRng = new Rng(seed ^ 0xa7625);
const argumentStart = performance.now();
const callables = await publicFunctions();
let argumentFailures = 0;
let argumentMaxMs = 0;
for (let i = 0; i < Number(args.arguments); i++) {
  const c = await argumentCase(argumentRng.pick(callables), argumentRng.fork(), MS_LIMIT);
  argumentMaxMs = Math.max(argumentMaxMs, c.ms);
  if (c.failure !== null) {
    failures++;
    argumentFailures++;
    if (argumentFailures <= 50) console.log(`FAIL argument ${c.failure}`);
  }
}

// one schema of 1 MB of distinct patterns: the checker's total time per schema is bounded, not only per pattern
const big = await generatorCase(manyPatternsSchema(patternRng.fork(), 1_000_000), patternRng.fork());
if (big.outcome === "failure") {
  failures++;
  console.log(`FAIL a 1 MB schema of patterns: ${big.detail}`);
}

// random schemas (awkward names, maps, tuples, unions, int64, recursion): values round-trip, binary and dense
const randomStart = performance.now();
let randomValues = 0;
let randomRefused = 0;
let randomMutations = 0;
const firstRandom = (seed * 7919) % 1_000_000;
for (let i = 0; i < Number(args["random-schemas"]); i++) {
  const s = firstRandom + i;
  const schema = randomSchema(s);
  let ir;
  try {
    const loadStart = performance.now();
    ir = schemaToIR(schema, { source: `random-${s}.schema.json` });
    const loadMs = performance.now() - loadStart;
    if (loadMs > GENERATION_MS_LIMIT) {
      failures++;
      console.log(`FAIL random schema ${s}: loading took ${loadMs.toFixed(0)} ms`);
    }
  } catch (e) {
    if (e instanceof ToonError) randomRefused++;
    else {
      failures++;
      console.log(`FAIL random schema ${s}: loading threw ${(e as Error)?.stack ?? e}`);
    }
    continue;
  }
  const engine = interpret(ir, buildDictionary(ir));
  const dense = denseOf(ir);
  const texts: string[] = [];
  for (let k = 0; k < 20; k++) {
    const value = arbitrary(ir, s * 1000 + k);
    let stage = "binary";
    try {
      if (!sameDecoded(engine.decode(engine.encode(value)), value, false, true)) throw new Error("binary round trip differs");
      stage = "dense";
      const text = dense.toText(value);
      if (!sameDecoded(dense.fromText(text), value)) throw new Error(`dense round trip differs: ${JSON.stringify(text).slice(0, 300)}`);
      // as a model may write it: spaces around cells and header names, blank lines between lines
      for (const written of [spacedOut(text), withBlankLines(text)]) {
        if (written !== text && !sameDecoded(dense.fromText(written), value)) throw new Error(`dense text as a model writes it reads otherwise: ${JSON.stringify(written).slice(0, 300)}`);
      }
      if (k < 3) texts.push(text);
      randomValues++;
    } catch (e) {
      failures++;
      console.log(`FAIL random schema ${s} value ${k} (${stage}): ${(e as Error)?.message ?? e}`);
      break;
    }
  }
  // hostile dense text of this schema: mutated texts give a value the binary encoder takes, or a ToonError
  if (texts.length === 0) continue;
  const target = { name: "random-schema-dense", input: "text" as const, seeds: texts, run: (t: string) => dense.fromText(t), accept: (v: unknown) => void engine.encode(v as never) };
  for (let k = 0; k < 10; k++) {
    const c = caseInput(target, schemaRng.fork());
    const t0 = performance.now();
    const o = judge(target, c.input);
    const ms = performance.now() - t0;
    randomMutations++;
    if (o.kind === "failure" || (ms > MS_LIMIT && c.size <= 1024 * 1024)) {
      failures++;
      console.log(`FAIL random schema ${s} dense text (${c.how}): ${o.kind === "failure" ? o.detail : `took ${ms.toFixed(0)} ms on ${c.size} characters`}\n  text: ${JSON.stringify(c.input).slice(0, 300)}`);
    }
  }
}

const rows = [...stats].map(([name, s]) => `${name.padEnd(28)} ${String(s.cases).padStart(6)} ${String(s.values).padStart(6)} ${String(s.errors).padStart(6)} ${String(s.failures).padStart(4)} ${s.maxMs.toFixed(1).padStart(8)} ${(s.maxMemRatio * 100).toFixed(1).padStart(7)}%`);
console.log(`${"target".padEnd(28)} ${"cases".padStart(6)} ${"values".padStart(6)} ${"errors".padStart(6)} ${"fail".padStart(4)} ${"max ms".padStart(8)} ${"max mem".padStart(8)}`);
for (const r of rows) console.log(r);
console.log(`hostile schemas: ${schemaOk} generated, ${schemaErrors} refused with a ToonError, slowest load ${schemaMaxMs.toFixed(0)} ms (${(performance.now() - schemaStart).toFixed(0)} ms)`);
console.log(`hostile patterns: ${args.patterns}: ${patternOutcomes.generated} generated, ${patternOutcomes.refused} refused with a ToonError, ${patternOutcomes.failure} failed; slowest generation ${patternMaxMs.toFixed(0)} ms (limit ${GENERATION_MS_LIMIT}), slowest validate of a 10 KB string ${patternMaxValidateMs.toFixed(2)} ms; a 1 MB schema of patterns: ${big.outcome} in ${big.ms.toFixed(0)} ms (${(performance.now() - patternStart).toFixed(0)} ms)`);
console.log(`wrong arguments: ${args.arguments} calls of ${callables.length} public functions, ${argumentFailures} failed, slowest ${argumentMaxMs.toFixed(0)} ms (${(performance.now() - argumentStart).toFixed(0)} ms)`);
console.log(`random schemas: ${args["random-schemas"]} from seed ${firstRandom}, ${randomValues} values round-tripped, ${randomMutations} mutated dense texts read or refused, ${randomRefused} refused with a ToonError (${(performance.now() - randomStart).toFixed(0)} ms)`);
console.log(`${total} cases in ${((performance.now() - started) / 1000).toFixed(1)} s, ${failures} failures, ${opens} of known open kinds`);
process.exitCode = failures === 0 ? 0 : 1;
