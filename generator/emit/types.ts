/**
 * TypeScript types from the IR. They describe exactly what the generated decoder returns (int64 fields as
 * `number | bigint`, or `bigint` under `"int64": "bigint"`; open objects with an index signature), which a generic JSON-Schema-to-TS tool cannot
 * know; every name is a validated identifier and every key or comment goes through the escaping builder.
 */
import type { ObjectShape, Shape } from "../ir/types.ts";
import { Code, code, docComment, join, lit, name, propKey, raw } from "../../templates/code.ts";
import { isPrimitive } from "./context.ts";
import { indentBy } from "./write.ts";
import { formatOf, isScalar } from "../../runtime/codec/formats.ts";

export function typeOf(s: Shape): Code {
  switch (s.kind) {
    case "string":
    case "integer":
    case "number":
      return raw(formatOf(s).tsType);
    case "boolean":
      return raw("boolean");
    case "null":
      return raw("null");
    case "any":
      return raw("unknown");
    case "const":
      return isPrimitive(s.value) ? lit(s.value) : raw("unknown");
    case "enum":
      return s.values.every(isPrimitive) ? join(s.values.map((v) => lit(v as string)), " | ") : raw("unknown");
    case "ref":
      return name(s.name);
    case "array":
      return code`${wrap(s.items)}[]`;
    case "tuple": {
      // an optional element's type is parenthesised when it is a union: `("a" | "b")?`, not `"a" | "b"?`
      const parts = s.items.map((item, i) => (i < s.minItems ? typeOf(item) : code`${wrap(item)}?`));
      if (s.rest !== false) parts.push(code`...${wrap(s.rest)}[]`);
      return code`[${join(parts, ", ")}]`;
    }
    case "union":
      return join(
        s.branches.map((b) => wrap(b)),
        " | ",
      );
    case "object":
      return objectType(s);
  }
}

function wrap(s: Shape): Code {
  const t = typeOf(s);
  const needs = s.kind === "union" || (isScalar(s) && formatOf(s).tsType.includes("|")) || (s.kind === "enum" && s.values.length > 1);
  return needs ? code`(${t})` : t;
}

/**
 * An optional property is `name?: T | undefined`: every codec takes `{ name: undefined }` as the property absent
 * (binary and text encode, validate), and that is what `z.infer` gives for `.optional()`, so the types equal it
 * under `exactOptionalPropertyTypes` too (where `name?: T` would refuse the `undefined` z.infer allows).
 */
export function objectType(s: ObjectShape): Code {
  const lines: Code[] = s.properties.map(
    (p) => code`${docComment(p.shape.description)}${propKey(p.name)}${p.required ? raw("") : raw("?")}: ${typeOf(p.shape)}${p.required ? raw("") : raw(" | undefined")};`,
  );
  if (s.additional !== false) {
    const valueType = s.properties.length === 0 ? typeOf(s.additional) : raw("unknown");
    lines.push(code`[key: string]: ${valueType};`);
  }
  if (lines.length === 0) return raw("{}");
  return code`{
${indentBy(join(lines), "  ")}
}`;
}

/** `export interface X {...}` for objects, `export type X = ...` otherwise. */
export function declareType(typeName: string, s: Shape, description?: string): Code {
  const doc = docComment(description ?? s.description);
  if (s.kind === "object") return code`${doc}export interface ${name(typeName)} ${objectType(s)}`;
  return code`${doc}export type ${name(typeName)} = ${typeOf(s)};`;
}
