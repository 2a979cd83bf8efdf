/**
 * Stage 2: one JSON Schema node -> one Shape. `$ref`s become provisional `ref` shapes (named by target key;
 * finalize.ts names, inlines and orders them), so this pass never recurses through a reference except where a
 * merge needs the target's shape (`allOf`, `$ref` siblings), and recursion in schemas costs nothing here.
 */
import type { Constraints, JsonValue, Shape, ShapeKind } from "../ir/types.ts";
import { mergeShapes, type MergeEnv } from "./allof.ts";
import {
  arrayConstraints,
  numberConstraints,
  objectConstraints,
  stringConstraints,
  uncheckedKeywords,
  type NodeRef,
  compilesAsPattern,
} from "./constraints.ts";
import type { Doc, LoadContext, Target } from "./context.ts";
import { refSiblingsApply, SHAPE_KEYWORDS, UNCHECKED_KEYWORDS } from "./drafts.ts";
import { canonicalJson, has, isObject, jsonTypeOf, MAX_DEPTH, own, toJson, valueHasType, type JsonObject } from "./json.ts";
import { childPointer } from "./pointer.ts";
import { refTarget } from "./refs.ts";
import { checkPattern } from "./patterns.ts";
import { makeUnion } from "./union.ts";
import { valueFits } from "./values.ts";

/** A merge needed the shape of a target that is still being normalised (`allOf` through recursion). */
class RecursiveMerge extends Error {}

/** Normalise a target's node (its state guards against re-entry). */
export function normalizeTarget(ctx: LoadContext, t: Target, depth: number): Shape {
  if (t.state === "done") return t.shape!;
  if (t.state === "failed") throw t.error;
  if (t.state === "active") throw new RecursiveMerge(t.key);
  t.state = "active";
  try {
    t.shape = normalizeNode(ctx, t.doc, t.node, t.pointer, depth);
  } catch (e) {
    t.state = "failed";
    t.error = e;
    throw e;
  }
  t.state = "done";
  return t.shape;
}

export function normalizeNode(ctx: LoadContext, doc: Doc, node: unknown, ptr: string, depth: number): Shape {
  if (depth > MAX_DEPTH) ctx.fail("SCHEMA_ERROR", doc, ptr, `schema nested deeper than ${MAX_DEPTH} levels`);
  ctx.tick(doc, ptr);
  const schemaPath = ctx.schemaPath(doc, ptr);
  if (node === true) return { kind: "any", schemaPath };
  if (node === false) ctx.never(doc, ptr, "the schema `false` accepts no value", "UNSUPPORTED_SCHEMA");
  if (!isObject(node)) ctx.fail("SCHEMA_ERROR", doc, ptr, `a schema must be an object or a boolean, not ${jsonTypeOf(node)}`);
  const known = ctx.nodeShapes.get(node);
  if (known !== undefined) return known;
  const at: Ctx = { ctx, doc, ptr, depth, schemaPath };
  const isRef = has(node, "$ref") || has(node, "$recursiveRef") || has(node, "$dynamicRef");
  let shape = isRef ? refNode(at, node) : localNode(at, node);
  // OpenAPI 3.0 `nullable: true` (applied last, so `{ $ref, nullable }` stays nullable after the merge)
  if (own(node, "nullable") === true && (!isRef || refSiblingsApply(doc.draft))) {
    shape = makeUnion([shape, { kind: "null", schemaPath }], schemaPath);
  }
  const out = annotate(at, node, shape);
  if (ctx.loose.has(shape)) ctx.loose.add(out);
  ctx.nodeShapes.set(node, out);
  return out;
}

interface Ctx extends NodeRef {
  depth: number;
  schemaPath: string;
}

function child(at: Ctx, ...keys: (string | number)[]): string {
  let p = at.ptr;
  for (const k of keys) p = childPointer(p, k);
  return p;
}

function sub(at: Ctx, node: unknown, ...keys: (string | number)[]): Shape {
  return normalizeNode(at.ctx, at.doc, node, child(at, ...keys), at.depth + 1);
}

