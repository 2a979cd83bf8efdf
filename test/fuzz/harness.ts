/**
 * One fuzz case and its verdict (issue 12's contract): the decoder returns a value the schema's encoder takes,
 * or throws a ToonError with a string code and a string JSON-pointer path. Anything else (a TypeError, a
 * RangeError, a value `encode` refuses) is a failure, reported with the input so it can become a fixture.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { ToonError } from "../../runtime/wire/errors.ts";
import { chunks, fromHex, mutateBytes, mutateText, toHex } from "./mutate.ts";
import type { Target } from "./targets.ts";
import { Rng } from "../support/rng.ts";

export interface Outcome {
  /** "open": a failure of a kind already filed (Target.open). */
  kind: "value" | "error" | "failure" | "open";
  /** The ToonError code (kind "error"), or why the case failed. */
  detail: string;
  /** What the decoder returned (kept so that a memory measurement can see it alive). */
  value?: unknown;
}

/** Run one input through a target and judge the result. */
export function judge(target: Target, input: Uint8Array | string | Uint8Array[]): Outcome {
  let value: unknown;
  try {
    value = (target.run as (x: unknown) => unknown)(input);
  } catch (e) {
    if (e instanceof ToonError) {
      if (typeof e.code !== "string" || (e.code as string) === "" || typeof e.path !== "string" || (e.path !== "" && e.path[0] !== "/")) {
        return { kind: "failure", detail: `ToonError without a code or JSON-pointer path: ${e.message}` };
      }
      return { kind: "error", detail: e.code };
    }
    return { kind: "failure", detail: `threw ${(e as Error)?.name ?? typeof e}: ${(e as Error)?.message ?? String(e)}` };
  }
  if (target.accept !== undefined) {
    try {
      target.accept(value);
    } catch (e) {
      const detail = `decoded a value its encoder refuses: ${(e as Error)?.message ?? String(e)}`;
      return { kind: target.open?.test(detail) ? "open" : "failure", detail };
    }
  }
  return { kind: "value", detail: "", value };
}

/** A mutated input for case `i` of `target` (deterministic for the seed). */
export function caseInput(target: Target, rng: Rng): { how: string; input: Uint8Array | string | Uint8Array[]; size: number } {
  const seed = rng.pick(target.seeds);
  const rounds = rng.int(1, 3);
  if (target.input === "text") {
    let text = seed as string;
    const hows: string[] = [];
    for (let r = 0; r < rounds; r++) {
      const m = mutateText(rng, text);
      text = m.text;
      hows.push(m.how);
    }
    return { how: hows.join("+"), input: text, size: text.length };
  }
  let bytes = seed as Uint8Array;
  const hows: string[] = [];
  for (let r = 0; r < rounds; r++) {
    const m = mutateBytes(rng, bytes);
    bytes = m.bytes;
    hows.push(m.how);
  }
  if (target.input === "chunks") return { how: hows.join("+") + "+split", input: chunks(rng, bytes), size: bytes.length };
  return { how: hows.join("+"), input: bytes, size: bytes.length };
}

/** A failing input as a fixture file (test/fuzz/regressions/<target>-<hash>.json), replayed by test/fuzz.test.ts. */
export interface Fixture {
  target: string;
  /** hex bytes (bytes targets), the text (text targets), or hex chunks (chunks targets). */
  input: string | string[];
  /** What went wrong when it was found. */
  found: string;
}

export const REGRESSIONS = path.join(path.dirname(new URL(import.meta.url).pathname), "regressions");
/** Inputs of open findings (Target.open), one per kind: replayed as todo tests. */
export const OPEN = path.join(path.dirname(new URL(import.meta.url).pathname), "open");

export function fixtureOf(target: Target, input: Uint8Array | string | Uint8Array[], found: string): Fixture {
  const encoded = typeof input === "string" ? input : Array.isArray(input) ? input.map(toHex) : toHex(input);
  return { target: target.name, input: encoded, found };
}

export function writeFixture(f: Fixture): string {
  mkdirSync(REGRESSIONS, { recursive: true });
  const hash = createHash("sha256").update(JSON.stringify(f.input)).digest("hex").slice(0, 12);
  const file = path.join(REGRESSIONS, `${f.target.replace(/[^A-Za-z0-9-]+/g, "-")}-${hash}.json`);
  writeFileSync(file, JSON.stringify(f, null, 2) + "\n");
  return file;
}

export function readFixtures(dir = REGRESSIONS): Fixture[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Fixture);
}

export function fixtureInput(target: Target, f: Fixture): Uint8Array | string | Uint8Array[] {
  if (target.input === "text") return f.input as string;
  if (target.input === "chunks") return (Array.isArray(f.input) ? f.input : [f.input]).map(fromHex);
  return fromHex(f.input as string);
}
