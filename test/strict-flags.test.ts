// Generated TypeScript compiles under the strict flags apps turn on (issue 14): strict plus
// noUncheckedIndexedAccess, noUnusedLocals, noUnusedParameters, exactOptionalPropertyTypes,
// noPropertyAccessFromIndexSignature, verbatimModuleSyntax and erasableSyntaxOnly, with moduleResolution
// nodenext and bundler. Errors are counted in generated files only: the runtime is type-checked here from its
// sources (the toon-dev condition), while an app sees its declaration files.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { REPO, suiteDir } from "./support/gen.ts";

const FLAGS = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  erasableSyntaxOnly: true,
};

const GENERATED = ["examples/*/gen/**/*.ts", "docs/examples/gen/*.ts"];

for (const [resolution, module] of [
  ["nodenext", "nodenext"],
  ["bundler", "esnext"],
] as const) {
  test(`generated modules compile under the strict flags, moduleResolution ${resolution}`, () => {
    const dir = suiteDir(`strict-${resolution}`);
    const rel = (p: string): string => path.relative(dir, path.join(REPO, p)).split(path.sep).join("/");
    const config = {
      compilerOptions: {
        ...FLAGS,
        target: "ES2022",
        module,
        moduleResolution: resolution,
        customConditions: ["toon-dev"],
        allowImportingTsExtensions: true,
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
        typeRoots: [rel("node_modules/@types")],
        lib: ["ES2023", "DOM"],
      },
      include: GENERATED.map(rel),
    };
    const tsconfig = path.join(dir, "tsconfig.json");
    writeFileSync(tsconfig, JSON.stringify(config, null, 2));
    const res = spawnSync(process.execPath, [path.join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig, "--pretty", "false", "--listFiles"], {
      cwd: REPO,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = `${res.stdout}${res.stderr}`.split("\n");
    const checked = out.filter((l) => l.startsWith("/") && /\/gen\/[^/]+(\/[^/]+)?\.ts$/.test(l));
    assert.ok(checked.some((f) => f.endsWith("examples/orders/gen/order-list.ts")), "tsc checked the generated modules");
    const errors = out.filter((l) => /error TS\d+/.test(l) && /^(\.\.\/)*(examples|docs)\/.*\/gen\//.test(path.relative(REPO, path.resolve(REPO, l.split("(")[0]!))));
    console.log(`# ${checked.length} generated files under the strict flags (${resolution}): ${errors.length} errors`);
    assert.deepEqual(errors.slice(0, 30), []);
  });
}
