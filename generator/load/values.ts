/** Does a JSON value fit a shape's kind? Used to filter `enum` values by `type` and to keep valid `default`s only. */
import type { JsonValue, Shape } from "../ir/types.ts";
import { isObject, jsonEquals } from "./json.ts";

/**
 * A shallow check (kind, enum membership, const equality; object and array contents are not inspected).
 * Refs are not followed: a value is assumed to fit a ref.
 */
export function valueFits(value: JsonValue, shape: Shape): boolean {
  switch (shape.kind) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "enum":
      return shape.values.some((v) => jsonEquals(v, value));
    case "const":
      return jsonEquals(shape.value, value);
    case "object":
      return isObject(value);
    case "array":
    case "tuple":
      return Array.isArray(value);
    case "union":
      return shape.branches.some((b) => valueFits(value, b));
    case "any":
    case "ref":
      return true;
  }
}
