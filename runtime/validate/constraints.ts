/**
 * The constraint checker: every violation of a value against a shape of the codec descriptor (the one shape model,
 * ../codec/descriptor.ts), the value constraints the binary codec does not need included (`minLength`, `pattern`,
 * `minimum`, ...). A codec's `validate()` runs it after the shape check (`checkConstraints`, over the descriptor the
 * module embeds anyway), and a tool set on every call's arguments (../tools/tool-set.ts, over its call codec's
 * descriptor), so it sits below both. Its messages are the codec's (../codec/messages.ts): a wrong value reads the
 * same here, in `encode` and in a generated JSON Schema validator.
 *
 * The value is untrusted: nesting is bounded (MAX_CHECK_DEPTH, refs included), findings are capped (100), and every
 * finding has the JSON pointer of the value it is about.
 */
import type { CodecDescriptor, Constraints, ObjectShape, Shape, UnionShape } from "../codec/descriptor.ts";
import { formatOf } from "../codec/formats.ts";
import {
  boundMessage,
  constExpected,
  enumExpected,
  EXPECTED_ARRAY,
  EXPECTED_BOOLEAN,
  EXPECTED_DECIMAL_STRING,
  EXPECTED_JSON,
  EXPECTED_NULL,
  EXPECTED_OBJECT,
  EXPECTED_STRING,
  expectedGot,
  itemsMessage,
  lengthMessage,
  missingMessage,
  multipleOfMessage,
  oneOf,
  patternMessage,
  propertiesMessage,
  tupleExpected,
  unionExpected,
  uniqueMessage,
  unknownPropertyMessage,
} from "../codec/messages.ts";
import { someShape } from "../codec/plan.ts";
import { pointerSegment, type ToonErrorDetail } from "../wire/errors.ts";
import { isPlainObject, jsonEquals } from "../wire/objects.ts";
import { isUuid } from "../wire/uuid.ts";

/** Where `ref` shapes find their definitions: the shape named `name`, or undefined. */
export type DefinitionLookup = (name: string) => Shape | undefined;

/** Named definitions that `ref` shapes point to, as a record (what {@link checkShape} takes). */
export type ShapeDefs = Readonly<Record<string, Shape>>;

/** A compiled pattern: what checking needs of a RegExp, or of re2js's `RE2JS`. */
export interface PatternTest {
  test(input: string): boolean;
}

/** Pattern source -> the engine that runs it, where that is not RegExp. */
export type PatternTests = ReadonlyMap<string, PatternTest>;

/** Deeper than this (values or definitions that refer to themselves without consuming the value) is reported. */
export const MAX_CHECK_DEPTH = 256;

/** Stop collecting after this many findings (a huge wrong value should not produce a huge error). */
const MAX_VIOLATIONS = 100;

/**
 * Positions one check may visit, unions' tries of each branch included: a schema whose union branches all recurse
 * into the same value would otherwise take time exponential in the value's depth.
 */
export const MAX_CHECK_STEPS = 1_000_000;

/** What the checkers of one check share: the steps left. */
interface Budget {
  left: number;
}

const hasOwnProperty = Object.prototype.hasOwnProperty;

/** The shapes whose constraints the checker enforces (the others' are the schema's business only). */
const CONSTRAINED = new Set<Shape["kind"]>(["string", "integer", "number", "object", "array", "tuple"]);

/** A canonical int64 string: what a decimal string position holds. */
const DECIMAL = /^-?(0|[1-9][0-9]*)$/;

const patternCache = new Map<string, RegExp | null>();

function regex(pattern: string): RegExp | null {
  let re = patternCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, "u");
    } catch {
      try {
        re = new RegExp(pattern);
      } catch {
        re = null; // not a pattern this engine understands: not checked (the generator warned)
      }
    }
    if (patternCache.size > 1000) patternCache.clear();
    patternCache.set(pattern, re);
  }
  return re;
}

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Key-order independent text of a JSON value (uniqueItems). */
function canonical(v: unknown): string {
  if (v === null || typeof v !== "object") return typeof v === "bigint" ? `${v}n` : JSON.stringify(v) ?? "undefined";
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  const keys = Object.keys(v).filter((k) => (v as Record<string, unknown>)[k] !== undefined).sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical((v as Record<string, unknown>)[k])).join(",") + "}";
}

