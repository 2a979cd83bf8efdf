/**
 * bench/size.ts measures what issue 9 sets targets for; these check that its parts measure (sizes, not
 * timing: the same code gives the same bytes), not what the figures are.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, test } from "node:test";
import { BUNDLE_DIR, REPO, bundleEntries, bundleSize } from "../bench/size/bundle.ts";
import { diffStability } from "../bench/size/diff.ts";
import { generatedSize, reachableDefinitions, summarizeGenerated, type GeneratedSize } from "../bench/size/generated.ts";
import { moduleParts } from "../bench/size/parts.ts";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { emitModule } from "../generator/emit/module.ts";
import { loadSchemaFile } from "../generator/load/index.ts";
import { checkTargets, renderMarkdown, type SizeResults } from "../bench/size/report.ts";

describe("bench:size bundles", () => {
  test("every bench/bundle entry bundles without errors or warnings", async () => {
    const names = bundleEntries().map((e) => path.basename(e, ".ts"));
    for (const n of ["orders-binary", "orders-text", "barrel-one", "orders-all"]) assert.ok(names.includes(n), `bench/bundle/${n}.ts is missing`);
    assert.ok(!names.some((n) => n.startsWith("_")), "helpers (_*.ts) are not entries");
    for (const entry of bundleEntries()) {
      const b = await bundleSize(entry);
      assert.deepEqual(b.warnings, [], `${b.name}: ${b.warnings.join("; ")}`);
      assert.ok(b.gzip > 0 && b.gzip < b.minified, `${b.name}: gzip ${b.gzip}, minified ${b.minified}`);
    }
  });

  test("orders-binary: sizes are deterministic and its inputs account for the output", async () => {
    const entry = path.join(BUNDLE_DIR, "orders-binary.ts");
    const a = await bundleSize(entry);
    const b = await bundleSize(entry);
    assert.equal(a.minified, b.minified);
    assert.equal(a.gzip, b.gzip);
    assert.equal(a.entry, "bench/bundle/orders-binary.ts");
    const paths = a.inputs.map((i) => i.path);
    assert.ok(paths.includes("examples/orders/gen/order-list.ts"), paths.join(", "));
    // toon-gen/runtime resolved through the package's exports with the toon-dev condition: .ts sources
    assert.ok(paths.some((p) => p.startsWith("runtime/") && p.endsWith(".ts")), paths.join(", "));
    assert.ok(!paths.some((p) => p.startsWith("dist/")), "bundled the built runtime, not the sources");
    const sum = a.inputs.reduce((s, i) => s + i.bytes, 0);
    // the rest is esbuild's own glue (module wrappers, export statements)
    assert.ok(sum <= a.minified && sum > a.minified * 0.9, `inputs ${sum} of ${a.minified}`);
    for (let i = 1; i < a.inputs.length; i++) assert.ok(a.inputs[i - 1]!.bytes >= a.inputs[i]!.bytes, "inputs are sorted, largest first");
  });

  test("the barrel re-exports every example's generated index", () => {
    const barrel = readFileSync(path.join(BUNDLE_DIR, "_all-examples.ts"), "utf8");
    const examples = readdirSync(path.join(REPO, "examples"), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(path.join(REPO, "examples", d.name, "gen", "index.ts")))
      .map((d) => d.name);
    assert.ok(examples.length >= 2, examples.join(", "));
    for (const name of examples) assert.ok(barrel.includes(`"../../examples/${name}/gen/index.ts"`), `bench/bundle/_all-examples.ts misses examples/${name}`);
  });
});

describe("bench:size generated size", () => {
  test("a schema's bytes count each file it references once", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toon-size-gen-"));
    try {
      const shared = JSON.stringify({ type: "object", properties: { x: { type: "integer" }, y: { type: "string" } }, required: ["x"] }, null, 2);
      const main = JSON.stringify(
        { title: "Pair", type: "object", properties: { a: { $ref: "shared.json" }, b: { $ref: "shared.json" } }, required: ["a"] },
        null,
        2,
      );
      writeFileSync(path.join(dir, "shared.json"), shared);
      writeFileSync(path.join(dir, "pair.json"), main);
      const g = await generatedSize({ id: "pair.json", file: path.join(dir, "pair.json") }, dir);
      assert.equal(g.error, undefined);
      assert.equal(g.documents, 2);
      assert.equal(g.schemaBytes, Buffer.byteLength(main) + Buffer.byteLength(shared));
      assert.ok(g.moduleBytes! > g.schemaBytes, `a module of ${g.moduleBytes} bytes`);
      assert.equal(g.ratio, g.moduleBytes! / g.schemaBytes);
      assert.equal(Object.values(g.parts!).reduce((a, b) => a + b, 0), g.moduleBytes, "the parts add up to the module");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the orders example: the module generated is about the size of the committed one", async () => {
    const file = path.join(REPO, "examples", "orders", "schemas", "order-list.schema.json");
    const g = await generatedSize({ id: "orders", file }, path.join(REPO, "examples", "orders"));
    assert.equal(g.error, undefined);
    assert.equal(g.schemaBytes, Buffer.byteLength(readFileSync(file, "utf8")));
    // the committed module also has sample-profiled default tables: not byte-equal, but close
    const committed = Buffer.byteLength(readFileSync(path.join(REPO, "examples", "orders", "gen", "order-list.ts"), "utf8"));
    assert.ok(Math.abs(g.moduleBytes! - committed) < committed * 0.2, `${g.moduleBytes} vs committed ${committed}`);
  });

  test("a definition counts what it reaches through $ref, each once, cycles included", () => {
    const doc = {
      $defs: {
        A: { type: "object", properties: { b: { $ref: "#/$defs/B" }, b2: { $ref: "#/$defs/B" } } },
        B: { type: "array", items: { $ref: "#/$defs/A" } },
        C: { type: "string" },
      },
    };
    assert.deepEqual(reachableDefinitions(doc, "/$defs/A"), [doc.$defs.A, doc.$defs.B]);
    assert.deepEqual(reachableDefinitions(doc, "/$defs/C"), [doc.$defs.C]);
  });

  test("summary: median, worst, modules over 1 MB, failures left out of the ratios", () => {
    const row = (id: string, schemaBytes: number, moduleBytes: number): GeneratedSize => ({ id, schemaBytes, documents: 1, moduleBytes, ratio: moduleBytes / schemaBytes });
    const rows = [row("a", 100, 300), row("b", 100, 500), row("c", 1000, 2_000_000), row("d", 100, 800), { id: "e", schemaBytes: 10, documents: 1, error: "X" }];
    const s = summarizeGenerated(rows);
    assert.equal(s.schemas, 5);
    assert.equal(s.failed, 1);
    assert.equal(s.medianRatio, (5 + 8) / 2);
    assert.deepEqual(s.worst, { id: "c", ratio: 2000 });
    assert.equal(s.overOneMB, 1);
    assert.deepEqual(s.worst10.map((r) => r.id), ["c", "d", "b", "a"]);
  });

  test("parts: the committed orders module, by feature, adds up and leaves little unclassified", () => {
    const text = readFileSync(path.join(REPO, "examples", "orders", "gen", "order-list.ts"), "utf8");
    const parts = moduleParts(text);
    assert.equal(Object.values(parts).reduce((a, b) => a + b, 0), Buffer.byteLength(text));
    for (const p of ["types", "binary", "codec object"] as const) assert.ok(parts[p] > 0, `no ${p} bytes`);
    // a rename in the emitter lands in "other": this is what says parts.ts needs a rule for it
    assert.ok(parts.other < Buffer.byteLength(text) * 0.1, `"other" is ${parts.other} bytes`);
  });

  test("parts: a module written for size leaves little unclassified either", async () => {
    await initHash();
    const ir = await loadSchemaFile("schemas/order-list.schema.json", { cwd: path.join(REPO, "examples", "orders") });
    const text = emitModule(ir, buildDictionary(ir), { fileName: "order-list.ts", optimize: "size" });
    const parts = moduleParts(text);
    assert.equal(Object.values(parts).reduce((a, b) => a + b, 0), Buffer.byteLength(text));
    assert.ok(parts.binary > 0 && parts["text check"] > 0, JSON.stringify(parts));
    assert.ok(parts.other < Buffer.byteLength(text) * 0.1, `"other" is ${parts.other} bytes`);
  });

  test("parts: a statement goes to its name's feature, leading comments with it", () => {
    const text = "/** doc */\nexport interface A { x: number }\nfunction writeA(w: any, v: any): void {}\nconst $mystery1 = 1;\nexport const A = { encode() {} };\n";
    const parts = moduleParts(text);
    assert.equal(parts.types, Buffer.byteLength("/** doc */\nexport interface A { x: number }"));
    assert.equal(parts.binary, Buffer.byteLength("\nfunction writeA(w: any, v: any): void {}"));
    assert.equal(parts.other, Buffer.byteLength("\nconst $mystery1 = 1;") + 1);
    assert.equal(parts["codec object"], Buffer.byteLength("\nexport const A = { encode() {} };"));
  });
});

