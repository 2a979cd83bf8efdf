/**
 * The embedded descriptor with its repeated parts written once. Large schemas repeat shapes (the same rule
 * options under a hundred ESLint rules, one definition merged into several `allOf`s) and extend property lists
 * (`allOf: [{ $ref: parent }, { properties }]` is the parent's properties then new ones), and a descriptor
 * printed as one tree repeats each copy. Here a shape or property list that occurs more than once becomes a
 * module constant referenced where it occurs, and a property list that starts with another list that is a
 * constant is written `[...$p_Parent, <its own properties>]`, so an inheritance chain costs one property per
 * link instead of all of them again.
 *
 * This is only how the module's source spells the descriptor: the value it evaluates to is the same JSON (the
 * runtime never compares shapes by identity), and so are the codec, its fingerprint and the bytes.
 * Constants are named from where they first occur (`$s_Rules_align_options`), never from a counter.
 *
 * With `byDefinition` (the modules of a tool set), every definition's shape, and the root's when it is not a
 * reference, is a constant named after the definition alone (`$s_GetWeatherArguments`), and so is what is shared
 * inside it (`$s_GetAirQualityArguments_location`): the argument codec's root and the same definition in the call
 * and batch codecs are then one declaration with one name and one text, which generator/emit/link.ts imports
 * instead of repeating.
 */
import type { CodecDescriptor } from "../../runtime/codec/descriptor.ts";
import { printDescriptor } from "./descriptor.ts";

/** Printed (flat) length below which a repeated part is written where it occurs: a reference would save little. */
const MIN_SHARED = 160;

export interface SharedDescriptor {
  /** Constant declarations, each before the first that refers to it (empty when nothing repeats). */
  declarations: string;
  /** The descriptor expression, referring to them. */
  text: string;
}

type Node = Record<string, unknown> | unknown[];

interface Part {
  key: string;
  kind: "shape" | "properties";
  /** Where it first occurs, for its name. */
  at: string[];
}

const MARK = "\u0000ref:";
const SPREAD = "\u0000spread:";

/**
 * `desc` as declarations plus an expression (`replace` applied to the printed text, e.g. for the `$LEVEL` marker);
 * the constants are annotated with `shapeType` and `propertiesType` (none when empty).
 */
