// The runtime's layers (issue 27): docs/ARCHITECTURE.md's table "The runtime (runtime/)" lists them in order, and
// each layer imports only the ones above it. This test reads that same table (its `layer` and `files` columns,
// globs like `codec/kinds/*` included), so the page and the check cannot drift apart, and fails on every value
// import (type-only imports are erased and do not count) that goes down the list, naming the file and the import.
// Imports that break the order today and need more restructuring than moving a file are listed in
// KNOWN_UPWARD with the reason; the test also fails when one of them disappears, so the list only shrinks.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { REPO } from "./support/gen.ts";
import { sources, valueImports } from "./support/imports.ts";

const RUNTIME = path.join(REPO, "runtime");

/** Files that sit across the layers: the entries and their checked copies (docs/ARCHITECTURE.md, "Two entries sit across the layers"). */
const ACROSS = /^(index|codegen|core|[a-z-]+-entry|entry-checks)\.ts$/;

/** Upward imports that remain, "file -> import": each with why it is not fixed yet. */
const KNOWN_UPWARD = new Map<string, string>([]);

interface Layer {
  name: string;
  /** Patterns relative to runtime/: a file, or a folder's files with `dir/*` (its subfolders too). */
  files: string[];
}

/** The layer table of docs/ARCHITECTURE.md: the rows of the first table after the runtime heading, in order. */
export function runtimeLayers(markdown: string): Layer[] {
  const at = markdown.indexOf("## The runtime (`runtime/`)");
  assert.ok(at >= 0, "docs/ARCHITECTURE.md has no runtime section");
  const lines = markdown.slice(at).split("\n");
  const start = lines.findIndex((l) => /^\|\s*layer\s*\|\s*files\s*\|/.test(l));
  assert.ok(start >= 0, "the runtime section has no `| layer | files |` table");
  const layers: Layer[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [name, files] = line.split("|").slice(1, 3).map((c) => c.trim());
    layers.push({ name: name!, files: [...files!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) });
  }
  return layers;
}

/** The layer index of a runtime file (relative, `/`-separated): an exact name beats a glob, a longer glob a shorter one. */
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

test("the runtime's value imports follow the layer table of docs/ARCHITECTURE.md", () => {
  const layers = runtimeLayers(readFileSync(path.join(REPO, "docs", "ARCHITECTURE.md"), "utf8"));
  assert.ok(layers.length >= 8, `${layers.length} layers read`);
  const rel = (f: string): string => path.relative(RUNTIME, f).split(path.sep).join("/");
  const unplaced: string[] = [];
  const upward: string[] = [];
  let edges = 0;
  for (const f of sources(RUNTIME, [])) {
    const from = rel(f);
    if (ACROSS.test(from)) continue;
    const mine = layerOf(layers, from);
    if (mine === undefined) {
      unplaced.push(from);
      continue;
    }
    for (const target of valueImports(f, readFileSync(f, "utf8"))) {
      const to = rel(target);
      const theirs = layerOf(layers, to);
      edges++;
      if (theirs !== undefined && theirs > mine) upward.push(`runtime/${from} -> runtime/${to} (${layers[mine]!.name} imports ${layers[theirs]!.name})`);
    }
  }
  assert.deepEqual(unplaced, [], "runtime files no layer of docs/ARCHITECTURE.md lists");
  assert.ok(edges > 200, `${edges} value imports read`);
  const known = upward.filter((u) => KNOWN_UPWARD.has(u.slice(0, u.indexOf(" ("))));
  const fresh = upward.filter((u) => !known.includes(u));
  assert.deepEqual(fresh, [], `value imports that go down the layer table:\n${fresh.join("\n")}`);
  const gone = [...KNOWN_UPWARD.keys()].filter((k) => !upward.some((u) => u.startsWith(k + " (")));
  assert.deepEqual(gone, [], "known upward imports that are gone: remove them from KNOWN_UPWARD");
});

test("the layer table reader: rows in order, globs, the most specific pattern wins", () => {
  const md = [
    "## The runtime (`runtime/`)",
    "",
    "| layer | files | owns |",
    "|---|---|---|",
    "| wire | `errors.ts`, `a/*` | x |",
    "| codec | `a/b/*`, `a/c.ts` | y |",
    "",
    "| layer | files |",
  ].join("\n");
  const layers = runtimeLayers(md);
  assert.deepEqual(layers, [
    { name: "wire", files: ["errors.ts", "a/*"] },
    { name: "codec", files: ["a/b/*", "a/c.ts"] },
  ]);
  assert.equal(layerOf(layers, "errors.ts"), 0);
  assert.equal(layerOf(layers, "a/d.ts"), 0);
  assert.equal(layerOf(layers, "a/b/e.ts"), 1);
  assert.equal(layerOf(layers, "a/c.ts"), 1);
  assert.equal(layerOf(layers, "z.ts"), undefined);
});
