/**
 * `$ref` resolution to a `Target` (a node in some local document). Supported: same-document pointers (`#`,
 * `#/definitions/X`, `#/$defs/X`, any pointer, `~0`/`~1` and percent escapes), anchors (`#name`), relative files
 * (`other.json`, `dir/other.json#/definitions/X`, against the referring file's directory) and URLs that are
 * some loaded document's own `$id` or sit under the referring document's `$id` base (mapped to local files).
 * Never the network: any other URL is UNSUPPORTED_SCHEMA.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import { pascalCase } from "../ir/names.ts";
import type { Doc, LoadContext, Target } from "./context.ts";
import { findAnchor, findDocById, isAbsoluteUri, loadDocument, readFileText } from "./documents.ts";
import { isObject, own } from "./json.ts";
import { parseFragmentPointer, resolveTokens, tokensToPointer } from "./pointer.ts";
import { mapUri } from "./refmap.ts";
import { baseUriAt, resolveUri as resolveAgainst, resourcesOf, stripFragment } from "./resources.ts";

/** The target of `ref`, found in the node at `ptr` of `doc`; registered (and queued) on first sight. */
export function refTarget(ctx: LoadContext, doc: Doc, ptr: string, ref: string): Target {
  const hash = ref.indexOf("#");
  const uriPart = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? "" : ref.slice(hash + 1);

  // the drafts' way first: against the base URI of the referring node, among the resources embedded in the
  // documents loaded so far (resources.ts); then files and mirrors as before
  const embedded = embeddedTarget(ctx, doc, ptr, ref);
  if (embedded !== undefined) return targetAt(ctx, doc, ptr, ref, embedded.doc, embedded.tokens);

  let tdoc: Doc;
  let viaBase: Doc | undefined;
  if (uriPart === "" || (doc.id !== undefined && uriPart === doc.id)) {
    tdoc = doc;
  } else if (isAbsoluteUri(uriPart)) {
    tdoc = resolveUri(ctx, doc, ptr, ref, uriPart);
  } else if ((viaBase = mappedViaBase(ctx, doc, ptr, ref, uriPart)) !== undefined) {
    tdoc = viaBase;
  } else {
    let rel: string;
    try {
      rel = decodeURIComponent(withoutQuery(uriPart));
    } catch {
      return ctx.fail("SCHEMA_ERROR", doc, ptr, `malformed $ref ${JSON.stringify(ref)}`);
    }
    tdoc = loadRelative(ctx, doc, ptr, ref, rel, uriPart);
  }

  let tokens = parseFragmentPointer(fragment);
  if (tokens === undefined) {
    let anchor = fragment;
    try {
      anchor = decodeURIComponent(fragment);
    } catch {
      /* keep the raw text */
    }
    tokens = findAnchor(tdoc, anchor);
    if (tokens === undefined) ctx.fail("SCHEMA_ERROR", doc, ptr, `$ref ${JSON.stringify(ref)}: no anchor "${anchor}" in ${tdoc.display}`);
  }
  return targetAt(ctx, doc, ptr, ref, tdoc, tokens);
}

/** The target at `tokens` of `tdoc`, registered (and queued) on first sight. */
function targetAt(ctx: LoadContext, doc: Doc, ptr: string, ref: string, tdoc: Doc, tokens: string[]): Target {
  const node = resolveTokens(tdoc.root, tokens);
  if (node === undefined) ctx.fail("SCHEMA_ERROR", doc, ptr, `$ref ${JSON.stringify(ref)} does not resolve (nothing at ${tdoc.display}#${tokensToPointer(tokens)})`);

  const pointer = tokensToPointer(tokens);
  const key = `${tdoc.abs}#${pointer}`;
  const known = ctx.targets.get(key);
  if (known !== undefined) return known;
  const target: Target = { key, doc: tdoc, pointer, node, hint: nameHint(ctx, tdoc, tokens), state: "pending" };
  ctx.targets.set(key, target);
  ctx.queue.push(target);
  return target;
}

/** `ref` as an embedded resource (or anchor in one) of a loaded document, or undefined to try files and mirrors. */
function embeddedTarget(ctx: LoadContext, doc: Doc, ptr: string, ref: string): { doc: Doc; tokens: string[] } | undefined {
  const abs = resolveAgainst(ref, baseUriAt(doc, ptr));
  if (abs === undefined) return undefined;
  const uri = stripFragment(abs);
  const fragment = abs.slice(uri.length + 1);
  // the referring document first: its embedded resources shadow nothing else
  for (const d of [doc, ...[...ctx.docs.values()].filter((x) => x !== doc)]) {
    const r = resourcesOf(d);
    const root = r.byUri.get(uri);
    if (root === undefined) continue;
    const pointer = parseFragmentPointer(fragment);
    if (pointer !== undefined) return { doc: d, tokens: [...root, ...pointer] };
    let name = fragment;
    try {
      name = decodeURIComponent(fragment);
    } catch {
      /* keep the raw text */
    }
    const anchored = r.anchors.get(`${uri}#${name}`);
    return anchored === undefined ? undefined : { doc: d, tokens: anchored };
  }
  return undefined;
}

/**
 * A relative `$ref` resolved against the referring node's base URI (an `$id` of it or above) to a URI that a loaded
 * document declares or `refMap` maps: `folderInteger.json` under `"$id": "http://localhost:1234/baseUriChange/"`
 * reads `<mapped folder>/baseUriChange/folderInteger.json`, wherever the referring file itself lives.
 */
