// The embedded descriptor with its repeated parts declared once (generator/emit/descriptor-share.ts): the
// module text must evaluate to exactly the descriptor, and an allOf inheritance chain must cost one property
// per link in it, not all of the parent's again.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { CodecDescriptor } from "../runtime/codec/descriptor.ts";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { describeCodec, printDescriptor } from "../generator/emit/descriptor.ts";
import { shareDescriptor } from "../generator/emit/descriptor-share.ts";
import { emitModule } from "../generator/emit/module.ts";
import { loadSchemaFile, schemaToIR } from "../generator/load/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = path.join(ROOT, "..", "shared", "corpus", "json-schemas", "schemas");

function describe_(schema: unknown, name: string, baseDir?: string): CodecDescriptor {
  const ir = schemaToIR(schema, { source: `${name}.json`, name, ...(baseDir === undefined ? {} : { baseDir }), unsafePatterns: "allow" });
  return describeCodec(ir, buildDictionary(ir));
}

/** What the printed declarations and expression evaluate to (no type annotations asked for). */
function evaluate(desc: CodecDescriptor): { value: unknown; declarations: string; text: string } {
  const { declarations, text } = shareDescriptor(desc, "", "");
  const value = new Function(`${declarations}\nreturn (${text});`)();
  return { value, declarations, text };
}

/** A chain of `n` definitions, each the previous one plus a property (tslint's rules, ESLint configs). */
function chain(n: number): unknown {
  const defs: Record<string, unknown> = { d0: { type: "object", properties: { p0: { type: "string", enum: ["a very long enum value to pass the sharing threshold", "and another one"] } } } };
  for (let i = 1; i < n; i++) defs[`d${i}`] = { allOf: [{ $ref: `#/definitions/d${i - 1}` }, { properties: { [`p${i}`]: { type: "integer", minimum: i } } }] };
  return { definitions: defs, type: "object", properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { $ref: `#/definitions/d${i}` }])) };
}

/** Many properties with the same inline shape. */
function repeated(n: number): unknown {
  const shape = { anyOf: [{ type: "boolean" }, { type: "object", properties: { severity: { enum: ["off", "warn", "error"] }, options: { type: "array", items: { type: "string" } } }, additionalProperties: false }] };
  return { type: "object", properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`rule-${i}`, shape])) };
}

describe("descriptor sharing", () => {
  before(() => initHash());

  test("the module text evaluates to the descriptor: examples, chains, repeated shapes", async () => {
    const cases: CodecDescriptor[] = [describe_(chain(12), "Chain"), describe_(repeated(20), "Repeated")];
    for (const [dir, file] of [
      ["orders", "order-list"],
      ["logs", "log-report"],
      ["extraction", "extraction-result"],
    ]) {
      const ir = await loadSchemaFile(`schemas/${file}.schema.json`, { cwd: path.join(ROOT, "examples", dir!) });
      cases.push(describeCodec(ir, buildDictionary(ir)));
    }
    if (existsSync(CORPUS)) for (const n of ["tslint", "tsconfig"]) cases.push(describe_(JSON.parse(readFileSync(path.join(CORPUS, `${n}.json`), "utf8")), n, CORPUS));
    let sharedSome = 0;
    for (const d of cases) {
      const { value, declarations } = evaluate(d);
      assert.deepStrictEqual(value, JSON.parse(JSON.stringify(d)), `${d.name}: the shared text is the descriptor`);
      if (declarations !== "") sharedSome++;
    }
    assert.ok(sharedSome >= 2, "the chain and the repeated shapes share parts");
  });

  test("nothing repeats: the plain printed descriptor", () => {
    const d = describe_({ type: "object", properties: { a: { type: "string" }, b: { type: "integer" } } }, "Small");
    assert.deepEqual(shareDescriptor(d, "", ""), { declarations: "", text: printDescriptor(d) });
  });

  test("an allOf chain: one property per link, and a repeated shape once", () => {
    const len = (n: number): number => {
      const { declarations, text } = shareDescriptor(describe_(chain(n), "Chain"), "", "");
      return declarations.length + text.length;
    };
    const [a, b] = [len(20), len(40)];
    // flattened, the chain's property lists are quadratic: 40 links would print 4x what 20 print
    assert.ok(b / a < 2.3, `20 links: ${a} chars, 40 links: ${b}`);
    assert.ok(b < printDescriptor(describe_(chain(40), "Chain")).length / 4);
    const { declarations, text } = shareDescriptor(describe_(repeated(30), "Repeated"), "", "");
    assert.equal(declarations.split("\n").filter((l) => l.startsWith("const ")).length, 1, declarations);
    assert.equal(text.split("$s_Repeated_root_rule_0").length - 1, 30);
  });

  test("names come from where a part first occurs, not from a counter", () => {
    const { declarations } = shareDescriptor(describe_(chain(6), "Chain"), "", "");
    const names = [...declarations.matchAll(/^const (\$[sp]_\w+)/gm)].map((m) => m[1]);
    assert.ok(names.length > 0);
    for (const n of names) assert.match(n!, /^\$[sp]_Chain_/);
    // the same descriptor prints the same text
    assert.equal(shareDescriptor(describe_(chain(6), "Chain"), "", "").declarations, declarations);
  });

  test("a module declares its shared parts with the descriptor types", async () => {
    const ir = schemaToIR(repeated(8), { source: "r.json", name: "Repeated" });
    const text = emitModule(ir, buildDictionary(ir), { fileName: "r.ts", optimize: "size" });
    assert.match(text, /^const \$s_Repeated_root_rule_0: \$rt\.DescriptorShape = \{/m);
  });
});
