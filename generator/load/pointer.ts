/** JSON pointers (RFC 6901) as they appear in `$ref` fragments (RFC 3986 percent-encoding on top). */
import { pointerSegment } from "../../runtime/wire/errors.ts";
import { isObject, own } from "./json.ts";

export { pointerSegment };

/** `ptr` + one escaped segment. */
export function childPointer(ptr: string, key: string | number): string {
  return ptr + pointerSegment(key);
}

/**
 * The reference tokens of a `$ref` fragment (`/definitions/a~1b` -> `["definitions", "a/b"]`), or `undefined`
 * when it is not a pointer or not well-formed. Percent-decoding comes first (it is a URI fragment), then `~1`, `~0`.
 */
export function parseFragmentPointer(fragment: string): string[] | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (decoded === "") return [];
  if (!decoded.startsWith("/")) return undefined;
  const tokens = decoded.slice(1).split("/");
  for (const t of tokens) if (/~[^01]|~$/.test(t)) return undefined;
  return tokens.map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

export function tokensToPointer(tokens: readonly string[]): string {
  return tokens.map((t) => pointerSegment(t)).join("");
}

/** The value at `tokens` in `doc` (own properties and array indices only), or `undefined`. */
export function resolveTokens(doc: unknown, tokens: readonly string[]): unknown {
  let node = doc;
  for (const t of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t)) return undefined;
      const i = Number(t);
      if (i >= node.length) return undefined;
      node = node[i];
    } else if (isObject(node)) {
      node = own(node, t);
      if (node === undefined) return undefined;
    } else {
      return undefined;
    }
  }
  return node;
}
