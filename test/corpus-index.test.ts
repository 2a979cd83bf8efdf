import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import {
  CORPUS_FAMILIES,
  corpusRelative,
  corpusReport,
  corpusRoot,
  corpusValidator,
  datasetFiles,
  resolvePointer,
} from "./corpus/index.ts";

const root = corpusRoot();
const skip = root ? false : "corpus not found at ../shared/corpus (skipping corpus index tests)";
if (!root) console.log(`# ${skip}`);

// Lower bounds (the corpus may grow; PROVENANCE.md lists what is there today).
const MIN_VALIDATED: Record<string, number> = {
  schemastore: 60,
  "mcp-spec": 40,
  "github-webhooks": 20,
  "octokit-issues": 10,
  geojson: 1,
  shadcn: 2,
  bfcl: 60,
  "anthropic-cookbook": 20,
};

test("corpus index: every expected family is found", { skip }, () => {
  const r = corpusReport();
  for (const f of CORPUS_FAMILIES) {
    const c = r.perFamily[f];
    console.log(`# ${f.padEnd(20)} cases=${String(c.cases).padStart(3)} validated=${String(c.validated).padStart(3)} rejected=${c.rejected}`);
  }
  for (const x of r.rejected) {
    console.log(`#   rejected ${x.id}: ${corpusRelative(x.file)}${x.at ? ` (${x.at})` : ""}: ${x.error.slice(0, 160)}`);
  }
  for (const f of CORPUS_FAMILIES) {
    assert.ok(r.perFamily[f].cases > 0, `family ${f} has no cases`);
    assert.ok(r.perFamily[f].validated >= MIN_VALIDATED[f]!, `family ${f}: only ${r.perFamily[f].validated} validated`);
  }
});

test("corpus index: cases are well-formed and their instances validate", { skip }, () => {
  const { cases } = corpusReport();
  const ids = new Set<string>();
  for (const c of cases) {
    assert.ok(!ids.has(c.id), `duplicate id ${c.id}`);
    ids.add(c.id);
    assert.ok(existsSync(c.schemaFile), c.schemaFile);
    assert.ok(c.instances.length > 0, c.id);
    const doc = JSON.parse(readFileSync(c.schemaFile, "utf8"));
    const schema = resolvePointer(doc, c.pointer);
    assert.equal(typeof schema, "object", `${c.id}: pointer ${c.pointer} does not reach a schema`);
    const v = corpusValidator(c.id);
    assert.ok(v, c.id);
    for (const inst of c.instances) {
      assert.ok(existsSync(inst.file), inst.file);
      assert.ok(v(inst.value), `${c.id}: ${corpusRelative(inst.file)} ${inst.at ?? ""}`);
    }
  }
});

test("corpus index: known non-validating instances are excluded", { skip }, () => {
  const { cases, rejected } = corpusReport();
  // PROVENANCE.md: web-manifest W3C_Example_1 (draft-04 has no `const`, so `oneOf` matches
  // several branches) and the cookbook print_summary output missing `counterpoint`.
  const files = new Set(cases.flatMap((c) => c.instances.map((i) => `${corpusRelative(i.file)}${i.at ?? ""}`)));
  assert.ok(!files.has("json-schemas/instances/web-manifest/W3C_Example_1.json"));
  assert.ok(rejected.some((x) => x.id === "schemastore/web-manifest"));
  assert.ok(rejected.some((x) => x.id === "anthropic-cookbook/extracting_structured_json/print_summary"));
});

test("corpus index: dataset files are plain JSON", { skip }, () => {
  const files = datasetFiles();
  console.log(`# datasets: ${files.length} files`);
  assert.ok(files.some((f) => f.endsWith("twitter.json")));
  assert.ok(files.some((f) => f.includes("vega-datasets")));
  for (const f of files) {
    assert.doesNotThrow(() => JSON.parse(readFileSync(f, "utf8")), corpusRelative(f));
  }
});
