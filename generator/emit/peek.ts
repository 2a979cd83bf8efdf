/**
 * O(1) field access (docs/FORMAT.md §10.2): the indexed paths of a codec (config `index`), the marks its
 * root writer sets where an indexed value starts, and the generated `peek` accessors, one per path, typed.
 *
 * Indexed paths are property chains from the root through inline objects (`status`, `window.start`): each
 * occurs at most once per message, at a place the root writer itself writes. Paths through a `$ref`, an array,
 * a union or a map would need the definition's writer to know where it is called from, and are refused.
 */
import { ToonError } from "../../runtime/wire/errors.ts";
import type { Dictionary } from "../dictionary/types.ts";
import { fingerprintOf } from "../dictionary/hash.ts";
import { propertySegment } from "../dictionary/paths.ts";
import type { ObjectShape, SchemaIR, Shape } from "../ir/types.ts";
import { Code, code, join, jsonLit, lit, name, propKey, raw } from "../../templates/code.ts";
import { childPath, type ModuleContext } from "./context.ts";
import { objectLayout } from "./layout.ts";
import { emitReadFunction } from "./read.ts";
import { typeOf } from "./types.ts";
import { setIndexMarks } from "./index-marks.ts";

/** Config `index`: `true` for every top-level property, or a list of dictionary paths. */
export type IndexOption = true | readonly string[];

export interface IndexSlot {
  path: string;
  id: number;
  /** Property names from the root. */
  keys: string[];
  /** JSON pointer of the value (error paths). */
  pointer: string;
  shape: Shape;
  /** Absent in some messages (an optional property on the way). */
  optional: boolean;
  owner: ObjectShape;
  prop: number;
  /**
   * The value holds properties added after their object's dictionary segment (schema evolution): they travel as
   * extension records after the body, so this accessor decodes the whole message.
   */
  full: boolean;
}

export interface IndexPlan {
  slots: IndexSlot[];
  /** 16-bit tag of the slot list (ids and paths), written in every indexed message. */
  tag: number;
}


interface Candidate extends Omit<IndexSlot, "id" | "full"> {
  depth: number;
}

/** Every indexable path of `ir` (property chains through inline objects, positional properties only). */
export function indexCandidates(ir: SchemaIR): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  const visit = (s: ObjectShape, path: string, keys: string[], pointer: string, optional: boolean, depth: number): void => {
    const layout = objectLayout(s);
    for (const i of layout.order) {
      const q = s.properties[i]!;
      const p = propertySegment(path, q.name);
      const c: Candidate = { path: p, keys: [...keys, q.name], pointer: childPath(pointer, q.name), shape: q.shape, optional: optional || !q.required, owner: s, prop: i, depth };
      out.set(p, c);
      if (q.shape.kind === "object" && q.shape.properties.length > 0) visit(q.shape, p, c.keys, c.pointer, c.optional, depth + 1);
    }
  };
  if (ir.root.kind === "object") visit(ir.root, "$", [], "", false, 1);
  return out;
}

/** Resolve the `index` option against `ir` and its dictionary; registers the marks for the root writer. */
export function planFieldIndex(ir: SchemaIR, dict: Dictionary, option: IndexOption | undefined, cx: ModuleContext): IndexPlan | undefined {
  if (option === undefined) return undefined;
  if (option === true && ir.root.kind !== "object") return undefined;
  if (ir.root.kind !== "object") {
    throw new ToonError("CONFIG_ERROR", `${ir.source}: "index" needs a codec whose root is an object (${ir.name} is ${ir.root.kind === "ref" ? "a definition" : `a ${ir.root.kind}`})`);
  }
  const candidates = indexCandidates(ir);
  const chosen: Candidate[] = [];
  if (option === true) {
    for (const c of candidates.values()) if (c.depth === 1) chosen.push(c);
  } else {
    const seen = new Set<string>();
    for (const p of option) {
      const c = candidates.get(p);
      if (c === undefined) {
        const some = [...candidates.keys()].slice(0, 12).join(", ");
        throw new ToonError(
          "CONFIG_ERROR",
          `${ir.source}: "index" path ${JSON.stringify(p)} is not a property chain of ${ir.name} through inline objects (indexable: ${some}${candidates.size > 12 ? ", ..." : ""})`,
        );
      }
      if (seen.has(p)) throw new ToonError("CONFIG_ERROR", `${ir.source}: "index" lists ${JSON.stringify(p)} twice`);
      seen.add(p);
      chosen.push(c);
    }
  }
  if (chosen.length === 0) return undefined;
  const ids = new Map<string, number>();
  for (const seg of [dict.base, ...dict.extensions]) for (const e of seg.entries) if (!ids.has(e.path)) ids.set(e.path, e.id);
  const slots: IndexSlot[] = chosen.map(({ depth: _d, ...c }) => {
    const id = ids.get(c.path);
    if (id === undefined) throw new Error(`internal: ${c.path} is not in the dictionary`);
    return { ...c, id, full: reachesExtensions(c.shape, cx) };
  });
  const tag = fingerprintOf("field-index\n" + JSON.stringify(slots.map((s) => [s.id, s.path]))).fingerprint;
  const plan = { slots, tag };
  const marks = new Map<ObjectShape, Map<number, number>>();
  slots.forEach((s, slot) => {
    let m = marks.get(s.owner);
    if (!m) marks.set(s.owner, (m = new Map()));
    m.set(s.prop, slot);
  });
  setIndexMarks(cx, marks);
  return plan;
}

