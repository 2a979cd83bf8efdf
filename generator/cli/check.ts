/**
 * `toon-gen check` (for CI): regenerate in memory and fail when a generated file or dictionary is stale, or a
 * schema change breaks wire compatibility with the committed dictionaries. One line per finding (schema path,
 * rule, how to fix); `--json` for machines. Writes nothing.
 */
import { parseArgs } from "node:util";
import * as path from "node:path";
import { ToonError } from "../../runtime/errors.ts";
import { toPosix } from "../fs/glob.ts";
import { generate } from "../pipeline.ts";
import { loadConfig } from "./config.ts";

export interface CheckLine {
  file: string;
  path: string;
  rule: string;
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
  const lines: CheckLine[] = result.findings.map((f) => ({ file: f.source, path: f.path, rule: f.rule, breaking: f.breaking, message: f.message, fix: f.fix }));
  const breaking = lines.some((l) => l.breaking);
  // stale files only matter when the schemas themselves are fine: a breaking change makes everything "stale"
  if (!breaking) {
    for (const f of result.files) {
      if (!f.changed) continue;
      lines.push({
        file: toPosix(path.relative(baseDir, f.path)),
        path: "",
        rule: "stale",
        breaking: true,
        message: "differs from what the schemas and dictionaries generate (or is missing)",
        fix: "run toon-gen generate and commit the result",
      });
    }
  }
  for (const w of result.warnings) lines.push({ file: "", path: "", rule: "warning", breaking: false, message: w, fix: "see the message" });
  const failed = lines.some((l) => l.breaking);
  if (values.json) {
    process.stdout.write(JSON.stringify({ ok: !failed, findings: lines }, null, 2) + "\n");
  } else {
    for (const l of lines) {
      if (l.rule === "warning") process.stdout.write(`warning: ${l.message}\n`);
      else process.stdout.write(`${l.file}: ${l.path === "" ? "" : l.path + ": "}[${l.rule}] ${l.message} (fix: ${l.fix})\n`);
    }
    process.stdout.write(
      failed
        ? `toon-gen check: ${lines.filter((l) => l.breaking).length} problem(s) in ${result.schemas.length} schema(s)\n`
        : `toon-gen check: ${result.schemas.length} schema(s) up to date and wire-compatible with their dictionaries\n`,
    );
  }
  return failed ? 1 : 0;
}
