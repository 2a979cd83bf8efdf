/**
 * The one set of messages about a value that does not fit its schema: what it was expected to be (`expected
 * <this>, got <the value as describe() tells it>`), a missing or unknown property, and each value constraint. The
 * binary guards (./kinds) and the formats table (./formats.ts `expected`), the engine and the emitted writers (a
 * tuple's length, a union's branches), the constraint checker (../validate/constraints.ts: a codec's `validate()`
 * without a validator module, and tool calls) and the messages of the JSON Schema validators compiled at build time
 * (../validate/messages.ts) all say it with these, so a wrong value reads the same whichever of them finds it.
 * Constants and small functions only: a bundle keeps what it calls, and no format it does not use.
 */
import { describe } from "../wire/writer.ts";
import { MAX_ZERO_WIDTH_ITEMS } from "../wire/wire.ts";

export { describe, expectedGot } from "../wire/writer.ts";
export { missingMessage, unknownPropertyMessage } from "../wire/objects.ts";

// What a value was expected to be (`expected <this>, got ...`).
export const EXPECTED_STRING = "a string";
export const EXPECTED_WELL_FORMED = "a string without lone surrogates";
export const EXPECTED_UUID = "a UUID";
/** An int64 string (`format: "int64"` on a string) the constraint checker holds to its digits. */
export const EXPECTED_DECIMAL_STRING = "a decimal integer in a string";
export const EXPECTED_INTEGER = "an integer";
export const EXPECTED_INT64 = "a 64-bit integer (number or bigint)";
export const EXPECTED_NUMBER = "a finite number";
export const EXPECTED_BOOLEAN = "a boolean";
export const EXPECTED_NULL = "null";
export const EXPECTED_OBJECT = "an object";
export const EXPECTED_ARRAY = "an array";
export const EXPECTED_JSON = "a JSON value";

/** Schema text in a message, cut at `max` characters so that the message stays one line. */
function cut(s: string, max: number): string {
  return s.length > max ? s.slice(0, max - 3) + "..." : s;
}

function plural(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A discriminated union's tag: `one of "a", "b"` (the branch the value names is the one it is checked against). */
export function oneOf(values: readonly unknown[]): string {
  return "one of " + values.map((x) => JSON.stringify(x)).join(", ");
}

/** An enum position: its values, the list cut at 200 characters (written out: the binary guards keep it, not `cut`). */
export function enumExpected(values: readonly unknown[]): string {
  const full = oneOf(values);
  return full.length > 200 ? full.slice(0, 197) + "..." : full;
}

/** A const position: a JSON primitive is named; another JSON value is "the schema's constant value". */
export function constExpected(value: unknown): string {
  return value === null || typeof value !== "object" ? "the constant " + JSON.stringify(value) : "the schema's constant value";
}

/** A tuple: how many items it takes (`max` < 0: any number from `min`). */
export function tupleExpected(min: number, max: number): string {
  return "an array of " + (max < 0 ? `at least ${min} items` : min === max ? `exactly ${max} items` : `${min} to ${max} items`);
}

/**
 * An array (or a tuple's rest, `rest`) of a zero-width type holding more items than a message may
 * (runtime/wire/wire.ts).
 */
export function zeroWidthExpected(rest: boolean): string {
  return `at most ${MAX_ZERO_WIDTH_ITEMS} ${rest ? "rest " : ""}items of a zero-width type`;
}

/** A union none of whose `n` branches takes the value. */
export function unionExpected(n: number): string {
  return `a value matching one of the ${n} alternatives`;
}

// The value constraints (JSON Schema keywords), as the constraint checker and generated validators report them.

/** `minLength` (`min`) or `maxLength`: `n` is the string's length in code points. */
export function lengthMessage(min: boolean, limit: number, n: number): string {
  return `expected ${min ? "at least" : "at most"} ${plural(limit, "character")}, got ${n}`;
}

/** `pattern`: the pattern as the schema gives it (cut at 60 characters: a regular expression is no message). */
export function patternMessage(pattern: string, value: unknown): string {
  return `expected a string matching /${cut(pattern, 60)}/, got ${describe(value)}`;
}

const COMPARISON: Readonly<Record<string, string>> = { ">=": "at least", "<=": "at most", ">": "greater than", "<": "less than" };

/** `minimum` (`>=`), `maximum` (`<=`), `exclusiveMinimum` (`>`), `exclusiveMaximum` (`<`). */
export function boundMessage(comparison: string, limit: unknown, value: unknown): string {
  return `expected a number ${COMPARISON[comparison] ?? comparison} ${limit}, got ${describe(value)}`;
}

/** `multipleOf`. */
export function multipleOfMessage(multipleOf: unknown, value: unknown): string {
  return `expected a multiple of ${multipleOf}, got ${describe(value)}`;
}

/** `minItems` (`min`) or `maxItems`; `n`: the array's length, when known. */
export function itemsMessage(min: boolean, limit: number, n?: number): string {
  return `expected ${min ? "at least" : "at most"} ${plural(limit, "item")}${n === undefined ? "" : `, got ${n}`}`;
}

/** `minProperties` (`min`) or `maxProperties`; `n`: how many the object has, when known. */
export function propertiesMessage(min: boolean, limit: number, n?: number): string {
  return `expected ${min ? "at least" : "at most"} ${plural(limit, "property", "properties")}${n === undefined ? "" : `, got ${n}`}`;
}

/** `uniqueItems`: items `i` and `j` are equal. */
export function uniqueMessage(i: number, j: number): string {
  return `items ${Math.min(i, j)} and ${Math.max(i, j)} are equal (items must be unique)`;
}

