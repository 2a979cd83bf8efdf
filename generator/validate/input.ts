/**
 * A recorded source schema (generator/load/source.ts) as the validator compiler sees it: a base URI and the one
 * way referenced documents are read. They are found the way the loader finds them (documents it read, loaded
 * `$id`s, `refMap`, files under the main document's `$id` base), never over the network.
 */
import * as path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { ToonError } from "../../runtime/wire/errors.ts";
import { parseDocument } from "../load/documents.ts";
import { mapUri } from "../load/refmap.ts";
import type { SchemaSource } from "../load/source.ts";
import type { ValidatorInput } from "./compile.ts";

/** The compiler's view of a source: its base URI and the one way referenced documents are read. */
export function validatorInput(src: SchemaSource, parse: (raw: unknown) => unknown = parseDocument): ValidatorInput {
  const baseUri = pathToFileURL(src.abs).href;
  const mainId = idOf(src.document);
  const byId = new Map<string, unknown>();
  for (const d of src.documents.values()) if (d.id !== undefined) byId.set(d.id, d.root);
  const readAt = (abs: string, uri: string): unknown => {
    const known = src.documents.get(abs);
    if (known !== undefined) return known.root;
    try {
      return parse(src.readFile(abs));
    } catch (e) {
      throw new ToonError("IO_ERROR", `cannot read ${JSON.stringify(path.basename(abs))} for the reference ${JSON.stringify(uri)}: ${(e as Error).message}`, { path: src.pointer, cause: e });
    }
  };
  return {
    document: src.document,
    pointer: src.pointer,
    draft: src.draft,
    baseUri,
    load: (uri) => {
      if (byId.has(uri)) return byId.get(uri);
      const mapped = mapUri(src.refMap, uri);
      if (mapped !== undefined) return readAt(mapped, uri);
      if (uri.startsWith("file:")) return readAt(fileURLToPath(uri), uri);
      // a URL under the main document's own `$id`: the file beside it, as the loader maps it
      if (mainId !== undefined) {
        const base = mainId.slice(0, mainId.lastIndexOf("/") + 1);
        if (base !== "" && uri.startsWith(base)) return readAt(path.resolve(path.dirname(src.abs), decodeURIComponent(uri.slice(base.length))), uri);
      }
      throw new ToonError("UNSUPPORTED_SCHEMA", `the reference ${JSON.stringify(uri)} is remote and never fetched: map its prefix to a local folder or file with "refMap"`, { path: src.pointer });
    },
  };
}

function idOf(doc: unknown): string | undefined {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return undefined;
  const id = (doc as Record<string, unknown>).$id ?? (doc as Record<string, unknown>).id;
  return typeof id === "string" && /^[a-z][a-z0-9+.-]*:/i.test(id) ? id.split("#")[0] : undefined;
}
