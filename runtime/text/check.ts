/**
 * Schema-aware TOON text decoding: helpers for the generated `fromText` pass (and its interpreted twin in the CLI).
 *
 * `fromText` decodes with {@link decodeTextExact} (number tokens a double cannot carry exactly arrive as
 * {@link TextNumber}), then a generated pass walks the value along the schema, checks its structure and coerces
 * scalars in place:
 * - a `string` position takes unquoted numbers and booleans as their text (`zip: 01234` and `zip: 1.50` stay the
 *   strings "01234" and "1.50"); `null` is not a string;
 * - an `integer` position takes integer-valued number tokens (`3`, `3.0`, `3e2`) and rejects `1.5`; in an int64
 *   position an integer beyond ±(2^53 - 1) becomes an exact `bigint` (from the token's digits, or from a quoted
 *   decimal string, which is how the encoder writes such a bigint);
 * - `number` positions take any number token; `enum` and `const` compare after the same coercions;
 * - `any` positions get plain JSON numbers (a TextNumber becomes its `value`).
 * Failures are ToonError INVALID_VALUE with the value's JSON-pointer path, the line and column of the offending
 * token (found by {@link locateText}).
 */
import { EXPECTED_UUID } from "../codec/messages.ts";
import { isUuid } from "../wire/uuid.ts";
import { ToonError, pointerSegment } from "../wire/errors.ts";
import { describe } from "../wire/writer.ts";
import { jsonEquals } from "../wire/objects.ts";
import { missingAt } from "../codec/kinds/fail.ts";
import { refuseDense } from "./layout.ts";
import { TextNumber, decodeTextExact, locateText, type TextDecodeOptions } from "./decode.ts";

/** A generated (or interpreted) check pass: returns the checked, coerced value; throws ToonError (relative path). */
export type TextCheckFn = (v: any) => any;

/** Bookkeeping of the current check pass (synchronous, so module state is safe). */
let raws = 0;

/**
 * Decode TOON `text` and run the check pass `check` over it. Errors carry line and column (syntax errors from the
 * decoder, schema errors located in the text afterwards) and the path of the value.
 */
export function fromTextWith<T>(text: string, options: TextDecodeOptions | undefined, check: TextCheckFn): T {
  refuseDense(options);
  const r = decodeTextExact(text, options);
  return checkDecoded<T>(r.value, r.raws, check, (e) => locateText(text, e.path, options));
}

/**
 * Run `check` over an already decoded value (`rawCount`: how many TextNumbers it holds); schema errors get a
 * position from `locate`.
 */
export function checkDecoded<T>(value: unknown, rawCount: number, check: TextCheckFn, locate: (e: ToonError) => { line: number; column: number } | undefined): T {
  const saved = raws;
  raws = rawCount;
  try {
    return check(value) as T;
  } catch (e) {
    let err = e;
    if (e instanceof RangeError) err = new ToonError("DEPTH_LIMIT", "value too deeply nested (" + e.message + ")", { cause: e });
    if (err instanceof ToonError && err.line === undefined) {
      const at = locate(err);
      if (at !== undefined) err = new ToonError(err.code, err.reason, { path: err.path, line: at.line, column: at.column, cause: err, details: err.details });
    }
    throw err;
  } finally {
    raws = saved;
  }
}

function show(v: unknown): string {
  if (v instanceof TextNumber) return `the number ${v.raw}`;
  return describe(v);
}

/** INVALID_VALUE at `path`: expected `expected`, got (a description of) `v`. */
export function textInvalid(path: string, expected: string, v: unknown): ToonError {
  return new ToonError("INVALID_VALUE", `expected ${expected}, got ${show(v)}`, { path });
}

/**
 * The one failure of every guard: `v` undefined is an absent property (the guards of required properties read
 * it unchecked), reported as missing from its parent; anything else is INVALID_VALUE "expected ...".
 */
function fail(path: string, expected: string, v: unknown): never {
  // missingAt: the binary guards' own error for a missing property, whose path is the property's
  throw v === undefined ? missingAt(path) : textInvalid(path, expected, v);
}

// Per-kind guards: the generated check pass and the interpreted one (../codec/engine/text-check.ts) call the same
// function for each position of a kind, `v = tcKind(v, path)`: the value as is when it already has the kind, its
// coercion, or a throw. `path` is the position's JSON pointer ("" when the caller prefixes it on the way out).

/**
 * Above 0 inside the first pass of `tcUnion`: every position takes its own JSON type only (an unquoted `1` is a
 * number, `true` a boolean), so a branch is chosen for what the text says before any branch may coerce it.
 */
let exactOnly = 0;

/** A string position: numbers and booleans become their text (not while a union tries its branches exactly). */
export function tcString(v: unknown, path = ""): string {
  if (typeof v === "string") return v;
  const text = exactOnly === 0 ? asText(v) : undefined;
  return text !== undefined ? text : fail(path, "a string", v);
}

/**
 * A `format: "uuid"` position (16 raw bytes on the wire): a string that is a UUID, in any case, as binary encode
 * takes it; anything else is refused here, so fromText never hands out a value encode refuses.
 */
