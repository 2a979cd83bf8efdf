// Generated TypeScript compiles under the strict flags apps turn on (issues 14 and 26): strict plus
// noUncheckedIndexedAccess, noUnusedLocals, noUnusedParameters, exactOptionalPropertyTypes,
// noPropertyAccessFromIndexSignature, verbatimModuleSyntax and erasableSyntaxOnly, with moduleResolution
// nodenext, node16 and bundler: one tsc run per resolution (node16, then bundler, while the corpus generates).
//
// What is compiled: the committed examples (examples/*/gen, docs/examples/gen), and modules generated here into
// test/.gen/strict-flags through the pipeline as an app runs it (linked call and batch modules, validator
// modules, index.ts):
// - under every resolution, the in-repo inputs: tool sets in each format (OpenAI Chat and Responses, Anthropic,
//   MCP with `outputSchema` result codecs, named groups, hostile names, shared definitions, a tool without
//   arguments), a Zod module (Zod 4 and Zod 3) and the inline JSON Schemas; the same inputs under
//   `optimize: "size"` and under `int64: "bigint"` with offset tables; and through the stage API without the
//   link step;
// - under nodenext, when ../shared/corpus is there: every corpus tool-definition file, its loadable Zod files
//   and its JSON Schemas (a resolution changes only how import specifiers resolve, and the in-repo inputs carry
//   every specifier shape the generator writes; the corpus adds code shapes, checked once).
// Errors are counted in generated files only: the runtime is type-checked here from its sources (the toon-dev
// condition), while an app sees its declaration files.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { generate, type GenerateConfig } from "../generator/pipeline.ts";
import { isToolDefinitionDocument, produceInput, readToolDefinitionGroups } from "../generator/inputs/index.ts";
import { corpusRoot, schemaInstancePairs } from "./corpus/index.ts";
import { generateCorpusModules } from "./support/corpus-gen.ts";
import { REPO, suiteDir } from "./support/gen.ts";
import { INLINE_SCHEMAS } from "./support/schemas.ts";
import { writeProduced } from "./support/tools-gen.ts";
import { ZOD_CORPUS_UNLOADABLE } from "./support/tools-corpus.ts";

const FLAGS = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  erasableSyntaxOnly: true,
};

const COMMITTED = ["examples/*/gen/**/*.ts", "docs/examples/gen/*.ts"];

/**
 * A corpus module above this size would be left out of the tsc run. None is today: the largest (SchemaStore's
 * package.json validator) is 4.3 MB, and the whole corpus, megabyte modules included, checks in about 53 s under
 * nodenext (compiled once, under nodenext only).
 */
const MAX_MODULE_BYTES = 5_000_000;

/** Time budget of generation and the tsc runs together (the target is well under it; a machine under load gets slack). */
const MAX_MS = 240_000;

// ------------------------------------------------------------------------------------------------ inputs

/** The `Header` definition both tools of UI_TOOLS hold (one shared definition of the tool set). */
const HEADER = {
  type: "object",
  properties: { kind: { const: "header" }, title: { type: "string" }, level: { type: "integer", minimum: 1, maximum: 6 } },
  required: ["kind", "title", "level"],
  additionalProperties: false,
};

/** A tool set whose definitions make shared functions (a `Header` definition: `writeHeader`/`readHeader`). */
const UI_TOOLS = [
  {
    type: "function",
    function: {
      name: "render_ui",
      description: "Render a component.",
      parameters: {
        type: "object",
        properties: {
          component: { anyOf: [{ $ref: "#/$defs/Header" }, { $ref: "#/$defs/Table" }, { $ref: "#/$defs/Card" }] },
          note: { type: ["string", "null"] },
        },
        required: ["component", "note"],
        additionalProperties: false,
        $defs: {
          Header: HEADER,
          Table: {
            type: "object",
            properties: {
              kind: { const: "table" },
              columns: { type: "array", items: { type: "string" } },
              rows: { type: "array", items: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] } } },
            },
            required: ["kind", "columns", "rows"],
            additionalProperties: false,
          },
          Card: {
            type: "object",
            properties: { kind: { const: "card" }, header: { $ref: "#/$defs/Header" }, children: { type: "array", items: { $ref: "#/$defs/Card" } } },
            required: ["kind", "header", "children"],
            additionalProperties: false,
          },
        },
      },
    },
  },
  {
    type: "function",
    function: {
      name: "set_header",
      description: "Change a header.",
      parameters: {
        type: "object",
        properties: { id: { type: "string" }, header: { $ref: "#/$defs/Header" } },
        required: ["id", "header"],
        additionalProperties: false,
        $defs: {
          Header: HEADER,
        },
      },
    },
  },
  { type: "function", function: { name: "clear", description: "Takes nothing." } },
];

