/**
 * The guard of a string, integer or number position by its wire format (runtime/codec/formats.ts: the one place
 * that knows formats) and whether it has a default table. Generated code names the guard `$rt.w<tabled>` /
 * `$rt.w<tabled>T` (`WireFormat.tabled`); the engine takes the same functions from these tables. A format
 * added to the table needs its guard pair here (the record types below make that a compile error).
 */
import type { DefaultTable } from "../../wire/defaults.ts";
import type { Writer } from "../../wire/writer.ts";
import type { WireFormat } from "../formats.ts";
import { wDate, wDateT, wDateTime, wDateTimeT, wDecimalString, wDecimalStringT, wPlainString, wPlainStringT, wString, wStringT, wUuid, wUuidT } from "./string.ts";
import { wInt, wInt64, wInt64T, wIntT } from "./integer.ts";
import { wNumber, wNumberT } from "./number.ts";

export type ScalarForm = "String" | "PlainString" | "DateTime" | "Date" | "DecimalString" | "Uuid" | "Int" | "Int64" | "Number";

export const SCALAR_GUARDS: Record<ScalarForm, (w: Writer, v: unknown, p: string, req?: number) => void> = {
  String: wString,
  PlainString: wPlainString,
  DateTime: wDateTime,
  Date: wDate,
  DecimalString: wDecimalString,
  Uuid: wUuid,
  Int: wInt,
  Int64: wInt64,
  Number: wNumber,
};

export const TABLED_GUARDS: Record<ScalarForm, (w: Writer, v: unknown, t: DefaultTable<any>, p: string, req?: number) => void> = {
  String: wStringT,
  PlainString: wPlainStringT,
  DateTime: wDateTimeT,
  Date: wDateT,
  DecimalString: wDecimalStringT,
  Uuid: wUuidT,
  Int: wIntT,
  Int64: wInt64T,
  Number: wNumberT,
};

/** The form of a format (its `tabled` name), checked against the guard tables. */
export function scalarForm(f: WireFormat): ScalarForm {
  if (!(f.tabled in SCALAR_GUARDS)) throw new Error(`internal: no guard for format ${f.name}`);
  return f.tabled as ScalarForm;
}

/** The exported name of a form's guard (what generated code calls). */
export function scalarGuardName(form: ScalarForm, tabled: boolean): string {
  return "w" + form + (tabled ? "T" : "");
}
