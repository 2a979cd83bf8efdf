/**
 * The source JSON Schema -> JavaScript validation code, at build time: ajv's standalone code generation (the
 * design names ajv: the well-kept, suite-tested compiler), picked by draft, with every error listed
 * (`allErrors`) and no message strings (runtime/validate/messages.ts makes them from keyword and params).
 *
 * ajv's output `require`s its runtime helpers even in ESM mode; each is rewritten to a binding of
 * `toon-gen/runtime/validate` (`$ucs2length`, `$equal`, `$formats`), and any other `require` is refused, so the
 * emitted module needs no ajv, no Node and no `eval` at run time. The format checks given to ajv here are the
 * runtime's own objects (runtime/validate/formats.ts): ajv compiles calls of the same code that runs later.
 *
 * References are resolved by ajv through `load` (an absolute URI -> a parsed document): never the network.
 */
import { createRequire } from "node:module";
import { Ajv, _, type AnySchemaObject, type Options } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import AjvDraft04Ns from "ajv-draft-04";
import standaloneNs from "ajv/dist/standalone/index.js";
import { ToonError } from "../../runtime/wire/errors.ts";
import { formats } from "../../runtime/validate/formats.ts";
import type { Draft } from "../load/drafts.ts";
import { schemaForAjv } from "./prepare.ts";
import { PatternBudget, patternPlan } from "../load/patterns.ts";
import { installLinearScope } from "./ajv-scope.ts";

const standaloneCode = ((standaloneNs as unknown as { default?: unknown }).default ?? standaloneNs) as (ajv: unknown, fn: unknown) => string;
const AjvDraft04 = ((AjvDraft04Ns as unknown as { default?: unknown }).default ?? AjvDraft04Ns) as typeof Ajv;
const require = createRequire(import.meta.url);

export interface ValidatorInput {
  /** The whole source document (a schema or a document holding it at `pointer`). */
  document: unknown;
  /** JSON pointer of the schema inside `document` (`""`: the document itself). */
  pointer: string;
  draft: Draft;
  /** Absolute URI the document is known by when it has no `$id` (its file URL); relative refs resolve against it. */
  baseUri: string;
  /** A referenced resource by absolute URI (without fragment): its parsed document. Throws when it cannot be mapped. */
  load: (uri: string) => unknown;
}

export interface CompileValidatorOptions {
  /** `false`: `format` is not checked at all (the checks are left out of the code). Default `true`. */
  formats?: boolean;
  /** `false`: skip checking the schema against its meta-schema (faster; the conformance test's schemas are valid). */
  validateSchema?: boolean;
  /** A pattern neither recheck nor RE2 vouches for: `"error"` (default, UNSUPPORTED_SCHEMA) or `"allow"` (RegExp, a warning). */
  unsafePatterns?: "error" | "allow";
}

export interface CompiledValidator {
  /** Module-level JavaScript: declarations only, the helpers referenced as `$ucs2length`, `$equal`, `$formats`. */
  code: string;
  /** The validate function's name in `code`. */
  entry: string;
  /** Which runtime helpers `code` uses. */
  helpers: ("ucs2length" | "equal" | "formats")[];
  /** `code` runs some patterns on re2js (as `$RE2JS`): the module imports it (../load/patterns.ts). */
  linearPatterns: boolean;
  /** Constructs ajv ignored (unknown formats, unknown keywords), one line each. */
  warnings: string[];
}

/** ajv for `draft` (also the conformance test's reference: plain ajv with ajv-formats). */
export function ajvFor(draft: Draft, options: Options): Ajv {
  switch (draft) {
    case 4:
      return new AjvDraft04(options);
    case 6: {
      const ajv = new Ajv(options);
      ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json") as AnySchemaObject);
      return ajv;
    }
    case 7:
      return new Ajv(options);
    case 2019:
      return new Ajv2019(options) as unknown as Ajv;
    default:
      return new Ajv2020(options) as unknown as Ajv;
  }
}

/** What ajv's standalone output requires, and the runtime binding each becomes. */
const HELPERS: Record<string, "ucs2length" | "equal"> = {
  'require("ajv/dist/runtime/ucs2length").default': "ucs2length",
  'require("ajv/dist/runtime/equal").default': "equal",
};