/**
 * A subschema where `false` has a meaning to the caller (closed, absent, no branch): `false` for the `false`
 * schema and for one that accepts no value (with a warning naming why), else its shape.
 */
function subOrFalse(at: Ctx, node: unknown, ...keys: (string | number)[]): Shape | false {
  if (node === false) return false;
  try {
    return sub(at, node, ...keys);
  } catch (e) {
    if (!at.ctx.isNever(e)) throw e;
    const prefix = `${at.doc.display}: `;
    const reason = e.reason.startsWith(prefix) ? e.reason.slice(prefix.length) : e.reason;
    at.ctx.warn(at.doc, child(at, ...keys), String(keys[0]), `accepts no value, treated as \`false\` (${reason})`);
    return false;
  }
}

function any(schemaPath: string): Shape {
  return { kind: "any", schemaPath };
}

function isBareAny(s: Shape): boolean {
  return s.kind === "any" && s.constraints === undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// $ref

function refNode(at: Ctx, s: JsonObject): Shape {
  const ctx: LoadContext = at.ctx;
  const doc = at.doc;
  const ptr = at.ptr;
  let keyword = "$ref";
  let ref = own(s, "$ref");
  if (ref === undefined) {
    // `$recursiveRef: "#"` / `$dynamicRef: "#anchor"`: resolved statically (the dynamic scope is not tracked,
    // which is exact for the usual single-document use)
    keyword = has(s, "$recursiveRef") ? "$recursiveRef" : "$dynamicRef";
    ref = own(s, keyword);
    if (typeof ref === "string" && dynamicTargets(ctx, keyword, ref) > 1) {
      // several anchors could be the dynamic target, so the static one may be too narrow: take any value
      ctx.warn(doc, ptr, keyword, "has several possible dynamic targets (dynamic scope is not tracked): any value, validate() applies the schema");
      return any(at.schemaPath);
    }
    ctx.warn(doc, ptr, keyword, "resolved like $ref (dynamic scope is not tracked)");
  }
  if (typeof ref !== "string") ctx.fail("SCHEMA_ERROR", doc, ptr, `${keyword} must be a string`);
  const target = refTarget(ctx, doc, ptr, ref);
  const shape: Shape = { kind: "ref", schemaPath: at.schemaPath, name: target.key };
  const siblings = Object.keys(s).filter((k) => SHAPE_KEYWORDS.has(k));
  if (siblings.length === 0) return shape;
  if (!refSiblingsApply(doc.draft)) {
    ctx.warn(doc, ptr, "$ref", `keywords next to $ref ignored, as draft-0${doc.draft} requires (${siblings.join(", ")})`);
    return shape;
  }
  return mergeAt(at, shape, localNode(at, s), "$ref");
}

/**
 * How many nodes of the loaded documents a dynamic reference could land on: those with `$recursiveAnchor: true`
 * (`$recursiveRef`), or with the `$dynamicAnchor` its fragment names (`$dynamicRef: "#name"`).
 */
function dynamicTargets(ctx: LoadContext, keyword: string, ref: string): number {
  const hash = ref.indexOf("#");
  const name = hash === -1 ? "" : ref.slice(hash + 1);
  if (keyword === "$dynamicRef" && (name === "" || name.startsWith("/"))) return 1; // a plain pointer: static
  let count = 0;
  const seen = new Set<unknown>();
  const walk = (n: unknown, depth: number): void => {
    if (n === null || typeof n !== "object" || seen.has(n) || depth > MAX_DEPTH || count > 1) return;
    seen.add(n);
    if (!Array.isArray(n)) {
      const o = n as JsonObject;
      if (keyword === "$recursiveRef" ? own(o, "$recursiveAnchor") === true : own(o, "$dynamicAnchor") === name) count++;
    }
    for (const v of Array.isArray(n) ? n : Object.values(n)) walk(v, depth + 1);
  };
  for (const d of ctx.docs.values()) walk(d.root, 0);
  return count;
}

/** `mergeShapes` with this node's error reporting; a merge through a recursive ref keeps the ref alone. */
function mergeAt(at: Ctx, a: Shape, b: Shape, keyword: string): Shape {
  const ctx: LoadContext = at.ctx;
  const doc = at.doc;
  const ptr = at.ptr;
  const env: MergeEnv = {
    deref(ref) {
      const seen = new Set<string>();
      let shape: Shape = ref;
      while (shape.kind === "ref") {
        if (seen.has(shape.name)) ctx.fail("SCHEMA_ERROR", doc, ptr, "circular $ref (a chain of references that never reaches a schema)");
        seen.add(shape.name);
        shape = normalizeTarget(ctx, ctx.targets.get(shape.name)!, at.depth + 1);
      }
      return shape;
    },
    conflict(reason) {
      return ctx.never(doc, ptr, reason);
    },
    tick() {
      ctx.tick(doc, ptr);
    },
    isLoose(s) {
      return ctx.loose.has(s);
    },
    markLoose(s) {
      ctx.loose.add(s);
    },
  };
  try {
    return mergeShapes(a, b, env);
  } catch (e) {
    if (!(e instanceof RecursiveMerge)) throw e;
    const keep = a.kind === "ref" ? a : b;
    ctx.warn(doc, ptr, keyword, "merges a schema that refers back to itself; only the reference is kept, the other keywords are ignored");
    return keep;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// everything but $ref

function localNode(at: Ctx, s: JsonObject): Shape {
  let shape = typeShape(at, s);
  for (const kw of ["anyOf", "oneOf"] as const) {
    const list = own(s, kw);
    if (list === undefined) continue;
    const union = unionOf(at, list, kw);
    shape = isBareAny(shape) ? union : mergeAt(at, shape, union, kw);
  }
  const all = own(s, "allOf");
  if (all !== undefined) {
    if (!Array.isArray(all) || all.length === 0) at.ctx.fail("SCHEMA_ERROR", at.doc, child(at, "allOf"), "allOf must be a non-empty array");
    all.forEach((member, i) => {
      shape = mergeAt(at, shape, sub(at, member, "allOf", i), "allOf");
    });
  }
  return shape;
}

function unionOf(at: Ctx, list: unknown, kw: string): Shape {
  if (!Array.isArray(list) || list.length === 0) at.ctx.fail("SCHEMA_ERROR", at.doc, child(at, kw), `${kw} must be a non-empty array`);
  const branches: Shape[] = [];
  list.forEach((b, i) => {
    // a branch that accepts no value contributes nothing
    const shape = subOrFalse(at, b, kw, i);
    if (shape !== false) branches.push(shape);
  });
  if (branches.length === 0) at.ctx.never(at.doc, child(at, kw), `no ${kw} branch accepts any value`);
  return makeUnion(branches, at.schemaPath);
}

const TYPES = new Set(["string", "integer", "number", "boolean", "null", "object", "array"]);

/** The shape from `type`, `const`, `enum` and type-specific keywords (before combinators). */
function typeShape(at: Ctx, s: JsonObject): Shape {
  const schemaPath = at.schemaPath;
  let types = declaredTypes(at, s);
  if (has(s, "const")) return constShape(at, s, types);
  if (has(s, "enum")) return enumShape(at, s, types);
  const inferred = types === undefined;
  types ??= inferTypes(s);
  if (types.length === 0) return any(schemaPath);
  const shapes = types.map((t) => typedShape(at, s, t));
  const shape = shapes.length === 1 ? shapes[0]! : makeUnion(shapes, schemaPath);
  // standing alone, `{ properties }` reads as an object; merged with other types it must not exclude them
  if (inferred) at.ctx.loose.add(shape);
  return shape;
}

function declaredTypes(at: Ctx, s: JsonObject): string[] | undefined {
  const raw = own(s, "type");
  if (raw === undefined) return undefined;
  const list = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(list) || list.length === 0 || !list.every((t) => typeof t === "string")) {
    at.ctx.fail("SCHEMA_ERROR", at.doc, child(at, "type"), "type must be a type name or a non-empty array of them");
  }
  const types: string[] = [];
  for (const t of list as string[]) {
    if (t === "any") return []; // draft-03
    if (!TYPES.has(t)) at.ctx.fail("SCHEMA_ERROR", at.doc, child(at, "type"), `unknown type ${JSON.stringify(t)}`);
    if (!types.includes(t)) types.push(t);
  }
  // `number` already accepts every integer
  return types.includes("number") ? types.filter((t) => t !== "integer") : types;
}

/** Without `type`, the keywords present say what was meant (`properties` -> object, `items` -> array, ...). */
function inferTypes(s: JsonObject): string[] {
  const out: string[] = [];
  const any = (kws: string[]): boolean => kws.some((k) => has(s, k));
  if (any(["properties", "additionalProperties", "patternProperties", "minProperties", "maxProperties", "propertyNames", "unevaluatedProperties", "dependentRequired", "dependentSchemas"]) || Array.isArray(own(s, "required"))) {
    out.push("object");
  }
  if (any(["items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains", "unevaluatedItems"])) out.push("array");
  const format = own(s, "format");
  const numericFormat = typeof format === "string" && NUMERIC_FORMATS.has(format);
  if (any(["minLength", "maxLength", "pattern"]) || (typeof format === "string" && !numericFormat)) out.push("string");
  if (any(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]) || numericFormat) {
    out.push(typeof format === "string" && INTEGER_FORMATS.has(format) ? "integer" : "number");
  }
  return out;
}

const INTEGER_FORMATS = new Set(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]);
const NUMERIC_FORMATS = new Set([...INTEGER_FORMATS, "float", "double", "decimal"]);

