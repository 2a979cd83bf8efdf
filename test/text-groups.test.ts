/**
 * The text feature groups of a generated module: `<Codec>Text` is TOON v4 only (no dense code in its bundle, see
 * treeshake.test.ts), `<Codec>Dense` is the dense layout only, and the codec object's `toText`/`fromText` put both
 * behind `{ layout }` with detection (runtime/text/layout.ts `textLayouts`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { OrderList, OrderListDense, OrderListText } from "../examples/orders/gen/order-list.ts";
import { catchToon } from "./support/toon-error.ts";

const value = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "examples", "orders", "data", "order-list.json"), "utf8"));

test("text groups: Text writes and reads TOON v4, Dense the dense layout, each round-trips", () => {
  const toon = OrderListText.toText(value);
  const dense = OrderListDense.toText(value);
  assert.notEqual(toon, dense);
  assert.ok(dense.length < toon.length, `dense ${dense.length} chars, TOON ${toon.length}`);
  assert.deepEqual(OrderListText.fromText(toon), value);
  assert.deepEqual(OrderListDense.fromText(dense), value);
});

test("text groups: the codec object writes either layout and detects which it reads", () => {
  assert.equal(OrderList.toText(value), OrderListText.toText(value));
  assert.equal(OrderList.toText(value, { layout: "dense" }), OrderListDense.toText(value));
  assert.equal(OrderList.toText(value, { layout: "toon" }), OrderListText.toText(value));
  assert.deepEqual(OrderList.fromText(OrderListText.toText(value)), value);
  assert.deepEqual(OrderList.fromText(OrderListDense.toText(value)), value);
  assert.deepEqual(OrderList.fromText(OrderListText.toText(value), { layout: "toon" }), value);
  // forcing the wrong layout is an error, never a silently different value
  catchToon(() => OrderList.fromText(OrderListDense.toText(value), { layout: "toon" }));
});

test("text groups: the TOON group refuses layout dense (CONFIG_ERROR), never writing TOON in its place", () => {
  const opts = { layout: "dense" } as unknown as Record<string, never>;
  assert.equal(catchToon(() => OrderListText.toText(value, opts)).code, "CONFIG_ERROR");
  assert.equal(catchToon(() => OrderListText.fromText("orders[0]:", opts)).code, "CONFIG_ERROR");
});
