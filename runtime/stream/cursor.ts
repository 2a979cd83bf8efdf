/**
 * Where the encoder is in the value and the schema: JSON pointers and their tokens, the steps of a frame's address
 * and the immutable cursors built from them, and the payload kinds a frame is made with. Shared by the encoder, the
 * value walker (`encodeIncremental`) and the JSON feed, which all make frames at a cursor.
 */
import { pointerSegment, ToonError } from "../wire/errors.ts";
import { Writer } from "../wire/writer.ts";
import { MAX_STREAM_ROW } from "./spec.ts";
import type { Loc } from "./assembly.ts";

export type Token = string | number;

export type Pointer = string | readonly Token[];

export interface Step {
  id: number;
  dyn: readonly Token[];
}

/**
 * Where the encoder is in the schema: the address of a location built so far. `closed` are the steps that end
 * at a ref, `dyn` the rows and keys of the open step, `entry` the path ID the location hangs off its parent by.
 * Cursors are immutable (a child copies what it changes), so a container's cursor can be kept and reused.
 */
export interface Cursor {
  closed: readonly Step[];
  dyn: readonly Token[];
  entry: number;
  tokens: readonly Token[];
  /** The mirror location when the cursor was made (for branches earlier frames chose). */
  node: Loc | undefined;
}

export function parsePointer(p: Pointer): Token[] {
  if (typeof p !== "string") return [...p];
  if (p === "") return [];
  if (p.charCodeAt(0) !== 47) throw new ToonError("INVALID_VALUE", `${JSON.stringify(p)} is not a JSON pointer (it must be "" or start with "/")`);
  return p
    .slice(1)
    .split("/")
    .map((s) => (s.indexOf("~") === -1 ? s : s.replace(/~1/g, "/").replace(/~0/g, "~")));
}

export function pointerOf(tokens: readonly Token[]): string {
  let s = "";
  for (const t of tokens) s += pointerSegment(t);
  return s;
}

export function indexToken(tok: Token): number {
  if (typeof tok === "number") return Number.isInteger(tok) && tok >= 0 && tok <= MAX_STREAM_ROW ? tok : -1;
  if (!/^(0|[1-9][0-9]{0,9})$/.test(tok)) return -1;
  const n = Number(tok);
  return n <= MAX_STREAM_ROW ? n : -1;
}

export const scratch = new Writer(256);

/** Payload kinds of `StreamEncoder.make`. */
export const P_NONE = 0;

export const P_VALUE = 1;

export const P_COUNT = 2;

export const P_TEXT = 3;

export function stepError(c: Cursor, tok: Token, why: string): ToonError {
  return new ToonError("INVALID_VALUE", why, { path: pointerOf([...c.tokens, tok]) });
}
