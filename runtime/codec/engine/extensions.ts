/**
 * Schema evolution in the engine (docs/EVOLUTION.md): the twin of the generated `$applyExtensions`
 * (generator/emit/module.ts). Which properties are extensions is a layout fact (../plan.ts `extensionsOf`).
 */
import { applyExtension } from "../../features/extensions.ts";
import type { Reader } from "../../wire/reader.ts";
import type { ReadFn } from "./read.ts";

export type ApplyExtensions = (id: number, r: Reader, root: unknown) => boolean;

/**
 * The generated `$applyExtensions`: a known extension record sets its property on the object its pointer names
 * (`applyExtension`); a record of a retired property (one this codec does not know as an extension) is dropped;
 * any other is unknown (`false`: kept on the root, or discarded, by `readExtensionSection`).
 */
export function applyExtensions(known: Map<number, { key: string; read: ReadFn }>, retiredIds: readonly number[]): ApplyExtensions {
  const retired = new Set(retiredIds.filter((id) => !known.has(id)));
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
