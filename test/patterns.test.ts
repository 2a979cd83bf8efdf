// Schema patterns and the engine that runs them (generator/load/patterns.ts, issue 26): a pattern recheck certifies
// stays on RegExp, one it does not runs on re2js wherever RE2 syntax can say it (in `validate` and in tool-argument
// checks), one neither vouches for is a SCHEMA_ERROR naming its path; generation ends even when recheck does not
// answer. The RE2 spelling keeps the ECMAScript meaning (`\s`, `.`), checked against RegExp on random patterns.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { RE2JS } from "re2js";
import { generate } from "../generator/pipeline.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { linearPattern } from "../generator/load/linear-pattern.ts";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { emitModule } from "../generator/emit/module.ts";
import { interpret } from "../generator/interpret/index.ts";
import { REPO, suiteDir } from "./support/gen.ts";
import { Rng } from "./support/rng.ts";
import { catchToon } from "./support/toon-error.ts";

const CORPUS = path.resolve(REPO, "../shared/corpus/json-schemas");
const hasCorpus = existsSync(CORPUS);
if (!hasCorpus) console.log(`# ../shared/corpus is absent: the GitHub schema tests are skipped`);

async function importFile(file: string): Promise<Record<string, any>> {
  return (await import(pathToFileURL(file).href)) as Record<string, any>;
}

