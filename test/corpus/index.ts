// Index of the real-world test corpus in /work/shared/corpus (see its PROVENANCE.md).
//
// Nothing from the corpus is copied into this repo: this module only enumerates files
// there and pairs schemas with instances. Every instance returned by
// `schemaInstancePairs()` has been checked with ajv against its schema (draft-07 `Ajv`
// or `Ajv2020`, chosen by the schema's `$schema`); instances that fail are left out and
// reported by `corpusReport()`.

import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { AnySchemaObject, ValidateFunction } from "ajv";
import addFormatsNs from "ajv-formats";

const addFormats: (ajv: unknown) => void = (addFormatsNs as any).default ?? addFormatsNs;

export type CorpusFamily =
  | "schemastore"
  | "mcp-spec"
  | "github-webhooks"
  | "octokit-issues"
  | "geojson"
  | "shadcn"
  | "bfcl"
  | "anthropic-cookbook";

export const CORPUS_FAMILIES: readonly CorpusFamily[] = [
  "schemastore",
  "mcp-spec",
  "github-webhooks",
  "octokit-issues",
  "geojson",
  "shadcn",
  "bfcl",
  "anthropic-cookbook",
];

export type CorpusInstance = {
  /** Absolute path of the file holding the instance. */
  file: string;
  value: unknown;
  /** Where inside `file` the instance sits when it is not the whole file
   *  (a JSON pointer like "/3" into an array, or "line 7" of a JSONL file). */
  at?: string;
};

export type CorpusCase = {
  /** Stable, human-readable id, e.g. "schemastore/tsconfig", "mcp-spec/CallToolResult". */
  id: string;
  family: CorpusFamily;
  /** Absolute path of the schema file. */
  schemaFile: string;
  /** JSON pointer (URI-fragment form, "#/..." with ~0/~1 escaping, no percent-encoding)
   *  into `schemaFile` for the instance's schema; absent = the whole file. */
  pointer?: string;
  /** Instances that validate (never empty). */
  instances: CorpusInstance[];
};

export type CorpusRejection = { id: string; family: CorpusFamily; file: string; at?: string; error: string };

export type CorpusReport = {
  cases: CorpusCase[];
  rejected: CorpusRejection[];
  perFamily: Record<CorpusFamily, { cases: number; validated: number; rejected: number }>;
};

// ---------------------------------------------------------------------------------------
// locating the corpus

/** `<repo>/../shared/corpus`, i.e. /work/shared/corpus; undefined when it is absent. */
export function corpusRoot(): string | undefined {
  const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
  const dir = join(repoRoot, "..", "shared", "corpus");
  return existsSync(join(dir, "PROVENANCE.md")) || existsSync(join(dir, "json-schemas")) ? dir : undefined;
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

function listFiles(dir: string, filter: (name: string) => boolean = () => true): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isFile() && filter(n))
    .sort()
    .map((n) => join(dir, n));
}

function listDirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isDirectory())
    .sort();
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// JSON pointers

