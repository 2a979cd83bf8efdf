/**
 * Modules of one output set share code instead of repeating it. A tool set's `call.ts` and `batch.ts` carry
 * every tool's argument codec, which `args/<tool>.ts` carries too: the same interface, key sets, enum tables,
 * writers, readers and text checks, to the character. Here an importer module drops each top-level declaration
 * that a provider module has with the same text and the same dependencies, and imports it (the provider exports
 * it); what the importer exported it re-exports.
 *
 * What a provider exports only for the other modules is not its API: the declarations keep their text, and one
 * statement at the end of the provider exports them, each under a `$` name (`readArgs as $readArgs`), after an
 * `@internal generated-code only` doc (INTERNAL_DOC). So an app sees them apart from the codec's exports, a bundler
 * drops them with the rest of the unused code (an export list runs nothing), and a later link compares the same
 * text it compared the first time (a declaration that gained `export` would no longer match its twin in the next
 * importer: that is how the batch kept its own copies of the argument codecs).
 *
 * The test is textual and closed under dependencies, so it is never wrong: a declaration moves only when its text
 * is identical in both modules and every module-level name it uses is one that moves with it from the same
 * provider (or `$rt`, or a global alias). A writer whose default table, interning decision or wire layout
 * differs between the two codecs differs in text and stays where it is. Module-level state (`$FINGERPRINT`,
 * the descriptor, the codec groups) never moves.
 *
 * Generated modules have one shape (emit/module.ts): top-level statements start at column 0 (`function`,
 * `const`, `export`, `type`, `interface`, `import`, comments) and everything else is indented or closes one.
 */

export interface LinkModule {
  /** Path relative to the output folder, `/` separated, with `.ts`. */
  path: string;
  content: string;
}

interface Statement {
  /** Declared name; undefined for comments-only, imports, or anything unparsed. */
  name?: string;
  kind?: "value" | "type";
  exported: boolean;
  /** Leading comment lines. */
  comments: string[];
  /** The declaration's lines (without the comments). */
  lines: string[];
}

/** Names that are the module's own state or entry points: never shared. */
const OWN = new Set(["$dictionary", "$LEVEL", "$FLAGS", "$FINGERPRINT", "$applyExtensions", "$encode", "$decode", "$validate", "$descriptor", "$streamSpec", "$StreamPaths", "$engine", "$textCheck", "$checkSchema"]);
/** Aliases of globals every module declares alike (emit/module.ts GLOBALS): used freely, never imported. */
const GLOBAL_ALIASES = new Set(["$isArray", "$isInteger"]);

/** The doc of a provider's internal export statements (they are recognised by it when a provider is linked again). */
export const INTERNAL_DOC = "/** @internal generated-code only: imported by other modules of this output set (generator/emit/link.ts); not API. */";
const INTERNAL_EXPORT = /^export (type )?\{ ([^}]*) \};$/;

const DECL = /^(export\s+)?(?:(function)\s+([A-Za-z_$][\w$]*)|(const)\s+([A-Za-z_$][\w$]*)|(type)\s+([A-Za-z_$][\w$]*)|(interface)\s+([A-Za-z_$][\w$]*))/;
/** A re-export an earlier link wrote into the head (`export type { A } from "./args/a.js";`). */
const RE_EXPORT = /^export (type )?\{ [^}]* \} from "/;
const LINKED = /^import (type )?\{ ([^}]*) \} from "(\.[^"]*)";$/;

interface Parsed {
  head: string[];
  statements: Statement[];
  /** What the module already exports for other modules (its internal export statements): `value:name` -> exported name. */
  shared: Map<string, string>;
}

