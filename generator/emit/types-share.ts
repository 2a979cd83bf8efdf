/**
 * Inline object types written once. A schema that repeats an object inline (tsconfig.json merges its
 * `compilerOptions` definition into four `anyOf` branches and ts-node's options: eight copies of a 3,000-line
 * type) would repeat its TypeScript type as often. An inline object type that occurs more than once (same text:
 * fields, docs and all) becomes an exported interface of its own, named from where it first occurs
 * (`TsconfigCompilerOptions`), and every occurrence names it. The types mean exactly what they meant: TypeScript
 * types are structural.
 */
import type { ObjectShape, Shape } from "../ir/types.ts";
import { Code, code, docComment, name } from "../../templates/code.ts";
import { objectType, propertyLine, typeOf, type TypeAliases, type TypeBase } from "./types.ts";

/** Type text below which a repeated object is written where it occurs. */
const MIN_SHARED = 300;

export interface SharedTypes {
  aliases: TypeAliases;
  declarations: Code[];
  /** Declared object types that extend another (an `allOf` chain: the parent's properties, then their own). */
  bases: ReadonlyMap<string, TypeBase>;
}

/** The shared object types of `roots` (the module's declared types); `taken`: names already in the module. */
export function shareTypes(roots: readonly { name: string; shape: Shape }[], taken: ReadonlySet<string>): SharedTypes {
  const texts = new Map<Shape, string>();
  const textOf = (s: Shape): string => {
    let t = texts.get(s);
    if (t === undefined) texts.set(s, (t = typeOf(s).text));
    return t;
  };
  // inline objects only (a declared type's own shape is its declaration), counted by text
  const count = new Map<string, number>();
  const children = (s: Shape): [Shape, string][] => {
    switch (s.kind) {
      case "object":
        return [...s.properties.map((p): [Shape, string] => [p.shape, p.name]), ...(s.additional === false ? [] : [[s.additional, "Value"] as [Shape, string]])];
      case "array":
        return [[s.items, "Item"]];
      case "tuple":
        return [...s.items.map((x, i): [Shape, string] => [x, String(i)]), ...(s.rest === false ? [] : [[s.rest, "Rest"] as [Shape, string]])];
      case "union":
        // a branch adds nothing to the name: `Tsconfig.compilerOptions` in every branch is one type
        return s.branches.map((b): [Shape, string] => [b, ""]);
      default:
        return [];
    }
  };
  const scan = (s: Shape, top: boolean): void => {
    if (!top && s.kind === "object" && textOf(s).length >= MIN_SHARED) count.set(textOf(s), (count.get(textOf(s)) ?? 0) + 1);
    for (const [c] of children(s)) scan(c, false);
  };
  for (const r of roots) scan(r.shape, true);

  // chosen top-down (a repeated object inside a shared one counts once there), then those referenced once dropped
  let shared = new Set([...count].filter(([, n]) => n >= 2).map(([t]) => t));
  let first = new Map<string, { shape: ObjectShape; at: string[] }>();
  let refs = new Map<string, number>();
  for (let round = 0; round < 8 && shared.size > 0; round++) {
    first = new Map();
    refs = new Map();
    const visit = (s: Shape, at: string[], top: boolean): void => {
      if (!top && s.kind === "object" && shared.has(textOf(s))) {
        const t = textOf(s);
        refs.set(t, (refs.get(t) ?? 0) + 1);
        if (first.has(t)) return;
        first.set(t, { shape: s, at });
      }
      for (const [c, seg] of children(s)) visit(c, seg === "" ? at : [...at, seg], false);
    };
    for (const r of roots) visit(r.shape, [r.name], true);
    const kept = new Set([...shared].filter((t) => (refs.get(t) ?? 0) >= 2));
    if (kept.size === shared.size) break;
    shared = kept;
  }
  const bases = extensions(roots);
  if (shared.size === 0) return { aliases: new Map(), declarations: [], bases };

  // names from where each first occurs, clear of the module's names and of each other
  const used = new Set(taken);
  const nameOf = new Map<string, string>();
  for (const [t, { at }] of first) {
    if (!shared.has(t)) continue;
    const base = at.map(pascal).join("").slice(0, 80) || "Shared";
    let n = base;
    for (let i = 2; used.has(n); i++) n = `${base}${i}`;
    used.add(n);
    nameOf.set(t, n);
  }
  const aliases = new Map<Shape, string>();
  for (const [s, t] of texts) {
    const n = nameOf.get(t);
    if (n !== undefined) aliases.set(s, n);
  }
  const declarations = [...first]
    .filter(([t]) => nameOf.has(t))
    .map(([t, { shape, at }]) => code`${docComment(`The type at ${at.join(".")}, and wherever the same object type occurs.`)}export interface ${name(nameOf.get(t)!)} ${objectType(shape, aliases)}`);
  return { aliases, declarations, bases };
}

/** Inherited lines below this length are written again: `extends` would save little. */
const MIN_INHERITED = 200;

/**
 * `interface B extends A`: where declared object type B begins with every property of declared object type A
 * (the same lines: names, optionality, types, docs), A's index signature (if any) is B's, and the shared lines
 * are long enough. The longest such A wins (an allOf chain extends its nearest link), ties by declaration order.
 */
function extensions(roots: readonly { name: string; shape: Shape }[]): Map<string, TypeBase> {
  const objects = roots.filter((r): r is { name: string; shape: ObjectShape } => r.shape.kind === "object" && r.shape.properties.length > 0);
  const lines = new Map(objects.map((r) => [r.name, r.shape.properties.map((p) => propertyLine(p).text)]));
  const index = (s: ObjectShape): string | undefined => (s.additional === false ? undefined : s.properties.length === 0 ? typeOf(s.additional).text : "unknown");
  const out = new Map<string, TypeBase>();
  for (const b of objects) {
    const bl = lines.get(b.name)!;
    let best: { name: string; inherited: number } | undefined;
    for (const a of objects) {
      const al = lines.get(a.name)!;
      if (a === b || al.length >= bl.length || (best !== undefined && al.length <= best.inherited)) continue;
      if (index(a.shape) !== undefined && index(a.shape) !== index(b.shape)) continue;
      if (!al.every((l, i) => l === bl[i])) continue;
      if (al.reduce((n, l) => n + l.length, 0) < MIN_INHERITED) continue;
      best = { name: a.name, inherited: al.length };
    }
    if (best !== undefined) out.set(b.name, best);
  }
  return out;
}

/** `compilerOptions` -> `CompilerOptions`, `ts-node` -> `TsNode`: letters and digits only, a letter first. */
function pascal(s: string): string {
  const p = s
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
  return /^[0-9]/.test(p) ? "N" + p : p;
}