/** OpenAI Responses tools: optional fields, maps, int64, enums, dates. */
const RESPONSES_TOOLS = [
  {
    type: "function",
    name: "schedule",
    description: "Schedule a meeting.",
    parameters: {
      type: "object",
      properties: {
        title: { type: "string" },
        start: { type: "string", format: "date-time" },
        minutes: { type: "integer", minimum: 5 },
        attendees: { type: "array", items: { type: "object", properties: { email: { type: "string", format: "email" }, optional: { type: "boolean" } }, required: ["email"] } },
        labels: { type: "object", additionalProperties: { type: "string" } },
        room: { type: "string", enum: ["north", "south", "east"] },
        budget: { type: "integer", format: "int64" },
      },
      required: ["title", "start"],
    },
  },
  { type: "function", name: "cancel", description: "Cancel one.", parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false }, strict: true },
];

/** Anthropic tools, one of them taking any JSON. */
const ANTHROPIC_TOOLS = [
  { name: "record", description: "Record a value.", input_schema: { type: "object", properties: { key: { type: "string" }, value: {} }, required: ["key", "value"] } },
  {
    name: "measure",
    description: "Take a measurement.",
    input_schema: { type: "object", properties: { points: { type: "array", items: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2 } }, unit: { enum: ["m", "ft"] } }, required: ["points"] },
  },
];

/** An MCP `tools/list` result: result codecs where a tool has an `outputSchema`. */
const MCP_TOOLS = {
  tools: [
    {
      name: "files.read",
      title: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" }, head: { type: "integer" } }, required: ["path"], additionalProperties: false },
      outputSchema: {
        type: "object",
        properties: { content: { type: "string" }, size: { type: "integer" }, encoding: { enum: ["utf8", "base64"] }, meta: { type: "object", additionalProperties: true } },
        required: ["content", "size"],
      },
    },
    {
      name: "files.list",
      inputSchema: { type: "object", properties: { dir: { type: "string" } }, required: ["dir"] },
      outputSchema: {
        type: "object",
        properties: { entries: { type: "array", items: { $ref: "#/$defs/Entry" } } },
        required: ["entries"],
        $defs: {
          Entry: {
            type: "object",
            properties: { name: { type: "string" }, kind: { enum: ["file", "dir"] }, children: { type: "array", items: { $ref: "#/$defs/Entry" } } },
            required: ["name", "kind"],
          },
        },
      },
    },
    { name: "files.stat", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  ],
};

/** Tool names that are not identifiers. */
const HOSTILE_TOOLS = ["__proto__", "constructor", "toString", "fs.read", "get-weather", "get_weather", "then", "a\"b'c\\d", "*/ x", "北京"].map((name) => ({
  type: "function",
  function: {
    name,
    description: `${name} */ tool`,
    parameters: {
      type: "object",
      properties: { "a.b": { type: "integer" }, "items[].price": { type: "number" }, "`${x}`": { type: "boolean" }, constructor: { type: "string" } },
      required: ["a.b"],
      additionalProperties: false,
    },
  },
}));

/** Zod 4 and Zod 3 schemas of many kinds. */
const ZOD_MODULE = `import { z } from "zod";
import * as z3 from "zod/v3";

const Address = z.object({ street: z.string(), city: z.string(), zip: z.string().regex(/^[0-9]{5}$/).optional() });

export const Customer = z.object({
  id: z.uuid(),
  name: z.string().min(1),
  email: z.email().nullable(),
  addresses: z.array(Address),
  tags: z.record(z.string(), z.number()),
  tier: z.enum(["free", "pro"]).default("free"),
  joined: z.iso.datetime(),
  score: z.number().int().optional(),
});

export const eventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("click"), x: z.number(), y: z.number() }),
  z.object({ type: z.literal("key"), key: z.string(), modifiers: z.array(z.enum(["shift", "ctrl", "alt"])).optional() }),
]);

interface Node {
  label: string;
  children: Node[];
}
export const TreeNode: z.ZodType<Node> = z.object({ label: z.string(), children: z.array(z.lazy(() => TreeNode)) });

export const Pair = z.tuple([z.string(), z.number()]);
export const MaybeText = z.union([z.string(), z.null()]);

export const legacyOrderSchema = z3.object({
  id: z3.string(),
  lines: z3.array(z3.object({ sku: z3.string(), qty: z3.number().int().positive() })).min(1),
  note: z3.string().optional(),
});
`;

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

function filesUnder(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, ext));
    else if (p.endsWith(ext)) out.push(p);
  }
  return out;
}

