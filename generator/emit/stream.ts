/**
 * Streaming emission (docs/FORMAT.md §10.3): the schema-specific half of `Codec.stream`.
 *
 * - a path table: one row per dictionary path (ID, path, parent, how it hangs off the parent, type, flags and
 *   what the runtime needs to assemble the value: property order, tuple bounds, ref targets, discriminators);
 * - the codec's descriptor (runtime/codec/descriptor.ts), from which the runtime's engine builds one writer and
 *   one reader per path for VALUE frames (a frame carries the value at any path in its ordinary encoding), so
 *   the module carries data, not a function per path;
 * - `$StreamPaths`, the value type at each path, for typed events.
 *
 * The generic machinery (frames, assembly, events, snapshots) is runtime/stream.ts.
 */
import type { Dictionary } from "../dictionary/file.ts";
import { branchSegment, definitionRoot, itemsSegment, mapSegment, propertySegment, tupleSegment } from "../dictionary/paths.ts";
import type { SchemaIR, Shape } from "../ir/types.ts";
import { Code, code, join, jsonLit, name, raw } from "../../templates/code.ts";
import type { ModuleContext } from "./context.ts";
import { descriptorOf, printDescriptor } from "./descriptor.ts";
import { typeOf } from "./types.ts";
import { StreamPathFlag, StreamSeg } from "../../runtime/stream.ts";
import { formatOf, isScalar } from "../../runtime/codec/formats.ts";

export interface StreamSection {
  /** Types, functions and the `$streamSpec` constant (after `$FINGERPRINT`, `$LEVEL`, `$applyExtensions`). */
  section: Code;
  /** The `stream` member of the codec object. */
  member: Code;
}

interface PathNode {
  id: number;
  path: string;
  parent: number;
  parentPath: string | undefined;
  seg: number;
  arg: string | number | null;
  shape: Shape;
  flags: number;
  /** Names the value's own type (root, definition roots). */
  typeName?: string;
}

const INLINE_CONTAINERS = new Set(["object", "array", "tuple", "union"]);

function entryType(s: Shape): string {
  if (s.kind === "object" && s.properties.length === 0 && s.additional !== false) return "map";
  return s.kind;
}

