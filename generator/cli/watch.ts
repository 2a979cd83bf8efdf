/**
 * `toon-gen generate --watch`: generate, then again whenever an input, a file next to one (a `$ref`'d schema,
 * a module a Zod input imports) or the config changes. Events are debounced (editors write a file in several
 * steps) and runs never overlap. A failing run prints its errors and the watch goes on. Folders are watched
 * one by one (not recursively from the project root, which would include node_modules) and the set is
 * recomputed after every run, so a new input folder is picked up. Our own writes (outDir, dictionaryDir,
 * temporary dot files) are ignored.
 */
import { watch, type FSWatcher } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import { hasMagic } from "../fs/glob.ts";
import { resolveInputs } from "../pipeline.ts";
import { splitExport } from "../inputs/index.ts";
import { DEFAULT_CONFIG_FILE, loadConfig } from "./config.ts";
import { generateOnce, type GenerateFlags } from "./generate.ts";
import { report } from "./report.ts";

const DEBOUNCE_MS = 100;

/** The folder a glob's files are in or under: its segments before the first wildcard. */
function staticPrefix(pattern: string, baseDir: string): string {
  const parts = splitExport(pattern).file.replace(/\\/g, "/").split("/");
  const fixed: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (hasMagic(p)) break;
    fixed.push(p);
  }
  return path.resolve(baseDir, fixed.join("/") || ".");
}

export function watchGenerate(values: GenerateFlags): Promise<number> {
  const cwd = process.cwd();
  const configFile = path.resolve(cwd, values.config ?? DEFAULT_CONFIG_FILE);
  const watchers = new Map<string, FSWatcher>();
  let ignored: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;

  const folders = (): Set<string> => {
    const dirs = new Set([path.dirname(configFile)]);
    try {
      const { config, baseDir } = loadConfig(values.config, cwd);
      ignored = [path.resolve(baseDir, config.outDir), path.resolve(baseDir, config.dictionaryDir)];
      for (const p of config.inputs) dirs.add(staticPrefix(p, baseDir));
      try {
        for (const f of resolveInputs(config, baseDir)) dirs.add(path.dirname(splitExport(f).file));
      } catch {
        /* a glob that matches nothing yet: its folder is watched above */
      }
    } catch {
      /* a broken config: its folder is watched, the fix triggers a run */
    }
    return dirs;
  };
  const sync = (): void => {
    const wanted = folders();
    for (const [dir, w] of watchers) if (!wanted.has(dir)) (w.close(), watchers.delete(dir));
    for (const dir of wanted) {
      if (watchers.has(dir)) continue;
      try {
        watchers.set(dir, watch(dir, (_event, name) => changed(dir, name)));
      } catch {
        /* not there (yet) */
      }
    }
  };
  const changed = (dir: string, name: string | Buffer | null): void => {
    if (name !== null) {
      const file = path.join(dir, name.toString());
      if (path.basename(file).startsWith(".")) return; // our temporary files, editors' swap files
      if (ignored.some((d) => file === d || file.startsWith(d + path.sep))) return;
    }
    clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  };
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await generateOnce(values);
    } catch (e) {
      if (!(e instanceof ToonError)) throw e;
      report(e);
    }
    sync();
    if (!values.quiet) process.stderr.write("toon-gen: watching for changes (Ctrl-C to stop)\n");
    running = false;
    if (again) {
      again = false;
      await run();
    }
  };

  return new Promise<number>((resolve) => {
    const stop = (): void => {
      for (const w of watchers.values()) w.close();
      clearTimeout(timer);
      resolve(0);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    void run();
  });
}
