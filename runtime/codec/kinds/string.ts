/**
 * Guards of string positions: check one value, write it, throw the one error with the one message. Generated
 * writers (generator/emit/write.ts) and the engine (runtime/codec/engine/write.ts) call the same functions.
 * One function per wire format of runtime/codec/formats.ts (each with or without a default table: `w<tabled>` and
 * `w<tabled>T`), so every call site stays monomorphic; the messages are the formats'.
 */
import { writeTabledDate, writeTabledDateTime, writeTabledDecimalString, writeTabledPlainString, writeTabledString, writeTabledUuid, type DefaultTable } from "../../wire/defaults.ts";
import { writeUuid } from "../../wire/uuid.ts";
import { invalid, type Writer } from "../../wire/writer.ts";
import { fail } from "./fail.ts";
import { EXPECTED_STRING, EXPECTED_UUID, EXPECTED_WELL_FORMED } from "../messages.ts";

// the formats' messages from ../messages.ts, not from ../formats.ts: that table reaches every format's code, and a
// bundle would keep it all
const STRING = EXPECTED_STRING;
const WELL_FORMED = EXPECTED_WELL_FORMED;
const UUID = EXPECTED_UUID;

export function wString(w: Writer, v: unknown, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!w.string(v)) throw invalid(p, WELL_FORMED, v);
}

export function wDateTime(w: Writer, v: unknown, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!w.dateTime(v)) throw invalid(p, WELL_FORMED, v);
}

export function wDate(w: Writer, v: unknown, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!w.date(v)) throw invalid(p, WELL_FORMED, v);
}

export function wDecimalString(w: Writer, v: unknown, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!w.decimalString(v)) throw invalid(p, WELL_FORMED, v);
}

export function wStringT(w: Writer, v: unknown, t: DefaultTable<string>, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!writeTabledString(w, v, t)) throw invalid(p, WELL_FORMED, v);
}

export function wDateTimeT(w: Writer, v: unknown, t: DefaultTable<string>, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!writeTabledDateTime(w, v, t)) throw invalid(p, WELL_FORMED, v);
}

export function wDateT(w: Writer, v: unknown, t: DefaultTable<string>, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!writeTabledDate(w, v, t)) throw invalid(p, WELL_FORMED, v);
}

export function wDecimalStringT(w: Writer, v: unknown, t: DefaultTable<string>, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!writeTabledDecimalString(w, v, t)) throw invalid(p, WELL_FORMED, v);
}

export function wPlainString(w: Writer, v: unknown, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!w.plainString(v)) throw invalid(p, WELL_FORMED, v);
}

export function wPlainStringT(w: Writer, v: unknown, t: DefaultTable<string>, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!writeTabledPlainString(w, v, t)) throw invalid(p, WELL_FORMED, v);
}

export function wUuid(w: Writer, v: unknown, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!writeUuid(w, v)) throw invalid(p, UUID, v);
}

export function wUuidT(w: Writer, v: unknown, t: DefaultTable<string>, p: string, req?: number): void {
  if (typeof v !== "string") throw fail(p, STRING, v, req);
  if (!writeTabledUuid(w, v, t)) throw invalid(p, UUID, v);
}

/** Object keys of open objects and maps (their path is the entry's: the caller prefixes it). */
export function wKey(w: Writer, k: string): void {
  if (!w.string(k)) throw invalid("", "a key without lone surrogates", k);
}
