// Spawning the real `toon-gen` command (the source entry, through tsx) as a user would run it, in temporary
// project folders. Shared by the test/cli*.test.ts files.

import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after } from "node:test";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const MAIN = path.join(ROOT, "generator", "cli", "main.ts");
export const TSX = import.meta.resolve("tsx");

export interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** The node arguments that run `toon-gen <args>` from the sources. */
export function toonGenArgv(args: string[]): string[] {
  return ["--conditions=toon-dev", "--import", TSX, MAIN, ...args];
}

export function toonGen(args: string[], cwd: string, stdin?: Uint8Array | string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, toonGenArgv(args), { cwd, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }));
    child.stdin.end(stdin ?? "");
  });
}

/** A long-running `toon-gen` (e.g. --watch): its output so far, and a wait for a pattern in it. */
export function startToonGen(args: string[], cwd: string): { child: ChildProcess; output: () => string; waitFor: (re: RegExp, ms?: number) => Promise<void> } {
  const child = spawn(process.execPath, toonGenArgv(args), { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  const waiters: { re: RegExp; done: () => void }[] = [];
  const feed = (b: Buffer): void => {
    text += b.toString("utf8");
    for (const w of [...waiters]) if (w.re.test(text)) (waiters.splice(waiters.indexOf(w), 1), w.done());
  };
  child.stdout!.on("data", feed);
  child.stderr!.on("data", feed);
  return {
    child,
    output: () => text,
    waitFor: (re, ms = 60_000) =>
      new Promise<void>((resolve, reject) => {
        if (re.test(text)) return resolve();
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re}; output so far:\n${text}`)), ms);
        waiters.push({ re, done: () => (clearTimeout(timer), resolve()) });
      }),
  };
}

const temps: string[] = [];
export function tempDir(prefix = "toon-gen-cli-"): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(d);
  return d;
}
after(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** A copy of an example project (config and inputs; its committed dictionaries when asked). */
export function exampleCopy(name: string, parts: string[]): string {
  const d = tempDir();
  for (const p of parts) cpSync(path.join(ROOT, "examples", name, p), path.join(d, p), { recursive: true });
  return d;
}

export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(path.relative(dir, p).split(path.sep).join("/"));
    }
  };
  walk(dir);
  return out.sort();
}
