/**
 * The engine's structural predicates, twin of those in generator/emit/predicate.ts (union branch selection when branches
 * share a JSON type): `predicateOf(s)(v)` is true exactly when the generated `predicate(s, v)` is.
 */
import { formatOf } from "../formats.ts";
import type { Shape } from "../descriptor.ts";
import type { Category, DefinitionLookup } from "../plan.ts";
import { isJsonLike, extrasAreJson, extraKeys, jsonEquals } from "../../wire/objects.ts";
import { isPrimitive, propReader } from "./props.ts";

export type Predicate = (v: any) => boolean;

const isArray = Array.isArray;
const isInteger = Number.isInteger;

/** The cheap JSON-type test of a union arm (`categoryTest` in the emitter). */
export function categoryTest(cats: readonly Category[]): Predicate {
  const tests = cats.map(oneCategory);
  if (tests.length === 1) return tests[0]!;
  return (v) => {
    for (let i = 0; i < tests.length; i++) if (tests[i]!(v)) return true;
    return false;
  };
}

function oneCategory(c: Category): Predicate {
  switch (c) {
    case "null":
      return (v) => v === null;
    case "array":
      return (v) => isArray(v);
    case "object":
      return (v) => typeof v === "object" && v !== null && !isArray(v);
    case "number":
      return (v) => typeof v === "number";
    case "string":
      return (v) => typeof v === "string";
    case "bigint":
      return (v) => typeof v === "bigint";
    case "boolean":
      return (v) => typeof v === "boolean";
    case "*":
      // never reached: a "*" branch always overlaps and gets a structural predicate (the emitter would write
      // `typeof v === "*"`, which is always false)
      return () => false;
  }
}

export class PredicateCompiler {
  /** One predicate per named definition, filled after compilation so recursive definitions can refer to it. */
  private defs = new Map<string, { fn: Predicate }>();

  constructor(private readonly plan: DefinitionLookup) {}

  predicateOf(s: Shape): Predicate {
    switch (s.kind) {
      case "string": {
        // a format that takes only some strings (uuid) tests them, so a union tries the next branch for the others
        const test = formatOf(s).test;
        return test !== undefined ? test.fn : (v) => typeof v === "string";
      }
      case "integer":
        // what the integer writers take: every integral double (beyond 64 bits too, FORMAT §3.2), and for int64 a
        // bigint within 64 bits
        return s.int64
          ? (v) => (typeof v === "bigint" ? v >= -0x8000000000000000n && v < 0x10000000000000000n : typeof v === "number" && isInteger(v))
          : (v) => typeof v === "number" && isInteger(v);
      case "number":
        return (v) => typeof v === "number" && v - v === 0;
      case "boolean":
        return (v) => typeof v === "boolean";
      case "null":
        return (v) => v === null;
      case "any":
        return isJsonLike;
      case "const": {
        const c = s.value;
        return isPrimitive(c) ? (v) => v === c : (v) => jsonEquals(v, c);
      }
      case "enum": {
        if (s.values.every(isPrimitive)) {
          const set = new Set<unknown>(s.values);
          return (v) => set.has(v);
        }
        const values = s.values;
        return (v) => values.some((x) => jsonEquals(x, v));
      }
      case "ref": {
        const cell = this.definition(s.name);
        return (v) => cell.fn(v);
      }
      case "object":
        return this.object(s);
      case "array": {
        const item = this.predicateOf(s.items);
        return (v) => {
          if (!isArray(v)) return false;
          for (const e of v) if (!item(e)) return false;
          return true;
        };
      }
      case "tuple": {
        const items = s.items.map((i) => this.predicateOf(i));
        const min = s.minItems;
        const max = s.rest === false ? s.items.length : Infinity;
        const rest = s.rest === false ? undefined : this.predicateOf(s.rest);
        return (v) => {
          if (!isArray(v) || v.length < min || v.length > max) return false;
          for (let i = 0; i < items.length; i++) if (v.length > i && !items[i]!(v[i])) return false;
          if (rest !== undefined) for (let i = items.length; i < v.length; i++) if (!rest(v[i])) return false;
          return true;
        };
      }
      case "union": {
        const branches = s.branches.map((b) => this.predicateOf(b));
        return (v) => {
          for (let i = 0; i < branches.length; i++) if (branches[i]!(v)) return true;
          return false;
        };
      }
    }
  }

  private definition(name: string): { fn: Predicate } {
    let cell = this.defs.get(name);
    if (cell === undefined) {
      cell = { fn: () => false };
      this.defs.set(name, cell);
      cell.fn = this.predicateOf(this.plan.def(name).shape);
    }
    return cell;
  }

  private object(s: Extract<Shape, { kind: "object" }>): Predicate {
    const props = s.properties.map((p) => ({ get: propReader(p.name), required: p.required, test: this.predicateOf(p.shape) }));
    const known = new Set(s.properties.map((p) => p.name));
    const closed = s.additional === false;
    // extra keys are checked against their shape, `any` included (extrasAreJson): a bigint among them belongs to
    // another branch
    const anyExtra = s.additional !== false && s.additional.kind === "any";
    const extra = s.additional !== false && !anyExtra ? this.predicateOf(s.additional) : undefined;
    return (v) => {
      if (typeof v !== "object" || v === null || isArray(v)) return false;
      for (let i = 0; i < props.length; i++) {
        const p = props[i]!;
        const f = p.get(v);
        if (p.required ? f === undefined || !p.test(f) : f !== undefined && !p.test(f)) return false;
      }
      if (closed) return extraKeys(v, known) === undefined;
      if (anyExtra) return extrasAreJson(v, known);
      if (extra !== undefined) for (const k of extraKeys(v, known) ?? []) if (!extra(v[k])) return false;
      return true;
    };
  }
}
