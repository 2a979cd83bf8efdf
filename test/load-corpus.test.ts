/**
 * Every real-world schema in the shared corpus loads to a well-formed IR (stages 1-2), except the ones listed in
 * UNSUPPORTED_CORPUS_SCHEMAS. Skipped, with a notice, when ../shared (next to the repo) is absent.
 */
import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { ToonError } from "../runtime/wire/errors.ts";
import type { SchemaIR, Shape } from "../generator/ir/types.ts";
import { loadSchemaFile, schemaToIR } from "../generator/load/index.ts";

/**
 * Corpus files (relative to the corpus root) that are expected NOT to load, with the reason. The test checks
 * that each still fails, so the list cannot go stale.
 */
export const UNSUPPORTED_CORPUS_SCHEMAS: ReadonlyMap<string, string> = new Map([
  [
    "tool-definitions/bfcl/bfcl_v4_sample.questions.jsonl",
    "BFCL's own function-description dialect (`type: \"dict\"`, `\"float\"`, `\"tuple\"`, ...), not JSON Schema; " +
      "bfcl_v4_sample.{openai,anthropic}_tools.derived.json are the same tools in JSON Schema and do load",
  ],
]);

const repoRoot = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
const corpus = path.resolve(repoRoot, "../shared/corpus");
const present = existsSync(corpus);
if (!present) console.log(`load-corpus: ${corpus} not found, corpus tests skipped`);

function walk(dir: string, keep: (file: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, keep, out);
    else if (keep(p)) out.push(p);
  }
  return out;
}

const rel = (abs: string): string => path.relative(corpus, abs).split(path.sep).join("/");
const isJson = (f: string): boolean => f.endsWith(".json");

/** Structural checks on an IR: refs resolve, names are unique identifiers, every shape has a schemaPath. */
function checkIR(ir: SchemaIR): void {
  const ident = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  assert.match(ir.name, ident);
  const names = new Set<string>();
  for (const d of ir.definitions) {
    assert.match(d.name, ident);
    assert.ok(!names.has(d.name), `duplicate definition ${d.name}`);
    names.add(d.name);
  }
  const seen = new Set<Shape>();
  const stack: Shape[] = [ir.root, ...ir.definitions.map((d) => d.shape)];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    assert.equal(typeof s.schemaPath, "string");
    switch (s.kind) {
      case "ref":
        assert.ok(names.has(s.name), `ref to unknown definition ${s.name} at ${s.schemaPath}`);
        break;
      case "object":
        for (const p of s.properties) stack.push(p.shape);
        if (s.additional !== false) stack.push(s.additional);
        break;
      case "array":
        stack.push(s.items);
        break;
      case "tuple":
        stack.push(...s.items);
        if (s.rest !== false) stack.push(s.rest);
        assert.ok(s.minItems <= s.items.length);
        break;
      case "union":
        assert.ok(s.branches.length >= 2, `union of ${s.branches.length} at ${s.schemaPath}`);
        stack.push(...s.branches);
        if (s.discriminator !== undefined) assert.equal(s.discriminator.values.length, s.branches.length);
        break;
      case "enum":
        assert.ok(s.values.length >= 2);
        break;
      default:
        break;
    }
  }
}

/** Schemas inside tool-definition files: `inputSchema` / `input_schema` / `outputSchema` / function `parameters`. */
function toolSchemas(file: string): { at: string; schema: unknown }[] {
  const text = readFileSync(file, "utf8");
  const docs: unknown[] = file.endsWith(".jsonl") ? text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as unknown) : [JSON.parse(text)];
  const out: { at: string; schema: unknown }[] = [];
  const visit = (v: unknown, at: string): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, `${at}/${i}`));
      return;
    }
    if (typeof v !== "object" || v === null) return;
    for (const [k, x] of Object.entries(v)) {
      const isSchemaKey = k === "inputSchema" || k === "input_schema" || k === "outputSchema" || k === "parameters";
      if (isSchemaKey && typeof x === "object" && x !== null && !Array.isArray(x)) out.push({ at: `${at}/${k}`, schema: x });
      else visit(x, `${at}/${k}`);
    }
  };
  docs.forEach((d, i) => visit(d, file.endsWith(".jsonl") ? `/${i}` : ""));
  return out;
}

