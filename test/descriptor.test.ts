// The codec descriptor (runtime/codec/descriptor.ts): plain JSON with nothing but what the engine reads, and the
// engine run from a JSON copy of it (what a generated module or a browser would hold) is the generated codec.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileCodec, type CodecDescriptor } from "../runtime/codec/index.ts";
import { textCheckOf } from "../runtime/codec/engine/text-check.ts";
import { fromTextWith } from "../runtime/text/check.ts";
import { parseDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { describeCodec, printDescriptor } from "../generator/emit/descriptor.ts";
import { loadSchemaFile } from "../generator/load/index.ts";
import { checkConstraints, hasConstraints } from "../runtime/validate/constraints.ts";
import { someShape } from "../runtime/codec/plan.ts";
import type { Shape } from "../runtime/codec/descriptor.ts";
import { codecIR } from "../generator/emit/descriptor.ts";

/** The enforced constraints of every shape under `roots`, in walk order (the IR's `unchecked` list left out). */
function constraintsOf(roots: Shape[]): unknown[] {
  const out: unknown[] = [];
  someShape(roots, (s) => {
    const { unchecked: _, ...c } = s.constraints ?? {};
    if (Object.keys(c).length > 0) out.push([s.kind, c]);
    return false;
  });
  return out;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const EXAMPLES = [
  { dir: "orders", file: "order-list" },
  { dir: "logs", file: "log-report" },
  { dir: "extraction", file: "extraction-result" },
  { dir: "tool-calls", file: "tool-call-batch" },
];

/** Keys of the generator's IR that a descriptor must not carry (source facts, warnings). */
const SOURCE_KEYS = ["schemaPath", "description", "unchecked", "origin", "source", "warnings"];

function keysOf(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) for (const x of v) keysOf(x, out);
  else if (typeof v === "object" && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      keysOf(x, out);
    }
  }
  return out;
}

function assertPlain(desc: CodecDescriptor, label: string): CodecDescriptor {
  const copy = JSON.parse(JSON.stringify(desc)) as CodecDescriptor;
  assert.deepStrictEqual(copy, desc, `${label}: the descriptor survives JSON unchanged (no undefined, bigint or functions)`);
  const keys = keysOf(desc);
  for (const k of SOURCE_KEYS) assert.ok(!keys.has(k), `${label}: the descriptor carries no ${k}`);
  return copy;
}