function parse(content: string): Parsed {
  const lines = content.split("\n");
  const head: string[] = [];
  const statements: Statement[] = [];
  let i = 0;
  // the header comments and imports stay in place
  while (i < lines.length && (lines[i]!.startsWith("//") || lines[i]!.startsWith("/* eslint") || lines[i]!.startsWith("import ") || RE_EXPORT.test(lines[i]!) || lines[i] === "")) head.push(lines[i++]!);
  let comments: string[] = [];
  let cur: Statement | undefined;
  const close = (): void => {
    if (cur !== undefined) statements.push(cur);
    cur = undefined;
  };
  for (; i < lines.length; i++) {
    const l = lines[i]!;
    const top = l !== "" && !/^[\s}\])]/.test(l);
    if (!top) {
      if (cur !== undefined) cur.lines.push(l);
      else if (comments.length > 0) comments.push(l);
      else statements.push({ exported: false, comments: [], lines: [l] });
      continue;
    }
    if (cur === undefined && comments.length > 0 && (l.startsWith("/**") || l.startsWith("//") || l.startsWith(" *"))) {
      comments.push(l);
      continue;
    }
    if (l.startsWith("/**") || l.startsWith("//")) {
      close();
      comments = [l];
      // a one-line or multi-line doc comment: continues until its close
      continue;
    }
    close();
    const m = DECL.exec(l);
    const name = m === null ? undefined : (m[3] ?? m[5] ?? m[7] ?? m[9]);
    const kind = m === null ? undefined : m[2] !== undefined || m[4] !== undefined ? "value" : "type";
    cur = { ...(name === undefined ? {} : { name, kind }), exported: m?.[1] !== undefined, comments, lines: [l] } as Statement;
    comments = [];
  }
  close();
  if (comments.length > 0) statements.push({ exported: false, comments, lines: [] });
  // the internal export statements are taken out: render() writes them again, merged with what a link adds
  const shared = new Map<string, string>();
  const rest = statements.filter((st) => {
    const m = st.name === undefined && st.comments.length === 1 && st.comments[0] === INTERNAL_DOC && st.lines.length >= 1 ? INTERNAL_EXPORT.exec(st.lines[0]!) : null;
    if (m === null) return true;
    // an export list reads the other way round: `local as exported`
    for (const b of bindings(m[2]!)) shared.set(`${m[1] === undefined ? "value" : "type"}:${b.exported}`, b.local);
    return false;
  });
  return { head, statements: rest, shared };
}

/** `a, $b as b` -> the bindings of an import or export list (exported name, local name). */
function bindings(list: string): { exported: string; local: string }[] {
  return list.split(",").map((x) => {
    const [exported, local] = x.trim().split(/\s+as\s+/);
    return { exported: exported!, local: local ?? exported! };
  });
}

/** In an import list: `exported as local`, or the name alone when both are one. */
function binding(exported: string, local: string): string {
  return exported === local ? local : `${exported} as ${local}`;
}

/** In an export list: `local as exported`, or the name alone. */
function exportBinding(local: string, exported: string): string {
  return exported === local ? local : `${local} as ${exported}`;
}

/**
 * What two declarations are compared by: comments and code, without the blank lines after them, and without an
 * `export` (whether a module exports a declaration says nothing about what it does). A type's leading doc is left
 * out too: it runs nothing, and the call codec documents the call type that the batch codec declares undocumented
 * (the importer then shows the provider's doc).
 */
function text(s: Statement): string {
  const lines = [...(s.kind === "type" ? [] : s.comments), s.lines[0]!.replace(/^export\s+/, ""), ...s.lines.slice(1)];
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}

/** Identifiers in `code` (over-approximate: strings and comments included, which only keeps more in place). */
function identifiers(code: string): Set<string> {
  return new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

/**
 * Identifiers `code` uses as code (so an import is never unused): string literals and comments left out, and
 * property names (`$rt.writeHeader` reads no module-level `writeHeader`; a spread `...x` does read `x`).
 */
function codeIdentifiers(code: string): Set<string> {
  const stripped = code
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""')
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/^[ \t]*\/\/[^\n]*/gm, " ")
    .replace(/\.\.\./g, " ");
  return new Set(stripped.match(/(?<![\w$])(?<!\.\s*)[A-Za-z_$][\w$]*/g) ?? []);
}

/** `./args/get-weather.js` from `set/call.ts` to `set/args/get-weather.ts`. */
export function specifier(from: string, to: string): string {
  const a = from.split("/").slice(0, -1);
  const b = to.split("/");
  let k = 0;
  while (k < a.length && k < b.length - 1 && a[k] === b[k]) k++;
  const up = a.length - k;
  const rel = [...(up === 0 ? ["."] : Array.from({ length: up }, () => "..")), ...b.slice(k)].join("/");
  return rel.replace(/\.ts$/, ".js");
}

/**
 * `importer` with what `providers` (in preference order) declare alike imported from them, and the providers
 * with those declarations exported. Modules are returned only when they changed.
 */
