/**
 * Streaming emission (docs/FORMAT.md §10.3): the schema-specific half of `Codec.stream`.
 *
 * - the codec's descriptor (runtime/codec/descriptor.ts), from which the runtime derives the path table
 *   (runtime/codec/stream-rows.ts) and the engine builds one writer and one reader per path for VALUE frames, so
 *   the module carries data, not a function or a row per path;
 * - the dictionary IDs of the descriptor's paths in walk order, as runs (`[0, n]` for a fresh dictionary);
 * - `$StreamPaths`, the value type at each path, for typed events.
 *
 * The generic machinery (frames, assembly, events, snapshots) is runtime/stream.ts.
 */
import type { Dictionary } from "../dictionary/types.ts";
import type { SchemaIR, Shape } from "../ir/types.ts";
import { Code, code, join, name, raw } from "../../templates/code.ts";
import type { ModuleContext } from "./context.ts";
import { descriptorOf, printDescriptor } from "./descriptor.ts";
import { shareDescriptor } from "./descriptor-share.ts";
import { typeOf } from "./types.ts";
import { idRuns, streamPathNodes, type StreamPathNode } from "../../runtime/codec/stream-rows.ts";
import { StreamPathFlag, StreamSeg } from "../../runtime/codec/stream-seg.ts";

export interface StreamSection {
  /** Types and the `$descriptor` and `$streamSpec` constants (after `$FINGERPRINT`, `$LEVEL`, `$applyExtensions`). */
  section: Code;
  /** The `stream` member of the codec object. */
  member: Code;
}

/**
 * The descriptor, its `level` written as the module's `$LEVEL` (so a new extension segment changes one line), its
 * repeated parts declared once before it (descriptor-share.ts).
 */
function printWithLevel(desc: ReturnType<typeof descriptorOf>, byDefinition: boolean): { declarations: string; text: string } {
  const marker = "\u0000LEVEL";
  return shareDescriptor({ ...desc, level: marker as unknown as number }, "$rt.DescriptorShape", "$rt.DescriptorProperty[]", (t) => t.replace(JSON.stringify(marker), "$LEVEL"), byDefinition);
}

/**
 * The descriptor's doc in a tool set's module. Its shape constants carry no comment of their own: a comment would
 * be part of the first one's text, which then differs from its twin in the argument codec (generator/emit/link.ts).
 */
const DESCRIPTOR_BY_DEFINITION =
  "/** The descriptor (runtime/codec/descriptor.ts); its `$s_<definition>` shapes are shared by the tool set's modules (emit/descriptor-share.ts). */";

const INLINE_CONTAINERS = new Set(["object", "array", "tuple", "union"]);

/**
 * In a module written for size, a path-type map longer than this is not written: stream events of that codec
 * carry `path: string` and `value: unknown`. (eslintrc's 9,000 paths would take 700 KB of type text that no
 * `switch` over event paths needs; the codec works the same.)
 */
export const STREAM_TYPES_BUDGET = 256 * 1024;

