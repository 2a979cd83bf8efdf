/**
 * Tool calls from model output: the generic half of a generated tool-set module (docs/inputs.md).
 *
 * - `parseToolCall`: an OpenAI Chat Completions `tool_calls[i]`, an OpenAI Responses `function_call` item, an
 *   Anthropic `tool_use` block or an MCP `tools/call` request's params -> `{ id, name, arguments }`, checked
 *   against the tool's schema, or a ToonError listing every violation with its path.
 * - `ToolCallAccumulator`: streamed fragments (OpenAI `delta.tool_calls` keyed by `index`, OpenAI Responses
 *   `response.function_call_arguments.*`, Anthropic `input_json_delta`) -> each call once it is complete and
 *   valid; a call the stream cut off is reported as INCOMPLETE, never returned as if whole.
 * - `checkShape`: every violation of a value against a (trimmed) shape IR, including the value constraints
 *   (`minLength`, `pattern`, `minimum`, ...) the binary codec does not need.
 *
 * The schema-specific parts (which tools exist, their codecs and shapes) come from the generated module.
 * Replies to calls are built by ./tools-results.ts, provider definitions by ./tools-definitions.ts.
 * Zero dependencies; no Node APIs.
 */
import { EXPECTED_UUID } from "./codec/messages.ts";
import { ToonError, pointerSegment, type ToolCallRef, type ToonErrorCode, type ToonErrorDetail, type ToonErrorOptions } from "./errors.ts";
import { isPlainObject, jsonEquals } from "./objects.ts";
import type { ValidationResult } from "./validate.ts";
import { isUuid } from "./uuid.ts";
import { ArgumentsFeed, parseArgumentsJson } from "./tools-arguments.ts";

export { parseArgumentsJson };

// ---------------------------------------------------------------------------------------------------------
// Shapes: the shape IR of the generator, without source paths and descriptions (plain JSON data)

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
const MAX_CHECK_DEPTH = 256;
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

