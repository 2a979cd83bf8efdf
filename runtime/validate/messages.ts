/**
 * Readable messages for the errors of generated validators. ajv's standalone code is compiled with
 * `messages: false` (smaller output: no message strings per check), so each error arrives as a keyword and its
 * params; the message is made here, once, with the value it is about: "expected a UUID, got the string \"x\"",
 * never the 300-character regular expression behind a format.
 */
import { describe } from "../writer.ts";
import { refuse } from "../arg-check.ts";
import { FORMAT_EXPECTED } from "./formats.ts";

/** An error as ajv's generated code records it (`messages: false`). */
export interface SchemaError {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Schema text quoted in a message: long patterns and enum lists are cut, the message stays one short line. */
function short(text: string, max = 60): string {
  return text.length > max ? text.slice(0, max - 3) + "..." : text;
}

function plural(n: unknown, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  null: "null",
  array: "an array",
  object: "an object",
};

function typeList(t: unknown): string {
  const names = String(t).split(",").map((x) => TYPE_NAMES[x] ?? x);
  return names.length <= 1 ? names[0] ?? "" : names.slice(0, -1).join(", ") + " or " + names[names.length - 1];
}

const COMPARISON: Record<string, string> = { ">=": "at least", "<=": "at most", ">": "greater than", "<": "less than" };

/** The message for one error; `value` is the instance it is about (at `instancePath`). */
export function messageOf(e: SchemaError, value: unknown): string {
  if (typeof e !== "object" || e === null || typeof e.keyword !== "string" || typeof e.params !== "object" || e.params === null) {
    refuse("messageOf", "a schema error ({ keyword, params })", e);
  }
  const p = e.params;
  switch (e.keyword) {
    case "type":
      return `expected ${typeList(p.type)}, got ${describe(value)}`;
    case "required":
      return `missing required property ${JSON.stringify(p.missingProperty)}`;
    case "dependencies":
    case "dependentRequired":
      return `missing property ${JSON.stringify(p.missingProperty)}, required when ${JSON.stringify(p.property)} is present`;
    case "additionalProperties":
      return `property ${JSON.stringify(p.additionalProperty)} is not allowed`;
    case "unevaluatedProperties":
      return `property ${JSON.stringify(p.unevaluatedProperty)} is not allowed`;
    case "propertyNames":
      return `property name ${JSON.stringify(p.propertyName)} is not allowed`;
    case "minLength":
      return `expected at least ${plural(p.limit, "character")}, got ${describe(value)}`;
    case "maxLength":
      return `expected at most ${plural(p.limit, "character")}, got ${describe(value)}`;
    case "pattern":
      return `expected a string matching /${short(String(p.pattern))}/, got ${describe(value)}`;
    case "format":
      return `expected ${FORMAT_EXPECTED[String(p.format)] ?? `format ${JSON.stringify(p.format)}`}, got ${describe(value)}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `expected a number ${COMPARISON[String(p.comparison)] ?? p.comparison} ${p.limit}, got ${describe(value)}`;
    case "multipleOf":
      return `expected a multiple of ${p.multipleOf}, got ${describe(value)}`;
    case "minItems":
      return `expected at least ${plural(p.limit, "item")}`;
    case "maxItems":
    case "items":
    case "additionalItems":
    case "unevaluatedItems":
      return `expected at most ${plural(p.limit, "item")}`;
    case "minProperties":
      return `expected at least ${plural(p.limit, "property", "properties")}`;
    case "maxProperties":
      return `expected at most ${plural(p.limit, "property", "properties")}`;
    case "uniqueItems":
      return `items ${p.j} and ${p.i} are equal (items must be unique)`;
    case "contains":
      return p.maxContains === undefined
        ? `expected at least ${plural(p.minContains ?? 1, "item")} matching "contains"`
        : `expected ${p.minContains ?? 1} to ${p.maxContains} items matching "contains"`;
    case "enum": {
      const list = Array.isArray(p.allowedValues) ? p.allowedValues.map((v) => JSON.stringify(v)).join(", ") : "";
      return `expected one of ${short(list)}, got ${describe(value)}`;
    }
    case "const":
      return `expected ${short(JSON.stringify(p.allowedValue) ?? "")}, got ${describe(value)}`;
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
