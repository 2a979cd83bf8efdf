/**
 * Text TOON speed: our encodeText / decodeText vs @toon-format/toon encode / decode vs JSON.stringify / JSON.parse.
 *
 *   node --conditions=toon-dev --import tsx bench/text-speed.ts [--quick]
 *
 * Dataset: 100 uniform order objects (tabular, with a nested customer field group and a nested items table in
 * list form) plus irregular objects (mixed arrays, nested config, keyed tables, tricky strings).
 */

import { encode as refEncode, decode as refDecode } from "@toon-format/toon";
import { isDeepStrictEqual } from "node:util";
import { decodeText, encodeText } from "../runtime/text/index.ts";

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function dataset(): unknown {
  const r = rng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const names = ["Ada Lovelace", "Bob", "Chloé Dubois", "Dmitri", "Eve, the 2nd", "Fatima", "Grace Hopper", "李雷"];
  const skus = ["A-100", "B200", "C:300", "D 400", "E500", "F600"];
  const statuses = ["pending", "shipped", "delivered", "cancelled", "true", "on hold"];
  const orders = [];
  for (let i = 0; i < 100; i++) {
    const items = [];
    const n = 1 + Math.floor(r() * 5);
    for (let j = 0; j < n; j++) {
      items.push({ sku: pick(skus), qty: 1 + Math.floor(r() * 9), price: Math.round(r() * 100000) / 100, discounted: r() < 0.3 });
    }
    orders.push({
      id: 10000 + i,
      status: pick(statuses),
      customer: { name: pick(names), country: pick(["DK", "UK", "US", "FR", "CN"]) },
      total: Math.round(r() * 1000000) / 100,
      note: r() < 0.2 ? "leave at door: back" : "",
      createdAt: new Date(1700000000000 + Math.floor(r() * 1e10)).toISOString(),
    });
  }
  const orderDetails = orders.slice(0, 40).map((o, i) => ({
    orderId: o.id,
    lines: Array.from({ length: 1 + (i % 4) }, (_, j) => ({ sku: pick(skus), qty: j + 1, price: Math.round(r() * 10000) / 100 })),
    tags: i % 3 === 0 ? [] : ["gift", "express", "fragile"].slice(0, 1 + (i % 3)),
    shipping: { method: pick(["ground", "air"]), address: { street: `${i} Main St`, city: pick(["Oslo", "Berlin", "New York"]), zip: String(10000 + i) } },
  }));
  const irregular = Array.from({ length: 30 }, (_, i) => {
    const o: Record<string, unknown> = { id: i, kind: pick(["a", "b", "c"]) };
    if (i % 2 === 0) o.meta = { score: r() * 100, flags: [true, false, null], nested: { deep: { deeper: "x".repeat(i % 5) } } };
    if (i % 3 === 0) o.matrix = [[1, 2, 3], [4, 5], []];
    if (i % 4 === 0) o.mixed = [1, "two", { three: 3 }, [4]];
    if (i % 5 === 0) o.text = 'He said "hi"\n\tand left\\';
    return o;
  });
  const servers: Record<string, unknown> = {};
  for (let i = 0; i < 20; i++) servers[`srv${i}`] = { host: `10.0.0.${i}`, port: 8000 + i, up: i % 3 !== 0 };
  return { version: "1.2.3", generated: "2024-01-01T00:00:00Z", orders, orderDetails, irregular, servers };
}

interface Case {
  name: string;
  fn: () => unknown;
  size: number;
  best: number;
}

/** Run `fn` for about `ms` milliseconds; returns ops/s. */
function run(fn: () => unknown, ms: number): number {
  let iters = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 5; i++) fn();
    iters += 5;
    now = performance.now();
  }
  return (iters * 1000) / (now - start);
}

const quick = process.argv.includes("--quick");
const rounds = quick ? 3 : 7;
const roundMs = quick ? 150 : 400;
const data = dataset();
const json = JSON.stringify(data);
const ours = encodeText(data);
const theirs = refEncode(data);
if (ours !== theirs) console.warn("note: encodeText output differs from @toon-format/toon encode output");
if (!isDeepStrictEqual(decodeText(ours), refDecode(ours))) throw new Error("decoders disagree on the dataset");
if (!isDeepStrictEqual(decodeText(ours), JSON.parse(json))) throw new Error("decodeText(encodeText(x)) differs from x");

console.log(`dataset: ${json.length} bytes JSON, ${ours.length} chars TOON (${ours.split("\n").length} lines)`);
console.log(`method: warm-up, then ${rounds} interleaved rounds of ${roundMs} ms per case; best round reported\n`);
const cases: Case[] = [
  { name: "encodeText", fn: () => encodeText(data), size: ours.length, best: 0 },
  { name: "@toon-format/toon encode", fn: () => refEncode(data), size: ours.length, best: 0 },
  { name: "JSON.stringify", fn: () => JSON.stringify(data), size: json.length, best: 0 },
  { name: "decodeText", fn: () => decodeText(ours), size: ours.length, best: 0 },
  { name: "@toon-format/toon decode", fn: () => refDecode(ours), size: ours.length, best: 0 },
  { name: "JSON.parse", fn: () => JSON.parse(json), size: json.length, best: 0 },
];
for (const c of cases) run(c.fn, quick ? 200 : 800); // warm-up (JIT tiers)
for (let r = 0; r < rounds; r++) for (const c of cases) c.best = Math.max(c.best, run(c.fn, roundMs));

console.log("| operation                  |      ops/s | MB/s (of TOON / JSON text) |");
console.log("|----------------------------|-----------:|---------------------------:|");
for (const c of cases) {
  console.log(`| ${c.name.padEnd(26)} | ${c.best.toFixed(0).padStart(10)} | ${((c.best * c.size) / 1e6).toFixed(1).padStart(26)} |`);
}
const by = (n: string) => (cases.find((c) => c.name === n) as Case).best;
console.log(`\nencodeText vs reference encode: ${(by("encodeText") / by("@toon-format/toon encode")).toFixed(1)}x`);
console.log(`decodeText vs reference decode: ${(by("decodeText") / by("@toon-format/toon decode")).toFixed(1)}x`);
