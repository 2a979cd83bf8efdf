/**
 * The TOON project's token benchmark (bench/toon-datasets, issue 25): its eight datasets regenerated exactly (the
 * published compact JSON and TOON counts), every format reading back its value, and dense at most the fewest
 * tokens of TOON, TRON and TSON on each dataset and at most 0.60x compact JSON over all of them.
 */
process.env.TZ = "UTC"; // before any Date: the analytics dataset steps through local days

import { test } from "node:test";
import assert from "node:assert/strict";

test("toon datasets: regenerated exactly; every format reads back; dense at most the best peer on each, 0.60x JSON in all", async () => {
  const { PUBLISHED, bestPeer, datasets, measure } = await import("../bench/toon-datasets/measure.ts");
  let json = 0;
  let dense = 0;
  const names: string[] = [];
  for (const d of await datasets()) {
    const r = measure(d.name, d.description, d.data);
    assert.deepEqual({ json: r.json, toon: r.toon }, PUBLISHED[d.name], `${d.name}: the published counts`);
    assert.deepEqual(r.lossy, [], `${d.name}: every format reads back`);
    const best = bestPeer(r)!;
    assert.ok(r.dense <= best.tokens, `${d.name}: dense ${r.dense} tokens, ${best.peer} ${best.tokens}`);
    json += r.json;
    dense += r.dense;
    names.push(d.name);
  }
  assert.deepEqual(names, Object.keys(PUBLISHED));
  assert.ok(dense <= json * 0.6, `dense ${dense} tokens, ${(dense / json).toFixed(3)}x compact JSON's ${json}`);
});