function escapeToken(t: string): string {
  return t.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Builds "#/a/b" from raw keys. */
export function makePointer(...keys: (string | number)[]): string {
  return "#" + keys.map((k) => "/" + escapeToken(String(k))).join("");
}

/** Resolves a "#/a/b" (or "/a/b") pointer against a parsed document. */
export function resolvePointer(doc: unknown, pointer: string | undefined): unknown {
  if (!pointer || pointer === "#") return doc;
  const p = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  let cur: any = doc;
  for (const raw of p.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (cur === null || typeof cur !== "object" || !(key in cur)) {
      throw new Error(`pointer ${pointer}: no "${key}"`);
    }
    cur = cur[key];
  }
  return cur;
}

// ---------------------------------------------------------------------------------------
// ajv

type AnyAjv = Ajv | Ajv2020;

function newAjv(dialect: "07" | "2020"): AnyAjv {
  const opts = { strict: false, allErrors: false, logger: false as const, allowUnionTypes: true, validateSchema: false };
  const ajv = dialect === "2020" ? new Ajv2020(opts) : new Ajv(opts);
  addFormats(ajv);
  return ajv;
}

function dialectOf(schema: AnySchemaObject): "07" | "2020" {
  const s = typeof schema.$schema === "string" ? schema.$schema : "";
  return /2020-12|2019-09/.test(s) ? "2020" : "07";
}

/** The SchemaStore files that still declare draft-04 (tsconfig, web-manifest) are run
 *  through the draft-07 validator after a faithful rewrite: top-level `id` → `$id`,
 *  boolean exclusiveMinimum/Maximum → numbers, and the draft-06+ keywords that draft-04
 *  ignores (`const`, `contains`, `propertyNames`, `if`/`then`/`else`) dropped. */
function fromDraft04(schema: AnySchemaObject): AnySchemaObject {
  if (typeof schema.$schema !== "string" || !schema.$schema.includes("draft-04")) return schema;
  const later = new Set(["const", "contains", "propertyNames", "if", "then", "else"]);
  const maps = new Set(["properties", "patternProperties", "definitions", "dependencies"]);
  const lists = new Set(["allOf", "anyOf", "oneOf"]);
  const singles = new Set(["items", "additionalItems", "additionalProperties", "not"]);
  const fix = (node: any): any => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
    const out: any = {};
    for (const [k, v] of Object.entries(node)) {
      if (later.has(k)) continue;
      if (maps.has(k) && v && typeof v === "object" && !Array.isArray(v)) {
        out[k] = Object.fromEntries(Object.entries(v).map(([n, sub]) => [n, fix(sub)]));
      } else if (lists.has(k) && Array.isArray(v)) out[k] = v.map(fix);
      else if (singles.has(k)) out[k] = Array.isArray(v) ? v.map(fix) : fix(v);
      else out[k] = v;
    }
    for (const [bound, lim] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
      if (typeof out[bound] === "boolean") {
        if (out[bound] && typeof out[lim] === "number") {
          out[bound] = out[lim];
          delete out[lim];
        } else delete out[bound];
      }
    }
    return out;
  };
  const out = fix(schema);
  if (typeof out.id === "string" && out.$id === undefined) {
    out.$id = out.id;
    delete out.id;
  }
  out.$schema = "http://json-schema.org/draft-07/schema#";
  return out;
}

function errorText(v: ValidateFunction): string {
  const e = v.errors?.[0];
  if (!e) return "invalid";
  return `${e.instancePath || "/"} ${e.message ?? e.keyword}${e.params ? " " + JSON.stringify(e.params) : ""}`;
}

// ---------------------------------------------------------------------------------------
// candidate enumeration (before validation)

type Candidate = {
  id: string;
  family: CorpusFamily;
  schemaFile: string;
  pointer?: string;
  instances: CorpusInstance[];
  /** Returns a validator for this case's schema. */
  validator: () => ValidateFunction;
};

function memo<T>(f: () => T): () => T {
  let done = false;
  let v: T;
  return () => {
    if (!done) {
      v = f();
      done = true;
    }
    return v;
  };
}

function fileInstance(file: string): CorpusInstance {
  return { file, value: readJson(file) };
}

function schemastoreCandidates(root: string): Candidate[] {
  const schemasDir = join(root, "json-schemas", "schemas");
  const instancesDir = join(root, "json-schemas", "instances");
  const schemaFiles = listFiles(schemasDir, (n) => n.endsWith(".json"));
  // One ajv holds every SchemaStore schema so cross-file refs ("ava.json",
  // "https://www.schemastore.org/prettierrc.json", ...) resolve.
  const ajv = memo(() => {
    const a = newAjv("07");
    for (const f of schemaFiles) {
      const s = fromDraft04(readJson(f) as AnySchemaObject);
      const key = basename(f);
      if (typeof s.$id !== "string") s.$id = `https://json.schemastore.org/${key}`;
      a.addSchema(s, key);
    }
    return a;
  });
  const out: Candidate[] = [];
  for (const name of listDirs(instancesDir)) {
    const schemaFile = join(schemasDir, `${name}.json`);
    if (!existsSync(schemaFile)) continue;
    out.push({
      id: `schemastore/${name}`,
      family: "schemastore",
      schemaFile,
      instances: listFiles(join(instancesDir, name), (n) => n.endsWith(".json")).map(fileInstance),
      validator: memo(() => ajv().getSchema(`${name}.json`)!),
    });
  }
  return out;
}

