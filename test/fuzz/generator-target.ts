/**
 * The generator as a fuzz target (issue 26, "generation always ends"): schemas carrying patterns built to break
 * ReDoS checkers and regex engines (repetition counts past 2^31, nested and overlapping quantifiers, named groups
 * and backreferences, lookaround, Unicode property classes, invalid syntax, long patterns), in every position a
 * pattern can take, inside random hostile schemas. Each case must end within the time limit with modules (shape,
 * validator, codec module) or a ToonError with a code and a path, and the validator it made must answer a 10 KB
 * string quickly, whatever engine each pattern got.
 */
import { performance } from "node:perf_hooks";
import { schemaToIR } from "../../generator/load/index.ts";
import { buildDictionary } from "../../generator/dictionary/file.ts";
import { initHash } from "../../generator/dictionary/hash.ts";
import { emitModule } from "../../generator/emit/module.ts";
import { compileValidator, instantiateValidator } from "../../generator/validate/index.ts";
import { ToonError } from "../../runtime/wire/errors.ts";
import type { Rng } from "../support/rng.ts";
import { hostileSchema } from "./targets.ts";

/** A generation case must end within this (the bound for any schema up to 1 MB). */
export const GENERATION_MS_LIMIT = 10_000;
/** The generated validator on one 10 KB string (warm). */
export const VALIDATE_MS_LIMIT = 10;

const ATOMS = ["a", "b", "x", ".", "\\d", "\\w", "\\s", "\\S", "[a-z]", "[^/]", "\\p{L}", "\\P{Lu}", "\\p{Script=Greek}", "\\u{1F600}", "😀", "é", "\\/", "\\.", "$", "^", "\\b"];
const GROUPS: readonly ((inner: string) => string)[] = [
  (s) => `(${s})`,
  (s) => `(?:${s})`,
  (s) => `(?<g>${s})`,
  (s) => `(?=${s})`,
  (s) => `(?!${s})`,
  (s) => `(?<=${s})`,
  (s) => `(?<!${s})`,
  (s) => `(${s}|${s})`,
  (s) => `(${s}|${s}${s})`,
];
const QUANTIFIERS = ["", "", "*", "+", "?", "*?", "+?", "{2}", "{0,5}", "{3,}", "{1000}", "{0,65536}", "{99999999999}", "{2147483648}", "{2,1}"];
/** Whole patterns known to trouble checkers or engines. */
const CLASSICS = ["(a+)+$", "^(a|a)*$", "^(a|aa)+$", "(.*a){12}", "^(\\w+\\s?)*$", "^(([a-z])+.)+[A-Z]([a-z])+$", "(x+x+)+y", "^(a+)+\\1$", "(?<n>a+)+\\k<n>", "a{99999999999}", "[", "(", ")", "\\", "(?<>a)", "*", "a**", "[z-a]", "\\k<missing>", "(?<a>x)(?<a>y)", "\\u{110000}", "[\\S\\s]*(a+)+$", "^.*\\$\\{\\{(.|[\\r\\n])*\\}\\}.*$"];

/** A pattern built to break a checker: nested groups of random atoms and quantifiers, or a classic. */
export function hostilePattern(rng: Rng, depth = 0): string {
  if (depth === 0 && rng.chance(0.25)) return rng.pick(CLASSICS);
  let out = "";
  for (let n = rng.int(1, depth === 0 ? 5 : 3); n > 0; n--) {
    const atom = depth < 3 && rng.chance(0.35) ? rng.pick(GROUPS)(hostilePattern(rng, depth + 1)) : rng.pick(ATOMS);
    out += atom + rng.pick(QUANTIFIERS);
  }
  if (depth === 0 && rng.chance(0.05)) out = out.repeat(rng.int(20, 200)); // long patterns
  return out;
}

