/** Stage 1: read a JSON Schema file from disk and hand it to `schemaToIR`. */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import type { SchemaIR } from "../ir/types.ts";
import { parseDocument, slash } from "./documents.ts";
import { schemaToIR } from "./schema-to-ir.ts";
import { resolveRefMap } from "./refmap.ts";

export interface LoadSchemaFileOptions {
  /** Working directory: `file` is resolved against it and `SchemaIR.source` is relative to it. */
  cwd?: string;
  /** Codec name (default: the root `title`, else the file name). */
  name?: string;
  /** JSON pointer of the node to compile instead of the document root (see `SchemaToIROptions.pointer`). */
  pointer?: string;
  /** URI prefix -> local folder or file, relative to `cwd` (see `SchemaToIROptions.refMap`). */
  refMap?: Readonly<Record<string, string>>;
  /** Patterns recheck does not certify safe: `"error"` (default) or `"allow"` (see SchemaToIROptions). */
  unsafePatterns?: "error" | "allow";
}

export async function loadSchemaFile(file: string, options: LoadSchemaFileOptions = {}): Promise<SchemaIR> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const abs = path.resolve(cwd, file);
  const source = slash(path.relative(cwd, abs)) || path.basename(abs);
  let text: string;
  try {
    text = await readFile(abs, "utf8");
  } catch (e) {
    throw new ToonError("IO_ERROR", `cannot read schema file "${source}": ${(e as Error).message}`, { path: "", cause: e });
  }
  let doc: unknown;
  try {
    doc = parseDocument(text);
  } catch (e) {
    throw new ToonError("SCHEMA_ERROR", `${source}: not valid JSON: ${(e as Error).message}`, { path: "", cause: e });
  }
  const opts: Parameters<typeof schemaToIR>[1] = { source, baseDir: path.dirname(abs) };
  if (options.name !== undefined) opts.name = options.name;
  if (options.pointer !== undefined) opts.pointer = options.pointer;
  if (options.refMap !== undefined) opts.refMap = resolveRefMap(options.refMap, cwd)!;
  if (options.unsafePatterns !== undefined) opts.unsafePatterns = options.unsafePatterns;
  return schemaToIR(doc, opts);
}
