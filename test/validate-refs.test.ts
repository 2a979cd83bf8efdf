/**
 * References inside a document, as the drafts resolve them (generator/load/resources.ts): embedded `$id`
 * resources (relative, absolute, URN), `$anchor` inside a resource, `#/...` pointers relative to the embedded
 * resource that holds them; and `refMap` for remote URIs in the loader. The codec (IR) and the generated
 * validator must both resolve them.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { schemaToIR } from "../generator/load/index.ts";
import { ToonError } from "../runtime/wire/errors.ts";
import { suiteDir } from "./support/gen.ts";

const ir = (doc: unknown, extra: Record<string, unknown> = {}) => schemaToIR(doc, { source: "x.schema.json", ...extra });

test("an embedded $id resource is the target of a relative $ref (recursive)", () => {
  const r = ir({ $defs: { node: { $id: "node", type: "object", properties: { v: { type: "integer" }, next: { $ref: "node" } } } }, $ref: "node" });
  assert.deepEqual(r.definitions.map((d) => d.name), ["Node"]);
  const node = r.definitions[0]!.shape;
  assert.equal(node.kind, "object");
});

test("URN ids, anchors in a resource, and pointers relative to the embedded resource", () => {
  const urn = "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed";
  const a = ir({ $id: urn, type: "object", $defs: { bar: { type: "string" } }, properties: { foo: { $ref: `${urn}#/$defs/bar` } } });
  assert.equal(a.root.kind === "object" && a.root.properties[0]!.shape.kind, "string");
  const b = ir({ $id: "http://example.com/root", type: "object", properties: { a: { $ref: "http://example.com/nested.json#foo" } }, $defs: { A: { $id: "nested.json", $defs: { B: { $anchor: "foo", type: "integer" } } } } });
  assert.equal(b.root.kind === "object" && b.root.properties[0]!.shape.kind, "integer");
  // `#/$defs/x` inside the embedded resource is that resource's $defs, not the document's
  const c = ir({
    $id: "http://example.com/main",
    type: "object",
    properties: { p: { $ref: "inner" } },
    $defs: { x: { type: "string" }, inner: { $id: "inner", $ref: "#/$defs/x", $defs: { x: { type: "boolean" } } } },
  });
  assert.equal(c.root.kind === "object" && c.root.properties[0]!.shape.kind, "boolean");
});

test("refMap maps a remote URI prefix to a local folder; unmapped, it is UNSUPPORTED_SCHEMA naming refMap", () => {
  const dir = suiteDir("validate-refs");
  mkdirSync(path.join(dir, "vendor"), { recursive: true });
  writeFileSync(path.join(dir, "vendor", "money.json"), JSON.stringify({ type: "object", required: ["amount"], properties: { amount: { type: "number" } } }));
  const doc = { type: "object", properties: { price: { $ref: "https://schemas.example.com/common/money.json" } } };
  const mapped = ir(doc, { baseDir: dir, refMap: { "https://schemas.example.com/common/": "./vendor/" } });
  const price = mapped.root.kind === "object" ? mapped.root.properties[0]!.shape : undefined;
  assert.ok(price !== undefined && (price.kind === "object" || price.kind === "ref"), JSON.stringify(price));
  assert.throws(() => ir(doc, { baseDir: dir }), (e: unknown) => e instanceof ToonError && e.code === "UNSUPPORTED_SCHEMA" && /refMap/.test(e.message));
});
