/**
 * The dense layout's prompt snippet, built at run time from the module's TOON instructions (their example value,
 * decoded from its ```toon block, written again by the dense writer; their notes kept) so that a module carries
 * one example, and an app that never asks for dense instructions carries none of this.
 */
import { decodeText } from "../decode.ts";
import { denseOf } from "./index.ts";
import type { DenseSource } from "./model.ts";

const RULES = [
  "Dense TOON rules: 2-space indentation; `key: value` fields; `key{a,b}: x,y` is an object with fields a and b;",
  "`key[N]: x,y` is an array of N values; `key[N]{a,b}:` is a table of N objects, one comma-separated row per",
  "object (indented, or at the start of the line when the table ends the reply). Cells follow their header in order: `f{x,y}` in a header is a nested object taking one cell per field,",
  "`f[]{x,y}` an array written in one cell as `[N:x,y;x,y]` (items separated by `;`; an item may stop before its",
  'trailing empty cells). Leave a cell empty when an optional field is absent; write "" for an empty string.',
  'Quote a string (JSON style) only when it contains `,` `;` `]` `"` or a backslash, or begins or ends with a',
  "space. Timestamps may be written as 20250314T085734Z (ISO 8601 basic form, UTC) or 2025-03-14T08:57:34Z, and",
  "dates as 20250314 or 2025-03-14; a number between -1 and 1 may drop its leading zero (.5 is 0.5).",
  "Set each N to the real count.",
].join("\n");

const cache = new WeakMap<DenseSource, string>();

export function denseInstructions(toon: string, src: DenseSource): string {
  let s = cache.get(src);
  if (s !== undefined) return s;
  const open = toon.indexOf("```toon\n");
  const close = toon.indexOf("\n```", open + 8);
  const example = open < 0 || close < 0 ? "" : toon.slice(open + 8, close);
  const notes = toon.indexOf("\n\nNotes:\n");
  const dense = denseOf(src).lines(decodeText(example));
  s = [
    "Reply with dense TOON in a ```toon block, in exactly this shape:",
    "",
    "```toon",
    dense,
    "```",
    "",
    RULES,
  ].join("\n") + (notes < 0 ? "" : toon.slice(notes));
  cache.set(src, s);
  return s;
}
