/**
 * The per-path functions of a codec's streams (docs/FORMAT.md §10.3), built by the engine from the descriptor:
 * one writer and one reader per row of the path table, for VALUE frames (the value at any path in its ordinary
 * encoding). The root and definition roots are the codec's own functions, refs call the definition's, and every
 * other path gets the standalone function of its shape, exactly the functions a generated module once carried
 * ($sw<n>/$sr<n>), so the module now embeds only the rows.
 */
import type { CodecDescriptor, Shape } from "../descriptor.ts";
import { CodecPlan } from "../plan.ts";
import type { Reader } from "../../wire/reader.ts";
import { StreamSeg as Seg } from "../stream-seg.ts";
import type { Writer } from "../../wire/writer.ts";
import { PredicateCompiler } from "./predicate.ts";
import { ReadCompiler } from "./read.ts";
import { WriteCompiler } from "./write.ts";

/** What the engine needs of a path row: `[id, path, parent, seg, arg, ...]` (runtime/stream.ts `StreamPathRow`). */
export type PathRowHead = readonly [id: number, path: string, parent: number, seg: number, arg: string | number | null, ...rest: unknown[]];


export interface PathFunctions {
  write: ((w: Writer, v: any) => void)[];
  read: ((r: Reader) => any)[];
}

/** The writer and reader of every row (indexed by path ID). */
export function pathFunctions(desc: CodecDescriptor, rows: readonly PathRowHead[]): PathFunctions {
  const plan = new CodecPlan(desc);
  const writers = new WriteCompiler(plan, new PredicateCompiler(plan));
  const readers = new ReadCompiler(plan);
  const rootIsDefinition = desc.root.kind === "ref" && desc.root.name === desc.name;
  const byId = new Map(rows.map((r) => [r[0], r]));
  const shapes = new Map<number, Shape>();
  const shapeOf = (id: number): Shape => {
    let s = shapes.get(id);
    if (s === undefined) {
      s = locate(byId.get(id)!);
      shapes.set(id, s);
    }
    return s;
  };
  const locate = (row: PathRowHead): Shape => {
    const [, path, parent, seg, arg] = row;
    if (parent < 0) {
      if (path === "$") return desc.root;
      if (path.startsWith("#")) return plan.def(path.slice(1)).shape;
      throw new Error(`internal: stream path ${path} has no parent`);
    }
    const p = shapeOf(parent);
    switch (seg) {
      case Seg.PROPERTY:
        if (p.kind === "object") {
          const q = p.properties.find((x) => x.name === arg);
          if (q !== undefined) return q.shape;
        }
        break;
      case Seg.VALUES:
        if (p.kind === "object" && p.additional !== false) return p.additional;
        break;
      case Seg.ITEMS:
        if (p.kind === "array") return p.items;
        break;
      case Seg.POSITION:
        if (p.kind === "tuple" && typeof arg === "number" && arg < p.items.length) return p.items[arg]!;
        break;
      case Seg.REST:
        if (p.kind === "tuple" && p.rest !== false) return p.rest;
        break;
      case Seg.BRANCH:
        if (p.kind === "union" && typeof arg === "number" && arg < p.branches.length) return p.branches[arg]!;
        break;
    }
    throw new Error(`internal: stream path ${path} is not in the descriptor of ${desc.name}`);
  };
  const out: PathFunctions = { write: [], read: [] };
  for (const row of rows) {
    const [id, path, parent] = row;
    const s = shapeOf(id);
    if (parent < 0 && path === "$" && !rootIsDefinition) {
      out.write[id] = writers.function(s, false);
      out.read[id] = readers.function(s, false);
    } else if (parent < 0 && path.startsWith("#")) {
      const name = path.slice(1);
      out.write[id] = writers.definition(name).fn;
      out.read[id] = readers.definition(name).fn;
    } else if (s.kind === "ref") {
      out.write[id] = writers.definition(s.name).fn;
      out.read[id] = readers.definition(s.name).fn;
    } else {
      out.write[id] = writers.function(s, false);
      out.read[id] = readers.function(s, false);
    }
  }
  return out;
}
