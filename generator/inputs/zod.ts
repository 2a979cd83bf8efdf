/**
 * Zod schemas as inputs (docs/inputs.md). A config input that names a TS/JS module (`src/schemas.ts`, or
 * `src/schemas.ts#WeatherQuery` for one export) is imported by the generator itself through tsx's API (users
 * run no compile step); every exported Zod schema (or the one named) becomes a codec.
 *
 * Each schema is converted to JSON Schema by the converter of its own Zod major version, told apart per
 * schema: Zod 4 schemas carry `_zod` (classic, mini, and `zod/v4` from zod 3.25) and go through Zod's
 * `toJSONSchema` (output types, draft 2020-12); Zod 3 schemas (`zod@3`, or `zod/v3` from zod 4) go through
 * zod-to-json-schema. (zod-to-json-schema given a Zod 4 schema silently returns `{}`: we never do that, and an
 * empty result for a schema that is not `z.any()`/`z.unknown()` is an error.)
 *
 * Constructs with no JSON Schema are never passed over silently:
 * - errors: `z.date()`, `z.bigint()`, `z.map()`, `z.set()`, `z.symbol()`, `z.undefined()`/`z.void()` as a value,
 *   `z.nan()`, `z.function()`, `z.promise()`, `z.file()` (a TOON value is JSON data; the message says what to
 *   use instead);
 * - warned fallbacks to "any JSON value" (type `unknown`): `z.custom()` and the output of `.transform()` (Zod
 *   cannot describe what a transform returns). Refinements (`.refine`, `.superRefine`, `.check`) keep their
 *   shape and are checked by Zod only.
 */
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ToonError } from "../../runtime/wire/errors.ts";
import { pascalCase } from "../ir/names.ts";

export type ZodMajor = 3 | 4;

/** A Zod 4 schema (classic or mini, any copy of the package): it has the `_zod` internals. */
export function isZod4Schema(v: unknown): boolean {
  return (typeof v === "object" || typeof v === "function") && v !== null && "_zod" in v && typeof (v as { _zod: unknown })._zod === "object";
}

/** A Zod 3 schema (`zod@3`, or `zod/v3`): `_def.typeName` and `safeParse`, no `_zod`. */
export function isZod3Schema(v: unknown): boolean {
  if (typeof v !== "object" || v === null || "_zod" in v) return false;
  const def = (v as { _def?: { typeName?: unknown } })._def;
  return typeof def === "object" && def !== null && typeof def.typeName === "string" && typeof (v as { safeParse?: unknown }).safeParse === "function";
}

export function isZodSchema(v: unknown): boolean {
  return isZod4Schema(v) || isZod3Schema(v);
}

export interface ZodConversion {
  major: ZodMajor;
  jsonSchema: Record<string, unknown>;
  /** Fallbacks taken (each names the JSON Schema path and the Zod construct). */
  warnings: string[];
}

/** Zod 4 `def.type` values with no JSON Schema, and what to use instead. */
const REJECTED_V4: Record<string, string> = {
  date: "a Date is not JSON data: use z.iso.datetime() or z.iso.date() (ISO strings)",
  bigint: "a bigint is not JSON data: use z.int() (a number), or z.string() with an integer format",
  map: "a Map is not JSON data: use z.record()",
  set: "a Set is not JSON data: use z.array()",
  symbol: "a symbol is not JSON data",
  undefined: "undefined is not JSON data: make the property optional instead",
  void: "undefined is not JSON data: make the property optional instead",
  nan: "NaN is not JSON data",
  function: "a function is not JSON data",
  promise: "a Promise is not JSON data: convert the awaited value's schema",
  file: "a File is not JSON data: use z.base64() (a string)",
};

const FALLBACK_V4: Record<string, string> = {
  custom: "z.custom() has no JSON Schema: encoded as any JSON value (type unknown)",
  transform: ".transform() output has no JSON Schema: encoded as any JSON value (type unknown); validate with Zod before encoding",
};

