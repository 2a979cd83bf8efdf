/**
 * Union branch selection on encode. When branches differ in JSON type (string / number / object ...), a
 * `typeof` test picks the branch and the branch's own checks report any deeper mismatch with a precise path.
 * When several branches share a JSON type, generated structural predicates (`$isN`) decide, first match wins.
 */
import { formatOf } from "../../runtime/codec/formats.ts";
import { planBranches, type Category } from "../../runtime/codec/plan.ts";
import type { Shape } from "../ir/types.ts";
import { Code, code, join, jsonBlock, lit, name, raw } from "../../templates/code.ts";
import { chunkBlocks, isPrimitive, linesOf, Locals, MAX_FUNCTION_LINES, type ModuleContext } from "./context.ts";
import { indentBy, readProp } from "./code-helpers.ts";

function categoryTest(cats: Set<Category>, v: Code): Code {
  const tests = [...cats].map((c) => {
    switch (c) {
      case "null":
        return code`${v} === null`;
      case "array":
        return code`$isArray(${v})`;
      case "object":
        return code`(typeof ${v} === "object" && ${v} !== null && !$isArray(${v}))`;
      case "number":
        return code`typeof ${v} === "number"`;
      default:
        return code`typeof ${v} === ${c}`;
    }
  });
  return tests.length === 1 ? tests[0]! : code`(${join(tests, " || ")})`;
}

export interface BranchChoice {
  index: number;
  /** Undefined: the arm is the final `else`. */
  test?: Code;
}

export function chooseBranches(branches: Shape[], v: Code, cx: ModuleContext): BranchChoice[] {
  return planBranches(branches, cx).map((b) => {
    if (b.test === "else") return { index: b.index };
    return { index: b.index, test: b.test === "categories" ? categoryTest(new Set(b.categories), v) : predicate(branches[b.index]!, v, cx) };
  });
}

/** A boolean expression: does `v` fit `s` exactly as the encoder will accept it? */
export function predicate(s: Shape, v: Code, cx: ModuleContext): Code {
  switch (s.kind) {
    case "string": {
      // a format that takes only some strings (uuid) tests them, so a union tries the next branch for the others
      const test = formatOf(s).test;
      return test !== undefined ? code`${raw("$rt." + test.name)}(${v})` : code`typeof ${v} === "string"`;
    }
    case "integer":
      // what the integer writers take (as the engine's predicate.ts): every integral double, and for int64 a
      // bigint within 64 bits
      return s.int64
        ? code`(typeof ${v} === "bigint" ? ${v} >= -0x8000000000000000n && ${v} < 0x10000000000000000n : typeof ${v} === "number" && $isInteger(${v}))`
        : code`(typeof ${v} === "number" && $isInteger(${v}))`;
    case "number":
      return code`(typeof ${v} === "number" && ${v} - ${v} === 0)`;
    case "boolean":
      return code`typeof ${v} === "boolean"`;
    case "null":
      return code`${v} === null`;
    case "any":
      return code`$rt.isJsonLike(${v})`;
    case "const":
      return isPrimitive(s.value) ? code`${v} === ${lit(s.value)}` : code`$rt.jsonEquals(${v}, ${cx.jsonConstant(s.value, s)})`;
    case "enum":
      if (s.values.every(isPrimitive)) {
        return code`${cx.constant("set", code`/*@__PURE__*/ new Set<unknown>(${jsonBlock(s.values)})`, s)}.has(${v})`;
      }
      return code`${cx.jsonConstant(s.values, s)}.some((x: unknown) => $rt.jsonEquals(x, ${v}))`;
    case "ref":
      return code`${predicateFunction(s, cx, "def:" + s.name)}(${v})`;
    default:
      return code`${predicateFunction(s, cx)}(${v})`;
  }
}

/** Whether `predicate(s, v)` is false when `v` is undefined (JSON values only, no test that could take it). */
function rejectsUndefined(s: Shape, cx: ModuleContext, seen = new Set<string>()): boolean {
  switch (s.kind) {
    case "string":
      return formatOf(s).test === undefined;
    case "integer":
    case "number":
    case "boolean":
    case "null":
    case "object":
    case "array":
    case "tuple":
      return true;
    case "const":
      return isPrimitive(s.value);
    case "enum":
      return s.values.every(isPrimitive);
    case "ref":
      if (seen.has(s.name)) return false;
      seen.add(s.name);
      return rejectsUndefined(cx.def(s.name).shape, cx, seen);
    case "union":
      return s.branches.every((x) => rejectsUndefined(x, cx, seen));
    default:
      return false;
  }
}

