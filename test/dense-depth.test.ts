// Hostile nesting in dense text (runtime/text/dense): headers, field lines, field groups, inline arrays, lists
// and JSON cells nested past DENSE_MAX_DEPTH are DEPTH_LIMIT with a line and column, never a RangeError from the
// call stack; the writer refuses what its reader would (and cycles) with the same code; nesting within the limit
// round-trips.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { schemaToIR } from "../generator/load/index.ts";
import { denseOf } from "../runtime/text/dense/index.ts";
import { DENSE_MAX_DEPTH } from "../runtime/text/dense/json.ts";
import { catchToon } from "./support/toon-error.ts";

/** A tree: a name, child nodes as a table, one child as a field group or field lines, and an untyped `meta`. */
const TREE = {
  $defs: {
    Node: {
      type: "object",
      properties: {
        name: { type: "string" },
        kids: { type: "array", items: { $ref: "#/$defs/Node" } },
        child: { $ref: "#/$defs/Node" },
        list: { type: "array", items: { $ref: "#/$defs/Node" } },
        meta: {},
      },
      additionalProperties: false,
    },
  },
  $ref: "#/$defs/Node",
};
const tree = denseOf(schemaToIR(TREE, { source: "tree.schema.json", baseDir: process.cwd() }));

/** Well past the limit, but far below what a stack overflow needs: the limit is what stops it. */
const N = DENSE_MAX_DEPTH * 3;

/** DEPTH_LIMIT with a line and column, and `path` the JSON pointer of the value it was reading (a prefix of it). */
function depthLimit(f: () => unknown, what: string, path?: string): void {
  let e;
  try {
    e = catchToon(f);
  } catch (x) {
    assert.fail(`${what}: expected ToonError DEPTH_LIMIT, got ${(x as Error).constructor.name}: ${(x as Error).message}`);
  }
  assert.equal(e.code, "DEPTH_LIMIT", `${what}: ${e.message}`);
  assert.match(e.message, /line \d+, column \d+/, what);
  if (path !== undefined) assert.ok(e.path.startsWith(path), `${what}: path ${JSON.stringify(e.path.slice(0, 60))}, expected ${path}...`);
}

test("dense depth: headers nested past the limit are DEPTH_LIMIT (field groups, inline arrays, bare [] columns)", () => {
  depthLimit(() => tree.fromText("name: a\nkids[1]{name," + "kids[]{name,".repeat(N) + "}:\n  a"), "inline array columns", "/kids");
  depthLimit(() => tree.fromText("child" + "{child".repeat(N) + "}: x"), "field group", "/child");
  depthLimit(() => tree.fromText("kids[1]{" + "name[]".repeat(1) + "[]".repeat(N) + "}:\n  x"), "[] suffixes");
});

test("dense depth: field lines, list items and JSON cells nested past the limit are DEPTH_LIMIT", () => {
  const lines = Array.from({ length: N }, (_, i) => " ".repeat(2 * i) + "child:").join("\n");
  depthLimit(() => tree.fromText(lines), "field lines", "/child/child/child");
  // `list[1]:`, then each item's first field on its dash line: `- list[1]:` two columns further in each time
  const list = Array.from({ length: N }, (_, i) => (i === 0 ? "" : " ".repeat(4 * i - 2) + "- ") + "list[1]:").join("\n");
  depthLimit(() => tree.fromText(list), "list items");
  depthLimit(() => tree.fromText("meta: " + "[".repeat(N)), "JSON cell", "/meta");
  depthLimit(() => tree.fromText("meta: " + '{"a":'.repeat(N)), "JSON cell of objects");
  // a JSON cell counts from the depth it sits at: near the limit, a shallow JSON value is already too deep
  const deepChild = Array.from({ length: DENSE_MAX_DEPTH - 1 }, (_, i) => " ".repeat(2 * i) + "child:").join("\n");
  depthLimit(() => tree.fromText(deepChild + "\n" + " ".repeat(2 * (DENSE_MAX_DEPTH - 1)) + "meta: [[[1]]]"), "JSON cell deep in field lines");
});

/** A chain of `depth` nested objects through `child`, with table rows of kids at the bottom. */
function chain(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = { name: "leaf", kids: [{ name: "k1" }, { name: "k2", meta: [1, { a: null }] }] };
  for (let i = 0; i < depth; i++) v = { name: `n${i}`, child: v, ...(i % 50 === 0 ? { list: [{ name: "x" }, {}] } : {}) };
  return v;
}

test("dense depth: values nested within the limit round-trip; deeper values and cycles are DEPTH_LIMIT when written", () => {
  for (const depth of [10, 200, DENSE_MAX_DEPTH - 10]) {
    const v = chain(depth);
    const text = tree.toText(v);
    assert.ok(isDeepStrictEqual(tree.fromText(text), v), `depth ${depth}: round trip`);
  }
  for (const depth of [DENSE_MAX_DEPTH + 5, 20_000]) {
    const e = catchToon(() => tree.toText(chain(depth)));
    assert.equal(e.code, "DEPTH_LIMIT", `depth ${depth}: ${e.message}`);
    assert.equal(e.path, "", "the writer reports the document (it keeps no path while writing)");
  }
  const cyclic: Record<string, unknown> = { name: "loop" };
  cyclic.child = cyclic;
  assert.equal(catchToon(() => tree.toText(cyclic)).code, "DEPTH_LIMIT");
  const cyclicMeta: Record<string, unknown> = { name: "m" };
  const m: unknown[] = [];
  m.push(m);
  cyclicMeta.meta = m;
  assert.equal(catchToon(() => tree.toText(cyclicMeta)).code, "DEPTH_LIMIT");
});
