/**
 * The fuzz target of the runtime's JSON reader (runtime/text/reader/json.ts): mutated JSON texts (the examples'
 * data, and JSON with the slips the repair mode reads) read whole and in pieces of 1-8 characters (the piece sizes
 * drawn from the text itself, so a case replays the same), strictly and in repair mode. Each must give a value or
 * a ToonError, and the pieces the same outcome as the whole text: a difference is a failure (thrown as an Error).
 */
import { ToonError } from "../../runtime/wire/errors.ts";
import { JsonReader } from "../../runtime/text/reader/json.ts";
import { JsonValueBuilder, type JsonValueOptions } from "../../runtime/text/reader/json-value.ts";
import { exampleJsonTexts } from "../support/example-data.ts";
import { Rng } from "../support/rng.ts";
import type { Target } from "./targets.ts";

const SLIPS = ["{'a': [True, None, 1,], // c\n \"b\": \"x\ny\" /* d */", '{"a":[1,-2.5e+3,"\\u00e9\\ud83d\\ude00",{"__proto__":null}],"b":12345678901234567890}', "[1e999, -0, 0.5]"];

/** The value (or the ToonError's facts) of `text` read in the pieces `size` gives; any other exception is thrown. */
function read(text: string, options: JsonValueOptions, size: () => number): string {
  const builder = new JsonValueBuilder(options);
  const reader = new JsonReader(builder, options);
  builder.reader = reader;
  try {
    for (let i = 0; i < text.length; ) {
      const n = size();
      reader.push(text.slice(i, i + n));
      i += n;
    }
    reader.end();
    return JSON.stringify(builder.value, (_k, v) => (typeof v === "bigint" ? `${v}n` : typeof v === "object" && v !== null && "raw" in v ? `TN:${String(v.raw)}` : v));
  } catch (e) {
    if (!(e instanceof ToonError)) throw e;
    return `${e.code} ${e.line}:${e.column} ${e.path} ${e.message}`;
  }
}

export function jsonReaderTarget(): Target {
  const seeds = [...SLIPS, ...exampleJsonTexts().map((f) => f.text.slice(0, 4000))];
  return {
    name: "json-reader",
    input: "text",
    seeds,
    run: (text: string) => {
      const rng = new Rng(text.length);
      for (const options of [{}, { repair: true }, { numbers: "bigint", duplicates: "last", loneSurrogates: true }] as JsonValueOptions[]) {
        const whole = read(text, options, () => text.length || 1);
        const pieces = read(text, options, () => rng.int(1, 8));
        if (pieces !== whole) throw new Error(`read in pieces: ${pieces.slice(0, 200)}; whole: ${whole.slice(0, 200)}`);
      }
      return parse(text);
    },
  };
}

/** The strict reading, thrown as its ToonError (what the harness judges). */
function parse(text: string): unknown {
  const builder = new JsonValueBuilder();
  const reader = new JsonReader(builder);
  builder.reader = reader;
  reader.push(text);
  reader.end();
  return builder.value;
}
