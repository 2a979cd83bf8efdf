/**
 * Running a generated validator (ajv standalone code compiled at build time) and turning what it records into
 * the `{ path, keyword, message }` list `validate()` returns. The path is a JSON pointer to the offending value:
 * for a missing or disallowed property, the property itself (`/user/email`), not the object holding it.
 */
import { optionsArg, pointerSegment } from "../wire/errors.ts";
import { refuse } from "../wire/arg-check.ts";
import type { ValidationIssue } from "../features/validate.ts";
import { setFormatChecks } from "./formats.ts";
import { messageOf, type SchemaError } from "./messages.ts";

/** ajv's generated validate function: `true`/`false`, with the errors of the last call on the function. */
export type SchemaValidator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

export interface SchemaCheckOptions {
  /** `false`: `format` is an annotation only (every string passes `"format": "email"`). Default `true`. */
  formats?: boolean;
}

/** Every violation of the schema by `value`, in the order the validator found them; `[]` when it is valid. */
export function checkSchema(validator: SchemaValidator, value: unknown, options?: SchemaCheckOptions): ValidationIssue[] {
  if (typeof validator !== "function") refuse("checkSchema", "a validator function (of a generated <name>.validate module)", validator);
  const off = optionsArg(options, "checkSchema")?.formats === false;
  // format checks read a module switch: set only for this synchronous call, and restored even if it throws
  const was = off ? setFormatChecks(false) : true;
  let ok: boolean;
  try {
    ok = validator(value);
  } catch (e) {
    if (e instanceof RangeError) return [{ path: "", keyword: "depth", message: "nesting too deep for the call stack (a cyclic value?)" }];
    throw e;
  } finally {
    if (off) setFormatChecks(was);
  }
  if (ok) return [];
  return (validator.errors ?? []).map((e) => issueOf(e, value));
}

function issueOf(e: SchemaError, root: unknown): ValidationIssue {
  const at = valueAt(root, e.instancePath);
  const p = e.params;
  const child = e.keyword === "required" || e.keyword === "dependencies" || e.keyword === "dependentRequired"
    ? p.missingProperty
    : e.keyword === "additionalProperties" ? p.additionalProperty : e.keyword === "unevaluatedProperties" ? p.unevaluatedProperty : undefined;
  const path = typeof child === "string" ? e.instancePath + pointerSegment(child) : e.instancePath;
  return { path, keyword: e.keyword, message: messageOf(e, at) };
}

/** The value at JSON pointer `pointer` in `root` (own properties only; `undefined` when it is not there). */
function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let v = root;
  for (const raw of pointer.slice(1).split("/")) {
    if (v === null || typeof v !== "object") return undefined;
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
