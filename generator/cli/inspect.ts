/**
 * `toon-gen inspect <file.toon> [--schema s.json] [--dictionary d.json] [--json]`: the header (flags by name,
 * fingerprint, extension level, which dictionary it matches), the dictionary table, the decoded tree, and per
 * dictionary path the bytes it takes in TOON against the bytes it took in JSON, largest TOON cost first.
 * Works on truncated and corrupt messages (it shows what decoded and where it stopped: offset and path) and on
 * schemaless and compressed ones. Exit code 0 when the message decoded completely, 1 otherwise.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { ToonError } from "../../runtime/wire/errors.ts";
import { stringifyJson } from "../interpret/json.ts";
import { inspectMessage, type InspectReport } from "../inspect/report.ts";

export async function runInspect(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { schema: { type: "string", short: "s" }, dictionary: { type: "string", short: "d" }, json: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", `inspect: ${(e as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new ToonError("CONFIG_ERROR", "inspect takes one message file (- for stdin): toon-gen inspect <file.toon> [--schema s.json] [--json]");
  if (values.dictionary !== undefined && values.schema === undefined) throw new ToonError("CONFIG_ERROR", "inspect: --dictionary needs --schema");
  const cwd = process.cwd();
  const file = positionals[0]!;
  let bytes: Uint8Array;
  try {
    bytes = file === "-" ? readFileSync(0) : readFileSync(path.resolve(cwd, file));
  } catch (e) {
    throw new ToonError("IO_ERROR", `cannot read ${file}: ${(e as Error).message}`);
  }
  const options: Parameters<typeof inspectMessage>[2] = { cwd };
  if (values.schema !== undefined) options.schema = values.schema;
  if (values.dictionary !== undefined) options.dictionary = values.dictionary;
  const report = await inspectMessage(bytes, file, options);
  process.stdout.write(values.json ? stringifyJson(report) : formatReport(report));
  return report.complete ? 0 : 1;
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}
function lpad(s: string, n: number): string {
  return s.length >= n ? s : " ".repeat(n - s.length) + s;
}

function table(head: string[], rows: string[][], right: boolean[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => "  " + r.map((c, i) => (right[i] ? lpad(c, widths[i]!) : pad(c, widths[i]!))).join("  ").trimEnd();
  return [line(head), ...rows.map(line)].join("\n") + "\n";
}

/** The human-readable report. */
export function formatReport(r: InspectReport): string {
  const out: string[] = [];
  const h = r.header;
  out.push(`${r.file}: ${r.bytes} bytes\n`);
  out.push("\nHeader\n");
  if (!h.magic) out.push("  not a TOON message (no TOON magic)\n");
  else {
    out.push(`  format version  ${h.version ?? "(cut short)"}\n`);
    if (h.flags !== undefined) out.push(`  flags           0x${h.flags.toString(16).padStart(4, "0")}  ${h.flagNames!.join(" | ") || "(none)"}\n`);
    if (h.fingerprint !== undefined) out.push(`  fingerprint     ${h.fingerprint}\n`);
    if (h.level !== undefined && h.flags !== undefined && h.flags & 0x0002) out.push(`  extension level ${h.level}\n`);
    out.push(`  header bytes    ${h.bytes}\n`);
  }
  if (r.compression) {
    const c = r.compression;
    out.push(`  compression     ${c.algorithm}: ${c.storedBytes} bytes stored, ${c.inflatedBytes} inflated (offsets below are in the inflated message)\n`);
  }
  const d = r.dictionary;
  out.push("\nDictionary\n");
  if (d.kind === "embedded") out.push(`  embedded (schemaless): ${d.bytes ?? 0} bytes, ${d.entries.length} paths\n`);
  else if (d.kind === "fixed") {
    if (d.via === "--schema") {
      out.push(`  ${d.name} (--schema${d.file ? `, ${d.file}` : ""}): fingerprint ${d.fingerprint} ${d.matches ? "matches" : `does NOT match the message's ${h.fingerprint}`}\n`);
    } else if (d.matches) {
      out.push(`  ${d.name} (${d.file}, via toon.config.json): fingerprint ${h.fingerprint} matches\n`);
    } else out.push(`  no matching dictionary for ${h.fingerprint}\n`);
  } else out.push("  unknown (no readable header)\n");
  if (d.note) out.push(`  note: ${d.note}\n`);
  if (d.entries.length > 0) {
    out.push("\n");
    out.push(table(["id", "path", "type"], d.entries.map((e) => [String(e.id), e.path, e.type]), [true, false, false]));
  }
  if (r.value !== undefined) {
    out.push(`\nValue${r.complete ? "" : " (partial: decoding stopped)"}\n`);
    out.push(stringifyJson(r.value).replace(/^/gm, "  "));
  }
  if (r.paths.length > 0) {
    out.push("\nBytes per path (TOON: the path's own bytes; JSON: compact JSON incl. keys and punctuation; by waste, largest first)\n");
    const rows = r.paths.map((p) => [
      p.path,
      String(p.count),
      String(p.toonBytes),
      p.jsonBytes === 0 ? "-" : String(p.jsonBytes),
      p.jsonBytes === 0 ? "-" : `${((p.toonBytes / p.jsonBytes) * 100).toFixed(0)}%`,
    ]);
    const t = r.totals;
    rows.push(["total", "", String(t.toonBytes), String(t.jsonBytes), t.jsonBytes === 0 ? "-" : `${((t.toonBytes / t.jsonBytes) * 100).toFixed(0)}%`]);
    out.push(table(["path", "values", "toon", "json", "toon/json"], rows, [false, true, true, true, true]));
  }
  out.push("\nStatus\n");
  if (r.complete) out.push("  complete: every byte decoded\n");
  else if (r.error) {
    const e = r.error;
    out.push(`  stopped${e.offset === undefined ? "" : ` at byte ${e.offset}`}${e.path ? ` at ${e.path}` : ""}: ${e.message}\n`);
  } else out.push("  body not decoded\n");
  return out.join("");
}
