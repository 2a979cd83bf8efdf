/**
 * Where values start, for error reports on a decoded value (`locateText`, the reader's `track` option): line and
 * column of every child, per container, recorded as the reader stores it; the text itself is not kept.
 */
import type { FieldGroup } from "./toon-line.ts";
import type { TextPosition } from "./toon.ts";
import type { R } from "./toon-read.ts";

export function trackAt(s: R, container: object, key: string | number, line: number, column: number): void {
  const track = s.track as Map<object, Map<string | number, TextPosition>>;
  let m = track.get(container);
  if (m === undefined) track.set(container, (m = new Map()));
  m.set(key, { line, column });
}

/** Record where the cells of `row` (s.cpos, in field-group order) start. */
export function trackCells(s: R, row: Record<string, unknown>, g: FieldGroup): void {
  let k = 0;
  const cpos = s.cpos as number[];
  const walk = (o: Record<string, unknown>, h: FieldGroup): void => {
    for (let j = 0; j < h.names.length; j++) {
      const kid = h.kids[j];
      trackAt(s, o, h.names[j], s.ln, cpos[k] - s.ls + 1);
      if (kid === null) k++;
      else walk(o[h.names[j]] as Record<string, unknown>, kid);
    }
  };
  walk(row, g);
}

/**
 * Line and column of the value at JSON pointer `pointer` under `root`: for a path that goes past what was read (a
 * missing property), the position of the deepest container on the way; `start` (the text's first content) for "".
 */
export function locateIn(track: Map<object, Map<string | number, TextPosition>>, root: unknown, pointer: string, start: TextPosition): TextPosition {
  let pos = start;
  let v = root;
  const segs = pointer === "" ? [] : pointer.slice(1).split("/").map((x) => x.replace(/~1/g, "/").replace(/~0/g, "~"));
  for (const seg of segs) {
    // a primitive has no entry in the track (only containers have): the walk ends there too
    const key: string | number = Array.isArray(v) ? Number(seg) : seg;
    const at = track.get(v as object)?.get(key);
    if (at === undefined) break;
    pos = at;
    v = (v as Record<string | number, unknown>)[key];
  }
  return { line: pos.line, column: pos.column };
}