function predicateFunction(s: Shape, cx: ModuleContext, key?: string): Code {
  const k = key ?? "shape:" + JSON.stringify(s);
  const known = cx.predicates.get(k);
  if (known) return known.fn;
  const fn = cx.uniqueName(s.kind === "ref" ? `$is${s.name}` : `$is_${cx.nameOf(s)}`);
  cx.predicates.set(k, { fn, shape: s.kind === "ref" ? cx.def(s.name).shape : s });
  return fn;
}

/** The body of a structural predicate function over `v`. */
export function emitPredicateFunction(fn: Code, s: Shape, cx: ModuleContext): Code {
  const v = name("v");
  let body: Code;
  switch (s.kind) {
    case "object": {
      const lines: Code[] = [code`if (typeof v !== "object" || v === null || $isArray(v)) return false;`];
      const L = new Locals();
      const checks = s.properties.map((p) => {
        const f = L.fresh("v", p.name);
        // a required property whose test fails on undefined anyway, read once: one line, no local
        if (p.required && rejectsUndefined(p.shape, cx)) {
          const test = predicate(p.shape, f, cx);
          if (test.text.split(f.text).length === 2) return code`if (!(${predicate(p.shape, readProp(v, p.name), cx)})) return false;`;
        }
        return code`const ${f} = ${readProp(v, p.name)};
${p.required ? code`if (${f} === undefined || !(${predicate(p.shape, f, cx)})) return false;` : code`if (${f} !== undefined && !(${predicate(p.shape, f, cx)})) return false;`}`;
      });
      if (linesOf(checks) <= MAX_FUNCTION_LINES) lines.push(...checks);
      else {
        // too big for one function (see MAX_FUNCTION_LINES): chunks of property checks in helpers
        for (const group of chunkBlocks(checks.map((c) => ({ code: c })))) {
          const fn = cx.helper("P", s, (fn) => code`function ${fn}(v: any): boolean {
${indentBy(join([...group.map((g) => g.code), code`return true;`]), "  ")}
}`);
          lines.push(code`if (!${fn}(v)) return false;`);
        }
      }
      const known = cx.knownKeys(s.properties.map((p) => p.name), s);
      if (s.additional === false) lines.push(code`if ($rt.extraKeys(v, ${known}) !== undefined) return false;`);
      else if (s.additional.kind === "any") {
        // a bigint among the extra keys belongs to another branch (as the engine's predicate.ts)
        lines.push(code`if (!$rt.extrasAreJson(v, ${known})) return false;`);
      } else {
        lines.push(code`for (const k of $rt.extraKeys(v, ${known}) ?? []) {
  const e = v[k];
  if (!(${predicate(s.additional, name("e"), cx)})) return false;
}`);
      }
      lines.push(code`return true;`);
      body = join(lines);
      break;
    }
    case "array":
      body = code`if (!$isArray(v)) return false;
for (const e of v) if (!(${predicate(s.items, name("e"), cx)})) return false;
return true;`;
      break;
    case "tuple": {
      const lines: Code[] = [code`if (!$isArray(v) || v.length < ${s.minItems}${s.rest === false ? code` || v.length > ${s.items.length}` : raw("")}) return false;`];
      s.items.forEach((item, i) => lines.push(code`if (v.length > ${i} && !(${predicate(item, code`v[${i}]`, cx)})) return false;`));
      if (s.rest !== false) {
        lines.push(code`for (let i = ${s.items.length}; i < v.length; i++) {
  const e = v[i];
  if (!(${predicate(s.rest, name("e"), cx)})) return false;
}`);
      }
      lines.push(code`return true;`);
      body = join(lines);
      break;
    }
    case "union":
      body = code`return ${join(s.branches.map((b) => code`(${predicate(b, v, cx)})`), " || ")};`;
      break;
    default:
      body = code`return ${predicate(s, v, cx)};`;
  }
  return code`function ${fn}(v: any): boolean {
${indentBy(body, "  ")}
}`;
}

/**
 * Emit every requested predicate not in `done` (which it updates): emitting one may request more, so this runs
 * until nothing new appears.
 */
export function emitPendingPredicates(cx: ModuleContext, done: Set<string>): Code[] {
  const out: Code[] = [];
  for (let again = true; again; ) {
    again = false;
    for (const [key, p] of [...cx.predicates]) {
      if (done.has(key)) continue;
      done.add(key);
      again = true;
      out.push(emitPredicateFunction(p.fn, p.shape, cx));
    }
  }
  return out;
}
