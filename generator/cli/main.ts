/**
 * The `toon-gen` command. Each subcommand lives in its own module; this file parses the command line,
 * dispatches, and turns every ToonError into one line on stderr and a non-zero exit.
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { ToonError } from "../../runtime/errors.ts";
import { GENERATOR_VERSION } from "../version.ts";
import { runGenerate } from "./generate.ts";
import { HELP } from "./help.ts";

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v") {
    process.stdout.write(GENERATOR_VERSION + "\n");
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  try {
    switch (first) {
      case undefined:
        return await runGenerate([]);
      case "generate":
        return await runGenerate(rest);
      case "check":
        return await (await import("./check.ts")).runCheck(rest);
      case "encode":
      case "decode":
        return await (await import("./codec.ts")).runCodecCommand(first, rest);
      case "stats":
        return await (await import("./stats.ts")).runStats(rest);
      case "inspect":
        return await (await import("./inspect.ts")).runInspect(rest);
      default:
        if (first.startsWith("-")) return await runGenerate(argv);
        throw new ToonError("CONFIG_ERROR", `unknown command ${JSON.stringify(first)} (see toon-gen --help)`);
    }
  } catch (e) {
    if (e instanceof ToonError) {
      process.stderr.write(`toon-gen: ${e.message}${e.line === undefined ? "" : ` (line ${e.line}${e.column === undefined ? "" : `, column ${e.column}`})`}\n`);
      for (const d of e.details ?? []) process.stderr.write(`  ${d.path || "/"}: ${d.message}\n`);
      return e.code === "CONFIG_ERROR" ? 2 : 1;
    }
    throw e;
  }
}

/** Also runnable directly (`node generator/cli/main.ts ...`, as tests and npm scripts do). */
function isEntryModule(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === import.meta.url;
  } catch {
    return false;
  }
}

/** Run the CLI on this process's arguments and set its exit code (the `toon-gen` binary and direct runs). */
export function runCli(): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`toon-gen: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = 70;
    },
  );
}

if (isEntryModule()) runCli();