/** Zod 3 `_def.typeName` values with no JSON Schema. */
const REJECTED_V3: Record<string, string> = {
  ZodDate: REJECTED_V4.date!.replace("z.iso.datetime() or z.iso.date()", "z.string().datetime() or z.string().date()"),
  ZodBigInt: "a bigint is not JSON data: use z.number().int(), or a string",
  ZodMap: REJECTED_V4.map!,
  ZodSet: REJECTED_V4.set!,
  ZodSymbol: REJECTED_V4.symbol!,
  ZodUndefined: REJECTED_V4.undefined!,
  ZodVoid: REJECTED_V4.void!,
  ZodNaN: REJECTED_V4.nan!,
  ZodFunction: REJECTED_V4.function!,
  ZodPromise: REJECTED_V4.promise!,
};

function pointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

async function importOptional<T>(specifier: string, what: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", `${what} needs the package "${specifier.split("/")[0]}" (${(e as Error).message})`, { cause: e });
  }
}

type Zod4Core = {
  toJSONSchema: (schema: unknown, params?: Record<string, unknown>) => Record<string, unknown>;
};

type ZodToJsonSchema = {
  zodToJsonSchema: (schema: unknown, options?: Record<string, unknown>) => Record<string, unknown>;
  ignoreOverride: symbol;
};

/** True when a converted schema constrains nothing (no keyword beyond bookkeeping and annotations). */
function isEmptySchema(s: Record<string, unknown>): boolean {
  const bookkeeping = new Set(["$schema", "$id", "$defs", "definitions", "title", "description", "default", "examples", "$comment"]);
  return Object.keys(s).every((k) => bookkeeping.has(k));
}

function zodTypeOf4(schema: unknown): string | undefined {
  const def = (schema as { _zod?: { def?: { type?: unknown } } })._zod?.def;
  return typeof def?.type === "string" ? def.type : undefined;
}

function zodTypeOf3(schema: unknown): string | undefined {
  const t = (schema as { _def?: { typeName?: unknown } })._def?.typeName;
  return typeof t === "string" ? t : undefined;
}

/** The open, unconstrained types: `{}` is their right conversion, not a lossy one. */
const OPEN_TYPES = new Set(["any", "unknown", "ZodAny", "ZodUnknown"]);

/** Convert one Zod schema (either major version) to JSON Schema; `where` names it in messages. */
export async function zodToJsonSchema(schema: unknown, where: string): Promise<ZodConversion> {
  if (isZod4Schema(schema)) return convert4(schema, where);
  if (isZod3Schema(schema)) return convert3(schema, where);
  throw new ToonError("SCHEMA_ERROR", `${where}: not a Zod schema`);
}

