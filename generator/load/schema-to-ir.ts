/**
 * JSON Schema document (already parsed) -> SchemaIR. Synchronous, so adapters (Zod, tool definitions) can hand
 * in in-memory schemas; files a `$ref` names are read through `readFile` (default: the local disk, never the
 * network).
 */
import * as path from "node:path";
import { ToonError } from "../../runtime/errors.ts";
import { pascalCase } from "../ir/names.ts";
import type { SchemaIR } from "../ir/types.ts";
import { LoadContext, type ReadFile, type Target } from "./context.ts";
import { makeDoc, readFileText } from "./documents.ts";
import { finalize } from "./finalize.ts";
import { isObject, own } from "./json.ts";
import { normalizeTarget } from "./normalize.ts";

export interface SchemaToIROptions {
  /** Where the schema came from, relative to the working directory (headers, messages). */
  source: string;
  /** Codec name (sanitised with `pascalCase`); default: the root `title`, else the `source` file name. */
  name?: string;
  /** Directory that relative file `$ref`s of the main document resolve against; default: the working directory. */
  baseDir?: string;
  /**
   * Reads a referenced file: returns its text, bytes, or the parsed document. Default: UTF-8 from disk.
   * Throwing means "unreadable" (IO_ERROR naming the `$ref`).
   */
  readFile?: (absPath: string) => unknown;
}

/** A title is a good codec name when it is short (`Pull Request`), not a sentence (`JSON schema for ...`). */
const MAX_TITLE_WORDS = 4;

export function codecNameFor(doc: unknown, source: string, name?: string): string {
  if (name !== undefined) return pascalCase(name);
  const title = isObject(doc) ? own(doc, "title") : undefined;
  if (typeof title === "string") {
    const words = title.split(/[^A-Za-z0-9\u00C0-\u024F]+/).filter((w) => w !== "");
    if (words.length > 0 && words.length <= MAX_TITLE_WORDS) return pascalCase(title);
  }
  return pascalCase(path.basename(source));
}

export function schemaToIR(doc: unknown, options: SchemaToIROptions): SchemaIR {
  const source = options.source;
  const baseDir = path.resolve(options.baseDir ?? process.cwd());
  const name = codecNameFor(doc, source, options.name);
  const readFile: ReadFile = options.readFile ?? readFileText;
  const ctx = new LoadContext(name, baseDir, readFile);
  const abs = path.resolve(baseDir, path.basename(source) || "schema.json");
  const main = makeDoc(abs, "", source, doc);
  ctx.docs.set(abs, main);
  const rootTarget: Target = { key: `${abs}#`, doc: main, pointer: "", node: doc, hint: name, state: "pending" };
  ctx.targets.set(rootTarget.key, rootTarget);

  try {
    normalizeTarget(ctx, rootTarget, 0);
    // targets found along the way, breadth-first; each starts a fresh stack
    for (let i = 0; i < ctx.queue.length; i++) {
      const t = ctx.queue[i]!;
      if (t.state === "pending") normalizeTarget(ctx, t, 0);
    }
    const { root, definitions } = finalize(ctx, rootTarget);
    const ir: SchemaIR = { name, source, root, definitions, warnings: ctx.warnings };
    const description = isObject(doc) ? own(doc, "description") : undefined;
    if (typeof description === "string") ir.description = description;
    return ir;
  } catch (e) {
    if (e instanceof ToonError) throw e;
    // a hostile shape we did not foresee must still surface as a ToonError, not a bare RangeError
    if (e instanceof RangeError) throw new ToonError("SCHEMA_ERROR", `${source}: schema too large or too deeply nested (${e.message})`, { path: "", cause: e });
    throw e;
  }
}
