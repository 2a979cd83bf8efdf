// The runtime, the codec engine (runtime/codec) above all, must run in a browser from a descriptor alone: every
// module under runtime/ may import only other runtime files, by relative path (no generator/, templates/,
// node:*, xxhash-wasm or any package), and the engine uses no Node globals.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNTIME = path.join(ROOT, "runtime");

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourcesUnder(p));
    else if (/\.(ts|mts|js|mjs)$/.test(name)) out.push(p);
  }
  return out;
}

/** Every module specifier of a source: static imports and re-exports, `import()` and `require()` (not strings or comments). */
function specifiers(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** The specifiers of `file` that leave the runtime (anything but a relative path to a file inside runtime/). */
function escapes(file: string, text: string): string[] {
  return specifiers(text).filter((s) => {
    if (!s.startsWith("./") && !s.startsWith("../")) return true;
    const target = path.resolve(path.dirname(file), s);
    return path.relative(RUNTIME, target).startsWith("..");
  });
}

test("the checker sees every form of import, and only imports", () => {
  const file = path.join(RUNTIME, "codec", "engine", "x.ts");
  const text = [
    'import { a } from "./a.ts";',
    'import {\n  b,\n  c,\n} from "../../../generator/emit/context.ts";',
    'export { d } from "node:fs";',
    'export type * from "../../../templates/code.ts";',
    'import "xxhash-wasm";',
    'const e = await import("node:path");',
    'const f = require("zstd-napi");',
    "const g = 'use it: import * as zstd from \"zstd-napi\"';",
    '// import { h } from "../../../generator/index.ts";',
  ].join("\n");
  assert.deepEqual(escapes(file, text), ["../../../generator/emit/context.ts", "node:fs", "../../../templates/code.ts", "xxhash-wasm", "node:path", "zstd-napi"]);
});

test("every runtime module imports only runtime modules", () => {
  const files = sourcesUnder(RUNTIME);
  assert.ok(files.some((f) => f.includes(path.join("runtime", "codec", "engine"))), "the engine is under runtime/codec/engine");
  const bad: string[] = [];
  for (const f of files) for (const s of escapes(f, readFileSync(f, "utf8"))) bad.push(`${path.relative(ROOT, f)}: ${s}`);
  assert.deepEqual(bad, []);
});

test("the codec engine uses no Node globals", () => {
  const bad: string[] = [];
  for (const f of sourcesUnder(path.join(RUNTIME, "codec"))) {
    const code = readFileSync(f, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""); // comments may name them
    for (const g of ["Buffer", "process", "require", "__dirname", "__filename"]) if (new RegExp(`\\b${g}\\b`).test(code)) bad.push(`${path.relative(ROOT, f)}: ${g}`);
  }
  assert.deepEqual(bad, []);
});
