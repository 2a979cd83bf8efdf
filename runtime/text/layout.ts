/**
 * The two text layouts of a generated codec behind one `toText` / `fromText`: TOON v4 (the default,
 * byte-identical to @toon-format/toon) and dense (./dense, docs/TEXT.md). `fromText` detects the layout unless
 * `{ layout }` forces one: dense is tried first (its reader is strict, so TOON that is not also valid dense fails
 * fast), then TOON; when both fail, the error of the one that read further is thrown.
 */
import { ToonError } from "../errors.ts";
import { further } from "./layout-error.ts";
import { fromTextWith, type TextCheckFn } from "./check.ts";
import { denseFromText, denseToText, type DenseSource } from "./dense/index.ts";
import { encodeText, encodeTextWith, type TextEncodeOptions, type TextState } from "./encode.ts";
import type { TextDecodeOptions } from "./decode.ts";

export type TextLayout = "toon" | "dense";

export function toTextLayout(value: unknown, options: TextEncodeOptions | undefined, enc: ((e: TextState, v: any) => string | null) | undefined, desc: DenseSource): string {
  if (options?.layout === "dense") return denseToText(desc, value);
  // a module written for size (optimize) has no specialised encoder: the generic one, which it equals
  return enc === undefined ? encodeText(value, options) : encodeTextWith(value, options, enc);
}

export function fromTextLayout<T>(text: string, options: TextDecodeOptions | undefined, check: TextCheckFn, desc: DenseSource): T {
  const layout = options?.layout;
  if (layout === "toon") return fromTextWith<T>(text, options, check);
  if (layout === "dense") return denseFromText<T>(desc, text);
  let dense: unknown;
  try {
    return denseFromText<T>(desc, text);
  } catch (e) {
    if (!(e instanceof ToonError)) throw e;
    dense = e;
  }
  try {
    return fromTextWith<T>(text, options, check);
  } catch (e) {
    throw further(dense as ToonError, e, text);
  }
}