export interface PeekSection {
  /** Module-level: the spec and one reader per indexed path. */
  section: Code;
  /** The codec's `peek` member. */
  member: Code;
}

/** `peek` accessors: `Codec.peek.status(bytes)` reads one indexed value by jumping to it. */
export function emitPeekSection(plan: IndexPlan, cx: ModuleContext, codecName: string, extraFlags: Code): PeekSection {
  const readers = plan.slots.flatMap((s, i) => (s.full ? [] : [emitReadFunction(name(`$peekR${i}`), s.shape, false, cx)]));
  const section = code`/** Field index (FIELD_INDEX, docs/FORMAT.md §10.2): the indexed paths, in slot order. */
const $PEEK: $rt.PeekSpec = { name: ${codecName}, fingerprint: $FINGERPRINT, flags: ${extraFlags}, tag: ${raw("0x" + plan.tag.toString(16).padStart(4, "0"))}, count: ${plan.slots.length} };

${join(readers, "\n\n")}`;
  const accessors = plan.slots.map((s, i) => {
    const type = s.optional ? code`${typeOf(s.shape)} | undefined` : typeOf(s.shape);
    const doc = code`    /** \`${raw(s.path.replace(/\*\//g, "*\\/"))}\`${s.optional ? raw(" (undefined when absent)") : raw("")}${s.full ? raw("; holds extension properties, so read by a full decode") : raw("")}. */`;
    if (s.full) {
      return code`${doc}
    ${propKey(s.path)}(bytes: Uint8Array, options?: $rt.DecodeOptions): ${type} {
      return $rt.pickPath($decode(bytes, options), ${jsonLit(s.keys)}) as ${type};
    },`;
    }
    return code`${doc}
    ${propKey(s.path)}(bytes: Uint8Array, options?: $rt.DecodeOptions): ${type} {
      return $rt.peekField(bytes, $PEEK, ${i}, ${s.pointer}, ${jsonLit(s.keys)}, $peekR${raw(String(i))}, $decode, options) as ${type};
    },`;
  });
  const member = code`  /**
   * O(1) field access: each accessor checks the header and fingerprint, then reads one indexed value by jumping
   * to it, without decoding the rest. A message without this codec's field index is decoded in full instead.
   */
  peek: {
${join(accessors)}
  },`;
  void lit;
  return { section, member };
}

/** Whether a value of `s` can hold extension properties (objects whose dictionary layout has `wire.ext`). */
function reachesExtensions(s: Shape, cx: ModuleContext, seen = new Set<string>()): boolean {
  switch (s.kind) {
    case "object":
      return (s.wire !== undefined && s.wire.ext.length > 0) || s.properties.some((p) => reachesExtensions(p.shape, cx, seen)) || (s.additional !== false && reachesExtensions(s.additional, cx, seen));
    case "array":
      return reachesExtensions(s.items, cx, seen);
    case "tuple":
      return s.items.some((i) => reachesExtensions(i, cx, seen)) || (s.rest !== false && reachesExtensions(s.rest, cx, seen));
    case "union":
      return s.branches.some((b) => reachesExtensions(b, cx, seen));
    case "ref":
      if (seen.has(s.name)) return false;
      seen.add(s.name);
      return reachesExtensions(cx.def(s.name).shape, cx, seen);
    default:
      return false;
  }
}