function jsonOf(at: Ctx, kw: string, value: unknown, where: string): JsonValue {
  const v = toJson(value);
  if (v === undefined) at.ctx.fail("SCHEMA_ERROR", at.doc, where, `${kw} value is not JSON`);
  return v;
}

function constShape(at: Ctx, s: JsonObject, types: string[] | undefined): Shape {
  const value = jsonOf(at, "const", own(s, "const"), child(at, "const"));
  if (types !== undefined && types.length > 0 && !types.some((t) => valueHasType(value, t))) {
    at.ctx.never(at.doc, child(at, "const"), `const ${truncate(JSON.stringify(value))} is not of type ${types.join(" or ")}`);
  }
  const en = own(s, "enum");
  if (Array.isArray(en) && !en.some((e) => canonicalJson(toJson(e) ?? null) === canonicalJson(value))) {
    at.ctx.never(at.doc, child(at, "const"), "const is not one of the enum values");
  }
  return { kind: "const", schemaPath: at.schemaPath, value };
}

function enumShape(at: Ctx, s: JsonObject, types: string[] | undefined): Shape {
  const raw = own(s, "enum");
  const where = child(at, "enum");
  if (!Array.isArray(raw) || raw.length === 0) at.ctx.fail("SCHEMA_ERROR", at.doc, where, "enum must be a non-empty array");
  const seen = new Set<string>();
  const values: JsonValue[] = [];
  const dropped: JsonValue[] = [];
  raw.forEach((item, i) => {
    const v = jsonOf(at, "enum", item, childPointer(where, i));
    const key = canonicalJson(v);
    if (seen.has(key)) return;
    seen.add(key);
    if (types !== undefined && types.length > 0 && !types.some((t) => valueHasType(v, t))) dropped.push(v);
    else values.push(v);
  });
  if (dropped.length > 0) {
    at.ctx.warn(at.doc, at.ptr, "enum", `values not of type ${types!.join(" or ")} dropped: ${dropped.map((d) => JSON.stringify(d)).join(", ")}`);
  }
  if (values.length === 0) at.ctx.never(at.doc, where, `no enum value is of type ${types!.join(" or ")}`);
  if (values.length === 1) return { kind: "const", schemaPath: at.schemaPath, value: values[0]! };
  return { kind: "enum", schemaPath: at.schemaPath, values };
}