function safeStem(s: string): string {
  return s.replace(/\.json$/i, "").replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase() || "set";
}

/** The text with `// @ts-nocheck` added (after a shebang line, which must stay first), as test/zod.test.ts loads them. */
function noCheck(text: string): string {
  const shebang = text.startsWith("#!") ? text.slice(0, text.indexOf("\n") + 1) : "";
  return shebang + "// @ts-nocheck\n" + text.slice(shebang.length);
}

// ------------------------------------------------------------------------------------------------ generation

/**
 * The tool definitions of the OpenAI file, wrapped for Anthropic: the generated code is the same to the
 * character (the comments name the format), so it is compiled once.
 */
const SAME_AS_OPENAI = "tool-definitions/bfcl/bfcl_v4_sample.anthropic_tools.derived.json";

let root = "";
/** Compiled under every resolution: the in-repo inputs (every kind of module and import the generator writes). */
const inlineModules: string[] = [];
/** Compiled under moduleResolution nodenext: the corpus modules (a resolution changes how imports resolve only). */
const corpusModules: string[] = [];
const counts = { toolSets: 0, zod: 0, schemas: 0, generateMs: 0 };
/** Seconds each part of the generation took, for the log. */
const phases: string[] = [];
let phaseStart = 0;
function phase(label: string): void {
  const now = performance.now();
  phases.push(`${label} ${((now - phaseStart) / 1000).toFixed(1)} s`);
  phaseStart = now;
}
const leftOut: string[] = [];
let corpus: string | undefined;

/** Relative imports of a generated module (`./x.js` and `../x.js`), as absolute `.ts` paths. */
function localImports(file: string): string[] {
  const out: string[] = [];
  for (const m of readFileSync(file, "utf8").matchAll(/^(?:import|export)\b[^;]*? from "(\.\.?\/[^"]+)\.js";$/gm)) out.push(path.resolve(path.dirname(file), m[1]! + ".ts"));
  return out;
}

/**
 * The modules of `modules` that tsc can check without reading one above MAX_MODULE_BYTES (tsc checks what a
 * module imports too): those neither large nor importing, at any depth, a large one.
 */
function admitted(modules: string[]): string[] {
  const large = new Set(modules.filter((f) => statSync(f).size > MAX_MODULE_BYTES));
  if (large.size === 0) return modules;
  const verdict = new Map<string, boolean>();
  const ok = (f: string, seen: Set<string>): boolean => {
    if (verdict.has(f)) return verdict.get(f)!;
    if (large.has(f)) return false;
    if (seen.has(f)) return true;
    seen.add(f);
    const v = localImports(f).every((g) => ok(g, seen));
    verdict.set(f, v);
    return v;
  };
  const keep = modules.filter((f) => ok(f, new Set()));
  leftOut.push(`${path.relative(root, path.dirname(modules[0]!))}: ${modules.length - keep.length} of ${modules.length} (largest ${(Math.max(...[...large].map((f) => statSync(f).size)) / 1e6).toFixed(1)} MB)`);
  return keep;
}

