// Hostile schemas: property names, titles, descriptions, enum and const values, definition names and the
// source file name carry quotes, backslashes, line terminators, comment closers, template syntax, reserved
// words, `__proto__` / `constructor` / `prototype`, dictionary path syntax and code-injection attempts. The
// generated modules must type-check (one strict tsc run), import without side effects, round-trip values that
// use those keys, decode to plain objects (keys in schema order, `__proto__` an own property), and keep the
// dictionary paths unambiguous.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { emitModule } from "../generator/emit/module.ts";
import type { SchemaIR } from "../generator/ir/types.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { compileSchema, importCodec, REPO, suiteDir, typecheck, type Codec, type Compiled } from "./support/gen.ts";

declare global {
  // eslint-disable-next-line no-var
  var PWNED: unknown;
}

const INJECT = '"); globalThis.PWNED = 1; ("';

/** `o[k] = v`, except that `__proto__` becomes an own property (as JSON.parse makes it) instead of the prototype. */
function put(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Every awkward string the brief names, plus variants aimed at each quoting context. */
const HOSTILE: readonly string[] = [
  '"',
  "'",
  "\\",
  "\n",
  "*/",
  "${",
  "`",
  "\u2028",
  "\u2029",
  "__proto__",
  "constructor",
  "prototype",
  "a.b",
  "items[].price",
  "class",
  "function",
  "delete",
  "</script>",
  INJECT,
  "'); globalThis.PWNED = 1; ('",
  "`; globalThis.PWNED = 1; `",
  "${globalThis.PWNED = 1}",
  "*/ globalThis.PWNED = 1; /*",
  "\u2028globalThis.PWNED = 1; //",
  "\\\"); globalThis.PWNED = 1; //",
  "</script><script>globalThis.PWNED = 1</script>",
  "a\"b'c`d\\e\nf\r\tg",
  "",
  " ",
  "$",
  "#Thing",
  "x{}",
  "x<0>",
  '["a"]',
  "toString",
  "hasOwnProperty",
  "valueOf",
  "0",
  "北京",
  "😀",
];

/** A schema whose every name-like position holds one of the hostile strings. */
function hostileObjectSchema(title: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  HOSTILE.forEach((key, i) => {
    const doc = { title: HOSTILE[(i + 1) % HOSTILE.length], description: `${HOSTILE[(i + 2) % HOSTILE.length]} */ ${INJECT} \u2028 ${key}` };
    switch (i % 5) {
      case 0:
        put(properties, key, { type: "string", ...doc });
        break;
      case 1:
        put(properties, key, { enum: [key, INJECT, "*/", "\u2028"], ...doc });
        break;
      case 2:
        put(properties, key, { const: key, ...doc });
        break;
      case 3:
        put(properties, key, { type: "object", properties: { [key]: { type: "integer" }, __proto__x: { type: "boolean" } }, required: [key], additionalProperties: false, ...doc });
        break;
      default:
        put(properties, key, { type: "array", items: { type: ["string", "null"] }, ...doc });
    }
  });
  // JSON.parse, not a literal: a literal `__proto__` key would set the prototype instead of making a property
  return JSON.parse(
    JSON.stringify({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title,
      description: `Hostile description: */ ${INJECT} \u2028\u2029 \${x} \` </script>`,
      type: "object",
      properties,
      required: HOSTILE.filter((_, i) => i % 2 === 0),
      additionalProperties: false,
    }),
  );
}

/** Definitions named with hostile strings, referenced through escaped JSON pointers. */
function hostileDefsSchema(): Record<string, unknown> {
  const names = ["__proto__", "constructor", "prototype", "class", "function", "delete", "a.b", "items[].price", "</script>", INJECT, "*/", "a/b~c", "${", "`", "\u2028"];
  const ref = (n: string): string => "#/$defs/" + encodeURIComponent(n.replace(/~/g, "~0").replace(/\//g, "~1"));
  const $defs: Record<string, unknown> = {};
  const properties: Record<string, unknown> = {};
  names.forEach((n, i) => {
    put($defs, n, {
      title: n,
      description: `definition ${n} */ ${INJECT}`,
      type: "object",
      properties: { [n]: { type: "string" }, next: { $ref: ref(names[(i + 1) % names.length]!) } },
      required: [n],
      additionalProperties: false,
    });
    put(properties, n, { $ref: ref(n) });
  });
  return JSON.parse(
    JSON.stringify({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "class",
      type: "object",
      properties,
      additionalProperties: false,
      $defs,
    }),
  );
}

/** Unions discriminated by hostile property names and values, maps, consts holding `__proto__`. */
function hostileMiscSchema(): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "</script>",
      type: "object",
      properties: {
        byProto: {
          oneOf: [
            { type: "object", properties: { ["__proto__"]: { const: "a" }, x: { type: "string" } }, required: ["__proto__", "x"], additionalProperties: false },
            { type: "object", properties: { ["__proto__"]: { const: INJECT }, y: { type: "number" } }, required: ["__proto__", "y"], additionalProperties: false },
          ],
        },
        byInjection: {
          oneOf: [
            { type: "object", properties: { [INJECT]: { const: "*/" }, v: { type: "integer" } }, required: [INJECT, "v"], additionalProperties: false },
            { type: "object", properties: { [INJECT]: { const: "${" }, w: { type: "boolean" } }, required: [INJECT, "w"], additionalProperties: false },
          ],
        },
        map: { type: "object", additionalProperties: { type: "string" } },
        open: { type: "object", properties: { constructor: { type: "string" } }, required: ["constructor"] },
        constProto: { const: { ["__proto__"]: { polluted: true }, "\u2028": ["`", "${"] } },
        enumObjects: { enum: [{ ["__proto__"]: 1 }, { constructor: { prototype: 2 } }, INJECT] },
        tuple: { type: "array", prefixItems: [{ const: INJECT }, { enum: ["*/", "\\"] }], items: false, minItems: 2 },
        anything: {},
      },
      required: ["byProto", "byInjection"],
      additionalProperties: false,
    }),
  );
}

