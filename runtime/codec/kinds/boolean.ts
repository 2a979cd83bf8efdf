/** Guard of boolean positions (see string.ts): one byte, 1 or 0. */
import type { Writer } from "../../wire/writer.ts";
import { fail } from "./fail.ts";
import { EXPECTED_BOOLEAN } from "../messages.ts";

export function wBool(w: Writer, v: unknown, p: string, req?: number): void {
  if (v === true) w.byte(1);
  else if (v === false) w.byte(0);
  else throw fail(p, EXPECTED_BOOLEAN, v, req);
}
