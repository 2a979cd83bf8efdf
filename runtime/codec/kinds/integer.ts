/** Guards of integer positions (see string.ts): plain, int64 (number or bigint), each with or without a default table. */
import { writeTabledInt, writeTabledInt64, type DefaultTable } from "../../wire/defaults.ts";
import { writeInt64, type Writer } from "../../wire/writer.ts";
import { fail } from "./fail.ts";
import { EXPECTED_INT64, EXPECTED_INTEGER } from "../messages.ts";

const INT = EXPECTED_INTEGER;
const INT64 = EXPECTED_INT64;
const isInteger = Number.isInteger;

export function wInt(w: Writer, v: unknown, p: string, req?: number): void {
  if (!(typeof v === "number" && isInteger(v) && w.int(v))) throw fail(p, INT, v, req);
}

export function wInt64(w: Writer, v: unknown, p: string, req?: number): void {
  if (!writeInt64(w, v)) throw fail(p, INT64, v, req);
}

export function wIntT(w: Writer, v: unknown, t: DefaultTable<number>, p: string, req?: number): void {
  if (!(typeof v === "number" && isInteger(v) && writeTabledInt(w, v, t))) throw fail(p, INT, v, req);
}

export function wInt64T(w: Writer, v: unknown, t: DefaultTable<number>, p: string, req?: number): void {
  if (!writeTabledInt64(w, v, t)) throw fail(p, INT64, v, req);
}
