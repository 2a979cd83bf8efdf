/**
 * State shared while emitting one module: module-level constant tables (hoisted so the hot path only reads
 * them), fresh local names, and facts about definitions (which recurse, how many bytes a value takes at least).
 */
import type { Definition, SchemaIR, Shape } from "../ir/types.ts";
import { someObject } from "../ir/walk.ts";
import { Code, code, jsonLit, name, raw } from "../../templates/code.ts";
import { minWidth, recursiveDefinitions } from "../../runtime/codec/plan.ts";

/**
 * The most lines of straight-line code one generated function gets before the emitter splits it (objects into
 * chunks of properties, union arms into their own functions). Two limits are behind this: TypeScript gives up
 * on a function whose control flow is too long ("TS2563: The containing function or module body is too large
 * for control flow analysis", past roughly 1000 sequential branches), which real schemas with hundreds of
 * properties reach (SchemaStore's eslintrc, package.json, tsconfig, tslint); and V8 does not optimise very
 * large functions. Every schema of a normal size stays below it, so its code is not split at all.
 */
export const MAX_FUNCTION_LINES = 400;

/** Lines of a piece of generated code. */
export function linesOf(c: Code | readonly Code[]): number {
  if (c instanceof Code) return c.text.split("\n").length;
  let n = 0;
  for (const x of c) n += linesOf(x);
  return n;
}

/**
 * Group consecutive blocks so that each group stays within MAX_FUNCTION_LINES (a block larger than that is a
 * group of its own).
 */
export function chunkBlocks<T extends { code: Code }>(blocks: readonly T[]): T[][] {
  const groups: T[][] = [];
  let cur: T[] = [];
  let lines = 0;
  for (const b of blocks) {
    const n = linesOf(b.code);
    if (cur.length > 0 && lines + n > MAX_FUNCTION_LINES) {
      groups.push(cur);
      cur = [];
      lines = 0;
    }
    cur.push(b);
    lines += n;
  }
  if (cur.length > 0) groups.push(cur);
  return groups;
}

export class ModuleContext {
  /** Functions split off oversized ones (see MAX_FUNCTION_LINES), emitted after the rest. */
  private helperFns: Code[] = [];
  readonly defs = new Map<string, Definition>();
  /** Definitions that can reach themselves: their functions carry a depth guard. */
  readonly recursive = new Set<string>();
  private constants: Code[] = [];
  private constantKeys = new Map<string, Code>();
  /** Predicate functions requested for union branch selection, emitted after the rest. */
  readonly predicates = new Map<string, { fn: Code; shape: Shape }>();

  /** The dictionary has evolved: objects have extension properties, so writers track JSON pointers. */
  readonly evolved: boolean;
  /** Extension properties by dictionary ID: each gets a writer and a reader of its own (records are standalone). */
  readonly extensions = new Map<number, { key: string; shape: Shape; level: number; writer: Code; reader: Code; required: boolean }>();

  constructor(readonly ir: SchemaIR) {
    this.evolved = hasExtensions(ir);
    for (const d of ir.definitions) this.defs.set(d.name, d);
    for (const n of recursiveDefinitions(new Map(ir.definitions.map((d) => [d.name, d.shape])))) this.recursive.add(n);
  }

  /** Names of the writer and reader of extension property `id` (emitted by the module after the rest). */
  extension(id: number, key: string, shape: Shape, level: number, required = false): { writer: Code; reader: Code } {
    let e = this.extensions.get(id);
    if (!e) this.extensions.set(id, (e = { key, shape, level, writer: name(`$extW${id}`), reader: name(`$extR${id}`), required }));
    return e;
  }

  def(n: string): Definition {
    const d = this.defs.get(n);
    if (d === undefined) throw new Error(`internal: unknown definition ${n}`);
    return d;
  }

  /** Hoist a constant (`new Set([...])`, a table) to module level; identical constants are shared. */
  constant(prefix: string, init: Code): Code {
    const key = prefix + "\u0000" + init.text;
    const known = this.constantKeys.get(key);
    if (known) return known;
    const id = name(`$${prefix}${this.constants.length}`);
    this.constants.push(code`const ${id} = ${init};`);
    this.constantKeys.set(key, id);
    return id;
  }

  knownKeys(keys: string[]): Code {
    return this.constant("keys", code`/*@__PURE__*/ new Set<string>([${keys}])`);
  }

  /**
   * A JSON constant (const values, enum tables), typed loosely: the code only compares and clones it, and TypeScript
   * infers (and then rejects) odd element types for literals such as `[{["__proto__"]: 1}, {"constructor": {}}]`.
   */
  jsonConstant(v: unknown): Code {
    return this.constant("json", code`${jsonLit(v)} as ${raw(Array.isArray(v) ? "readonly unknown[]" : "unknown")}`);
  }

  hoisted(): Code[] {
    return this.constants;
  }

  /**
   * A module-level function split off an oversized one: `make` gets its (fresh, unique) name and returns the
   * function. Names are `$chunkW<n>` / `$chunkR<n>` / `$chunkP<n>`, a namespace nothing else uses.
   */
  helper(kind: "W" | "R" | "P", make: (fn: Code) => Code): Code {
    const fn = name(`$chunk${kind}${this.helperFns.length}`);
    this.helperFns.push(raw(""));
    const index = this.helperFns.length - 1;
    this.helperFns[index] = make(fn);
    return fn;
  }

  helpers(): Code[] {
    return this.helperFns;
  }

  /** Fewest bytes one encoded value of `s` can take (bounds the counts a decoder accepts). */
  minWidth(s: Shape, seen: Set<string> = new Set()): number {
    return minWidth(s, this, seen);
  }
}

/** Per-function local names. */
export class Locals {
  private n = 0;
  fresh(prefix: string): Code {
    return name(`${prefix}${this.n++}`);
  }
}

/** The static JSON pointer of a child, as generated code sees it. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}/${key}`;
  return `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

export function isPrimitive(v: unknown): v is string | number | boolean | null {
  return v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

function hasExtensions(ir: SchemaIR): boolean {
  return someObject(ir, (o) => o.wire !== undefined && o.wire.ext.length > 0);
}