/** `byDefinition`: each definition's descriptor shape is a constant named after it (EmitOptions.shareDefinitions). */
export function emitStreamSection(ir: SchemaIR, dict: Dictionary, _cx: ModuleContext, size = false, byDefinition = false): StreamSection {
  const ids = new Map<string, number>();
  for (const seg of [dict.base, ...dict.extensions]) for (const e of seg.entries) ids.set(e.path, e.id);
  const idOf = (path: string): number => {
    const id = ids.get(path);
    if (id === undefined) throw new Error(`internal: path ${path} is not in the dictionary of ${ir.name}`);
    return id;
  };
  const desc = descriptorOf(ir, dict);
  // the walk the runtime derives the path table from (one definition of it, runtime/codec/stream-rows.ts)
  const nodes = streamPathNodes(desc);
  const walkIds = nodes.map((n) => idOf(n.path));
  const typeNames = new Map<number, string>([[0, ir.name]]);
  desc.definitions.forEach((d) => {
    const i = nodes.findIndex((n) => n.parent < 0 && n.path === "#" + d.name);
    if (i >= 0) typeNames.set(i, d.name);
  });

  // ---- types, in ID order
  const order = nodes.map((_, i) => i).sort((a, b) => walkIds[a]! - walkIds[b]!);
  const typeLines = order.map((i) => code`  ${nodes[i]!.path}: ${pathType(i)};`);
  const T = name(ir.name);
  const printed = printWithLevel(desc, byDefinition);

  const lines = join(typeLines);
  // `Exclude<X, undefined>` (an optional property's path) is most of the map's longer lines: written once
  const defined = lines.text.includes("$Def<");
  const typed = code`${defined ? raw("type $Def<T> = Exclude<T, undefined>;\n") : raw("")}/** Each path's value type (typed stream events). */
type $StreamPaths = {
${lines}
};`;
  const untyped = code`/**
 * Stream events by path, untyped: this module is written for size and its ${nodes.length} paths' types would pass
 * ${STREAM_TYPES_BUDGET / 1024} KB (generator/emit/stream.ts STREAM_TYPES_BUDGET).
 */
type $StreamPaths = Record<string, unknown>;`;
  const paths = size && Buffer.byteLength(typed.text) > STREAM_TYPES_BUDGET ? untyped : typed;

  const section = code`${paths}

${printed.declarations === "" ? raw("") : byDefinition ? code`${raw(printed.declarations)}

` : code`/** Parts the descriptor repeats, written once (generator/emit/descriptor-share.ts). */
${raw(printed.declarations)}

`}${byDefinition && printed.declarations !== "" ? raw(DESCRIPTOR_BY_DEFINITION) : raw("/** The descriptor (runtime/codec/descriptor.ts). */")}
const $descriptor: $rt.StreamSpec["descriptor"] = ${raw(printed.text)};

/** Streams (docs/FORMAT.md §10.3). */
const $streamSpec: $rt.StreamSpec = {
  name: ${ir.name},
  fingerprint: $FINGERPRINT,
  level: $LEVEL,
  flags: $FLAGS,
  descriptor: $descriptor,
  ids: ${raw(printDescriptor(idRuns(walkIds), "  "))},
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
  function indexable(i: number): boolean {
    if (typeNames.has(i)) return true;
    const n = nodes[i]!;
    if (n.seg === StreamSeg.BRANCH || n.parent < 0) return false;
    return indexable(n.parent);
  }

  function pathType(i: number): Code {
    const typeName = typeNames.get(i);
    if (typeName !== undefined) return name(typeName);
    const n: StreamPathNode = nodes[i]!;
    // descriptor shapes are IR shapes without source facts, which a scalar's, enum's or ref's type never reads
    const s = n.shape as Shape;
    // an enum's literal union is written once, in the interface: its path indexes into the parent's type
    const literal = (s.kind === "enum" || s.kind === "const") && indexable(i) && n.parent >= 0 && n.seg !== StreamSeg.BRANCH;
    if (!INLINE_CONTAINERS.has(s.kind) && !literal) return typeOf(s);
    if (!indexable(i)) return literal ? typeOf(s) : raw("unknown");
    // a named parent is indexed by its name (the same type, shorter than the map's entry)
    const parentName = typeNames.get(n.parent);
    const P = parentName !== undefined ? name(parentName) : code`$StreamPaths[${nodes[n.parent]!.path}]`;
    switch (n.seg) {
      case StreamSeg.PROPERTY:
        return n.flags & StreamPathFlag.REQUIRED ? code`${P}[${n.arg as string}]` : code`$Def<${P}[${n.arg as string}]>`;
      case StreamSeg.ITEMS:
      case StreamSeg.REST:
        return code`${P}[number]`;
      case StreamSeg.POSITION:
        return code`$Def<${P}[${n.arg as number}]>`;
      case StreamSeg.VALUES:
        return code`${P}[string]`;
      default:
        return raw("unknown");
    }
  }
}