/** Run the pipeline over `inputs` (relative to `cwd`) into `<out>/gen`; returns the TypeScript modules written. */
async function pipeline(cwd: string, inputs: string[], out: string, extra: Partial<GenerateConfig> = {}): Promise<string[]> {
  const config: GenerateConfig = { inputs, outDir: path.relative(cwd, path.join(out, "gen")), dictionaryDir: path.relative(cwd, path.join(out, "dictionaries")), ...extra };
  const r = await generate(config, { cwd });
  return r.files.map((f) => f.path).filter((f) => f.endsWith(".ts"));
}

async function generateInline(): Promise<void> {
  const src = path.join(root, "inline-src");
  writeJson(path.join(src, "ui-tools.json"), UI_TOOLS);
  writeJson(path.join(src, "responses-tools.json"), RESPONSES_TOOLS);
  writeJson(path.join(src, "anthropic-tools.json"), ANTHROPIC_TOOLS);
  writeJson(path.join(src, "mcp-tools.json"), { jsonrpc: "2.0", id: 1, result: MCP_TOOLS });
  writeJson(path.join(src, "hostile-tools.json"), HOSTILE_TOOLS);
  writeJson(path.join(src, "grouped-tools.json"), { ui: UI_TOOLS.slice(1), files: MCP_TOOLS.tools.slice(2) });
  writeFileSync(path.join(src, "shapes.ts"), ZOD_MODULE);
  // `wide` (2 MB of code) is left to the property test's round trips
  const { wide: _wide, ...schemas } = INLINE_SCHEMAS;
  for (const [base, schema] of Object.entries(schemas)) writeJson(path.join(src, "schemas", `${base}.schema.json`), schema);
  const inputs = ["*-tools.json", "shapes.ts", "schemas/*.schema.json"];
  inlineModules.push(...(await pipeline(src, inputs, path.join(root, "inline"))));
  // the same inputs under other options: codecs run by the engine; bigint int64, field offset tables, no formats
  inlineModules.push(...(await pipeline(src, inputs, path.join(root, "inline-size"), { optimize: "size" })));
  inlineModules.push(...(await pipeline(src, inputs, path.join(root, "inline-bigint"), { int64: "bigint", index: true, formats: false })));
  // through the stage API (produceInput, then the dictionary and emit stages) with no link step: the call and
  // batch modules keep their own copies of the argument codecs
  for (const f of ["ui-tools.json", "mcp-tools.json", "shapes.ts"]) {
    const produced = await produceInput(path.join(src, f), { cwd: src });
    assert.ok(produced !== null, f);
    inlineModules.push(...(await writeProduced(produced, path.join(root, "inline-staged"))).filter((m) => m.endsWith(".ts")));
  }
}

