/**
 * Zod schemas as inputs (issue 4): per-schema dispatch between Zod 4 (`z.toJSONSchema`) and Zod 3
 * (zod-to-json-schema), constructs with no JSON Schema as errors or warned fallbacks (never silent), the
 * example's generated types equal to `z.infer` (a tsc-checked type-level file), and the Zod files of the
 * corpus loaded where their imports allow (ZOD_CORPUS_UNLOADABLE lists the rest, with reasons).
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import * as z3 from "zod/v3";
import { zodToJsonSchema as zodToJsonSchemaLib } from "zod-to-json-schema";
import { ToonError } from "../runtime/wire/errors.ts";
import { isZod3Schema, isZod4Schema, loadZodModule, produceInput, splitExport, zodCodecName, zodToJsonSchema, type ProducedInput } from "../generator/inputs/index.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { corpusDir, freshDir, importGenerated, REPO, typeCheck, writeProduced } from "./support/tools-gen.ts";
import { NOT_IMPORTED, ZOD_CORPUS_UNLOADABLE } from "./support/tools-corpus.ts";

async function rejects(p: Promise<unknown>): Promise<ToonError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ToonError) return e;
    throw e;
  }
  assert.fail("expected a ToonError");
}

interface Codec {
  encode(v: unknown): Uint8Array;
  decode(b: Uint8Array): unknown;
}

const corpus = corpusDir();
if (!corpus) console.log("# ../shared/corpus not found: skipping the corpus Zod tests");

interface Loaded {
  rel: string;
  copy: string;
  produced: ProducedInput;
  genDir: string;
}

/** The text with `// @ts-nocheck` added (after a shebang line, which must stay first). */
function noCheck(text: string): string {
  const shebang = text.startsWith("#!") ? text.slice(0, text.indexOf("\n") + 1) : "";
  return shebang + "// @ts-nocheck\n" + text.slice(shebang.length);
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}

const loaded: Loaded[] = [];
const failures = new Map<string, string>();
let srcDir = "";
let genRoot = "";
let tscOut = "";
/** Type-checked with the generated corpus codecs, in the same tsc run. */
const TYPE_LEVEL_FILES = [path.join(REPO, "test", "support", "tools-zod-infer.ts"), path.join(REPO, "examples", "tools", "main.ts")];

before(async () => {
  genRoot = freshDir("zod-corpus");
  if (!corpus) {
    tscOut = typeCheck(genRoot, TYPE_LEVEL_FILES);
    return;
  }
  // copies inside the repo, so `zod` resolves; `@ts-nocheck`: they are data to load, not code of this repo
  srcDir = freshDir("zod-corpus-src");
  const files = [...tsFiles(path.join(corpus!, "zod")), ...tsFiles(path.join(corpus!, "tool-definitions", "zod-sources"))];
  for (const abs of files) {
    const rel = path.relative(corpus!, abs).split(path.sep).join("/");
    const copy = path.join(srcDir, rel);
    mkdirSync(path.dirname(copy), { recursive: true });
    let text = readFileSync(abs, "utf8");
    writeFileSync(copy, noCheck(text));
    if (ZOD_CORPUS_UNLOADABLE[rel]?.notImported) {
      failures.set(rel, NOT_IMPORTED);
      continue;
    }
    try {
      await loadZodModule(copy, rel);
    } catch (e) {
      failures.set(rel, (e as Error).message);
      const adapted = ZOD_CORPUS_UNLOADABLE[rel]?.adapted;
      if (adapted === undefined) continue;
      for (const [from, to] of adapted) text = text.split(from).join(to);
      writeFileSync(copy, noCheck(text));
    }
    try {
      const produced = await produceInput(copy, { cwd: srcDir });
      assert.ok(produced !== null && produced.kind === "zod");
      const genDir = path.join(genRoot, rel.replace(/\.ts$/, "").replace(/[^A-Za-z0-9/_-]+/g, "-"));
      await writeProduced(produced, genDir);
      loaded.push({ rel, copy, produced, genDir });
    } catch (e) {
      if (!failures.has(rel)) failures.set(rel, (e as Error).message);
    }
  }
  tscOut = typeCheck(genRoot, TYPE_LEVEL_FILES);
});