/** A value that sets every property of `s` (an object schema from hostileObjectSchema), in schema order. */
function fullValue(schema: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (o: Record<string, unknown>, k: string, v: unknown): void => {
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  };
  for (const [key, s] of Object.entries(schema.properties as Record<string, any>)) {
    if (s.type === "string") set(out, key, `${key}|${INJECT}`);
    else if (s.enum) set(out, key, s.enum[1]);
    else if ("const" in s) set(out, key, s.const);
    else if (s.type === "object") {
      const inner: Record<string, unknown> = {};
      set(inner, key, 42);
      set(inner, "__proto__x", true);
      set(out, key, inner);
    } else set(out, key, [key, null, "\u2028"]);
  }
  return out;
}

/** Every object in `v` is a plain object (prototype Object.prototype) and every array a plain array. */
function assertPlain(v: unknown, at = ""): void {
  if (Array.isArray(v)) {
    assert.equal(Object.getPrototypeOf(v), Array.prototype, `${at}: not a plain array`);
    v.forEach((x, i) => assertPlain(x, `${at}/${i}`));
  } else if (typeof v === "object" && v !== null) {
    assert.equal(Object.getPrototypeOf(v), Object.prototype, `${at || "/"}: prototype is not Object.prototype`);
    for (const k of Object.keys(v)) assertPlain((v as Record<string, unknown>)[k], `${at}/${k}`);
  }
}

function json(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x));
}

// -------------------------------------------------------------------------------------------- generation

interface Suite {
  dir: string;
  compiled: Compiled[];
  schemas: Record<string, Record<string, unknown>>;
  /** A module emitted with a hostile source and file name. */
  nameFile: string;
  nameIr: SchemaIR;
}

let suitePromise: Promise<Suite> | undefined;

async function suite(): Promise<Suite> {
  suitePromise ??= (async () => {
    globalThis.PWNED = undefined;
    const dir = suiteDir("hostile");
    const schemas: Record<string, Record<string, unknown>> = {
      props: hostileObjectSchema(INJECT),
      props2: hostileObjectSchema("constructor"),
      defs: hostileDefsSchema(),
      misc: hostileMiscSchema(),
    };
    const compiled: Compiled[] = [];
    for (const [base, schema] of Object.entries(schemas)) {
      assert.equal(globalThis.PWNED, undefined);
      compiled.push(await compileSchema(schema, dir, `hostile-${base}`));
    }
    // hostile source path (header comment) and file name (contract check literal)
    await initHash();
    const nameIr = schemaToIR(hostileObjectSchema("prototype"), { source: `evil\n${INJECT}\u2028*/.schema.json`, baseDir: dir });
    const text = emitModule(nameIr, buildDictionary(nameIr), { fileName: `${INJECT}\n\u2028.ts` });
    const nameFile = path.join(dir, "hostile-names.ts");
    writeFileSync(nameFile, text);
    return { dir, compiled, schemas, nameFile, nameIr };
  })();
  return suitePromise;
}

