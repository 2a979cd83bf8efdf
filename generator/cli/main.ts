/**
 * The `toon-gen` command. Each subcommand lives in its own module; this file parses the command line,
 * dispatches, and turns every ToonError into one line on stderr and a non-zero exit.
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { ToonError } from "../../runtime/wire/errors.ts";
import { GENERATOR_VERSION } from "../version.ts";
import { runGenerate } from "./generate.ts";
import { COMMAND_HELP, HELP } from "./help.ts";
import { closest } from "./suggest.ts";
import { report } from "./report.ts";

const COMMANDS = Object.keys(COMMAND_HELP);

/** Node's own I/O errors (EACCES, ENOSPC, ...) with the file they are about: IO_ERROR, not an internal error. */
function asIoError(e: unknown): ToonError | undefined {
  const err = e as NodeJS.ErrnoException | undefined;
  if (typeof err?.code !== "string" || !/^E[A-Z]+$/.test(err.code) || typeof err.syscall !== "string") return undefined;
  return new ToonError("IO_ERROR", `cannot ${err.syscall} ${err.path ?? ""}: ${err.code}`.replace(/ +:/, ":"));
}

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v") {
    process.stdout.write(GENERATOR_VERSION + "\n");
    return 0;
  }
  if (first === "--help" || first === "-h") {
    process.stdout.write(HELP);
    return 0;
  }
  if (first === "help") {
    const cmd = rest[0];
    if (cmd === undefined) process.stdout.write(HELP);
    else if (COMMAND_HELP[cmd] !== undefined) process.stdout.write(COMMAND_HELP[cmd]);
    else return report(unknownCommand(cmd));
    return 0;
  }
  // `toon-gen <command> --help`: that command's usage (before its own argument parsing could refuse the rest)
  const command = first === undefined || first.startsWith("-") ? "generate" : first;
  if (COMMAND_HELP[command] !== undefined && argv.some((a) => a === "--help" || a === "-h")) {
    process.stdout.write(COMMAND_HELP[command]);
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
        throw unknownCommand(first);
    }
  } catch (e) {
    if (e instanceof ToonError) return report(e);
    const io = asIoError(e);
    if (io !== undefined) return report(io);
    throw e;
  }
}

function unknownCommand(name: string): ToonError {
  const near = closest(name, COMMANDS);
  return new ToonError("CONFIG_ERROR", `unknown command ${JSON.stringify(name)}${near === undefined ? "" : ` (did you mean ${near}?)`} (see toon-gen --help)`);
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
  // a closed pipe (`toon-gen decode ... | head`) is the reader's choice, not an error: stop quietly
  const quietOnEpipe = (e: NodeJS.ErrnoException): void => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  };
  process.stdout.on("error", quietOnEpipe);
  process.stderr.on("error", quietOnEpipe);
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      if ((e as NodeJS.ErrnoException)?.code === "EPIPE") return;
      process.stderr.write(`toon-gen: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = 70;
    },
  );
}

if (isEntryModule()) runCli();
