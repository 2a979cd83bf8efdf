// Tree-shaking: generated modules are side-effect free, so a bundle keeps exactly the feature groups an app uses
// (emit/module.ts: `<Codec>Binary`, `<Codec>Text`, ...; the all-in-one `<Codec>` object keeps them all). Checked
// by bundling small entries with esbuild and reading which runtime files contributed bytes (the metafile), not by
// timing or size thresholds (bench/size.ts measures sizes).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { build } from "esbuild";
import { REPO, suiteDir } from "./support/gen.ts";

const ORDERS = path.join(REPO, "examples", "orders", "gen", "order-list.ts");
const BARREL = [
  path.join(REPO, "examples", "orders", "gen", "index.ts"),
  path.join(REPO, "examples", "logs", "gen", "index.ts"),
  path.join(REPO, "examples", "extraction", "gen", "index.ts"),
  path.join(REPO, "examples", "tool-calls", "gen", "index.ts"),
  path.join(REPO, "examples", "tools", "gen", "index.ts"),
];

/** Bundles `source` as a browser app would; returns the repository files that contributed bytes to the output. */
async function contributors(name: string, source: string): Promise<Map<string, number>> {
  mkdirSync(DIR, { recursive: true });
  const entry = path.join(DIR, `${name}.ts`);
  writeFileSync(entry, source);
  const r = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    conditions: ["toon-dev"],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const out = Object.values(r.metafile.outputs)[0]!;
  const files = new Map<string, number>();
  for (const [file, info] of Object.entries(out.inputs)) {
    if (info.bytesInOutput > 0) files.set(path.relative(REPO, path.resolve(file)).split(path.sep).join("/"), info.bytesInOutput);
  }
  return files;
}

const DIR = suiteDir("treeshake");
const imp = (file: string): string => JSON.stringify(file);

test("treeshake: encode/decode alone pulls in neither text, streams, tools (constraint checks) nor the schemaless code", async () => {
  const files = await contributors(
    "binary",
    `import { OrderListBinary } from ${imp(ORDERS)};\nconsole.log(OrderListBinary.decode(OrderListBinary.encode({ orders: [] })));\n`,
  );
  assert.ok(files.has("examples/orders/gen/order-list.ts"), [...files.keys()].join(", "));
  for (const f of ["runtime/wire/reader.ts", "runtime/wire/writer.ts", "runtime/wire/contract.ts"]) assert.ok(files.has(f), `${f} is missing from the binary bundle`);
  for (const f of files.keys()) {
    assert.ok(!/^runtime\/(text\/|stream|tools|schemaless|sse|validate\/)/.test(f), `the binary bundle carries ${f} (${files.get(f)} bytes)`);
  }
  assert.ok(!files.has("examples/orders/gen/order-list.validate.ts"), "encode/decode alone keeps no JSON Schema validator");
});

test("treeshake: the validate group brings the JSON Schema validator module and its runtime helpers, and no text", async () => {
  const files = await contributors("validate", `import { OrderListValidate } from ${imp(ORDERS)};\nconsole.log(OrderListValidate.validate({ orders: [] }));\n`);
  assert.ok(files.has("examples/orders/gen/order-list.validate.ts"), [...files.keys()].join(", "));
  for (const f of ["runtime/validate/check.ts", "runtime/validate/formats.ts", "runtime/validate/messages.ts"]) assert.ok(files.has(f), `the validate bundle lacks ${f}`);
  for (const f of files.keys()) assert.ok(!/^runtime\/(text\/|stream|schemaless|sse)/.test(f), `the validate bundle carries ${f}`);
});