function typeName(v: unknown): string {
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

function listValues(values: readonly unknown[]): string {
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

// ---------------------------------------------------------------------------------------------------------
// Tool sets, as the generated module describes them

/** What the runtime needs of one tool: its argument codec (the final word on validity) and its shape. */
export interface ToolSpec {
  readonly name: string;
  readonly codec: { validate(value: unknown): ValidationResult<unknown> };
  readonly shape: CheckShape;
}

export interface ToolSetSpec {
  readonly name: string;
  readonly tools: ReadonlyMap<string, ToolSpec>;
  readonly defs: CheckDefs;
  /** Patterns that run on another engine than RegExp (re2js, for patterns a ReDoS checker does not certify). */
  readonly patterns?: PatternTests;
}

/** A compiled pattern: what checking needs of a RegExp, or of re2js's `RE2JS`. */
export interface PatternTest {
  test(input: string): boolean;
}

/** Pattern source -> the engine that runs it, where that is not RegExp. */
export type PatternTests = ReadonlyMap<string, PatternTest>;

/** A parsed call, as MCP's `tools/call` names the parts (plus the provider's call id). */
export interface ToolCall<N extends string = string, A = unknown> {
  id: string;
  name: N;
  arguments: A;
}

/**
 * The call without its provider id, for the call and batch codecs: the id is a one-turn token of the provider
 * (`call_...`, `toolu_...`) that pairs a call with its result, not part of what the call means, so it does not
 * travel in TOON (a decoded call is `{ name, arguments }`). Keep ids beside the bytes if a log needs them.
 */
export function callOnly(call: { readonly name: string; readonly arguments: unknown }): { name: string; arguments: unknown } {
  if (typeof call !== "object" || call === null) throw new ToonError("INVALID_VALUE", `a tool call is an object { name, arguments }, got ${call === null ? "null" : typeof call}`);
  return { name: call.name, arguments: call.arguments };
}

/** {@link callOnly} of each call of a batch (INVALID_VALUE when `calls` is not an array). */
export function callsOnly(calls: readonly { readonly name: string; readonly arguments: unknown }[]): { name: string; arguments: unknown }[] {
  if (!Array.isArray(calls)) throw new ToonError("INVALID_VALUE", `a batch of tool calls is an array, got ${calls === null ? "null" : typeof calls}`);
  return calls.map(callOnly);
}

/** Build the spec a generated module hands to `parseToolCall` and `ToolCallAccumulator`. */
export function toolSet(
  name: string,
  tools: readonly (readonly [name: string, codec: ToolSpec["codec"], shape: CheckShape])[],
  defs: CheckDefs,
  patterns?: PatternTests,
): ToolSetSpec {
  const map = new Map<string, ToolSpec>();
  for (const [n, codec, shape] of tools) map.set(n, { name: n, codec, shape });
  return patterns === undefined ? { name, tools: map, defs } : { name, tools: map, defs, patterns };
}

/** A short, safe rendering of untrusted text for messages. */
function show(s: string): string {
  return JSON.stringify(s.length > 80 ? s.slice(0, 77) + "..." : s);
}

/** `tool call "get_weather" (call_1)`: how messages name a call (the id only when there is one). */
function callLabel(ref: ToolCallRef): string {
  return `tool call ${show(ref.name || "(no name)")}${ref.id !== "" ? ` (${show(ref.id)})` : ""}`;
}

/** Argument text for `ToolCallRef.arguments`: the text as received, or the JSON of arguments sent whole. */
function argumentText(args: unknown): string {
  if (typeof args === "string") return args;
  if (args === undefined) return "";
  try {
    return JSON.stringify(args) ?? "";
  } catch {
    return ""; // a cyclic or bigint value from a caller: nothing to show
  }
}

/** A ToonError about one call: `path` into the parsed call, the call named in the message and in `call`. */
function callError(code: ToonErrorCode, reason: string, ref: ToolCallRef, path: string, details?: ToonErrorDetail[], cause?: unknown): ToonError {
  const o: ToonErrorOptions = { path };
  if (details !== undefined) o.details = details;
  if (cause !== undefined) o.cause = cause;
  const e = new ToonError(code, reason, o);
  (e as { call?: ToolCallRef }).call = ref;
  return e;
}

/** The same error about call `ref` (errors raised before the call was known get it here). */
function aboutCall(e: ToonError, ref: ToolCallRef): ToonError {
  if (e.call !== undefined) return e;
  const reason = e.reason.startsWith("tool call ") ? e.reason : `${callLabel(ref)}: ${e.reason}`;
  return callError(e.code, reason, ref, e.path, e.details, e.cause ?? e);
}

/**
 * Check `args` against tool `name` of `spec`: every violation of the schema (paths under `/arguments`), then
 * the tool's codec. Returns the findings; empty means valid.
 */
export function checkToolArguments(spec: ToolSetSpec, name: string, args: unknown): ToonErrorDetail[] {
  if (typeof name !== "string") return [{ path: "/name", message: `the tool name must be a string, got ${name === null ? "null" : typeof name}` }];
  const tool = spec.tools.get(name);
  if (tool === undefined) return [{ path: "/name", message: unknownToolMessage(spec, name) }];
  const found = checkShape(args, tool.shape, spec.defs, "/arguments", spec.patterns);
  if (found.length > 0) return found;
  const r = tool.codec.validate(args);
  if (!r.ok) return r.errors.map((d) => ({ path: "/arguments" + d.path, message: d.message }));
  return [];
}

function unknownToolMessage(spec: ToolSetSpec, name: string): string {
  const known = [...spec.tools.keys()];
  return `unknown tool ${show(name)} (${spec.name} has ${known.length === 0 ? "no tools" : listValues(known)})`;
}

function violationError(spec: ToolSetSpec, ref: ToolCallRef, details: ToonErrorDetail[]): ToonError {
  const first = details[0]!;
  const list = details.slice(0, 5).map((x) => `${x.path || "/"}: ${x.message}`).join("; ");
  return callError(
    "INVALID_VALUE",
    `${callLabel(ref)} of ${spec.name}: ${details.length} violation${details.length === 1 ? "" : "s"}: ${list}${details.length > 5 ? "; ..." : ""}`,
    ref,
    first.path,
    details,
  );
}

/**
 * Strict-mode definitions (`toolDefinitions(..., { strict: true })`) make every property required and the
 * optional ones nullable: the model then writes `null` for "not given". Read back, such a `null` (of an
 * optional property whose own schema does not take null) is an absent property again. Returns `v` itself
 * when nothing changes, else a copy (the caller's objects are never modified).
 */
function dropStrictNulls(v: unknown, s: CheckShape, defs: CheckDefs, depth = 0): unknown {
  if (depth > MAX_CHECK_DEPTH) return v;
  switch (s.kind) {
    case "ref": {
      const d = hasOwnProperty.call(defs, s.name) ? defs[s.name] : undefined;
      return d === undefined ? v : dropStrictNulls(v, d, defs, depth + 1);
    }
    case "array": {
      if (!Array.isArray(v)) return v;
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const x = dropStrictNulls(v[i], s.items, defs, depth + 1);
        if (x !== v[i]) (out ??= v.slice())[i] = x;
      }
      return out ?? v;
    }
    case "object": {
      if (!isPlainObject(v)) return v;
      let out: Record<string, unknown> | undefined;
      for (const [name, required, shape] of s.properties) {
        if (!hasOwnProperty.call(v, name)) continue;
        if (v[name] === null && !required && !acceptsNull(shape, defs)) {
          out ??= copyObject(v);
          delete out[name];
          continue;
        }
        const x = dropStrictNulls(v[name], shape, defs, depth + 1);
        if (x !== v[name]) (out ??= copyObject(v))[name] = x;
      }
      return out ?? v;
    }
    case "union": {
      // strict-mode unions are `anyOf`: only a discriminated one tells which branch to follow
      if (s.discriminator === undefined || !isPlainObject(v)) return v;
      for (const b of s.branches) {
        const o = deref(b, defs);
        const p = o?.kind === "object" ? o.properties.find((q) => q[0] === s.discriminator) : undefined;
        const t = p === undefined ? undefined : deref(p[2], defs);
        if (t?.kind === "const" && jsonEquals(v[s.discriminator], t.value)) return dropStrictNulls(v, b, defs, depth + 1);
      }
      return v;
    }
    default:
      return v;
  }
}

/** A shallow copy with own `__proto__` keys kept as own properties. */
function copyObject(v: Record<string, unknown>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(v)) Object.defineProperty(o, k, { value: v[k], enumerable: true, writable: true, configurable: true });
  return o;
}

