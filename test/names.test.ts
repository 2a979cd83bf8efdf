// Names in generated code say what they are (issue 9, item 5): hoisted constants are `$<kind>_<Definition>_<path>`
// and shared by value, locals are named after their field, large JSON constants and the instructions text have
// one entry per line. So a schema edit changes the lines it is about and renames nothing else: these tests add
// a property and diff the generated modules.

import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { generate } from "../generator/pipeline.ts";
import { jsonBlock, stringBlock } from "../templates/code.ts";
import { compileSchema, REPO, suiteDir } from "./support/gen.ts";

/** Lines of `b` not in a longest common subsequence with `a` (added) and of `a` not in it (removed). */
function lineDiff(a: string, b: string): { added: string[]; removed: string[] } {
  const x = a.split("\n");
  const y = b.split("\n");
  const w = y.length + 1;
  const lcs = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const added: string[] = [];
  const removed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) removed.push(x[i++]!);
    else added.push(y[j++]!);
  }
  while (i < x.length) removed.push(x[i++]!);
  while (j < y.length) added.push(y[j++]!);
  return { added, removed };
}

/** The text of top-level `function <fn>(` ... `}` in a generated module. */
function functionText(module: string, fn: string): string {
  const start = module.indexOf(`\nfunction ${fn}(`);
  assert.ok(start >= 0, `no function ${fn}`);
  const end = module.indexOf("\n}\n", start);
  return module.slice(start + 1, end + 2);
}

/**
 * The orders example's module as committed and after adding `giftMessage` to Order, regenerated in a copy of
 * the example with its committed dictionary, as a user would.
 */
async function ordersEdit(): Promise<{ before: string; after: string }> {
  const example = path.join(REPO, "examples/orders");
  const dir = suiteDir("names-orders");
  cpSync(example, dir, { recursive: true });
  const schemaFile = path.join(dir, "schemas/order-list.schema.json");
  const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
  schema.$defs.Order.properties.giftMessage = { type: "string" };
  writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
  const config = JSON.parse(readFileSync(path.join(dir, "toon.config.json"), "utf8"));
  const run = await generate(config, { cwd: dir, dryRun: true });
  const module = run.files.find((f) => f.path.endsWith(path.join("gen", "order-list.ts")));
  assert.ok(module !== undefined, run.files.map((f) => f.path).join(", "));
  return { before: readFileSync(path.join(example, "gen/order-list.ts"), "utf8"), after: module.content };
}

test("names: adding an optional property renames nothing and leaves the other definitions' code as it was", async () => {
  const { before, after } = await ordersEdit();
  // the functions of the definitions that did not change are byte-identical
  for (const def of ["Customer", "LineItem", "Address"]) {
    for (const fn of [`write${def}`, `read${def}`, `$ck${def}`]) assert.equal(functionText(after, fn), functionText(before, fn), fn);
  }
  // every constant keeps its name; only the one holding Order's keys changes (by one added line)
  // (the hoisted ones: `$<kind>_...`)
  const constants = (m: string) => [...m.matchAll(/^const (\$[a-z]+_[\w$]*) = /gm)].map((x) => x[1]!);
  const names = constants(before);
  assert.ok(names.includes("$keys_Order") && names.includes("$dt_Order_total") && names.includes("$enum_Order_currency"), names.join(" "));
  for (const n of names) assert.ok(constants(after).includes(n), `constant ${n} was renamed`);
  // Order's writer and checker: the new property's lines are added; the one removed line is the key-count sum
  for (const fn of ["writeOrder", "$ckOrder", "readOrder"]) {
    const d = lineDiff(functionText(before, fn), functionText(after, fn));
    assert.ok(d.removed.length <= 1, `${fn} lost or renamed lines:\n${d.removed.join("\n")}`);
    assert.ok(d.removed.every((l) => l.includes("$rt.keyCount(v)")), `${fn}: ${d.removed.join("\n")}`);
  }
  // the whole module: 104 changed lines with counter-numbered names; most of what is left is the evolved codec's
  // extension machinery (extension writer/reader, $applyExtensions, flags, level), the new property's own code
  const d = lineDiff(before, after);
  assert.ok(d.added.length + d.removed.length <= 70, `${d.added.length} added + ${d.removed.length} removed lines:\n-${d.removed.join("\n-")}`);
});

