/** How the CLI shows a ToonError: one line on stderr (plus one per detail) and the exit code it means. */
import type { ToonError } from "../../runtime/wire/errors.ts";

export function report(e: ToonError): number {
  process.stderr.write(`toon-gen: ${e.message}${e.line === undefined ? "" : ` (line ${e.line}${e.column === undefined ? "" : `, column ${e.column}`})`}\n`);
  for (const d of e.details ?? []) process.stderr.write(`  ${d.path === "" ? "" : d.path + ": "}${d.message}\n`);
  return e.code === "CONFIG_ERROR" ? 2 : 1;
}
