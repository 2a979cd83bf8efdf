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
import type { ObjectShape, PropertyShape } from "../ir/types.ts";

export interface ObjectLayout {
  /** Bit index of each optional property (by property index), -1 for required ones. */
  bitOf: number[];
  /** Bit index of the extras flag, -1 when closed or a pure map. */
  extrasBit: number;
  /** Total bits (0 = no bitmap). */
  bits: number;
  isMap: boolean;
}

export function objectLayout(s: ObjectShape): ObjectLayout {
  const isMap = s.properties.length === 0 && s.additional !== false;
  let bits = 0;
  const bitOf = s.properties.map((p: PropertyShape) => (p.required ? -1 : bits++));
  const extrasBit = s.additional !== false && !isMap ? bits++ : -1;
  return { bitOf, extrasBit, bits, isMap };
}

/** Mask of the valid bits of bitmap byte `i`. */
export function byteMask(bits: number, i: number): number {
  const inByte = Math.min(8, bits - i * 8);
  return inByte >= 8 ? 0xff : (1 << inByte) - 1;
}
