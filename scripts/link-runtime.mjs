// The last step of `npm run build` (plain Node, no tsx: it runs from `prepare` on a fresh clone).
// tsc compiles the generator with the runtime files it imports by relative path, so dist/ holds a second copy of
// the runtime. The generator package must use the @toon-gen/runtime package instead (one copy in an app, one
// ToonError class, and the runtime's own zero-dependency build), so this script:
//  1. rewrites every relative import of dist/generator and dist/templates (.js and .d.ts) that lands in
//     dist/runtime to `@toon-gen/runtime/internal/<file>.js` (the runtime's internal subpath, for the
//     generator of the same version only);
//  2. replaces dist/runtime with one re-export per `./runtime*` entry of package.json, so the old
//     `toon-gen/runtime/codegen` specifiers keep working and resolve to the same modules as `@toon-gen/runtime/codegen`.
import { readdirSync, readFileSync, rmSync, mkdirSync, writeFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

// The package root: this repository, or the folder given as the first argument (test/packages.test.ts).
const ROOT = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
const DIST = path.join(ROOT, "dist");
const RUNTIME_DIST = path.join(DIST, "runtime");
const RUNTIME_PACKAGE = "@toon-gen/runtime";

function filesUnder(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else if (name.endsWith(".js") || name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

// `from "x"`, `import("x")` and bare `import "x"`: tsc output writes specifiers in double quotes.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"(\.{1,2}\/[^"]+)"/g;

let rewritten = 0;
let linked = 0; // files linked by an earlier run (the script is idempotent)
for (const top of ["generator", "templates"]) {
  const dir = path.join(DIST, top);
  let files;
  try {
    files = filesUnder(dir);
  } catch {
    continue; // templates/ may compile to nothing
  }
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    if (text.includes(`"${RUNTIME_PACKAGE}/internal/`)) linked++;
    const next = text.replace(SPECIFIER, (whole, lead, spec) => {
      const rel = path.relative(RUNTIME_DIST, path.resolve(path.dirname(file), spec));
      if (rel.startsWith("..") || path.isAbsolute(rel)) return whole;
      rewritten++;
      // declaration files keep the sources' `.ts` in type-only imports: the package's export is `./internal/*.js`
      return `${lead}"${RUNTIME_PACKAGE}/internal/${rel.split(path.sep).join("/").replace(/\.ts$/, ".js")}"`;
    });
    if (next !== text) writeFileSync(file, next);
  }
}
if (rewritten === 0 && linked === 0) throw new Error("link-runtime: no import of the runtime found in dist/generator: did tsc run?");

rmSync(RUNTIME_DIST, { recursive: true, force: true });
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
let stubs = 0;
for (const [sub, target] of Object.entries(pkg.exports)) {
  if (sub !== "./runtime" && !sub.startsWith("./runtime/")) continue;
  const specifier = RUNTIME_PACKAGE + sub.slice("./runtime".length);
  const body = `// toon-gen/runtime${sub.slice("./runtime".length)} is ${specifier}: kept for code generated before the split (or with runtimeImport "toon-gen/runtime").\nexport * from "${specifier}";\n`;
  for (const out of [target.default, target.types]) {
    const abs = path.join(ROOT, out);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, body);
  }
  stubs++;
}
console.log(`link-runtime: ${rewritten} imports now use ${RUNTIME_PACKAGE}, ${stubs} toon-gen/runtime* re-exports`);