export function linkModules(importer: LinkModule, providers: readonly LinkModule[]): Map<string, string> {
  const imp = parse(importer.content);
  const provs = providers.map((p) => ({ module: p, parsed: parse(p.content) }));
  // keyed `value:name` or `type:name`: a codec object and its interface share a name
  const keyOf = (s: Statement): string => `${s.kind}:${s.name}`;
  const decl = (statements: Statement[]): Map<string, Statement> => new Map(statements.filter((s) => s.name !== undefined).map((s) => [keyOf(s), s]));
  const mine = decl(imp.statements);
  const theirs = provs.map((p) => decl(p.parsed.statements));
  // bindings each provider imports from another module of the set (an earlier link): name -> module path
  const linkedOf = (head: string[], at: string): Map<string, string> => {
    const out = new Map<string, string>();
    for (const l of head) {
      const m = LINKED.exec(l);
      if (m === null) continue;
      for (const b of bindings(m[2]!)) out.set(b.local, resolve(at, m[3]!));
    }
    return out;
  };
  const provLinked = provs.map((p) => linkedOf(p.parsed.head, p.module.path));
  const myLinked = linkedOf(imp.head, importer.path);

  // candidates: same text in a provider (the first that has it)
  const from = new Map<string, number>();
  for (const [n, s] of mine) {
    // (what the importer itself exports for other modules stays too: they import it from here)
    if (OWN.has(s.name!) || GLOBAL_ALIASES.has(s.name!) || (s.exported && s.kind === "value") || imp.shared.has(n)) continue;
    const k = theirs.findIndex((t) => t.get(n) !== undefined && text(t.get(n)!) === text(s));
    if (k >= 0) from.set(n, k);
  }
  // closed under dependencies: every module-level name a candidate uses moves with it from the same provider,
  // or is a binding the provider itself imports from the module the importer gets that name from
  const deps = (n: string): string[] => {
    const s = mine.get(n)!;
    const out: string[] = [];
    for (const id of identifiers(s.lines.join("\n"))) {
      if (id === s.name || id === "$rt" || GLOBAL_ALIASES.has(id)) continue;
      for (const key of [`value:${id}`, `type:${id}`]) if (mine.has(key)) out.push(key);
      if (myLinked.has(id)) out.push(`linked:${id}`);
    }
    return out;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const [n, k] of [...from]) {
      for (const d of deps(n)) {
        if (from.get(d) === k) continue;
        const id = d.slice(d.indexOf(":") + 1);
        const viaProvider = provLinked[k]!.get(id);
        if (viaProvider !== undefined && (myLinked.get(id) === viaProvider || (from.has(d) && providers[from.get(d)!]!.path === viaProvider))) continue;
        from.delete(n);
        changed = true;
        break;
      }
    }
  }
  if (from.size === 0) return new Map();

  // the name each moved declaration has in its provider's exports: its own when the provider exports it already
  // (a codec's interface), else the `$` name of the provider's internal export statement
  const exportedAs = (key: string, k: number): string => {
    const own = theirs[k]!.get(key)!;
    if (own.exported) return own.name!;
    const shared = provs[k]!.parsed.shared;
    const known = shared.get(key);
    if (known !== undefined) return known;
    if (own.name!.startsWith("$")) {
      shared.set(key, own.name!);
      return own.name!;
    }
    const taken = new Set([...theirs[k]!.values()].map((t) => t.name!).concat([...shared.values()]));
    let alias = "$" + own.name!;
    while (taken.has(alias)) alias = "$" + alias;
    shared.set(key, alias);
    return alias;
  };
  // the importer: moved declarations out; imports of the ones its remaining code uses; re-exports of exported
  // types. A global alias (`const $isInteger = ...`) whose every use moved goes too (noUnusedLocals).
  const left = imp.statements.filter((s) => s.name === undefined || !from.has(keyOf(s)));
  const usedBy = (ss: Statement[]): Set<string> => codeIdentifiers(ss.map((s) => s.lines.join("\n")).join("\n"));
  const aliasesUsed = usedBy(left.filter((s) => !(s.kind === "value" && GLOBAL_ALIASES.has(s.name!))));
  const kept = left.filter((s) => !(s.kind === "value" && GLOBAL_ALIASES.has(s.name!) && !aliasesUsed.has(s.name!)));
  const used = usedBy(kept);
  const imports: string[] = [];
  const touched = new Set<number>();
  providers.forEach((p, k) => {
    const moved = [...from].filter(([, j]) => j === k).map(([key]) => mine.get(key)!);
    if (moved.length > 0) touched.add(k);
    const spec = specifier(importer.path, p.path);
    const list = (ss: Statement[]): string => ss.sort((a, b) => (a.name! < b.name! ? -1 : 1)).map((s) => binding(exportedAs(keyOf(s), k), s.name!)).join(", ");
    const values = moved.filter((s) => s.kind === "value" && used.has(s.name!));
    const types = moved.filter((s) => s.kind === "type" && used.has(s.name!));
    const reexported = moved.filter((s) => s.kind === "type" && s.exported);
    if (values.length > 0) imports.push(`import { ${list(values)} } from "${spec}";`);
    if (types.length > 0) imports.push(`import type { ${list(types)} } from "${spec}";`);
    if (reexported.length > 0) imports.push(`export type { ${list(reexported)} } from "${spec}";`);
  });
  const out = new Map<string, string>();
  out.set(importer.path, render([...imp.head.filter((l) => l !== ""), ...imports], kept, imp.shared));
  // the providers: what moved is in their internal export statements (exportedAs added it)
  for (const k of touched) out.set(providers[k]!.path, render(provs[k]!.parsed.head.filter((l) => l !== ""), provs[k]!.parsed.statements, provs[k]!.parsed.shared));
  return out;
}

