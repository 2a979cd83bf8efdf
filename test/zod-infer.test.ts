// Generated types equal `z.infer` with and without `exactOptionalPropertyTypes` (issue 14): for the Zod examples
// (examples/tools/schemas.ts, and examples/agent-loop/tools.ts whose tool set is generated from their JSON
// Schema), `Codec.encode(zodSchema.parse(x))` and `toText` compile, and the decoded type is assignable both ways to
// z.infer (and identical to it), checked by tsc under `strict` with the flag on and off. A control file shows the
// flag is in force: the `a?: T` an optional property used to get refuses what z.infer gives. At run time,
// `{ a: undefined }` is the property absent for binary encode, toText and validate, generated and interpreted.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { REPO, suiteDir } from "./support/gen.ts";
import { WeatherQuery as ZWeatherQuery, forecastSchema } from "../examples/tools/schemas.ts";
import { WeatherQuery, Forecast } from "../examples/tools/gen/index.ts";
import { SearchDocs as ZSearchDocs } from "../examples/agent-loop/tools.ts";
import { SearchDocsArguments } from "../examples/agent-loop/gen/agent-tools/args/search-docs.ts";
import { interpret } from "../generator/interpret/index.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { emitTo, importCodec } from "./support/gen.ts";

const CHECKS = `import type { z } from "zod";
import type * as z3 from "zod/v3";
import * as S from "../../../examples/tools/schemas.ts";
import * as A from "../../../examples/agent-loop/tools.ts";
import { WeatherQuery, Forecast, LegacyAlert } from "../../../examples/tools/gen/index.ts";
import type { LookupOrderArguments } from "../../../examples/agent-loop/gen/agent-tools/args/lookup-order.ts";
import type { RefundArguments } from "../../../examples/agent-loop/gen/agent-tools/args/refund.ts";
import type { SearchDocsArguments } from "../../../examples/agent-loop/gen/agent-tools/args/search-docs.ts";

type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
export type Same = [
  Assert<Eq<WeatherQuery, z.infer<typeof S.WeatherQuery>>>,
  Assert<Eq<Forecast, z.infer<typeof S.forecastSchema>>>,
  Assert<Eq<LegacyAlert, z3.infer<typeof S.legacyAlertSchema>>>,
  Assert<Eq<LookupOrderArguments, z.infer<typeof A.LookupOrder>>>,
  Assert<Eq<RefundArguments, z.infer<typeof A.Refund>>>,
  Assert<Eq<SearchDocsArguments, z.infer<typeof A.SearchDocs>>>,
];

/** What an app writes: parse with Zod, encode; decode, hand the value to code typed with z.infer, and back. */
export function roundTrip(x: unknown): void {
  const q = S.WeatherQuery.parse(x);
  const back: z.infer<typeof S.WeatherQuery> = WeatherQuery.decode(WeatherQuery.encode(q));
  const again: WeatherQuery = back;
  WeatherQuery.toText(again);
  WeatherQuery.fromText(WeatherQuery.toText(q)) satisfies z.infer<typeof S.WeatherQuery>;
  const f = S.forecastSchema.parse(x);
  const fb: z.infer<typeof S.forecastSchema> = Forecast.decode(Forecast.encode(f));
  Forecast.encode(fb);
  const l = S.legacyAlertSchema.parse(x);
  const lb: z3.infer<typeof S.legacyAlertSchema> = LegacyAlert.decode(LegacyAlert.encode(l));
  LegacyAlert.encode(lb);
  const s: SearchDocsArguments = A.SearchDocs.parse(x);
  const sb: z.infer<typeof A.SearchDocs> = s;
  void sb;
  const r: RefundArguments = A.Refund.parse(x);
  void r;
}
`;

// the type an optional property had before: under exactOptionalPropertyTypes it refuses z.infer's `undefined`
const CONTROL = `import * as S from "../../../examples/tools/schemas.ts";
interface OldWeatherQuery {
  city: string;
  date?: string;
  unit: "celsius" | "fahrenheit";
}
export const q: OldWeatherQuery = S.WeatherQuery.parse({ city: "Oslo" });
`;

