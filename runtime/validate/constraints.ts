/**
 * The constraint checker: every violation of a value against a check shape (the generator's shape IR without
 * source paths and descriptions, plain JSON data), including the value constraints (`minLength`, `pattern`,
 * `minimum`, ...) the binary codec does not need. A codec's `validate()` runs it after the shape check
 * (../codec/check-shape.ts builds the shapes from a descriptor) and a tool set runs it on every call's arguments
 * (../tools/tool-set.ts), so it sits below both.
 */
import { EXPECTED_UUID } from "../codec/messages.ts";
import { pointerSegment, type ToonErrorDetail } from "../errors.ts";
import { isPlainObject, jsonEquals } from "../objects.ts";
import { isUuid } from "../uuid.ts";

/** Value constraints kept from the schema (the names of the JSON Schema keywords). */
export interface CheckConstraints {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
}

export type CheckShape =
  | { kind: "string"; int64?: boolean; uuid?: boolean; c?: CheckConstraints }
  | { kind: "integer"; int64?: boolean; c?: CheckConstraints }
  | { kind: "number"; c?: CheckConstraints }
  | { kind: "boolean" }
  | { kind: "null" }
  | { kind: "any" }
  | { kind: "enum"; values: readonly unknown[] }
  | { kind: "const"; value: unknown }
  | { kind: "object"; properties: readonly (readonly [name: string, required: boolean, shape: CheckShape])[]; additional: CheckShape | false; c?: CheckConstraints }
  | { kind: "array"; items: CheckShape; c?: CheckConstraints }
  | { kind: "tuple"; items: readonly CheckShape[]; minItems: number; rest: CheckShape | false; c?: CheckConstraints }
  | { kind: "union"; branches: readonly CheckShape[]; discriminator?: string }
  | { kind: "ref"; name: string };

/** Named definitions that `ref` shapes point to. */
export type CheckDefs = Readonly<Record<string, CheckShape>>;

/** Deeper than this (values or definitions that refer to themselves without consuming the value) is reported. */
export const MAX_CHECK_DEPTH = 256;

/** Stop collecting after this many findings (a huge wrong value should not produce a huge error). */
const MAX_VIOLATIONS = 100;

const hasOwnProperty = Object.prototype.hasOwnProperty;

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