describe("codec descriptor", () => {
  before(() => initHash());

  for (const ex of EXAMPLES) {
    test(`${ex.dir}: plain JSON; the engine on its JSON copy is the generated module`, async () => {
      const dir = path.join(ROOT, "examples", ex.dir);
      const ir = await loadSchemaFile(`schemas/${ex.file}.schema.json`, { cwd: dir });
      const dictFile = path.join(dir, "dictionaries", `${ex.file}.dictionary.json`);
      const dict = parseDictionary(readFileSync(dictFile, "utf8"), dictFile);
      const desc = describeCodec(ir, dict);
      assert.equal(desc.name, ir.name);
      assert.equal(desc.tables, dict.defaults !== undefined && dict.defaults.tables.length > 0);
      assert.equal(desc.fingerprint, desc.tables ? dict.defaults!.fingerprint : dict.base.fingerprint);
      const codec = compileCodec(assertPlain(desc, ex.dir));
      const gen = (await import(pathToFileURL(path.join(dir, "gen", `${ex.file}.ts`)).href))[ir.name];
      const data = JSON.parse(readFileSync(path.join(dir, "data", `${ex.file}.json`), "utf8"));
      const bytes = gen.encode(data);
      assert.deepEqual(codec.encode(data), bytes);
      assert.deepStrictEqual(codec.decode(bytes), gen.decode(bytes));
      assert.equal(codec.fingerprint, gen.fingerprint);
      assert.deepEqual(codec.validate(data), gen.validate(data));
      // the module embeds this very descriptor (its streams run on it, validate() reads its constraints)
      assert.deepStrictEqual(gen.stream.spec.descriptor, desc);
      // the constraint checker reads the descriptor's shapes: every constraint the full IR enforces is there
      const full = codecIR(ir, dict);
      const descShapes = [desc.root, ...desc.definitions.map((d) => d.shape)];
      const irShapes = [full.root, ...full.definitions.map((d) => d.shape)];
      assert.deepStrictEqual(constraintsOf(descShapes), constraintsOf(irShapes));
      assert.equal(hasConstraints(descShapes), hasConstraints(irShapes));
      assert.deepStrictEqual(checkConstraints(data, desc), []);
      // the interpreted text check runs on the descriptor: same value as fromText, same errors
      const check = textCheckOf(desc);
      const text = gen.toText(data);
      assert.deepStrictEqual(fromTextWith(text, undefined, check), gen.fromText(text));
      for (const bad of ["", "x: 1", text.replace(/\n[^\n]*$/, "\n" + text.split("\n").pop()!.replace(/: .*/, "[2]: 1,2"))]) {
        const fail = (f: () => unknown) => {
          try {
            f();
          } catch (e) {
            const x = e as { code: string; path: string; message: string; line: number; column: number };
            return { code: x.code, path: x.path, message: x.message, line: x.line, column: x.column };
          }
          return undefined;
        };
        const want = fail(() => gen.fromText(bad));
        if (bad !== text) assert.ok(want !== undefined, `${ex.dir}: ${JSON.stringify(bad.slice(-60))} is rejected`);
        assert.deepEqual(fail(() => fromTextWith(bad, undefined, check)), want, `${ex.dir}: ${JSON.stringify(bad.slice(-60))}`);
      }
    });
  }

  test("printDescriptor: the module text evaluates to the same JSON (__proto__ keys, line separators, -0)", () => {
    const hostile = JSON.parse('{"__proto__": {"a": 1}, "x\u2028y": "p\u2029q", "constructor": [-0, 1e21, "\\u0000"]}');
    const desc = { name: "N", fingerprint: 1, level: 0, tables: false, retired: [], definitions: [],
      root: { kind: "enum", values: [hostile, "a".repeat(120), Array.from({ length: 40 }, (_, i) => i)] } };
    const text = printDescriptor(desc);
    assert.ok(text.split("\n").every((l) => !/[\u2028\u2029]/.test(l)), "no raw line separators");
    assert.ok(text.split("\n").length > 5, "long values get one entry per line");
    const back = new Function(`return ${text};`)();
    assert.deepStrictEqual(back, desc);
    assert.ok(Object.hasOwn(back.root.values[0], "__proto__") && Object.getPrototypeOf(back.root.values[0]) === Object.prototype);
    assert.ok(Object.is(back.root.values[0].constructor[0], -0));
  });

  test("evolved dictionaries: wire layouts, extension properties and retired IDs are in the descriptor", async () => {
    const dir = path.join(ROOT, "test", "evolution");
    const wire: string[] = [];
    const seen = { ext: 0, retired: 0 };
    for (const v of ["v1", "v2", "v3", "v4"]) {
      const ir = await loadSchemaFile(path.join(dir, "schemas", `${v === "v4" ? "v3" : v}.schema.json`), { cwd: ROOT });
      const file = path.join(dir, "dictionaries", `${v}.dictionary.json`);
      const dict = parseDictionary(readFileSync(file, "utf8"), file);
      const desc = describeCodec(ir, dict);
      assertPlain(desc, v);
      assert.equal(desc.level, dict.extensions.length);
      assert.deepEqual(desc.retired, dict.retired.map((r) => r.id));
      const text = JSON.stringify(desc);
      if (text.includes('"wire":')) wire.push(v);
      if (/"ext":\[\{/.test(text)) seen.ext++;
      if (desc.retired.length > 0) seen.retired++;
    }
    // v1 is fresh and v4 a rebase (their layouts are the schema order: left out); v2 adds properties; v3 retires one
    assert.deepEqual(wire, ["v2", "v3"]);
    assert.ok(seen.ext >= 2 && seen.retired >= 1, JSON.stringify(seen));
  });
});