async function convert4(schema: unknown, where: string): Promise<ZodConversion> {
  const core = await importOptional<Zod4Core>("zod/v4/core", "converting a Zod 4 schema");
  const rejected: string[] = [];
  const warnings: string[] = [];
  let json: Record<string, unknown>;
  try {
    json = core.toJSONSchema(schema, {
      target: "draft-2020-12",
      io: "output",
      cycles: "ref",
      reused: "inline",
      unrepresentable: "any",
      override: (ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown>; path: (string | number)[] }) => {
        const type = zodTypeOf4(ctx.zodSchema);
        if (type === undefined) return;
        const at = pointer(ctx.path) || "/";
        const reason = REJECTED_V4[type];
        if (reason !== undefined) {
          rejected.push(`${at}: ${reason}`);
          return;
        }
        if (type === "literal") {
          const values = (ctx.zodSchema as { _zod: { def: { values?: unknown[] } } })._zod.def.values ?? [];
          if (values.some((v) => v === undefined || typeof v === "bigint")) rejected.push(`${at}: a literal undefined or bigint is not JSON data`);
          return;
        }
        const fallback = FALLBACK_V4[type];
        if (fallback !== undefined) {
          for (const k of Object.keys(ctx.jsonSchema)) if (k !== "description" && k !== "title") delete ctx.jsonSchema[k];
          warnings.push(`${where}#${at}: ${fallback}`);
        }
      },
    });
  } catch (e) {
    throw new ToonError("SCHEMA_ERROR", `${where}: z.toJSONSchema failed: ${(e as Error).message}`, { cause: e });
  }
  if (rejected.length > 0) {
    throw new ToonError("UNSUPPORTED_SCHEMA", `${where}: ${rejected.length} Zod construct${rejected.length === 1 ? "" : "s"} with no JSON form: ${rejected.join("; ")}`, {
      path: rejected[0]!.slice(0, rejected[0]!.indexOf(":")),
      details: rejected.map((r) => ({ path: r.slice(0, r.indexOf(":")), message: r.slice(r.indexOf(":") + 2) })),
    });
  }
  if (isEmptySchema(json) && !OPEN_TYPES.has(zodTypeOf4(schema) ?? "") && !warnings.some((w) => w.startsWith(`${where}#/:`))) {
    throw new ToonError("SCHEMA_ERROR", `${where}: the Zod 4 schema (${zodTypeOf4(schema)}) converted to an empty JSON Schema, which would accept anything`);
  }
  return { major: 4, jsonSchema: json, warnings };
}

async function convert3(schema: unknown, where: string): Promise<ZodConversion> {
  const lib = await importOptional<ZodToJsonSchema>("zod-to-json-schema", "converting a Zod 3 schema");
  const rejected: string[] = [];
  const warnings: string[] = [];
  let json: Record<string, unknown>;
  try {
    json = lib.zodToJsonSchema(schema, {
      target: "jsonSchema7",
      $refStrategy: "root",
      pipeStrategy: "output",
      effectStrategy: "input",
      override: (def: { typeName?: string; effect?: { type?: string }; schema?: unknown; value?: unknown }, refs: { currentPath: string[] }) => {
        const at = pointer(refs.currentPath.slice(1)) || "/";
        const type = def.typeName ?? "";
        const reason = REJECTED_V3[type];
        if (reason !== undefined) {
          rejected.push(`${at}: ${reason}`);
          return lib.ignoreOverride;
        }
        if (type === "ZodLiteral" && (def.value === undefined || typeof def.value === "bigint")) {
          rejected.push(`${at}: a literal undefined or bigint is not JSON data`);
          return lib.ignoreOverride;
        }
        if (type === "ZodEffects" && def.effect?.type === "transform") {
          warnings.push(`${where}#${at}: ${FALLBACK_V4.transform}`);
          return {};
        }
        if (type === "ZodEffects" && def.effect?.type === "refinement" && zodTypeOf3(def.schema) === "ZodAny") {
          // z.custom() is z.any() with a refinement
          warnings.push(`${where}#${at}: ${FALLBACK_V4.custom}`);
          return lib.ignoreOverride;
        }
        return lib.ignoreOverride;
      },
    });
  } catch (e) {
    throw new ToonError("SCHEMA_ERROR", `${where}: zod-to-json-schema failed: ${(e as Error).message}`, { cause: e });
  }
  if (rejected.length > 0) {
    throw new ToonError("UNSUPPORTED_SCHEMA", `${where}: ${rejected.length} Zod construct${rejected.length === 1 ? "" : "s"} with no JSON form: ${rejected.join("; ")}`, {
      path: rejected[0]!.slice(0, rejected[0]!.indexOf(":")),
      details: rejected.map((r) => ({ path: r.slice(0, r.indexOf(":")), message: r.slice(r.indexOf(":") + 2) })),
    });
  }
  if (isEmptySchema(json) && !OPEN_TYPES.has(zodTypeOf3(schema) ?? "") && warnings.length === 0) {
    throw new ToonError("SCHEMA_ERROR", `${where}: the Zod 3 schema (${zodTypeOf3(schema)}) converted to an empty JSON Schema, which would accept anything`);
  }
  return { major: 3, jsonSchema: json, warnings };
}