describe("bench:size diff stability", () => {
  test("one optional property: the lines it changes, counted by git diff", async () => {
    const d = await diffStability();
    assert.equal(d.changed, d.linesAdded + d.linesDeleted);
    assert.ok(d.linesAdded > 0 && d.hunks > 0 && d.hunks <= d.changed, JSON.stringify({ ...d, patch: undefined }));
    assert.ok(d.moduleLines > 100);
    assert.ok(d.changedIgnoringNumbering > 0 && d.changedIgnoringNumbering <= d.changed, String(d.changedIgnoringNumbering));
    // the property itself shows up, and the committed dictionary was evolved, not left alone
    assert.match(d.patch, /^\+.*giftMessage\?: string \| undefined;$/m);
    assert.equal(d.dictionaryChanged, true);
    assert.equal((d.patch.match(/^[+-](?![+-])/gm) ?? []).length, d.changed);
  });
});

describe("bench:size targets", () => {
  test("each target is checked against its figure", () => {
    const bundle = (name: string, gzip: number) => ({ name, entry: `bench/bundle/${name}.ts`, minified: gzip * 3, gzip, inputs: [], warnings: [] });
    const diff = { project: "p", module: "m.ts", added: "/x", moduleLines: 500, linesAdded: 10, linesDeleted: 31, changed: 41, changedIgnoringNumbering: 30, hunks: 3, dictionaryChanged: true, patch: "" };
    const r: Omit<SizeResults, "targets"> = {
      run: { date: "d", node: "n", esbuild: "e", commit: "c", corpus: "absent" },
      bundles: [bundle("orders-binary", 12 * 1024), bundle("orders-text", 22 * 1024 + 1)],
      bundleFailures: [{ entry: "bench/bundle/barrel-one.ts", error: "No matching export" }],
      generated: { skipped: "absent" },
      diff,
    };
    const t = checkTargets(r);
    assert.deepEqual(
      t.map((x) => [x.what.split(" ")[1], x.ok]),
      [["orders-binary", true], ["orders-text", false], ["barrel-one", false], ["lines", false]],
    );
    const md = renderMarkdown({ ...r, targets: t });
    assert.match(md, /bench\/bundle\/barrel-one\.ts did not bundle/);
    assert.match(md, /absent/);
  });
});
