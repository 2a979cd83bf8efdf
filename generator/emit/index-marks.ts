/**
 * Where a module with a field index (`"index"`, emit/peek.ts plans it) marks the start of an indexed value in its
 * writers: per module, object shape and property, the slot. Apart from peek.ts so that the writers (write.ts,
 * extends.ts) read the marks without importing the peek emitter, which imports the readers.
 */
import { code, name, type Code } from "../../templates/code.ts";
import type { ObjectShape } from "../ir/types.ts";
import type { ModuleContext } from "./context.ts";

/** Object shape -> property index -> index slot, per module being emitted. */
const marksOf = new WeakMap<ModuleContext, Map<ObjectShape, Map<number, number>>>();

/** The marks of the module `cx` emits (planFieldIndex, once per module). */
export function setIndexMarks(cx: ModuleContext, marks: Map<ObjectShape, Map<number, number>>): void {
  marksOf.set(cx, marks);
}

/** Whether the writer of `s` records where some of its properties start (an indexed object). */
export function hasIndexMarks(cx: ModuleContext, s: ObjectShape): boolean {
  return marksOf.get(cx)?.has(s) === true;
}

/**
 * The write statements of property `i` of `s`, marked when it is an indexed value: the writer records where
 * it starts (and the string-table size), and references nothing written before it.
 */
export function indexMark(cx: ModuleContext, s: ObjectShape, i: number, body: Code): Code {
  const slot = marksOf.get(cx)?.get(s)?.get(i);
  if (slot === undefined) return body;
  const prev = name(`$ix${slot}`);
  return code`const ${prev} = $rt.fieldStart(w, ${slot});
${body}
w.floor = ${prev};`;
}