function tsc(dir: string, files: string[], exact: boolean): string[] {
  const config = {
    compilerOptions: {
      strict: true,
      exactOptionalPropertyTypes: exact,
      target: "ES2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      customConditions: ["toon-dev"],
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [path.relative(dir, path.join(REPO, "node_modules", "@types"))],
      lib: ["ES2024", "DOM"],
    },
    files,
  };
  const tsconfig = path.join(dir, `tsconfig.${exact ? "exact" : "loose"}.${files.join("-").replace(/\W/g, "")}.json`);
  writeFileSync(tsconfig, JSON.stringify(config, null, 2));
  const res = spawnSync(process.execPath, [path.join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig, "--pretty", "false"], { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  // errors in the checked files only: the runtime is type-checked from its sources here (toon-dev), an app sees its
  // declaration files (as in test/strict-flags.test.ts)
  return `${res.stdout}${res.stderr}`.split("\n").filter((l) => /error TS\d+/.test(l) && files.some((f) => l.startsWith(f + "(")));
}

test("zod-infer: generated types are z.infer, and encode(zod.parse(x)) compiles, with and without exactOptionalPropertyTypes", () => {
  const dir = suiteDir("zod-infer");
  writeFileSync(path.join(dir, "checks.ts"), CHECKS);
  writeFileSync(path.join(dir, "control.ts"), CONTROL);
  // one program per setting: checks.ts compiles under both; the control's `date?: string` takes z.infer's value
  // only when the flag is off
  assert.deepEqual(tsc(dir, ["checks.ts", "control.ts"], false), [], "exactOptionalPropertyTypes: false");
  const errors = tsc(dir, ["checks.ts", "control.ts"], true);
  assert.equal(errors.length, 1, errors.join("\n"));
  assert.match(errors[0]!, /^control\.ts\(7,14\): error TS2375: .*with 'exactOptionalPropertyTypes: true'/);
});

test("zod-infer: { a: undefined } is a with a absent, for binary encode, toText and validate (Zod examples)", () => {
  const explicit = { city: "Oslo", date: undefined, unit: "celsius" as const };
  const absent = { city: "Oslo", unit: "celsius" as const };
  assert.deepEqual(WeatherQuery.encode(explicit), WeatherQuery.encode(absent));
  assert.equal(WeatherQuery.toText(explicit), "city: Oslo\nunit: celsius");
  assert.equal(WeatherQuery.validate(explicit).ok, true);
  assert.equal(WeatherQuery.validate({ ...explicit, city: undefined }).ok, false, "a required property set to undefined is missing");
  assert.deepStrictEqual(WeatherQuery.fromText(WeatherQuery.toText(explicit)), absent);
  // straight from Zod (which may keep the key with undefined or drop it: both must work)
  const parsed = ZWeatherQuery.parse({ city: "Oslo", date: undefined });
  assert.equal(WeatherQuery.toText(parsed), "city: Oslo\nunit: celsius");
  const f = forecastSchema.parse({ city: "Oslo", days: [{ date: "2025-01-15", high: 3, low: -2, conditions: "snow", precipitation: null }], sources: {} });
  const withUndefined = { ...f, alerts: undefined };
  assert.equal(Forecast.toText(withUndefined), Forecast.toText(f));
  assert.deepEqual(Forecast.encode(withUndefined), Forecast.encode(f));
  const args = ZSearchDocs.parse({ query: "refund policy", limit: undefined });
  assert.equal(SearchDocsArguments.toText({ ...args, limit: undefined }), "query: refund policy");
  assert.deepStrictEqual(SearchDocsArguments.decode(SearchDocsArguments.encode({ ...args, limit: undefined })), { query: "refund policy" });
});

const ROWS = {
  title: "Rows",
  type: "object",
  required: ["rows"],
  additionalProperties: false,
  properties: {
    rows: { type: "array", items: { type: "object", required: ["a"], additionalProperties: false, properties: { a: { type: "integer" }, b: { type: "string" } } } },
    note: { type: "string" },
    meta: { type: "object", additionalProperties: false, properties: { x: { type: "string" }, y: { enum: ["p", "q"] } } },
    tags: { type: "object", additionalProperties: { type: "string" } },
  },
};

// [with undefined-valued properties, the same value without them]
const CASES: [unknown, unknown][] = [
  [{ rows: [{ a: 1, b: "x" }, { a: 2, b: undefined }], note: undefined }, { rows: [{ a: 1, b: "x" }, { a: 2 }] }], // a table row
  [{ rows: [{ a: 1, b: undefined }, { a: 2, b: undefined }] }, { rows: [{ a: 1 }, { a: 2 }] }], // every row
  [{ rows: [{ b: undefined, a: 1 }] }, { rows: [{ a: 1 }] }], // a list item's first key
  [{ note: undefined, rows: [] }, { rows: [] }], // the root's first key
  [{ rows: [], meta: { x: undefined, y: undefined } }, { rows: [], meta: {} }], // a nested object left empty
  [{ rows: [], meta: { y: "p", x: undefined } }, { rows: [], meta: { y: "p" } }], // an enum field, out of order
  [{ rows: [], tags: { k: "v", gone: undefined } }, { rows: [], tags: { k: "v" } }], // a map entry
];

test("zod-infer: undefined-valued properties are absent in tables, list items, nested objects and maps, generated and interpreted", async () => {
  await initHash();
  const ir = schemaToIR(ROWS, { source: "rows.schema.json" });
  const e = await emitTo(ir, suiteDir("zod-infer-rows"), "rows");
  const Rows: any = await importCodec(e.file, "Rows");
  const engine = interpret(ir, e.dictionary);
  for (const [explicit, absent] of CASES) {
    const label = JSON.stringify(absent);
    const text = Rows.toText(absent);
    assert.equal(Rows.toText(explicit), text, label);
    assert.deepStrictEqual(Rows.fromText(text), absent, label);
    const bytes = Rows.encode(absent);
    assert.deepEqual(Rows.encode(explicit), bytes, label);
    assert.deepEqual(engine.encode(explicit), bytes, `interpreted: ${label}`);
    assert.deepStrictEqual(Rows.decode(bytes), absent, label);
    assert.equal(Rows.validate(explicit).ok, true, label);
    assert.equal(engine.validate(explicit).ok, true, `interpreted: ${label}`);
  }
});
