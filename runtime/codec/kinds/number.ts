/** Guards of number positions (see string.ts), with or without a default table. */
import { writeTabledNumber, type DefaultTable } from "../../wire/defaults.ts";
import type { Writer } from "../../wire/writer.ts";
import { fail } from "./fail.ts";
import { EXPECTED_NUMBER } from "../messages.ts";

const NUMBER = EXPECTED_NUMBER;

export function wNumber(w: Writer, v: unknown, p: string, req?: number): void {
  if (!(typeof v === "number" && w.num(v))) throw fail(p, NUMBER, v, req);
}

export function wNumberT(w: Writer, v: unknown, t: DefaultTable<number>, p: string, req?: number): void {
  if (!(typeof v === "number" && writeTabledNumber(w, v, t))) throw fail(p, NUMBER, v, req);
}
