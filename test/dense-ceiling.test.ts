/**
 * bench/ceiling/orders.ts, the hand-unrolled orders writer and reader that bench/dense-ceiling.ts times as the
 * layout's speed ceiling, spell and read exactly what the orders codec does: on the example's data and on seeded
 * random order lists (awkward strings, optional notes, stamps with and without a basic form). Without this, the
 * ceiling could be fast because it writes something else.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { loadSchemaFile } from "../generator/load/index.ts";
import { OrderList } from "../examples/orders/gen/order-list.ts";
import { readOrders, writeOrders } from "../bench/ceiling/orders.ts";
import { exampleData } from "../bench/dense-cases.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { REPO } from "./support/gen.ts";

type Orders = Parameters<typeof writeOrders>[0];

function agree(v: Orders, where: string): void {
  const text = OrderList.toText(v as never, { layout: "dense" });
  assert.equal(writeOrders(v), text, `${where}: the unrolled writer spells the codec's text`);
  assert.deepEqual(readOrders(text), OrderList.fromText(text, { layout: "dense" }), `${where}: the unrolled reader reads the codec's value`);
}

test("dense ceiling: the unrolled orders writer and reader agree with the codec", async () => {
  agree(exampleData("orders", "order-list") as Orders, "example data");
  const ir = await loadSchemaFile(path.join(REPO, "examples/orders/schemas/order-list.schema.json"));
  let notes = 0;
  let quoted = 0;
  let basic = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const v = arbitrary(ir, seed) as Orders;
    if (v.orders.length === 0) continue;
    const text = OrderList.toText(v as never, { layout: "dense" });
    // the writer's document choice: JSON where the lines would cost more (a short list), not what this times
    if (!text.startsWith("orders[")) continue;
    if (v.orders.some((o) => o.note !== undefined)) notes++;
    if (text.includes('"')) quoted++;
    if (/,\d{8}T\d{6}(\.\d+)?Z[,\n]/.test(text)) basic++;
    agree(v, `seed ${seed}`);
  }
  assert.ok(notes > 20 && quoted > 20 && basic > 20, `random lists with notes: ${notes}, with quoted cells: ${quoted}, with basic stamps: ${basic}`);
});

test("dense ceiling: the unrolled reader refuses what the codec's reader refuses here", () => {
  const text = OrderList.toText(exampleData("orders", "order-list") as never, { layout: "dense" });
  for (const bad of [text.replace(",CNY,", ",XYZ,"), text.replace("orders[30]", "orders[31]"), text + "\n  x", text.replace(/,4,302\.4\]/, ",4.5,302.4]")]) {
    assert.notEqual(bad, text);
    assert.throws(() => readOrders(bad));
    assert.throws(() => OrderList.fromText(bad, { layout: "dense" }));
  }
});