test("treeshake: the text group adds the text runtime, and no streams or tools", async () => {
  const files = await contributors(
    "text",
    `import { OrderListText } from ${imp(ORDERS)};\nconsole.log(OrderListText.fromText(OrderListText.toText({ orders: [] })));\n`,
  );
  assert.ok(files.has("runtime/text/encode.ts") && files.has("runtime/text/decode.ts"), [...files.keys()].join(", "));
  assert.ok(!files.has("runtime/text/model-output.ts"), "fromModelOutput is in the Prompt group, not Text");
  for (const f of files.keys()) assert.ok(!/^runtime\/(stream|tools|schemaless)[./]/.test(f), `the text bundle carries ${f}`);
  const dense = [...files.keys()].filter((f) => f.startsWith("runtime/text/dense/"));
  assert.deepEqual(dense, [], "the TOON v4 group carries no dense layout code");
});

test("treeshake: the dense group adds the dense layout, and not the TOON v4 parser", async () => {
  const files = await contributors(
    "dense",
    `import { OrderListDense } from ${imp(ORDERS)};\nconsole.log(OrderListDense.fromText(OrderListDense.toText({ orders: [] })));\n`,
  );
  for (const f of ["runtime/text/reader/dense.ts", "runtime/text/reader/dense-cells.ts", "runtime/text/reader/lines.ts", "runtime/text/dense/write.ts"]) assert.ok(files.has(f), `the dense bundle lacks ${f}: ${[...files.keys()].join(", ")}`);
  for (const f of ["runtime/text/encode.ts", "runtime/text/model-output.ts", "runtime/stream/encoder.ts", "runtime/stream/decoder.ts", "runtime/text/reader/toon.ts"]) assert.ok(!files.has(f), `the dense bundle carries ${f}`);
});

test("treeshake: one codec from a barrel of every example keeps no other codec module", async () => {
  const barrel = BARREL.map((f) => `export * from ${imp(f)};`).join("\n");
  mkdirSync(DIR, { recursive: true });
  writeFileSync(path.join(DIR, "barrel.ts"), barrel + "\n");
  const files = await contributors("barrel-one", `import { OrderListBinary } from "./barrel.ts";\nconsole.log(OrderListBinary.encode({ orders: [] }));\n`);
  const modules = [...files.keys()].filter((f) => f.startsWith("examples/"));
  assert.deepEqual(modules, ["examples/orders/gen/order-list.ts"]);
});

test("treeshake: a module nothing uses costs nothing, and the all-in-one object keeps every group", async () => {
  const none = await contributors("unused", `import { OrderList } from ${imp(ORDERS)};\nvoid OrderList;\n`);
  assert.deepEqual([...none.keys()].filter((f) => !f.includes("treeshake")), []);
  const all = await contributors("all", `import { OrderList } from ${imp(ORDERS)};\nconsole.log(OrderList);\n`);
  // validation is the JSON Schema validator module (runtime/validate/), no longer the constraint tables of runtime/tools.ts
  for (const f of ["runtime/text/decode.ts", "runtime/text/model-output.ts", "runtime/stream/encoder.ts", "runtime/stream/decoder.ts", "runtime/validate/check.ts", "examples/orders/gen/order-list.validate.ts"]) assert.ok(all.has(f), `the all-in-one codec lacks ${f}`);
});

test("treeshake: in an app whose package.json does not say sideEffects false, encode/decode still keeps no validator", async () => {
  // the generated files as an app has them: its own package, no "sideEffects" (esbuild then keeps every top-level
  // statement that may have an effect: ajv's `validateN.evaluated = ...`, RegExps, property reads)
  const app = path.join(DIR, "app");
  mkdirSync(path.join(app, "gen"), { recursive: true });
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", type: "module" }));
  for (const f of ["order-list.ts", "order-list.validate.ts"]) {
    writeFileSync(path.join(app, "gen", f), readFileSync(path.join(path.dirname(ORDERS), f), "utf8"));
  }
  const files = await contributors("app/entry", `import { OrderListBinary } from "./gen/order-list.ts";\nconsole.log(OrderListBinary.decode(OrderListBinary.encode({ orders: [] })));\n`);
  const kept = [...files.keys()].filter((f) => /validate/.test(f) && (files.get(f) ?? 0) > 400);
  assert.deepEqual(kept, [], `the binary bundle keeps validator code: ${kept.map((f) => `${f} ${files.get(f)} B`).join(", ")}`);
});
