/**
 * Schema evolution: the committed codecs of one schema in four versions (test/evolution/build.ts):
 *   v1  base
 *   v2  + optional `coupon` (top level), + optional `items[].gift`, + enum value `shipped`, + union branch
 *       `voucher`, + required `channel` with a default
 *   v3  - optional `note` (retired)
 *   v4  v3 rebased (a new base: the explicit breaking release)
 * Every writer/reader pair among v1..v3 must decode; old readers keep what they do not know and give it back
 * on re-encode; v4 is refused by the others with FINGERPRINT_MISMATCH.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { buildMatrix } from "./evolution/build.ts";
import { ToonError } from "toon-gen/runtime";
import { Order as V1 } from "./evolution/gen/v1.ts";
import { Order as V2 } from "./evolution/gen/v2.ts";
import { Order as V3 } from "./evolution/gen/v3.ts";
import { Order as V4 } from "./evolution/gen/v4.ts";

interface Codec {
  encode(v: unknown): Uint8Array;
  decode(b: Uint8Array, o?: { unknown?: "keep" | "discard" }): unknown;
  fingerprint: number;
}
const codecs = { v1: V1, v2: V2, v3: V3, v4: V4 } as unknown as Record<string, Codec>;

test("evolution: committed codecs and dictionaries are what the builder makes", async () => {
  for (const f of await buildMatrix()) {
    assert.equal(readFileSync(f.path, "utf8"), f.content, `${f.path} is stale: run node --conditions=toon-dev --import tsx test/evolution/build.ts`);
  }
});

const v1Value = { id: "A-1", status: "paid", note: "ring twice", items: [{ sku: "S1", qty: 2 }], payment: { kind: "card", card: "4242" } };
const v2Value = {
  id: "A-2",
  status: "paid",
  note: "leave at door",
  items: [
    { sku: "S1", qty: 1, gift: true },
    { sku: "S2", qty: 3 },
  ],
  payment: { kind: "cash" },
  coupon: { code: "WELCOME", percent: 12.5 },
  channel: "app",
};
const v3Value = { id: "A-3", status: "new", items: [{ sku: "S9", qty: 5, gift: false }], coupon: { code: "X" }, channel: "web" };

/** What each reader must see, written out by hand: fields it does not know are absent, defaults filled. */
const expected: Record<string, Record<string, unknown>> = {
  "v1>v1": v1Value,
  "v1>v2": { ...v1Value, channel: "web" }, // v1 data predates `channel`: its default
  "v1>v3": { id: "A-1", status: "paid", items: [{ sku: "S1", qty: 2 }], payment: { kind: "card", card: "4242" }, channel: "web" }, // note skipped
  "v2>v1": { id: "A-2", status: "paid", note: "leave at door", items: [{ sku: "S1", qty: 1 }, { sku: "S2", qty: 3 }], payment: { kind: "cash" } },
  "v2>v2": v2Value,
  "v2>v3": { id: "A-2", status: "paid", items: v2Value.items, payment: { kind: "cash" }, coupon: v2Value.coupon, channel: "app" },
  "v3>v1": { id: "A-3", status: "new", items: [{ sku: "S9", qty: 5 }] },
  "v3>v2": v3Value,
  "v3>v3": v3Value,
};

const written: Record<string, unknown> = { v1: v1Value, v2: v2Value, v3: v3Value };

for (const [pair, want] of Object.entries(expected)) {
  const [w, r] = pair.split(">") as [string, string];
  test(`evolution: ${w} writes, ${r} reads`, () => {
    const bytes = codecs[w]!.encode(written[w]);
    assert.deepStrictEqual(codecs[r]!.decode(bytes), want);
  });
}

test("evolution: a round trip through v1 keeps v2's fields", () => {
  const bytes = V2.encode(v2Value as never);
  const seenByV1 = V1.decode(bytes);
  assert.ok(Array.isArray((seenByV1 as unknown as { $unknown?: unknown[] }).$unknown), "v1 keeps the records it does not know");
  assert.equal(Object.keys(seenByV1).includes("$unknown"), false, "kept records are not an enumerable key");
  const again = V1.encode(seenByV1);
  assert.deepStrictEqual(V2.decode(again), v2Value);
  // and with the option, v1 discards them
  const discarded = V1.decode(bytes, { unknown: "discard" });
  assert.equal((discarded as unknown as { $unknown?: unknown }).$unknown, undefined);
  assert.deepStrictEqual(V2.decode(V1.encode(discarded)), { ...expected["v2>v1"], channel: "web" });
});

