/**
 * The two text layouts of a generated codec behind one `toText` / `fromText` (the all-in-one codec object's):
 * TOON v4 (the default, byte-identical to @toon-format/toon: the `<Codec>Text` group) and dense (./dense,
 * docs/TEXT.md: the `<Codec>Dense` group). They are separate groups so that an app that moves TOON v4 text pays
 * nothing for dense, and the reverse. `fromText` detects the layout unless `{ layout }` forces one: dense is tried
 * first (its reader is strict, so TOON that is not also valid dense fails fast), then TOON; when both fail, the
 * error of the one that read further is thrown.
 */
import { ToonError, optionsArg } from "../wire/errors.ts";
import { further } from "./layout-error.ts";
import type { TextEncodeOptions } from "./encode-state.ts";
import type { TextDecodeOptions } from "./decode.ts";

export type TextLayout = "toon" | "dense";

/** Options of a `<Codec>Text` group (TOON v4 only: no `layout`). */
export type ToonTextEncodeOptions = Omit<TextEncodeOptions, "layout">;
export type ToonTextDecodeOptions = Omit<TextDecodeOptions, "layout">;

/** A generated module's TOON v4 group (`<Codec>Text`): the documentation its members show in an editor. */
export interface ToonTextGroup<T> {
  readonly name: string;
  readonly fingerprint: number;
  /**
   * Encode as TOON text (spec v4). Byte-identical to the runtime's `encodeText(value, options)`, specialised for
   * this schema. Does not validate: call `validate` first for untrusted values. (The dense layout is the
   * `<Codec>Dense` group's, or the codec object's `toText(value, { layout: "dense" })`.)
   */
  toText(value: T, options?: ToonTextEncodeOptions): string;
  /**
   * Decode TOON text, checking it against the schema and coercing per schema (a string field holding `123` is
   * "123"; int64 fields keep big integers exact). Throws ToonError with line, column and path.
   */
  fromText(text: string, options?: ToonTextDecodeOptions): T;
}

/** A generated module's dense group (`<Codec>Dense`, docs/TEXT.md). */
export interface DenseTextGroup<T> {
  readonly name: string;
  readonly fingerprint: number;
  /**
   * Encode as dense text (docs/TEXT.md): the schema-aware layout, far fewer tokens than JSON, that a model reads
   * without the schema (headers name every field). Does not validate: call `validate` first for untrusted values.
   */
  toText(value: T): string;
  /** Decode dense text, strictly: throws ToonError with line, column and path. */
  fromText(text: string): T;
}

/** `toText` / `fromText` over both layouts, as the all-in-one codec object has them. */
export interface LayoutTextGroup<T> {
  readonly name: string;
  readonly fingerprint: number;
  /** TOON v4 (default) or `{ layout: "dense" }`. */
  toText(value: T, options?: TextEncodeOptions): string;
  /** Either layout, detected; `{ layout }` forces one. */
  fromText(text: string, options?: TextDecodeOptions): T;
}

/** The one `toText`/`fromText` pair over a module's TOON group and dense group (a PURE call in generated code). */
export function textLayouts<T>(toon: ToonTextGroup<T>, dense: DenseTextGroup<T>): LayoutTextGroup<T> {
  return {
    name: toon.name,
    fingerprint: toon.fingerprint,
    toText(value: T, options?: TextEncodeOptions): string {
      optionsArg(options, "toText");
      return options?.layout === "dense" ? dense.toText(value) : toon.toText(value, toonOptions(options));
    },
    fromText(text: string, options?: TextDecodeOptions): T {
      const layout = optionsArg(options, "fromText")?.layout;
      if (layout === "toon") return toon.fromText(text, toonOptions(options));
      if (layout === "dense") return dense.fromText(text);
      // not text at all: the TOON group's refusal (detection reads the text)
      if (typeof text !== "string") return toon.fromText(text, toonOptions(options));
      let denseError: ToonError;
      try {
        return dense.fromText(text);
      } catch (e) {
        if (!(e instanceof ToonError)) throw e;
        denseError = e;
      }
      try {
        return toon.fromText(text, options);
      } catch (e) {
        throw further(denseError, e, text);
      }
    },
  };
}

/** The options without `layout` (the TOON group refuses `"dense"`, so that it is never silently ignored). */
function toonOptions<O extends { layout?: TextLayout }>(options: O | undefined): Omit<O, "layout"> | undefined {
  if (options === undefined || options.layout === undefined) return options;
  const { layout: _layout, ...rest } = options;
  return rest;
}

/**
 * The TOON group's guard: `layout: "dense"` given to `<Codec>Text` (which has no dense writer or reader) is a
 * CONFIG_ERROR naming where the dense layout is, never TOON written instead.
 */
export function refuseDense(options: { layout?: unknown } | undefined): void {
  if (optionsArg(options, "text")?.layout === "dense") {
    throw new ToonError("CONFIG_ERROR", 'the <Codec>Text group reads and writes TOON v4 only: use <Codec>Dense, or the codec object with { layout: "dense" }');
  }
}