// ---------------------------------------------------------------------------------------------------------
describe("Zod conversion", () => {
  test("Zod 4 and Zod 3 schemas are told apart per schema", () => {
    assert.ok(isZod4Schema(z.string()));
    assert.ok(!isZod3Schema(z.string()));
    assert.ok(isZod3Schema(z3.string()));
    assert.ok(!isZod4Schema(z3.string()));
    assert.ok(!isZod4Schema({ _def: {} }) && !isZod3Schema({ _def: { typeName: "ZodString" } }));
  });

  test("why dispatch matters: zod-to-json-schema given a Zod 4 schema returns an empty schema, silently", async () => {
    const s = z.object({ a: z.string() });
    const wrong = zodToJsonSchemaLib(s as never) as Record<string, unknown>;
    assert.deepEqual(Object.keys(wrong).filter((k) => k !== "$schema"), []);
    const right = await zodToJsonSchema(s, "x");
    assert.equal(right.major, 4);
    assert.deepEqual(right.jsonSchema.required, ["a"]);
  });

  test("Zod 4: output types, closed objects, records, nullable, enums, recursion", async () => {
    type Node = { name: string; children: Node[] };
    const NodeSchema: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(NodeSchema) }));
    const s = z.object({
      a: z.string().min(2).describe("the a"),
      b: z.number().int().optional(),
      c: z.enum(["x", "y"]).default("x"),
      d: z.record(z.string(), z.boolean()),
      e: z.string().nullable(),
      tree: NodeSchema,
      refined: z.string().refine((v) => v !== "no"),
    });
    const r = await zodToJsonSchema(s, "m.ts#s");
    assert.deepEqual(r.warnings, []);
    const ir = schemaToIR(r.jsonSchema, { source: "m.ts#s", name: "S" });
    assert.equal(ir.root.kind, "object");
    const props = ir.root.kind === "object" ? ir.root.properties : [];
    assert.deepEqual(props.map((p) => [p.name, p.required]), [["a", true], ["b", false], ["c", true], ["d", true], ["e", true], ["tree", true], ["refined", true]]);
    assert.equal(ir.root.kind === "object" && ir.root.additional, false);
    assert.equal(props[0]!.shape.description, "the a");
    assert.ok(ir.definitions.length >= 1, "the recursive schema is a named definition");
  });

  test("Zod 4: constructs with no JSON form are one error listing every path", async () => {
    const s = z.object({
      when: z.date(),
      big: z.bigint(),
      m: z.map(z.string(), z.number()),
      set: z.set(z.string()),
      p: z.promise(z.string()),
      u: z.union([z.string(), z.undefined()]),
      ok: z.string(),
    });
    const e = await rejects(zodToJsonSchema(s, "m.ts#s"));
    assert.equal(e.code, "UNSUPPORTED_SCHEMA");
    assert.deepEqual(
      (e.details ?? []).map((d) => d.path).sort(),
      ["/properties/big", "/properties/m", "/properties/p", "/properties/set", "/properties/u/anyOf/1", "/properties/when"],
    );
    assert.match(e.message, /z\.iso\.datetime\(\)/);
  });

  test("Zod 4: z.custom() and .transform() fall back to any JSON value, with a warning naming the path", async () => {
    const s = z.object({ c: z.custom<{ x: 1 }>((v) => typeof v === "object"), t: z.string().transform((v) => v.length), n: z.number() });
    const r = await zodToJsonSchema(s, "m.ts#s");
    assert.equal(r.warnings.length, 2);
    assert.ok(r.warnings.some((w) => /^m\.ts#s#\/properties\/c: z\.custom\(\)/.test(w)), r.warnings.join("\n"));
    assert.ok(r.warnings.some((w) => /^m\.ts#s#\/properties\/t: \.transform\(\)/.test(w)), r.warnings.join("\n"));
    const props = r.jsonSchema.properties as Record<string, object>;
    assert.deepEqual(props.c, {});
    assert.deepEqual(props.t, {});
  });

  test("Zod 3 (zod/v3): zod-to-json-schema, with the same rules", async () => {
    const ok = await zodToJsonSchema(z3.object({ a: z3.string(), b: z3.array(z3.number()).optional(), r: z3.string().refine((v) => v !== "") }), "m.ts#v3");
    assert.equal(ok.major, 3);
    assert.deepEqual(ok.warnings, []);
    assert.deepEqual(ok.jsonSchema.required, ["a", "r"]);
    const e = await rejects(zodToJsonSchema(z3.object({ d: z3.date(), n: z3.bigint() }), "m.ts#v3"));
    assert.equal(e.code, "UNSUPPORTED_SCHEMA");
    assert.deepEqual((e.details ?? []).map((d) => d.path), ["/properties/d", "/properties/n"]);
    const w = await zodToJsonSchema(z3.object({ t: z3.string().transform((v) => v.length), c: z3.custom<string>((v) => typeof v === "string") }), "m.ts#v3");
    assert.equal(w.warnings.length, 2);
    assert.deepEqual((w.jsonSchema.properties as Record<string, object>).t, {});
  });

  test("an empty conversion is an error unless the schema is z.any()/z.unknown()", async () => {
    assert.deepEqual((await zodToJsonSchema(z.any(), "a")).warnings, []);
    assert.deepEqual((await zodToJsonSchema(z3.unknown(), "a")).warnings, []);
    assert.equal((await rejects(zodToJsonSchema("not a schema", "x"))).code, "SCHEMA_ERROR");
  });

  test("input syntax and codec names", () => {
    assert.deepEqual(splitExport("src/schemas.ts#WeatherQuery"), { file: "src/schemas.ts", exportName: "WeatherQuery" });
    assert.deepEqual(splitExport("src/schemas.ts"), { file: "src/schemas.ts" });
    assert.deepEqual(splitExport("schemas/a#b.json"), { file: "schemas/a#b.json" });
    assert.equal(zodCodecName("weatherQuerySchema", "/x/s.ts"), "WeatherQuery");
    assert.equal(zodCodecName("Schema", "/x/s.ts"), "Schema");
    assert.equal(zodCodecName("user_schema", "/x/s.ts"), "User");
    assert.equal(zodCodecName("default", "/x/order-list.ts"), "OrderList");
  });
});

// ---------------------------------------------------------------------------------------------------------
describe("the example's Zod schemas (examples/tools/schemas.ts)", () => {
  test("generated types equal z.infer (tsc over test/support/tools-zod-infer.ts) and values round-trip", async () => {
    // one tsc run (in the top-level `before`) covers the type-level file, the example and the corpus codecs
    assert.equal(tscOut, "", tscOut);
    const schemas = await import("../examples/tools/schemas.ts");
    const gen = await importGenerated<Record<string, Codec>>(path.join(REPO, "examples", "tools", "gen", "index.ts"));
    const q = schemas.WeatherQuery.parse({ city: "Zürich" });
    assert.deepEqual(gen.WeatherQuery!.decode(gen.WeatherQuery!.encode(q)), { city: "Zürich", unit: "celsius" });
    const alert = schemas.legacyAlertSchema.parse({ level: "watch", headline: "Wind", areas: ["Coast"] });
    assert.deepEqual(gen.LegacyAlert!.decode(gen.LegacyAlert!.encode(alert)), alert);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe("corpus Zod files", { skip: corpus ? false : "no corpus" }, () => {
  test("every file loads, or is listed in ZOD_CORPUS_UNLOADABLE with the reason", () => {
    console.log("# ZOD_CORPUS_UNLOADABLE (test/support/tools-corpus.ts):");
    for (const [rel, u] of Object.entries(ZOD_CORPUS_UNLOADABLE)) console.log(`#   ${rel}: ${u.reason}`);
    for (const [rel, message] of failures) {
      const listed = ZOD_CORPUS_UNLOADABLE[rel];
      assert.ok(listed, `${rel} failed to load and is not listed: ${message}`);
      assert.match(message, listed.error, rel);
    }
    for (const rel of Object.keys(ZOD_CORPUS_UNLOADABLE)) assert.ok(failures.has(rel), `${rel} is listed as unloadable but loads: update the list`);
    const adaptedLoaded = loaded.filter((l) => ZOD_CORPUS_UNLOADABLE[l.rel]?.adapted).map((l) => l.rel);
    assert.deepEqual(adaptedLoaded, Object.keys(ZOD_CORPUS_UNLOADABLE).filter((k) => ZOD_CORPUS_UNLOADABLE[k]!.adapted));
    const codecs = loaded.reduce((n, l) => n + l.produced.codecs.length, 0);
    console.log(`# loaded ${loaded.length} files (${loaded.map((l) => l.rel).join(", ")}): ${codecs} exported Zod schemas -> codecs`);
    for (const l of loaded) for (const w of l.produced.warnings.slice(0, 3)) console.log(`#   warning: ${w}`);
    assert.ok(loaded.length >= 3, `only ${loaded.length} loaded`);
    assert.ok(codecs >= 150, `only ${codecs} codecs`);
  });

  test("the generated modules type-check (tsc --strict, one run with the type-level file)", () => {
    assert.equal(tscOut, "", tscOut);
  });

  test("values Zod accepts round-trip through the generated codecs (MCP SDK types, shadcn registry)", async () => {
    let n = 0;
    const roundTrip = async (rel: string, exportName: string, value: unknown): Promise<boolean> => {
      const l = loaded.find((x) => x.rel === rel);
      assert.ok(l, rel);
      const mod = (await import(l.copy)) as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>;
      const parsed = mod[exportName]!.safeParse(value);
      if (!parsed.success) return false;
      const unit = l.produced.codecs.find((c) => c.ir.source.endsWith(`#${exportName}`))!;
      const gen = await importGenerated<Record<string, Codec>>(path.join(l.genDir, unit.module));
      const codec = gen[unit.ir.name]!;
      assert.deepEqual(codec.decode(codec.encode(parsed.data)), parsed.data, `${rel}#${exportName}`);
      n++;
      return true;
    };
    const mcpTypes = "zod/modelcontextprotocol-typescript-sdk/types.ts";
    const read = (p: string): unknown => JSON.parse(readFileSync(p, "utf8"));
    // every tools/list result of the corpus (and of the example) through the SDK's own ListToolsResultSchema
    for (const f of readdirSync(path.join(corpus!, "tool-definitions", "mcp", "reference-servers")).sort()) {
      const { serverInfo: _ignored, ...result } = read(path.join(corpus!, "tool-definitions", "mcp", "reference-servers", f)) as Record<string, unknown>;
      assert.ok(await roundTrip(mcpTypes, "ListToolsResultSchema", result), f);
    }
    const example = read(path.join(REPO, "examples", "tools", "recorded", "mcp-tools-list.json")) as { result: unknown };
    assert.ok(await roundTrip(mcpTypes, "ListToolsResultSchema", example.result));
    const call = read(path.join(REPO, "examples", "tools", "recorded", "mcp-tools-call.json")) as { request: unknown; response: { result: unknown } };
    assert.ok(await roundTrip(mcpTypes, "JSONRPCRequestSchema", call.request));
    assert.ok(await roundTrip(mcpTypes, "CallToolResultSchema", call.response.result));
    // shadcn registry files through the (adapted, Zod 3) shadcn schemas
    const shadcn = "zod/shadcn-ui/schema.ts";
    const inst = path.join(corpus!, "zod", "shadcn-ui", "instances");
    assert.ok(await roundTrip(shadcn, "registryItemSchema", read(path.join(inst, "styles-default.accordion.json"))));
    assert.ok(await roundTrip(shadcn, "registryIndexSchema", read(path.join(inst, "r.index.json"))));
    assert.ok(await roundTrip(shadcn, "rawConfigSchema", read(path.join(inst, "config-full.components.json"))));
    console.log(`# ${n} corpus values parsed by Zod round-tripped through generated codecs`);
  });
});