function mcpCandidates(root: string): Candidate[] {
  const out: Candidate[] = [];
  const extra = join(root, "json-schemas", "extra");
  for (const specDir of listDirs(extra)) {
    const schemaFile = join(extra, specDir, "schema.json");
    const examplesDir = join(extra, specDir, "examples");
    if (!existsSync(schemaFile)) continue;
    const ajv = memo(() => {
      const s = readJson(schemaFile) as AnySchemaObject;
      const a = newAjv(dialectOf(s));
      a.addSchema(s, "mcp");
      return a;
    });
    const defs = memo(() => ((readJson(schemaFile) as any).$defs ?? {}) as Record<string, unknown>);
    for (const name of listDirs(examplesDir)) {
      if (!(name in defs())) continue;
      out.push({
        id: `mcp-spec/${name}`,
        family: "mcp-spec",
        schemaFile,
        pointer: makePointer("$defs", name),
        instances: listFiles(join(examplesDir, name), (n) => n.endsWith(".json")).map(fileInstance),
        validator: memo(() => ajv().compile({ $ref: `mcp#/$defs/${encodeURIComponent(name)}` })),
      });
    }
  }
  return out;
}

function webhookAjv(root: string): () => AnyAjv {
  return memo(() => {
    const dir = join(root, "datasets", "github-webhooks", "payload-schemas", "api.github.com");
    const a = newAjv("07");
    for (const f of walk(dir).filter((p) => p.endsWith(".schema.json"))) {
      const s = readJson(f) as AnySchemaObject;
      a.addSchema(s, relative(dir, f).split(sep).join("/"));
    }
    return a;
  });
}

function webhookCandidates(root: string, ajv: () => AnyAjv): Candidate[] {
  const schemasDir = join(root, "datasets", "github-webhooks", "payload-schemas", "api.github.com");
  const examplesDir = join(root, "datasets", "github-webhooks", "payload-examples", "api.github.com");
  const out: Candidate[] = [];
  for (const event of listDirs(examplesDir)) {
    const schemas = listFiles(join(schemasDir, event), (n) => n.endsWith(".schema.json"));
    if (schemas.length === 0) continue;
    const byAction = new Map<string, CorpusInstance[]>();
    for (const ex of listFiles(join(examplesDir, event), (n) => n.endsWith(".json"))) {
      // "<action>.payload.json", "<action>.with-x.payload.json", "<action>.1.payload.json";
      // events with a single schema (push: event.schema.json) take every example.
      const action = basename(ex).split(".")[0]!;
      let schema = schemas.find((s) => basename(s) === `${action}.schema.json`);
      if (!schema && schemas.length === 1) schema = schemas[0];
      if (!schema) continue;
      const key = basename(schema);
      if (!byAction.has(key)) byAction.set(key, []);
      byAction.get(key)!.push(fileInstance(ex));
    }
    for (const [key, instances] of byAction) {
      const schemaFile = join(schemasDir, event, key);
      const ref = `${event}/${key}`;
      out.push({
        id: `github-webhooks/${event}/${key.replace(/\.schema\.json$/, "")}`,
        family: "github-webhooks",
        schemaFile,
        instances,
        validator: memo(() => {
          const s = readJson(schemaFile) as AnySchemaObject;
          return ajv().getSchema(typeof s.$id === "string" ? s.$id : ref)!;
        }),
      });
    }
  }
  return out;
}

function octokitCandidates(root: string, ajv: () => AnyAjv): Candidate[] {
  // PROVENANCE: paginate-issues.issues.derived.json concatenates the 5 paginated response
  // bodies (13 issue objects); each validates against common/issue.schema.json.
  const file = join(root, "datasets", "octokit-fixtures", "paginate-issues.issues.derived.json");
  const schemaFile = join(root, "datasets", "github-webhooks", "payload-schemas", "api.github.com", "common", "issue.schema.json");
  if (!existsSync(file) || !existsSync(schemaFile)) return [];
  const arr = readJson(file);
  if (!Array.isArray(arr)) return [];
  return [
    {
      id: "octokit-issues/paginate-issues",
      family: "octokit-issues",
      schemaFile,
      instances: arr.map((value, i) => ({ file, value, at: `/${i}` })),
      validator: memo(() => ajv().getSchema("common/issue.schema.json")!),
    },
  ];
}

