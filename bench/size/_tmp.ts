export {};
import { bundleSize } from "./bundle.ts";
const b: any = await bundleSize(process.argv[2]!);
console.log(b.gzip, b.minified);
for (const i of (b.inputs ?? b.parts ?? []).slice(0, 30)) console.log(JSON.stringify(i));
