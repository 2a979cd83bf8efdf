/**
 * Schema evolution in the interpreted codec (docs/EVOLUTION.md): which IR the interpreter compiles (the wire
 * layout of the dictionary applied), and the twin of the generated `$applyExtensions` (../emit/module.ts).
 */
import type { Dictionary } from "../dictionary/file.ts";
import { applyWireLayout } from "../dictionary/wire-layout.ts";
import type { SchemaIR, Shape } from "../ir/types.ts";
import { someObject } from "../ir/walk.ts";
import { applyExtension } from "../../runtime/extensions.ts";
import type { Reader } from "../../runtime/reader.ts";
import type { ReadFn } from "./read.ts";

/** True when some object of `ir` already carries a wire layout (`ObjectShape.wire`, set by `applyWireLayout`). */
export function hasWireLayout(ir: SchemaIR): boolean {
  return someObject(ir, (o) => o.wire !== undefined);
}

/**
 * The IR the generated module is emitted from (`emitModule(applyWireLayout(ir, dict), dict)`): `ir` as loaded
 * gets the dictionary's wire layout; an IR that already has one (the very IR handed to `emitModule`) is taken
 * as it is, so passing either gives the same codec. (For a dictionary made from this very schema the layout is
 * the schema order, and the codec is the one of a fresh IR.)
 */
export function laidOut(ir: SchemaIR, dict: Dictionary): SchemaIR {
  return hasWireLayout(ir) ? ir : applyWireLayout(ir, dict);
}

export interface ExtensionProperty {
  /** The property's key in its object. */
  key: string;
  shape: Shape;
  /** The dictionary level it was added at. */
  level: number;
  /** Required: writers at its level or later always send its record. */
  required: boolean;
}

/**
 * Every extension property of the IR by dictionary ID: what the emitter registers (`cx.extension`) while it
 * writes the root, every definition and the extension values themselves. The first registration of an ID wins,
 * as in `ModuleContext.extension`.
 */
export function extensionsOf(ir: SchemaIR): Map<number, ExtensionProperty> {
  const out = new Map<number, ExtensionProperty>();
  const seen = new Set<Shape>();
  const visit = (s: Shape): void => {
    if (seen.has(s)) return;
    seen.add(s);
    switch (s.kind) {
      case "object":
        if (s.wire !== undefined) {
          for (const x of s.wire.ext) {
            const q = s.properties[x.prop]!;
            if (!out.has(x.id)) out.set(x.id, { key: q.name, shape: q.shape, level: x.level, required: q.required });
          }
        }
        for (const p of s.properties) visit(p.shape);
        if (s.additional !== false) visit(s.additional);
        return;
      case "array":
        return visit(s.items);
      case "tuple":
        s.items.forEach(visit);
        if (s.rest !== false) visit(s.rest);
        return;
      case "union":
        s.branches.forEach(visit);
        return;
      default:
        return;
    }
  };
  visit(ir.root);
  for (const d of ir.definitions) visit(d.shape);
  return out;
}

export type ApplyExtensions = (id: number, r: Reader, root: unknown) => boolean;

/**
 * The generated `$applyExtensions`: a known extension record sets its property on the object its pointer names
 * (`applyExtension`); a record of a retired property (one this codec does not know as an extension) is dropped;
 * any other is unknown (`false`: kept on the root, or discarded, by `readExtensionSection`).
 */
export function applyExtensions(known: Map<number, { key: string; read: ReadFn }>, dict: Dictionary): ApplyExtensions {
  const retired = new Set(dict.retired.map((r) => r.id).filter((id) => !known.has(id)));
  if (known.size === 0 && retired.size === 0) return () => false;
  return (id, r, root) => {
    const x = known.get(id);
    if (x !== undefined) {
      applyExtension(r, root, x.key, x.read);
      return true;
    }
    if (retired.has(id)) {
      r.pos = r.end; // a retired property: dropped
      return true;
    }
    return false;
  };
}
