// Every example's committed data validates against its schema, is what its make-data.ts
// generates (deterministic), is pretty-printed, and has roughly the intended size; so does the benchmark's held-out
// orders data (bench/held-out).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsNs from "ajv-formats";
import { makeData as makeOrders } from "../examples/orders/make-data.ts";
import { makeData as makeLogs } from "../examples/logs/make-data.ts";
import { makeData as makeExtraction } from "../examples/extraction/make-data.ts";
import { makeData as makeToolCalls } from "../examples/tool-calls/make-data.ts";
import { makeData as makeHeldOut } from "../bench/held-out/make-data.ts";

const addFormats: (ajv: unknown) => void = (addFormatsNs as any).default ?? addFormatsNs;

type Example = {
  name: string;
  file: string;
  title: string;
  make: () => unknown;
  /** Size range of the pretty JSON in KB (1 KB = 1024 bytes). */
  kb?: [number, number];
  check?: (data: any) => void;
};

const WHOLE_SECONDS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const EXAMPLES: Example[] = [
  {
    name: "orders",
    file: "order-list",
    title: "OrderList",
    make: makeOrders,
    kb: [15, 21],
    check: (d) => {
      assert.equal(d.orders.length, 30);
      let withNote = 0;
      const sizes = new Set<number>();
      for (const o of d.orders) {
        const cents = o.items.reduce((s: number, it: any) => s + Math.round(it.unitPrice * 100) * it.qty, 0);
        assert.equal(Math.round(o.total * 100), cents, `${o.id}: total is not the sum of the items`);
        for (const n of [o.total, ...o.items.map((it: any) => it.unitPrice)]) {
          assert.ok(Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${o.id}: ${n} has more than 2 decimals`);
        }
        assert.match(o.createdAt, WHOLE_SECONDS_UTC);
        assert.match(o.updatedAt, WHOLE_SECONDS_UTC);
        assert.ok(o.updatedAt >= o.createdAt);
        if (o.note !== undefined) withNote++;
        sizes.add(o.items.length);
      }
      assert.ok(withNote > 0 && withNote < 30, "note should be on some orders only");
      assert.ok(sizes.has(1) && sizes.has(5), "basket sizes should span 1..5");
      assert.ok(d.orders.some((o: any) => /[\u4e00-\u9fff]/.test(o.customer.name)), "some CJK names");
    },
  },
  {
    name: "logs",
    file: "log-report",
    title: "LogReport",
    make: makeLogs,
    kb: [25, 35],
    check: (d) => {
      const nulls = d.services.filter((s: any) => s.incidentId === null).length;
      const absent = d.services.filter((s: any) => !("incidentId" in s)).length;
      const strings = d.services.filter((s: any) => typeof s.incidentId === "string").length;
      assert.ok(nulls > 0 && absent > 0 && strings > 0, "incidentId should be null, absent and set somewhere");
      assert.ok(d.services.some((s: any) => s.bytesIngested > 2 ** 32), "some byte count beyond 32 bits");
      for (const s of d.services) assert.ok(Number.isSafeInteger(s.bytesIngested));
      assert.equal(d.totalBytes, d.services.reduce((a: number, s: any) => a + s.bytesIngested, 0));
      assert.ok(Number.isSafeInteger(d.totalBytes));
      assert.ok(d.services.some((s: any) => !Number.isInteger(s.latencyMs.p50)), "latencies have decimals");
    },
  },
  {
    name: "extraction",
    file: "extraction-result",
    title: "ExtractionResult",
    make: makeExtraction,
    kb: [9, 15],
    check: (d) => {
      const kinds = new Set(d.documents.flatMap((doc: any) => doc.entities.map((e: any) => e.type)));
      assert.deepEqual([...kinds].sort(), ["date", "location", "money", "organization", "person"]);
    },
  },
  {
    name: "tool-calls",
    file: "tool-call-batch",
    title: "ToolCallBatch",
    make: makeToolCalls,
    check: (d) => {
      assert.equal(d.calls.length, 20);
      assert.deepEqual(d.calls[0], { action: "get_weather", args: { city: "北京", date: "2025-01-15" } });
      const cjk = d.calls.filter((c: any) => /[\u4e00-\u9fff]/.test(c.args.city)).length;
      assert.ok(cjk >= 14, "cities should be mostly Chinese");
    },
  },
];

function exampleFile(rel: string): string {
  return fileURLToPath(new URL(`../examples/${rel}`, import.meta.url));
}

/** Every object schema (anything with `properties`) must close itself and list `required`. */
function checkObjectsClosed(node: unknown, path: string): void {
  if (Array.isArray(node)) return node.forEach((n, i) => checkObjectsClosed(n, `${path}/${i}`));
  if (node === null || typeof node !== "object") return;
  const o = node as Record<string, unknown>;
  if (o.type === "object" || "properties" in o) {
    assert.equal(o.additionalProperties, false, `${path}: additionalProperties must be false`);
    assert.ok(Array.isArray(o.required), `${path}: required list missing`);
  }
  for (const [k, v] of Object.entries(o)) {
    if (k === "enum" || k === "const" || k === "examples" || k === "default") continue;
    if (k === "properties" || k === "$defs") {
      for (const [name, sub] of Object.entries(v as object)) checkObjectsClosed(sub, `${path}/${k}/${name}`);
    } else checkObjectsClosed(v, `${path}/${k}`);
  }
}

for (const ex of EXAMPLES) {
  test(`example ${ex.name}: data validates, is deterministic and sized`, () => {
    const schema = JSON.parse(readFileSync(exampleFile(`${ex.name}/schemas/${ex.file}.schema.json`), "utf8"));
    assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
    assert.equal(schema.title, ex.title);
    assert.equal(typeof schema.description, "string");
    checkObjectsClosed(schema, "#");

    const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);

    const text = readFileSync(exampleFile(`${ex.name}/data/${ex.file}.json`), "utf8");
    const data = JSON.parse(text);
    const ok = validate(data);
    assert.ok(ok, `${ex.name}: ${ajv.errorsText(validate.errors)}`);

    assert.equal(text, JSON.stringify(data, null, 2) + "\n", "data file must be 2-space pretty JSON with a trailing newline");
    assert.equal(JSON.stringify(ex.make(), null, 2) + "\n", text, "data file is stale: re-run make-data.ts");

    const kb = Buffer.byteLength(text) / 1024;
    console.log(`# ${ex.name}: ${Buffer.byteLength(text)} bytes (${kb.toFixed(1)} KB)`);
    if (ex.kb) assert.ok(kb >= ex.kb[0] && kb <= ex.kb[1], `${ex.name}: ${kb.toFixed(1)} KB not in [${ex.kb[0]}, ${ex.kb[1]}]`);
    ex.check?.(data);
  });
}

test("bench/held-out: the held-out orders data validates, is deterministic and has the shape the benchmark claims", () => {
  const file = (rel: string) => fileURLToPath(new URL(`../bench/held-out/${rel}`, import.meta.url));
  const schema = JSON.parse(readFileSync(file("schemas/order-batch.schema.json"), "utf8"));
  checkObjectsClosed(schema, "#");
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const text = readFileSync(file("data/order-batch.json"), "utf8");
  const data = JSON.parse(text);
  // a plain boolean: the validator's type guard would narrow data to unknown
  const ok: boolean = validate(data);
  assert.ok(ok, ajv.errorsText(validate.errors));
  assert.equal(JSON.stringify(makeHeldOut(), null, 2) + "\n", text, "data file is stale: re-run bench/held-out/make-data.ts");
  const orders = data.orders as any[];
  assert.equal(orders.length, 40);
  // most orders of the batch come from different customers, a few from returning ones
  const customers = new Set(orders.map((o) => o.customer.email));
  assert.ok(customers.size >= 30 && customers.size < 40, `${customers.size} distinct customers`);
  const tracked = orders.filter((o) => o.trackingNumber !== undefined).length;
  assert.ok(tracked > 0 && tracked < 40, "a tracking number on some orders only");
  assert.ok(orders.some((o) => o.payment.method === "card" && o.payment.last4 !== undefined) && orders.some((o) => o.payment.method !== "card"));
  assert.ok(orders.some((o) => o.customer.shippingAddress.line2 !== undefined) && orders.some((o) => o.customer.shippingAddress.line2 === undefined));
  for (const o of orders) {
    const cents = o.lines.reduce((s: number, l: any) => s + Math.round(l.unitPrice * 100) * l.quantity, 0) + Math.round(o.shippingCost * 100);
    assert.equal(Math.round(o.total * 100), cents, `${o.orderNumber}: total is not lines + shipping`);
    assert.equal(o.payment.amount, o.total);
    assert.ok(o.tags.length >= 1);
  }
});
