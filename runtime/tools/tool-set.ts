/**
 * A tool set as the generated module describes it (`toolSet`), and the checks of one call against it: the tool's
 * name, its arguments against the tool's shape and codec, the errors that name the call (`error.call`). The
 * parser of provider shapes (./parse.ts) and the streaming accumulator (./accumulator.ts) both end here. A tool's
 * shape is its `arguments` in the call codec's descriptor, checked by the one constraint checker
 * (../validate/constraints.ts) with the codecs' messages.
 */
import type { CodecDescriptor, Shape } from "../codec/descriptor.ts";
import { type ToolCallRef, ToonError, type ToonErrorCode, type ToonErrorDetail, type ToonErrorOptions } from "../wire/errors.ts";
import { isPlainObject, jsonEquals } from "../wire/objects.ts";
import type { ValidationResult } from "../features/validate.ts";
import { type DefinitionLookup, definitionsOf, deref, MAX_CHECK_DEPTH, type PatternTests, violations } from "../validate/constraints.ts";

const hasOwnProperty = Object.prototype.hasOwnProperty;

/** What the runtime needs of one tool: its argument codec (the final word on validity) and its shape. */
export interface ToolSpec {
  readonly name: string;
  readonly codec: { validate(value: unknown): ValidationResult<unknown> };
  /** The shape of the tool's `arguments` in the call codec's descriptor. */
  readonly shape: Shape;
}

export interface ToolSetSpec {
  readonly name: string;
  readonly tools: ReadonlyMap<string, ToolSpec>;
  /** The call codec's descriptor: where the tools' shapes find their definitions. */
  readonly descriptor: CodecDescriptor;
  /** Patterns that run on another engine than RegExp (re2js, for patterns a ReDoS checker does not certify). */
  readonly patterns?: PatternTests;
}

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

/**
 * Build the spec a generated module hands to `parseToolCall` and `ToolCallAccumulator`: each tool with its argument
 * codec, and `call`, the descriptor of the set's call codec, whose root is the calls (`{ name, arguments }` objects,
 * a union of them discriminated by `name` for more than one tool): each tool's shape is its `arguments` there.
 */
export function toolSet(
  name: string,
  tools: readonly (readonly [name: string, codec: ToolSpec["codec"]])[],
  call: CodecDescriptor,
  patterns?: PatternTests,
): ToolSetSpec {
  const shapes = argumentShapes(call);
  const map = new Map<string, ToolSpec>();
  for (const [n, codec] of tools) {
    const shape = shapes.get(n);
    if (shape === undefined) throw new ToonError("INVALID_VALUE", `toolSet: ${call.name} has no call of tool ${show(n)}`);
    map.set(n, { name: n, codec, shape });
  }
  return patterns === undefined ? { name, tools: map, descriptor: call } : { name, tools: map, descriptor: call, patterns };
}

/** Tool name -> the shape of its `arguments`, from the call objects of a call codec's root. */
function argumentShapes(call: CodecDescriptor): Map<string, Shape> {
  const defs = definitionsOf(call);
  const root = deref(call.root, defs);
  const out = new Map<string, Shape>();
  for (const b of root?.kind === "union" ? root.branches : root === undefined ? [] : [root]) {
    const o = deref(b, defs);
    if (o?.kind !== "object") continue;
    const tool = o.properties.find((p) => p.name === "name")?.shape;
    const args = o.properties.find((p) => p.name === "arguments")?.shape;
    if (tool?.kind === "const" && typeof tool.value === "string" && args !== undefined) out.set(tool.value, args);
  }
  return out;
}

/** `"a", "b", "c"` (up to 12, then how many in all): the tools a set has. */
function listNames(names: readonly string[]): string {
  const shown = names.slice(0, 12).map((x) => JSON.stringify(x));
  return shown.join(", ") + (names.length > 12 ? `, ... (${names.length} in all)` : "");
}

/** A short, safe rendering of untrusted text for messages. */
function show(s: string): string {
  return JSON.stringify(s.length > 80 ? s.slice(0, 77) + "..." : s);
}

