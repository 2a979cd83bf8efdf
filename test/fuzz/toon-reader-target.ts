/**
 * The fuzz target of the resumable TOON v4 reader (runtime/text/reader/toon.ts): mutated TOON texts (the examples'
 * data as `encodeText` writes it, and texts of the forms the examples lack) read in pieces of 1-8 characters (the
 * sizes drawn from the text itself, so a case replays the same), strictly and not, with `snapshot()` between
 * pieces. Each must give a value or a ToonError: the outcome of the text pushed in one piece, and of the whole
 * text (`decodeText`). A difference is a failure (thrown as an Error), but for one the reader has by design: a
 * whole text reports its lone surrogates and indentation errors before any other, pushed pieces the first line
 * that fails, so against `decodeText` an error on an earlier line may come first.
 */
import { isDeepStrictEqual } from "node:util";
import { ToonError } from "../../runtime/wire/errors.ts";
import { decodeText, encodeText } from "../../runtime/text/index.ts";
import { ToonTextReader } from "../../runtime/text/reader/toon.ts";
import { exampleJsonTexts } from "../support/example-data.ts";
import { Rng } from "../support/rng.ts";
import type { Target } from "./targets.ts";

const FORMS = [
  "[2:]{id,tags}:\n  a: 1,x\n  \"b c\": 2,y",
  "m[2:|]{v{w|x}}:\n  k: 1|2\n  j: 3|4",
  "[3]:\n  - [2]: 1,2\n  - - x\n  -\n",
  "root\n",
  "[0]:",
  "a:\n  b:\n    c[2]{x,y}:\n      1,\"q:r\"\n      3,4\n  d: -0\n# note\ne: 1e999",
];

type Outcome = { value: unknown } | { error: ToonError };

function read(text: string, strict: boolean, size: () => number): Outcome {
  const r = new ToonTextReader({ strict });
  // a snapshot copies the open containers: after every piece of a short text, every few of a long one (a caller
  // that takes one per piece of a long text pays that, not the reader)
  const every = Math.max(1, Math.floor(text.length / 4000));
  try {
    for (let i = 0, k = 0; i < text.length; k++) {
      const n = size();
      r.push(text.slice(i, i + n));
      i += n;
      if (k % every === 0) r.snapshot();
    }
    return { value: r.end() };
  } catch (e) {
    r.snapshot();
    if (e instanceof ToonError) return { error: e };
    throw e;
  }
}

function decoded(text: string, strict: boolean): Outcome {
  try {
    return { value: decodeText(text, { strict }) };
  } catch (e) {
    if (e instanceof ToonError) return { error: e };
    throw e;
  }
}

const facts = (e: ToonError): unknown => [e.code, e.message, e.line, e.column, e.path, e.atEnd, e.count];

/** Whether two readings gave the same (`earlier`: or `a` an error on an earlier line than `b`'s, see above). */
function agrees(a: Outcome, b: Outcome, earlier: boolean): boolean {
  if ("value" in a) return "value" in b && isDeepStrictEqual(a.value, b.value);
  if ("value" in b) return false;
  return isDeepStrictEqual(facts(a.error), facts(b.error)) || (earlier && (a.error.line ?? 0) < (b.error.line ?? 0));
}

const show = (o: Outcome): string => ("value" in o ? String(JSON.stringify(o.value)).slice(0, 200) : o.error.message);

export function toonReaderTarget(): Target {
  const seeds = [...FORMS, ...exampleJsonTexts().map((e) => encodeText(JSON.parse(e.text)))];
  return {
    name: "toon-reader",
    input: "text",
    seeds,
    run: (text: string) => {
      const rng = new Rng(text.length);
      let all: Outcome = { value: undefined };
      for (const strict of [false, true]) {
        all = decoded(text, strict);
        const pieces = read(text, strict, () => rng.int(1, 8));
        const one = read(text, strict, () => text.length || 1);
        if (!agrees(pieces, one, false)) throw new Error(`strict ${strict}: pushed in pieces: ${show(pieces)}; in one piece: ${show(one)}`);
        if (!agrees(pieces, all, true)) throw new Error(`strict ${strict}: read in pieces: ${show(pieces)}; whole: ${show(all)}`);
      }
      // the strict reading is the case's outcome
      if ("error" in all) throw all.error;
      return all.value;
    },
    accept: (v) => void encodeText(v),
  };
}
