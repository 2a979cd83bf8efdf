// The layers of the runtime and of the generator (issue 27): docs/ARCHITECTURE.md's tables under "The runtime
// (runtime/)" and "The generator (generator/, templates/)" list them in order, and each layer imports only the
// ones above it. This test reads those same tables (their `layer` and `files` columns, globs like
// `codec/kinds/*` included), so the page and the check cannot drift apart, and fails on every value import
// (type-only imports are erased and do not count) that goes down a list, naming the file and the import, and on a
// file no layer lists. Imports that break the order today and need more restructuring than moving code are listed
// in KNOWN_UPWARD with the reason; the test also fails when one of them disappears, so the list only shrinks.
// Cycles, which a layer order cannot see inside one layer, are test/import-cycles.test.ts's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { REPO } from "./support/gen.ts";
import { sources, valueImports } from "./support/imports.ts";

/** Upward imports that remain, "file -> import" (repository paths): each with why it is not fixed yet. */
const KNOWN_UPWARD = new Map<string, string>([]);

interface Layer {
  name: string;
  /** Patterns relative to the table's root: a file, or a folder's files with `dir/*` (its subfolders too). */
  files: string[];
}

/** One layered part of the tree and where docs/ARCHITECTURE.md keeps its table. */
interface Part {
  heading: string;
  /** What the table's paths are relative to (repository paths, `/`-separated; "" for the repository root). */
  root: string;
  /** The folders whose sources the table must place. */
  folders: string[];
  /** Files that sit across the layers (relative to root), left out of the order. */
  across: RegExp;
  /** At least this many layers and value imports read (the table or the import reader did not come back empty). */
  minLayers: number;
  minEdges: number;
}

const PARTS: Part[] = [
  {
    heading: "## The runtime (`runtime/`)",
    root: "runtime",
    folders: ["runtime"],
    // the entries and their checked copies (docs/ARCHITECTURE.md, "Two entries sit across the layers")
    across: /^(index|codegen|core|[a-z-]+-entry|entry-checks)\.ts$/,
    minLayers: 8,
    minEdges: 200,
  },
  {
    heading: "## The generator (`generator/`, `templates/`)",
    root: "",
    folders: ["generator", "templates"],
    across: /^$/,
    minLayers: 12,
    minEdges: 250,
  },
];

/** The layer table of docs/ARCHITECTURE.md under `heading`: the rows of the first `| layer | files |` table after it, in order. */
export function layerTable(markdown: string, heading: string): Layer[] {
  const at = markdown.indexOf(heading);
  assert.ok(at >= 0, `docs/ARCHITECTURE.md has no section ${heading}`);
  const lines = markdown.slice(at).split("\n");
  const start = lines.findIndex((l) => /^\|\s*layer\s*\|\s*files\s*\|/.test(l));
  assert.ok(start >= 0, `the section ${heading} has no \`| layer | files |\` table`);
  const layers: Layer[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [name, files] = line.split("|").slice(1, 3).map((c) => c.trim());
    layers.push({ name: name!, files: [...files!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) });
  }
  return layers;
}

/** The layer index of a file (relative, `/`-separated): an exact name beats a glob, a longer glob a shorter one. */
function layerOf(layers: Layer[], file: string): number | undefined {
  let best: { layer: number; weight: number } | undefined;
  layers.forEach((l, i) => {
    for (const p of l.files) {
      const weight = p === file ? Infinity : p.endsWith("/*") && file.startsWith(p.slice(0, -1)) ? p.length : -1;
      if (weight >= 0 && (best === undefined || weight > best.weight)) best = { layer: i, weight };
    }
  });
  return best?.layer;
}

/** A part's imports that go down its table ("file -> import (layer imports layer)"), and its files no layer lists. */
function check(part: Part, markdown: string): { upward: string[]; unplaced: string[]; edges: number; layers: number } {
  const layers = layerTable(markdown, part.heading);
  const root = path.join(REPO, part.root);
  const rel = (f: string): string => path.relative(root, f).split(path.sep).join("/");
  const repo = (f: string): string => path.posix.join(part.root, f);
  const unplaced: string[] = [];
  const upward: string[] = [];
  let edges = 0;
  for (const folder of part.folders) {
    for (const f of sources(path.join(REPO, folder), [])) {
      const from = rel(f);
      if (part.across.test(from)) continue;
      const mine = layerOf(layers, from);
      if (mine === undefined) {
        unplaced.push(repo(from));
        continue;
      }
      for (const target of valueImports(f, readFileSync(f, "utf8"))) {
        const to = rel(target);
        // outside the part (the generator's imports of the runtime): not this table's to order
        const theirs = to.startsWith("../") ? undefined : layerOf(layers, to);
        edges++;
        if (theirs !== undefined && theirs > mine) upward.push(`${repo(from)} -> ${repo(to)} (${layers[mine]!.name} imports ${layers[theirs]!.name})`);
      }
    }
  }
  return { upward, unplaced, edges, layers: layers.length };
}

const MARKDOWN = readFileSync(path.join(REPO, "docs", "ARCHITECTURE.md"), "utf8");
const RESULTS = new Map(PARTS.map((p) => [p, check(p, MARKDOWN)]));

for (const part of PARTS) {
  const where = part.folders.map((f) => `${f}/`).join(" and ");
  test(`the value imports of ${where} follow the layer table of docs/ARCHITECTURE.md`, () => {
    const { upward, unplaced, edges, layers } = RESULTS.get(part)!;
    assert.ok(layers >= part.minLayers, `${layers} layers read`);
    assert.deepEqual(unplaced, [], `files of ${where} no layer of docs/ARCHITECTURE.md lists`);
    assert.ok(edges > part.minEdges, `${edges} value imports read`);
    const fresh = upward.filter((u) => !KNOWN_UPWARD.has(u.slice(0, u.indexOf(" ("))));
    assert.deepEqual(fresh, [], `value imports that go down the layer table:\n${fresh.join("\n")}`);
  });
}

test("every known upward import is still there (remove the ones that are gone from KNOWN_UPWARD)", () => {
  const upward = [...RESULTS.values()].flatMap((r) => r.upward);
  const gone = [...KNOWN_UPWARD.keys()].filter((k) => !upward.some((u) => u.startsWith(k + " (")));
  assert.deepEqual(gone, []);
});

test("the layer table reader: rows in order, globs, the most specific pattern wins, the table under its heading", () => {
  const md = [
    "## The generator (`generator/`)",
    "",
    "| layer | files | owns |",
    "|---|---|---|",
    "| ir | `generator/ir/*` | z |",
    "",
    "## The runtime (`runtime/`)",
    "",
    "| layer | files | owns |",
    "|---|---|---|",
    "| wire | `errors.ts`, `a/*` | x |",
    "| codec | `a/b/*`, `a/c.ts` | y |",
    "",
    "| layer | files |",
  ].join("\n");
  const layers = layerTable(md, "## The runtime (`runtime/`)");
  assert.deepEqual(layers, [
    { name: "wire", files: ["errors.ts", "a/*"] },
    { name: "codec", files: ["a/b/*", "a/c.ts"] },
  ]);
  assert.equal(layerOf(layers, "errors.ts"), 0);
  assert.equal(layerOf(layers, "a/d.ts"), 0);
  assert.equal(layerOf(layers, "a/b/e.ts"), 1);
  assert.equal(layerOf(layers, "a/c.ts"), 1);
  assert.equal(layerOf(layers, "z.ts"), undefined);
  assert.deepEqual(layerTable(md, "## The generator (`generator/`)"), [{ name: "ir", files: ["generator/ir/*"] }]);
});
