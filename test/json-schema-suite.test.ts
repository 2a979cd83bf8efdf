/**
 * Conformance: the official JSON-Schema-Test-Suite (../shared/json-schema-test-suite, PROVENANCE.md there), main
 * suite of draft-04, -06, -07, 2019-09 and 2020-12. Per group, the generated validator (the very code
 * `<name>.validate.ts` holds, compiled here in memory: generator/validate) must agree with the expected `valid` of
 * each case, except the deviations listed with their reason in json-schema-suite.deviations.json; and the codec
 * is generated (schema -> IR, the suite's remotes mapped by `refMap`) and every valid case must round-trip exactly
 * through binary (the interpreted twin of the generated codec) and through TOON text (the generic encoder, then
 * the descriptor-driven text check a generated `fromText` runs), except the listed deviations. `optional/format`
 * is measured with format checks on, apart. Skips with a notice when the suite is absent.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { test } from "node:test";
import { compileValidator, instantiateValidator } from "../generator/validate/index.ts";
import { ajvFor } from "../generator/validate/compile.ts";
import addFormatsNs from "ajv-formats";
import { schemaToIR } from "../generator/load/index.ts";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { interpret } from "../generator/interpret/index.ts";
import { describeCodec } from "../generator/emit/descriptor.ts";
import { textCheckOf } from "../runtime/codec/engine/text-check.ts";
import { fromTextWith, type TextCheckFn } from "../runtime/text/check.ts";
import { encodeText } from "../runtime/text/encode.ts";
import { denseFromText, denseToText, type DenseSource } from "../runtime/text/dense/index.ts";
import type { Draft } from "../generator/load/drafts.ts";
import { checkSchema, type SchemaValidator } from "../runtime/validate/index.ts";
import { REPO } from "./support/gen.ts";

const SUITE = path.resolve(REPO, "..", "shared", "json-schema-test-suite");
const DRAFTS: [string, Draft][] = [["draft4", 4], ["draft6", 6], ["draft7", 7], ["draft2019-09", 2019], ["draft2020-12", 2020]];
const REMOTE = "http://localhost:1234/";
/**
 * The drafts' meta-schemas, which some groups refer to, from the copies ajv ships (the suite's remotes hold none):
 * mapped by `refMap` like any vendored schema. Their files end in `.json`, the URIs do not.
 */
const AJV_REFS = path.join(REPO, "node_modules", "ajv", "dist", "refs");
const META_MAP: Record<string, string> = {
  "http://json-schema.org/draft-04/schema": path.join(REPO, "node_modules", "ajv-draft-04", "dist", "refs", "json-schema-draft-04.json"),
  "http://json-schema.org/draft-06/schema": path.join(AJV_REFS, "json-schema-draft-06.json"),
  "http://json-schema.org/draft-07/schema": path.join(AJV_REFS, "json-schema-draft-07.json"),
  "https://json-schema.org/draft/2019-09/": path.join(AJV_REFS, "json-schema-2019-09") + path.sep,
  "https://json-schema.org/draft/2020-12/": path.join(AJV_REFS, "json-schema-2020-12") + path.sep,
};
/** The loader's file reader, with `.json` added to a meta-schema path that lacks it. */
function readSuiteFile(abs: string): string {
  const file = abs.startsWith(AJV_REFS) && !abs.endsWith(".json") ? abs + ".json" : abs;
  return readFileSync(file, "utf8");
}
/** ajv 8 with the suite's remotes and formats off, on the same cases (issue 11): what this must at least reach. */
const AJV_AGREEMENT: Record<string, number> = { draft4: 98.7, draft6: 99.1, draft7: 99.1, "draft2019-09": 97.8, "draft2020-12": 95.2 };