export async function compileValidator(input: ValidatorInput, options: CompileValidatorOptions = {}): Promise<CompiledValidator> {
  installLinearScope();
  const warnings: string[] = [];
  const checkFormats = options.formats !== false;
  const note = (msg: unknown): void => {
    const text = String(msg);
    if (!warnings.includes(text)) warnings.push(text);
  };
  const ajv = ajvFor(input.draft, {
    strict: false,
    allErrors: true,
    // `required: ["toString"]` must not be met by Object.prototype: own properties only
    ownProperties: true,
    validateSchema: options.validateSchema !== false,
    messages: false,
    validateFormats: checkFormats,
    // the runtime's own format objects: compiled as `$formats.<name>.validate(x)`
    formats: checkFormats ? (formats as unknown as Options["formats"]) : {},
    logger: { log: () => {}, warn: note, error: note },
    code: { source: true, esm: true, lines: true, formats: _`$formats` },
    loadSchema: async (uri: string) => {
      return schemaForAjv(input.load(uri), input.draft, uri, warnings) as AnySchemaObject;
    },
  });
  let validate: unknown;
  try {
    const doc = schemaForAjv(input.document, input.draft, input.baseUri, warnings);
    const ownId = typeof doc === "object" && doc !== null && typeof (doc as Record<string, unknown>)[input.draft === 4 ? "id" : "$id"] === "string";
    if (input.pointer === "" && ownId) {
      // a document with its own `$id` is its own base: compiled as it stands (a `$ref` wrapper under another
      // key sends ajv into endless recursion on some relative-id layouts)
      validate = await ajv.compileAsync(doc as AnySchemaObject);
    } else {
      ajv.addSchema(doc as AnySchemaObject, input.baseUri);
      validate = await ajv.compileAsync({ $ref: `${input.baseUri}#${encodePointer(input.pointer)}` });
    }
  } catch (e) {
    if (e instanceof ToonError) throw e;
    throw new ToonError("UNSUPPORTED_SCHEMA", `cannot compile the JSON Schema validator: ${(e as Error).message}`, { path: input.pointer, cause: e });
  }
  let js = standaloneCode(ajv, validate);
  const head = /^"use strict";\s*export const validate = (validate\d+);\s*export default \1;\s*/.exec(js);
  if (head === null) throw new Error("internal: unexpected ajv standalone output (no export of the validate function)");
  js = js.slice(head[0].length);
  const used = new Set<"ucs2length" | "equal" | "formats">();
  js = js.replace(/require\("[^"]*"\)(?:\.default)?/g, (req) => {
    const helper = HELPERS[req];
    if (helper === undefined) throw new ToonError("UNSUPPORTED_SCHEMA", `the JSON Schema validator needs ${req}, which @toon-gen/runtime/validate does not provide`, { path: input.pointer });
    used.add(helper);
    return "$" + helper;
  });
  if (js.includes("$formats")) used.add("formats");
  // error locations in the schema: validate() reports the instance path and keyword, never these
  js = js.replace(/schemaPath:"(?:[^"\\]|\\.)*",/g, "");
  js = withoutUnusedSchemas(js);
  const planned = withPlannedPatterns(js, options.unsafePatterns ?? "error", warnings);
  js = sideEffectFree(planned.js);
  return { code: js, entry: head[1]!, helpers: [...used].sort(), linearPatterns: planned.linear, warnings };
}

/**
 * ajv compiles every pattern of the schema (`pattern`, `patternProperties` keys, `propertyNames`, inside `not`
 * or `if` too) to one top-level `const patternN = new RegExp("...", "u");`. Each gets its plan: RegExp stays for
 * a certified pattern, re2js (`$RE2JS.compile` of its RE2 spelling) takes one recheck does not certify, and one
 * neither vouches for is an error unless allowed. The loader has planned (and named the path of) every pattern it
 * reads; the plans are shared, so this only adds the patterns in parts of a schema the shape does not read.
 */
function withPlannedPatterns(js: string, unsafe: "error" | "allow", warnings: string[]): { js: string; linear: boolean } {
  const budget = new PatternBudget();
  let linear = false;
  const out = js.replace(/^const (pattern\d+) = new RegExp\(("(?:[^"\\]|\\.)*"), "u?"\);$/gm, (line, id: string, literal: string) => {
    const source = JSON.parse(literal) as string;
    const plan = patternPlan(source, budget);
    if (plan.engine === "native") return line;
    if (plan.engine === "linear") {
      linear = true;
      return `const ${id} = $RE2JS.compile(${JSON.stringify(plan.source)});`;
    }
    const what = `pattern ${JSON.stringify(source)}: ${plan.why}`;
    if (unsafe === "error") throw new ToonError("SCHEMA_ERROR", `${what}; rewrite it, or set "unsafePatterns": "allow" to accept the risk`, { path: "" });
    warnings.push(`kept on RegExp by "unsafePatterns": "allow": ${what}`);
    return line;
  });
  return { js: out, linear };
}

