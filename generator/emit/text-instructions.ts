/**
 * The prompt snippet of a module (`formatInstructions`: what a model is told to write): an example document built
 * from the schema and the notes it cannot show.
 */
import type { SchemaIR, Shape } from "../ir/types.ts";
import type { Definitions } from "../ir/walk.ts";
import { encodeText } from "../../runtime/text/encode.ts";

const MAX_EXAMPLE_LINES = 60;

/**
 * A short prompt snippet: the expected TOON shape as an example document built from the schema (one item per
 * array, so tables show their header and one row), plus the notes a model needs (allowed values, optional
 * fields, union variants). The example is encoded by the runtime encoder, so it is valid TOON.
 */
export function formatInstructions(ir: SchemaIR, cx: Definitions): string {
  let notes: string[] = [];
  let example = encodeText(exampleValue(ir.root, cx, true, (n) => notes.push(n)));
  if (example.split("\n").length > MAX_EXAMPLE_LINES) {
    notes = [];
    example = encodeText(exampleValue(ir.root, cx, false, (n) => notes.push(n)));
  }
  const uniq = [...new Set(notes)];
  const shown = uniq.slice(0, 12);
  if (uniq.length > shown.length) shown.push(`(${uniq.length - shown.length} more notes omitted)`);
  return [
    "Reply with TOON (Token-Oriented Object Notation) in a ```toon block, in exactly this shape:",
    "",
    "```toon",
    example,
    "```",
    "",
    "TOON rules: 2-space indentation; `key: value` fields; `key[N]:` is an array of N items (`- ` per item, or the",
    "values inline after the colon); `key[N]{a,b}:` is a table of N objects, one comma-separated row per object,",
    "values in header order. Quote a string only when it contains a comma, colon, quote, bracket or brace, has",
    "leading/trailing spaces, or looks like a number, true, false or null. Set each N to the real count.",
    ...(shown.length > 0 ? ["", "Notes:", ...shown.map((n) => `- ${n}`)] : []),
  ].join("\n");
}

function exampleValue(root: Shape, cx: Definitions, optional: boolean, note: (n: string) => void): unknown {
  const seen = new Set<string>();
  const make = (s: Shape, path: string, hint: string): unknown => {
    switch (s.kind) {
      case "string":
        if (typeof s.default === "string" && s.default !== "") return s.default;
        if (s.int64) return "123";
        switch (s.format) {
          case "date-time":
            return "2025-01-15T09:30:00Z";
          case "date":
            return "2025-01-15";
          case "time":
            return "09:30:00";
          case "email":
            return "name@example.com";
          case "uri":
          case "url":
            return "https://example.com";
          case "uuid":
            return "123e4567-e89b-12d3-a456-426614174000";
        }
        return hint === "" ? "text" : `<${hint}>`;
      case "integer":
      case "number": {
        if (typeof s.default === "number") return s.default;
        const c = s.constraints ?? {};
        const lo = c.minimum ?? (c.exclusiveMinimum !== undefined ? c.exclusiveMinimum + 1 : undefined);
        const hi = c.maximum ?? (c.exclusiveMaximum !== undefined ? c.exclusiveMaximum - 1 : undefined);
        let x = s.kind === "integer" ? 1 : 1.5;
        if (hi !== undefined && x > hi) x = lo !== undefined ? (lo + hi) / 2 : hi;
        if (lo !== undefined && x < lo) x = lo;
        return s.kind === "integer" ? Math.ceil(x) : x;
      }
      case "boolean":
        return typeof s.default === "boolean" ? s.default : true;
      case "null":
        return null;
      case "any":
        return null;
      case "const":
        return s.value;
      case "enum": {
        if (s.values.length > 1) note(`${path || "the value"}: one of ${s.values.map((v) => JSON.stringify(v)).join(", ")}`);
        return s.values[0] ?? null;
      }
      case "ref": {
        if (seen.has(s.name)) return undefined;
        seen.add(s.name);
        const v = make(cx.def(s.name).shape, path, hint);
        seen.delete(s.name);
        return v;
      }
      case "array": {
        const item = make(s.items, path + "[]", hint);
        return item === undefined ? [] : [item];
      }
      case "tuple":
        return s.items.map((x, i) => make(x, `${path}[${i}]`, hint) ?? null);
      case "union": {
        const nonNull = s.branches.filter((b) => b.kind !== "null");
        if (s.discriminator !== undefined) {
          note(`${path || "the value"}: "${s.discriminator.property}" is one of ${s.discriminator.values.map((v) => JSON.stringify(v)).join(", ")}, each with its own fields; the example shows the first`);
        } else if (nonNull.length < s.branches.length) {
          note(`${path || "the value"}: may be null`);
        }
        return make(nonNull[0] ?? s.branches[0]!, path, hint);
      }
      case "object": {
        const o: Record<string, unknown> = {};
        const optionalNames: string[] = [];
        for (const p of s.properties) {
          if (!p.required && !optional) continue;
          const v = make(p.shape, path === "" ? p.name : `${path}.${p.name}`, p.name);
          if (v === undefined) continue;
          if (!p.required) optionalNames.push(p.name);
          if (p.name === "__proto__") Object.defineProperty(o, p.name, { value: v, enumerable: true, writable: true, configurable: true });
          else o[p.name] = v;
        }
        if (optionalNames.length > 0) note(`${path || "top level"}: optional (omit when unknown; in a table row, leave its cell empty): ${optionalNames.join(", ")}`);
        const defaulted = s.properties.filter((p) => p.shape.default !== undefined).map((p) => `${p.name} (${JSON.stringify(p.shape.default)})`);
        if (defaulted.length > 0) note(`${path || "top level"}: may be left out, then the default applies: ${defaulted.join(", ")}`);
        if (s.properties.length === 0 && s.additional !== false) {
          const v = make(s.additional, `${path}.<key>`, "value");
          if (v !== undefined) o["key"] = v;
          note(`${path || "top level"}: a map: any keys`);
        }
        return o;
      }
    }
  };
  const v = make(root, "", "");
  return v === undefined ? null : v;
}
