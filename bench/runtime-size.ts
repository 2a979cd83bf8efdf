/**
 * Size of what an application ships: the runtime entry bundled and minified with esbuild, then gzipped.
 * `node --conditions=toon-dev --import tsx bench/runtime-size.ts` prints the figures quoted in the README.
 */
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const entry = fileURLToPath(new URL("../runtime/index.ts", import.meta.url));
const result = await build({ entryPoints: [entry], bundle: true, minify: true, format: "esm", write: false, platform: "neutral" });
const code = result.outputFiles[0]!.contents;
const report = { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
console.log(JSON.stringify(report));
