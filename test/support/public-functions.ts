/**
 * The public functions of the examples' generated modules and of the runtime's entries, enumerated from their
 * exports (so a function added later is covered without anyone listing it), and what calling one did. Used by
 * test/public-args.test.ts (each function with each wrong argument) and the fuzz campaign's argument target.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import { REPO } from "./gen.ts";

/** Every module under examples/<name>/gen, validator modules included (indexes aside: they re-export). */
export function generatedModules(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".ts") && e.name !== "index.ts") out.push(p);
    }
  };
  for (const ex of readdirSync(path.join(REPO, "examples"), { withFileTypes: true })) {
    const gen = path.join(REPO, "examples", ex.name, "gen");
    if (ex.isDirectory() && readdirSync(path.join(REPO, "examples", ex.name)).includes("gen")) walk(gen);
  }
  return out;
}

/**
 * [export, the object holding it, its name, the function] for every function of the module's exported objects and
 * of the objects inside them (a tool set's `batch`, `tools.<name>`, a codec's `stream`), each object once.
 */
export function functionsOf(mod: Record<string, unknown>): [string, object, string, unknown][] {
  const out: [string, object, string, unknown][] = [];
  const seen = new Set<object>();
  const visit = (label: string, o: unknown, depth: number): void => {
    if (o === null || typeof o !== "object" || seen.has(o) || depth > 3) return;
    seen.add(o);
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === "function") out.push([label, o, k, v]);
      else visit(`${label}.${k}`, v, depth + 1);
    }
  };
  for (const [name, v] of Object.entries(mod)) {
    // a validator module exports its check as a plain function; `$`-names are what generated modules import from
    // each other (per-value readers and writers, documented as not for apps), not public functions
    if (typeof v === "function") {
      if (!name.startsWith("$")) out.push(["(module)", mod, name, v]);
    }
    else visit(name, v, 0);
  }
  return out;
}

/** What a call did: null when it returned or threw a ToonError, else what it threw. */
export async function outcome(call: () => unknown): Promise<unknown> {
  try {
    let r = call();
    // a real promise only: a function that hands back its argument may return a thenable that never settles
    if (r instanceof Promise) r = await r;
    if (r !== null && typeof r === "object" && typeof (r as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
      const it = (r as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      // a few steps: a source of the wrong kind is refused at the first
      for (let i = 0; i < 4; i++) if ((await it.next()).done === true) break;
    }
    return null;
  } catch (e) {
    return e instanceof ToonError ? null : e;
  }
}

/**
 * Every subpath entry of the runtime package (runtime/package.json "exports", each through its "toon-dev" source;
 * the main entry has its test above, `./internal/*` is the runtime's own): [entry, its module].
 */
export async function runtimeEntries(): Promise<[string, Record<string, unknown>][]> {
  const pkg = JSON.parse(readFileSync(path.join(REPO, "runtime", "package.json"), "utf8")) as { exports: Record<string, string | Record<string, string>> };
  const out: [string, Record<string, unknown>][] = [];
  for (const [entry, target] of Object.entries(pkg.exports)) {
    if (entry === "." || entry.includes("*") || typeof target === "string") continue;
    assert.ok(target["toon-dev"] !== undefined, `${entry} has a toon-dev source`);
    out.push([entry, (await import(path.join(REPO, "runtime", target["toon-dev"]))) as Record<string, unknown>]);
  }
  return out;
}

export const isClass = (f: unknown): boolean => /^class\b/.test(Function.prototype.toString.call(f));