// -------------------------------------------------------------------------------------------- tests

test("hostile: generated modules type-check under tsc --strict (one run)", async () => {
  const s = await suite();
  const res = typecheck(s.dir, [path.join(s.dir, "*.ts")]);
  console.log(`# tsc over ${s.compiled.length + 1} hostile modules: ${res.ms.toFixed(0)} ms`);
  assert.ok(res.ok, `tsc failed:\n${res.output.slice(0, 4000)}`);
  for (const f of [...s.compiled.map((c) => c.file), s.nameFile]) assert.ok(res.files.includes(f), `tsc did not check ${path.relative(REPO, f)}`);
});

test("hostile: importing the modules executes nothing from the schema", async () => {
  const s = await suite();
  assert.equal(globalThis.PWNED, undefined);
  for (const c of s.compiled) assert.ok(c.codec, path.relative(REPO, c.file));
  const names = await importCodec(s.nameFile, s.nameIr.name);
  assert.equal(typeof names.encode, "function");
  assert.equal(globalThis.PWNED, undefined, "a schema string was executed");
  assert.equal(({} as Record<string, unknown>).polluted, undefined, "Object.prototype was polluted");
  // the header is one comment line per line, whatever the source name holds
  const text = s.compiled.map((c) => c.text).join("\n");
  assert.ok(!/^\s*globalThis\.PWNED/m.test(text), "a line of generated code starts with the injected statement");
  // identifiers come out sanitised
  for (const c of s.compiled) assert.match(c.ir.name, /^[A-Za-z_$][A-Za-z0-9_$]*$/);
});

test("hostile: values using the hostile keys round-trip, as plain objects in schema order", async () => {
  const s = await suite();
  for (const base of ["props", "props2"]) {
    const c = s.compiled.find((x) => x.file.endsWith(`hostile-${base}.ts`))!;
    const value = fullValue(s.schemas[base]!);
    const back = c.codec.decode(c.codec.encode(value));
    assert.ok(isDeepStrictEqual(back, value), `${base}: ${json(back).slice(0, 300)}`);
    assert.equal(json(back), json(value), `${base}: keys not in schema order`);
    assertPlain(back);
    assert.ok(Object.prototype.hasOwnProperty.call(back, "__proto__"), "__proto__ is not an own property");
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
    assert.equal((back as any).__proto__ === Object.prototype, false, "reading __proto__ gives the prototype");
    // validation reports the hostile name as a JSON-pointer segment, escaped
    const broken = fullValue(s.schemas[base]!);
    Object.defineProperty(broken, "a/b~c", { value: 1, enumerable: true });
    const v = c.codec.validate(broken);
    assert.equal(v.ok, false);
    assert.ok(!v.ok && v.errors.some((e) => e.path === "/a~1b~0c"), json(!v.ok && v.errors));
  }
  // arbitrary values (awkward strings everywhere, __proto__ keys as own properties)
  for (const c of s.compiled) {
    for (let seed = 1; seed <= 40; seed++) {
      const value = arbitrary(c.ir, seed);
      const back = c.codec.decode(c.codec.encode(value));
      assert.ok(isDeepStrictEqual(back, value), `${c.ir.name} seed ${seed}: ${json(back).slice(0, 300)}`);
      assertPlain(back);
    }
  }
  assert.equal(globalThis.PWNED, undefined);
});