test("GitHub workflow and action schemas generate by default, run their backtracking patterns on re2js and round-trip their instances", { skip: hasCorpus ? false : "no corpus" }, async () => {
  const dir = suiteDir("patterns-github");
  const inputs = ["github-workflow", "github-action"].map((n) => path.join(CORPUS, "schemas", `${n}.json`));
  const result = await generate({ inputs, outDir: "gen", dictionaryDir: "dict" }, { cwd: dir });
  assert.ok(result.warnings.some((w) => w.includes('runs on re2js (linear time): pattern "^(.+\\\\/)+(.+)\\\\.(ya?ml)(@.+)?$"')), result.warnings.join("\n"));
  for (const [schema, codecName] of [["github-workflow", "GithubWorkflow"], ["github-action", "GithubAction"]] as const) {
    const validator = readFileSync(path.join(dir, "gen", `${schema}.validate.ts`), "utf8");
    assert.match(validator, /^import \{ RE2JS as \$RE2JS \} from "re2js";$/m, `${schema}: the validator imports re2js`);
    assert.match(validator, /= \/\*@__PURE__\*\/ \$RE2JS\.compile\(/);
    const mod = await importFile(path.join(dir, "gen", `${schema}.ts`));
    const codec = mod[codecName] ?? Object.values(mod).find((v) => typeof v?.encode === "function" && typeof v?.fromText === "function");
    assert.ok(codec, `${schema}: a codec export (${Object.keys(mod).join(", ")})`);
    const instancesDir = path.join(CORPUS, "instances", schema);
    const files = readdirSync(instancesDir).filter((f) => f.endsWith(".json")).sort();
    assert.ok(files.length > 0);
    for (const f of files) {
      const value = JSON.parse(readFileSync(path.join(instancesDir, f), "utf8")) as unknown;
      const v = codec.validate(value);
      assert.ok(v.ok, `${schema}/${f}: ${v.ok ? "" : JSON.stringify(v.errors.slice(0, 3))}`);
      assert.deepEqual(codec.decode(codec.encode(value)), value, `${schema}/${f} round-trips`);
    }
  }
  // the attack recheck found (exponential on RegExp) is a plain finding on re2js, even at 10 KB
  const { GithubWorkflow } = await importFile(path.join(dir, "gen", "github-workflow.ts"));
  const attack = "@" + "/m".repeat(5_000) + "!";
  const job = { "runs-on": "x", uses: attack };
  const r = GithubWorkflow.validate({ on: "push", jobs: { build: job } });
  assert.equal(r.ok, false);
});

test("propertyNames, patternProperties and patterns the shape never reads (inside `not`) are planned like `pattern`", async () => {
  const dir = suiteDir("patterns-keys");
  writeFileSync(
    path.join(dir, "keys.schema.json"),
    JSON.stringify({
      title: "Keys",
      type: "object",
      propertyNames: { pattern: "^(a+)+$" },
      additionalProperties: { type: "string", not: { pattern: "^(b|b)*$" } },
    }),
  );
  const result = await generate({ inputs: ["keys.schema.json"], outDir: "gen", dictionaryDir: "dict" }, { cwd: dir });
  assert.ok(result.warnings.some((w) => /#\/propertyNames\/pattern: propertyNames: runs on re2js/.test(w)), result.warnings.join("\n"));
  const validator = readFileSync(path.join(dir, "gen", "keys.validate.ts"), "utf8");
  assert.equal(validator.match(/\$RE2JS\.compile\(/g)?.length, 2, "both patterns on re2js");
  const { Keys } = await importFile(path.join(dir, "gen", "keys.ts"));
  // the key that made the RegExp validator run for minutes: rejected at once
  const bad = Keys.validate({ ["a".repeat(31) + "!"]: "x" });
  assert.equal(bad.ok, false);
  assert.ok(Keys.validate({ aaa: "c" }).ok);
  assert.equal(Keys.validate({ aaa: "bbbb" }).ok, false, "not: matched on re2js");
});

test("a tool argument's backtracking pattern runs on re2js in parseToolCall and checkArguments", async () => {
  const dir = suiteDir("patterns-tools");
  const tools = [
    {
      type: "function",
      function: {
        name: "open_file",
        description: "Open a file by path.",
        parameters: {
          type: "object",
          properties: { path: { type: "string", pattern: "^(.+\\/)+(.+)\\.(ya?ml)$" }, mode: { type: "string", pattern: "^[rw]$" } },
          required: ["path", "mode"],
          additionalProperties: false,
        },
      },
    },
  ];
  writeFileSync(path.join(dir, "files.tools.json"), JSON.stringify(tools));
  const result = await generate({ inputs: ["files.tools.json"], outDir: "gen", dictionaryDir: "dict" }, { cwd: dir });
  const main = result.files.map((f) => f.path).find((p) => p.endsWith(".ts") && !p.includes(`${path.sep}tools${path.sep}`) && !p.endsWith("index.ts") && readFileSync(p, "utf8").includes("$rt.toolSet("));
  assert.ok(main, result.files.map((f) => f.path).join("\n"));
  const text = readFileSync(main, "utf8");
  assert.match(text, /^import \{ RE2JS as \$RE2JS \} from "re2js";$/m);
  assert.match(text, /\["\^\(\.\+\\\\\/\)\+\(\.\+\)\\\\\.\(ya\?ml\)\$", \$RE2JS\.compile\(/, "the pattern -> its RE2 spelling");
  assert.doesNotMatch(text, /"\^\[rw\]\$", \$RE2JS/, "a certified pattern stays on RegExp");
  const mod = await importFile(main);
  const set = Object.values(mod).find((v) => typeof v?.parseToolCall === "function")!;
  const call = (p: string): unknown => ({ id: "c1", type: "function", function: { name: "open_file", arguments: JSON.stringify({ path: p, mode: "r" }) } });
  assert.deepEqual(set.parseToolCall(call("a/b/c.yml")).arguments, { path: "a/b/c.yml", mode: "r" });
  const e = catchToon(() => set.parseToolCall(call("a/".repeat(5_000) + "!")));
  assert.equal(e.details?.[0]?.path, "/arguments/path");
  assert.match(e.details?.[0]?.message ?? "", /^expected a string matching \/.*\/, got a string/);
  assert.deepEqual(set.checkArguments("open_file", { path: "x/y.yaml", mode: "w" }), []);
});

test("modules without a validator module (emitModule, both optimize modes) and the interpreter run re2js patterns on re2js", async () => {
  const dir = suiteDir("patterns-modules");
  const ir = schemaToIR({ title: "Slug", type: "object", properties: { slug: { type: "string", pattern: "^(a|a)*$" }, code: { type: "string", pattern: "^[A-Z]{3}$" } }, required: ["slug"] }, { source: "slug.schema.json" });
  await initHash();
  const dict = buildDictionary(ir);
  const attack = { slug: "a".repeat(10_000) + "!" };
  for (const optimize of ["speed", "size"] as const) {
    const text = emitModule(ir, dict, { fileName: `slug-${optimize}.ts`, optimize });
    assert.match(text, /^import \{ RE2JS as \$RE2JS \} from "re2js";$/m, optimize);
    assert.equal(text.match(/\$RE2JS\.compile\(/g)?.length, 1, `${optimize}: the certified pattern stays on RegExp`);
    const file = path.join(dir, `slug-${optimize}.ts`);
    writeFileSync(file, text);
    const { Slug } = await importFile(file);
    assert.ok(Slug.validate({ slug: "aaa", code: "ABC" }).ok, optimize);
    const r = Slug.validate(attack);
    assert.equal(r.ok, false, optimize);
    assert.equal(r.errors[0].path, "/slug");
  }
  const engine = interpret(ir, dict);
  assert.equal(engine.validate(attack).ok, false);
  assert.ok(engine.validate({ slug: "" }).ok);
});

test("generation ends on patterns that break the checker: a SCHEMA_ERROR at the pattern's path", () => {
  for (const [pattern, why] of [
    ["a{99999999999}", /repetition counts/],
    ["^(a+)+\\1$", /RE2 has no backreferences/],
    ["^(?=(a+)+b)", /RE2 has no lookaround/],
  ] as const) {
    const e = catchToon(() => schemaToIR({ type: "object", properties: { p: { type: "string", pattern } } }, { source: "hostile.schema.json" }));
    assert.equal(e.code, "SCHEMA_ERROR");
    assert.equal(e.path, "/properties/p/pattern");
    assert.match(e.message, why);
  }
});

test("recheck's safe is not taken past 8 unbounded repetitions: a pattern it calls linear that RegExp takes seconds on runs on re2js", async () => {
  const { PatternBudget, patternPlan } = await import("../generator/load/patterns.ts");
  const plan = patternPlan("\\S+\\p{L}?".repeat(20), new PatternBudget());
  assert.equal(plan.engine, "linear");
  assert.match(plan.engine === "linear" ? plan.why : "", /20 unbounded repetitions/);
  // escaped and class members are not repetitions; `{2,}` is
  assert.equal(patternPlan("^[+*]\\+\\*a{2,}b{2,3}$", new PatternBudget()).engine, "native");
});

test("a pattern only the validator reads (inside `not`) that neither recheck nor RE2 vouches for: SCHEMA_ERROR, or a warning when allowed", async () => {
  const { compileValidator } = await import("../generator/validate/index.ts");
  const input = { document: { type: "string", not: { pattern: "^(a+)+\\1$" } }, pointer: "", draft: 2020 as const, baseUri: "file:///x/not.json", load: () => ({}) };
  const e = await compileValidator(input).then(
    () => assert.fail("expected a SCHEMA_ERROR"),
    (err: unknown) => err,
  );
  assert.ok(e instanceof Error && (e as { code?: string }).code === "SCHEMA_ERROR", String(e));
  assert.equal((e as { path?: string }).path, "");
  assert.match((e as Error).message, /pattern "\^\(a\+\)\+\\\\1\$": .*RE2 has no backreferences/);
  const allowed = await compileValidator(input, { unsafePatterns: "allow" });
  assert.ok(allowed.warnings.some((w) => w.startsWith('kept on RegExp by "unsafePatterns": "allow"')), allowed.warnings.join("\n"));
  assert.equal(allowed.linearPatterns, false);
});

// ---------------------------------------------------------------------------------------------------------
// The RE2 spelling means what the ECMAScript pattern means

const ATOMS = ["a", "b", ".", "\\s", "\\S", "\\d", "\\w", "[ab]", "[^a]", "[\\sx]", "\\.", " ", "\u00a0", "\u2028", "é", "😀", "\\u{1F600}", "\\p{L}", "[^]"];
const INPUT_CHARS = ["a", "b", " ", "\t", "\n", "\r", "\u00a0", "\u2028", "\u3000", "\ufeff", "1", "_", ".", "é", "😀", "x"];

function randomPattern(rng: Rng, depth = 0, names = { n: 0 }): string {
  const n = rng.int(1, 3);
  let out = "";
  for (let i = 0; i < n; i++) {
    const open = rng.pick(["(", "(?:", "(?<g"]);
    const group = (): string => `${open === "(?<g" ? `(?<g${names.n++}>` : open}${randomPattern(rng, depth + 1, names)}${rng.int(0, 1) === 0 ? "|" + randomPattern(rng, depth + 1, names) : ""})`;
    let atom = depth < 2 && rng.int(0, 3) === 0 ? group() : rng.pick(ATOMS);
    atom += rng.pick(["", "", "*", "+", "?", "{1,2}"]);
    out += atom;
  }
  return (rng.int(0, 1) === 0 ? "^" : "") + out + (rng.int(0, 1) === 0 ? "$" : "");
}

test("linear patterns: re2js on the RE2 spelling agrees with RegExp (u) on 300 random patterns x 30 inputs", () => {
  const rng = new Rng(26);
  let compared = 0;
  for (let i = 0; i < 300; i++) {
    const source = randomPattern(rng);
    const linear = linearPattern(source);
    if (!linear.ok) {
      assert.match(linear.why, /\\S inside a class/, `${JSON.stringify(source)}: ${linear.why}`);
      continue;
    }
    const native = new RegExp(source, "u");
    const re2 = RE2JS.compile(linear.source);
    for (let j = 0; j < 30; j++) {
      let input = "";
      for (let k = rng.int(0, 5); k > 0; k--) input += rng.pick(INPUT_CHARS);
      assert.equal(re2.test(input), native.test(input), `${JSON.stringify(source)} (RE2 ${JSON.stringify(linear.source)}) on ${JSON.stringify(input)}`);
      compared++;
    }
  }
  assert.ok(compared > 5_000, `${compared} comparisons`);
});
