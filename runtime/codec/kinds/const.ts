/**
 * Guards of const positions (see string.ts): checked, written as nothing. A JSON primitive compares with `===`
 * (its message names it); other JSON values structurally.
 */
import { jsonEquals } from "../../wire/objects.ts";
import { fail } from "./fail.ts";
import { constExpected } from "../messages.ts";

export function wConst(v: unknown, c: string | number | boolean | null, p: string, req?: number): void {
  if (v !== c) throw fail(p, constExpected(c), v, req);
}

export function wJsonConst(v: unknown, c: unknown, p: string, req?: number): void {
  if (!jsonEquals(v, c)) throw fail(p, constExpected(c), v, req);
}
