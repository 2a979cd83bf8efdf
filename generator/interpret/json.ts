/**
 * JSON text in and out for the interpreted codec (`toon-gen encode|decode`) without losing int64 values:
 * `JSON.parse` rounds integers beyond 2^53 and `JSON.stringify` throws on bigint. Integer literals beyond 2^53
 * become `bigint` where the schema has an int64 integer (what the generated codecs accept and decode to), and
 * plain numbers everywhere else (as `JSON.parse` would give); bigints print as bare integer literals.
 */
import type { SchemaIR, Shape } from "../ir/types.ts";
import { setOwn } from "../../runtime/wire/objects.ts";
import { formatOf, isScalar } from "../../runtime/codec/formats.ts";

/** Parse JSON text; integer literals beyond 2^53 at int64 positions of `ir` come back as exact bigints. */
export function parseJson(text: string, ir: SchemaIR): unknown {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const plain = JSON.parse(text); // the error message, if any, names the position in the user's text
  let found = false;
  const tag = "\u0000" + Math.random().toString(36).slice(2) + ":";
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) => {
    if (token.charCodeAt(0) === 34 || /[.eE]/.test(token) || Number.isSafeInteger(Number(token))) return token;
    found = true;
    return JSON.stringify(tag + token);
  });
  if (!found) return plain;
  const value = JSON.parse(marked, (_key, v) => (typeof v === "string" && v.startsWith(tag) ? BigInt(v.slice(tag.length)) : v));
  return revive(value, [ir.root], new Map(ir.definitions.map((d) => [d.name, d.shape])));
}

/** Pretty JSON with bigints as bare (exact) integer literals, and a final newline. */
export function stringifyJson(value: unknown): string {
  const tag = "\u0000" + Math.random().toString(36).slice(2) + ":";
  let found = false;
  const text = JSON.stringify(
    value,
    (_key, v) => {
      if (typeof v !== "bigint") return v;
      found = true;
      return tag + v.toString();
    },
    2,
  );
  if (text === undefined) return "null\n";
  if (!found) return text + "\n";
  const quoted = JSON.stringify(tag).slice(0, -1); // `"` + the escaped tag
  return text.split(quoted).map((part, i) => (i === 0 ? part : part.replace(/^(-?\d+)"/, "$1"))).join("") + "\n";
}

/**
 * Turn the bigints of `v` back into numbers except where one of the candidate `shapes` is an int64 integer
 * (a union, or a value whose branch is not known yet, keeps every branch as a candidate).
 */
function revive(v: unknown, shapes: Shape[], defs: Map<string, Shape>): unknown {
  const flat = flatten(shapes, defs);
  if (typeof v === "bigint") return flat.some((s) => isScalar(s) && formatOf(s).categories.includes("bigint")) ? v : Number(v);
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const items: Shape[] = [];
      for (const s of flat) {
        if (s.kind === "array") items.push(s.items);
        else if (s.kind === "tuple") {
          const item = i < s.items.length ? s.items[i] : s.rest === false ? undefined : s.rest;
          if (item !== undefined) items.push(item);
        }
      }
      const after = revive(v[i], items, defs);
      if (after !== v[i]) v[i] = after;
    }
    return v;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const props: Shape[] = [];
    for (const s of flat) {
      if (s.kind !== "object") continue;
      const p = s.properties.find((q) => q.name === k);
      if (p !== undefined) props.push(p.shape);
      else if (s.additional !== false) props.push(s.additional);
    }
    const before = o[k];
    const after = revive(before, props, defs);
    if (after !== before) setOwn(o, k, after);
  }
  return o;
}

function flatten(shapes: Shape[], defs: Map<string, Shape>, seen = new Set<string>(), out: Shape[] = []): Shape[] {
  for (const s of shapes) {
    if (s.kind === "union") flatten(s.branches, defs, seen, out);
    else if (s.kind === "ref") {
      if (seen.has(s.name)) continue;
      seen.add(s.name);
      flatten([defs.get(s.name)!], defs, seen, out);
      seen.delete(s.name);
    } else out.push(s);
  }
  return out;
}