/** The shape behind `s`'s refs (undefined for a missing definition or a cycle of refs). */
function deref(s: CheckShape, defs: CheckDefs): CheckShape | undefined {
  let cur: CheckShape | undefined = s;
  for (let i = 0; cur !== undefined && cur.kind === "ref" && i < 32; i++) cur = hasOwnProperty.call(defs, cur.name) ? defs[cur.name] : undefined;
  return cur;
}

function acceptsNull(s: CheckShape, defs: CheckDefs): boolean {
  const r = deref(s, defs);
  if (r === undefined) return true;
  switch (r.kind) {
    case "null":
    case "any":
      return true;
    case "enum":
      return r.values.includes(null);
    case "const":
      return r.value === null;
    case "union":
      return r.branches.some((b) => acceptsNull(b, defs));
    default:
      return false;
  }
}

/** Validate a complete call; throws INVALID_VALUE listing every violation (the error names the call). */
export function checkToolCall<C extends ToolCall>(spec: ToolSetSpec, id: string, name: string, args: unknown, index = 0, position?: string): C {
  const ref: ToolCallRef = { id, name, index, arguments: argumentText(args) };
  if (position !== undefined) ref.position = position;
  return checkCall<C>(spec, ref, args);
}

function checkCall<C extends ToolCall>(spec: ToolSetSpec, ref: ToolCallRef, args: unknown): C {
  const tool = spec.tools.get(ref.name);
  if (tool === undefined) {
    const m = unknownToolMessage(spec, ref.name);
    throw callError("INVALID_VALUE", `${callLabel(ref)}: ${m}`, ref, "/name", [{ path: "/name", message: m }]);
  }
  args = dropStrictNulls(args, tool.shape, spec.defs);
  const details = checkToolArguments(spec, ref.name, args);
  if (details.length > 0) throw violationError(spec, ref, details);
  return { id: ref.id, name: ref.name, arguments: args } as C;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/**
 * One tool call from model output, in any of these forms:
 * - OpenAI Chat Completions `message.tool_calls[i]`: `{ id, type: "function", function: { name, arguments: "<json>" } }`
 * - OpenAI Responses output item: `{ type: "function_call", call_id, name, arguments: "<json>" }`
 * - Anthropic content block: `{ type: "tool_use", id, name, input: {...} }`
 * - MCP `tools/call` params (or any `{ name, arguments }`, arguments an object or a JSON string; `id` optional)
 *
 * Returns `{ id, name, arguments }` (id `""` when the form has none), or throws a ToonError naming the call
 * (`error.call`: id, name, index, raw argument text): INVALID_VALUE with `details` listing every violation
 * (paths `/name`, `/arguments/...`), INCOMPLETE for cut-off arguments.
 */
export function parseToolCall<C extends ToolCall = ToolCall>(spec: ToolSetSpec, raw: unknown, index = 0, position?: string): C {
  const ref: ToolCallRef = { id: "", name: "", index, arguments: "" };
  if (position !== undefined) ref.position = position;
  if (!isPlainObject(raw)) throw callError("INVALID_VALUE", `expected a tool call object, got ${typeName(raw)}`, ref, "");
  let name: unknown;
  let args: unknown;
  if (raw.type === "tool_use" || (raw.input !== undefined && raw.arguments === undefined && raw.function === undefined)) {
    ref.id = str(raw.id) ?? "";
    name = raw.name;
    args = raw.input ?? {};
  } else if (isPlainObject(raw.function)) {
    ref.id = str(raw.id) ?? "";
    name = raw.function.name;
    args = raw.function.arguments;
  } else {
    ref.id = str(raw.call_id) ?? str(raw.id) ?? "";
    name = raw.name;
    args = raw.arguments ?? {};
  }
  ref.arguments = argumentText(args);
  if (typeof name !== "string") throw callError("INVALID_VALUE", `${callLabel(ref)} has no name (got ${typeName(name)})`, ref, "/name");
  ref.name = name;
  if (typeof args === "string") {
    try {
      args = parseArgumentsJson(args);
    } catch (e) {
      throw e instanceof ToonError ? aboutCall(e, ref) : e;
    }
  }
  return checkCall<C>(spec, ref, args);
}

/** The calls of a whole response with where each sits (a JSON pointer into the response). */
function findCalls(response: unknown): [at: string, raw: unknown][] {
  const found: [string, unknown][] = [];
  const collect = (v: unknown, at: string): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        if (!isPlainObject(x)) return;
        const t = x.type;
        if (t === "tool_use" || t === "function_call" || t === "function" || (t === undefined && x.name !== undefined)) found.push([`${at}/${i}`, x]);
      });
      return;
    }
    if (!isPlainObject(v)) return;
    if (Array.isArray(v.choices)) v.choices.forEach((c, i) => isPlainObject(c) && isPlainObject(c.message) && collect(c.message.tool_calls, `${at}/choices/${i}/message/tool_calls`));
    if (Array.isArray(v.tool_calls)) collect(v.tool_calls, `${at}/tool_calls`);
    if (Array.isArray(v.content)) collect(v.content, `${at}/content`);
    if (Array.isArray(v.output)) collect(v.output, `${at}/output`);
  };
  collect(response, "");
  return found;
}

