/**
 * Schema resources embedded in a document: every `$id` (`id` in draft-04) below the root starts a resource with
 * its own base URI, resolved against the enclosing one (relative, absolute or URN), and `$anchor` /
 * `$dynamicAnchor` (or a pre-2019 `$id: "#name"`) name a node inside the resource they sit in. A `$ref` then
 * resolves against the base URI of the node that holds it, as the drafts say, instead of against the file:
 * `{"$defs": {"node": {"$id": "node", ...}}, "$ref": "node"}` finds the embedded resource, and `#/$defs/x`
 * inside an embedded resource is a pointer into that resource. Nothing here reads files or the network.
 */
import { pathToFileURL } from "node:url";
import type { Doc } from "./context.ts";
import { DATA_KEYWORDS, isObject, MAX_DEPTH, own } from "./json.ts";

export interface Resources {
  /** Resource URI (no fragment) -> pointer tokens of its root node. */
  byUri: Map<string, string[]>;
  /** `uri#anchor` -> pointer tokens of the anchored node. */
  anchors: Map<string, string[]>;
}


const cache = new WeakMap<Doc, Resources>();

/** The URI a document stands for when it declares none: its file URL. */
export function documentUri(doc: Doc): string {
  return doc.id ?? pathToFileURL(doc.abs).href;
}

/** `ref` resolved against `base` (RFC 3986, via WHATWG URL), or undefined when it cannot be (a relative ref against a URN). */
export function resolveUri(ref: string, base: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return ref;
  if (ref.startsWith("#")) return stripFragment(base) + ref;
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

export function stripFragment(uri: string): string {
  const i = uri.indexOf("#");
  return i === -1 ? uri : uri.slice(0, i);
}

/** The `$id` of a node, if it changes the base URI (draft-07 and earlier ignore an `$id` beside `$ref`). */
function idOf(node: Record<string, unknown>, doc: Doc): string | undefined {
  const id = own(node, doc.draft === 4 ? "id" : "$id");
  if (typeof id !== "string") return undefined;
  if (doc.draft < 2019 && own(node, "$ref") !== undefined) return undefined;
  return id;
}

/** Base URI after entering `node` (whose base so far is `base`); records ids and anchors when `into` is given. */
function enter(node: Record<string, unknown>, doc: Doc, base: string, tokens: string[], into?: Resources): string {
  const id = idOf(node, doc);
  if (id !== undefined) {
    if (id.startsWith("#")) {
      into?.anchors.set(`${stripFragment(base)}${id}`, tokens);
    } else {
      const abs = resolveUri(id, base);
      if (abs !== undefined) {
        base = stripFragment(abs);
        if (into !== undefined && !into.byUri.has(base)) into.byUri.set(base, tokens);
        const hash = abs.indexOf("#");
        if (hash !== -1 && hash < abs.length - 1) into?.anchors.set(abs, tokens);
      }
    }
  }
  if (into !== undefined) {
    for (const kw of ["$anchor", "$dynamicAnchor"]) {
      const a = own(node, kw);
      if (typeof a === "string" && !into.anchors.has(`${base}#${a}`)) into.anchors.set(`${base}#${a}`, tokens);
    }
  }
  return base;
}

export function resourcesOf(doc: Doc): Resources {
  const known = cache.get(doc);
  if (known !== undefined) return known;
  const r: Resources = { byUri: new Map(), anchors: new Map() };
  r.byUri.set(stripFragment(documentUri(doc)), []);
  // iterative walk: documents can be deeper than the call stack
  const stack: [unknown, string[], string][] = [[doc.root, [], stripFragment(documentUri(doc))]];
  while (stack.length > 0) {
    const [node, tokens, base0] = stack.pop()!;
    if (tokens.length > MAX_DEPTH) continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], [...tokens, String(i)], base0]);
      continue;
    }
    if (!isObject(node)) continue;
    const base = enter(node, doc, base0, tokens, r);
    const keys = Object.keys(node);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      if (!DATA_KEYWORDS.has(k)) stack.push([node[k], [...tokens, k], base]);
    }
  }
  cache.set(doc, r);
  return r;
}

/** The base URI in effect at the node at `ptr` (a JSON pointer) of `doc`. */
export function baseUriAt(doc: Doc, ptr: string): string {
  let base = stripFragment(documentUri(doc));
  let node: unknown = doc.root;
  const tokens = ptr === "" ? [] : ptr.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  for (let i = 0; ; i++) {
    if (isObject(node)) base = enter(node, doc, base, tokens.slice(0, i));
    if (i === tokens.length) return base;
    const t = tokens[i]!;
    node = Array.isArray(node) ? node[Number(t)] : isObject(node) ? own(node, t) : undefined;
    if (node === undefined) return base;
  }
}