function singleSchemaCandidate(
  id: string,
  family: CorpusFamily,
  schemaFile: string,
  instanceFiles: string[],
): Candidate | undefined {
  const files = instanceFiles.filter((f) => existsSync(f));
  if (!existsSync(schemaFile) || files.length === 0) return undefined;
  return {
    id,
    family,
    schemaFile,
    instances: files.map(fileInstance),
    validator: memo(() => {
      const s = readJson(schemaFile) as AnySchemaObject;
      return newAjv(dialectOf(s)).compile(s);
    }),
  };
}

function geojsonCandidates(root: string): Candidate[] {
  const dir = join(root, "datasets", "vega-datasets");
  const c = singleSchemaCandidate(
    "geojson/earthquakes",
    "geojson",
    join(dir, "earthquakes.geojson-FeatureCollection.schema.derived.json"),
    [join(dir, "earthquakes.json")],
  );
  return c ? [c] : [];
}

function shadcnCandidates(root: string): Candidate[] {
  const s = join(root, "zod", "shadcn-ui", "json-schema");
  const i = join(root, "zod", "shadcn-ui", "instances");
  const out: Candidate[] = [];
  const config = singleSchemaCandidate("shadcn/components-json", "shadcn", join(s, "schema.json"), [
    join(i, "config-full.components.json"),
  ]);
  if (config) out.push(config);
  const item = singleSchemaCandidate("shadcn/registry-item", "shadcn", join(s, "registry-item.json"), [
    join(i, "styles-default.accordion.json"),
  ]);
  if (item) {
    // r/index.json is an array of (abridged) registry items; each element is tried too.
    const idx = join(i, "r.index.json");
    if (existsSync(idx)) {
      const arr = readJson(idx);
      if (Array.isArray(arr)) item.instances.push(...arr.map((value, k) => ({ file: idx, value, at: `/${k}` })));
    }
    out.push(item);
  }
  return out;
}

function jsonl(file: string): { line: number; value: any }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map((text, k) => ({ line: k + 1, text }))
    .filter((l) => l.text.trim() !== "")
    .map((l) => ({ line: l.line, value: JSON.parse(l.text) }));
}

function toolSchemaCandidate(
  id: string,
  family: CorpusFamily,
  schemaFile: string,
  pointer: string,
  schema: AnySchemaObject,
  instances: CorpusInstance[],
): Candidate {
  return {
    id,
    family,
    schemaFile,
    pointer,
    instances,
    validator: memo(() => newAjv(dialectOf(schema)).compile(schema)),
  };
}

function bfclCandidates(root: string): Candidate[] {
  // Derived OpenAI tool schemas (keyed by BFCL id) vs the derived call arguments.
  const dir = join(root, "tool-definitions", "bfcl");
  const schemaFile = join(dir, "bfcl_v4_sample.openai_tools.derived.json");
  const argsFile = join(dir, "bfcl_v4_sample.call_arguments.derived.jsonl");
  if (!existsSync(schemaFile) || !existsSync(argsFile)) return [];
  const tools = readJson(schemaFile) as Record<string, { function: { name: string; parameters: AnySchemaObject } }[]>;
  const out = new Map<string, Candidate>();
  for (const { line, value } of jsonl(argsFile)) {
    const list = tools[value.id] ?? [];
    (value.calls as { openai_name: string; arguments: unknown }[]).forEach((call, k) => {
      const idx = list.findIndex((t) => t.function.name === call.openai_name);
      if (idx < 0) return;
      const key = `bfcl/${value.id}/${call.openai_name}`;
      let c = out.get(key);
      if (!c) {
        c = toolSchemaCandidate(key, "bfcl", schemaFile, makePointer(value.id, idx, "function", "parameters"), list[idx]!.function.parameters, []);
        out.set(key, c);
      }
      c.instances.push({ file: argsFile, value: call.arguments, at: `line ${line}, call ${k}` });
    });
  }
  return [...out.values()];
}

