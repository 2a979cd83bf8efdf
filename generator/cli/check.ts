/**
 * `toon-gen check` (for CI): regenerate in memory and fail when a generated file or dictionary is stale, or a
 * schema change breaks wire compatibility with the committed dictionaries. One line per finding (schema path,
 * rule, how to fix); `--json` for machines. Writes nothing.
 */
import { parseArgs } from "node:util";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import { toPosix } from "../fs/glob.ts";
import { generate } from "../pipeline.ts";
import { loadConfig } from "./config.ts";

export interface CheckLine {
  file: string;
  path: string;
  rule: string;
  /**
   * "breaking": the schema change breaks wire compatibility (fix the schema or rebase); "stale": a generated
   * file or dictionary is out of date or missing after a safe change (run generate); "orphan": no input
   * generates it any more (generate --prune); "warning": does not fail the check.
   */
  kind: "breaking" | "stale" | "orphan" | "warning";
  /** Only true for kind "breaking". */
  breaking: boolean;
  message: string;
  fix: string;
}

export async function runCheck(args: string[]): Promise<number> {
  let values: { config?: string | undefined; json?: boolean | undefined };
  try {
    ({ values } = parseArgs({ args, options: { config: { type: "string", short: "c" }, json: { type: "boolean" } }, strict: true }));
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", (e as Error).message);
  }
  const { config, baseDir } = loadConfig(values.config, process.cwd());
  const result = await generate(config, { cwd: baseDir, dryRun: true });
  const lines: CheckLine[] = result.findings.map((f) => ({ file: f.source, path: f.path, rule: f.rule, kind: f.breaking ? "breaking" : "warning", breaking: f.breaking, message: f.message, fix: f.fix }));
  const breaking = lines.some((l) => l.breaking);
  const rel = (f: string): string => toPosix(path.relative(baseDir, f));
  // stale files only matter when the schemas themselves are fine: a breaking change makes everything "stale"
  if (!breaking) {
    for (const f of result.files) {
      if (!f.changed) continue;
      lines.push({
        file: rel(f.path),
        path: "",
        rule: "stale",
        kind: "stale",
        breaking: false,
        message: "differs from what the schemas and dictionaries generate (or is missing)",
        fix: "run toon-gen generate and commit the result",
      });
    }
  }
  for (const r of result.renamed) {
    lines.push({ file: r.to, path: "", rule: "renamed", kind: "warning", breaking: false, message: `takes over ${r.from} (the schema was renamed or moved; fingerprint kept)`, fix: "run toon-gen generate --prune and commit the result" });
  }
  for (const o of result.orphans) {
    lines.push({ file: rel(o), path: "", rule: "orphan", kind: "orphan", breaking: false, message: "no input generates this file any more (a schema was renamed, moved or removed)", fix: "run toon-gen generate --prune and commit the result" });
  }
  for (const w of result.warnings) lines.push({ file: "", path: "", rule: "warning", kind: "warning", breaking: false, message: w, fix: "see the message" });
  const problems = lines.filter((l) => l.kind !== "warning");
  const failed = problems.length > 0;
  if (values.json) {
    process.stdout.write(JSON.stringify({ ok: !failed, findings: lines }, null, 2) + "\n");
  } else {
    for (const l of lines) {
      if (l.rule === "warning") process.stdout.write(`warning: ${l.message}\n`);
      else process.stdout.write(`${l.file}: ${l.path === "" ? "" : l.path + ": "}[${l.rule}] ${l.message} (fix: ${l.fix})\n`);
    }
    process.stdout.write(
      failed
        ? `toon-gen check: ${problems.length} problem(s) in ${result.schemas.length} schema(s) (${(["breaking", "stale", "orphan"] as const).map((k) => `${problems.filter((l) => l.kind === k).length} ${k}`).join(", ")})\n`
        : `toon-gen check: ${result.schemas.length} schema(s) up to date and wire-compatible with their dictionaries\n`,
    );
  }
  return failed ? 1 : 0;
}
