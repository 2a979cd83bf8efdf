/**
 * Readable messages for the errors of generated validators. ajv's standalone code is compiled with
 * `messages: false` (smaller output: no message strings per check), so each error arrives as a keyword and its
 * params; the message is made here, once, with the value it is about: "expected a UUID, got the string \"x\"",
 * never the 300-character regular expression behind a format. The wording is the codecs' (../codec/messages.ts):
 * a value the validator refuses reads as it does when `encode`, the constraint checker or a tool call refuses it.
 */
import { refuse } from "../wire/arg-check.ts";
import {
  boundMessage,
  constExpected,
  describe,
  enumExpected,
  EXPECTED_ARRAY,
  EXPECTED_BOOLEAN,
  EXPECTED_INTEGER,
  EXPECTED_NULL,
  EXPECTED_NUMBER,
  EXPECTED_OBJECT,
  EXPECTED_STRING,
  expectedGot,
  itemsMessage,
  lengthMessage,
  missingMessage,
  multipleOfMessage,
  patternMessage,
  propertiesMessage,
  uniqueMessage,
  unknownPropertyMessage,
} from "../codec/messages.ts";
import { FORMAT_EXPECTED } from "./formats.ts";

/** An error as ajv's generated code records it (`messages: false`). */
export interface SchemaError {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

function plural(n: unknown, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The JSON types a `type` keyword names, as the codecs' messages say them (../codec/messages.ts). */
const TYPE_NAMES: Record<string, string> = {
  string: EXPECTED_STRING,
  number: EXPECTED_NUMBER,
  integer: EXPECTED_INTEGER,
  boolean: EXPECTED_BOOLEAN,
  null: EXPECTED_NULL,
  array: EXPECTED_ARRAY,
  object: EXPECTED_OBJECT,
};

function typeList(t: unknown): string {
  const names = String(t).split(",").map((x) => TYPE_NAMES[x] ?? x);
  return names.length <= 1 ? names[0] ?? "" : names.slice(0, -1).join(", ") + " or " + names[names.length - 1];
}

/** Code points of a string (what minLength and maxLength count). */
function length(v: unknown): number | undefined {
  return typeof v === "string" ? [...v].length : undefined;
}

/** How many items an array, or defined properties an object, has (undefined for anything else). */
function count(v: unknown): number | undefined {
  if (Array.isArray(v)) return v.length;
  if (typeof v !== "object" || v === null) return undefined;
  let n = 0;
  for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k) && (v as Record<string, unknown>)[k] !== undefined) n++;
  return n;
}

/** The message for one error; `value` is the instance it is about (at `instancePath`). */
export function messageOf(e: SchemaError, value: unknown): string {
  if (typeof e !== "object" || e === null || typeof e.keyword !== "string" || typeof e.params !== "object" || e.params === null) {
    refuse("messageOf", "a schema error ({ keyword, params })", e);
  }
  const p = e.params;
  switch (e.keyword) {
    case "type":
      return expectedGot(typeList(p.type), value);
    case "required":
      return missingMessage(String(p.missingProperty));
    case "dependencies":
    case "dependentRequired":
      return `missing property ${JSON.stringify(p.missingProperty)}, required when ${JSON.stringify(p.property)} is present`;
    case "additionalProperties":
      return unknownPropertyMessage(String(p.additionalProperty));
    case "unevaluatedProperties":
      return `property ${JSON.stringify(p.unevaluatedProperty)} is not allowed`;
    case "propertyNames":
      return `property name ${JSON.stringify(p.propertyName)} is not allowed`;
    case "minLength":
    case "maxLength": {
      const n = length(value);
      return n === undefined ? `expected ${e.keyword === "minLength" ? "at least" : "at most"} ${plural(p.limit, "character")}, got ${describe(value)}` : lengthMessage(e.keyword === "minLength", Number(p.limit), n);
    }
    case "pattern":
      return patternMessage(String(p.pattern), value);
    case "format":
      return `expected ${FORMAT_EXPECTED[String(p.format)] ?? `format ${JSON.stringify(p.format)}`}, got ${describe(value)}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return boundMessage(String(p.comparison), p.limit, value);
    case "multipleOf":
      return multipleOfMessage(p.multipleOf, value);
    case "minItems":
      return itemsMessage(true, Number(p.limit), count(value));
    case "maxItems":
    case "items":
    case "additionalItems":
    case "unevaluatedItems":
      return itemsMessage(false, Number(p.limit), count(value));
    case "minProperties":
      return propertiesMessage(true, Number(p.limit), count(value));
    case "maxProperties":
      return propertiesMessage(false, Number(p.limit), count(value));
    case "uniqueItems":
      return uniqueMessage(Number(p.j), Number(p.i));
    case "contains":
      return p.maxContains === undefined
        ? `expected at least ${plural(p.minContains ?? 1, "item")} matching "contains"`
        : `expected ${p.minContains ?? 1} to ${p.maxContains} items matching "contains"`;
    case "enum":
      return expectedGot(enumExpected(Array.isArray(p.allowedValues) ? p.allowedValues : []), value);
    case "const":
      return expectedGot(constExpected(p.allowedValue), value);
    case "not":
      return `matches the schema in "not"`;
    case "anyOf":
      return "matches none of the anyOf alternatives";
    case "oneOf":
      return Array.isArray(p.passingSchemas)
        ? `matches more than one oneOf alternative (${p.passingSchemas.join(" and ")}): exactly one must match`
        : "matches none of the oneOf alternatives";
    case "if":
      return `does not match the "${p.failingKeyword}" schema its "if" selects`;
    case "false schema":
      return "no value is allowed here";
    default:
      return `fails "${e.keyword}"`;
  }
}
