/**
 * The state of one TOON text encoding (the `TextState` generated encoders append to) and what every part of the
 * encoder shares about it: the options it was made from, the indentation cache, the restart signal (a value that is
 * not plain JSON is encoded again from a normalized copy, ./normalize.ts), and the errors with their JSON pointers.
 */
import { ToonError, hostError, pointerSegment } from "../wire/errors.ts";
import { checkSizeAndDepth } from "./options.ts";
import { delimCode, type TextDelimiter } from "./primitives.ts";
import { mark } from "./headers.ts";

/** Options of {@link encodeText} (./encode.ts). */
export interface TextEncodeOptions {
  /** Spaces per indentation level (default 2). */
  indentSize?: number;
  /** Document delimiter, used for every array and table header (default ","). */
  delimiter?: TextDelimiter;
  /** Maximum container nesting depth before a `DEPTH_LIMIT` error (default 1000). */
  maxDepth?: number;
  /**
   * A generated codec's text layout: `"toon"` (default, TOON v4) or `"dense"` (schema-aware, docs/TEXT.md). The
   * schemaless `encodeText` has no schema, so it writes TOON v4 whatever this says.
   */
  layout?: "toon" | "dense";
}

/** Thrown (never escapes) when the value holds non-JSON objects: encoding restarts on a normalized copy. */
export const RESTART = {};

/**
 * Encoder state (the `TextState` generated encoders append to). A plain object, one literal in makeE: a class's
 * fields print twice in the ES2022 target (declaration and constructor assignment) and its names do not minify.
 */
export interface E {
  readonly d: TextDelimiter;
  readonly dc: number;
  readonly mk: string;
  readonly size: number;
  readonly max: number;
  /**
   * A schema codec's encoder (encodeTextWith): an object property whose value is `undefined` is absent, as in
   * JSON.stringify and as binary encode and validate take it, not `null` (the schemaless default). Meeting one
   * restarts encoding on a normalized copy without such properties.
   */
  readonly omit: boolean;
  out: string;
  nl: string[];
}

export function makeE(options: TextEncodeOptions | undefined, omit = false): E {
  const d = options?.delimiter ?? ",";
  const dc = delimCode(d);
  const size = options?.indentSize ?? 2;
  const max = options?.maxDepth ?? 1000;
  checkSizeAndDepth(size, max);
  return { d, dc, mk: mark(d), size, max, omit, out: "", nl: [] };
}

/** "\n" + indentation of `depth`. */
export function nl(e: E, depth: number): string {
  let s = e.nl[depth];
  if (s === undefined) {
    for (let i = e.nl.length; i <= depth; i++) e.nl.push("\n" + " ".repeat(i * e.size));
    s = e.nl[depth];
  }
  return s;
}

export function depthError(max: number): ToonError {
  return new ToonError("DEPTH_LIMIT", `value nested deeper than ${max} levels (circular reference?)`);
}

/** Plain-JSON check of a non-array object; anything else restarts encoding on a normalized copy. */
export function checkPlain(o: object): void {
  const p = Object.getPrototypeOf(o);
  if ((p !== Object.prototype && p !== null) || typeof (o as { toJSON?: unknown }).toJSON === "function") throw RESTART;
}

/** Index `i` of `arr` reads undefined: a hole is INVALID_VALUE (an explicit `undefined` item is null, as in JSON). */
export function checkHole(arr: readonly unknown[], i: number): void {
  if (!(i in arr)) throw new ToonError("INVALID_VALUE", "a sparse array (a hole, no item at this index)", { path: pointerSegment(i) });
}

export function prefix(e: unknown, seg: string | number): unknown {
  if (e instanceof ToonError) e.prefixPath(pointerSegment(seg));
  else if (e !== RESTART) return hostError(e, pointerSegment(seg));
  return e;
}

export function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export type { E as TextState };