async function generateCorpus(dir: string): Promise<void> {
  // tool-definition files: one project each; a file whose groups reuse a tool name, one project per group
  const toolRoot = path.join(dir, "tool-definitions");
  for (const abs of filesUnder(toolRoot, ".json")) {
    const rel = path.relative(dir, abs).split(path.sep).join("/");
    if (rel.includes("-sources/") || rel === SAME_AS_OPENAI) continue;
    const doc: unknown = JSON.parse(readFileSync(abs, "utf8"));
    if (!isToolDefinitionDocument(doc)) continue; // BFCL question/answer files
    const out = path.join(root, "corpus-tools", safeStem(path.relative(toolRoot, abs)));
    try {
      corpusModules.push(...admitted(await pipeline(dir, [rel], out)));
      counts.toolSets++;
    } catch (e) {
      assert.match((e as Error).message, /two different tools are named/, rel);
      const groupsDir = path.join(out, "groups");
      for (const { group } of readToolDefinitionGroups(doc, rel)) {
        const value = (doc as Record<string, unknown>)[group];
        writeJson(path.join(groupsDir, `${safeStem(group)}.json`), Array.isArray(value) ? value : [value]);
      }
      for (const f of readdirSync(groupsDir).sort()) {
        corpusModules.push(...admitted(await pipeline(groupsDir, [f], path.join(out, f.replace(/\.json$/, "")))));
        counts.toolSets++;
      }
    }
  }

  phase("corpus tools");
  // Zod files: copies inside the repo, so `zod` resolves (as test/zod.test.ts loads them)
  const zodSrc = path.join(root, "corpus-zod-src");
  for (const abs of [...filesUnder(path.join(dir, "zod"), ".ts"), ...filesUnder(path.join(dir, "tool-definitions", "zod-sources"), ".ts")]) {
    const rel = path.relative(dir, abs).split(path.sep).join("/");
    const known = ZOD_CORPUS_UNLOADABLE[rel];
    if (known !== undefined && known.adapted === undefined) continue;
    let text = readFileSync(abs, "utf8");
    for (const [from, to] of known?.adapted ?? []) text = text.split(from).join(to);
    const copy = path.join(zodSrc, rel);
    mkdirSync(path.dirname(copy), { recursive: true });
    writeFileSync(copy, noCheck(text));
    corpusModules.push(...admitted(await pipeline(zodSrc, [path.relative(zodSrc, copy)], path.join(root, "corpus-zod", rel.replace(/\.ts$/, "").replace(/[^A-Za-z0-9/_-]+/g, "-")))));
    counts.zod++;
  }

  phase("corpus Zod");
  // JSON Schemas: a whole file through the pipeline (with its validator module); one definition of a file (the
  // MCP spec's $defs) through the stages, as typecheck.test.ts generates it
  const cases = schemaInstancePairs().filter((c) => !c.schemaFile.includes(`${path.sep}tool-definitions${path.sep}`));
  const viaStages = cases.filter((c) => c.pointer !== undefined);
  for (const file of new Set(cases.filter((c) => c.pointer === undefined).map((c) => c.schemaFile))) {
    const rel = path.relative(dir, file).split(path.sep).join("/");
    // the webhook schemas' `$id`s are no URLs ("check_run$completed"): their `common/...` references are mapped
    const webhooks = /^(.*\/api\.github\.com\/)/.exec(rel)?.[1];
    const extra: Partial<GenerateConfig> = { unsafePatterns: "allow", ...(webhooks === undefined ? {} : { refMap: { "common/": `${webhooks}common/` } }) };
    try {
      corpusModules.push(...admitted(await pipeline(dir, [rel], path.join(root, "corpus-schemas", rel.replace(/(\.schema)?\.json$/, "").replace(/[^A-Za-z0-9/_-]+/g, "-")), extra)));
    } catch (e) {
      // the codec module alone, then
      console.log(`# the pipeline does not generate ${rel}: ${(e as Error).message.slice(0, 300)}`);
      viaStages.push(...cases.filter((c) => c.schemaFile === file));
    }
    counts.schemas++;
  }
  const partsDir = path.join(root, "corpus-schema-parts");
  mkdirSync(partsDir, { recursive: true });
  for (const m of await generateCorpusModules(viaStages, partsDir)) {
    assert.ok(m.emitted !== undefined, `${m.case.id}: ${m.error?.message}`);
    if (statSync(m.emitted.file).size > MAX_MODULE_BYTES) leftOut.push(path.relative(root, m.emitted.file));
    else corpusModules.push(m.emitted.file);
    if (m.case.pointer !== undefined) counts.schemas++;
  }
  phase("corpus schemas");
}

// ------------------------------------------------------------------------------------------------ tsc

const RESOLUTIONS = [
  ["nodenext", "nodenext"],
  ["node16", "node16"],
  ["bundler", "esnext"],
] as const;
type Resolution = (typeof RESOLUTIONS)[number][0];

interface TscRun {
  /** Generated files tsc read (absolute paths). */
  checked: string[];
  /** Error lines in generated files. */
  errors: string[];
  ms: number;
  status: number | null;
}

function isGenerated(file: string): boolean {
  const r = path.relative(REPO, path.resolve(REPO, file)).split(path.sep).join("/");
  return /^(examples\/[^/]+|docs\/examples)\/gen\//.test(r) || r.startsWith("test/.gen/strict-flags/");
}

