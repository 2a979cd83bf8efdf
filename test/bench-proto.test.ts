// The protobuf peers of the benchmark (bench/proto): each example dataset goes JSON → message → bytes → message →
// JSON through protobufjs and through pbf unchanged, the two libraries read each other's bytes, the presence
// cases a careless adapter would lose survive, and what protobuf cannot carry shows up as a round-trip difference.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { jsonDiff, summarize, type Difference } from "../bench/compare.ts";
import { DATASETS } from "../bench/datasets.ts";
import { loadPeer, PEER_DATASETS, type Peer } from "../bench/proto/peers.ts";
import { generate, staleFiles } from "../bench/proto/generate.ts";
import { renderTables, type CodecResult, type Results, type Speed } from "../bench/report.ts";

const ROOT = resolve(import.meta.dirname, "..");
const dataOf = (name: string): unknown => JSON.parse(readFileSync(resolve(ROOT, DATASETS.find((d) => d.name === name)!.data), "utf8"));
const clone = <T>(v: T): T => structuredClone(v);

type Lib = "protobufjs" | "pbf";
const LIBS: readonly Lib[] = ["protobufjs", "pbf"];

/** Differences after JSON → message → `writer` bytes → `reader` message → JSON. */
function roundTrip(peer: Peer, value: unknown, writer: Lib, reader: Lib): Difference[] {
  const bytes = peer[writer].encode(peer.adapter.toMessage(value));
  return jsonDiff(value, peer.adapter.fromMessage(peer[reader].decode(bytes)));
}

// a variant (the same data, another toon-gen codec) takes its base dataset's peer
const BASE_DATASETS = DATASETS.filter((d) => d.variantOf === undefined);

test("every benchmark dataset has a protobuf peer", () => {
  assert.deepEqual(
    BASE_DATASETS.map((d) => d.name).filter((n) => !PEER_DATASETS.includes(n)),
    [],
  );
  for (const d of DATASETS) if (d.variantOf !== undefined) assert.equal(DATASETS.find((b) => b.name === d.variantOf)?.data, d.data, d.name);
});

for (const ds of BASE_DATASETS) {
  test(`${ds.name}: both libraries round-trip the example data, and read each other's bytes`, async () => {
    const peer = await loadPeer(ds.name);
    const data = dataOf(ds.name);
    for (const writer of LIBS) {
      for (const reader of LIBS) {
        const diffs = roundTrip(peer, data, writer, reader);
        assert.equal(summarize(diffs), "ok", `${writer} → ${reader}`);
      }
    }
    // same .proto, same field order, both skip proto3 defaults: the bytes agree too
    const msg = peer.adapter.toMessage(data);
    assert.deepEqual(Buffer.from(peer.pbf.encode(msg)), Buffer.from(peer.protobufjs.encode(msg)));
  });
}

test("orders: an empty note stays present (pbf ignores proto3 optional; the explicit oneof keeps it)", async () => {
  const peer = await loadPeer("orders");
  const data = clone(dataOf("orders")) as { orders: { note?: string }[] };
  data.orders[0]!.note = "";
  delete data.orders[1]!.note;
  for (const lib of LIBS) assert.equal(summarize(roundTrip(peer, data, lib, lib)), "ok", lib);
});

test("logs: incidentId absent, null, empty and set are four different values", async () => {
  const peer = await loadPeer("logs");
  const data = clone(dataOf("logs")) as { services: { incidentId?: string | null }[] };
  assert.ok(data.services.length >= 4);
  delete data.services[0]!.incidentId;
  data.services[1]!.incidentId = null;
  data.services[2]!.incidentId = "";
  data.services[3]!.incidentId = "INC-1";
  for (const lib of LIBS) {
    const back = peer.adapter.fromMessage(peer[lib].decode(peer[lib].encode(peer.adapter.toMessage(data)))) as typeof data;
    assert.deepEqual(
      back.services.slice(0, 4).map((s) => ("incidentId" in s ? s.incidentId : "absent")),
      ["absent", null, "", "INC-1"],
      lib,
    );
  }
});

test("logs: int64 fields decode to JS numbers, not Long objects", async () => {
  const peer = await loadPeer("logs");
  const data = dataOf("logs") as { totalBytes: number };
  assert.ok(data.totalBytes > 2 ** 32, "the data exercises more than 32 bits");
  for (const lib of LIBS) {
    const m = peer[lib].decode(peer[lib].encode(peer.adapter.toMessage(data))) as { total_bytes: unknown };
    assert.equal(typeof m.total_bytes, "number", lib);
    assert.equal(m.total_bytes, data.totalBytes, lib);
  }
});

