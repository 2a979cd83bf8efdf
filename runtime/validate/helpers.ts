/**
 * The two helpers ajv's standalone code calls at run time (`ajv/dist/runtime/ucs2length` and
 * `ajv/dist/runtime/equal`), reimplemented without dependencies so that a generated `<name>.validate.ts` needs
 * no ajv at run time. Same semantics as the originals (ajv 8.20.0, fast-deep-equal 3.1.3, both MIT): the
 * generator rewrites the standalone output's `require(...)` of them into imports of these.
 */
import { refuse } from "../wire/arg-check.ts";

/** Length in code points, as JSON Schema counts `minLength`/`maxLength` (a surrogate pair is one character). */
export function ucs2length(str: string): number {
  // one typeof per call: generated validators pass strings, a caller of the entry may not
  if (typeof str !== "string") refuse("ucs2length", "a string", str);
  const len = str.length;
  let length = 0;
  let pos = 0;
  while (pos < len) {
    length++;
    const value = str.charCodeAt(pos++);
    // a high surrogate followed by a low one is one code point
    if (value >= 0xd800 && value <= 0xdbff && pos < len && (str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
  }
  return length;
}

/** Deep equality of JSON values, as `const`, `enum` and `uniqueItems` compare (fast-deep-equal semantics). */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === "object" && typeof b === "object") {
    if (a.constructor !== b.constructor) return false;
    if (Array.isArray(a)) {
      const bs = b as unknown[];
      if (a.length !== bs.length) return false;
      for (let i = a.length; i-- !== 0; ) if (!equal(a[i], bs[i])) return false;
      return true;
    }
    if (a.constructor === RegExp) return (a as RegExp).source === (b as RegExp).source && (a as RegExp).flags === (b as RegExp).flags;
    // fast-deep-equal's shortcuts for Date-like objects, where they are methods: JSON data may have a "valueOf"
    // or "toString" key (`{"valueOf": 1}`), which is compared as a key like any other
    const av = a.valueOf;
    if (av !== Object.prototype.valueOf && typeof av === "function" && typeof b.valueOf === "function") return av.call(a) === b.valueOf();
    const at = a.toString;
    if (at !== Object.prototype.toString && typeof at === "function" && typeof b.toString === "function") return at.call(a) === b.toString();
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (let i = keys.length; i-- !== 0; ) if (!Object.prototype.hasOwnProperty.call(b, keys[i]!)) return false;
    for (let i = keys.length; i-- !== 0; ) {
      const k = keys[i]!;
      if (!equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    }
    return true;
  }
  // true if both are NaN
  return a !== a && b !== b;
}
