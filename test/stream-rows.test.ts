// The stream path table derived from the descriptor (runtime/codec/stream-rows.ts): its walk is the dictionary
// stage's walk, so a fresh dictionary numbers it [0, n) in order, and a module carries only the ID runs.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { buildDictionary, parseDictionary } from "../generator/dictionary/file.ts";
import { collectEntries } from "../generator/dictionary/build.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { describeCodec } from "../generator/emit/descriptor.ts";
import { loadSchemaFile } from "../generator/load/index.ts";
import { schemaToIR } from "../generator/load/schema-to-ir.ts";
import { idRuns, streamPathNodes, streamPathRows } from "../runtime/codec/stream-rows.ts";
import { StreamSeg } from "../runtime/codec/stream-seg.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("stream path rows from the descriptor", () => {
  before(() => initHash());

  test("idRuns compresses consecutive IDs and keeps walk order", () => {
    assert.deepEqual(idRuns([]), []);
    assert.deepEqual(idRuns([0, 1, 2, 3]), [0, 4]);
    assert.deepEqual(idRuns([0, 1, 2, 5, 6, 3]), [0, 3, 5, 2, 3, 1]);
    assert.deepEqual(idRuns([4]), [4, 1]);
  });

  for (const ex of ["orders/order-list", "logs/log-report", "extraction/extraction-result", "tool-calls/tool-call-batch"]) {
    test(`${ex}: the walk is the dictionary's walk`, async () => {
      const [dir, file] = ex.split("/") as [string, string];
      const ir = await loadSchemaFile(`schemas/${file}.schema.json`, { cwd: path.join(ROOT, "examples", dir) });
      const fresh = buildDictionary(ir);
      const desc = describeCodec(ir, fresh);
      const nodes = streamPathNodes(desc);
      assert.deepEqual(
        nodes.map((n) => n.path),
        collectEntries(ir).map((e) => e.path),
      );
      assert.deepEqual(
        fresh.base.entries.map((e) => e.path),
        nodes.map((n) => n.path),
        "a fresh dictionary numbers the walk in order: its runs are [0, n]",
      );
      const rows = streamPathRows(desc, [0, nodes.length]);
      assert.equal(rows.length, nodes.length);
      for (const row of rows) {
        const [id, p, parent, seg, arg] = row;
        assert.equal(nodes[id]!.path, p);
        if (seg === StreamSeg.ROOT) assert.equal(parent, -1);
        else assert.ok(parent >= 0 && p.startsWith(rows[parent]![1].replace(/^\$$/, "")), `${p} hangs off ${rows[parent]?.[1]}`);
        if (seg === StreamSeg.PROPERTY) assert.equal(typeof arg, "string");
      }
      // the committed dictionary (the one the module was generated with) numbers every path exactly once
      const dictFile = path.join(ROOT, "examples", dir, "dictionaries", `${file}.dictionary.json`);
      const committed = parseDictionary(readFileSync(dictFile, "utf8"), dictFile);
      const ids = new Map([...committed.base.entries, ...committed.extensions.flatMap((s) => s.entries)].map((e) => [e.path, e.id]));
      const cdesc = describeCodec(ir, committed);
      const runs = idRuns(streamPathNodes(cdesc).map((n) => ids.get(n.path)!));
      assert.deepEqual(new Set(streamPathRows(cdesc, runs).map((r) => r[0])).size, streamPathNodes(cdesc).length);
    });
  }

  test("an evolved object: new properties are numbered after the base, rows sorted by ID, defaults kept", () => {
    const v1 = schemaToIR({ type: "object", properties: { a: { type: "string" }, o: { type: "object", properties: { x: { type: "integer" } } } } }, { source: "t.json" });
    const d1 = buildDictionary(v1);
    const v2 = schemaToIR(
      { type: "object", properties: { a: { type: "string" }, b: { type: "integer", default: 7 }, o: { type: "object", properties: { x: { type: "integer" }, y: { type: "string" } } } } },
      { source: "t.json" },
    );
    const d2 = buildDictionary(v2, d1);
    const desc = describeCodec(v2, d2);
    const ids = new Map([...d2.base.entries, ...d2.extensions.flatMap((s) => s.entries)].map((e) => [e.path, e.id]));
    const walk = streamPathNodes(desc).map((n) => ids.get(n.path)!);
    assert.notDeepEqual(walk, [...walk].sort((a, b) => a - b), "the walk interleaves new IDs");
    const rows = streamPathRows(desc, idRuns(walk));
    assert.deepEqual(rows.map((r) => r[0]), [...walk].sort((a, b) => a - b));
    const b = rows.find((r) => r[1] === "b")!;
    assert.ok(b[6] >>> 8 > 0, "b carries its extension level");
    assert.deepEqual(b[8], [7], "an extension property with a default carries it (older writers)");
    const root = rows.find((r) => r[1] === "$")!;
    assert.deepEqual(root[7], [ids.get("a"), ids.get("b"), ids.get("o")]);
  });

  test("runs that do not number every path exactly once are refused", () => {
    const ir = schemaToIR({ type: "object", properties: { a: { type: "string" }, b: { type: "integer" } } }, { source: "t.json" });
    const desc = describeCodec(ir, buildDictionary(ir));
    const n = streamPathNodes(desc).length;
    assert.equal(streamPathRows(desc, [0, n]).length, n);
    for (const bad of [[0, n - 1], [0, n + 1], [0, 1, 0, n - 1], [0], [0, 0, 0, n], [-1, n], [0.5, n]]) {
      assert.throws(() => streamPathRows(desc, bad), /do not number/, JSON.stringify(bad));
    }
  });
});
