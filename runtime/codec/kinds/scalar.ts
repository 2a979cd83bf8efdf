/**
 * The guard of a string, integer or number position, by its wire form (`tabledKind`, runtime/codec/plan.ts: the
 * one place that dispatches on int64 and formats) and whether it has a default table. Generated code names the
 * guard `$rt.w<Form>` / `$rt.w<Form>T`; the engine takes the same functions from these tables.
 */
import { wDate, wDateT, wDateTime, wDateTimeT, wDecimalString, wDecimalStringT, wString, wStringT } from "./string.ts";
import { wInt, wInt64, wInt64T, wIntT } from "./integer.ts";
import { wNumber, wNumberT } from "./number.ts";

export type ScalarForm = "String" | "DateTime" | "Date" | "DecimalString" | "Int" | "Int64" | "Number";

export const SCALAR_GUARDS = {
  String: wString,
  DateTime: wDateTime,
  Date: wDate,
  DecimalString: wDecimalString,
  Int: wInt,
  Int64: wInt64,
  Number: wNumber,
} as const satisfies Record<ScalarForm, unknown>;

export const TABLED_GUARDS = {
  String: wStringT,
  DateTime: wDateTimeT,
  Date: wDateT,
  DecimalString: wDecimalStringT,
  Int: wIntT,
  Int64: wInt64T,
  Number: wNumberT,
} as const satisfies Record<ScalarForm, unknown>;

/** The exported name of a form's guard (what generated code calls). */
export function scalarGuardName(form: ScalarForm, tabled: boolean): string {
  return "w" + form + (tabled ? "T" : "");
}
