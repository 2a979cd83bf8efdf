/**
 * The interpreted text check pass: what a generated module's `$ck*` functions do after `fromText` decodes,
 * built from a codec descriptor (../descriptor.ts) at run time. Both call the same per-kind guards
 * (../../text/check.ts), so values, coercions and errors (code, path, message) are the same; this file only
 * walks the shapes. Used by the CLI (`decode --text`) and any caller holding a descriptor instead of a module.
 */
import type { Shape } from "../descriptor.ts";
import { formatOf } from "../formats.ts";
import { checkClosed, getOwn, keyCount, missing, setOwn } from "../../wire/objects.ts";
import {
  tcAny,
  tcArray,
  tcBoolean,
  tcEnum,
  tcExtras,
  tcInt64,
  tcInteger,
  tcJsonEnum,
  tcNull,
  tcNumber,
  tcObject,
  tcString,
  tcUuid,
  tcUnion,
  textInvalid,
  textRethrow,
  textRethrowAt,
  type TextCheckFn,
} from "../../text/check.ts";

/** What the pass needs of a descriptor (a generator IR is one too: its shapes carry more). */
export interface TextCheckSource {
  name: string;
  root: Shape;
  definitions: readonly { name: string; shape: Shape }[];
}

/** JSON type bits of union branch selection (../../text/check.ts `tcUnion`). */
const CAT = { null: 1, boolean: 2, number: 4, string: 8, array: 16, object: 32 } as const;

/**
 * JSON types a union branch takes as is (`exact`) and ones it coerces (`coercible`: numbers and booleans for
 * strings). The generator embeds these masks; the interpreter computes them the same way.
 */
export function categoryMasks(s: Shape, def: (name: string) => Shape, seen: Set<string> = new Set()): { exact: number; coercible: number } {
  switch (s.kind) {
    case "string":
      return { exact: CAT.string, coercible: CAT.number | CAT.boolean };
    case "integer":
      return { exact: CAT.number, coercible: s.int64 ? CAT.string : 0 };
    case "number":
      return { exact: CAT.number, coercible: 0 };
    case "boolean":
      return { exact: CAT.boolean, coercible: 0 };
    case "null":
      return { exact: CAT.null, coercible: 0 };
    case "any":
      return { exact: 63, coercible: 0 };
    case "const":
    case "enum": {
      const values = s.kind === "const" ? [s.value] : s.values;
      let exact = 0;
      for (const x of values) exact |= x === null ? CAT.null : Array.isArray(x) ? CAT.array : CAT[typeof x as "string" | "number" | "boolean" | "object"];
      return { exact, coercible: exact & CAT.string ? CAT.number | CAT.boolean : 0 };
    }
    case "object":
      return { exact: CAT.object, coercible: 0 };
    case "array":
    case "tuple":
      return { exact: CAT.array, coercible: 0 };
    case "union": {
      let exact = 0;
      let coercible = 0;
      for (const b of s.branches) {
        const m = categoryMasks(b, def, seen);
        exact |= m.exact;
        coercible |= m.coercible;
      }
      return { exact, coercible };
    }
    case "ref": {
      if (seen.has(s.name)) return { exact: 63, coercible: 0 };
      seen.add(s.name);
      const m = categoryMasks(def(s.name), def, seen);
      seen.delete(s.name);
      return m;
    }
  }
}

/** An int64 position under `"int64": "bigint"`: the int64 guard's value, as a bigint (formats.ts INT64_BIGINT). */
const tcBigInt64 = (v: unknown, path = ""): bigint => BigInt(tcInt64(v, path));

const isPrimitive = (v: unknown): boolean => v === null || typeof v !== "object";

/** A union of exactly one non-null branch and `null`: checked as that branch, or null. */
export function nullableOf<M extends object>(s: Shape<M>): Shape<M> | undefined {
  if (s.kind !== "union" || s.branches.length !== 2) return undefined;
  const others = s.branches.filter((b) => b.kind !== "null");
  return others.length === 1 ? others[0] : undefined;
}