interface Group {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

const DEVIATIONS: Record<string, string> = JSON.parse(readFileSync(new URL("./json-schema-suite.deviations.json", import.meta.url), "utf8")).cases;

function load(uri: string): unknown {
  if (!uri.startsWith(REMOTE)) throw new Error(`not a suite remote: ${uri}`);
  return JSON.parse(readFileSync(path.join(SUITE, "remotes", uri.slice(REMOTE.length)), "utf8"));
}

interface Tally {
  groups: number;
  compiled: number;
  generated: number;
  cases: number;
  agree: number;
  valid: number;
  roundTrips: number;
  textRoundTrips: number;
  denseRoundTrips: number;
  deviations: string[];
  unexpected: string[];
}

async function runFile(draftDir: string, draft: Draft, file: string, t: Tally, formats: boolean, key: (g: Group, c: Group["tests"][number]) => string): Promise<void> {
  const groups = JSON.parse(readFileSync(file, "utf8")) as Group[];
  for (const g of groups) {
    t.groups++;
    let fn: SchemaValidator | undefined;
    try {
      const compiled = await compileValidator({ document: g.schema, pointer: "", draft, baseUri: "https://suite.invalid/root.json", load }, { validateSchema: false, formats, unsafePatterns: "allow" });
      fn = instantiateValidator(compiled) as SchemaValidator;
      t.compiled++;
    } catch {
      fn = undefined;
    }
    // the codec: schema -> IR -> interpreted twin of the generated module, for the round trips
    let codec: ReturnType<typeof interpret> | undefined;
    let textCheck: TextCheckFn | undefined;
    let desc: DenseSource | undefined;
    let refusal = "";
    try {
      // the conformance run allows the suite's few backtracking patterns (`f.*o`) that the loader refuses by default
      const ir = schemaToIR(g.schema, { source: `${draftDir}.schema.json`, baseDir: SUITE, refMap: { [REMOTE]: "remotes/", ...META_MAP }, readFile: readSuiteFile, unsafePatterns: "allow", draft });
      const dict = buildDictionary(ir);
      codec = interpret(ir, dict);
      desc = describeCodec(ir, dict);
      textCheck = textCheckOf(desc as ReturnType<typeof describeCodec>);
      t.generated++;
    } catch (e) {
      codec = undefined;
      refusal = (e as Error).message;
    }
    for (const c of g.tests) {
      t.cases++;
      const got = fn === undefined ? undefined : checkSchema(fn, c.data, { formats }).length === 0;
      const k = key(g, c);
      if (got === c.valid) t.agree++;
      else if (k in DEVIATIONS) t.deviations.push(k);
      else t.unexpected.push(`${k} (expected ${c.valid ? "valid" : "invalid"}, got ${got === undefined ? "no validator" : got ? "valid" : "invalid"})`);
      if (c.valid) {
        t.valid++;
        const binary = codec === undefined ? `no codec (${refusal})` : roundTrip(() => codec!.decode(codec!.encode(c.data)), c.data);
        const text = codec === undefined ? `no codec (${refusal})` : roundTrip(() => fromTextWith(encodeText(c.data), undefined, textCheck!), c.data);
        const dense = codec === undefined ? `no codec (${refusal})` : roundTrip(() => denseFromText(desc!, denseToText(desc!, c.data)), c.data);
        if (binary === "") t.roundTrips++;
        if (text === "") t.textRoundTrips++;
        if (dense === "") t.denseRoundTrips++;
        for (const [via, why] of [["binary", binary], ["text", text], ["dense", dense]] as const) {
          if (why === "") continue;
          // listed per case, or per group (a refusal: every valid case of the group)
          const rk = `${k} (${via} round trip)`;
          const gk = `${key(g, { description: "", data: null, valid: true }).slice(0, -1)} (round trips)`;
          if (rk in DEVIATIONS) t.deviations.push(rk);
          else if (gk in DEVIATIONS) t.deviations.push(gk);
          else t.unexpected.push(`${rk}: ${why.slice(0, 200)}`);
        }
      }
    }
  }
}

/** "" when `run` gives back a value deep-equal to `data`, else why not. */
function roundTrip(run: () => unknown, data: unknown): string {
  try {
    return isDeepStrictEqual(run(), data) ? "" : "differs";
  } catch (e) {
    return (e as Error).message;
  }
}

const pct = (a: number, b: number): string => (b === 0 ? "-" : ((100 * a) / b).toFixed(1) + "%");

test("JSON-Schema-Test-Suite: the generated validators agree with the main suite of every draft", { timeout: 240_000 }, async (ctx) => {
  if (!existsSync(SUITE)) {
    console.log(`json-schema-suite: skipped, ${SUITE} is absent`);
    ctx.skip("the JSON-Schema-Test-Suite is absent");
    return;
  }
  await initHash();
  const started = performance.now();
  const rows: string[] = [];
  const all: Tally = { groups: 0, compiled: 0, generated: 0, cases: 0, agree: 0, valid: 0, roundTrips: 0, textRoundTrips: 0, denseRoundTrips: 0, deviations: [], unexpected: [] };
  const below: string[] = [];
  for (const [dir, draft] of DRAFTS) {
    const t: Tally = { groups: 0, compiled: 0, generated: 0, cases: 0, agree: 0, valid: 0, roundTrips: 0, textRoundTrips: 0, denseRoundTrips: 0, deviations: [], unexpected: [] };
    const folder = path.join(SUITE, "tests", dir);
    for (const name of readdirSync(folder).filter((f) => f.endsWith(".json")).sort()) {
      // the main suite expects `format` to be an annotation only from 2019-09 on: run it as the draft says
      const formats = !(draft >= 2019 && name === "format.json");
      await runFile(dir, draft, path.join(folder, name), t, formats, (g, c) => `${dir}/${name}/${g.description}/${c.description}`);
    }
    for (const k of Object.keys(t) as (keyof Tally)[]) {
      if (Array.isArray(t[k])) (all[k] as string[]).push(...(t[k] as string[]));
      else (all[k] as number) += t[k] as number;
    }
    const agreement = (100 * t.agree) / t.cases;
    if (agreement < AJV_AGREEMENT[dir]! - 0.05) below.push(`${dir}: ${agreement.toFixed(1)}% < ajv's ${AJV_AGREEMENT[dir]}%`);
    rows.push(`${dir.padEnd(13)} groups ${t.groups}, validators ${t.compiled}, codecs ${t.generated} (${pct(t.generated, t.groups)}); cases ${t.cases}, agree ${t.agree} (${pct(t.agree, t.cases)}; ajv ${AJV_AGREEMENT[dir]}%), listed deviations ${t.deviations.length}; valid cases round-tripping: binary ${t.roundTrips}/${t.valid} (${pct(t.roundTrips, t.valid)}), text ${t.textRoundTrips}/${t.valid} (${pct(t.textRoundTrips, t.valid)}), dense text ${t.denseRoundTrips}/${t.valid} (${pct(t.denseRoundTrips, t.valid)})`);
  }
  console.log(`json-schema-suite (main), ${((performance.now() - started) / 1000).toFixed(1)} s:\n  ${rows.join("\n  ")}\n  all: agree ${pct(all.agree, all.cases)} of ${all.cases}, round trips binary ${pct(all.roundTrips, all.valid)}, text ${pct(all.textRoundTrips, all.valid)}, dense text ${pct(all.denseRoundTrips, all.valid)}`);
  console.log(`json-schema-suite: ${all.deviations.length} known deviations (test/json-schema-suite.deviations.json):\n  ${all.deviations.map((k) => `${k}: ${DEVIATIONS[k]}`).join("\n  ")}`);
  const seen = new Set(all.deviations);
  const stale = Object.keys(DEVIATIONS).filter((k) => !seen.has(k));
  if (stale.length > 0) console.log(`json-schema-suite: ${stale.length} listed deviations now agree (remove them):\n  ${stale.join("\n  ")}`);
  if (process.env.SUITE_DUMP) console.log(JSON.stringify(all.unexpected, null, 1));
  assert.deepEqual(all.unexpected, [], "disagreements not listed as deviations");
  assert.deepEqual(below, [], "agreement below ajv's on some draft");
});

test("JSON-Schema-Test-Suite optional/format: format checks (ajv-formats semantics), measured", { timeout: 120_000 }, async (ctx) => {
  if (!existsSync(SUITE)) {
    ctx.skip("the JSON-Schema-Test-Suite is absent");
    return;
  }
  const rows: string[] = [];
  const below: string[] = [];
  for (const [dir, draft] of DRAFTS) {
    const folder = path.join(SUITE, "tests", dir, "optional", "format");
    if (!existsSync(folder)) continue;
    const t: Tally = { groups: 0, compiled: 0, generated: 0, cases: 0, agree: 0, valid: 0, roundTrips: 0, textRoundTrips: 0, denseRoundTrips: 0, deviations: [], unexpected: [] };
    let reference = 0;
    for (const name of readdirSync(folder).filter((f) => f.endsWith(".json")).sort()) {
      await runFile(dir, draft, path.join(folder, name), t, true, (g, c) => `${dir}/optional/format/${name}/${g.description}/${c.description}`);
      reference += referenceAgreement(draft, path.join(folder, name));
    }
    rows.push(`${dir.padEnd(13)} cases ${t.cases}, agree ${t.agree} (${pct(t.agree, t.cases)}; ajv with ajv-formats ${reference}, ${pct(reference, t.cases)})`);
    assert.ok(t.cases > 0);
    if (t.agree < reference) below.push(`${dir}: ${t.agree} < ajv-formats' ${reference}`);
  }
  assert.deepEqual(below, [], "format checks agree less often than ajv with ajv-formats");
  console.log(`json-schema-suite optional/format (format checks on):\n  ${rows.join("\n  ")}`);
});

/** Cases of a suite file on which plain ajv 8 with ajv-formats (full mode) agrees with the expected result. */
function referenceAgreement(draft: Draft, file: string): number {
  const addFormats = ((addFormatsNs as unknown as { default?: typeof addFormatsNs }).default ?? addFormatsNs) as unknown as (a: unknown) => void;
  let agree = 0;
  for (const g of JSON.parse(readFileSync(file, "utf8")) as Group[]) {
    const ajv = ajvFor(draft, { strict: false, allErrors: true, validateSchema: false, logger: false });
    addFormats(ajv);
    let v: ((d: unknown) => boolean) | undefined;
    try {
      v = ajv.compile(g.schema as object) as (d: unknown) => boolean;
    } catch {
      v = undefined;
    }
    for (const c of g.tests) if (v !== undefined && v(c.data) === c.valid) agree++;
  }
  return agree;
}