/** One tsc run under the strict flags, started now (tsc is single-threaded: it runs beside generation and the others). */
function tsc(resolution: Resolution, module: string, files: string[]): Promise<TscRun> {
  const dir = path.join(root, `tsc-${resolution}`);
  mkdirSync(dir, { recursive: true });
  const rel = (p: string): string => path.relative(dir, path.isAbsolute(p) ? p : path.join(REPO, p)).split(path.sep).join("/");
  const config = {
    compilerOptions: {
      ...FLAGS,
      target: "ES2022",
      module,
      moduleResolution: resolution,
      customConditions: ["toon-dev"],
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      incremental: false,
      types: ["node"],
      typeRoots: [rel("node_modules/@types")],
      lib: ["ES2023", "DOM"],
    },
    include: [...COMMITTED, ...files].map(rel),
  };
  const tsconfig = path.join(dir, "tsconfig.json");
  writeFileSync(tsconfig, JSON.stringify(config, null, 2));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig, "--pretty", "false", "--listFiles"], { cwd: REPO });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.on("error", reject);
    child.on("close", (status) => {
      const lines = out.split("\n");
      resolve({
        checked: lines.filter((l) => l.startsWith("/") && l.endsWith(".ts") && isGenerated(l)),
        errors: lines.filter((l) => /error TS\d+/.test(l) && isGenerated(l.split("(")[0]!)),
        ms: performance.now() - started,
        status,
      });
    });
  });
}

const runs = new Map<Resolution, Promise<TscRun>>();
let started = 0;

before(async () => {
  root = suiteDir("strict-flags");
  started = phaseStart = performance.now();
  await generateInline();
  phase("inline");
  // node16 and bundler check the in-repo modules only: one after the other, while the corpus generates
  const node16 = tsc("node16", "node16", inlineModules);
  runs.set("node16", node16);
  runs.set("bundler", node16.then(() => tsc("bundler", "esnext", inlineModules)));
  corpus = corpusRoot();
  if (corpus === undefined) console.log("# ../shared/corpus not found: compiling the examples and the inline inputs only");
  else await generateCorpus(corpus);
  counts.generateMs = performance.now() - started;
  console.log(
    `# generated ${inlineModules.length} inline modules` +
      (corpus === undefined ? "" : `, ${corpusModules.length} corpus modules (${counts.toolSets} tool sets, ${counts.zod} Zod files, ${counts.schemas} schemas)`) +
      ` in ${(counts.generateMs / 1000).toFixed(1)} s (${phases.join(", ")})`,
  );
  if (leftOut.length > 0) console.log(`# left out for size: ${leftOut.join("; ")}`);
  runs.set("nodenext", tsc("nodenext", "nodenext", [...inlineModules, ...corpusModules]));
});

for (const [resolution] of RESOLUTIONS) {
  test(`generated modules compile under the strict flags, moduleResolution ${resolution}`, async () => {
    const run = await runs.get(resolution)!;
    const expected = resolution === "nodenext" ? [...inlineModules, ...corpusModules] : inlineModules;
    console.log(`# ${run.checked.length} generated files under the strict flags (${resolution}): ${run.errors.length} errors, tsc ${(run.ms / 1000).toFixed(1)} s`);
    assert.ok(run.checked.some((f) => f.endsWith("examples/orders/gen/order-list.ts")), "tsc checked the committed examples");
    const checked = new Set(run.checked);
    assert.deepEqual(expected.filter((f) => !checked.has(f)).map((f) => path.relative(REPO, f)), [], "modules tsc did not check");
    assert.deepEqual(run.errors.slice(0, 30), [], `${run.errors.length} errors`);
    assert.ok(run.status === 0 || run.status === 2, `tsc exited with ${run.status}`);
  });
}

test("generation and the tsc runs stay within their time budget", async () => {
  await Promise.all(runs.values());
  const ms = performance.now() - started;
  console.log(`# generation ${(counts.generateMs / 1000).toFixed(1)} s (node16 and bundler running meanwhile), then nodenext: ${((ms - counts.generateMs) / 1000).toFixed(1)} s; ${(ms / 1000).toFixed(1)} s in all`);
  assert.ok(ms < MAX_MS, `${(ms / 1000).toFixed(0)} s`);
});
