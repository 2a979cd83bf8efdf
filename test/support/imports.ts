// What the import tests read of a source file (test/import-cycles.test.ts, test/layering.test.ts): the .ts sources
// under a folder, and the relative modules a file imports values from (type-only imports are erased, so they do
// not count).

import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";

/** The .ts sources under `dir` (not .d.ts, not dist/ or node_modules/). */
export function sources(dir: string, out: string[]): string[] {
  for (const e of readdirSync(dir)) {
    if (e === "dist" || e === "node_modules") continue;
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (p.endsWith(".ts") && !p.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** The relative modules `file` imports or re-exports values from (resolved to absolute paths). */
export function valueImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)([^;]*?)\s+from\s+"(\.{1,2}\/[^"]+)";/gms)) {
    const clause = m[1]!.trim();
    const names = /^\{([^}]*)\}$/s.exec(clause)?.[1];
    if (names !== undefined && names.split(",").map((n) => n.trim()).filter((n) => n !== "").every((n) => n.startsWith("type "))) continue;
    out.push(path.resolve(path.dirname(file), m[2]!));
  }
  for (const m of text.matchAll(/^import\s+"(\.{1,2}\/[^"]+)";/gm)) out.push(path.resolve(path.dirname(file), m[1]!));
  return out;
}

