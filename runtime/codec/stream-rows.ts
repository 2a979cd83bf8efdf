/**
 * A codec's stream path table (docs/FORMAT.md §10.3), derived from its descriptor: one row per dictionary path,
 * walked in the order the dictionary stage walks a schema (root, then each definition; properties in schema order,
 * then additional properties, items, tuple positions and rest, union branches). A generated module carries only
 * the dictionary IDs of that walk, as runs (`[first, count, ...]`; a fresh dictionary is `[0, n]`), instead of a
 * row per path: the rows are the descriptor's facts again, so they are computed here once, for the generator (which
 * takes the walk order from this function) and for the runtime alike.
 */
import type { CodecDescriptor, Shape } from "./descriptor.ts";
import { formatOf, isScalar } from "./formats.ts";
import { branchSegment, definitionRoot, itemsSegment, mapSegment, propertySegment, tupleSegment } from "./paths.ts";
import { StreamPathFlag, StreamSeg } from "./stream-seg.ts";

/**
 * `[id, path, parent, seg, arg, type, flags, extra, fallback?]`. `arg`: the property name (PROPERTY), the
 * position (POSITION) or the branch (BRANCH); `extra`: objects, their property IDs in schema order; tuples,
 * `[minItems, positions]`; refs, the ID of the definition's root path; unions, `[property, values]` of their
 * discriminator or null.
 */
export type StreamPathRow = readonly [
  id: number,
  path: string,
  parent: number,
  seg: number,
  arg: string | number | null,
  type: string,
  flags: number,
  extra: unknown,
  /** Properties added after the base dictionary that have a schema `default`: `[default]`. */
  fallback?: readonly [unknown],
];

/** One path of the walk, before IDs: `parent` is the index of the parent's node in the walk (-1 at a root). */
export interface StreamPathNode {
  path: string;
  parent: number;
  seg: number;
  arg: string | number | null;
  shape: Shape;
  flags: number;
}

/** Every path of the descriptor in walk order (the order a fresh dictionary numbers them in). */
export function streamPathNodes(desc: CodecDescriptor): StreamPathNode[] {
  const nodes: StreamPathNode[] = [];
  const walk = (s: Shape, path: string, parent: number, seg: number, arg: string | number | null, flags: number): void => {
    const at = nodes.length;
    let f = flags;
    if (isScalar(s)) {
      const format = formatOf(s);
      if (format.plain) f |= StreamPathFlag.PLAIN;
      if (format.record.int64) f |= StreamPathFlag.INT64;
    }
    if (s.kind === "object" && s.additional === false) f |= StreamPathFlag.CLOSED;
    nodes.push({ path, parent, seg, arg, shape: s, flags: f });
    switch (s.kind) {
      case "object": {
        const levels = new Map<number, number>();
        for (const x of s.wire?.ext ?? []) levels.set(x.prop, x.level);
        s.properties.forEach((p, i) =>
          walk(p.shape, propertySegment(path, p.name), at, StreamSeg.PROPERTY, p.name, (p.required ? StreamPathFlag.REQUIRED : 0) | ((levels.get(i) ?? 0) << 8)),
        );
        if (s.additional !== false) walk(s.additional, mapSegment(path), at, StreamSeg.VALUES, null, 0);
        break;
      }
      case "array":
        walk(s.items, itemsSegment(path), at, StreamSeg.ITEMS, null, 0);
        break;
      case "tuple":
        s.items.forEach((item, i) => walk(item, tupleSegment(path, i), at, StreamSeg.POSITION, i, i < s.minItems ? StreamPathFlag.REQUIRED : 0));
        if (s.rest !== false) walk(s.rest, tupleSegment(path, "rest"), at, StreamSeg.REST, null, 0);
        break;
      case "union":
        s.branches.forEach((b, i) => walk(b, branchSegment(path, i), at, StreamSeg.BRANCH, i, 0));
        break;
      default:
        break;
    }
  };
  walk(desc.root, "$", -1, StreamSeg.ROOT, null, 0);
  for (const d of desc.definitions) walk(d.shape, definitionRoot(d.name), -1, StreamSeg.ROOT, null, 0);
  return nodes;
}

/** Dictionary IDs in walk order, as runs `[first, count, first, count, ...]` (what a module embeds). */
export function idRuns(ids: readonly number[]): number[] {
  const runs: number[] = [];
  for (const id of ids) {
    const n = runs.length;
    if (n > 0 && runs[n - 2]! + runs[n - 1]! === id) runs[n - 1]!++;
    else runs.push(id, 1);
  }
  return runs;
}

/** The IDs of `idRuns`, expanded; undefined when the runs are malformed or do not give exactly `count` IDs. */
function expandRuns(runs: readonly number[], count: number): number[] | undefined {
  if (runs.length % 2 !== 0) return undefined;
  const ids: number[] = [];
  for (let i = 0; i < runs.length; i += 2) {
    const first = runs[i]!;
    const n = runs[i + 1]!;
    if (!Number.isInteger(first) || !Number.isInteger(n) || first < 0 || n < 1 || ids.length + n > count) return undefined;
    for (let k = 0; k < n; k++) ids.push(first + k);
  }
  return ids.length === count ? ids : undefined;
}

function entryType(s: Shape): string {
  if (s.kind === "object" && s.properties.length === 0 && s.additional !== false) return "map";
  return s.kind;
}

/**
 * The path table of `desc` whose walk is numbered by `runs`, sorted by ID. Throws (an internal error: the runs
 * come from the same generator as the descriptor) when the runs do not number every path exactly once.
 */
export function streamPathRows(desc: CodecDescriptor, runs: readonly number[]): StreamPathRow[] {
  const nodes = streamPathNodes(desc);
  const ids = expandRuns(runs, nodes.length);
  if (ids === undefined || new Set(ids).size !== ids.length) throw new Error(`internal: the stream path IDs of ${desc.name} do not number its ${nodes.length} paths`);
  const rootId = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (n.parent < 0) rootId.set(n.path, ids[i]!);
  });
  const children = new Map<number, number[]>();
  nodes.forEach((n, i) => {
    if (n.seg === StreamSeg.PROPERTY) (children.get(n.parent) ?? children.set(n.parent, []).get(n.parent)!).push(ids[i]!);
  });
  const rows = nodes.map((n, i): StreamPathRow => {
    const s = n.shape;
    let extra: unknown = null;
    if (s.kind === "object") extra = children.get(i) ?? [];
    else if (s.kind === "tuple") extra = [s.minItems, s.items.length];
    else if (s.kind === "ref") extra = rootId.get(definitionRoot(s.name)) ?? -1;
    else if (s.kind === "union" && s.discriminator) extra = [s.discriminator.property, s.discriminator.values];
    const parent = n.parent < 0 ? -1 : ids[n.parent]!;
    const head = [ids[i]!, n.path, parent, n.seg, n.arg, entryType(s), n.flags, extra] as const;
    // properties newer than the base: a writer that predates them gets the schema's default (as in decode)
    return n.flags >>> 8 > 0 && s.default !== undefined ? [...head, [s.default]] : head;
  });
  return rows.sort((a, b) => a[0] - b[0]);
}
