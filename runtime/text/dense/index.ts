/**
 * The dense text layout (docs/TEXT.md): a schema-aware TOON layout, one driver over a codec's descriptor.
 * `denseOf(descriptor)` builds the layout's model once per codec, lazily (the first toText/fromText call), and
 * keeps it with the descriptor; generated modules reach it through their `<Codec>Text` group only, so a bundle
 * that never writes dense text carries none of this.
 */
import { ToonError } from "../../wire/errors.ts";
import { DenseModel, type DenseSource } from "./model.ts";
import { DenseTextReader } from "../reader/dense.ts";
import { DenseWriter } from "./write.ts";

export interface DenseCodec {
  toText(value: unknown): string;
  fromText(text: string): unknown;
  /** Dense lines only, never the document's JSON fallback (the prompt example). */
  lines(value: unknown): string;
}

const cache = new WeakMap<DenseSource, DenseCodec>();
const models = new WeakMap<DenseSource, DenseModel>();

/** The dense model of a codec's descriptor, built once (its writer and readers share it). */
export function denseModel(src: DenseSource): DenseModel {
  let m = models.get(src);
  if (m === undefined) models.set(src, (m = new DenseModel(src)));
  return m;
}

export function denseOf(src: DenseSource): DenseCodec {
  let c = cache.get(src);
  if (c === undefined) {
    const model = denseModel(src);
    const writer = new DenseWriter(model);
    // one reader, reused from text to text (a reading never calls back into fromText, but if one did, it would get
    // a reader of its own)
    let idle: DenseTextReader | undefined;
    c = {
      toText: (v) => writer.document(v),
      fromText: (t) => {
        if (typeof t !== "string") throw new ToonError("INVALID_VALUE", `fromText expects text (a string), got ${describe(t)}`);
        const r = idle ?? new DenseTextReader(model);
        idle = undefined;
        try {
          r.push(t);
          return r.end();
        } finally {
          r.reset();
          idle = r;
        }
      },
      lines: (v) => writer.lines(v),
    };
    cache.set(src, c);
  }
  return c;
}

function describe(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v;
}

/** Encode `value` (schema-valid: call `validate` first for untrusted values) as dense text. */
export function denseToText(src: DenseSource, value: unknown): string {
  return denseOf(src).toText(value);
}

/** Decode dense text strictly (ToonError TEXT_SYNTAX / INVALID_VALUE with line, column and path). */
export function denseFromText<T = unknown>(src: DenseSource, text: string): T {
  return denseOf(src).fromText(text) as T;
}

export { DenseModel } from "./model.ts";
export type { DenseSource } from "./model.ts";