class Checker {
  readonly out: ToonErrorDetail[] = [];
  /** The value at `root` is of no type its shape takes (a union tells the branches that fit by it). */
  wrongType = false;

  constructor(
    private readonly defs: DefinitionLookup,
    private readonly patterns: PatternTests | undefined,
    private readonly root: string,
    readonly budget: Budget,
  ) {}

  add(path: string, message: string): void {
    if (this.out.length < MAX_VIOLATIONS) this.out.push({ path, message });
  }

  /** A value of the wrong type (or format) at `path`. */
  expected(path: string, expected: string, v: unknown): void {
    if (path === this.root) this.wrongType = true;
    this.add(path, expectedGot(expected, v));
  }

  full(): boolean {
    return this.out.length >= MAX_VIOLATIONS;
  }

  check(v: unknown, s: Shape, path: string, depth: number): void {
    if (this.full()) return;
    if (--this.budget.left < 0) return;
    if (depth > MAX_CHECK_DEPTH) return this.add(path, `nested deeper than ${MAX_CHECK_DEPTH} levels`);
    switch (s.kind) {
      case "string": {
        if (typeof v !== "string") return this.expected(path, EXPECTED_STRING, v);
        const f = formatOf(s);
        if (f.check.int64 && !DECIMAL.test(v)) return this.expected(path, EXPECTED_DECIMAL_STRING, v);
        if (f.check.uuid && !isUuid(v)) return this.expected(path, f.expected, v);
        return this.stringConstraints(v, s.constraints, path);
      }
      case "integer": {
        const f = formatOf(s);
        if (typeof v === "bigint" && f.check.int64) return this.numberConstraints(Number(v), v, s.constraints, path);
        if (typeof v !== "number" || !Number.isInteger(v)) return this.expected(path, f.expected, v);
        return this.numberConstraints(v, v, s.constraints, path);
      }
      case "number":
        if (typeof v !== "number" || !Number.isFinite(v)) return this.expected(path, formatOf(s).expected, v);
        return this.numberConstraints(v, v, s.constraints, path);
      case "boolean":
        if (typeof v !== "boolean") this.expected(path, EXPECTED_BOOLEAN, v);
        return;
      case "null":
        if (v !== null) this.expected(path, EXPECTED_NULL, v);
        return;
      case "any":
        if (v === undefined) this.expected(path, EXPECTED_JSON, v);
        return;
      case "enum":
        for (const x of s.values) if (jsonEquals(v, x)) return;
        return this.add(path, expectedGot(enumExpected(s.values), v));
      case "const":
        if (!jsonEquals(v, s.value)) this.add(path, expectedGot(constExpected(s.value), v));
        return;
      case "ref": {
        const d = this.defs(s.name);
        if (d === undefined) return this.add(path, `internal: no definition ${s.name}`);
        return this.check(v, d, path, depth + 1);
      }
      case "object":
        return this.object(v, s, path, depth);
      case "array": {
        if (!Array.isArray(v)) return this.expected(path, EXPECTED_ARRAY, v);
        this.arrayConstraints(v, s.constraints, path);
        for (let i = 0; i < v.length && !this.full(); i++) this.check(v[i], s.items, path + "/" + i, depth + 1);
        return;
      }
      case "tuple": {
        if (!Array.isArray(v)) return this.expected(path, EXPECTED_ARRAY, v);
        this.arrayConstraints(v, s.constraints, path);
        const max = s.rest === false ? s.items.length : -1;
        if (v.length < s.minItems || (max >= 0 && v.length > max)) this.add(path, expectedGot(tupleExpected(s.minItems, max), v));
        const n = max >= 0 ? Math.min(v.length, max) : v.length;
        for (let i = 0; i < n && !this.full(); i++) this.check(v[i], i < s.items.length ? s.items[i]! : (s.rest as Shape), path + "/" + i, depth + 1);
        return;
      }
      case "union":
        return this.union(v, s, path, depth);
    }
  }

