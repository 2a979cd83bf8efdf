/**
 * `"target": "js"`: the generated TypeScript, compiled to ESM `.js` plus `.d.ts`, so that plain Node and
 * JavaScript projects import generated codecs with no TypeScript tooling. One in-memory program over every
 * generated file of the run, through the TypeScript compiler API (loaded only for this target): the `.js` is the
 * `.ts` with its types erased (the code is already ES2022 with `.js` import specifiers), the `.d.ts` carries the
 * same types a TypeScript user of the `.ts` would see, the runtime's types resolved from the project (its
 * installed `toon-gen` package). Type errors do not stop the emit: generated code is type-checked by the tests.
 */
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";

export interface SourceFile {
  path: string;
  content: string;
}

/** Each `.ts` file as its `.js` and `.d.ts` (same folder and base name); other files as they are. */
export async function toJavaScript(files: SourceFile[], cwd: string): Promise<SourceFile[]> {
  const sources = files.filter((f) => f.path.endsWith(".ts"));
  if (sources.length === 0) return files;
  let ts: typeof import("typescript");
  try {
    ts = (await import("typescript")).default;
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", `"target": "js" needs the typescript package (npm install --save-dev typescript): ${(e as Error).message}`);
  }
  const options: import("typescript").CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    declaration: true,
    skipLibCheck: true,
    noEmitOnError: false,
    removeComments: false,
    newLine: ts.NewLineKind.LineFeed,
    types: [],
    lib: ["lib.es2022.d.ts"],
  };
  const byPath = new Map(sources.map((f) => [path.resolve(f.path), f.content]));
  const host = ts.createCompilerHost(options, true);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => byPath.get(path.resolve(f)) ?? readFile(f);
  host.fileExists = (f) => byPath.has(path.resolve(f)) || fileExists(f);
  host.getSourceFile = (f, lang, onError, create) => {
    const text = byPath.get(path.resolve(f));
    return text === undefined ? getSourceFile(f, lang, onError, create) : ts.createSourceFile(f, text, lang, true);
  };
  host.getCurrentDirectory = () => cwd;
  const out = new Map<string, string>();
  host.writeFile = (f, text) => out.set(path.resolve(f), text);
  const program = ts.createProgram({ rootNames: [...byPath.keys()], options, host });
  const emitted = program.emit();
  if (emitted.emitSkipped) throw new Error("internal: the TypeScript compiler emitted nothing for the generated modules");
  const result: SourceFile[] = files.filter((f) => !f.path.endsWith(".ts"));
  for (const f of sources) {
    const base = path.resolve(f.path).slice(0, -3);
    for (const ext of [".js", ".d.ts"]) {
      const text = out.get(base + ext);
      if (text === undefined) throw new Error(`internal: the TypeScript compiler wrote no ${ext} for ${path.relative(cwd, f.path)}`);
      // the declarations carry the module's banner too (`@generated ... DO NOT EDIT`, how orphans are recognised)
      const banner = f.content.match(/^(\/\/[^\n]*\n)+/)?.[0] ?? "";
      result.push({ path: f.path.slice(0, -3) + ext, content: text.startsWith(banner) ? text : banner + text });
    }
  }
  return result;
}
