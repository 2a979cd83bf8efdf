/**
 * What an application ships: (1) the whole runtime entry, and (2) one generated codec with only the runtime
 * parts it uses, each bundled and minified with esbuild (tree-shaken), raw and gzipped.
 * `node --conditions=toon-dev --import tsx bench/runtime-size.ts` prints the figures quoted in the README.
 */
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

async function size(entry: string): Promise<{ minified: number; gzip: number }> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    minify: true,
    format: "esm",
    write: false,
    platform: "neutral",
    conditions: ["toon-dev"],
    treeShaking: true,
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

const report = {
  runtimeEntry: await size("../runtime/index.ts"),
  binaryCore: await size("./runtime-size-core.ts"),
  ordersCodec: await size("../examples/orders/gen/order-list.ts"),
};
console.log(JSON.stringify(report));
