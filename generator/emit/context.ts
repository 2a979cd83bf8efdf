/**
 * State shared while emitting one module: module-level constant tables (hoisted so the hot path only reads
 * them), fresh local names, and facts about definitions (which recurse, how many bytes a value takes at least).
 */
import type { Definition, SchemaIR, Shape } from "../ir/types.ts";
import { Code, code, jsonLit, name } from "../../templates/code.ts";

export class ModuleContext {
  readonly defs = new Map<string, Definition>();
  /** Definitions that can reach themselves: their functions carry a depth guard. */
  readonly recursive = new Set<string>();
  private constants: Code[] = [];
  private constantKeys = new Map<string, Code>();
  /** Predicate functions requested for union branch selection, emitted after the rest. */
  readonly predicates = new Map<string, { fn: Code; shape: Shape }>();

  constructor(readonly ir: SchemaIR) {
    for (const d of ir.definitions) this.defs.set(d.name, d);
    for (const d of ir.definitions) if (reaches(d.shape, d.name, this.defs, new Set())) this.recursive.add(d.name);
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
    return this.constant("keys", code`new Set<string>([${keys}])`);
  }

  jsonConstant(v: unknown): Code {
    return this.constant("json", jsonLit(v));
  }

  hoisted(): Code[] {
    return this.constants;
  }

  /** Fewest bytes one encoded value of `s` can take (bounds the counts a decoder accepts). */
  minWidth(s: Shape, seen: Set<string> = new Set()): number {
    switch (s.kind) {
      case "null":
      case "const":
        return 0;
      case "enum":
        return s.values.length > 1 ? 1 : 0;
      case "object": {
        const optional = s.properties.some((p) => !p.required) || s.additional !== false;
        let w = optional && !(s.properties.length === 0) ? 1 : 0;
        if (s.properties.length === 0 && s.additional !== false) return 1; // map: its count
        for (const p of s.properties) if (p.required) w += this.minWidth(p.shape, seen);
        return w;
      }
      case "tuple":
        return 1;
      case "array":
        return 1;
      case "union":
        return 1;
      case "ref": {
        if (seen.has(s.name)) return 0;
        seen.add(s.name);
        const w = this.minWidth(this.def(s.name).shape, seen);
        seen.delete(s.name);
        return w;
      }
      default:
        return 1;
    }
  }
}

function reaches(s: Shape, target: string, defs: Map<string, Definition>, seen: Set<string>): boolean {
  switch (s.kind) {
    case "ref":
      if (s.name === target) return true;
      if (seen.has(s.name)) return false;
      seen.add(s.name);
      return reaches(defs.get(s.name)!.shape, target, defs, seen);
    case "object":
      return s.properties.some((p) => reaches(p.shape, target, defs, seen)) || (s.additional !== false && reaches(s.additional, target, defs, seen));
    case "array":
      return reaches(s.items, target, defs, seen);
    case "tuple":
      return s.items.some((i) => reaches(i, target, defs, seen)) || (s.rest !== false && reaches(s.rest, target, defs, seen));
    case "union":
      return s.branches.some((b) => reaches(b, target, defs, seen));
    default:
      return false;
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
