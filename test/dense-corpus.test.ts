// The dense text layout over the real-world corpus (test/corpus/index.ts): every schema/instance pair and seeded
// random values of every corpus schema round-trip through toText(v, { layout: "dense" }) / fromText, losslessly.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { loadSchemaFile } from "../generator/load/index.ts";
import { denseOf } from "../runtime/text/dense/index.ts";
import { corpusRoot, schemaInstancePairs } from "./corpus/index.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { instanceLabel } from "./support/corpus-gen.ts";
import { spacedOut, withBlankLines } from "./support/model-replies.ts";

/** Instances the loader reads narrower than JSON Schema does (the same ones the TOON text suite lists). */
const KNOWN_FAILURES: Record<string, string> = {};

test("dense: every corpus schema/instance pair and random values round-trip", async (t) => {
  const cwd = corpusRoot();
  if (cwd === undefined) {
    t.skip("/work/shared/corpus is absent");
    return;
  }
  const failures: string[] = [];
  const stale = new Set(Object.keys(KNOWN_FAILURES));
  let instances = 0;
  let randoms = 0;
  const reworded = { "spaced out": 0, "with blank lines": 0 };
  for (const c of schemaInstancePairs()) {
    let ir;
    try {
      ir = await loadSchemaFile(c.schemaFile, c.pointer === undefined ? { cwd, unsafePatterns: "allow" } : { cwd, pointer: c.pointer, unsafePatterns: "allow" });
    } catch {
      continue; // generation failures are the core suites' business
    }
    const d = denseOf(ir);
    const check = (v: unknown, what: string): string | undefined => {
      try {
        const text = d.toText(v);
        const back = d.fromText(text);
        if (!isDeepStrictEqual(back, v)) return `round trip differs:\n${text.slice(0, 600)}`;
        // as a model may write it: spaces around cells and header names, blank lines between lines
        for (const [how, written] of [
          ["spaced out", spacedOut(text)],
          ["with blank lines", withBlankLines(text)],
        ] as const) {
          if (written === text) continue;
          reworded[how]++;
          if (!isDeepStrictEqual(d.fromText(written), v)) return `read back differs ${how}:\n${written.slice(0, 600)}`;
        }
        return undefined;
      } catch (e) {
        return `${(e as Error).message} at ${(e as { path?: string }).path ?? "?"} (${what})`;
      }
    };
    for (const inst of c.instances) {
      const key = `${c.id} @ ${instanceLabel(inst)}`;
      instances++;
      const problem = check(inst.value, "instance");
      if (problem === undefined) {
        if (stale.has(key)) failures.push(`${key}: passes now, remove it from KNOWN_FAILURES`);
        continue;
      }
      stale.delete(key);
      if (!(key in KNOWN_FAILURES)) failures.push(`${key}: ${problem}`);
    }
    for (let seed = 1; seed <= 10; seed++) {
      randoms++;
      const problem = check(arbitrary(ir, seed, { maxItems: 3 }), `seed ${seed}`);
      if (problem !== undefined) failures.push(`${c.id} random seed ${seed}: ${problem}`);
    }
  }
  console.log(`dense-corpus: ${instances} instances and ${randoms} random values (${reworded["spaced out"]} read back spaced out, ${reworded["with blank lines"]} with blank lines)`);
  // (texts with a table or field group to space out: fewer since documents whose lines would be no cheaper, or
  // whose open objects' keys differ, are JSON; 182 at 5b7e0a5)
  assert.ok(reworded["spaced out"] > 150 && reworded["with blank lines"] > 500, JSON.stringify(reworded));
  assert.deepEqual(failures, []);
  assert.ok(instances > 100, `${instances} instances`);
});
