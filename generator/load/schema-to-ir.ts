/**
 * JSON Schema document (already parsed) -> SchemaIR. Synchronous, so adapters (Zod, tool definitions) can hand
 * in in-memory schemas; files a `$ref` names are read through `readFile` (default: the local disk, never the
 * network).
 */
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import { pascalCase } from "../ir/names.ts";
import type { SchemaIR } from "../ir/types.ts";
import { LoadContext, type ReadFile, type Target } from "./context.ts";
import { makeDoc, readFileText } from "./documents.ts";
import { finalize } from "./finalize.ts";
import { isObject, own } from "./json.ts";
import { normalizeTarget } from "./normalize.ts";
import { parseFragmentPointer, resolveTokens, tokensToPointer } from "./pointer.ts";
import { resolveRefMap } from "./refmap.ts";
import type { Draft } from "./drafts.ts";
import { recordSchemaSource, type SchemaSource } from "./source.ts";

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
  /**
   * JSON pointer (or `#/...` fragment) of the node to compile instead of the document root, e.g.
   * `/$defs/CallToolResult` for one type of a definitions-only document. Default: the whole document.
   */
  pointer?: string;
  /** URI prefix -> local folder or file (absolute, or relative to `baseDir`): `refMap` of the config. */
  refMap?: Readonly<Record<string, string>>;
  /** Patterns recheck does not certify safe (generator/load/patterns.ts): `"error"` (default) or `"allow"`. */
  unsafePatterns?: "error" | "allow";
  /** The draft of documents without `$schema`: 4, 6, 7, 2019 or 2020 (default 2020-12). */
  draft?: Draft;
}

/** A title is a good codec name when it is short (`Pull Request`), not a sentence (`JSON schema for ...`). */
const MAX_TITLE_WORDS = 4;

/** Codec name: `name`, else a short root `title`, else the last key of `pointer`, else the file name. */
export function codecNameFor(root: unknown, source: string, name?: string, pointerTokens?: readonly string[]): string {
  if (name !== undefined) return pascalCase(name);
  const title = isObject(root) ? own(root, "title") : undefined;
  if (typeof title === "string") {
    const words = title.split(/[^A-Za-z0-9\u00C0-\u024F]+/).filter((w) => w !== "");
    if (words.length > 0 && words.length <= MAX_TITLE_WORDS) return pascalCase(title);
  }
  const last = pointerTokens?.[pointerTokens.length - 1];
  if (last !== undefined) return pascalCase(last);
  return pascalCase(path.basename(source));
}

export function schemaToIR(doc: unknown, options: SchemaToIROptions): SchemaIR {
  const source = options.source;
  const baseDir = path.resolve(options.baseDir ?? process.cwd());
  let tokens: string[] | undefined;
  let rootNode = doc;
  if (options.pointer !== undefined) {
    const raw = options.pointer.startsWith("#") ? options.pointer.slice(1) : options.pointer;
    tokens = parseFragmentPointer(raw);
    rootNode = tokens === undefined ? undefined : resolveTokens(doc, tokens);
    if (rootNode === undefined) throw new ToonError("SCHEMA_ERROR", `${source}: nothing at pointer ${JSON.stringify(options.pointer)}`, { path: "" });
  }
  const pointer = tokens === undefined ? "" : tokensToPointer(tokens);
  const name = codecNameFor(rootNode, source, options.name, tokens);
  const readFile: ReadFile = options.readFile ?? readFileText;
  const ctx = new LoadContext(name, baseDir, readFile);
  const refMap = resolveRefMap(options.refMap, baseDir);
  if (refMap !== undefined) ctx.refMap = refMap;
  if (options.unsafePatterns !== undefined) ctx.unsafePatterns = options.unsafePatterns;
  const abs = path.resolve(baseDir, path.basename(source) || "schema.json");
  if (options.draft !== undefined) ctx.draft = options.draft;
  const main = makeDoc(abs, "", source, doc, options.draft);
  ctx.docs.set(abs, main);
  const rootTarget: Target = { key: `${abs}#${pointer}`, doc: main, pointer, node: rootNode, hint: name, state: "pending" };
  ctx.targets.set(rootTarget.key, rootTarget);

  try {
    normalizeTarget(ctx, rootTarget, 0);
    // targets found along the way, breadth-first; each starts a fresh stack. A target that fails is only an
    // error if it is still used in the end (a union branch that accepts nothing may have been dropped).
    for (let i = 0; i < ctx.queue.length; i++) {
      const t = ctx.queue[i]!;
      if (t.state !== "pending") continue;
      try {
        normalizeTarget(ctx, t, 0);
      } catch (e) {
        if (!(e instanceof ToonError)) throw e;
      }
    }
    const { root, definitions } = finalize(ctx, rootTarget);
    const ir: SchemaIR = { name, source, root, definitions, warnings: ctx.warnings };
    const description = isObject(rootNode) ? own(rootNode, "description") : undefined;
    if (typeof description === "string") ir.description = description;
    // the source schema, for its JSON Schema validator (generator/validate)
    const documents = new Map([...ctx.docs].map(([abs, d]) => [abs, d.id === undefined ? { root: d.root } : { root: d.root, id: d.id }]));
    const src: SchemaSource = { document: doc, pointer, draft: main.draft, abs, documents, readFile };
    if (refMap !== undefined) src.refMap = refMap;
    recordSchemaSource(ir, src);
    return ir;
  } catch (e) {
    if (e instanceof ToonError) throw e;
    // a hostile shape we did not foresee must still surface as a ToonError, not a bare RangeError
    if (e instanceof RangeError) throw new ToonError("SCHEMA_ERROR", `${source}: schema too large or too deeply nested (${e.message})`, { path: "", cause: e });
    throw e;
  }
}