/**
 * Every tool call in a whole (non-streamed) response: an OpenAI chat completion (`choices[].message.tool_calls`)
 * or message, an OpenAI Responses response (`output[]` function calls), an Anthropic message (`content[]`
 * tool_use blocks), or an array of calls. Throws the first bad call's error (its `call.position` says where it
 * sits); {@link tryParseToolCalls} reports every call instead.
 */
export function parseToolCalls<C extends ToolCall = ToolCall>(spec: ToolSetSpec, response: unknown): C[] {
  return findCalls(response).map(([at, raw], i) => parseToolCall<C>(spec, raw, i, at));
}

/** Every tool call of a whole response, each `{ ok: true, call }` or `{ ok: false, id, name, error }`; never throws for a bad call. */
export function tryParseToolCalls<C extends ToolCall = ToolCall>(spec: ToolSetSpec, response: unknown): ToolCallOutcome<C>[] {
  return findCalls(response).map(([at, raw], i) => {
    try {
      return { ok: true, call: parseToolCall<C>(spec, raw, i, at), index: i };
    } catch (e) {
      if (!(e instanceof ToonError) || e.call === undefined) throw e;
      return failure(e);
    }
  });
}

/**
 * What the accumulator (and `tryParseToolCalls`) yields per call: the valid call, or why it failed with what an
 * agent loop needs to answer it (the id and name; `error.call` also holds the raw argument text).
 */
