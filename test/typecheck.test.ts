// Generated modules pass `tsc --strict`: the committed example modules, one module per corpus schema and the
// inline property-test schemas (one tsc run); and, in a second small run, a very wide object (more code than
// one function may hold, which the emitter must split: without that, tsc fails with TS2563 "The containing
// function or module body is too large for control flow analysis"). The hostile-schema modules are
// type-checked by hostile.test.ts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { schemaToIR } from "../generator/load/index.ts";
import { corpusRoot, schemaInstancePairs } from "./corpus/index.ts";
import { generateCorpusModules } from "./support/corpus-gen.ts";
import { emitTo, REPO, suiteDir, typecheck } from "./support/gen.ts";
import { flatWideSchema, INLINE_SCHEMAS } from "./support/schemas.ts";

/**
 * Corpus modules above this size are generated (and round-tripped by roundtrip.test.ts) but left out of the
 * tsc run, to keep it near a minute: every corpus family keeps modules in (about 100 of 119); the largest
 * (SchemaStore's package.json, eslintrc, tsconfig and tslint give 2-10 MB modules) would take minutes. The
 * code shapes that only huge schemas produce (split functions) are covered by the flat wide schema below.
 */
const MAX_TYPECHECK_BYTES = 200_000;

/** Time budget of the tsc run (the target is well under it; a machine under load gets slack). */
const MAX_TSC_MS = 180_000;

test("typecheck: examples, corpus and inline modules pass tsc --strict (one run)", async () => {
  const dir = suiteDir("typecheck");
  const include = [path.join(REPO, "examples", "*", "gen", "**", "*.ts")];
  /** Modules that must be among the files tsc checked. */
  const expected: string[] = [path.join(REPO, "examples", "orders", "gen", "order-list.ts")];

  const inlineDir = path.join(dir, "inline");
  mkdirSync(inlineDir, { recursive: true });
  // `wide` (2 MB of code) is left to the property test's round trips; flatWide has a test of its own below
  const { wide: _wide, ...inline } = INLINE_SCHEMAS;
  for (const [base, schema] of Object.entries(inline)) {
    const e = await emitTo(schemaToIR(schema, { source: `${base}.schema.json`, baseDir: inlineDir }), inlineDir, base);
    expected.push(e.file);
  }
  include.push(path.join(inlineDir, "*.ts"));

  let corpusCount = 0;
  if (corpusRoot()) {
    const corpusDir = path.join(dir, "corpus");
    mkdirSync(corpusDir, { recursive: true });
    const modules = await generateCorpusModules(schemaInstancePairs(), corpusDir);
    const skipped: string[] = [];
    for (const m of modules) {
      if (m.emitted === undefined) continue;
      const size = statSync(m.emitted.file).size;
      if (size > MAX_TYPECHECK_BYTES) skipped.push(`${m.case.id} (${(size / 1e6).toFixed(1)} MB)`);
      else {
        include.push(m.emitted.file);
        expected.push(m.emitted.file);
        corpusCount++;
      }
    }
    console.log(`# corpus: ${corpusCount} modules type-checked; left out for size: ${skipped.join(", ") || "none"}`);
  } else {
    console.log("# corpus not found at ../shared/corpus: type-checking the examples and inline schemas only");
  }

  const res = typecheck(dir, include);
  console.log(`# tsc --strict over ${corpusCount} corpus + ${Object.keys(inline).length} inline modules + the examples: ${(res.ms / 1000).toFixed(1)} s`);
  const errors = res.output.split("\n").filter((l) => /error TS\d+/.test(l));
  assert.ok(res.ok, `tsc failed with ${errors.length} errors:\n${errors.slice(0, 40).join("\n")}\n${res.output.slice(0, 2000)}`);
  const missed = expected.filter((f) => !res.files.includes(f));
  assert.deepEqual(missed.map((f) => path.relative(REPO, f)), [], "modules tsc did not check");
  assert.ok(res.ms < MAX_TSC_MS, `tsc took ${(res.ms / 1000).toFixed(0)} s`);
});

/** `file(line,col): error ...` lines, each with the name of the generated function it falls in. */
function locate(output: string): string[] {
  const cache = new Map<string, string[]>();
  return output
    .split("\n")
    .filter((l) => /error TS\d+/.test(l))
    .map((l) => {
      const m = /^(.*?)\((\d+),\d+\)/.exec(l);
      if (m === null) return l;
      const file = path.resolve(REPO, m[1]!);
      if (!cache.has(file)) cache.set(file, readFileSync(file, "utf8").split("\n"));
      const lines = cache.get(file)!;
      let fn = "?";
      for (let i = Number(m[2]) - 1; i >= 0; i--) {
        const d = /^function ([$A-Za-z0-9_]+)/.exec(lines[i] ?? "");
        if (d !== null) {
          fn = d[1]!;
          break;
        }
      }
      return `${l.slice(0, 200)} [in function ${fn}]`;
    });
}

test("typecheck: a 450-property object passes tsc --strict (oversized functions are split)", async () => {
  const dir = suiteDir("typecheck-wide");
  const e = await emitTo(schemaToIR(flatWideSchema(450), { source: "flat-wide.schema.json", baseDir: dir }), dir, "flat-wide");
  const res = typecheck(dir, [e.file]);
  console.log(`# tsc --strict over a 450-property module (${(e.text.length / 1e6).toFixed(1)} MB): ${(res.ms / 1000).toFixed(1)} s`);
  assert.ok(res.files.includes(e.file), "tsc did not check the module");
  assert.ok(res.ok, `tsc failed:\n${locate(res.output).join("\n")}`);
});
