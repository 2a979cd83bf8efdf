/** The examples' JSON data files (examples/<name>/data/*.json), as text: seeds and subjects of the readers' tests. */
import { readFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { REPO } from "./gen.ts";

export function exampleJsonTexts(): { name: string; text: string }[] {
  const root = path.join(REPO, "examples");
  const out: { name: string; text: string }[] = [];
  for (const d of readdirSync(root, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const data = path.join(root, d.name, "data");
    let files: string[] = [];
    try {
      files = readdirSync(data).filter((f) => f.endsWith(".json"));
    } catch {
      continue; // an example without data
    }
    for (const f of files) out.push({ name: `${d.name}/${f}`, text: readFileSync(path.join(data, f), "utf8") });
  }
  return out;
}