test("evolution: a round trip through v1 keeps v2's fields inside array items in place", () => {
  const value = { ...v2Value, items: [{ sku: "a", qty: 1 }, { sku: "b", qty: 2, gift: true }, { sku: "c", qty: 3, gift: false }] };
  assert.deepStrictEqual(V2.decode(V1.encode(V1.decode(V2.encode(value as never)))), value);
});

test("evolution: values an older reader cannot represent fail loudly, never silently", () => {
  // a new enum value and a new union branch written by v2
  for (const value of [{ ...v2Value, status: "shipped" }, { ...v2Value, payment: { kind: "voucher", voucher: "V-1" } }]) {
    const bytes = V2.encode(value as never);
    assert.deepStrictEqual(V2.decode(bytes), value);
    assert.throws(
      () => V1.decode(bytes),
      (e: unknown) => e instanceof ToonError && e.code === "INVALID_ENCODING" && /out of range/.test(e.message),
    );
  }
});

test("evolution: v3 writes the retired property as absent and rejects it on encode", () => {
  const bytes = V3.encode(v3Value as never);
  assert.equal((V1.decode(bytes) as { note?: string }).note, undefined);
  assert.throws(() => V3.encode({ ...v3Value, note: "x" } as never), (e: unknown) => e instanceof ToonError && e.code === "INVALID_VALUE" && e.path === "/note");
});

test("evolution: the rebased v4 is refused by every older reader, naming both dictionaries", () => {
  assert.notEqual(V4.fingerprint, V3.fingerprint);
  const bytes = V4.encode(v3Value as never);
  assert.deepStrictEqual(V4.decode(bytes), v3Value);
  for (const old of [V1, V2, V3] as unknown as Codec[]) {
    assert.throws(
      () => old.decode(bytes),
      (e: unknown) =>
        e instanceof ToonError &&
        e.code === "FINGERPRINT_MISMATCH" &&
        e.message.includes("0x" + V4.fingerprint.toString(16).padStart(4, "0")) &&
        e.message.includes("0x" + old.fingerprint.toString(16).padStart(4, "0")),
    );
  }
  // and v4 refuses the old ones
  assert.throws(() => V4.decode(V1.encode(v1Value as never)), (e: unknown) => e instanceof ToonError && e.code === "FINGERPRINT_MISMATCH");
  // v4's layout is the current schema order, with no extension records: smaller than v3's bytes
  assert.ok(V4.encode(v3Value as never).length < V3.encode(v3Value as never).length);
});

test("evolution: v1 and v2 share the base fingerprint; v2 declares its extension level in the header", () => {
  assert.equal(V1.fingerprint, V2.fingerprint);
  assert.equal(V2.fingerprint, V3.fingerprint);
  const b1 = V1.encode(v1Value as never);
  const b2 = V2.encode(v2Value as never);
  assert.equal(b1[6]! & 0x02, 0, "v1 sets no EXTENSIONS flag");
  assert.equal(b2[6]! & 0x02, 0x02, "v2 sets the EXTENSIONS flag");
  assert.equal(b2[9], 1, "v2's extension level");
});

test("evolution: records that would make an invalid value are refused (wrong object, duplicate, missing required)", async () => {
  const rt = await import("toon-gen/runtime/codegen");
  const base = { id: "B-1", status: "new", items: [{ sku: "S", qty: 1 }] };
  const body = V1.encode(base as never).subarray(9); // after magic, version, flags, fingerprint
  /** A v2 message: the v1 body, then the given records. */
  const message = (records: { id: number; rel: string; key: string; write: (w: InstanceType<typeof rt.Writer>) => void }[]) => {
    const w = new rt.Writer();
    rt.writeHeader(w, rt.Flag.FIXED_DICTIONARY | rt.Flag.EXTENSIONS, V2.fingerprint, 1);
    w.bytes(body);
    for (const r of records) rt.writeExtension(w, r.id, r.rel, r.key, null, (sub) => r.write(sub));
    rt.writeExtensionSection(w, undefined);
    return w.finish();
  };
  const channelApp = { id: 21, rel: "", key: "channel", write: (w: InstanceType<typeof rt.Writer>) => w.byte(1) };
  assert.deepStrictEqual(V2.decode(message([channelApp])), { ...base, channel: "app" });
  const refused = (bytes: Uint8Array, why: RegExp) =>
    assert.throws(() => V2.decode(bytes), (e: unknown) => e instanceof ToonError && e.code === "INVALID_ENCODING" && why.test(e.message));
  // `gift` (an items[] property) aimed at the closed root object
  refused(message([channelApp, { id: 14, rel: "", key: "gift", write: (w) => w.byte(1) }]), /unknown property "gift"/);
  refused(message([channelApp, channelApp]), /second extension record for "channel"/);
  refused(message([]), /"channel" is missing/);
});