function anthropicCandidates(root: string): Candidate[] {
  // Cookbook tool definitions (keyed by notebook) vs tool_use inputs from recorded outputs.
  const dir = join(root, "tool-definitions", "anthropic");
  const schemaFile = join(dir, "anthropic-cookbook.tools.json");
  const inputsFile = join(dir, "anthropic-cookbook.tool_use_inputs.jsonl");
  if (!existsSync(schemaFile) || !existsSync(inputsFile)) return [];
  const tools = readJson(schemaFile) as Record<string, { name: string; input_schema: AnySchemaObject }[]>;
  const out = new Map<string, Candidate>();
  for (const { line, value } of jsonl(inputsFile)) {
    const list = tools[value.notebook] ?? [];
    const idx = list.findIndex((t) => t.name === value.name);
    if (idx < 0) continue;
    const key = `anthropic-cookbook/${value.notebook.replace(/\.ipynb$/, "")}/${value.name}`;
    let c = out.get(key);
    if (!c) {
      c = toolSchemaCandidate(key, "anthropic-cookbook", schemaFile, makePointer(value.notebook, idx, "input_schema"), list[idx]!.input_schema, []);
      out.set(key, c);
    }
    c.instances.push({ file: inputsFile, value: value.input, at: `line ${line}` });
  }
  return [...out.values()];
}

function candidates(root: string): Candidate[] {
  const wh = webhookAjv(root);
  return [
    ...schemastoreCandidates(root),
    ...mcpCandidates(root),
    ...webhookCandidates(root, wh),
    ...octokitCandidates(root, wh),
    ...geojsonCandidates(root),
    ...shadcnCandidates(root),
    ...bfclCandidates(root),
    ...anthropicCandidates(root),
  ];
}

// ---------------------------------------------------------------------------------------
// public API

let cached: CorpusReport | undefined;
const validators = new Map<string, ValidateFunction>();

/** Validates every candidate pair once (cached) and reports what passed and what did not. */
export function corpusReport(): CorpusReport {
  if (cached) return cached;
  const perFamily = Object.fromEntries(
    CORPUS_FAMILIES.map((f) => [f, { cases: 0, validated: 0, rejected: 0 }]),
  ) as CorpusReport["perFamily"];
  const cases: CorpusCase[] = [];
  const rejected: CorpusRejection[] = [];
  const root = corpusRoot();
  if (root) {
    for (const c of candidates(root)) {
      let validate: ValidateFunction | undefined;
      let compileError: string | undefined;
      try {
        validate = c.validator();
        if (!validate) compileError = "schema not found";
      } catch (e) {
        compileError = `schema did not compile: ${(e as Error).message}`;
      }
      const ok: CorpusInstance[] = [];
      for (const inst of c.instances) {
        let error = compileError;
        if (!error && !validate!(inst.value)) error = errorText(validate!);
        if (error) {
          rejected.push({ id: c.id, family: c.family, file: inst.file, ...(inst.at ? { at: inst.at } : {}), error });
          perFamily[c.family].rejected++;
        } else {
          ok.push(inst);
          perFamily[c.family].validated++;
        }
      }
      if (ok.length > 0) {
        validators.set(c.id, validate!);
        const { validator: _v, ...rest } = c;
        cases.push({ ...rest, instances: ok });
        perFamily[c.family].cases++;
      }
    }
  }
  cached = { cases, rejected, perFamily };
  return cached;
}

/** Schema/instance pairs from the corpus; only instances that validate are included.
 *  Empty when the corpus is absent. */
export function schemaInstancePairs(): CorpusCase[] {
  return corpusReport().cases;
}

/** The compiled ajv validator used for a case (by `CorpusCase.id`), e.g. to check that a
 *  decoded or mutated value still (or no longer) matches the schema. */
export function corpusValidator(id: string): ValidateFunction | undefined {
  corpusReport();
  return validators.get(id);
}

/** Plain JSON documents usable for schemaless tests (absolute paths, sorted):
 *  simdjson examples, vega datasets, OTLP JSON examples, octokit fixtures. Schemas and
 *  derived schema files are left out. Empty when the corpus is absent. */
export function datasetFiles(): string[] {
  const root = corpusRoot();
  if (!root) return [];
  const d = join(root, "datasets");
  return [
    ...listFiles(join(d, "simdjson-jsonexamples")),
    ...listFiles(join(d, "vega-datasets")),
    ...listFiles(join(d, "otlp-json-examples")),
    ...listFiles(join(d, "octokit-fixtures")),
  ]
    .filter((f) => f.endsWith(".json") && !/\.schema(\.derived)?\.json$/.test(f))
    .sort();
}

/** Path relative to the corpus root, for messages. */
export function corpusRelative(file: string): string {
  const root = corpusRoot();
  return root ? relative(root, file).split(sep).join("/") : file;
}

