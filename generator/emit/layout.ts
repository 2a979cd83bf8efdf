/**
 * Object layout on the wire (docs/FORMAT.md §4.5), shared by the encoder and decoder emitters and the
 * interpreter so the three cannot disagree:
 *
 *   [presence bitmap]  one bit per optional property (schema order), then one "has extras" bit when the
 *                      object is open; ceil(bits/8) bytes, LSB first; absent when there are no bits or the
 *                      object is a pure map
 *   values             required and present optional properties, in schema order
 *   [extras]           open objects: varint count then (key, value) pairs, when the extras bit is set;
 *                      pure maps (no declared properties): always
 */
import type { ObjectShape, Shape } from "../ir/types.ts";

export interface ObjectLayout {
  /** Bit index of each optional property (by property index), -1 for required ones and extension properties. */
  bitOf: number[];
  /** Bit index of the extras flag, -1 when closed or a pure map. */
  extrasBit: number;
  /** Total bits (0 = no bitmap). */
  bits: number;
  isMap: boolean;
  /** Property indices in wire order (schema order, unless the dictionary froze another: ObjectShape.wire). */
  order: number[];
  /** Slots of retired properties: always written absent; when an older writer filled one, readers skip it. */
  retired: { bit: number; after: number; shape: Shape; name: string }[];
  /** Properties added after the object's segment: they travel as extension records (runtime/extensions.ts). */
  ext: { prop: number; id: number; level: number }[];
}

export function objectLayout(s: ObjectShape): ObjectLayout {
  const isMap = s.properties.length === 0 && s.additional !== false;
  let bits = 0;
  if (s.wire === undefined) {
    const bitOf = s.properties.map((p) => (p.required ? -1 : bits++));
    const extrasBit = s.additional !== false && !isMap ? bits++ : -1;
    return { bitOf, extrasBit, bits, isMap, order: s.properties.map((_, i) => i), retired: [], ext: [] };
  }
  // frozen layout: bits in slot order; `after` places a retired slot's skip after the slot before it
  const bitOf = s.properties.map(() => -1);
  const order: number[] = [];
  const retired: ObjectLayout["retired"] = [];
  for (const slot of s.wire.slots) {
    if ("prop" in slot) {
      if (!s.properties[slot.prop]!.required) bitOf[slot.prop] = bits++;
      order.push(slot.prop);
    } else {
      retired.push({ bit: bits++, after: order.length, shape: slot.shape, name: slot.retired });
    }
  }
  const extrasBit = s.additional !== false && !isMap ? bits++ : -1;
  return { bitOf, extrasBit, bits, isMap, order, retired, ext: s.wire.ext };
}

/** Mask of the valid bits of bitmap byte `i`. */
export function byteMask(bits: number, i: number): number {
  const inByte = Math.min(8, bits - i * 8);
  return inByte >= 8 ? 0xff : (1 << inByte) - 1;
}
