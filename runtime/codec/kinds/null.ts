/** Guard of null positions (see string.ts): checked, written as nothing. */
import { fail } from "./fail.ts";
import { EXPECTED_NULL } from "../messages.ts";

export function wNull(v: unknown, p: string, req?: number): void {
  if (v !== null) throw fail(p, EXPECTED_NULL, v, req);
}
