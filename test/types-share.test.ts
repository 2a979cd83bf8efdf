// Repeated inline object types declared once (generator/emit/types-share.ts): the module names one interface
// where the schema repeats an object inline, from where it first occurs and clear of the module's own names; small
// objects stay inline. (test/optimize.test.ts compiles such a module under the strict flags and runs it.)

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { emitModule } from "../generator/emit/module.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { ADDRESS } from "./support/address-schema.ts";


function module(schema: unknown, name: string): string {
  const ir = schemaToIR(schema, { source: `${name}.json`, name });
  return emitModule(ir, buildDictionary(ir), { fileName: `${name}.ts` });
}

describe("shared inline types", () => {
  before(() => initHash());

  test("an object repeated inline is one interface, named where it first occurs", () => {
    const text = module({ type: "object", properties: { home: ADDRESS, work: ADDRESS, past: { type: "array", items: ADDRESS } } }, "Person");
    assert.equal(text.split("export interface PersonHome {").length - 1, 1, "declared once");
    assert.match(text, /^ {2}home\?: PersonHome \| undefined;$/m);
    assert.match(text, /^ {2}work\?: PersonHome \| undefined;$/m);
    assert.match(text, /^ {2}past\?: PersonHome\[\] \| undefined;$/m);
    // the docs of its fields travel with it
    assert.match(text, /\/\*\* ISO 3166-1 alpha-2 country code\. \*\/\n {2}country: string;/);
  });

  test("a name the module has already is not reused", () => {
    const text = module({ type: "object", properties: { home: ADDRESS, work: ADDRESS, x: { $ref: "#/$defs/PersonHome" } }, $defs: { PersonHome: { type: "object", properties: { n: { type: "integer" } } } } }, "Person");
    assert.match(text, /^export interface PersonHome2 \{/m);
    assert.match(text, /^ {2}work\?: PersonHome2 \| undefined;$/m);
  });

  test("an allOf chain: each link extends the one before, so its types are linear in the chain", () => {
    const chain = (n: number): unknown => {
      const defs: Record<string, unknown> = { L0: { type: "object", properties: { p0: { type: "string", description: "The first field of every link, described at length so that sharing pays." } } } };
      for (let i = 1; i < n; i++) defs[`L${i}`] = { allOf: [{ $ref: `#/$defs/L${i - 1}` }, { properties: { [`p${i}`]: { type: "integer", description: `What link ${i} adds.` } } }] };
      return { $defs: defs, type: "object", properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { $ref: `#/$defs/L${i}` }])) };
    };
    const text = module(chain(30), "Chain");
    assert.match(text, /^export interface L29 extends L28 \{\n {2}\/\*\* What link 29 adds\. \*\/\n {2}p29\?: number \| undefined;\n {2}\[key: string\]: unknown;\n\}$/m);
    const types = (t: string): number => t.slice(0, t.indexOf("\nconst ")).length;
    const [a, b] = [types(module(chain(20), "Chain")), types(module(chain(40), "Chain"))];
    assert.ok(b / a < 2.3, `types of 20 links: ${a} chars, of 40: ${b}`);
  });

  test("small objects, and objects that occur once, stay where they are", () => {
    const small = { type: "object", properties: { a: { type: "integer" } } };
    const text = module({ type: "object", properties: { p: small, q: small, r: ADDRESS } }, "Small");
    assert.doesNotMatch(text, /^export interface Small[PQR]/m);
    assert.match(text, /^ {2}p\?: \{$/m);
  });
});