export type ToolCallOutcome<C extends ToolCall = ToolCall> =
  | { ok: true; call: C; index: number }
  | { ok: false; id: string; name: string; index: number; error: ToonError };

function failure(e: ToonError): Extract<ToolCallOutcome, { ok: false }> {
  const ref = e.call!;
  return { ok: false, id: ref.id, name: ref.name, index: ref.index, error: e };
}

// ---------------------------------------------------------------------------------------------------------
// Streaming

/** A call the accumulator has seen start but not yet returned. */
export interface PendingToolCall {
  /** Where it came from: `openai:<completion id>:<choice>:<index>`, `responses:<output_index>` or `anthropic:<index>`. */
  key: string;
  id: string;
  name: string;
  /** Characters of argument JSON received so far. */
  received: number;
}

interface Slot extends PendingToolCall {
  text: string;
  /** The argument JSON read so far. */
  args: ArgumentsFeed;
  /** Arguments given whole (Anthropic `input` at block start, Responses `arguments` at `done`). */
  given?: unknown;
  /** Returned already (later fragments for it are an error), or failed. */
  done: boolean;
  /** OpenAI Chat: complete when the JSON closes; others wait for their stop event. */
  closesOnJson: boolean;
  /** The call's place in the stream (the order calls started), `ToolCallRef.index`. */
  order: number;
}

/**
 * Accumulates streamed tool-call events and yields each call once it is complete: `{ ok: true, call }` when it
 * is valid, `{ ok: false, id, name, error }` when it is not (a model's bad call is data for the next turn, not
 * an exception). It never throws for a bad call and keeps going after one.
 *
 * `push(event)` takes one parsed stream event (the JSON of an SSE `data:` line, or the SDKs' event objects) of:
 * - OpenAI Chat Completions chunks: `{ choices: [{ index, delta: { tool_calls: [{ index, id?, function: { name?, arguments? } }] }, finish_reason }] }`.
 *   A call is complete when its argument JSON closes (or, for `""`, when its choice finishes).
 * - OpenAI Responses events: `response.output_item.added`, `response.function_call_arguments.delta`,
 *   `response.function_call_arguments.done`, `response.output_item.done`, `response.incomplete`.
 * - Anthropic Messages events: `content_block_start` (tool_use), `content_block_delta` (`input_json_delta`),
 *   `content_block_stop`, `message_delta` (stop_reason `max_tokens` marks open calls as cut off).
 * Other events (text deltas, pings) are ignored.
 *
 * Failures: INVALID_VALUE (every violation in `details`, paths `/arguments/...`), INCOMPLETE (the stream cut the
 * call off: `length`, `max_tokens`, or no stop event), each error's `call` naming id, name, index, raw
 * arguments and stream position. Text arriving for a call already yielded is a second, failed outcome for it.
 * Call `end()` when the stream is over: it yields what is left, each call that never finished as INCOMPLETE.
 */
export class ToolCallAccumulator<C extends ToolCall = ToolCall> {
  private readonly slots = new Map<string, Slot>();
  private ready: ToolCallOutcome<C>[] = [];
  private order = 0;

  constructor(private readonly spec: ToolSetSpec) {}

  /** Calls started and not yet returned or failed, in the order they started. */
  get pending(): PendingToolCall[] {
    return [...this.slots.values()]
      .filter((s) => !s.done)
      .sort((a, b) => a.order - b.order)
      .map(({ key, id, name, received }) => ({ key, id, name, received }));
  }

