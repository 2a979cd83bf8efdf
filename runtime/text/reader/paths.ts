/**
 * Where a value read from text sits in the schema: the descriptor walked along the keys the readers report, one
 * node per position (cached on its parent, so a table's thousand rows share one node). A node names its stream
 * path (the dictionary's path syntax, as binary stream events name theirs: `orders[]`, `#Order.customer`) and
 * holds the text check of its shape. Below a union or `any` there are no nodes: which branch a value takes is
 * known only once it is whole, so it is told (and checked) as a whole.
 */
import type { CodecDescriptor, Shape } from "../../codec/descriptor.ts";
import { itemsSegment, mapSegment, propertySegment, tupleSegment, definitionRoot } from "../../codec/paths.ts";
import { textCheckOf } from "../../codec/engine/text-check.ts";
import type { TextCheckFn } from "../check.ts";
import type { FillShape } from "../model-fill.ts";

export interface PathNode {
  /** The position's shape as the schema writes it (a ref stays a ref: it names the value's own path). */
  readonly shape: Shape;
  /** The stream path of the position (`$` at the root). */
  readonly path: string;
  /** Whether the position holds an array's items (its values are elements, not fields). */
  readonly item: boolean;
  /** The shape the children hang off (refs followed) and the path they are named from. */
  base: Shape | undefined;
  basePath: string;
  /** Objects: the declared properties' nodes; tuples: the positions' (and "rest"). */
  kids: Map<string, PathNode | null> | undefined;
  /** Arrays: the items' node; objects: the additional properties'. */
  items: PathNode | null | undefined;
  check: TextCheckFn | undefined;
  /** The model-output fill spec's part for the value here (0: none), once asked. */
  fill: FillShape | 0 | undefined;
}

export class PathWalker {
  readonly root: PathNode;
  private readonly defs = new Map<string, Shape>();

  constructor(private readonly desc: Pick<CodecDescriptor, "root" | "definitions">) {
    for (const d of desc.definitions) this.defs.set(d.name, d.shape);
    this.root = node(desc.root, "$", false);
  }

  /** The node at `key` of `parent`, or null where the schema says no more (a union, `any`, a closed object). */
  child(parent: PathNode, key: string | number): PathNode | null {
    const s = this.base(parent);
    if (s === undefined) return null;
    switch (s.kind) {
      case "object": {
        if (typeof key !== "string") return null;
        let kids = parent.kids;
        if (kids === undefined) {
          // the declared properties, once; every other key shares one node (a map's keys are not kept: a walker
          // lives as long as its codec, whatever texts it reads)
          kids = parent.kids = new Map();
          for (const p of s.properties) kids.set(p.name, node(p.shape, propertySegment(parent.basePath, p.name), false));
        }
        const n = kids.get(key);
        if (n !== undefined) return n;
        if (s.additional === false) return null;
        return (parent.items ??= node(s.additional, mapSegment(parent.basePath), false));
      }
      case "array":
        if (typeof key !== "number") return null;
        return (parent.items ??= node(s.items, itemsSegment(parent.basePath), true));
      case "tuple": {
        if (typeof key !== "number") return null;
        const kids = (parent.kids ??= new Map());
        const k = key < s.items.length ? String(key) : "rest";
        let n = kids.get(k);
        if (n === undefined) {
          const shape = key < s.items.length ? s.items[key] : s.rest === false ? undefined : s.rest;
          n = shape === undefined ? null : node(shape, tupleSegment(parent.basePath, key < s.items.length ? key : "rest"), false);
          kids.set(k, n);
        }
        return n;
      }
      default:
        return null;
    }
  }

  /**
   * Whether the node holds plain text (a string of no format, or that or null): a string whose text a reader may
   * show while it is still arriving (`partialText`), as no date, uuid or digits of an int64 would be.
   */
  isText(n: PathNode): boolean {
    let s: Shape | undefined = n.shape;
    for (let guard = 0; s !== undefined && s.kind === "ref" && guard < 1000; guard++) s = this.defs.get(s.name);
    if (s === undefined) return false;
    if (s.kind === "union") {
      const b = s.branches.filter((x) => x.kind !== "null");
      if (b.length !== 1) return false;
      s = b[0]!;
    }
    return s.kind === "string" && s.format === undefined && s.int64 !== true;
  }

  /** The text check of a node's shape (built once). */
  check(n: PathNode): TextCheckFn {
    return (n.check ??= textCheckOf({ name: "", root: n.shape, definitions: this.desc.definitions }));
  }

  /** The node's shape with refs followed (its children's base), undefined for what has no children we name. */
  private base(n: PathNode): Shape | undefined {
    if (n.base !== undefined || n.basePath !== "") return n.base;
    let s: Shape | undefined = n.shape;
    let path = n.path;
    for (let guard = 0; s !== undefined && s.kind === "ref" && guard < 1000; guard++) {
      path = definitionRoot(s.name);
      s = this.defs.get(s.name);
    }
    if (s !== undefined && s.kind !== "object" && s.kind !== "array" && s.kind !== "tuple") s = undefined;
    n.base = s;
    n.basePath = path;
    return s;
  }
}

function node(shape: Shape, path: string, item: boolean): PathNode {
  return { shape, path, item, base: undefined, basePath: "", kids: undefined, items: undefined, check: undefined, fill: undefined };
}
