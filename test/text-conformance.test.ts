/**
 * TOON v4.0 conformance: runs every fixture of /work/shared/toon-spec/fixtures (the repo's sibling `../shared`).
 * - encode fixtures: exact output string, plus decode(encode(input)) deep-equals the input;
 * - decode fixtures: `assert.deepStrictEqual` with the expected value;
 * - shouldError fixtures: a ToonError with code TEXT_SYNTAX (or DEPTH_LIMIT) carrying 1-based line and column.
 * Skips without failing (printing a notice) when the shared folder is absent.
 */

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { ToonError } from "../runtime/wire/errors.ts";
import { decodeText, encodeText } from "../runtime/text/index.ts";
import type { TextDecodeOptions, TextEncodeOptions } from "../runtime/text/index.ts";

/** Fixtures deliberately skipped, with the reason. Empty: every fixture runs. */
export const SKIPPED_FIXTURES: readonly { file: string; name: string; reason: string }[] = [];

interface Fixture {
  name: string;
  input: unknown;
  expected: unknown;
  shouldError?: boolean;
  options?: TextEncodeOptions & TextDecodeOptions;
  minSpecVersion?: string;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const fixturesDir = join(resolve(repoRoot, "../shared"), "toon-spec", "fixtures");
const available = existsSync(fixturesDir);

console.log(
  SKIPPED_FIXTURES.length === 0
    ? "text conformance: no fixtures skipped"
    : "text conformance: skipped fixtures:\n" + SKIPPED_FIXTURES.map((s) => `  ${s.file} – ${s.name}: ${s.reason}`).join("\n"),
);
if (!available) console.log(`text conformance: ${fixturesDir} not found – fixture tests skipped`);

function skipReason(file: string, name: string): string | undefined {
  return SKIPPED_FIXTURES.find((s) => s.file === file && s.name === name)?.reason;
}

function load(category: "encode" | "decode"): [string, Fixture[]][] {
  const dir = join(fixturesDir, category);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => [`${category}/${f}`, (JSON.parse(readFileSync(join(dir, f), "utf8")) as { tests: Fixture[] }).tests]);
}

if (!available) {
  test("TOON text fixtures", { skip: `shared fixtures not found at ${fixturesDir}` }, () => {});
} else {
  const counts = { encode: 0, decode: 0, errors: 0 };

  for (const [file, fixtures] of load("encode")) {
    describe(file, () => {
      for (const fx of fixtures) {
        counts.encode++;
        test(fx.name, { skip: skipReason(file, fx.name) }, () => {
          const out = encodeText(fx.input, fx.options);
          assert.equal(out, fx.expected);
          // Round trip under §2 JSON-model equality (-0 equals 0; tabular key reordering is invisible to
          // deepStrictEqual). JSON.stringify maps -0 to 0.
          assert.deepStrictEqual(decodeText(out, { indentSize: fx.options?.indentSize }), JSON.parse(JSON.stringify(fx.input)));
        });
      }
    });
  }

  for (const [file, fixtures] of load("decode")) {
    describe(file, () => {
      for (const fx of fixtures) {
        test(fx.name, { skip: skipReason(file, fx.name) }, () => {
          const text = fx.input as string;
          if (fx.shouldError) {
            counts.errors++;
            assert.throws(
              () => decodeText(text, fx.options),
              (e: unknown) => {
                assert.ok(e instanceof ToonError, `expected a ToonError, got ${String(e)}`);
                assert.ok(e.code === "TEXT_SYNTAX" || e.code === "DEPTH_LIMIT", `unexpected code ${e.code}`);
                const lines = text.split("\n").length;
                assert.ok(Number.isInteger(e.line) && e.line! >= 1 && e.line! <= lines, `line ${e.line} out of 1..${lines}`);
                assert.ok(Number.isInteger(e.column) && e.column! >= 1, `column ${e.column}`);
                return true;
              },
            );
          } else {
            counts.decode++;
            assert.deepStrictEqual(decodeText(text, fx.options), fx.expected);
          }
        });
      }
    });
  }

  test("fixture counts", () => {
    console.log(`text conformance: ${counts.encode} encode, ${counts.decode} decode, ${counts.errors} error fixtures; ${SKIPPED_FIXTURES.length} skipped`);
    assert.ok(counts.encode > 0 && counts.decode > 0 && counts.errors > 0);
  });
}
