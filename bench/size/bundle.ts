/**
 * Bundle size of an application entry, as a browser app would ship it: esbuild `--bundle --minify
 * --platform=browser --format=esm`, then gzip -9. `toon-gen/runtime*` resolves through the package's own
 * `exports` (self-reference) with the `toon-dev` condition, so the runtime's .ts sources are what gets bundled
 * and tree-shaken: whatever subpaths the entry (or the generated code it imports) uses, nothing is hard-wired.
 */
import { build, type Metafile } from "esbuild";
import { readdirSync } from "node:fs";
import * as path from "node:path";
import { gzipSync } from "node:zlib";

export const REPO = path.resolve(import.meta.dirname, "..", "..");
export const BUNDLE_DIR = path.join(REPO, "bench", "bundle");

/** One input file's share of a bundle (esbuild metafile `bytesInOutput`: minified bytes, before gzip). */
export interface InputShare {
  /** Repo-relative path. */
  path: string;
  bytes: number;
}

export interface BundleSize {
  /** Entry name: the file name without `.ts`. */
  name: string;
  /** Repo-relative path of the entry. */
  entry: string;
  minified: number;
  gzip: number;
  /** Every input that contributed bytes, largest first. */
  inputs: InputShare[];
  /** esbuild warnings (an import that resolved to nothing, ...), as text. */
  warnings: string[];
}

/** The entries to measure: every `bench/bundle/*.ts` except helpers, whose names start with `_`. */
export function bundleEntries(dir: string = BUNDLE_DIR): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith(".ts") && !n.startsWith("_"))
    .sort()
    .map((n) => path.join(dir, n));
}

export async function bundleSize(entry: string): Promise<BundleSize> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: REPO,
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    conditions: ["toon-dev"],
    write: false,
    metafile: true,
    logLevel: "silent",
    outfile: path.join(REPO, "bench", ".size-out", path.basename(entry, ".ts") + ".js"),
  });
  const js = result.outputFiles.find((f) => f.path.endsWith(".js"));
  if (js === undefined) throw new Error(`esbuild produced no .js output for ${entry}`);
  return {
    name: path.basename(entry, ".ts"),
    entry: path.relative(REPO, entry).split(path.sep).join("/"),
    minified: js.contents.length,
    gzip: gzipSync(js.contents, { level: 9 }).length,
    inputs: sharesOf(result.metafile),
    warnings: result.warnings.map((w) => `${w.location ? `${w.location.file}:${w.location.line}: ` : ""}${w.text}`),
  };
}

function sharesOf(meta: Metafile): InputShare[] {
  const out = new Map<string, number>();
  for (const o of Object.values(meta.outputs)) {
    for (const [p, v] of Object.entries(o.inputs)) if (v.bytesInOutput > 0) out.set(p, (out.get(p) ?? 0) + v.bytesInOutput);
  }
  return [...out].map(([p, bytes]) => ({ path: p, bytes })).sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1));
}