test("extraction: optional zero and empty values stay present, absent ones stay absent", async () => {
  const peer = await loadPeer("extraction");
  const data = clone(dataOf("extraction")) as { documents: { url?: string; entities: Record<string, unknown>[] }[] };
  data.documents[0]!.url = "";
  data.documents[0]!.entities = [
    { type: "location", name: "Null Island", countryCode: "", lat: 0, confidence: 0 },
    { type: "person", name: "", role: "", confidence: 1 },
    { type: "organization", name: "X", confidence: 0.5 },
  ];
  for (const lib of LIBS) assert.equal(summarize(roundTrip(peer, data, lib, lib)), "ok", lib);
});

test("a value outside the .proto's types is reported by the round-trip check, not hidden", async () => {
  const peer = await loadPeer("orders");
  const data = clone(dataOf("orders")) as { orders: { items: { qty: number }[] }[] };
  // JSON Schema `integer` has no width; the .proto says uint32: protobufjs writes it wrapped to 32 bits
  data.orders[0]!.items[0]!.qty = 2 ** 32 + 7;
  const rounded = [["/orders/0/items/0/qty", "number-rounded"]];
  const differences = (writer: Lib, reader: Lib) => roundTrip(peer, data, writer, reader).map((d) => [d.path, d.kind]);
  assert.deepEqual(differences("protobufjs", "protobufjs"), rounded);
  assert.deepEqual(differences("protobufjs", "pbf"), rounded);
  // pbf writes and reads the full 33-bit varint, which a conforming uint32 reader (protobufjs) truncates
  assert.deepEqual(differences("pbf", "pbf"), []);
  assert.deepEqual(differences("pbf", "protobufjs"), rounded);
});

test("an enum value the schema does not list is rejected, not sent as the zero value", async () => {
  const peer = await loadPeer("tool-calls");
  const data = clone(dataOf("tool-calls")) as { calls: { action: string }[] };
  data.calls[0]!.action = "get_tides";
  assert.throws(() => peer.adapter.toMessage(data), /Action: "get_tides" is not one of/);
});

// the .js files only: pbts (jsdoc) would add ~1-2 s per file; `npm run bench:proto -- --check` checks all
test("bench/proto/gen holds the code pbjs and pbf produce from the .proto files today", async () => {
  const js = await generate({ declarations: false });
  assert.deepEqual(
    staleFiles(js, (name) => name.endsWith(".js")),
    [],
    "run npm run bench:proto",
  );
});

test("the report's peer table: toon-gen / protobufjs and / pbf ratios, the encode target, a variant against its base's peers", () => {
  const speed = (opsPerSec: number): Speed => ({
    opsPerSec,
    clock: "cpu",
    wallOpsPerSec: opsPerSec,
    cpuOpsPerSec: opsPerSec,
    roundOpsPerSec: [opsPerSec],
    batchWall: [opsPerSec],
    batchCpu: [opsPerSec],
  });
  const entry = (raw: number, encode: number, decode: number): CodecResult => ({
    bytes: { raw, gzip: raw, brotli: raw },
    roundTrip: "ok",
    encode: speed(encode),
    decode: speed(decode),
  });
  const res = {
    machine: {},
    settings: {},
    codecs: {},
    datasets: {
      orders: { "toon-gen": entry(100, 300, 400), protobufjs: entry(400, 200, 100), pbf: entry(400, 600, 100) },
      "orders-nosamples": { "toon-gen": entry(200, 100, 400) },
      other: { "toon-gen": entry(10, 10, 10), pbf: entry(20, 20, 20) },
    },
    samples: { orders: true, "orders-nosamples": false },
    variantOf: { "orders-nosamples": "orders" },
  } as unknown as Results;
  const rows = renderTables(res)
    .split("\n")
    .filter((l) => l.startsWith("| ") && l.includes("toon-gen / p"));
  assert.deepEqual(rows, [
    "| orders | yes | toon-gen / protobufjs | 0.25x | 0.25x | 0.25x | 1.50x | 4.00x | met |",
    "| orders | yes | toon-gen / pbf | 0.25x | 0.25x | 0.25x | 0.50x | 4.00x | MISS: encode slower |",
    "| orders-nosamples | no | toon-gen / protobufjs | 0.50x | 0.50x | 0.50x | 0.50x | 4.00x | MISS: encode slower |",
    "| orders-nosamples | no | toon-gen / pbf | 0.50x | 0.50x | 0.50x | 0.17x | 4.00x | MISS: encode slower |",
    "| other | – | toon-gen / pbf | 0.50x | 0.50x | 0.50x | 0.50x | 0.50x | no target |",
  ]);
  // a results file from before the peers (bench/readme-table.ts on an old latest.json): no peer table at all
  delete (res.datasets.orders as Record<string, unknown>).protobufjs;
  delete (res.datasets.orders as Record<string, unknown>).pbf;
  delete (res.datasets.other as Record<string, unknown>).pbf;
  assert.ok(!renderTables(res).includes("protobuf peers"));
});
