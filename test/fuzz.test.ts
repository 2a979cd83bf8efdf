// The quick, seeded slice of the fuzz campaign (scripts/fuzz.ts, `npm run fuzz`): a few hundred mutated inputs
// over every decoder and parser, each giving a value its encoder takes or a ToonError with a code and a JSON
// pointer path; then every input that ever failed (test/fuzz/regressions/) replayed the same way. Outcome types
// only: the memory and time bounds are measured by the script, not here.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { buildTargets, withZstd } from "./fuzz/targets.ts";
import { caseInput, fixtureInput, judge, OPEN, readFixtures } from "./fuzz/harness.ts";
import { Rng } from "./support/rng.ts";
import { GEN_ROOT } from "./support/gen.ts";
import { generatorCase, hostilePattern, patternSchema } from "./fuzz/generator-target.ts";
import { argumentCase, publicFunctions } from "./fuzz/arguments-target.ts";

await withZstd();
const targets = await buildTargets(path.join(GEN_ROOT, "fuzz"), 12);
const byName = new Map(targets.map((t) => [t.name, t]));

test("fuzz slice: every target, seeded mutations give a value or a ToonError with code and path", () => {
  const rng = new Rng(20261201);
  const failures: string[] = [];
  const kinds = new Set<string>();
  for (let i = 0; i < targets.length * 12; i++) {
    const target = targets[i % targets.length]!;
    const c = caseInput(target, rng.fork());
    const o = judge(target, c.input);
    kinds.add(o.kind);
    if (o.kind === "failure") failures.push(`${target.name} (${c.how}): ${o.detail}`);
  }
  assert.deepEqual(failures, []);
  assert.ok(kinds.has("value") && kinds.has("error"), "the slice reaches both outcomes");
});

test("fuzz regressions: every input that failed once gives a value or a ToonError now", () => {
  // (the streaming text reader's are replayed by test/text-reader.test.ts, which builds that target)
  const fixtures = readFixtures().filter((f) => f.target !== "text-reader");
  for (const f of fixtures) {
    const target = byName.get(f.target);
    assert.ok(target, `fixture for an unknown target ${f.target}`);
    const o = judge(target, fixtureInput(target, f));
    assert.notEqual(o.kind, "failure", `${f.target}: ${o.detail} (found: ${f.found})`);
  }
});

for (const f of readFixtures(OPEN)) {
  test(`open finding, filed: ${f.found.slice(0, 120)}`, { todo: true }, () => {
    const target = byName.get(f.target)!;
    const o = judge(target, fixtureInput(target, f));
    // fixed when fromText refuses the input (a ToonError) or returns a value its encoder takes
    assert.ok(o.kind === "value" || o.kind === "error", o.detail);
  });
}

test("fuzz slice: schemas holding patterns built to break ReDoS checkers generate or are refused with a ToonError", async () => {
  const rng = new Rng(20261205);
  const outcomes = new Set<string>();
  const failures: string[] = [];
  for (let i = 0; i < 16; i++) {
    const pattern = hostilePattern(rng.fork());
    const c = await generatorCase(patternSchema(rng.fork(), pattern), rng.fork());
    outcomes.add(c.outcome);
    // outcome types only: the time limits are the script's to measure
    if (c.outcome === "failure" && !/took/.test(c.detail)) failures.push(`${JSON.stringify(pattern)}: ${c.detail}`);
  }
  assert.deepEqual(failures, []);
  assert.ok(outcomes.has("generated") && outcomes.has("refused"), `the slice reaches both outcomes: ${[...outcomes].join(", ")}`);
});

test("fuzz slice: public functions called with random arguments of the wrong kind return or throw a ToonError", async () => {
  const rng = new Rng(20261206);
  const fns = await publicFunctions();
  assert.ok(fns.length > 1000, `${fns.length} public functions`);
  const failures: string[] = [];
  for (let i = 0; i < 3000; i++) {
    // no time limit here: the script measures time
    const c = await argumentCase(rng.pick(fns), rng.fork(), Infinity);
    if (c.failure !== null) failures.push(c.failure);
  }
  assert.deepEqual(failures, []);
});
