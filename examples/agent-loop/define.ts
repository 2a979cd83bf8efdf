/**
 * Writes tools/agent-tools.json from the Zod tools of tools.ts; run it after editing them, then `npx toon-gen`:
 *   node --import tsx examples/agent-loop/define.ts
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { toolsList } from "./tools.ts";

const file = fileURLToPath(new URL("./tools/agent-tools.json", import.meta.url));
writeFileSync(file, JSON.stringify(toolsList(), null, 2) + "\n");
console.log(`wrote ${file}`);