/**
 * ajv's top level is constant definitions and `validateN.evaluated = {...}` assignments: statements with side
 * effects, so a bundler keeps the whole validator (and the formats it uses) in every bundle that imports the
 * codec module, which imports its validator, unless the app's package.json says `"sideEffects": false`. As module
 * constants (and PURE RegExps) the validator is dropped wherever nothing calls it. The rename skips string
 * literals (ajv writes them in double quotes), so a schema's own text is never changed.
 */
export function sideEffectFree(js: string): string {
  js = js
    .replace(/^const (\w+) = (new RegExp\(|\$RE2JS\.compile\()/gm, "const $1 = /*@__PURE__*/ $2")
    // a property read may run a getter, so bundlers keep it: read inside a PURE call instead
    .replace(/^const (\w+) = (\$formats(?:\.\w+|\["[\w-]+"\])|Object\.prototype\.hasOwnProperty);$/gm, "const $1 = /*@__PURE__*/ (() => $2)();");
  // `validateN.evaluated` as a constant, only where every read names a function whose assignment is at the top
  // level: a function reached dynamically (`$dynamicRef`) has its `.evaluated` read off a variable, and keeps it
  const assigned = new Set([...js.matchAll(/^(validate\d+)\.evaluated = /gm)].map((m) => m[1]));
  const reads = [...js.matchAll(/(\w+)\.evaluated\b/g)];
  if (assigned.size === 0 || !reads.every((m) => assigned.has(m[1]!))) return js;
  js = js.replace(/^(validate\d+)\.evaluated = /gm, "const $1_evaluated = ");
  const rename = (code: string): string => code.replace(/\b(validate\d+)\.evaluated\b/g, "$1_evaluated");
  let out = "";
  let from = 0;
  for (let i = 0; i < js.length; i++) {
    if (js.charCodeAt(i) !== 34) continue;
    let j = i + 1;
    while (j < js.length && js.charCodeAt(j) !== 34) j += js.charCodeAt(j) === 92 ? 2 : 1;
    out += rename(js.slice(from, i)) + js.slice(i, j + 1);
    from = j + 1;
    i = j;
  }
  return out + rename(js.slice(from));
}

/** A JSON pointer as a URI fragment (`/a b` -> `/a%20b`), as ajv resolves `$ref`s. */
function encodePointer(pointer: string): string {
  return pointer.split("/").map((t) => encodeURIComponent(t).replace(/%7E/gi, "~")).join("/");
}

/**
 * ajv declares every schema object it compiled (`const schema32 = {...};`) whether or not the code reads it; the
 * unread ones (most: they carry the descriptions) are dropped, so the module is not the schema again.
 */
function withoutUnusedSchemas(js: string): string {
  for (;;) {
    let removed = false;
    // declarations start statements (`;const schema32 = `); the value must be JSON, as ajv writes it
    for (const m of js.matchAll(/(?<=^|;|\n)const (schema\d+) = /g)) {
      const uses = js.match(new RegExp(`\\b${m[1]}\\b`, "g"))!.length;
      if (uses > 1) continue;
      const start = m.index!;
      const end = jsonEnd(js, start + m[0].length);
      if (end === -1 || js[end] !== ";" || !isJson(js.slice(start + m[0].length, end))) continue;
      js = js.slice(0, start) + js.slice(js[end + 1] === "\n" ? end + 2 : end + 1);
      removed = true;
      break;
    }
    if (!removed) return js;
  }
}

/** The index just past the JSON value starting at `i` (strings and nesting respected); -1 if it is not one. */
function jsonEnd(text: string, i: number): number {
  const open = text[i];
  if (open !== "{" && open !== "[") {
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")/.exec(text.slice(i, i + 1000));
    return m === null ? -1 : i + m[0].length;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '"') {
      for (j++; j < text.length && text[j] !== '"'; j++) if (text[j] === "\\") j++;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