function mappedViaBase(ctx: LoadContext, doc: Doc, ptr: string, ref: string, uriPart: string): Doc | undefined {
  if (ctx.refMap === undefined && ctx.docs.size < 2) return undefined;
  const abs = resolveAgainst(uriPart, baseUriAt(doc, ptr));
  if (abs === undefined || !isAbsoluteUri(abs)) return undefined;
  const uri = stripFragment(abs);
  const byId = findDocById(ctx, uri);
  if (byId !== undefined) return byId;
  const mapped = mapUri(ctx.refMap, uri);
  return mapped === undefined ? undefined : loadDocument(ctx, mapped, doc, ptr, ref);
}

/** How far up to look for a schema laid out by `$id` (see `loadRelative`). */
const MAX_ID_ROOT_LEVELS = 8;

/**
 * A relative file `$ref`, against the referring file's directory. When no file is there, an ancestor directory
 * holding that path is accepted if the file found declares the ref itself as its `$id`: schema sets such as
 * octokit/webhooks are registries keyed by relative `$id` (`issues/opened.schema.json` refers to
 * `common/issue.schema.json`, whose `$id` is exactly that, one directory up).
 */
function loadRelative(ctx: LoadContext, doc: Doc, ptr: string, ref: string, rel: string, uriPart: string): Doc {
  const dir = path.dirname(doc.abs);
  try {
    return loadDocument(ctx, path.resolve(dir, rel), doc, ptr, ref);
  } catch (e) {
    if (!(e instanceof ToonError) || e.code !== "IO_ERROR") throw e;
    let up = dir;
    for (let i = 0; i < MAX_ID_ROOT_LEVELS; i++) {
      const parent = path.dirname(up);
      if (parent === up) break;
      up = parent;
      const candidate = path.resolve(up, rel);
      if (!ctx.docs.has(candidate) && !fileExists(ctx, candidate)) continue;
      const found = tryLoad(ctx, candidate, doc, ptr, ref);
      if (found !== undefined && isObject(found.root) && (own(found.root, "$id") === uriPart || own(found.root, "id") === uriPart)) return found;
    }
    throw e;
  }
}

/** Probe for a file without caching anything (only used with the default disk reader). */
function fileExists(ctx: LoadContext, abs: string): boolean {
  if (ctx.readFile !== readFileText) return true; // a custom reader: let tryLoad ask it
  return existsSync(abs);
}

function withoutQuery(uri: string): string {
  const q = uri.indexOf("?");
  return q === -1 ? uri : uri.slice(0, q);
}

/** A URL `$ref`: a loaded document's `$id`, a file under the referring `$id`'s base, or a local mirror. */
function resolveUri(ctx: LoadContext, doc: Doc, ptr: string, ref: string, uri: string): Doc {
  const byId = findDocById(ctx, uri);
  if (byId !== undefined) return byId;
  // `refMap`: the user said where this URL lives locally
  const mapped = mapUri(ctx.refMap, uri);
  if (mapped !== undefined) return loadDocument(ctx, mapped, doc, ptr, ref);
  const dir = path.dirname(doc.abs);
  // `https://example.com/schemas/other.json` from a document whose $id is `https://example.com/schemas/main.json`
  if (doc.id !== undefined) {
    const base = doc.id.slice(0, doc.id.lastIndexOf("/") + 1);
    if (base !== "" && uri.startsWith(base) && uri.length > base.length) {
      const local = tryLoad(ctx, path.resolve(dir, decodeSafe(withoutQuery(uri.slice(base.length)))), doc, ptr, ref);
      if (local !== undefined) return local;
    }
  }
  // A file next to the referring one that declares exactly this URL as its `$id` is a local copy of it
  // (SchemaStore's `package.json` refers to `https://www.schemastore.org/prettierrc.json` this way).
  const last = decodeSafe(withoutQuery(uri).replace(/\/+$/, "").split("/").pop() ?? "");
  if (last !== "" && last !== "." && last !== "..") {
    const mirror = tryLoad(ctx, path.resolve(dir, last), doc, ptr, ref);
    if (mirror !== undefined && mirror.id === uri) return mirror;
  }
  return ctx.fail(
    "UNSUPPORTED_SCHEMA",
    doc,
    ptr,
    `$ref ${JSON.stringify(ref)} needs the network (only local files, URLs that are a local document's own $id, and URLs mapped by "refMap" are resolved)`,
  );
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Load a candidate local file, or `undefined` when it cannot be read (not an error: we then report the URL). */
function tryLoad(ctx: LoadContext, abs: string, doc: Doc, ptr: string, ref: string): Doc | undefined {
  try {
    return loadDocument(ctx, abs, doc, ptr, ref);
  } catch (e) {
    if (e instanceof ToonError && e.code === "IO_ERROR") return undefined;
    throw e;
  }
}

/** Tokens after which the next token is a name (of a property or a definition). */
const NAME_CONTAINERS = new Set(["properties", "definitions", "$defs", "patternProperties", "dependentSchemas", "dependencies"]);

/**
 * The definition name wanted for a target: the last definition/property key in its pointer, followed by any
 * keywords after it (`#/properties/tags/items` -> `TagsItems`); the file name for another file's root; the codec
 * name for the main root.
 */
function nameHint(ctx: LoadContext, doc: Doc, tokens: readonly string[]): string {
  let nameAt = -1;
  for (let i = 0; i < tokens.length - 1; i++) {
    if (NAME_CONTAINERS.has(tokens[i]!)) {
      nameAt = i + 1;
      i++;
    }
  }
  const base = nameAt >= 0 ? tokens[nameAt]! : doc.label === "" ? ctx.codecName : path.basename(doc.abs).replace(/(\.(json|schema))+$/i, "");
  const suffix = tokens.slice(nameAt + 1).filter((t) => !/^[0-9]+$/.test(t));
  if (nameAt < 0 && doc.label === "" && tokens.length === 0) return ctx.codecName;
  return pascalCase([base, ...suffix].join(" "));
}
