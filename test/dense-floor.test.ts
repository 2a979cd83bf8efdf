// The values-and-keys floor that bench/dense-floor.ts compares dense text with: each distinct key once, then every
// leaf value comma-separated, stamps and dates in basic form.
import { test } from "node:test";
import assert from "node:assert/strict";
import { floorText } from "../bench/floor-text.ts";

test("floorText: distinct keys once, then the leaves in order, dates and UTC stamps in basic form", () => {
  const v = { rows: [{ id: 1, on: "2025-01-15", at: "2025-03-14T08:57:34Z" }, { id: 2, on: "2025-1-5", at: null }], ok: true, name: "a, b" };
  assert.equal(floorText(v), "rows,id,on,at,ok,name,1,20250115,20250314T085734Z,2,2025-1-5,null,true,a, b");
  assert.equal(floorText({}), "");
  assert.equal(floorText([1, [2, "x"]]), "1,2,x");
  assert.equal(floorText({ a: {} }), "a");
});