function int64Of(s: JsonObject): boolean {
  const format = own(s, "format");
  return format === "int64" || format === "uint64" || own(s, "x-toon") === "int64";
}

function withConstraints<S extends Shape>(shape: S, c: Constraints | undefined): S {
  if (c !== undefined) shape.constraints = c;
  return shape;
}

function typedShape(at: Ctx, s: JsonObject, type: string): Shape {
  const schemaPath = at.schemaPath;
  const format = own(s, "format");
  switch (type as ShapeKind) {
    case "string": {
      const shape: Shape = { kind: "string", schemaPath };
      if (typeof format === "string") shape.format = format;
      if (int64Of(s)) shape.int64 = true;
      return withConstraints(shape, stringConstraints(at, s));
    }
    case "integer": {
      const shape: Shape = { kind: "integer", schemaPath };
      if (typeof format === "string") shape.format = format;
      if (int64Of(s)) shape.int64 = true;
      return withConstraints(shape, numberConstraints(at, s));
    }
    case "number": {
      const shape: Shape = { kind: "number", schemaPath };
      if (typeof format === "string") shape.format = format;
      return withConstraints(shape, numberConstraints(at, s));
    }
    case "boolean":
      return { kind: "boolean", schemaPath };
    case "null":
      return { kind: "null", schemaPath };
    case "object":
      return objectShape(at, s);
    case "array":
      return arrayShape(at, s);
    default:
      return any(schemaPath);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// objects

function objectShape(at: Ctx, s: JsonObject): Shape {
  const ctx: LoadContext = at.ctx;
  const doc = at.doc;
  const props = own(s, "properties");
  if (props !== undefined && !isObject(props)) ctx.fail("SCHEMA_ERROR", doc, child(at, "properties"), "properties must be an object");
  const required = requiredNames(at, s);
  const declared = new Set<string>();
  const properties: { name: string; required: boolean; shape: Shape }[] = [];
  for (const name of props === undefined ? [] : Object.keys(props)) {
    const value = own(props!, name);
    declared.add(name);
    const isRequired = required.includes(name);
    // `false` on an optional property means "never present"; any other impossible property schema (an allOf
    // conflict) is more likely a mistake, so it stays an error
    if (value === false && !isRequired) {
      ctx.warn(doc, child(at, "properties", name), "properties", "property with the schema `false` left out of the shape");
      continue;
    }
    properties.push({ name, required: isRequired, shape: sub(at, value, "properties", name) });
  }
  required.forEach((name, i) => {
    if (!declared.has(name)) properties.push({ name, required: true, shape: any(ctx.schemaPath(doc, child(at, "required", i))) });
  });
  const shape: Shape = { kind: "object", schemaPath: at.schemaPath, properties, additional: additionalOf(at, s) };
  return withConstraints(shape, objectConstraints(at, s));
}

/** `required` names, deduplicated, in order; the draft-03 boolean form is ignored. */
function requiredNames(at: Ctx, s: JsonObject): string[] {
  const raw = own(s, "required");
  if (raw === undefined) return [];
  if (typeof raw === "boolean") {
    at.ctx.warn(at.doc, at.ptr, "required", "boolean `required` (draft-03) ignored");
    return [];
  }
  if (!Array.isArray(raw) || !raw.every((r) => typeof r === "string")) {
    at.ctx.fail("SCHEMA_ERROR", at.doc, child(at, "required"), "required must be an array of strings");
  }
  return [...new Set(raw as string[])];
}

/** Keywords of a node whose evaluated properties depend on the instance (a branch that matched, a key present). */
const CONDITIONAL_EVALUATORS = ["if", "anyOf", "dependentSchemas", "dependencies", "$dynamicRef", "$recursiveRef"];
/** Keywords of a subschema (merged by allOf/oneOf/$ref) that evaluate properties the merged shape does not list. */
const HIDDEN_EVALUATORS = [...CONDITIONAL_EVALUATORS, "patternProperties", "additionalProperties", "unevaluatedProperties"];

/**
 * Whether `unevaluatedProperties` at this node can see properties that the merged shape does not declare: then
 * closing the object to the merged properties would reject values the schema accepts. The merge is exact for
 * `properties` gathered through `allOf`, `oneOf` and `$ref` alone; anything conditional (`if`, `anyOf`, where
 * several branches may match, `dependentSchemas`, dynamic references) or a nested member with its own
 * `patternProperties` / `additionalProperties` / `unevaluatedProperties` evaluates more.
 */
function otherEvaluators(at: Ctx, s: JsonObject): boolean {
  if (CONDITIONAL_EVALUATORS.some((k) => has(s, k))) return true;
  const seen = new Set<unknown>([s]);
  const scan = (doc: Doc, node: unknown, ptr: string, depth: number): boolean => {
    if (!isObject(node) || seen.has(node)) return false;
    if (depth > MAX_DEPTH) return true;
    seen.add(node);
    if (HIDDEN_EVALUATORS.some((k) => has(node, k))) return true;
    return members(doc, node, ptr, depth);
  };
  const members = (doc: Doc, node: JsonObject, ptr: string, depth: number): boolean => {
    for (const kw of ["allOf", "oneOf"]) {
      const list = own(node, kw);
      if (Array.isArray(list) && list.some((m, i) => scan(doc, m, childPointer(childPointer(ptr, kw), i), depth + 1))) return true;
    }
    const ref = own(node, "$ref");
    if (typeof ref === "string") {
      let t: Target;
      try {
        t = refTarget(at.ctx, doc, ptr, ref);
      } catch {
        return true; // reported where the reference itself is normalised
      }
      if (scan(t.doc, t.node, t.pointer, depth + 1)) return true;
    }
    return false;
  };
  return members(at.doc, s, at.ptr, at.depth);
}

/** Patterns that match every property name. */
const MATCH_ALL = new Set(["", "^", ".*", "^.*", "^.*$", ".+", "^.+", "^.+$", ".*$", "[\\s\\S]*", "^[\\s\\S]*$"]);

/**
 * What properties beyond the declared ones may hold. `patternProperties` cannot be expressed per key in the IR:
 * when the pattern values are the only thing allowed (object otherwise closed, or a match-all pattern) their
 * union becomes `additional`; otherwise other keys may hold anything and `additional` is `any`.
 */
function additionalOf(at: Ctx, s: JsonObject): Shape | false {
  const ctx: LoadContext = at.ctx;
  const doc = at.doc;
  const ap = own(s, "additionalProperties");
  const up = own(s, "unevaluatedProperties");
  let extra: Shape | false | undefined; // the schema for other keys, `false` when closed
  if (ap !== undefined && ap !== true) extra = subOrFalse(at, ap, "additionalProperties");
  else if (ap === undefined && up !== undefined && up !== true) {
    if (otherEvaluators(at, s)) {
      ctx.warn(doc, at.ptr, "unevaluatedProperties", "approximated: subschemas evaluate properties the shape cannot tell apart, so other properties may hold any value (validate() applies the keyword)");
    } else extra = subOrFalse(at, up, "unevaluatedProperties");
  }
  const closed = extra === false;

  // key patterns run on the keys of untrusted objects in validate(), like any other pattern
  const names = own(s, "propertyNames");
  const namePattern = isObject(names) ? own(names, "pattern") : undefined;
  if (typeof namePattern === "string" && compilesAsPattern(namePattern)) checkPattern(ctx, doc, child(at, "propertyNames", "pattern"), "propertyNames", namePattern);

  const pp = own(s, "patternProperties");
  if (pp !== undefined && !isObject(pp)) ctx.fail("SCHEMA_ERROR", doc, child(at, "patternProperties"), "patternProperties must be an object");
  const patterns = pp === undefined ? [] : Object.keys(pp);
  if (patterns.length === 0) return extra ?? any(at.schemaPath);

  const values: Shape[] = [];
  for (const p of patterns) checkPattern(ctx, doc, child(at, "patternProperties", p), "patternProperties", p);
  for (const p of patterns) {
    const v = subOrFalse(at, own(pp!, p), "patternProperties", p);
    if (v !== false) values.push(v);
  }
  const matchAll = patterns.some((p) => MATCH_ALL.has(p));
  if (closed || extra !== undefined || matchAll) {
    if (extra !== undefined && extra !== false && !matchAll) values.push(extra);
    ctx.warn(doc, at.ptr, "patternProperties", "approximated: pattern-matched property values are typed as additional properties");
    if (values.length === 0) return false;
    return makeUnion(values, ctx.schemaPath(doc, child(at, "patternProperties")));
  }
  ctx.warn(doc, at.ptr, "patternProperties", "approximated: other properties may hold any value");
  return any(at.schemaPath);
}

// ---------------------------------------------------------------------------------------------------------------
// arrays and tuples

function arrayShape(at: Ctx, s: JsonObject): Shape {
  const ctx: LoadContext = at.ctx;
  const doc = at.doc;
  const schemaPath = at.schemaPath;
  const items = own(s, "items");
  const prefix = own(s, "prefixItems");
  let positional: unknown[];
  let positionalKw: string;
  let rest: unknown;
  let restKw: string;
  if (prefix !== undefined) {
    if (!Array.isArray(prefix)) ctx.fail("SCHEMA_ERROR", doc, child(at, "prefixItems"), "prefixItems must be an array");
    positional = prefix;
    positionalKw = "prefixItems";
    [rest, restKw] = items !== undefined ? [items, "items"] : [own(s, "additionalItems"), "additionalItems"];
  } else if (Array.isArray(items)) {
    // draft-04..2019-09 tuple form (accepted in 2020-12 documents too)
    positional = items;
    positionalKw = "items";
    [rest, restKw] = [own(s, "additionalItems"), "additionalItems"];
  } else {
    const itemShape = items === undefined || items === true ? any(schemaPath) : subOrFalse(at, items, "items");
    // items that accept nothing: only the empty array
    if (itemShape === false) return withConstraints({ kind: "tuple", schemaPath, items: [], minItems: 0, rest: false }, arrayConstraints(at, s));
    return withConstraints({ kind: "array", schemaPath, items: itemShape }, arrayConstraints(at, s));
  }
  // a `false` item forbids its position, so the array ends before it: the items up to it, nothing after
  const forbidden = positional.indexOf(false);
  const shapes = (forbidden === -1 ? positional : positional.slice(0, forbidden)).map((x, i) => sub(at, x, positionalKw, i));
  const restShape: Shape | false = forbidden !== -1 ? false : rest === undefined || rest === true ? any(schemaPath) : subOrFalse(at, rest, restKw);
  const c = arrayConstraints(at, s);
  const min = c?.minItems ?? 0;
  if (forbidden !== -1 && min > forbidden) ctx.never(doc, child(at, positionalKw, forbidden), `minItems ${min} needs the item \`false\` forbids`);
  // minItems up to the positional count is the tuple's own `minItems`; beyond it, a value constraint
  if (c !== undefined && min <= shapes.length) delete c.minItems;
  const tuple: Shape = { kind: "tuple", schemaPath, items: shapes, minItems: Math.min(min, shapes.length), rest: restShape };
  return withConstraints(tuple, c !== undefined && Object.keys(c).length > 0 ? c : undefined);
}

// ---------------------------------------------------------------------------------------------------------------
// annotations

/** The node's own path, description, valid default, and unchecked keywords, on a fresh copy of `shape`. */
function annotate(at: Ctx, s: JsonObject, shape: Shape): Shape {
  const ctx: LoadContext = at.ctx;
  const doc = at.doc;
  const ptr = at.ptr;
  const out: Shape = { ...shape, schemaPath: at.schemaPath };
  const description = own(s, "description");
  if (typeof description === "string") out.description = description;
  if (has(s, "default")) {
    const d = toJson(own(s, "default"));
    if (d === undefined) ctx.warn(doc, ptr, "default", "dropped: not a JSON value");
    else if (!valueFits(d, out)) ctx.warn(doc, ptr, "default", `dropped: ${truncate(JSON.stringify(d))} does not fit the ${out.kind} shape`);
    else out.default = d;
  }
  const unchecked = uncheckedKeywords(s, UNCHECKED_KEYWORDS);
  if (unchecked.includes("dependentSchemas")) ctx.warn(doc, ptr, "dependentSchemas", "ignored (neither the shape nor validate() applies it)");
  if (unchecked.length > 0) {
    const c: Constraints = { ...out.constraints };
    c.unchecked = [...new Set([...(c.unchecked ?? []), ...unchecked])];
    out.constraints = c;
  }
  return out;
}

function truncate(s: string): string {
  return s.length > 60 ? s.slice(0, 57) + "..." : s;
}