test("names: locals are named after their fields; names that sanitise alike get distinct suffixes", async () => {
  const schema = {
    title: "Clash",
    type: "object",
    properties: {
      "a-b": { type: "string" },
      a_b: { type: "string" },
      "a b": { type: "integer" },
      北京: { type: "string" },
      東京: { type: "string" },
      __proto__x: { type: "boolean" },
      class: { type: "array", items: { type: "integer" } },
      v: { type: "string" },
      e: { type: "string" },
    },
    required: ["a-b", "class"],
    additionalProperties: false,
  };
  const c = await compileSchema(schema, suiteDir("names-clash"), "clash");
  const write = functionText(c.text, "writeClash");
  for (const local of ["v_a_b", "v_a_b$2", "v_a_b$3", "v__", "v__$2", "v___proto__x", "v_class", "n_class", "i_class", "e_class", "v_v", "v_e"]) {
    assert.ok(new RegExp(`const ${local.replace(/\$/g, "\\$")} = `).test(write) || new RegExp(`let ${local.replace(/\$/g, "\\$")} = `).test(write), `no local ${local} in\n${write}`);
  }
  const value = { "a-b": "x", a_b: "y", "a b": 3, 北京: "p", 東京: "t", __proto__x: true, class: [1, 2], v: "vv", e: "ee" };
  assert.deepEqual(c.codec.decode(c.codec.encode(value)), value);
});

test("names: identical constants are one, named after their first user", async () => {
  const colour = { type: "string", enum: ["red", "green", "blue"] };
  const schema = {
    title: "Paint",
    type: "object",
    properties: { inside: colour, outside: { ...colour }, trim: { type: "string", enum: ["red", "green"] } },
    required: ["inside", "outside", "trim"],
    additionalProperties: false,
  };
  const c = await compileSchema(schema, suiteDir("names-dedup"), "paint");
  const decls = [...c.text.matchAll(/^const (\$enum_\w+) = (.*);$/gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(decls, [
    ["$enum_Paint_inside", '["red", "green", "blue"] as const'],
    ["$enum_Paint_trim", '["red", "green"] as const'],
  ]);
  assert.ok(!/\$enum_Paint_outside/.test(c.text), "the second identical table was not shared");
  const value = { inside: "blue", outside: "red", trim: "green" };
  assert.deepEqual(c.codec.decode(c.codec.encode(value)), value);
});

test("names: jsonBlock and stringBlock write the same values as jsonLit, one entry or line per line when long", () => {
  const hostile = ["\u2028", "\u2029", '"', "\\", "*/", "${x}", "`", "\n", "__proto__", "北京"];
  const values: unknown[] = [
    [],
    {},
    [1, -0, 2.5, true, null, "x"],
    JSON.parse('{"__proto__": {"a": 1}, "constructor": [], "b": "' + "y".repeat(120) + '"}'),
    { list: hostile, nested: { deep: [hostile, { k: hostile.join("") }] } },
    Array.from({ length: 40 }, (_, i) => ({ id: i, name: `item ${i}` })),
  ];
  for (const v of values) {
    const text = jsonBlock(v).text;
    const back: object = new Function(`return (${text});`)();
    assert.deepEqual(back, v, text);
    if (v !== null && typeof v === "object" && Object.hasOwn(v, "__proto__")) {
      assert.ok(Object.hasOwn(back, "__proto__"), "__proto__ must stay an own property");
    }
    assert.ok(!/[\u2028\u2029]/.test(text), "raw line separators in code");
  }
  // short values stay on one line; a long list has one entry per line, each ending in a comma
  assert.equal(jsonBlock(["a", "b"]).text, '["a", "b"]');
  const long = jsonBlock(Array.from({ length: 30 }, (_, i) => `entry-${i}`)).text.split("\n");
  assert.equal(long.length, 32);
  assert.deepEqual([long[0], long[1], long[31]], ["[", '  "entry-0",', "]"]);
  assert.equal(jsonBlock(["a", "b"], "", 0).text, '[\n  "a",\n  "b",\n]');

  for (const s of ["", "one line", "two\nlines", "ends\n", "\n\nblank\n\nlines\n", hostile.join("\n")]) {
    const text = stringBlock(s).text;
    assert.equal(new Function(`return (${text});`)(), s, text);
    assert.equal(text.split("\n").length, Math.max(1, s.split("\n").length - (s.endsWith("\n") ? 1 : 0)), text);
  }
});

test("names: a definition named like one of the module's own names gets a suffix, not a duplicate declaration", async () => {
  // `$isInteger` is the module's alias of Number.isInteger; the union predicate of definition `Integer` was
  // `$is` + its name as well
  const object = (key: string, type: string) => ({ type: "object", properties: { [key]: { type } }, required: [key], additionalProperties: false });
  const schema = {
    title: "Holder",
    type: "object",
    properties: { x: { anyOf: [{ $ref: "#/$defs/Integer" }, { $ref: "#/$defs/Other" }, { type: "string" }] } },
    required: ["x"],
    additionalProperties: false,
    $defs: { Integer: object("b", "integer"), Other: object("a", "string") },
  };
  const c = await compileSchema(schema, suiteDir("names-own"), "holder");
  assert.equal(c.text.match(/^const \$isInteger = /gm)?.length, 1);
  assert.match(c.text, /^function \$isInteger\$2\(v: any\): boolean \{$/m);
  for (const v of [{ x: { a: "s" } }, { x: { b: 2 } }, { x: "str" }]) assert.deepEqual(c.codec.decode(c.codec.encode(v)), v);
});