/** The check pass of `src` (errors relative to the root, "" for the root itself). */
export function textCheckOf(src: TextCheckSource): TextCheckFn {
  const defs = new Map(src.definitions.map((d) => [d.name, d.shape]));
  const def = (n: string): Shape => {
    const d = defs.get(n);
    if (d === undefined) throw new Error(`internal: unknown definition ${n}`);
    return d;
  };
  const compiled = new Map<string, TextCheckFn>();
  const defFn = (n: string): TextCheckFn => {
    let f = compiled.get(n);
    if (f === undefined) {
      let inner: TextCheckFn | undefined;
      f = (v) => (inner ??= compile(def(n)))(v);
      compiled.set(n, f);
    }
    return f;
  };
  const compile = (s: Shape): TextCheckFn => {
    switch (s.kind) {
      case "string":
        return formatOf(s).textGuard === "tcUuid" ? tcUuid : tcString;
      case "integer":
        if (!s.int64) return tcInteger;
        return formatOf(s).readAs === "BigInt" ? tcBigInt64 : tcInt64;
      case "number":
        return tcNumber;
      case "boolean":
        return tcBoolean;
      case "null":
        return tcNull;
      case "any":
        return tcAny;
      case "const":
      case "enum": {
        const values = s.kind === "const" ? [s.value] : s.values;
        if (values.every(isPrimitive)) return (v) => tcEnum(v, "", values);
        return (v) => tcJsonEnum(v, "", values);
      }
      case "ref":
        return defFn(s.name);
      case "array": {
        const item = compile(s.items);
        return (v) => tcArray(v, "", item);
      }
      case "tuple": {
        const items = s.items.map(compile);
        const rest = s.rest === false ? undefined : compile(s.rest);
        const max = s.rest === false ? s.items.length : -1;
        const range = max < 0 ? `at least ${s.minItems} items` : s.minItems === max ? `exactly ${max} items` : `${s.minItems} to ${max} items`;
        return (v) => {
          if (!Array.isArray(v) || v.length < s.minItems || (max >= 0 && v.length > max)) throw textInvalid("", "an array of " + range, v);
          for (let i = 0; i < v.length; i++) {
            const f = i < items.length ? items[i]! : rest!;
            try {
              v[i] = f(v[i]);
            } catch (e) {
              textRethrowAt(e, "", i);
            }
          }
          return v;
        };
      }
      case "object": {
        const props = s.properties.map((q) => ({ name: q.name, required: q.required, check: compile(q.shape) }));
        const known = new Set(s.properties.map((q) => q.name));
        const additional = s.additional === false ? false : s.additional.kind === "any" ? "any" : compile(s.additional);
        return (v) => {
          tcObject(v);
          let present = 0;
          for (const q of props) {
            const f = getOwn(v, q.name);
            if (f === undefined) {
              if (q.required) throw missing("", q.name);
              continue;
            }
            present++;
            let c: unknown;
            try {
              c = q.check(f);
            } catch (e) {
              textRethrowAt(e, "", q.name);
            }
            if (c !== f) setOwn(v, q.name, c);
          }
          if (additional === false) {
            if (keyCount(v) !== present) checkClosed(v, known, "");
          } else if (additional === "any") tcExtras(v, known);
          else {
            for (const k of Object.keys(v)) {
              if (known.has(k)) continue;
              try {
                setOwn(v, k, additional(v[k]));
              } catch (e) {
                textRethrowAt(e, "", k);
              }
            }
          }
          return v;
        };
      }
      case "union": {
        const other = nullableOf(s);
        if (other !== undefined) {
          const check = compile(other);
          return (v) => (v === null ? v : check(v));
        }
        const branches = s.branches.map(compile);
        const masks = s.branches.map((b) => categoryMasks(b, def));
        const exact = masks.map((m) => m.exact);
        const coercible = masks.map((m) => m.coercible);
        const disc = s.discriminator;
        return (v) => {
          if (disc !== undefined) {
            tcObject(v);
            const i = disc.values.indexOf(getOwn(v, disc.property) as never);
            if (i >= 0) return branches[i]!(v);
          }
          return tcUnion(v, "", branches, exact, coercible);
        };
      }
    }
  };
  const rootIsDefinition = src.root.kind === "ref" && src.root.name === src.name;
  const root = rootIsDefinition ? defFn(src.name) : compile(src.root);
  return (v) => {
    try {
      return root(v);
    } catch (e) {
      textRethrow(e, "");
    }
  };
}
