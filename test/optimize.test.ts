// "optimize": "size" against the committed (speed) modules: one suite, run on both. Each example project is
// generated again for size (its config, dictionaries and samples, only `optimize` changed) and every codec of it
// must give the same bytes, decoded values, text, prompts, validation results and errors (code, path, message,
// offset, line, column) as the unrolled module, on its example data, on mutations of it and on damaged bytes
// and text. Also: what "auto" picks, and the config key.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ToonError } from "../runtime/wire/errors.ts";
import { generate } from "../generator/pipeline.ts";
import { loadConfig } from "../generator/cli/config.ts";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { emitModule, SIZE_BUDGET } from "../generator/emit/module.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { ADDRESS } from "./support/address-schema.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const GEN = path.join(ROOT, "test", ".gen", "optimize");

type Outcome = { ok: true; value: unknown } | { ok: false; error: Record<string, unknown> };

function outcome(f: () => unknown): Outcome {
  try {
    const value = f();
    return { ok: true, value: value instanceof Uint8Array ? Buffer.from(value).toString("hex") : value };
  } catch (e) {
    if (!(e instanceof ToonError)) throw e;
    return { ok: false, error: { code: e.code, path: e.path, message: e.message, offset: e.offset, line: e.line, column: e.column } };
  }
}

/** Both sides of `f` agree (values deep-equal, or the same ToonError). */
function same(label: string, f: (c: any) => unknown, speed: unknown, size: unknown): Outcome {
  const a = outcome(() => f(speed));
  const b = outcome(() => f(size));
  assert.deepStrictEqual(b, a, label);
  return a;
}

/** Up to `limit` mutated copies of `v`: each reachable value replaced by a wrong one, or a key added. */
function mutations(v: unknown, limit: number): unknown[] {
  const spots: (string | number)[][] = [];
  const walk = (x: unknown, at: (string | number)[]): void => {
    spots.push(at);
    if (Array.isArray(x)) x.slice(0, 3).forEach((y, i) => walk(y, [...at, i]));
    else if (x !== null && typeof x === "object") for (const [k, y] of Object.entries(x)) walk(y, [...at, k]);
  };
  walk(v, []);
  const wrong = [null, "x", 1.5, -1, true, {}, [], 2 ** 60];
  const out: unknown[] = [];
  const step = Math.max(1, Math.floor(spots.length / limit));
  for (let i = 0; i < spots.length && out.length < limit; i += step) {
    const at = spots[i]!;
    for (const w of [wrong[i % wrong.length], wrong[(i + 3) % wrong.length]]) {
      if (at.length === 0) continue;
      const copy = structuredClone(v) as any;
      let o = copy;
      for (const k of at.slice(0, -1)) o = o[k];
      o[at[at.length - 1]!] = w;
      out.push(copy);
    }
    const copy = structuredClone(v) as any;
    let o = copy;
    for (const k of at) o = o[k];
    if (o !== null && typeof o === "object" && !Array.isArray(o)) {
      o["zz-extra"] = 1;
      out.push(copy);
    }
  }
  return out;
}