export function tcUuid(v: unknown, path = ""): string {
  if (typeof v === "string" && isUuid(v)) return v;
  return fail(path, EXPECTED_UUID, v);
}

/** An integer position (not int64). */
export function tcInteger(v: unknown, path = ""): number {
  if (typeof v === "number" && Number.isInteger(v)) return v; // a plain number token is a safe integer or fractional
  let x = v;
  if (v instanceof TextNumber) x = v.value;
  // every integral double, beyond 64 bits too: binary carries those exactly (FORMAT §3.2)
  if (typeof x === "number" && Number.isInteger(x)) return x;
  return fail(path, "an integer", v);
}

const INTEGER_TOKEN = /^-?(?:0|[1-9][0-9]*)$/;
// literals, not `2n ** 63n`: a bundler cannot tell that `**` has no side effect, so it would keep both everywhere
const MIN_INT64 = -9223372036854775808n; // -(2^63)
const MAX_UINT64 = 18446744073709551616n; // 2^64

/** An int64 position: exact bigint beyond 2^53. */
export function tcInt64(v: unknown, path = ""): number | bigint {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  let b: bigint | undefined;
  if (v instanceof TextNumber) {
    if (INTEGER_TOKEN.test(v.raw)) b = BigInt(v.raw);
    else if (Number.isInteger(v.value)) b = BigInt(v.value);
  } else if (typeof v === "string") {
    // how encodeText writes a bigint beyond 2^53 (a quoted decimal string); safe values are written as numbers
    if (INTEGER_TOKEN.test(v) && v !== "-0") {
      const c = BigInt(v);
      if (c > 9007199254740991n || c < -9007199254740991n) b = c;
    }
  } else if (typeof v === "number" && Number.isInteger(v)) {
    b = BigInt(v);
  } else if (typeof v === "bigint") {
    b = v;
  }
  if (b === undefined) return fail(path, "an integer", v);
  if (b < MIN_INT64 || b >= MAX_UINT64) {
    // a number beyond 64 bits is the double JSON.parse gives for it, as in binary (FORMAT §3.2); a bigint or a
    // decimal string that large has no int64 value
    if (v instanceof TextNumber) return v.value;
    throw textInvalid(path, "a 64-bit integer", v);
  }
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

/** A number position. */
export function tcNumber(v: unknown, path = ""): number {
  if (typeof v === "number") return v;
  if (v instanceof TextNumber) return v.value;
  return fail(path, "a number", v);
}

/** A boolean position. */
export function tcBoolean(v: unknown, path = ""): boolean {
  if (typeof v === "boolean") return v;
  return fail(path, "a boolean", v);
}

/** A null position. */
export function tcNull(v: unknown, path = ""): null {
  if (v === null) return v;
  return fail(path, "null", v);
}

/** An object position (the fields are the caller's): the value as is, or a throw. */
export function tcObject(v: unknown, path = ""): Record<string, unknown> {
  if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  return fail(path, "an object", v);
}

/** A position checked by `check` (a definition's, a union branch's, an inline object's): its errors get `path`. */
export function tcRef(v: unknown, path: string, check: TextCheckFn): unknown {
  if (v === undefined) fail(path, "", v);
  try {
    return check(v);
  } catch (e) {
    textRethrow(e, path);
  }
}

/** A nullable position (`T | null`): null, or what `check` makes of the value. */
export function tcOrNull(v: unknown, path: string, check: TextCheckFn): unknown {
  return v === null ? v : tcRef(v, path, check);
}

/** An array position whose items `item` checks (a guard above, or a generated checker). */
export function tcArray(v: unknown, path: string, item: TextCheckFn): unknown[] {
  if (!Array.isArray(v)) return fail(path, "an array", v);
  let i = 0;
  try {
    for (; i < v.length; i++) v[i] = item(v[i]);
  } catch (e) {
    textRethrowAt(e, path, i);
  }
  return v;
}

/** What an enum or const position expects, for its message (`values`: the members, in schema order). */
export function expectedOf(values: readonly unknown[]): string {
  const e = values.length === 1 ? "the constant " + JSON.stringify(values[0]) : "one of " + values.map((x) => JSON.stringify(x)).join(", ");
  return e.length > 200 ? e.slice(0, 197) + "..." : e;
}

/** The value compared against enum/const members: TextNumbers as numbers. */
function plain(v: unknown): unknown {
  return v instanceof TextNumber ? v.value : v;
}

/** The text of a number, boolean or number token: a string position's coercion, a string member's spelling. */
function asText(v: unknown): string | undefined {
  if (typeof v === "number") return "" + v; // canonical: TextNumber covers every other spelling
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v instanceof TextNumber) return v.raw;
  return undefined;
}

/**
 * An enum position of primitive `members` holding a value that is not one of them as is: a number or boolean
 * matches a string member spelled the same; a non-canonical number token matches a number member of equal value.
 */
