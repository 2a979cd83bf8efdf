/**
 * The fuzz target of the streaming text reader (runtime/text/reader/text-reader.ts, a codec's `reader()`): model
 * replies (the orders and extraction examples in dense, TOON v4 and JSON, fenced, bare, in prose, after a
 * reasoning block) and hostile ones (a line that never ends, huge counts, deep nesting, a fence that never
 * closes, a string or a line of prose or backticks that never ends), mutated, read whole and in seeded pieces of 1-8 characters, and in pieces
 * with `partialText` (a snapshot after each). Each must give a value or a ToonError, and the pieces the same outcome
 * as the whole reply: a difference is a failure (thrown as an Error).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import { REPO } from "../support/gen.ts";
import { Rng } from "../support/rng.ts";
import type { Target } from "./targets.ts";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Codec = any;

function replies(c: Codec, value: unknown): string[] {
  const dense = c.toText(value, { layout: "dense" });
  const toon = c.toText(value);
  return [
    `Here it is:\n\n\`\`\`toon\n${dense}\n\`\`\`\n`,
    dense,
    `<think>\nrows\n</think>\n${toon}`,
    "```json\n" + JSON.stringify(value) + "\n```",
    `Result: ${JSON.stringify(value)} (done)`,
  ];
}

/** Replies no writer makes: what a hostile stream sends. */
function hostile(dense: string): string[] {
  const header = dense.slice(0, dense.indexOf("\n"));
  return [
    "orders[999999999]{id,total}:\n  a,1\n",
    `${header.replace(/\[\d+\]/, "[2]")}\n  ${"x,".repeat(5000)}`,
    "```toon\n" + "a:\n".repeat(0) + "x" + "{a".repeat(1200) + "}: 1\n",
    "orders:\n" + "  ".repeat(1) + "- " + "[1:".repeat(2000),
    "```json\n" + "[".repeat(3000) + "]".repeat(3000) + "\n```",
    "```toon\n" + dense.slice(0, 200),
    "<think>" + "x".repeat(3000),
    "```toon\nmodel: " + "word, ".repeat(4000),
    // lines that never end, read by what each piece adds (read whole at every piece, they cost the square)
    "Here is my answer: " + "word ".repeat(40000),
    "```toon\n" + "`".repeat(100000),
    "documents[1]{id,text}:\n  a,\"" + "quoted \\\" text ".repeat(2000),
  ];
}

/** The outcome of `reply` read by a fresh reader in the pieces `size` gives: the value's JSON or the error's facts. */
function read(c: Codec, reply: string, size: () => number, input: "reply" | "text", partialText = false): { text: string; value?: unknown; error?: ToonError } {
  const r = c.reader({ input, partialText });
  try {
    for (let i = 0; i < reply.length; ) {
      const n = size();
      const events = r.push(reply.slice(i, i + n));
      if (partialText && events.length > 0) void r.snapshot({ partialText: true });
      i += n;
    }
    const value = r.end();
    void r.snapshot();
    return { text: JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)), value };
  } catch (e) {
    if (!(e instanceof ToonError)) throw e;
    return { text: `${e.code} ${e.line}:${e.column} ${e.path}`, error: e };
  }
}

export async function textReaderTarget(): Promise<Target> {
  const { OrderList } = (await import(path.join(REPO, "examples/orders/gen/order-list.ts"))) as { OrderList: Codec };
  const { ExtractionResult } = (await import(path.join(REPO, "examples/extraction/gen/extraction-result.ts"))) as { ExtractionResult: Codec };
  const orders = JSON.parse(readFileSync(path.join(REPO, "examples/orders/data/order-list.json"), "utf8")) as { orders: unknown[] };
  const extraction = JSON.parse(readFileSync(path.join(REPO, "examples/extraction/data/extraction-result.json"), "utf8")) as { documents: unknown[] };
  // small values (a few rows): mutations land everywhere in them
  const few = { orders: orders.orders.slice(0, 3) };
  const docs = { ...extraction, documents: extraction.documents.slice(0, 2) };
  const seeds = [...replies(OrderList, few), ...replies(ExtractionResult, docs), ...hostile(OrderList.toText(few, { layout: "dense" }))];
  const codecs = [OrderList, ExtractionResult];
  return {
    name: "text-reader",
    input: "text",
    seeds,
    run: (text: string) => {
      const rng = new Rng(text.length);
      // the codec the text was made for is the one whose root key it names (either reads any text: both are tried)
      const c = text.includes("documents") ? codecs[1] : codecs[0];
      let first: { text: string; value?: unknown; error?: ToonError } | undefined;
      for (const input of ["reply", "text"] as const) {
        const whole = read(c, text, () => text.length || 1, input);
        const pieces = read(c, text, () => rng.int(1, 8), input);
        if (pieces.text !== whole.text) throw new Error(`${input} read in pieces: ${pieces.text.slice(0, 200)}; whole: ${whole.text.slice(0, 200)}`);
        const partial = read(c, text, () => rng.int(1, 8), input, true);
        if (partial.text !== whole.text) throw new Error(`${input} read in pieces with partialText: ${partial.text.slice(0, 200)}; whole: ${whole.text.slice(0, 200)}`);
        first ??= whole;
      }
      if (first!.error !== undefined) throw first!.error;
      return first!.value;
    },
  };
}