  private object(v: unknown, s: ObjectShape, path: string, depth: number): void {
    if (!isPlainObject(v)) return this.expected(path, EXPECTED_OBJECT, v);
    const declared = new Set<string>();
    let count = 0;
    for (const k in v) if (hasOwnProperty.call(v, k) && v[k] !== undefined) count++;
    for (const p of s.properties) {
      const name = p.name;
      declared.add(name);
      const present = hasOwnProperty.call(v, name) && v[name] !== undefined;
      if (!present) {
        if (p.required) this.add(path + pointerSegment(name), missingMessage(name));
        continue;
      }
      this.check(v[name], p.shape, path + pointerSegment(name), depth + 1);
    }
    for (const k in v) {
      if (this.full()) break;
      if (!hasOwnProperty.call(v, k) || declared.has(k) || v[k] === undefined) continue;
      if (s.additional === false) this.add(path + pointerSegment(k), unknownPropertyMessage(k));
      else this.check(v[k], s.additional, path + pointerSegment(k), depth + 1);
    }
    const c = s.constraints;
    if (c?.minProperties !== undefined && count < c.minProperties) this.add(path, propertiesMessage(true, c.minProperties, count));
    if (c?.maxProperties !== undefined && count > c.maxProperties) this.add(path, propertiesMessage(false, c.maxProperties, count));
  }

  private union(v: unknown, s: UnionShape, path: string, depth: number): void {
    const d = s.discriminator;
    if (d !== undefined && isPlainObject(v)) {
      // the branch the tag names (the encoder picks it so): its findings are the useful ones
      const key = d.property;
      const tag = hasOwnProperty.call(v, key) ? v[key] : undefined;
      const i = tag === undefined ? -1 : d.values.findIndex((x) => jsonEquals(tag, x));
      if (i >= 0 && i < s.branches.length) return this.check(v, s.branches[i]!, path, depth + 1);
      return this.add(path + pointerSegment(key), expectedGot(oneOf(d.values), tag));
    }
    // the branches whose type fits: when exactly one does, its findings are the useful ones
    let fitting: ToonErrorDetail[] | undefined;
    let fits = 0;
    for (const b of s.branches) {
      const sub = new Checker(this.defs, this.patterns, path, this.budget);
      sub.check(v, b, path, depth + 1);
      if (sub.out.length === 0 && this.budget.left >= 0) return;
      if (!sub.wrongType) {
        fits++;
        fitting ??= sub.out;
      }
    }
    if (fits === 1 && fitting !== undefined) {
      for (const x of fitting) this.add(x.path, x.message);
      return;
    }
    this.add(path, expectedGot(unionExpected(s.branches.length), v));
  }

  private stringConstraints(v: string, c: Constraints | undefined, path: string): void {
    if (c === undefined) return;
    if (c.minLength !== undefined || c.maxLength !== undefined) {
      const n = codePoints(v);
      if (c.minLength !== undefined && n < c.minLength) this.add(path, lengthMessage(true, c.minLength, n));
      if (c.maxLength !== undefined && n > c.maxLength) this.add(path, lengthMessage(false, c.maxLength, n));
    }
    if (c.pattern !== undefined) {
      const re = this.patterns?.get(c.pattern) ?? regex(c.pattern);
      if (re !== null && !re.test(v)) this.add(path, patternMessage(c.pattern, v));
    }
  }

  /** `n`: the value as a number (an int64 bigint's nearest double); `v`: the value itself, for the message. */
  private numberConstraints(n: number, v: unknown, c: Constraints | undefined, path: string): void {
    if (c === undefined) return;
    if (c.minimum !== undefined && n < c.minimum) this.add(path, boundMessage(">=", c.minimum, v));
    if (c.maximum !== undefined && n > c.maximum) this.add(path, boundMessage("<=", c.maximum, v));
    if (c.exclusiveMinimum !== undefined && n <= c.exclusiveMinimum) this.add(path, boundMessage(">", c.exclusiveMinimum, v));
    if (c.exclusiveMaximum !== undefined && n >= c.exclusiveMaximum) this.add(path, boundMessage("<", c.exclusiveMaximum, v));
    if (c.multipleOf !== undefined && c.multipleOf > 0) {
      const q = n / c.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9) this.add(path, multipleOfMessage(c.multipleOf, v));
    }
  }

  private arrayConstraints(v: unknown[], c: Constraints | undefined, path: string): void {
    if (c === undefined) return;
    if (c.minItems !== undefined && v.length < c.minItems) this.add(path, itemsMessage(true, c.minItems, v.length));
    if (c.maxItems !== undefined && v.length > c.maxItems) this.add(path, itemsMessage(false, c.maxItems, v.length));
    if (c.uniqueItems) {
      const seen = new Map<string, number>();
      for (let i = 0; i < v.length; i++) {
        const k = canonical(v[i]);
        const j = seen.get(k);
        if (j !== undefined) {
          this.add(path + "/" + i, uniqueMessage(j, i));
          break;
        }
        seen.set(k, i);
      }
    }
  }
}