/** The codecs a generated project exports: `[module file, export name]` of every codec object. */
function codecsOf(files: { path: string; content: string }[], outDir: string): [string, string][] {
  const out: [string, string][] = [];
  for (const f of files) {
    if (!f.path.startsWith(outDir) || !f.path.endsWith(".ts") || f.path.endsWith(".validate.ts")) continue;
    const m = /^export const (\w+) = \/\*@__PURE__\*\/ \$rt\.codecOf\(/m.exec(f.content);
    if (m !== null) out.push([path.relative(outDir, f.path), m[1]!]);
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The suite: every feature of `speed` and `size` on each value, its damaged bytes and text, and mutations of it. */
function compareCodecs(label: string, speed: any, size: any, values: unknown[]): void {
  for (const value of values) {
    const enc = same(`${label} encode`, (c) => c.encode(value), speed, size);
    assert.ok(enc.ok, `${label}: the example data encodes`);
    const bytes = speed.encode(value) as Uint8Array;
    same(`${label} decode`, (c) => c.decode(bytes), speed, size);
    for (let n = 0; n < bytes.length; n += Math.max(1, Math.floor(bytes.length / 60))) {
      same(`${label} decode truncated to ${n}`, (c) => c.decode(bytes.subarray(0, n)), speed, size);
      const bad = new Uint8Array(bytes);
      bad[n] = bad[n]! ^ 0x41;
      same(`${label} decode with byte ${n} changed`, (c) => c.decode(bad), speed, size);
    }
    same(`${label} validate`, (c) => c.validate(value), speed, size);
    const text = same(`${label} toText`, (c) => c.toText(value), speed, size);
    assert.ok(text.ok);
    const t = text.value as string;
    same(`${label} fromText`, (c) => c.fromText(t), speed, size);
    same(`${label} fromModelOutput`, (c) => c.fromModelOutput("Here:\n```toon\n" + t + "\n```"), speed, size);
    const lines = t.split("\n");
    for (let i = 1; i < lines.length; i += Math.max(1, Math.floor(lines.length / 20))) {
      same(`${label} fromText cut at line ${i}`, (c) => c.fromText(lines.slice(0, i).join("\n")), speed, size);
      const edited = [...lines];
      edited[i] = edited[i]!.replace(/: .*$/, ": [1]");
      same(`${label} fromText line ${i} edited`, (c) => c.fromText(edited.join("\n")), speed, size);
    }
    for (const [i, m] of mutations(value, 80).entries()) {
      same(`${label} mutation ${i} encode`, (c) => c.encode(m), speed, size);
      same(`${label} mutation ${i} validate`, (c) => c.validate(m), speed, size);
      same(`${label} mutation ${i} toText`, (c) => c.toText(m), speed, size);
    }
  }
}

const EXAMPLES = ["orders", "logs", "extraction", "tool-calls", "tools", "agent-loop"];

describe('"optimize": "size" = the unrolled module', () => {
  before(() => initHash());
  for (const ex of EXAMPLES) {
    test(ex, async () => {
      const project = path.join(ROOT, "examples", ex);
      const { config, baseDir } = loadConfig(undefined, project);
      // a copy of the project, so that the size modules sit where their relative imports (validators, args) resolve
      const copy = path.join(GEN, ex);
      rmSync(copy, { recursive: true, force: true });
      mkdirSync(copy, { recursive: true });
      cpSync(project, copy, { recursive: true, filter: (src) => !src.startsWith(path.join(project, config.outDir)) });
      const r = await generate({ ...config, optimize: "size" }, { cwd: copy });
      const outDir = path.resolve(copy, config.outDir);
      const codecs = codecsOf(r.files, outDir);
      assert.ok(codecs.length > 0, `${ex}: no codec modules`);
      for (const [file, name] of codecs) {
        const sizeText = readFileSync(path.join(outDir, file), "utf8");
        assert.match(sizeText, /Written for size/, `${file} is written for size`);
        assert.doesNotMatch(sizeText, /^function write/m, `${file} has no unrolled writers`);
        const speed = (await import(pathToFileURL(path.resolve(baseDir, config.outDir, file)).href))[name];
        const size = (await import(pathToFileURL(path.join(outDir, file)).href))[name];
        assert.ok(speed && size, `${file} exports ${name}`);
        const label = `${ex} ${file}`;
        assert.equal(size.fingerprint, speed.fingerprint);
        same(`${label} formatInstructions`, (c) => c.formatInstructions(), speed, size);
        const dataFile = path.join(project, "data", file.replace(/\.ts$/, ".json"));
        const values: unknown[] = existsSync(dataFile) ? [JSON.parse(readFileSync(dataFile, "utf8"))] : [];
        compareCodecs(label, speed, size, values);
      }
    });
  }
});

/** Schemas whose descriptors and types have shared parts (emit/descriptor-share.ts, emit/types-share.ts), with values. */
const SHARED: { name: string; schema: unknown; values: unknown[]; types?: RegExp }[] = [
  {
    name: "Person",
    schema: { type: "object", properties: { home: ADDRESS, work: ADDRESS, past: { type: "array", items: ADDRESS } }, required: ["home"] },
    values: [{ home: { street: "1 Main St", city: "Springfield", country: "US" }, past: [{ street: "2 Elm", city: "Shelbyville", postcode: "12345", country: "US", region: "IL" }] }],
    types: /^ {2}work\?: PersonHome \| undefined;$/m,
  },
  {
    name: "Rules",
    schema: {
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [
          `rule-${i}`,
          { anyOf: [{ type: "boolean" }, { type: "object", properties: { severity: { enum: ["off", "warn", "error"] }, options: { type: "array", items: { type: "string" } } }, additionalProperties: false }] },
        ]),
      ),
    },
    values: [{ "rule-0": true, "rule-3": { severity: "warn", options: ["a", "b"] }, "rule-7": { options: [] }, other: 1 }],
  },
  {
    name: "Chain",
    schema: {
      definitions: Object.fromEntries(
        Array.from({ length: 6 }, (_, i) => [
          `d${i}`,
          i === 0
            ? { type: "object", properties: { p0: { type: "string", enum: ["a long enough value for the sharing threshold", "b"] } }, additionalProperties: false }
            : { allOf: [{ $ref: `#/definitions/d${i - 1}` }, { properties: { [`p${i}`]: { type: "integer", minimum: 0, description: `The count the link ${i} of the chain adds to its parent's fields.` } } }] },
        ]),
      ),
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}`, { $ref: `#/definitions/d${i}` }])),
    },
    values: [{ f0: { p0: "b" }, f3: { p0: "b", p1: 1, p2: 2, p3: 3 }, f5: { p5: 5 } }],
    // an allOf chain: each link's type extends its parent's
    types: /^export interface D5 extends D4 \{\n {2}\/\*\* The count the link 5/m,
  },
];

test("shared descriptor parts: speed and size modules agree", async () => {
  await initHash();
  for (const c of SHARED) {
    const ir = schemaToIR(c.schema, { source: `${c.name}.json`, name: c.name });
    const dict = buildDictionary(ir);
    const mods: Record<string, unknown> = {};
    for (const o of ["speed", "size"] as const) {
      const text = emitModule(ir, dict, { fileName: `${c.name}.ts`, optimize: o });
      assert.match(text, /^const \$[sp]_\w+: \$rt\.Descriptor(Shape|Property\[\]) = /m, `${c.name} ${o}: has shared parts`);
      const file = path.join(GEN, "shared", "gen", o, `${c.name}.ts`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      mods[o] = (await import(pathToFileURL(file).href))[c.name];
    }
    compareCodecs(`shared ${c.name}`, mods.speed, mods.size, c.values);
    if (c.types !== undefined) assert.match(readFileSync(path.join(GEN, "shared", "gen", "size", `${c.name}.ts`), "utf8"), c.types);
  }
});

// after the suites above wrote the size modules: they compile under the strict flags apps turn on (as
// test/strict-flags.test.ts checks the committed ones)
test("size modules compile under the strict flags", () => {
  // checked when the test runs, not when the file loads: the suites above write GEN first (a fresh clone has none)
  assert.ok(existsSync(GEN), `the suites above wrote no size modules into ${GEN}`);
  const config = {
    compilerOptions: {
      strict: true,
      noUncheckedIndexedAccess: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      exactOptionalPropertyTypes: true,
      noPropertyAccessFromIndexSignature: true,
      verbatimModuleSyntax: true,
      erasableSyntaxOnly: true,
      target: "ES2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      customConditions: ["toon-dev"],
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: ["../../../node_modules/@types"],
      lib: ["ES2023", "DOM"],
    },
    include: [...EXAMPLES, "shared"].map((ex) => `${ex}/**/gen/**/*.ts`),
  };
  writeFileSync(path.join(GEN, "tsconfig.json"), JSON.stringify(config, null, 2));
  const res = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(GEN, "tsconfig.json"), "--pretty", "false", "--listFiles"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = `${res.stdout}${res.stderr}`.split("\n");
  assert.ok(out.some((l) => l.endsWith("optimize/orders/gen/order-list.ts")), "tsc checked the size modules");
  // the runtime is checked from its sources here; an app sees its declaration files
  const errors = out.filter((l) => /error TS\d+/.test(l) && l.includes("/gen/"));
  assert.deepEqual(errors, []);
});

describe('"optimize": which module is written', () => {
  before(() => initHash());
  const schema = { type: "object", properties: { a: { type: "string" }, b: { type: "array", items: { type: "integer" } } }, required: ["a"] };
  const ir = schemaToIR(schema, { source: "t.json", name: "T" });
  let dict!: ReturnType<typeof buildDictionary>;
  before(() => (dict = buildDictionary(ir)));
  test("auto is speed under the budget; size and speed as asked", () => {
    const auto = emitModule(ir, dict, { fileName: "t.ts" });
    assert.equal(auto, emitModule(ir, dict, { fileName: "t.ts", optimize: "speed" }));
    assert.ok(Buffer.byteLength(auto) < SIZE_BUDGET);
    const size = emitModule(ir, dict, { fileName: "t.ts", optimize: "size" });
    assert.match(size, /\$rt\.engineCodec\(\$descriptor\)/);
    assert.ok(size.length < auto.length, `size ${size.length} < speed ${auto.length}`);
  });
  test("auto writes for size above the budget", () => {
    const speed = emitModule(ir, dict, { fileName: "t.ts", optimize: "speed" });
    const budget = Buffer.byteLength(speed) - 1;
    const auto = emitModule(ir, dict, { fileName: "t.ts", sizeBudget: budget });
    assert.equal(auto, emitModule(ir, dict, { fileName: "t.ts", optimize: "size" }));
    assert.equal(emitModule(ir, dict, { fileName: "t.ts", sizeBudget: budget + 1 }), speed);
  });
  test("a field index needs speed", () => {
    assert.throws(() => emitModule(ir, dict, { fileName: "t.ts", optimize: "size", index: true }), { name: "ToonError", code: "CONFIG_ERROR" });
    // auto keeps speed for an indexed codec
    assert.doesNotMatch(emitModule(ir, dict, { fileName: "t.ts", index: true }), /engineCodec/);
  });
  test("the config key", () => {
    const dir = path.join(GEN, "config");
    mkdirSync(dir, { recursive: true });
    const write = (o: unknown): void => writeFileSync(path.join(dir, "toon.config.json"), JSON.stringify({ inputs: ["s.json"], outDir: "gen", ...(o as object) }));
    write({ optimize: "size" });
    assert.equal(loadConfig(undefined, dir).config.optimize, "size");
    write({ optimize: { T: "speed" } });
    assert.deepEqual(loadConfig(undefined, dir).config.optimize, { T: "speed" });
    write({ optimize: "fast" });
    assert.throws(() => loadConfig(undefined, dir), (e: unknown) => e instanceof ToonError && e.code === "CONFIG_ERROR" && e.path === "/optimize");
    write({ optimise: "size" });
    assert.throws(() => loadConfig(undefined, dir), (e: unknown) => e instanceof ToonError && /did you mean "optimize"/.test(e.message));
  });
});