/** `pattern` in one of the places a schema holds patterns, inside a random hostile schema. */
export function patternSchema(rng: Rng, pattern: string): Record<string, unknown> {
  const place = rng.int(0, 4);
  const holder: Record<string, unknown> =
    place === 0
      ? { type: "string", pattern }
      : place === 1
        ? { type: "object", patternProperties: { [pattern]: { type: "integer" } } }
        : place === 2
          ? { type: "object", propertyNames: { pattern }, additionalProperties: { type: "string" } }
          : place === 3
            ? { type: "string", not: { pattern } }
            : { type: "object", properties: { p: { type: "string", pattern } }, patternProperties: { [pattern]: { type: "string" } } };
  // hostile schemas refer to `#/$defs/D` beside the reference, which resolves at the root only
  const other = hostileSchema(rng.fork());
  return { title: "PatternFuzz", type: "object", properties: { held: holder, other: JSON.stringify(other).includes('"$ref"') ? { type: "string" } : other } };
}

export interface GeneratorCase {
  outcome: "generated" | "refused" | "failure";
  detail: string;
  /** Wall time of the whole generation. */
  ms: number;
  /** The slowest validator call on a 10 KB string (generated cases). */
  validateMs: number;
}

/** 10 KB strings shaped to hurt backtracking: runs of one character with a breaking tail. */
function attackStrings(rng: Rng): string[] {
  const unit = rng.pick(["a", "ab", "/m", "${{", " ", "x"]);
  return [unit.repeat(Math.ceil(10_000 / unit.length)).slice(0, 9_999) + "!", "a".repeat(10_000), "\u00a0".repeat(5_000) + "é".repeat(5_000)];
}

/** Run one schema through the generator (shape, dictionary, module, validator) and its validator on hostile strings. */
export async function generatorCase(schema: Record<string, unknown>, rng: Rng): Promise<GeneratorCase> {
  await initHash();
  const started = performance.now();
  let validate: (data: unknown) => boolean;
  try {
    const ir = schemaToIR(schema, { source: "pattern-fuzz.schema.json" });
    emitModule(ir, buildDictionary(ir), { fileName: "pattern-fuzz.ts" });
    const compiled = await compileValidator({ document: schema, pointer: "", draft: 2020, baseUri: "https://fuzz.invalid/pattern-fuzz.json", load: () => ({}) });
    validate = instantiateValidator(compiled);
  } catch (e) {
    const ms = performance.now() - started;
    if (e instanceof ToonError && typeof e.path === "string" && typeof e.code === "string") return { outcome: ms > GENERATION_MS_LIMIT ? "failure" : "refused", detail: `${e.code}: ${e.message.slice(0, 160)}`, ms, validateMs: 0 };
    return { outcome: "failure", detail: `not a ToonError: ${(e as Error)?.stack ?? String(e)}`, ms, validateMs: 0 };
  }
  const ms = performance.now() - started;
  let validateMs = 0;
  for (const s of attackStrings(rng)) {
    const values = [{ held: s }, { held: { [s]: 1 } }, { held: { p: s } }];
    for (const v of values) {
      validate(v); // warm: re2js compiles its automaton on first use
      const t = performance.now();
      validate(v);
      validateMs = Math.max(validateMs, performance.now() - t);
    }
  }
  const slow = ms > GENERATION_MS_LIMIT ? `generation took ${ms.toFixed(0)} ms` : validateMs > VALIDATE_MS_LIMIT ? `validate took ${validateMs.toFixed(1)} ms on a 10 KB string` : "";
  return { outcome: slow === "" ? "generated" : "failure", detail: slow, ms, validateMs };
}

/**
 * A schema of about `bytes` (JSON) whose properties each hold a distinct pattern, slow to check or backtracking:
 * what makes a checker's total time, not one pattern's, the bound.
 */
export function manyPatternsSchema(rng: Rng, bytes: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    // counted repetitions (slow to certify) and backtracking ones (vulnerable, on re2js): none refused
    const pattern = rng.chance(0.5) ? `^[a-z]{${1 + (i % 90)}}-(x|y${i})+\\d{2,${3 + (i % 7)}}$` : `^(a|a${i})*(c+c+)+${rng.pick(["$", "x", "\\s*$"])}`;
    const p = { type: "string", pattern, description: "d".repeat(rng.int(0, 200)) };
    properties[`p${i}`] = p;
    size += JSON.stringify(p).length + 8;
  }
  return { title: "ManyPatterns", type: "object", properties };
}
