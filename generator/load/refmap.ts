/**
 * `refMap` (toon.config.json and `generate()`): URI prefix -> local folder or file, so that a schema referring to
 * `https://example.com/schemas/address.json` reads `./vendor/address.json` instead. Remote URIs are never
 * fetched; an unmapped one stays an UNSUPPORTED_SCHEMA error naming this key.
 */
import * as path from "node:path";

/** `refMap` entries resolved against `baseDir` (a folder target keeps its trailing `/`). */
export function resolveRefMap(refMap: Readonly<Record<string, string>> | undefined, baseDir: string): Record<string, string> | undefined {
  if (refMap === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [prefix, target] of Object.entries(refMap)) {
    const abs = path.resolve(baseDir, target);
    out[prefix] = /[\\/]$/.test(target) ? abs + path.sep : abs;
  }
  return out;
}

/** A URI mapped by `refMap` to a local path (longest prefix first), or undefined. */
export function mapUri(refMap: Readonly<Record<string, string>> | undefined, uri: string): string | undefined {
  if (refMap === undefined) return undefined;
  const prefixes = Object.keys(refMap).filter((p) => uri.startsWith(p)).sort((a, b) => b.length - a.length);
  const p = prefixes[0];
  if (p === undefined) return undefined;
  const target = refMap[p]!;
  if (target.endsWith(path.sep)) return path.join(target, decodeURIComponent(uri.slice(p.length)));
  return uri === p ? target : undefined;
}

