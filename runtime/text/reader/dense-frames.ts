/**
 * The dense reader's frames (./dense.ts): each open scope that spans lines (an object's field lines, a table's
 * rows, a list's items, a keyed table's entries, a `key:` whose block follows) is one frame on an explicit stack;
 * a line goes to the top frame, which reads it (CONSUMED), closes (POP: the line goes to the frame below) or
 * hands it on changed (AGAIN).
 */
import type { ShapeInfo } from "../dense/model.ts";
import type { Pos } from "./dense-line.ts";
import type { BGroup } from "./dense-headers.ts";

// Frame kinds
/** An object's field lines at `ind` (`first`: the first one starts at that offset of the current line). */
export const FIELDS = 1;
/** A discriminated union's object whose discriminator line comes next. */
export const VARIANT = 2;
/** A table's rows. */
export const TABLE = 3;
/** A list's items. */
export const LIST = 4;
/** A value read as `any` lays it out, checked against the union it stands for when it is complete. */
export const VIA = 5;
/** `key:` and nothing a block can be: the next line (or the end) is the error. */
export const COLON = 6;
/** A root whose first line alone is `null`, `true` or `false`: that scalar when no line follows. */
export const ROOT_LITERAL = 7;
/** A map's keyed table (`key[N:]{hdr}:`): an entry per line, `key: cells`. */
export const KEYED = 8;

/** What a frame did with the line: read it, is over (the line is its parent's), or opened a frame that reads it. */
export const CONSUMED = 0;
export const POP = 1;
export const AGAIN = 2;

/** A value that continues on the lines after this one (its frame is on the stack); READ_LINE: from this line. */
export const PENDING = Symbol("pending");
export const READ_LINE = Symbol("read line");

export const LITERALS = ["null", "true", "false"];

/** A fields frame's `first` for an object written as "-" alone: it closes with the next line (or the end). */
export const CLOSE_NEXT = -2;

/** One open scope. Every frame has every field (one hidden class). */
export interface Frame {
  t: number;
  info: ShapeInfo;
  ind: number;
  o: Record<string, unknown> | null;
  out: unknown[] | null;
  b: BGroup | null;
  /** Tables and lists: the count declared and the rows or items read; ROOT_LITERAL: the literal and its line. */
  n: number;
  i: number;
  /**
   * Fields of a discriminated union's object: the discriminator (a field line of it is an error) and, when the
   * object is rebuilt with it first as it closes, its value (else it is in `o` from the start).
   */
  skip: string | undefined;
  disc: unknown;
  first: number;
  /** The child being read (an error in it gets this path segment). */
  key: string | number | undefined;
  /** The nesting depth before this frame opened (restored when it closes). */
  d0: number;
  /** Tables and lists: the header's `[`; VIA: where the value began. */
  at: Pos | null;
  /** KEYED: the map's own info (its entries complete it). */
  map: ShapeInfo | null;
  /** TABLE: its rows are flush left, at the header's own indentation (a table at depth 0; its first row says). */
  flush: boolean;
  /** FIELDS: the property read last (-1: none yet), whose follower in `info.follows` is matched first. */
  next: number;
}

/** What a reader of typed events hears from the dense reader. */
export interface DenseReaderHooks {
  /**
   * A value the reader stores is complete: a field line's value, a table row, a list item, or an object, table or
   * list whose lines are over (after the values in it). `path` holds the keys from the root to the value it is
   * stored in, at `key`. Values inside a union laid out as `any` are not told until the union's whole value is.
   */
  child(path: readonly (string | number)[], key: string | number, value: unknown): void;
}

export function frame(t: number, info: ShapeInfo, ind: number, d0: number): Frame {
  return { t, info, ind, o: null, out: null, b: null, n: 0, i: 0, skip: undefined, disc: undefined, first: -1, key: undefined, d0, at: null, map: null, flush: false, next: -1 };
}