export function tcEnum(v: unknown, path: string, members: readonly unknown[]): unknown {
  if (members.includes(v)) return v;
  const x = plain(v);
  if (members.includes(x)) return x;
  if (exactOnly > 0) return fail(path, expectedOf(members), v);
  const s = asText(v);
  if (s !== undefined && members.includes(s)) return s;
  return fail(path, expectedOf(members), v);
}

/** An enum or const position with non-primitive members: structural equality after unwrapping. */
export function tcJsonEnum(v: unknown, path: string, members: readonly unknown[]): unknown {
  const x = v === undefined ? v : tcAny(v);
  for (const m of members) if (jsonEquals(m, x)) return x;
  return fail(path, expectedOf(members), v);
}

/** An `any` position: TextNumbers become plain numbers (in place; the value is the decoder's own). */
export function tcAny(v: unknown, path = ""): unknown {
  if (v === undefined) fail(path, "", v);
  if (v === null || typeof v !== "object") return v;
  if (v instanceof TextNumber) return v.value;
  if (raws === 0) return v;
  return unwrap(v);
}

function unwrap(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof TextNumber) return v.value;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== null && typeof x === "object") v[i] = unwrap(x);
    }
    return v;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (x !== null && typeof x === "object") {
      const y = unwrap(x);
      if (y !== x) o[k] = y; // only TextNumbers change, and never under a `__proto__` accessor (own keys)
    }
  }
  return v;
}

/** Category bits of a decoded value, for union branch selection: 1 null, 2 boolean, 4 number, 8 string, 16 array, 32 object. */
function category(v: unknown): number {
  if (v === null) return 1;
  switch (typeof v) {
    case "boolean":
      return 2;
    case "number":
    case "bigint":
      return 4;
    case "string":
      return 8;
    case "object":
      return Array.isArray(v) ? 16 : v instanceof TextNumber ? 4 : 32;
    default:
      return 0;
  }
}

/** A deep copy of a decoded value (TextNumbers are immutable and shared). */
function clone(v: unknown): unknown {
  if (v === null || typeof v !== "object" || v instanceof TextNumber) return v;
  if (Array.isArray(v)) return v.map(clone);
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = clone((v as Record<string, unknown>)[k]);
    if (k === "__proto__") Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
    else o[k] = x;
  }
  return o;
}

/**
 * A union position: the first branch in schema order that accepts the value with no coercion at all wins (so
 * `{a: 1}` is the `{a: integer}` branch even when `{a: string}` comes first); failing that, branches whose JSON
 * type matches the value's (`exact` category masks) are tried in schema order, then branches that can coerce it (`coercible` masks: a string branch takes a number token); the first
 * that accepts the value wins. Checks coerce in place, so every attempt but the last works on a copy. When none
 * accepts, the error of the first attempt is reported (prefixed with `path`).
 */
export function tcUnion(v: unknown, path: string, branches: readonly TextCheckFn[], exact: readonly number[], coercible: readonly number[]): unknown {
  const c = category(v);
  const order: number[] = [];
  for (let i = 0; i < branches.length; i++) if ((exact[i]! & c) !== 0) order.push(i);
  for (let i = 0; i < branches.length; i++) if ((exact[i]! & c) === 0 && (coercible[i]! & c) !== 0) order.push(i);
  if (order.length === 0) throw textInvalid(path, `a value matching one of the ${branches.length} alternatives`, v);
  // first the branches the text fits as it is (JSON Schema's meaning: `1` is a number); only then coercions
  if (order.length > 1) {
    exactOnly++;
    try {
      for (const i of order) {
        try {
          return branches[i]!(c < 16 ? v : clone(v));
        } catch (e) {
          if (!(e instanceof ToonError)) throw e;
        }
      }
    } finally {
      exactOnly--;
    }
  }
  let first: unknown;
  for (let j = 0; j < order.length; j++) {
    const last = j === order.length - 1;
    try {
      return branches[order[j]!]!(last || c < 16 ? v : clone(v));
    } catch (e) {
      if (!(e instanceof ToonError)) throw e;
      if (first === undefined) first = e;
    }
  }
  throw (first as ToonError).prefixPath(path);
}

/** Rethrow `e` with `path` in front of its path (a RangeError from deep recursion passes through). */
export function textRethrow(e: unknown, path: string): never {
  if (e instanceof ToonError) throw e.prefixPath(path);
  throw e;
}

/** Rethrow `e` (from a check of the item or entry `key` of the value at `path`) with the item's path. */
export function textRethrowAt(e: unknown, path: string, key: string | number): never {
  if (e instanceof ToonError) throw e.prefixPath(path + pointerSegment(key));
  throw e;
}

/** Unknown keys of an open object with unconstrained values: TextNumbers among them become numbers. */
export function tcExtras(v: Record<string, unknown>, known: ReadonlySet<string>): void {
  if (raws === 0) return;
  for (const k of Object.keys(v)) {
    if (known.has(k)) continue;
    const x = v[k];
    if (x !== null && typeof x === "object") {
      const y = unwrap(x);
      if (y !== x) v[k] = y;
    }
  }
}