  /** The outcomes this event completed (usually none or one; a finish event may complete several). */
  push(event: unknown): ToolCallOutcome<C>[] {
    if (isPlainObject(event)) {
      if (Array.isArray(event.choices)) {
        // indices restart with every completion: the chunk's completion id is part of the key
        const stream = typeof event.id === "string" ? event.id : "";
        for (const choice of event.choices) {
          if (!isPlainObject(choice)) continue;
          const ci = `${stream}:${typeof choice.index === "number" ? choice.index : 0}`;
          const delta = choice.delta;
          if (isPlainObject(delta) && Array.isArray(delta.tool_calls)) {
            for (const frag of delta.tool_calls) if (isPlainObject(frag)) this.openaiFragment(ci, frag);
          }
          const finish = choice.finish_reason;
          if (typeof finish === "string") this.finishPrefix(`openai:${ci}:`, finish);
        }
      } else if (typeof event.type === "string") {
        this.typedEvent(event.type, event);
      }
    }
    return this.take();
  }

  /** The stream is over: the calls still waiting, and each call that never finished as INCOMPLETE. */
  end(): ToolCallOutcome<C>[] {
    for (const s of [...this.slots.values()].sort((a, b) => a.order - b.order)) {
      if (s.done) continue;
      // a call whose JSON closed (or that carries no arguments) but whose stop event never came is whole
      s.args.end();
      if (s.args.closed || s.args.broken) this.complete(s);
      else this.cutOff(s);
    }
    return this.take();
  }

  private take(): ToolCallOutcome<C>[] {
    const out = this.ready;
    this.ready = [];
    return out;
  }

  private slot(key: string, closesOnJson: boolean): Slot {
    let s = this.slots.get(key);
    if (s === undefined) {
      s = { key, id: "", name: "", received: 0, text: "", args: new ArgumentsFeed(), done: false, closesOnJson, order: this.order++ };
      this.slots.set(key, s);
    }
    return s;
  }

  private ref(s: Slot): ToolCallRef {
    return { id: s.id, name: s.name, index: s.order, arguments: s.args.empty && s.given !== undefined ? argumentText(s.given) : s.text, position: s.key };
  }

  private fail(s: Slot, code: ToonErrorCode, reason: string, path: string, details?: ToonErrorDetail[]): void {
    const ref = this.ref(s);
    this.ready.push(failure(callError(code, `${callLabel(ref)}: ${reason}`, ref, path, details)));
  }

  private append(s: Slot, text: string): void {
    if (text === "") return;
    if (s.done) {
      if (text.trim() !== "") this.fail(s, "INVALID_VALUE", "more argument text after the call was complete", "/arguments");
      return;
    }
    s.text += text;
    s.received = s.text.length;
    s.args.feed(text);
  }

  private openaiFragment(choice: string, frag: Record<string, unknown>): void {
    const index = typeof frag.index === "number" ? frag.index : 0;
    const s = this.slot(`openai:${choice}:${index}`, true);
    if (typeof frag.id === "string" && frag.id !== "") s.id = frag.id;
    const fn = frag.function;
    if (isPlainObject(fn)) {
      // names arrive whole in the first fragment; some compatible servers repeat them, others split them
      if (typeof fn.name === "string" && fn.name !== "" && fn.name !== s.name && !s.done) s.name += fn.name;
      if (typeof fn.arguments === "string") this.append(s, fn.arguments);
    }
    if (!s.done && s.name !== "" && s.args.closed) this.complete(s);
  }