/** Module file extensions that are loaded as code (the rest is JSON). */
export const MODULE_EXTENSIONS = /\.(ts|mts|cts|tsx|js|mjs|cjs|jsx)$/i;

/** `src/schemas.ts#WeatherQuery` -> `{ file: "src/schemas.ts", exportName: "WeatherQuery" }`. */
export function splitExport(input: string): { file: string; exportName?: string } {
  const m = /^(.*\.(?:ts|mts|cts|tsx|js|mjs|cjs|jsx))#([^/\\]*)$/i.exec(input);
  if (m === null) return { file: input };
  return m[2] === "" ? { file: m[1]! } : { file: m[1]!, exportName: m[2]! };
}

/**
 * Codec name of an export: the export name in PascalCase without a trailing `Schema` (`weatherQuerySchema` ->
 * `WeatherQuery`); the module's file name for a default export.
 */
export function zodCodecName(exportName: string, file: string): string {
  if (exportName === "default") return pascalCase(path.basename(file).replace(MODULE_EXTENSIONS, ""));
  const stripped = exportName.replace(/_?schema$/i, "");
  return pascalCase(stripped === "" ? exportName : stripped);
}

export interface ZodExport {
  exportName: string;
  codecName: string;
  conversion: ZodConversion;
}

/** Import a module through tsx (TS or JS, no compile step), reporting a failure with its error. */
export async function importModule(abs: string, source: string): Promise<Record<string, unknown>> {
  let tsImport: (specifier: string, options: { parentURL: string }) => Promise<Record<string, unknown>>;
  try {
    ({ tsImport } = (await import("tsx/esm/api")) as unknown as { tsImport: typeof tsImport });
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", `loading ${source} needs the package "tsx" (${(e as Error).message})`, { cause: e });
  }
  try {
    return await tsImport(pathToFileURL(abs).href, { parentURL: import.meta.url });
  } catch (e) {
    const err = e as { code?: unknown; message?: unknown };
    const code = typeof err?.code === "string" ? `${err.code}: ` : "";
    const lines = typeof err?.message === "string" ? err.message.split("\n").map((l) => l.trim()).filter((l) => l !== "") : [String(e)];
    // esbuild puts the useful part on the following lines ("Transform failed with 1 error:\n<file>:1:0: ERROR: ...")
    const message = (lines[0]!.endsWith(":") && lines.length > 1 ? `${lines[0]} ${lines[1]}` : lines[0]!).slice(0, 500);
    throw new ToonError("IO_ERROR", `cannot load module ${source}: ${code}${message}`, { cause: e });
  }
}

/**
 * The Zod schemas a module exports, converted: all of them (in export-name order), or the one named.
 * A module that exports none, or a named export that is missing or not a Zod schema, is an error.
 */
export async function loadZodModule(abs: string, source: string, exportName?: string): Promise<ZodExport[]> {
  const mod = await importModule(abs, source);
  const names = exportName === undefined ? Object.keys(mod).sort() : [exportName];
  const out: ZodExport[] = [];
  for (const n of names) {
    if (!Object.prototype.hasOwnProperty.call(mod, n)) {
      throw new ToonError("CONFIG_ERROR", `${source} has no export ${JSON.stringify(n)} (exports: ${Object.keys(mod).join(", ") || "none"})`);
    }
    const value = mod[n];
    if (!isZodSchema(value)) {
      if (exportName !== undefined) throw new ToonError("CONFIG_ERROR", `${source}#${n} is not a Zod schema`);
      continue;
    }
    out.push({ exportName: n, codecName: zodCodecName(n, abs), conversion: await zodToJsonSchema(value, `${source}#${n}`) });
  }
  if (out.length === 0) throw new ToonError("CONFIG_ERROR", `${source} exports no Zod schema (exports: ${Object.keys(mod).join(", ") || "none"})`);
  return out;
}