test("hostile: unions discriminated by __proto__ and injected names, consts and maps with __proto__", async () => {
  const s = await suite();
  const c = s.compiled.find((x) => x.file.endsWith("hostile-misc.ts"))! as Compiled & { codec: Codec };
  const own = (entries: [string, unknown][]): Record<string, unknown> => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  };
  const value = own([
    ["byProto", own([["__proto__", INJECT], ["y", 1.5]])],
    ["byInjection", own([[INJECT, "${"], ["w", true]])],
    ["map", own([["__proto__", "p"], ["constructor", "c"], [INJECT, "*/"], ["prototype", "\u2028"]])],
    ["open", own([["constructor", "x"], ["__proto__", { deep: [1, "`"] }], ["toString", null]])],
    ["constProto", JSON.parse('{"__proto__": {"polluted": true}, "\\u2028": ["`", "${"]}')],
    ["enumObjects", JSON.parse('{"__proto__": 1}')],
    ["tuple", [INJECT, "\\"]],
    ["anything", JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}')],
  ]);
  const bytes = c.codec.encode(value as never);
  const back = c.codec.decode(bytes) as Record<string, any>;
  assert.ok(isDeepStrictEqual(back, value), json(back));
  assert.equal(json(back), json(value));
  assertPlain(back);
  for (const [k, o] of [["byProto", back.byProto], ["map", back.map], ["open", back.open], ["constProto", back.constProto], ["enumObjects", back.enumObjects], ["anything", back.anything]] as const) {
    assert.ok(Object.prototype.hasOwnProperty.call(o, "__proto__"), `${k}: __proto__ is not an own property`);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined, "Object.prototype was polluted");
  // the other branches too
  const other = own([
    ["byProto", own([["__proto__", "a"], ["x", "</script>"]])],
    ["byInjection", own([[INJECT, "*/"], ["v", -1]])],
  ]);
  assert.ok(isDeepStrictEqual(c.codec.decode(c.codec.encode(other as never)), other));
  // a discriminator value no branch has is an INVALID_VALUE at the discriminator's path
  const bad = own([["byProto", own([["__proto__", "zzz"], ["x", "1"]])], ["byInjection", own([[INJECT, "*/"], ["v", 1]])]]);
  assert.throws(() => c.codec.encode(bad as never), (e: any) => e.name === "ToonError" && e.code === "INVALID_VALUE" && e.path === "/byProto/__proto__");
  // the decoded constant is a fresh copy each time (no shared structure with the codec's tables)
  const again = c.codec.decode(bytes) as Record<string, any>;
  assert.notEqual(again.constProto, back.constProto);
});

test("hostile: dictionary paths stay unambiguous for names that look like path syntax", async () => {
  await initHash();
  const awkward = ["a.b", "a", "b", "items[].price", "items", "price", "x{}", "x", "x<0>", "x[0]", "x[...]", "$", "#A", "A", '["a"]', "[\"a\"]x", "", " ", "a b", "\\", '"', "a\\.b", "a[]", "a{}", "__proto__", "北京", "😀"];
  const props: Record<string, unknown> = {};
  for (const k of awkward) put(props, k, { type: "string" });
  props["a"] = { type: "object", properties: { b: { type: "string" }, "b.c": { type: "string" } } };
  props["items"] = { type: "array", items: { type: "object", properties: { price: { type: "number" } } } };
  props["x"] = { oneOf: [{ type: "object", additionalProperties: { type: "string" } }, { type: "array", prefixItems: [{ type: "string" }], items: { type: "integer" } }] };
  const schema = JSON.parse(
    JSON.stringify({
      title: "Paths",
      type: "object",
      properties: props,
      $defs: { A: { type: "object", properties: { "#A": { type: "string" }, A: { $ref: "#/$defs/A" } } } },
      additionalProperties: false,
    }),
  );
  schema.properties["#A"] = { $ref: "#/$defs/A" };
  const ir = schemaToIR(schema, { source: "paths.schema.json" });
  const dict = buildDictionary(ir);
  const paths = dict.base.entries.map((e) => e.path);
  const dup = paths.filter((p, i) => paths.indexOf(p) !== i);
  assert.deepEqual(dup, [], `ambiguous dictionary paths: ${dup.join(", ")}`);
  // every distinct property name gives a distinct top-level path
  const top = ir.root.kind === "object" ? ir.root.properties.map((p) => p.name) : [];
  assert.equal(top.length, new Set(top).size);
  const topPaths = dict.base.entries.filter((e) => e.required !== undefined).map((e) => e.path);
  assert.equal(new Set(topPaths).size, topPaths.length);
  assert.ok(paths.length > awkward.length + 5, `only ${paths.length} paths`);
  // and the hostile suites' dictionaries too
  const s = await suite();
  for (const c of s.compiled) {
    const ps = c.dictionary.base.entries.map((e) => e.path);
    assert.equal(new Set(ps).size, ps.length, `${c.ir.name}: duplicate dictionary paths`);
  }
});