export function shareDescriptor(desc: CodecDescriptor, shapeType: string, propertiesType: string, replace: (text: string) => string = (t) => t, byDefinition = false): SharedDescriptor {
  const keys = new Map<object, string>();
  const keyOf = (v: unknown): string => {
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    let k = keys.get(v);
    if (k === undefined) {
      k = Array.isArray(v) ? "[" + v.map(keyOf).join(",") + "]" : "{" + Object.entries(v).map(([n, x]) => JSON.stringify(n) + ":" + keyOf(x)).join(",") + "}";
      keys.set(v, k);
    }
    return k;
  };
  keyOf(desc);

  // candidates: shapes (objects with a kind) and the property lists of object shapes, large enough to share
  const count = new Map<string, number>();
  const lists: unknown[][] = [];
  const isShape = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { kind?: unknown }).kind === "string";
  const scan = (v: unknown): void => {
    if (v === null || typeof v !== "object") return;
    if (isShape(v) && keyOf(v).length >= MIN_SHARED) count.set(keyOf(v), (count.get(keyOf(v)) ?? 0) + 1);
    if (isShape(v) && v.kind === "object" && Array.isArray(v.properties)) {
      const p = v.properties;
      lists.push(p);
      if (keyOf(p).length >= MIN_SHARED) count.set(keyOf(p), (count.get(keyOf(p)) ?? 0) + 1);
    }
    for (const x of Array.isArray(v) ? v : Object.values(v)) scan(x);
  };
  scan(desc);
  // the definitions' shapes (and an inline root) are constants in any case, when large enough to be worth one
  const anchors = new Set<string>();
  if (byDefinition) {
    for (const sh of [...(desc.root.kind === "ref" ? [] : [desc.root]), ...desc.definitions.map((d) => d.shape)]) {
      if (keyOf(sh).length >= MIN_SHARED) anchors.add(keyOf(sh));
    }
  }

  // a list that begins with another whole list (allOf inheritance) spreads it: the longest such prefix, when worth it
  const entryIds = new Map<string, number>();
  const idsOf = (list: unknown[]): number[] =>
    list.map((e) => {
      const k = keyOf(e);
      let id = entryIds.get(k);
      if (id === undefined) entryIds.set(k, (id = entryIds.size));
      return id;
    });
  const byIds = new Map<string, string>();
  const listIds = new Map<unknown[], number[]>();
  for (const l of lists) {
    const ids = idsOf(l);
    listIds.set(l, ids);
    byIds.set(ids.join(","), keyOf(l));
  }
  const spreads = new Map<string, string>(); // list key -> key of the list it starts with
  for (const l of lists) {
    if (spreads.has(keyOf(l))) continue;
    const ids = listIds.get(l)!;
    for (let n = ids.length - 1; n >= 1; n--) {
      const prefix = byIds.get(ids.slice(0, n).join(","));
      if (prefix !== undefined && prefix.length >= MIN_SHARED) {
        spreads.set(keyOf(l), prefix);
        // the prefix is referenced here too, so it becomes a constant even where it occurs once
        count.set(prefix, (count.get(prefix) ?? 1) + 1);
        break;
      }
    }
  }

  // the parts written once, chosen top-down (a repeated part inside a shared one is shared only if it also
  // occurs elsewhere); parts referenced once after that go back in place
  let shared = new Set([...[...count].filter(([, n]) => n >= 2).map(([k]) => k), ...anchors]);
  let parts = new Map<string, Part>();
  for (let round = 0; round < 8; round++) {
    parts = new Map();
    const refs = new Map<string, number>();
    const visit = (v: unknown, at: string[], top: boolean): void => {
      if (v === null || typeof v !== "object") return;
      const k = keyOf(v);
      if (!top && shared.has(k)) {
        refs.set(k, (refs.get(k) ?? 0) + 1);
        if (!parts.has(k)) {
          parts.set(k, { key: k, kind: Array.isArray(v) ? "properties" : "shape", at });
          visit(v, at, true);
        }
        return;
      }
      if (Array.isArray(v)) {
        const base = spreads.get(k);
        if (base !== undefined && shared.has(base)) refs.set(base, (refs.get(base) ?? 0) + 1);
        v.forEach((x, i) => visit(x, [...at, childName(x, i)], false));
        return;
      }
      for (const [n, x] of Object.entries(v)) visit(x, n === "properties" || n === "definitions" || n === "shape" ? at : [...at, n === "branches" ? "" : n], false);
    };
    if (byDefinition) {
      // named from the definition, not from the codec that holds it (the same in every module of the set)
      visit(desc.root, [desc.name], false);
      for (const d of desc.definitions) visit(d.shape, [d.name], false);
    } else visit(desc, [desc.name], true);
    const once = [...shared].filter((k) => (refs.get(k) ?? 0) < 2 && !anchors.has(k));
    if (once.length === 0) break;
    shared = new Set([...shared].filter((k) => (refs.get(k) ?? 0) >= 2));
  }
  if (shared.size === 0) return { declarations: "", text: replace(printDescriptor(desc)) };

  // names from where each part first occurs
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const p of parts.values()) {
    if (!shared.has(p.key)) continue;
    const base = (p.kind === "shape" ? "$s_" : "$p_") + identifierOf(p.at.filter((s) => s !== "").join("_"));
    let n = base;
    for (let i = 2; used.has(n); i++) n = `${base}$${i}`;
    used.add(n);
    names.set(p.key, n);
  }

  // the tree with references in place; declarations in dependency order (a part after the parts it refers to)
  const declarations: string[] = [];
  const declared = new Set<string>();
  const bodies = new Map<string, unknown>();
  const rewrite = (v: unknown, top: boolean): unknown => {
    if (v === null || typeof v !== "object") return v;
    const k = keyOf(v);
    if (!top && names.has(k)) {
      if (!declared.has(k)) {
        declared.add(k);
        const body = rewrite(v, true);
        bodies.set(k, body);
        const type = Array.isArray(v) ? propertiesType : shapeType;
        declarations.push(`const ${names.get(k)}${type === "" ? "" : ": " + type} = ${print(body)};`);
      }
      return MARK + names.get(k);
    }
    if (Array.isArray(v)) {
      const base = spreads.get(k);
      if (base !== undefined && names.has(base) && base !== k) {
        const n = JSON.parse(base).length as number;
        // the base list is declared first: rewrite it (it is the first n entries of this one)
        if (!declared.has(base)) rewrite(v.slice(0, n), false);
        return [SPREAD + names.get(base), ...v.slice(n).map((x) => rewrite(x, false))];
      }
      return v.map((x) => rewrite(x, false));
    }
    return Object.fromEntries(Object.entries(v).map(([n, x]) => [n, rewrite(x, false)]));
  };
  const print = (v: unknown): string =>
    replace(printDescriptor(v))
      .replace(/"\\u0000ref:([A-Za-z0-9_$]+)"/g, "$1")
      .replace(/"\\u0000spread:([A-Za-z0-9_$]+)"/g, "...$1");
  const root = rewrite(desc, true);
  return { declarations: declarations.join("\n"), text: print(root) };
}

/** The name segment of an array element: a definition's or property's name, else its position. */
function childName(x: unknown, i: number): string {
  const n = typeof x === "object" && x !== null && !Array.isArray(x) ? (x as { name?: unknown }).name : undefined;
  return typeof n === "string" && !("kind" in (x as object)) ? n : String(i);
}

/** Letters, digits and `_` only (a safe identifier tail), at most 60 characters. */
function identifierOf(s: string): string {
  const id = s.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "").replace(/_+/g, "_");
  return (id === "" ? "x" : id).slice(0, 60);
}