/**
 * Every violation of `value` against `shape` (up to 100), with JSON-pointer paths under `path`; `defs` are where
 * its `ref`s point. `patterns` names the patterns that run on another engine than RegExp (re2js).
 */
export function violations(value: unknown, shape: Shape, defs: DefinitionLookup, path = "", patterns?: PatternTests): ToonErrorDetail[] {
  const c = new Checker(defs, patterns, path, { left: MAX_CHECK_STEPS });
  c.check(value, shape, path, 0);
  if (c.budget.left < 0) c.out.push({ path, message: `too complex to check (more than ${MAX_CHECK_STEPS} positions)` });
  return c.out;
}

/**
 * Every violation of `value` against `shape`, a shape of the codec descriptor (`@toon-gen/runtime/codec` `Shape`),
 * up to 100, with JSON-pointer paths under `path`; `defs` are the definitions its `ref`s name. `patterns` names the
 * patterns that run on another engine than RegExp (a tool set's re2js patterns).
 */
export function checkShape(value: unknown, shape: Shape, defs: ShapeDefs = {}, path = "", patterns?: PatternTests): ToonErrorDetail[] {
  return violations(value, shape, (name) => (hasOwnProperty.call(defs, name) ? defs[name] : undefined), path, patterns);
}

const lookups = new WeakMap<CodecDescriptor, DefinitionLookup>();

/** The definitions of a descriptor by name (built once per descriptor). */
export function definitionsOf(d: CodecDescriptor): DefinitionLookup {
  let f = lookups.get(d);
  if (f === undefined) {
    const byName = new Map(d.definitions.map((x) => [x.name, x.shape]));
    f = (name) => byName.get(name);
    lookups.set(d, f);
  }
  return f;
}

/**
 * Every value-constraint violation of `value` (minLength, pattern, minimum, ...) against the codec's descriptor:
 * what a generated `validate()` runs after the shape check, from the descriptor the module embeds anyway.
 * `patterns`: the patterns that run on another engine than RegExp (re2js, generator/load/patterns.ts).
 */
export function checkConstraints(value: unknown, d: CodecDescriptor, patterns?: PatternTests): ToonErrorDetail[] {
  return violations(value, d.root, definitionsOf(d), "", patterns);
}

/** The shape behind `s`'s refs (undefined for a missing definition or a cycle of refs). */
export function deref(s: Shape, defs: DefinitionLookup): Shape | undefined {
  let cur: Shape | undefined = s;
  for (let i = 0; cur !== undefined && cur.kind === "ref" && i < 32; i++) cur = defs(cur.name);
  return cur?.kind === "ref" ? undefined : cur;
}

/**
 * Whether any of `shapes` (and the shapes under them) has a constraint the checker enforces: a codec's `validate()`
 * runs the checker only then (the shape check alone finds everything else). The generator asks it of the IR, the
 * engine of the descriptor: the same answer, since the descriptor keeps every enforced constraint.
 */
export function hasConstraints(shapes: Iterable<Shape>): boolean {
  return someShape(shapes, (s) => CONSTRAINED.has(s.kind) && s.constraints !== undefined && enforces(s.constraints));
}

function enforces(c: Constraints): boolean {
  for (const k of Object.keys(c) as (keyof Constraints)[]) if (k !== "unchecked" && c[k] !== undefined) return true;
  return false;
}
