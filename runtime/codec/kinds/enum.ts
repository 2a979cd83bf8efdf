/**
 * Guards of enum positions (see string.ts): the value's index in the schema's list, as a varint. The message
 * lists the values (cut at 200 characters) and is built only on failure, from the same list the reader uses.
 * Duplicates: the first match wins (as a `switch` would).
 */
import { jsonEquals } from "../../wire/objects.ts";
import type { Writer } from "../../wire/writer.ts";
import { fail } from "./fail.ts";
import { enumExpected } from "../messages.ts";

export { enumExpected };

/** Up to this many values `wEnum` scans the list; longer lists of primitives get an index (`wEnumMap`). */
export const ENUM_SCAN_MAX = 16;

/** JSON primitives compared with `===` (SameValueZero in a Map agrees on them: no NaN in JSON). */
export function wEnum(w: Writer, v: unknown, values: readonly unknown[], p: string, req?: number): void {
  const i = values.indexOf(v);
  if (i < 0) throw fail(p, enumExpected(values), v, req);
  w.varint(i);
}

/** The error of a value not in `values` (generated `switch`es over short lists end in it). */
export function enumFail(v: unknown, values: readonly unknown[], p: string, req?: number): Error {
  return fail(p, enumExpected(values), v, req);
}

/** Long lists of primitives: an index built once (`enumIndex`), so a lookup does not scan. */
export function wEnumMap(w: Writer, v: unknown, index: ReadonlyMap<unknown, number>, values: readonly unknown[], p: string, req?: number): void {
  const i = index.get(v);
  if (i === undefined) throw fail(p, enumExpected(values), v, req);
  w.varint(i);
}

/** Lists holding objects or arrays: compared structurally. */
export function wJsonEnum(w: Writer, v: unknown, values: readonly unknown[], p: string, req?: number): void {
  const i = values.findIndex((x) => jsonEquals(x, v));
  if (i < 0) throw fail(p, enumExpected(values), v, req);
  w.varint(i);
}

/** The index of each value (the first of duplicates). */
export function enumIndex(values: readonly unknown[]): ReadonlyMap<unknown, number> {
  const index = new Map<unknown, number>();
  values.forEach((x, i) => {
    if (!index.has(x)) index.set(x, i);
  });
  return index;
}