export function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return "a string";
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a number";
  if (typeof v === "boolean") return "a boolean";
  return typeof v;
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
  constructor(
    private readonly defs: CheckDefs,
    private readonly patterns: PatternTests | undefined,
  ) {}

  add(path: string, message: string): void {
    if (this.out.length < MAX_VIOLATIONS) this.out.push({ path, message });
  }

  full(): boolean {
    return this.out.length >= MAX_VIOLATIONS;
  }

  check(v: unknown, s: CheckShape, path: string, depth: number): void {
    if (this.full()) return;
    if (depth > MAX_CHECK_DEPTH) return this.add(path, `nested deeper than ${MAX_CHECK_DEPTH} levels`);
    switch (s.kind) {
      case "string":
        if (typeof v !== "string") return this.add(path, `expected a string, got ${typeName(v)}`);
        if (s.int64 && !/^-?(0|[1-9][0-9]*)$/.test(v)) return this.add(path, "expected a decimal integer in a string");
        if (s.uuid && !isUuid(v)) return this.add(path, `expected ${EXPECTED_UUID}`);
        return this.stringConstraints(v, s.c, path);
      case "integer":
        if (typeof v === "bigint" && s.int64) return this.numberConstraints(Number(v), s.c, path);
        if (typeof v !== "number" || !Number.isInteger(v)) return this.add(path, `expected an integer, got ${typeName(v)}${typeof v === "number" ? ` (${v})` : ""}`);
        return this.numberConstraints(v, s.c, path);
      case "number":
        if (typeof v !== "number" || !Number.isFinite(v)) return this.add(path, `expected a number, got ${typeName(v)}`);
        return this.numberConstraints(v, s.c, path);
      case "boolean":
        if (typeof v !== "boolean") this.add(path, `expected a boolean, got ${typeName(v)}`);
        return;
      case "null":
        if (v !== null) this.add(path, `expected null, got ${typeName(v)}`);
        return;
      case "any":
        if (v === undefined) this.add(path, "expected a JSON value");
        return;
      case "enum":
        for (const x of s.values) if (jsonEquals(v, x)) return;
        return this.add(path, `must be one of ${listValues(s.values)}`);
      case "const":
        if (!jsonEquals(v, s.value)) this.add(path, `must be ${JSON.stringify(s.value)}`);
        return;
      case "ref": {
        const d = hasOwnProperty.call(this.defs, s.name) ? this.defs[s.name] : undefined;
        if (d === undefined) return this.add(path, `internal: no definition ${s.name}`);
        return this.check(v, d, path, depth + 1);
      }
      case "object":
        return this.object(v, s, path, depth);
      case "array": {
        if (!Array.isArray(v)) return this.add(path, `expected an array, got ${typeName(v)}`);
        this.arrayConstraints(v, s.c, path);
        for (let i = 0; i < v.length && !this.full(); i++) this.check(v[i], s.items, path + "/" + i, depth + 1);
        return;
      }
      case "tuple": {
        if (!Array.isArray(v)) return this.add(path, `expected an array, got ${typeName(v)}`);
        this.arrayConstraints(v, s.c, path);
        if (v.length < s.minItems) this.add(path, `expected at least ${s.minItems} items, got ${v.length}`);
        for (let i = 0; i < v.length && !this.full(); i++) {
          const item = i < s.items.length ? s.items[i]! : s.rest;
          if (item === false) {
            this.add(path + "/" + i, `unexpected item (at most ${s.items.length} allowed)`);
            break;
          }
          this.check(v[i], item, path + "/" + i, depth + 1);
        }
        return;
      }
      case "union":
        return this.union(v, s, path, depth);
    }
  }

  private object(v: unknown, s: Extract<CheckShape, { kind: "object" }>, path: string, depth: number): void {
    if (!isPlainObject(v)) return this.add(path, `expected an object, got ${typeName(v)}`);
    const declared = new Set<string>();
    let count = 0;
    for (const k in v) if (hasOwnProperty.call(v, k) && v[k] !== undefined) count++;
    for (const [name, required, shape] of s.properties) {
      declared.add(name);
      const present = hasOwnProperty.call(v, name) && v[name] !== undefined;
      if (!present) {
        if (required) this.add(path + pointerSegment(name), "required property is missing");
        continue;
      }
      this.check(v[name], shape, path + pointerSegment(name), depth + 1);
    }
    for (const k in v) {
      if (this.full()) break;
      if (!hasOwnProperty.call(v, k) || declared.has(k) || v[k] === undefined) continue;
      if (s.additional === false) this.add(path + pointerSegment(k), "unknown property (the schema allows no additional properties)");
      else this.check(v[k], s.additional, path + pointerSegment(k), depth + 1);
    }
    const c = s.c;
    if (c?.minProperties !== undefined && count < c.minProperties) this.add(path, `expected at least ${c.minProperties} properties, got ${count}`);
    if (c?.maxProperties !== undefined && count > c.maxProperties) this.add(path, `expected at most ${c.maxProperties} properties, got ${count}`);
  }

  private union(v: unknown, s: Extract<CheckShape, { kind: "union" }>, path: string, depth: number): void {
    if (s.discriminator !== undefined && isPlainObject(v)) {
      const key = s.discriminator;
      const tag = hasOwnProperty.call(v, key) ? v[key] : undefined;
      const values: unknown[] = [];
      for (const b of s.branches) {
        const o = this.deref(b);
        const p = o?.kind === "object" ? o.properties.find((q) => q[0] === key) : undefined;
        const t = p === undefined ? undefined : this.deref(p[2]);
        const value = t?.kind === "const" ? t.value : undefined;
        values.push(value);
        if (tag !== undefined && jsonEquals(tag, value)) return this.check(v, b, path, depth + 1);
      }
      if (tag === undefined) return this.add(path + pointerSegment(key), `required property is missing (one of ${listValues(values)})`);
      return this.add(path + pointerSegment(key), `must be one of ${listValues(values)}`);
    }
    // the branches whose type fits: when exactly one does, its findings are the useful ones
    let fitting: ToonErrorDetail[] | undefined;
    let fits = 0;
    for (const b of s.branches) {
      const sub = new Checker(this.defs, this.patterns);
      sub.check(v, b, path, depth + 1);
      if (sub.out.length === 0) return;
      if (!sub.out.some((d) => d.path === path && d.message.startsWith("expected "))) {
        fits++;
        fitting ??= sub.out;
      }
    }
    if (fits === 1 && fitting !== undefined) {
      for (const d of fitting) this.add(d.path, d.message);
      return;
    }
    this.add(path, `matches none of the ${s.branches.length} alternatives (got ${typeName(v)})`);
  }

  private deref(s: CheckShape): CheckShape | undefined {
    return deref(s, this.defs);
  }

  private stringConstraints(v: string, c: CheckConstraints | undefined, path: string): void {
    if (c === undefined) return;
    if (c.minLength !== undefined || c.maxLength !== undefined) {
      const n = codePoints(v);
      if (c.minLength !== undefined && n < c.minLength) this.add(path, `expected at least ${c.minLength} character${c.minLength === 1 ? "" : "s"}, got ${n}`);
      if (c.maxLength !== undefined && n > c.maxLength) this.add(path, `expected at most ${c.maxLength} character${c.maxLength === 1 ? "" : "s"}, got ${n}`);
    }
    if (c.pattern !== undefined) {
      const re = this.patterns?.get(c.pattern) ?? regex(c.pattern);
      if (re !== null && !re.test(v)) this.add(path, `does not match the pattern ${JSON.stringify(c.pattern)}`);
    }
  }

  private numberConstraints(v: number, c: CheckConstraints | undefined, path: string): void {
    if (c === undefined) return;
    if (c.minimum !== undefined && v < c.minimum) this.add(path, `must be >= ${c.minimum}, got ${v}`);
    if (c.maximum !== undefined && v > c.maximum) this.add(path, `must be <= ${c.maximum}, got ${v}`);
    if (c.exclusiveMinimum !== undefined && v <= c.exclusiveMinimum) this.add(path, `must be > ${c.exclusiveMinimum}, got ${v}`);
    if (c.exclusiveMaximum !== undefined && v >= c.exclusiveMaximum) this.add(path, `must be < ${c.exclusiveMaximum}, got ${v}`);
    if (c.multipleOf !== undefined && c.multipleOf > 0) {
      const q = v / c.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9) this.add(path, `must be a multiple of ${c.multipleOf}, got ${v}`);
    }
  }

  private arrayConstraints(v: unknown[], c: CheckConstraints | undefined, path: string): void {
    if (c === undefined) return;
    if (c.minItems !== undefined && v.length < c.minItems) this.add(path, `expected at least ${c.minItems} items, got ${v.length}`);
    if (c.maxItems !== undefined && v.length > c.maxItems) this.add(path, `expected at most ${c.maxItems} items, got ${v.length}`);
    if (c.uniqueItems) {
      const seen = new Map<string, number>();
      for (let i = 0; i < v.length; i++) {
        const k = canonical(v[i]);
        const j = seen.get(k);
        if (j !== undefined) {
          this.add(path + "/" + i, `duplicate of item ${j} (items must be unique)`);
          break;
        }
        seen.set(k, i);
      }
    }
  }
}

