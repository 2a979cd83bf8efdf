// No value-import cycles in runtime/, generator/ or templates/ (issue 27): a cycle makes module evaluation order
// matter (a constant read before it is defined), and keeps a bundler from dropping either side. Type-only imports
// (`import type`, or a clause whose every name is `type X`) are erased and do not count. The test reads the
// sources, finds every strongly connected group of modules (Tarjan) and names each cycle's files.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { REPO } from "./support/gen.ts";
import { sources, valueImports } from "./support/imports.ts";

const ROOTS = ["runtime", "generator", "templates"];

/** The strongly connected groups of more than one module (and modules importing themselves). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test("no value-import cycles among the modules of runtime/, generator/ and templates/", () => {
  const graph = new Map<string, string[]>();
  for (const root of ROOTS) for (const f of sources(path.join(REPO, root), [])) graph.set(f, valueImports(f, readFileSync(f, "utf8")));
  assert.ok(graph.size > 150, `${graph.size} modules read`);
  const edges = [...graph.values()].reduce((n, d) => n + d.length, 0);
  assert.ok(edges > 300, `${edges} value imports read`);
  const found = cycles(graph).map((g) => g.map((f) => path.relative(REPO, f)).join(" <-> "));
  assert.deepEqual(found, [], `value-import cycles:\n${found.join("\n")}`);
});

test("the import reader: type-only clauses do not count, value and side-effect imports do; a cycle is found", () => {
  const f = path.join(REPO, "runtime", "a.ts");
  const text = [
    'import type { A } from "./t1.ts";',
    'import { type B, type C } from "./t2.ts";',
    'import { D, type E } from "./v1.ts";',
    'export { F } from "./v2.ts";',
    'export type { G } from "./t3.ts";',
    'import {\n  H,\n  I,\n} from "../v3.ts";',
    'import "./v4.ts";',
  ].join("\n");
  assert.deepEqual(valueImports(f, text).map((p) => path.relative(REPO, p)), ["runtime/v1.ts", "runtime/v2.ts", "v3.ts", "runtime/v4.ts"]);
  const g = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a"]],
    ["d", ["a"]],
  ]);
  assert.deepEqual(cycles(g), [["a", "b", "c"]]);
});
