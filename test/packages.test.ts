// The two packages of this repository: @toon-gen/runtime (runtime/, zero dependencies, what generated code imports
// and an app's only production dependency) and toon-gen (the generator and CLI, a devDependency that depends on
// the runtime). Checks the manifests, the default import of generated code, and scripts/link-runtime.mjs, the
// build step that makes the generator's dist use the runtime package instead of a copy of it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "../generator/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

type Target = string | { "toon-dev"?: string; types?: string; default?: string };
interface Manifest {
  name: string;
  version: string;
  workspaces?: string[];
  exports: Record<string, Target>;
  files?: string[];
  sideEffects?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  optionalDependencies?: Record<string, string>;
}
const read = (file: string): Manifest => JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as Manifest;
const generator = read("package.json");
const runtime = read("runtime/package.json");

test("packages: the runtime has zero dependencies of any kind and is side-effect free", () => {
  assert.equal(runtime.name, "@toon-gen/runtime");
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"] as const) {
    assert.equal(runtime[field], undefined, `runtime/package.json has ${field}`);
  }
  assert.equal(runtime.sideEffects, false);
  assert.deepEqual(runtime.files, ["dist", "README.md"]);
  assert.ok(existsSync(path.join(ROOT, "runtime", "README.md")));
});

test("packages: every runtime export points at a source and at the dist build of that source", () => {
  for (const [sub, target] of Object.entries(runtime.exports)) {
    if (typeof target === "string") continue;
    const dev = target["toon-dev"]!;
    if (sub.includes("*")) {
      assert.equal(sub, "./internal/*.js", "the one pattern is the generator's internal entry");
      assert.deepEqual(target, { "toon-dev": "./*.ts", types: "./dist/*.d.ts", default: "./dist/*.js" });
      continue;
    }
    assert.ok(existsSync(path.join(ROOT, "runtime", dev)), `${sub}: runtime/${dev} does not exist`);
    assert.equal(target.default, "./dist/" + dev.slice(2).replace(/\.ts$/, ".js"), sub);
    assert.equal(target.types, "./dist/" + dev.slice(2).replace(/\.ts$/, ".d.ts"), sub);
  }
});

test("packages: toon-gen/runtime* and @toon-gen/runtime* are the same subpaths over the same sources", () => {
  const old = Object.entries(generator.exports).filter(([sub]) => sub === "./runtime" || sub.startsWith("./runtime/"));
  assert.ok(old.length >= 10, "toon-gen keeps its runtime re-exports");
  const publicSubs = Object.keys(runtime.exports).filter((s) => !s.includes("*") && s !== "./package.json");
  // besides the public entries, the generated-code surface by its internal name (`runtimeImport: "toon-gen/runtime"`)
  const internal = (sub: string): boolean => sub.startsWith("./runtime/internal/");
  assert.deepEqual(old.filter(([sub]) => !internal(sub)).map(([sub]) => "." + sub.slice("./runtime".length)).sort(), publicSubs.sort());
  assert.deepEqual(old.filter(([sub]) => internal(sub)).map(([sub]) => sub), ["./runtime/internal/codegen.js"]);
  const pattern = runtime.exports["./internal/*.js"] as Exclude<Target, string>;
  for (const [sub, target] of old) {
    const mine = internal(sub)
      ? { "toon-dev": pattern["toon-dev"]!.replace("*", sub.slice("./runtime/internal/".length, -".js".length)) }
      : (runtime.exports["." + sub.slice("./runtime".length)] as Exclude<Target, string>);
    // the same source file under toon-dev, so tests that import either name share one module instance
    assert.equal((target as Exclude<Target, string>)["toon-dev"], "./runtime/" + mine["toon-dev"]!.slice(2), sub);
  }
});

test("packages: the generator depends on the runtime of its own version; heavy or native packages are opt-in peers", () => {
  assert.equal(generator.name, "toon-gen");
  assert.deepEqual(generator.workspaces, ["runtime"]);
  assert.equal(generator.version, runtime.version);
  assert.equal(generator.dependencies?.["@toon-gen/runtime"], runtime.version, "pinned: the generator uses runtime internals");
  assert.equal(generator.optionalDependencies, undefined, "optionalDependencies install by default");
  for (const opt of ["tsx", "zod", "zod-to-json-schema", "typescript", "gpt-tokenizer", "zstd-napi"]) {
    assert.equal(generator.dependencies?.[opt], undefined, `${opt} is a dependency`);
    assert.ok(generator.peerDependencies?.[opt] !== undefined, `${opt} is not a peer`);
    assert.equal(generator.peerDependenciesMeta?.[opt]?.optional, true, `${opt} is a required peer`);
    assert.ok(generator.devDependencies?.[opt] !== undefined, `${opt} is missing from this repository's own install`);
  }
});

