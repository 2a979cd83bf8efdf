/**
 * The config's `"int64"` setting (docs/FORMAT.md §3.2): `"auto"` (the default) decodes an int64 integer as a
 * `number` when it is a safe integer and as a `bigint` beyond 2^53; `"bigint"` decodes every one as a `bigint`, so
 * `typeof` never depends on the value. The setting marks the shapes (`IntegerShape.bigint`) after the dictionary
 * stage: the wire, the dictionary and the fingerprint are the same under both, so switching it is never a
 * breaking change.
 */
import type { SchemaIR, Shape } from "./types.ts";

export type Int64Mode = "auto" | "bigint";
export const INT64_MODES: readonly Int64Mode[] = ["auto", "bigint"];

/** `ir` with every int64 integer decoded as a bigint (a copy; `ir` is not changed). `"auto"` returns `ir` itself. */
export function withInt64Mode(ir: SchemaIR, mode: Int64Mode | undefined): SchemaIR {
  if (mode !== "bigint") return ir;
  return { ...ir, root: bigints(ir.root), definitions: ir.definitions.map((d) => ({ ...d, shape: bigints(d.shape) })) };
}

function bigints(s: Shape): Shape {
  switch (s.kind) {
    case "integer":
      return s.int64 === true ? { ...s, bigint: true } : s;
    case "object":
      return {
        ...s,
        properties: s.properties.map((p) => ({ ...p, shape: bigints(p.shape) })),
        additional: s.additional === false ? false : bigints(s.additional),
      };
    case "array":
      return { ...s, items: bigints(s.items) };
    case "tuple":
      return { ...s, items: s.items.map(bigints), rest: s.rest === false ? false : bigints(s.rest) };
    case "union":
      return { ...s, branches: s.branches.map(bigints) };
    default:
      // retired slots of a wire layout keep their shape: their values are read and dropped
      return s;
  }
}