/** `tool call "get_weather" (call_1)`: how messages name a call (the id only when there is one). */
export function callLabel(ref: ToolCallRef): string {
  return `tool call ${show(ref.name || "(no name)")}${ref.id !== "" ? ` (${show(ref.id)})` : ""}`;
}

/** Argument text for `ToolCallRef.arguments`: the text as received, or the JSON of arguments sent whole. */
export function argumentText(args: unknown): string {
  if (typeof args === "string") return args;
  if (args === undefined) return "";
  try {
    return JSON.stringify(args) ?? "";
  } catch {
    return ""; // a cyclic or bigint value from a caller: nothing to show
  }
}

/** A ToonError about one call: `path` into the parsed call, the call named in the message and in `call`. */
export function callError(code: ToonErrorCode, reason: string, ref: ToolCallRef, path: string, details?: ToonErrorDetail[], cause?: unknown): ToonError {
  const o: ToonErrorOptions = { path };
  if (details !== undefined) o.details = details;
  if (cause !== undefined) o.cause = cause;
  const e = new ToonError(code, reason, o);
  (e as { call?: ToolCallRef }).call = ref;
  return e;
}

/** The same error about call `ref` (errors raised before the call was known get it here). */
export function aboutCall(e: ToonError, ref: ToolCallRef): ToonError {
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
  const found = violations(args, tool.shape, definitionsOf(spec.descriptor), "/arguments", spec.patterns);
  if (found.length > 0) return found;
  const r = tool.codec.validate(args);
  if (!r.ok) return r.errors.map((d) => ({ path: "/arguments" + d.path, message: d.message }));
  return [];
}

function unknownToolMessage(spec: ToolSetSpec, name: string): string {
  const known = [...spec.tools.keys()];
  return `unknown tool ${show(name)} (${spec.name} has ${known.length === 0 ? "no tools" : listNames(known)})`;
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
function dropStrictNulls(v: unknown, s: Shape, defs: DefinitionLookup, depth = 0): unknown {
  if (depth > MAX_CHECK_DEPTH) return v;
  switch (s.kind) {
    case "ref": {
      const d = defs(s.name);
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
      for (const { name, required, shape } of s.properties) {
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
      const d = s.discriminator;
      if (d === undefined || !isPlainObject(v) || !hasOwnProperty.call(v, d.property)) return v;
      const i = d.values.findIndex((x) => jsonEquals(v[d.property], x));
      return i >= 0 && i < s.branches.length ? dropStrictNulls(v, s.branches[i]!, defs, depth + 1) : v;
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

function acceptsNull(s: Shape, defs: DefinitionLookup, depth = 0): boolean {
  const r = deref(s, defs);
  if (r === undefined || depth > MAX_CHECK_DEPTH) return true;
  switch (r.kind) {
    case "null":
    case "any":
      return true;
    case "enum":
      return r.values.includes(null);
    case "const":
      return r.value === null;
    case "union":
      return r.branches.some((b) => acceptsNull(b, defs, depth + 1));
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

export function checkCall<C extends ToolCall>(spec: ToolSetSpec, ref: ToolCallRef, args: unknown): C {
  const tool = spec.tools.get(ref.name);
  if (tool === undefined) {
    const m = unknownToolMessage(spec, ref.name);
    throw callError("INVALID_VALUE", `${callLabel(ref)}: ${m}`, ref, "/name", [{ path: "/name", message: m }]);
  }
  args = dropStrictNulls(args, tool.shape, definitionsOf(spec.descriptor));
  const details = checkToolArguments(spec, ref.name, args);
  if (details.length > 0) throw violationError(spec, ref, details);
  return { id: ref.id, name: ref.name, arguments: args } as C;
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/**
 * What the accumulator (and `tryParseToolCalls`) yields per call: the valid call, or why it failed with what an
 * agent loop needs to answer it (the id and name; `error.call` also holds the raw argument text).
 */
export type ToolCallOutcome<C extends ToolCall = ToolCall> =
  | { ok: true; call: C; index: number }
  | { ok: false; id: string; name: string; index: number; error: ToonError };

export function failure(e: ToonError): Extract<ToolCallOutcome, { ok: false }> {
  const ref = e.call!;
  return { ok: false, id: ref.id, name: ref.name, index: ref.index, error: e };
}