test("packages: generated code imports @toon-gen/runtime by default, and runtimeImport still overrides it", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "toon-pkg-"));
  try {
    writeFileSync(path.join(dir, "point.schema.json"), JSON.stringify({ type: "object", properties: { x: { type: "integer" } }, required: ["x"], additionalProperties: false }));
    const base = { inputs: ["point.schema.json"], dictionaryDir: "dict" };
    await generate({ ...base, outDir: "a" }, { cwd: dir });
    const a = readFileSync(path.join(dir, "a", "point.ts"), "utf8");
    // the generated-code surface by its internal subpath (unchecked); `/codegen` is its checked public copy
    assert.match(a, /from "@toon-gen\/runtime\/internal\/codegen\.js";/);
    assert.doesNotMatch(a, /"toon-gen\/runtime/);
    await generate({ ...base, outDir: "b", runtimeImport: "toon-gen/runtime" }, { cwd: dir });
    assert.match(readFileSync(path.join(dir, "b", "point.ts"), "utf8"), /from "toon-gen\/runtime\/internal\/codegen\.js";/);
    // which both packages export
    const exportsOf = (file: string): Record<string, unknown> => (JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as { exports: Record<string, unknown> }).exports;
    assert.ok("./internal/*.js" in exportsOf("runtime/package.json"));
    assert.ok("./runtime/internal/codegen.js" in exportsOf("package.json"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("packages: link-runtime points the generator's dist at the runtime package and leaves re-exports in dist/runtime", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "toon-link-"));
  try {
    const put = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    put("package.json", JSON.stringify({ exports: { ".": { default: "./dist/generator/index.js" }, "./runtime/codegen": { "toon-dev": "./runtime/codegen.ts", types: "./dist/runtime/codegen.d.ts", default: "./dist/runtime/codegen.js" } } }));
    put("dist/runtime/codegen.js", "export const compiled = 1;\n");
    put("dist/runtime/codec/plan.js", "export const compiled = 1;\n");
    put(
      "dist/generator/emit/a.js",
      ['import { x } from "../../runtime/errors.js";', 'export * from "../../runtime/codec/plan.js";', 'const m = await import("../../runtime/text/check.js");', 'import { y } from "../ir/types.js";', 'const s = "../../runtime/not-an-import.js";', ""].join("\n"),
    );
    put("dist/generator/index.d.ts", 'export type { E } from "../runtime/errors.js";\nimport type * as D from "../runtime/codec/descriptor.ts";\n');
    const run = () => execFileSync(process.execPath, [path.join(ROOT, "scripts", "link-runtime.mjs"), dir], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    assert.match(run(), /5 imports now use @toon-gen\/runtime, 1 toon-gen\/runtime\* re-exports/);
    assert.equal(
      readFileSync(path.join(dir, "dist/generator/emit/a.js"), "utf8"),
      ['import { x } from "@toon-gen/runtime/internal/errors.js";', 'export * from "@toon-gen/runtime/internal/codec/plan.js";', 'const m = await import("@toon-gen/runtime/internal/text/check.js");', 'import { y } from "../ir/types.js";', 'const s = "../../runtime/not-an-import.js";', ""].join("\n"),
    );
    // a declaration file's type-only import keeps the source's .ts: the package exports ./internal/*.js
    assert.equal(readFileSync(path.join(dir, "dist/generator/index.d.ts"), "utf8"), 'export type { E } from "@toon-gen/runtime/internal/errors.js";\nimport type * as D from "@toon-gen/runtime/internal/codec/descriptor.js";\n');
    assert.ok(!existsSync(path.join(dir, "dist/runtime/codec/plan.js")), "the compiled copy of the runtime is gone");
    for (const f of ["dist/runtime/codegen.js", "dist/runtime/codegen.d.ts"]) assert.match(readFileSync(path.join(dir, f), "utf8"), /^export \* from "@toon-gen\/runtime\/codegen";$/m);
    assert.match(run(), /0 imports now use/, "a second run changes nothing and does not fail");
    rmSync(path.join(dir, "dist/generator"), { recursive: true });
    put("dist/generator/index.js", 'export const v = "0.1.0";\n');
    assert.throws(run, /no import of the runtime found/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("packages: a built dist (npm ci runs prepare) holds no second copy of the runtime", { skip: !existsSync(path.join(ROOT, "dist", "generator")) && "dist/ not built" }, () => {
  const main = readFileSync(path.join(ROOT, "dist", "generator", "cli", "main.js"), "utf8");
  assert.match(main, /"@toon-gen\/runtime\/internal\/wire\/errors\.js"/);
  assert.doesNotMatch(main, /"\.\.\/\.\.\/runtime\//);
  assert.match(readFileSync(path.join(ROOT, "dist", "runtime", "index.js"), "utf8"), /^export \* from "@toon-gen\/runtime";$/m);
  assert.ok(!existsSync(path.join(ROOT, "dist", "runtime", "wire", "writer.js")));
  assert.match(readFileSync(path.join(ROOT, "dist", "generator", "ir", "types.d.ts"), "utf8"), /"@toon-gen\/runtime\/internal\/codec\/descriptor\.js"/);
});