export function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, 12).map((x) => JSON.stringify(x) ?? String(x));
  return shown.join(", ") + (values.length > 12 ? `, ... (${values.length} in all)` : "");
}

/**
 * Every violation of `value` against `shape` (up to 100), with JSON-pointer paths under `path`. `patterns` names
 * the patterns that run on another engine than RegExp (a tool set's re2js patterns).
 */
export function checkShape(value: unknown, shape: CheckShape, defs: CheckDefs = {}, path = "", patterns?: PatternTests): ToonErrorDetail[] {
  const c = new Checker(defs, patterns);
  c.check(value, shape, path, 0);
  return c.out;
}

/** A compiled pattern: what checking needs of a RegExp, or of re2js's `RE2JS`. */
export interface PatternTest {
  test(input: string): boolean;
}

/** Pattern source -> the engine that runs it, where that is not RegExp. */
export type PatternTests = ReadonlyMap<string, PatternTest>;

/** The shape behind `s`'s refs (undefined for a missing definition or a cycle of refs). */
export function deref(s: CheckShape, defs: CheckDefs): CheckShape | undefined {
  let cur: CheckShape | undefined = s;
  for (let i = 0; cur !== undefined && cur.kind === "ref" && i < 32; i++) cur = hasOwnProperty.call(defs, cur.name) ? defs[cur.name] : undefined;
  return cur;
}
