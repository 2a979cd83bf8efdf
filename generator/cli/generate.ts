/** `toon-gen generate`: run the pipeline from toon.config.json and print one summary line. */
import { parseArgs } from "node:util";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import { toPosix } from "../fs/glob.ts";
import type { GenerateOptions, GenerateResult } from "../pipeline.ts";
import { cachedResult, probeCache } from "../fs/cache.ts";
import { resolveInputs } from "../fs/inputs.ts";
import { loadConfig } from "./config.ts";
import { INT64_MODES, type Int64Mode } from "../ir/int64.ts";

export interface GenerateFlags {
  config?: string | undefined;
  quiet?: boolean | undefined;
  rebase?: string[] | undefined;
  samples?: string[] | undefined;
  prune?: boolean | undefined;
  watch?: boolean | undefined;
  "no-cache"?: boolean | undefined;
  target?: string | undefined;
  int64?: string | undefined;
}

export async function runGenerate(args: string[]): Promise<number> {
  let values: GenerateFlags;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        config: { type: "string", short: "c" },
        quiet: { type: "boolean", short: "q" },
        rebase: { type: "string", multiple: true },
        samples: { type: "string", multiple: true },
        prune: { type: "boolean" },
        watch: { type: "boolean", short: "w" },
        "no-cache": { type: "boolean" },
        target: { type: "string" },
        int64: { type: "string" },
      },
      strict: true,
    }));
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", (e as Error).message);
  }
  // before the config is read: a bad flag is the error to report, whatever the config says
  if (values.int64 !== undefined && !INT64_MODES.includes(values.int64 as Int64Mode)) {
    throw new ToonError("CONFIG_ERROR", `--int64 must be auto or bigint, not ${JSON.stringify(values.int64)}`);
  }
  if (values.watch) return (await import("./watch.ts")).watchGenerate(values);
  await generateOnce(values);
  return 0;
}

/** One run: load the config (again: it may have changed), generate, print the summary. */
export async function generateOnce(values: GenerateFlags): Promise<GenerateResult> {
  const cwd = process.cwd();
  const { config, baseDir } = loadConfig(values.config, cwd);
  if (values.target !== undefined) {
    if (values.target !== "ts" && values.target !== "js") throw new ToonError("CONFIG_ERROR", `--target must be ts or js, not ${JSON.stringify(values.target)}`);
    config.target = values.target;
  }
  if (values.int64 !== undefined) config.int64 = values.int64 as Int64Mode; // checked by runGenerate
  const tty = process.stderr.isTTY === true && !values.quiet;
  let shown = false;
  const options: GenerateOptions = {
    cwd: baseDir,
    ...(values.rebase ? { rebase: values.rebase } : {}),
    ...(values.samples ? { samples: values.samples } : {}),
    ...(values.prune ? { prune: true } : {}),
    ...(values["no-cache"] ? {} : { cache: true }),
    onProgress: (done, total, file) => {
      if (!tty || total < 10) return;
      shown = true;
      process.stderr.write(`\r\x1b[K[${done}/${total}] ${file ? path.relative(baseDir, file) : ""}`);
    },
  };
  // an unchanged rerun is answered before the loaders and emitters are even imported (most of its start-up)
  const started = performance.now();
  const hit = probeCache(config, baseDir, resolveInputs(config, baseDir), options)?.hit;
  const result = hit !== undefined ? cachedResult(hit, started) : await (await import("../pipeline.ts")).generate(config, options);
  if (shown) process.stderr.write("\r\x1b[K");
  for (const w of result.warnings) process.stderr.write(`toon-gen: warning: ${w}\n`);
  const rel = (f: string): string => toPosix(path.relative(baseDir, f));
  if (result.orphans.length > 0) {
    process.stderr.write(
      result.pruned > 0
        ? `toon-gen: pruned ${result.pruned} orphaned file${result.pruned === 1 ? "" : "s"}: ${result.orphans.map(rel).join(", ")}\n`
        : `toon-gen: warning: ${result.orphans.length} orphaned file${result.orphans.length === 1 ? "" : "s"} no input generates any more: ${result.orphans.map(rel).join(", ")} (toon-gen generate --prune deletes them)\n`,
    );
  }
  if (!values.quiet) {
    // on stderr, as progress is: stdout keeps its one summary line
    for (const r of result.renamed) {
      process.stderr.write(`toon-gen: ${r.to}: takes over ${r.from} (the schema was renamed or moved; fingerprint 0x${r.fingerprint.toString(16).padStart(4, "0")} kept)\n`);
    }
    for (const p of result.profiled) {
      process.stderr.write(`toon-gen: ${p.schema}: profiled ${p.samples} sample${p.samples === 1 ? "" : "s"}, default-value tables for ${p.tables} path${p.tables === 1 ? "" : "s"}\n`);
    }
    process.stdout.write(
      `toon-gen: ${result.codecs} schema${result.codecs === 1 ? "" : "s"} read, ${result.written} file${result.written === 1 ? "" : "s"} written, ${result.unchanged} unchanged in ${Math.round(result.ms)} ms${result.cached ? " (cached)" : ""}\n`,
    );
  }
  return result;
}
