/**
 * Every output of a run, or none: each file is first written next to its target under a temporary name, and
 * only when all of them are on disk are they renamed into place (a rename within a directory is atomic). A
 * failure removes the temporary files, so an interrupted run never leaves a module without its dictionary.
 * Errors are IO_ERROR naming the file.
 */
import { mkdirSync, renameSync, rmSync, rmdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";

/** Remove a temporary file if it is there (ENOTDIR and the like mean it never was). */
function discard(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    /* nothing to remove */
  }
}

export interface OutputFile {
  path: string;
  content: string;
}

function ioError(verb: string, file: string, cwd: string, e: unknown): ToonError {
  const err = e as NodeJS.ErrnoException;
  return new ToonError("IO_ERROR", `cannot ${verb} ${path.relative(cwd, file) || file}: ${err.code ?? ""}${err.code ? " " : ""}${err.message?.replace(/^[A-Z]+: /, "") ?? String(e)}`);
}

/** Write `files` atomically as a set (see above); `cwd` only shortens the file names in errors. */
export function writeAll(files: readonly OutputFile[], cwd: string): void {
  const staged: { temp: string; target: string }[] = [];
  const unstage = (): void => {
    for (const s of staged) discard(s.temp);
  };
  for (const f of files) {
    const temp = path.join(path.dirname(f.path), `.${path.basename(f.path)}.${process.pid}.tmp`);
    try {
      mkdirSync(path.dirname(f.path), { recursive: true });
      writeFileSync(temp, f.content);
    } catch (e) {
      unstage();
      discard(temp);
      throw ioError("write", f.path, cwd, e);
    }
    staged.push({ temp, target: f.path });
  }
  for (let i = 0; i < staged.length; i++) {
    try {
      renameSync(staged[i]!.temp, staged[i]!.target);
    } catch (e) {
      // the ones already renamed stay (renames rarely fail once the temporary files exist); the rest go
      for (const s of staged.slice(i)) discard(s.temp);
      throw ioError("write", staged[i]!.target, cwd, e);
    }
  }
}

/** Delete files (orphans, `--prune`), then the directories they leave empty, up to (not including) `stopAt`. */
export function removeAll(files: readonly string[], stopAt: readonly string[], cwd: string): void {
  for (const f of files) {
    try {
      rmSync(f);
    } catch (e) {
      throw ioError("remove", f, cwd, e);
    }
    let dir = path.dirname(f);
    while (!stopAt.includes(dir) && dir !== path.dirname(dir)) {
      try {
        rmdirSync(dir); // only succeeds when empty
      } catch {
        break;
      }
      dir = path.dirname(dir);
    }
  }
}
