/**
 * The input list of a config (globs expanded, `#Export` kept) and the file naming derived from it. Kept apart
 * from the pipeline so the CLI can answer a cached run without loading the loaders and emitters.
 */
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import type { GenerateConfig } from "../pipeline.ts";
import { splitExport } from "../inputs/zod.ts";
import { glob, hasMagic } from "./glob.ts";

/** `order-list.schema.json` -> `order-list`. */
export function baseName(file: string): string {
  return path.basename(file).replace(/(\.schema)?\.json$/i, "");
}

export function resolveInputs(config: GenerateConfig, cwd: string): string[] {
  const files = new Set<string>();
  const empty: string[] = [];
  for (const pattern of config.inputs) {
    // `src/schemas.ts#Name`: one export of a module (docs/inputs.md)
    const { file, exportName } = splitExport(pattern);
    const matches = glob(file, cwd);
    if (matches.length === 0) empty.push(pattern);
    for (const m of matches) files.add(exportName === undefined ? m : `${m}#${exportName}`);
  }
  // a typo in a glob would otherwise generate nothing, successfully
  if (empty.length > 0) {
    throw new ToonError(
      "IO_ERROR",
      `${empty.length === 1 ? "input" : "inputs"} ${empty.map((p) => JSON.stringify(p)).join(", ")} ${empty.length === 1 ? (hasMagic(empty[0]!) ? "matches no file" : "does not exist") : "match no file"} (in ${cwd})`,
    );
  }
  return [...files];
}

