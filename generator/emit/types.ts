/**
 * TypeScript types from the IR. They describe exactly what the generated decoder returns (int64 fields as
 * `number | bigint`, or `bigint` under `"int64": "bigint"`; open objects with an index signature), which a generic JSON-Schema-to-TS tool cannot
 * know; every name is a validated identifier and every key or comment goes through the escaping builder.
 */
import type { ObjectShape, Shape } from "../ir/types.ts";
import { Code, code, docComment, join, lit, name, propKey, raw } from "../../templates/code.ts";
import { isPrimitive } from "./context.ts";
import { indentBy } from "./code-helpers.ts";
import { formatOf, isScalar } from "../../runtime/codec/formats.ts";

/** An interface a declared object type extends: its first `inherited` properties are the base's (emit/types-share.ts). */
export interface TypeBase {
  name: string;
  inherited: number;
}

/** Inline shapes written as a shared type's name instead (emit/types-share.ts). */
export type TypeAliases = ReadonlyMap<Shape, string>;

export function typeOf(s: Shape, aliases?: TypeAliases): Code {
  const alias = aliases?.get(s);
  if (alias !== undefined) return name(alias);
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
      return code`${wrap(s.items, aliases)}[]`;
    case "tuple": {
      // an optional element's type is parenthesised when it is a union: `("a" | "b")?`, not `"a" | "b"?`
      const parts = s.items.map((item, i) => (i < s.minItems ? typeOf(item, aliases) : code`${wrap(item, aliases)}?`));
      if (s.rest !== false) parts.push(code`...${wrap(s.rest, aliases)}[]`);
      return code`[${join(parts, ", ")}]`;
    }
    case "union":
      return join(
        s.branches.map((b) => wrap(b, aliases)),
        " | ",
      );
    case "object":
      return objectType(s, aliases);
  }
}

function wrap(s: Shape, aliases?: TypeAliases): Code {
  const t = typeOf(s, aliases);
  if (aliases?.has(s)) return t;
  const needs = s.kind === "union" || (isScalar(s) && formatOf(s).tsType.includes("|")) || (s.kind === "enum" && s.values.length > 1);
  return needs ? code`(${t})` : t;
}

/**
 * The line of one property in an object type. An optional property is `name?: T | undefined`: every codec takes
 * `{ name: undefined }` as the property absent (binary and text encode, validate), and that is what `z.infer` gives
 * for `.optional()`, so the types equal it under `exactOptionalPropertyTypes` too (where `name?: T` would refuse
 * the `undefined` z.infer allows).
 */
export function propertyLine(p: ObjectShape["properties"][number], aliases?: TypeAliases): Code {
  return code`${docComment(p.shape.description)}${propKey(p.name)}${p.required ? raw("") : raw("?")}: ${typeOf(p.shape, aliases)}${p.required ? raw("") : raw(" | undefined")};`;
}

/**
 * The object's own fields (`aliases` applies to what they hold, never to `s` itself), after the first `inherited`
 * (declared by the interface it extends).
 */
export function objectType(s: ObjectShape, aliases?: TypeAliases, inherited = 0): Code {
  const lines: Code[] = s.properties.slice(inherited).map((p) => propertyLine(p, aliases));
  if (s.additional !== false) {
    const valueType = s.properties.length === 0 ? typeOf(s.additional, aliases) : raw("unknown");
    lines.push(code`[key: string]: ${valueType};`);
  }
  if (lines.length === 0) return raw("{}");
  return code`{
${indentBy(join(lines), "  ")}
}`;
}

/** `export interface X {...}` for objects, `export type X = ...` otherwise. */
export function declareType(typeName: string, s: Shape, description?: string, aliases?: TypeAliases, base?: TypeBase): Code {
  const doc = docComment(description ?? s.description);
  if (s.kind === "object" && base !== undefined) {
    return code`${doc}export interface ${name(typeName)} extends ${name(base.name)} ${objectType(s, aliases, base.inherited)}`;
  }
  if (s.kind === "object") return code`${doc}export interface ${name(typeName)} ${objectType(s, aliases)}`;
  // the declared shape itself is never its own alias
  const own = aliases?.has(s) ? new Map([...aliases].filter(([k]) => k !== s)) : aliases;
  return code`${doc}export type ${name(typeName)} = ${typeOf(s, own)};`;
}