/** The module again, its internal export statements (values, then types) last. */
function render(head: string[], statements: Statement[], shared: ReadonlyMap<string, string>): string {
  const body = statements.map((s) => [...s.comments, ...s.lines].join("\n")).join("\n");
  const tail: string[] = [];
  for (const kind of ["value", "type"]) {
    const locals = [...shared.keys()].filter((key) => key.startsWith(kind + ":")).sort();
    if (locals.length === 0) continue;
    const entries = locals.map((key) => exportBinding(key.slice(kind.length + 1), shared.get(key)!));
    tail.push(INTERNAL_DOC, `export ${kind === "type" ? "type " : ""}{ ${entries.join(", ")} };`, "");
  }
  return (head.join("\n") + "\n\n" + body + (tail.length > 0 ? "\n\n" + tail.join("\n") : "")).replace(/\n{3,}/g, "\n\n").replace(/\n*$/, "\n");
}

function resolve(from: string, spec: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const seg of spec.split("/")) {
    if (seg === "." || seg === "") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return parts.join("/").replace(/\.js$/, ".ts");
}

/** A module of an output set generated from a JSON Schema file, with the files its schema's `$ref`s read. */
export interface SchemaSetModule extends LinkModule {
  /** Absolute path of the schema file it was generated from. */
  file: string;
  /** Absolute paths of every file its schema read (its own included). */
  reads: readonly string[];
  /** Generated from one definition of the file (`file.json#/$defs/X`): it imports, but is not the file's module. */
  part?: boolean;
}

/**
 * A definition that another file's `$ref` brings in, emitted once: each module imports what it has exactly as
 * the module of a file it references has it (that file's types, and its functions where both codecs write them
 * alike). Modules that reference each other are not linked (an import cycle could read a constant too early);
 * a module links after the ones it imports from, the deepest first. Returns the modules that changed.
 */
export function linkSchemaSet(modules: readonly SchemaSetModule[]): Map<string, string> {
  // the module of a file: the one generated from the whole file (one per file, or none when it is ambiguous)
  const byFile = new Map<string, SchemaSetModule>();
  const seen = new Set<string>();
  for (const m of modules) {
    if (m.part === true) continue;
    if (seen.has(m.file)) byFile.delete(m.file);
    else byFile.set(m.file, m);
    seen.add(m.file);
  }
  const refs = new Map(modules.map((m) => [m.path, m.reads.filter((f) => f !== m.file && byFile.has(f)).map((f) => byFile.get(f)!)]));
  const reaches = (a: SchemaSetModule, b: SchemaSetModule): boolean => refs.get(a.path)!.includes(b);
  const providersOf = (m: SchemaSetModule): SchemaSetModule[] => refs.get(m.path)!.filter((p) => !reaches(p, m));
  // leaves first: a module after every module it imports from
  const order: SchemaSetModule[] = [];
  const placed = new Set<string>();
  const place = (m: SchemaSetModule, stack: Set<string>): void => {
    if (placed.has(m.path) || stack.has(m.path)) return;
    stack.add(m.path);
    for (const p of providersOf(m)) place(p, stack);
    stack.delete(m.path);
    placed.add(m.path);
    order.push(m);
  };
  for (const m of [...modules].sort((a, b) => (a.path < b.path ? -1 : 1))) place(m, new Set());
  const rank = new Map(order.map((m, i) => [m.path, i]));
  const content = new Map(modules.map((m) => [m.path, m.content]));
  const changed = new Map<string, string>();
  for (const m of order) {
    const providers = providersOf(m).sort((a, b) => rank.get(a.path)! - rank.get(b.path)!);
    if (providers.length === 0) continue;
    const out = linkModules(
      { path: m.path, content: content.get(m.path)! },
      providers.map((p) => ({ path: p.path, content: content.get(p.path)! })),
    );
    for (const [p, c] of out) {
      content.set(p, c);
      changed.set(p, c);
    }
  }
  return changed;
}