export function emitStreamSection(ir: SchemaIR, dict: Dictionary, _cx: ModuleContext): StreamSection {
  const ids = new Map<string, number>();
  for (const seg of [dict.base, ...dict.extensions]) for (const e of seg.entries) ids.set(e.path, e.id);
  const idOf = (path: string): number => {
    const id = ids.get(path);
    if (id === undefined) throw new Error(`internal: path ${path} is not in the dictionary of ${ir.name}`);
    return id;
  };

  // ---- the paths, walked as the dictionary walks them
  const nodes: PathNode[] = [];
  const walk = (s: Shape, path: string, parent: PathNode | undefined, seg: number, arg: string | number | null, flags: number): PathNode => {
    const node: PathNode = { id: idOf(path), path, parent: parent?.id ?? -1, parentPath: parent?.path, seg, arg, shape: s, flags };
    if (isScalar(s)) {
      const f = formatOf(s);
      if (f.plain) node.flags |= StreamPathFlag.PLAIN;
      if (f.record.int64) node.flags |= StreamPathFlag.INT64;
    }
    if (s.kind === "object" && s.additional === false) node.flags |= StreamPathFlag.CLOSED;
    nodes.push(node);
    switch (s.kind) {
      case "object": {
        const levels = new Map<number, number>();
        for (const x of s.wire?.ext ?? []) levels.set(x.prop, x.level);
        s.properties.forEach((p, i) =>
          walk(p.shape, propertySegment(path, p.name), node, StreamSeg.PROPERTY, p.name, (p.required ? StreamPathFlag.REQUIRED : 0) | ((levels.get(i) ?? 0) << 8)),
        );
        if (s.additional !== false) walk(s.additional, mapSegment(path), node, StreamSeg.VALUES, null, 0);
        break;
      }
      case "array":
        walk(s.items, itemsSegment(path), node, StreamSeg.ITEMS, null, 0);
        break;
      case "tuple":
        s.items.forEach((item, i) => walk(item, tupleSegment(path, i), node, StreamSeg.POSITION, i, i < s.minItems ? StreamPathFlag.REQUIRED : 0));
        if (s.rest !== false) walk(s.rest, tupleSegment(path, "rest"), node, StreamSeg.REST, null, 0);
        break;
      case "union":
        s.branches.forEach((b, i) => walk(b, branchSegment(path, i), node, StreamSeg.BRANCH, i, 0));
        break;
      default:
        break;
    }
    return node;
  };
  const root = walk(ir.root, "$", undefined, StreamSeg.ROOT, null, 0);
  root.typeName = ir.name;
  for (const d of ir.definitions) {
    const n = walk(d.shape, definitionRoot(d.name), undefined, StreamSeg.ROOT, null, 0);
    n.typeName = d.name;
  }
  const byPath = new Map(nodes.map((n) => [n.path, n]));
  const childrenOf = new Map<number, PathNode[]>();
  for (const n of nodes) if (n.parent >= 0) (childrenOf.get(n.parent) ?? childrenOf.set(n.parent, []).get(n.parent)!).push(n);

  // ---- the table
  const rows = [...nodes]
    .sort((a, b) => a.id - b.id)
    .map((n) => {
      const s = n.shape;
      let extra: Code = raw("null");
      if (s.kind === "object") extra = jsonLit((childrenOf.get(n.id) ?? []).filter((k) => k.seg === StreamSeg.PROPERTY).map((k) => k.id));
      else if (s.kind === "tuple") extra = jsonLit([s.minItems, s.items.length]);
      else if (s.kind === "ref") extra = jsonLit(idOf(definitionRoot(s.name)));
      else if (s.kind === "union" && s.discriminator) extra = jsonLit([s.discriminator.property, s.discriminator.values]);
      // properties newer than the base: a writer that predates them gets the schema's default (as in decode)
      const fallback = n.flags >>> 8 > 0 && s.default !== undefined ? code`, [${jsonLit(s.default)}]` : raw("");
      return code`    [${n.id}, ${n.path}, ${n.parent}, ${n.seg}, ${n.arg === null ? raw("null") : n.arg}, ${entryType(s)}, ${n.flags}, ${extra}${fallback}],`;
    });

  // ---- types
  const typeLines = [...nodes]
    .sort((a, b) => a.id - b.id)
    .map((n) => code`  ${n.path}: ${pathType(n)};`);
  const retired = dict.retired.map((r) => r.id);
  const T = name(ir.name);

  const section = code`/** The value type at each dictionary path (typed stream events). */
type $StreamPaths = {
${join(typeLines)}
};

/** The codec's descriptor (runtime/codec/descriptor.ts): the engine builds each stream path's functions from it. */
const $descriptor: $rt.StreamSpec["descriptor"] = ${raw(printDescriptor(descriptorOf(ir, dict)))};

/** Streaming (docs/FORMAT.md §10.3): [id, path, parent, segment, arg, type, flags, extra, default?] per path. */
const $streamSpec: $rt.StreamSpec = {
  name: ${ir.name},
  fingerprint: $FINGERPRINT,
  level: $LEVEL,
  flags: $FLAGS,
  descriptor: $descriptor,
  paths: [
${join(rows)}
  ],${retired.length > 0 ? code`\n  retired: ${jsonLit(retired)},` : raw("")}
  applyExtensions: $applyExtensions,
};`;
  const member = code`  /**
   * Streaming frames (docs/FORMAT.md §10.3): \`stream.encoder()\` sends the value frame by frame as its fields
   * become available; \`stream.decoder()\` takes bytes split anywhere and reports fields, elements and the value as
   * they complete, with partial snapshots.
   */
  stream: $rt.streamCodec<${T}, $StreamPaths>($streamSpec),`;
  return { section, member };

  /** Whether the path's type is a named type or an indexed access into one (union branches are not). */
  function indexable(n: PathNode): boolean {
    if (n.typeName !== undefined) return true;
    if (n.seg === StreamSeg.BRANCH || n.parentPath === undefined) return false;
    return indexable(byPath.get(n.parentPath)!);
  }

  function pathType(n: PathNode): Code {
    if (n.typeName !== undefined) return name(n.typeName);
    const s = n.shape;
    if (!INLINE_CONTAINERS.has(s.kind)) return typeOf(s);
    if (!indexable(n)) return raw("unknown");
    const parent = n.parentPath!;
    const P = code`$StreamPaths[${parent}]`;
    switch (n.seg) {
      case StreamSeg.PROPERTY:
        return n.flags & StreamPathFlag.REQUIRED ? code`${P}[${n.arg as string}]` : code`Exclude<${P}[${n.arg as string}], undefined>`;
      case StreamSeg.ITEMS:
      case StreamSeg.REST:
        return code`${P}[number]`;
      case StreamSeg.POSITION:
        return code`Exclude<${P}[${n.arg as number}], undefined>`;
      case StreamSeg.VALUES:
        return code`${P}[string]`;
      default:
        return raw("unknown");
    }
  }
}
