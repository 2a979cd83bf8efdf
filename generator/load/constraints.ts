/**
 * Value constraints (`minLength`, `minimum`, ...) read per shape kind, and merged for `allOf`. They never change the
 * wire shape, so a malformed one is dropped with a warning rather than failing the whole schema.
 */
import type { Constraints } from "../ir/types.ts";
import type { Doc, LoadContext } from "./context.ts";
import { has, own, type JsonObject } from "./json.ts";
import { checkPattern } from "./patterns.ts";
import { childPointer } from "./pointer.ts";

export interface NodeRef {
  ctx: LoadContext;
  doc: Doc;
  ptr: string;
}

function count(at: NodeRef, s: JsonObject, kw: string): number | undefined {
  const v = own(s, kw);
  if (v === undefined) return undefined;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return v;
  at.ctx.warn(at.doc, at.ptr, kw, `ignored: expected a non-negative integer, got ${JSON.stringify(v)}`);
  return undefined;
}

function num(at: NodeRef, s: JsonObject, kw: string): number | undefined {
  const v = own(s, kw);
  if (v === undefined) return undefined;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  at.ctx.warn(at.doc, at.ptr, kw, `ignored: expected a number, got ${JSON.stringify(v)}`);
  return undefined;
}

function set<K extends keyof Constraints>(c: Constraints, key: K, value: Constraints[K] | undefined): void {
  if (value !== undefined) c[key] = value;
}

function done(c: Constraints): Constraints | undefined {
  return Object.keys(c).length === 0 ? undefined : c;
}

export function stringConstraints(at: NodeRef, s: JsonObject): Constraints | undefined {
  const c: Constraints = {};
  set(c, "minLength", count(at, s, "minLength"));
  set(c, "maxLength", count(at, s, "maxLength"));
  const pattern = own(s, "pattern");
  if (pattern !== undefined) {
    if (typeof pattern === "string" && compilesAsPattern(pattern)) {
      checkPattern(at.ctx, at.doc, childPointer(at.ptr, "pattern"), "pattern", pattern);
      c.pattern = pattern;
    }
    else at.ctx.warn(at.doc, at.ptr, "pattern", `ignored: not a valid ECMAScript regular expression: ${JSON.stringify(pattern)}`);
  }
  return done(c);
}

/** Whether `pattern` is an ECMAScript pattern (with `u` or without); one that is not is validate()'s to report. */
export function compilesAsPattern(pattern: string): boolean {
  for (const flags of ["u", ""]) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {
      /* try the next flags */
    }
  }
  return false;
}

/**
 * Numeric bounds. `exclusiveMinimum: true` (draft-04) turns `minimum` into an exclusive bound; a number
 * (draft-06+) is the bound itself. Decided by the value's form, so a mislabelled draft still reads right.
 */
export function numberConstraints(at: NodeRef, s: JsonObject): Constraints | undefined {
  const c: Constraints = {};
  let minimum = num(at, s, "minimum");
  let maximum = num(at, s, "maximum");
  for (const [kw, bound] of [["exclusiveMinimum", "min"], ["exclusiveMaximum", "max"]] as const) {
    const v = own(s, kw);
    if (v === undefined || v === false) continue;
    if (v === true) {
      if (bound === "min" && minimum !== undefined) {
        c.exclusiveMinimum = minimum;
        minimum = undefined;
      } else if (bound === "max" && maximum !== undefined) {
        c.exclusiveMaximum = maximum;
        maximum = undefined;
      }
    } else if (typeof v === "number" && Number.isFinite(v)) {
      c[kw] = v;
    } else {
      at.ctx.warn(at.doc, at.ptr, kw, `ignored: expected a number or a boolean, got ${JSON.stringify(v)}`);
    }
  }
  set(c, "minimum", minimum);
  set(c, "maximum", maximum);
  const multipleOf = num(at, s, "multipleOf");
  if (multipleOf !== undefined) {
    if (multipleOf > 0) c.multipleOf = multipleOf;
    else at.ctx.warn(at.doc, at.ptr, "multipleOf", "ignored: must be greater than 0");
  }
  return done(c);
}

export function arrayConstraints(at: NodeRef, s: JsonObject): Constraints | undefined {
  const c: Constraints = {};
  set(c, "minItems", count(at, s, "minItems"));
  set(c, "maxItems", count(at, s, "maxItems"));
  if (own(s, "uniqueItems") === true) c.uniqueItems = true;
  return done(c);
}

export function objectConstraints(at: NodeRef, s: JsonObject): Constraints | undefined {
  const c: Constraints = {};
  set(c, "minProperties", count(at, s, "minProperties"));
  set(c, "maxProperties", count(at, s, "maxProperties"));
  return done(c);
}

/** `unchecked` keywords present on a node. */
export function uncheckedKeywords(s: JsonObject, keywords: readonly string[]): string[] {
  return keywords.filter((k) => has(s, k));
}

/** Both sets of constraints at once (`allOf`): the tighter bound wins; what cannot be combined is unchecked. */
export function mergeConstraints(a: Constraints | undefined, b: Constraints | undefined): Constraints | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const c: Constraints = { ...a };
  for (const k of ["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"] as const) {
    const v = b[k];
    if (v !== undefined) c[k] = c[k] === undefined ? v : Math.max(c[k], v);
  }
  for (const k of ["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties"] as const) {
    const v = b[k];
    if (v !== undefined) c[k] = c[k] === undefined ? v : Math.min(c[k], v);
  }
  if (b.uniqueItems === true) c.uniqueItems = true;
  const unchecked = new Set([...(a.unchecked ?? []), ...(b.unchecked ?? [])]);
  if (b.pattern !== undefined) {
    if (c.pattern === undefined) c.pattern = b.pattern;
    else if (c.pattern !== b.pattern) unchecked.add("pattern");
  }
  if (b.multipleOf !== undefined) {
    if (c.multipleOf === undefined) c.multipleOf = b.multipleOf;
    else if (Number.isInteger(c.multipleOf / b.multipleOf)) {
      /* a's step is already a multiple of b's */
    } else if (Number.isInteger(b.multipleOf / c.multipleOf)) c.multipleOf = b.multipleOf;
    else unchecked.add("multipleOf");
  }
  if (unchecked.size > 0) c.unchecked = [...unchecked];
  else delete c.unchecked;
  return c;
}
