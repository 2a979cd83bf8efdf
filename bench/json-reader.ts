/**
 * `node --conditions=toon-dev --import tsx bench/json-reader.ts`: the runtime's JSON reader (runtime/text/reader/
 * json.ts) on the examples' JSON data: whole text as parseJsonExact reads it (with and without positions), the
 * same text fed one character at a time (a stream's worst case), and JSON.parse for scale. Each figure is the best
 * of many rounds of all the files, in MB (of characters) per second: on a shared machine the best round is the
 * one least disturbed.
 */
import { JsonReader } from "../runtime/text/reader/json.ts";
import { JsonValueBuilder, parseJsonExact } from "../runtime/text/reader/json-value.ts";
import { exampleJsonTexts } from "../test/support/example-data.ts";

const texts = exampleJsonTexts().map((f) => f.text);
const chars = texts.reduce((n, t) => n + t.length, 0);

function byCharacter(text: string): unknown {
  const builder = new JsonValueBuilder();
  const reader = new JsonReader(builder);
  builder.reader = reader;
  for (let i = 0; i < text.length; i++) reader.push(text, i, i + 1);
  reader.end();
  return builder.value;
}

const cases: [string, (t: string) => unknown, number][] = [
  ["parseJsonExact", (t) => parseJsonExact(t), 30],
  ["parseJsonExact, positions", (t) => parseJsonExact(t, true), 30],
  ["one character at a time", byCharacter, 5],
  ["JSON.parse", (t) => JSON.parse(t), 30],
];
const best = new Map<string, number>();
for (let round = 0; round < 60; round++) {
  for (const [name, fn, repeat] of cases) {
    const t0 = performance.now();
    for (let k = 0; k < repeat; k++) for (const t of texts) fn(t);
    const mbs = (chars * repeat) / 1e6 / ((performance.now() - t0) / 1000);
    if (round >= 5) best.set(name, Math.max(best.get(name) ?? 0, mbs));
  }
}
console.log(`${texts.length} files, ${chars} characters`);
for (const [name, mbs] of best) console.log(`${name.padEnd(28)} ${mbs.toFixed(1).padStart(7)} MB/s`);
