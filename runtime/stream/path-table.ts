/**
 * The path table of a spec, compiled once (a WeakMap by spec): the rows derived from the descriptor
 * (../codec/stream-rows.ts) joined with the per-path writers and readers the engine builds (../codec/engine/stream.ts),
 * and the lookups the assembly and the encoder make by path ID, parent and key.
 */
import { pathFunctions } from "../codec/engine/stream.ts";
import { streamPathRows } from "../codec/stream-rows.ts";
import { ToonError } from "../wire/errors.ts";
import { StreamSeg } from "../codec/stream-seg.ts";
import type { StreamReadFn, StreamSpec, StreamWriteFn } from "./spec.ts";

const specTables = new WeakMap<StreamSpec, PathTable>();

export function tableOf(spec: StreamSpec): PathTable {
  if (typeof spec !== "object" || spec === null || typeof spec.descriptor !== "object" || spec.descriptor === null || !Array.isArray(spec.ids)) {
    throw new ToonError("CONFIG_ERROR", `a stream needs its codec's StreamSpec (Codec.stream.spec), got ${spec === null ? "null" : Array.isArray(spec) ? "an array" : typeof spec}`);
  }
  let t = specTables.get(spec);
  if (t === undefined) specTables.set(spec, (t = new PathTable(spec)));
  return t;
}

export class PathTable {
  readonly size: number;
  readonly path: string[] = [];
  readonly parent: number[] = [];
  readonly seg: number[] = [];
  readonly arg: (string | number | null)[] = [];
  readonly type: string[] = [];
  readonly flags: number[] = [];
  readonly extra: unknown[] = [];
  readonly write: StreamWriteFn[] = [];
  readonly read: StreamReadFn[] = [];
  readonly fallback: (readonly [unknown] | undefined)[] = [];
  readonly scope: number[] = [];
  readonly known: boolean[] = [];
  readonly props = new Map<number, Map<string, number>>();
  readonly additional = new Map<number, number>();
  readonly items = new Map<number, number>();
  readonly positions = new Map<number, number[]>();
  readonly rest = new Map<number, number>();
  readonly branches = new Map<number, number[]>();
  readonly retired: Set<number>;
  private chains: (number[] | undefined)[] = [];
  rootId = -1;

  constructor(readonly spec: StreamSpec) {
    const rows = streamPathRows(spec.descriptor, spec.ids);
    let max = -1;
    for (const row of rows) max = Math.max(max, row[0]);
    this.size = max + 1;
    const fns = pathFunctions(spec.descriptor, rows);
    for (const row of rows) {
      const [id, path, parent, seg, arg, type, flags, extra, fallback] = row;
      this.fallback[id] = fallback;
      this.known[id] = true;
      this.path[id] = path;
      this.parent[id] = parent;
      this.seg[id] = seg;
      this.arg[id] = arg;
      this.type[id] = type;
      this.flags[id] = flags;
      this.extra[id] = extra;
      this.write[id] = fns.write[id]!;
      this.read[id] = fns.read[id]!;
      if (path === "$") this.rootId = id;
    }
    for (const row of rows) {
      const [id, , parent, seg, arg] = row;
      switch (seg) {
        case StreamSeg.PROPERTY: {
          let m = this.props.get(parent);
          if (m === undefined) this.props.set(parent, (m = new Map()));
          m.set(arg as string, id);
          break;
        }
        case StreamSeg.ITEMS:
          this.items.set(parent, id);
          break;
        case StreamSeg.POSITION:
          (this.positions.get(parent) ?? this.positions.set(parent, []).get(parent)!)[arg as number] = id;
          break;
        case StreamSeg.REST:
          this.rest.set(parent, id);
          break;
        case StreamSeg.VALUES:
          this.additional.set(parent, id);
          break;
        case StreamSeg.BRANCH:
          (this.branches.get(parent) ?? this.branches.set(parent, []).get(parent)!)[arg as number] = id;
          break;
      }
    }
    for (const row of rows) {
      let id = row[0];
      while (this.parent[id]! >= 0) id = this.parent[id]!;
      this.scope[row[0]] = id;
    }
    if (this.rootId < 0) throw new ToonError("CONFIG_ERROR", `stream spec ${spec.name} has no root path`);
    this.retired = new Set(spec.descriptor.retired);
  }

  has(id: number): boolean {
    return id < this.size && this.known[id] === true;
  }

  /** Paths from the scope root (exclusive) down to `id` (inclusive). */
  chainOf(id: number): number[] {
    let c = this.chains[id];
    if (c === undefined) {
      c = [];
      for (let e = id; this.parent[e]! >= 0; e = this.parent[e]!) c.push(e);
      c.reverse();
      this.chains[id] = c;
    }
    return c;
  }

  /** Number of tuple positions (rest rows start there). */
  positional(tuple: number): number {
    return (this.extra[tuple] as [number, number])[1];
  }

  /** Level a property was added at (0: the base dictionary). */
  levelOf(id: number): number {
    return this.flags[id]! >>> 8;
  }

  /** The container or leaf type behind refs and the branches chosen so far; -1 when a union's branch is open. */
  concrete(entry: number, branches: ReadonlyMap<number, number> | null | undefined, branchOf?: (union: number) => number | undefined): number {
    let e = entry;
    for (let guard = 0; guard < 1000; guard++) {
      const ty = this.type[e];
      if (ty === "ref") e = this.extra[e] as number;
      else if (ty === "union") {
        const b = branches?.get(e) ?? branchOf?.(e);
        if (b === undefined) return -1;
        e = this.branches.get(e)![b]!;
      } else return e;
    }
    return -1;
  }
}