  private typedEvent(type: string, e: Record<string, unknown>): void {
    switch (type) {
      // Anthropic Messages
      case "content_block_start": {
        const block = e.content_block;
        if (!isPlainObject(block) || block.type !== "tool_use") return;
        const key = `anthropic:${typeof e.index === "number" ? e.index : 0}`;
        // block indices restart with every message: a new block replaces a finished one of the same index
        const old = this.slots.get(key);
        if (old !== undefined) {
          this.slots.delete(key);
          if (!old.done) this.cutOff(old);
        }
        const s = this.slot(key, false);
        s.id = str(block.id) ?? "";
        s.name = str(block.name) ?? "";
        if (isPlainObject(block.input) && Object.keys(block.input).length > 0) s.given = block.input;
        return;
      }
      case "content_block_delta": {
        const delta = e.delta;
        if (!isPlainObject(delta) || delta.type !== "input_json_delta") return;
        // (deltas of blocks that are not client tool calls, e.g. server_tool_use, are not ours)
        const s = this.slots.get(`anthropic:${typeof e.index === "number" ? e.index : 0}`);
        if (s !== undefined && typeof delta.partial_json === "string") this.append(s, delta.partial_json);
        return;
      }
      case "content_block_stop": {
        const s = this.slots.get(`anthropic:${typeof e.index === "number" ? e.index : 0}`);
        if (s === undefined || s.done) return;
        this.completeOrCut(s);
        return;
      }
      case "message_delta": {
        const d = e.delta;
        const reason = isPlainObject(d) ? d.stop_reason : undefined;
        if (typeof reason === "string") this.finishPrefix("anthropic:", reason);
        return;
      }
      // OpenAI Responses
      case "response.output_item.added":
      case "response.output_item.done": {
        const item = e.item;
        if (!isPlainObject(item) || item.type !== "function_call") return;
        const s = this.slot(`responses:${typeof e.output_index === "number" ? e.output_index : 0}`, false);
        s.id = str(item.call_id) ?? str(item.id) ?? s.id;
        if (typeof item.name === "string") s.name = item.name;
        if (type === "response.output_item.done" && !s.done) {
          if (typeof item.arguments === "string") this.replace(s, item.arguments);
          this.completeOrCut(s);
        }
        return;
      }
      case "response.function_call_arguments.delta": {
        const s = this.slot(`responses:${typeof e.output_index === "number" ? e.output_index : 0}`, false);
        if (typeof e.delta === "string") this.append(s, e.delta);
        return;
      }
      case "response.function_call_arguments.done": {
        const s = this.slot(`responses:${typeof e.output_index === "number" ? e.output_index : 0}`, false);
        if (s.done) return;
        if (typeof e.name === "string" && s.name === "") s.name = e.name;
        if (typeof e.arguments === "string") this.replace(s, e.arguments);
        this.completeOrCut(s);
        return;
      }
      case "response.incomplete":
      case "response.failed":
        this.finishPrefix("responses:", "incomplete");
        return;
      default:
        return;
    }
  }

  /** The final, whole argument text replaces the fragments. */
  private replace(s: Slot, text: string): void {
    s.text = "";
    s.args = new ArgumentsFeed();
    s.received = 0;
    this.append(s, text);
  }

  private completeOrCut(s: Slot): void {
    s.args.end();
    if (s.args.empty || s.args.closed || s.args.broken) this.complete(s);
    else this.cutOff(s);
  }

  /** A choice or message finished: its open calls are whole now, or were cut off (`length`, `max_tokens`). */
  private finishPrefix(prefix: string, reason: string): void {
    for (const s of [...this.slots.values()].sort((a, b) => a.order - b.order)) {
      if (s.done || !s.key.startsWith(prefix)) continue;
      s.args.end();
      // a broken call is a failure of its own, whatever stopped the stream
      const whole = s.args.closed || s.args.broken;
      if (whole || (s.args.empty && reason !== "length" && reason !== "max_tokens" && reason !== "incomplete")) this.complete(s);
      else this.cutOff(s, reason);
    }
  }

  /** The stream stopped (`reason`) or ended before the call's JSON closed. */
  private cutOff(s: Slot, reason?: string): void {
    s.done = true;
    const why = reason === undefined ? "the stream ended" : `the stream stopped (${reason})`;
    this.fail(s, "INCOMPLETE", `${why} after ${s.text.length} characters of arguments, before their JSON was complete`, "/arguments");
  }

  private complete(s: Slot): void {
    s.done = true;
    let args: unknown;
    if (s.args.empty) args = s.given ?? {};
    else {
      const e = s.args.error("/arguments");
      if (e !== undefined) return this.fail(s, e.code, e.reason, e.path);
      args = s.args.value;
    }
    try {
      this.ready.push({ ok: true, call: checkCall<C>(this.spec, this.ref(s), args), index: s.order });
    } catch (e) {
      if (!(e instanceof ToonError) || e.call === undefined) throw e;
      this.ready.push(failure(e));
    }
  }
}

export { toolResultMessage, toolErrorMessage, toolErrorPayload } from "./tools-results.ts";
export type { ToolResultFormat, ToolResultMessages, ToolResultTarget, ToolErrorPayload } from "./tools-results.ts";
export { toolDefinitions } from "./tools-definitions.ts";
export type { ToolSource, ToolDefinitionFormat, ToolDefinitionOptions, ToolDefinitions } from "./tools-definitions.ts";
