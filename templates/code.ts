/**
 * The one way text reaches generated code. A tiny tagged-template DSL in the manner of ajv's codegen:
 *
 *   code`if (${value} !== ${"a \"quoted\" string"}) throw ${err};`
 *
 * - a `Code` (from `code`, `raw` or `name`) is inserted as is;
 * - a plain `string` ALWAYS becomes a quoted, escaped JS string literal (never code);
 * - numbers, booleans, null and bigints become literals;
 * - arrays of these are joined with ", ".
 *
 * Schema-derived text (property names, titles, descriptions, enum values) is untrusted: it can only become a
 * string literal (`lit`/plain interpolation), a validated identifier (`name`) or a comment (`docComment`).
 */

export class Code {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type Interpolated = Code | string | number | boolean | null | bigint | readonly Interpolated[];

export function code(strings: TemplateStringsArray, ...values: Interpolated[]): Code {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += interpolate(values[i]!) + strings[i + 1]!;
  return new Code(out);
}

function interpolate(v: Interpolated): string {
  if (v instanceof Code) return v.text;
  if (Array.isArray(v)) return v.map(interpolate).join(", ");
  return lit(v as string | number | boolean | null | bigint).text;
}

/** Trusted text written by the emitter itself (never schema-derived). */
export function raw(text: string): Code {
  return new Code(text);
}

export function join(parts: readonly (Code | string)[], separator = "\n"): Code {
  return new Code(parts.map((p) => (p instanceof Code ? p.text : p)).join(separator));
}

/** Indent every non-empty line of a block. */
export function indent(block: Code, by = "  "): Code {
  return new Code(block.text.replace(/^(?=.)/gm, by));
}

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments eval undefined NaN " +
    "Infinity globalThis any unknown never object string number boolean bigint symbol type as satisfies declare " +
    "keyof readonly infer is asserts abstract namespace module require constructor prototype __proto__"
  ).split(" "),
);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function isSafeIdentifier(s: string): boolean {
  return IDENTIFIER.test(s) && !RESERVED.has(s);
}

/** A validated identifier. Throws on anything else: names must be sanitised before they get here. */
export function name(s: string): Code {
  if (!isSafeIdentifier(s)) throw new Error(`internal: ${JSON.stringify(s)} is not a safe identifier`);
  return new Code(s);
}

/** Literal for a primitive, with U+2028/U+2029 escaped (valid in JSON strings, line breaks in older JS). */
export function lit(v: string | number | boolean | null | bigint): Code {
  switch (typeof v) {
    case "string":
      return new Code(quote(v));
    case "number":
      if (Number.isNaN(v)) return new Code("NaN");
      if (!Number.isFinite(v)) return new Code(v > 0 ? "Infinity" : "-Infinity");
      return new Code(Object.is(v, -0) ? "-0" : String(v));
    case "boolean":
      return new Code(v ? "true" : "false");
    case "bigint":
      return new Code(`${v}n`);
    default:
      if (v === null) return new Code("null");
      throw new Error(`internal: cannot make a literal of ${typeof v}`);
  }
}

export function quote(s: string): string {
  return JSON.stringify(s).replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}

/**
 * Literal for any JSON value. Object keys are quoted; `__proto__` is written as a computed key so that it
 * becomes an own property (a quoted `"__proto__":` in a literal would set the prototype).
 */
export function jsonLit(v: unknown): Code {
  if (v === null || typeof v !== "object") return lit(v as string | number | boolean | null);
  if (Array.isArray(v)) return new Code("[" + v.map((x) => jsonLit(x).text).join(", ") + "]");
  const parts = Object.keys(v).map((k) => `${k === "__proto__" ? `[${quote(k)}]` : quote(k)}: ${jsonLit((v as Record<string, unknown>)[k]).text}`);
  return new Code("{" + parts.join(", ") + "}");
}

/**
 * `jsonLit` laid out for diffs: a value whose one-line form fits in `width` columns stays on one line; a larger
 * array or object gets one entry per line (indented by two under `indent`, with a trailing comma), each entry
 * laid out the same way. So one changed entry of a big constant (a property of a definition, an enum value)
 * changes one line of the generated file, not the whole blob. Same value, same escaping as jsonLit.
 */
export function jsonBlock(v: unknown, indent = "", width = 100): Code {
  return new Code(jsonLayout(v, indent, indent.length, width));
}

/** `v` at a column where `used` characters of the line are already taken. */
function jsonLayout(v: unknown, indent: string, used: number, width: number): string {
  const flat = jsonLit(v).text;
  if (used + flat.length <= width || v === null || typeof v !== "object") return flat;
  const inner = indent + "  ";
  if (Array.isArray(v)) {
    if (v.length === 0) return flat;
    return "[\n" + v.map((x) => inner + jsonLayout(x, inner, inner.length + 1, width) + ",\n").join("") + indent + "]";
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return flat;
  const entries = keys.map((k) => {
    const key = `${k === "__proto__" ? `[${quote(k)}]` : quote(k)}: `;
    return inner + key + jsonLayout((v as Record<string, unknown>)[k], inner, inner.length + key.length + 1, width) + ",\n";
  });
  return "{\n" + entries.join("") + indent + "}";
}

/**
 * A string literal for a long multi-line text (prompt instructions): one concatenated literal per line of the
 * text, so that one changed line of the text is one changed line of code. Each piece goes through `quote`.
 */
export function stringBlock(s: string, indent = ""): Code {
  const pieces = s.match(/[^\n]*\n|[^\n]+$/g) ?? [""];
  if (pieces.length <= 1) return lit(s);
  return new Code(pieces.map((x) => quote(x)).join(` +\n${indent}  `));
}

/** `obj.key` when `key` is a plain identifier, else `obj["key"]`. Never use for `__proto__` reads (see getOwn). */
export function prop(obj: Code, key: string): Code {
  if (key === "__proto__") throw new Error("internal: __proto__ must be read with getOwn and written with setOwn");
  return new Code(IDENTIFIER.test(key) ? `${obj.text}.${key}` : `${obj.text}[${quote(key)}]`);
}

/** A property key in a TS type or object literal. */
export function propKey(key: string): Code {
  return new Code(IDENTIFIER.test(key) && key !== "__proto__" ? key : quote(key));
}

/**
 * A JSDoc block for untrusted text: `*\/` cannot close it early and line terminators cannot break out of it.
 */
export function docComment(text: string | undefined, prefix = ""): Code {
  if (text === undefined || text.trim() === "") return new Code("");
  const safe = text
    .replace(/\*\//g, "*\\/")
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd());
  if (safe.length === 1) return new Code(`${prefix}/** ${safe[0]} */\n`);
  return new Code(`${prefix}/**\n${safe.map((l) => `${prefix} *${l === "" ? "" : " " + l}`).join("\n")}\n${prefix} */\n`);
}

/** A single-line comment with nothing that could end the line or the comment. */
export function lineComment(text: string): Code {
  return new Code("// " + text.replace(/[\r\n\u2028\u2029]/g, " "));
}
