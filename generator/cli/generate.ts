/** `toon-gen generate`: run the pipeline from toon.config.json and print one summary line. */
import { parseArgs } from "node:util";
import * as path from "node:path";
import { ToonError } from "../../runtime/errors.ts";
import { generate } from "../pipeline.ts";
import { loadConfig } from "./config.ts";

export async function runGenerate(args: string[]): Promise<number> {
  let values: { config?: string | undefined; quiet?: boolean | undefined; rebase?: string[] | undefined; samples?: string[] | undefined };
  try {
    ({ values } = parseArgs({
      args,
      options: { config: { type: "string", short: "c" }, quiet: { type: "boolean", short: "q" }, rebase: { type: "string", multiple: true }, samples: { type: "string", multiple: true } },
      strict: true,
    }));
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", (e as Error).message);
  }
  const cwd = process.cwd();
  const { config, baseDir } = loadConfig(values.config, cwd);
  const tty = process.stderr.isTTY === true && !values.quiet;
  let shown = false;
  const result = await generate(config, {
    cwd: baseDir,
    ...(values.rebase ? { rebase: values.rebase } : {}),
    ...(values.samples ? { samples: values.samples } : {}),
    onProgress: (done, total, file) => {
      if (!tty || total < 10) return;
      shown = true;
      process.stderr.write(`\r\x1b[K[${done}/${total}] ${file ? path.relative(baseDir, file) : ""}`);
    },
  });
  if (shown) process.stderr.write("\r\x1b[K");
  for (const w of result.warnings) process.stderr.write(`toon-gen: warning: ${w}\n`);
  if (!values.quiet) {
    // on stderr, as progress is: stdout keeps its one summary line
    for (const p of result.profiled) {
      process.stderr.write(`toon-gen: ${p.schema}: profiled ${p.samples} sample${p.samples === 1 ? "" : "s"}, default-value tables for ${p.tables} path${p.tables === 1 ? "" : "s"}\n`);
    }
    process.stdout.write(
      `toon-gen: ${result.schemas.length} schema${result.schemas.length === 1 ? "" : "s"} read, ${result.written} file${result.written === 1 ? "" : "s"} written, ${result.unchanged} unchanged in ${Math.round(result.ms)} ms\n`,
    );
  }
  return 0;
}