function expectUnsupported(file: string, load: () => Promise<unknown> | unknown): Promise<void> {
  return (async () => {
    try {
      await load();
    } catch (e) {
      assert.ok(e instanceof ToonError, String(e));
      return;
    }
    assert.fail(`${file} now loads: remove it from UNSUPPORTED_CORPUS_SCHEMAS`);
  })();
}

describe("corpus: JSON Schema files", { skip: !present && "shared corpus absent" }, () => {
  if (!present) return;
  if (UNSUPPORTED_CORPUS_SCHEMAS.size > 0) {
    console.log("UNSUPPORTED_CORPUS_SCHEMAS:");
    for (const [f, why] of UNSUPPORTED_CORPUS_SCHEMAS) console.log(`  ${f}: ${why}`);
  }
  const files = [
    ...walk(path.join(corpus, "json-schemas/schemas"), isJson),
    // `examples/` under extra/ are instance documents (they validate against `#/$defs/<Name>`), not schemas
    ...walk(path.join(corpus, "json-schemas/extra"), (f) => isJson(f) && !f.split(path.sep).includes("examples")),
    ...walk(path.join(corpus, "datasets"), (f) => f.endsWith(".schema.json")),
  ];

  test("the corpus has schemas", () => assert.ok(files.length > 50, `only ${files.length} schema files found`));

  // third-party schemas: a few patterns backtrack (github-workflow): loaded as a user who opts in would load them
  // (generator/load/patterns.ts; the generation error itself is tested in fuzz-regressions.test.ts)
  for (const file of files) {
    const name = rel(file);
    test(name, async () => {
      if (UNSUPPORTED_CORPUS_SCHEMAS.has(name)) return expectUnsupported(name, () => loadSchemaFile(file, { cwd: corpus, unsafePatterns: "allow" }));
      const ir = await loadSchemaFile(file, { cwd: corpus, unsafePatterns: "allow" });
      checkIR(ir);
      const doc = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      // a definitions-only document (the MCP spec schema): compile each definition as its own root
      for (const key of ["$defs", "definitions"] as const) {
        const defs = doc[key];
        if (ir.root.kind !== "any" || typeof defs !== "object" || defs === null) continue;
        for (const def of Object.keys(defs)) checkIR(await loadSchemaFile(file, { cwd: corpus, pointer: `/${key}/${def}`, unsafePatterns: "allow" }));
      }
    });
  }
});

describe("corpus: tool-definition schemas", { skip: !present && "shared corpus absent" }, () => {
  if (!present) return;
  const files = [
    ...walk(path.join(corpus, "tool-definitions"), (f) => f.endsWith(".json") || f.endsWith(".jsonl")),
    ...walk(path.join(corpus, "json-schemas/extra"), (f) => isJson(f) && f.split(path.sep).includes("Tool")),
  ];
  for (const file of files) {
    const name = rel(file);
    const schemas = toolSchemas(file);
    if (schemas.length === 0) continue;
    test(`${name} (${schemas.length} schemas)`, async () => {
      const compile = (s: { at: string; schema: unknown }): SchemaIR => schemaToIR(s.schema, { source: `${name}#${s.at}`, baseDir: path.dirname(file), unsafePatterns: "allow" });
      if (UNSUPPORTED_CORPUS_SCHEMAS.has(name)) {
        // at least one of them still fails
        return expectUnsupported(name, () => schemas.forEach(compile));
      }
      for (const s of schemas) {
        try {
          checkIR(compile(s));
        } catch (e) {
          throw new Error(`${name}#${s.at}: ${(e as Error).message}`, { cause: e });
        }
      }
    });
  }
});
