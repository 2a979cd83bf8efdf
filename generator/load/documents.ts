/**
 * Schema documents: the main one and every file a `$ref` pulls in, each read once (cycles between files then
 * resolve to the same cached document). Reading is local only; see refs.ts for what a URL may map to.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import type { Doc, LoadContext, ReadFile } from "./context.ts";
import { detectDraft, type Draft } from "./drafts.ts";
import { DATA_KEYWORDS, isObject, MAX_DEPTH, own } from "./json.ts";

/** The default reader: UTF-8 text from disk (parsed by the caller). */
export const readFileText: ReadFile = (absPath) => readFileSync(absPath, "utf8");

/** `/` separators whatever the platform, for labels and `source`. */
export function slash(p: string): string {
  return p.split(path.sep).join("/");
}

const ABSOLUTE_URI = /^[a-z][a-z0-9+.-]*:/i;

export function isAbsoluteUri(s: string): boolean {
  // `C:\x` is a Windows path, not a URI with scheme `c`
  return ABSOLUTE_URI.test(s) && !/^[a-z]:[\\/]/i.test(s);
}

/** Strip the fragment (and an empty trailing `#`) from a URI. */
export function withoutFragment(uri: string): string {
  const i = uri.indexOf("#");
  return i === -1 ? uri : uri.slice(0, i);
}

/** `fallback`: the draft of a document without `$schema` (the `draft` option; 2020-12 when not given). */
export function makeDoc(abs: string, label: string, display: string, root: unknown, fallback?: Draft): Doc {
  const draft = detectDraft(root, fallback);
  const doc: Doc = { abs, label, display, root, draft };
  if (isObject(root)) {
    const id = own(root, "$id") ?? own(root, "id");
    if (typeof id === "string" && isAbsoluteUri(id)) doc.id = withoutFragment(id);
  }
  return doc;
}

/** Parse what a `readFile` returned: text, bytes, or an already parsed document. */
export function parseDocument(raw: unknown): unknown {
  if (typeof raw === "string") return JSON.parse(raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw);
  if (raw instanceof Uint8Array) return parseDocument(new TextDecoder("utf-8", { fatal: true }).decode(raw));
  return raw;
}

/**
 * The document at `abs`, loaded through `ctx.readFile` on first use. Errors name the referring node, since that
 * is what the user has to fix.
 */
export function loadDocument(ctx: LoadContext, abs: string, from: Doc, fromPtr: string, ref: string): Doc {
  const cached = ctx.docs.get(abs);
  if (cached !== undefined) return cached;
  const label = slash(path.relative(ctx.mainDir, abs)) || path.basename(abs);
  let raw: unknown;
  try {
    raw = ctx.readFile(abs);
  } catch (e) {
    if (e instanceof ToonError) throw e;
    ctx.fail("IO_ERROR", from, fromPtr, `cannot read "${label}" for $ref ${JSON.stringify(ref)}: ${(e as Error)?.message ?? String(e)}`, e);
  }
  let root: unknown;
  try {
    root = parseDocument(raw);
  } catch (e) {
    ctx.fail("SCHEMA_ERROR", from, fromPtr, `"${label}" (from $ref ${JSON.stringify(ref)}) is not valid JSON: ${(e as Error).message}`, e);
  }
  const doc = makeDoc(abs, label, label, root, ctx.draft);
  ctx.docs.set(abs, doc);
  return doc;
}

/** A loaded document whose `$id` is `uri` (without fragment). */
export function findDocById(ctx: LoadContext, uri: string): Doc | undefined {
  for (const doc of ctx.docs.values()) if (doc.id === uri) return doc;
  return undefined;
}


/** Pointer tokens of the node carrying anchor `name` (`$anchor`, `$dynamicAnchor`, or pre-2019 `$id: "#name"`). */
export function findAnchor(doc: Doc, name: string): string[] | undefined {
  if (doc.anchors === undefined) {
    const anchors = new Map<string, string[]>();
    // iterative walk: documents can be deeper than the call stack
    const stack: [unknown, string[]][] = [[doc.root, []]];
    while (stack.length > 0) {
      const [node, tokens] = stack.pop()!;
      if (tokens.length > MAX_DEPTH) continue;
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], [...tokens, String(i)]]);
        continue;
      }
      if (!isObject(node)) continue;
      for (const kw of ["$anchor", "$dynamicAnchor", "$id", "id"]) {
        const raw = own(node, kw);
        if (typeof raw !== "string") continue;
        const isId = kw === "$id" || kw === "id";
        if (isId && !raw.startsWith("#")) continue;
        const a = isId ? raw.slice(1) : raw;
        if (!anchors.has(a)) anchors.set(a, tokens);
      }
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        if (!DATA_KEYWORDS.has(k)) stack.push([node[k], [...tokens, k]]);
      }
    }
    doc.anchors = anchors;
  }
  return doc.anchors.get(name);
}
