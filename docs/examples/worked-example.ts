/**
 * The worked example of docs/FORMAT.md §7, for real: generates the codec of `order.schema.json` with the
 * ordinary pipeline (into docs/examples/gen/ and docs/examples/dictionaries/), encodes two values, prints the
 * dictionary facts and an annotated hex dump, and checks that the bytes still match the ones the spec shows.
 *
 *   node --conditions=toon-dev --import tsx docs/examples/worked-example.ts
 *
 * The annotation walks the message with the runtime's own Reader, field by field in wire order, so every
 * offset and value printed is what a decoder sees. It ends with the scalar examples of §3 (runtime Writer).
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalForm } from "../../generator/dictionary/build.ts";
import { generate } from "../../generator/pipeline.ts";
import { Reader } from "../../runtime/wire/reader.ts";
import { Writer } from "../../runtime/wire/writer.ts";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const result = await generate(
  { inputs: ["docs/examples/order.schema.json"], outDir: "docs/examples/gen", dictionaryDir: "docs/examples/dictionaries" },
  { cwd: repo },
);
const schema = result.schemas[0]!;
const dict = schema.dictionary.base;

const { Order } = (await import("./gen/order.ts")) as typeof import("./gen/order.ts");

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");

/** Walk one message of this schema with the runtime Reader, printing one line per wire item. */
function annotate(bytes: Uint8Array): string[] {
  const r = new Reader(bytes);
  const lines: string[] = [];
  const step = (what: string, read: () => unknown): unknown => {
    const start = r.pos;
    const value = read();
    const shown = value === undefined ? "" : ` = ${typeof value === "string" ? JSON.stringify(value) : String(value)}`;
    lines.push(`${start.toString().padStart(3)}  ${hex(bytes.subarray(start, r.pos)).padEnd(35)}${what}${shown}`);
    return value;
  };
  step("magic \"TOON\"", () => void (r.pos += 4));
  step("format version", () => r.byte());
  step("flags (big-endian)", () => "0x" + ((r.byte() << 8) | r.byte()).toString(16).padStart(4, "0"));
  step("dictionary fingerprint (big-endian)", () => "0x" + ((r.byte() << 8) | r.byte()).toString(16).padStart(4, "0"));
  const bitmap = step("presence bitmap (bit 0: note)", () => "0b" + r.bits(1).toString(2).padStart(8, "0")) as string;
  step("id: string", () => r.string());
  step("qty: integer (zigzag varint)", () => r.int());
  step("price: number (zigzag(m)*16+s)", () => r.num());
  step("status: enum index", () => r.index(3));
  if (bitmap.endsWith("1")) step("note: string", () => r.string());
  step("created: date-time", () => r.dateTime());
  const n = step("tags: count", () => r.count(1)) as number;
  for (let i = 0; i < n; i++) step(`tags[${i}]: string`, () => r.string());
  r.done();
  return lines;
}

function show(label: string, value: unknown): Uint8Array {
  const bytes = Order.encode(value as Parameters<typeof Order.encode>[0]);
  assert.deepStrictEqual(Order.decode(bytes), value, "round trip");
  console.log(`\n${label}: ${JSON.stringify(value)}`);
  console.log(`${bytes.length} bytes (JSON: ${JSON.stringify(value).length} bytes)`);
  console.log(hex(bytes));
  console.log("off  bytes                              meaning");
  for (const line of annotate(bytes)) console.log(line);
  return bytes;
}

console.log(`codec ${Order.name}; dictionary fingerprint 0x${dict.fingerprint.toString(16).padStart(4, "0")}, hash64 ${dict.hash64}`);
console.log("\ncanonical form (the fingerprint hashes these bytes, UTF-8, no trailing newline):");
console.log(canonicalForm(dict.entries));

const order = { id: "A-1001", qty: 3, price: 19.99, status: "paid", created: "2025-01-15T10:30:00Z", tags: ["gift", "express", "gift"] };
const a = show("value 1", order);
const b = show("value 2 (with note)", { ...order, note: "ring twice" });

// the bytes docs/FORMAT.md §7 annotates: if this fails, the spec's example is out of date
const EXPECTED_1 = "54 4f 4f 4e 01 00 01 eb 6a 00 0c 41 2d 31 30 30 31 06 e2 f3 03 01 c1 e2 f1 e1 33 03 08 67 69 66 74 0e 65 78 70 72 65 73 73 03";
const EXPECTED_2 = "54 4f 4f 4e 01 00 01 eb 6a 01 0c 41 2d 31 30 30 31 06 e2 f3 03 01 14 72 69 6e 67 20 74 77 69 63 65 c1 e2 f1 e1 33 03 08 67 69 66 74 0e 65 78 70 72 65 73 73 05";
assert.equal(hex(a), EXPECTED_1, "value 1 bytes differ from docs/FORMAT.md §7");
assert.equal(hex(b), EXPECTED_2, "value 2 bytes differ from docs/FORMAT.md §7");
console.log("\nbytes match docs/FORMAT.md §7");

// the scalar examples of docs/FORMAT.md §3, through the runtime Writer (body bytes, no header)
console.log("\nscalar examples (§3):");
const scalar = (label: string, write: (w: Writer) => unknown): void => {
  const w = new Writer(64);
  write(w);
  console.log(`${label.padEnd(42)}${hex(w.buf.subarray(0, w.pos))}`);
};
for (const [label, x] of [["0", 0], ["3", 3], ["-1", -1], ["2^53", 2 ** 53], ["2^63", 2 ** 63]] as const) scalar(`integer ${label}`, (w) => w.int(x));
for (const x of [2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n]) scalar(`int64 ${x}n`, (w) => w.bigInt(x));
for (const x of [0, 1, -1, 19.99, 2.5, 0.1 + 0.2, -0]) scalar(`number ${Object.is(x, -0) ? "-0" : x}`, (w) => w.num(x));
for (const s of ["0", "-1", "007", "-0", "18446744073709551615"]) scalar(`decimal string ${JSON.stringify(s)}`, (w) => w.decimalString(s));
for (const s of ["2025-01-15T10:30:00Z", "2025-01-15T10:30:00.123Z", "2025-01-15T10:30:00+01:00"]) scalar(`date-time ${JSON.stringify(s)}`, (w) => w.dateTime(s));
for (const s of ["2025-01-15", "1969-12-31"]) scalar(`date ${JSON.stringify(s)}`, (w) => w.date(s));
scalar(`strings "ab", "", "ab", "é", "ab"`, (w) => ["ab", "", "ab", "é", "ab"].forEach((s) => w.string(s)));
