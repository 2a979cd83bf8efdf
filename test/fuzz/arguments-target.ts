/**
 * Public functions as a fuzz target (issue 26, "every public function, any argument"): every function of the
 * examples' generated groups and of every runtime entry (test/support/public-functions.ts enumerates them from
 * their exports), called with random arguments in their first three places, drawn from the kinds of value the
 * issue names (`wrongValue`). Symbols, bigints, null-prototype objects and revoked proxies as arguments are outside
 * it (hostile values inside a value are the encoders': test/fuzz-regressions.test.ts). Each call must return (or resolve) or throw a ToonError within the time limit, never a bare TypeError
 * or RangeError.
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import * as path from "node:path";
import type { Rng } from "../support/rng.ts";
import { REPO } from "../support/gen.ts";
import { functionsOf, generatedModules, isClass, outcome, runtimeEntries } from "../support/public-functions.ts";

export interface PublicFunction {
  label: string;
  call: (args: unknown[]) => unknown;
}

/** Every public function and class once: generated groups first, then the runtime entries (main entry included). */
export async function publicFunctions(): Promise<PublicFunction[]> {
  const out: PublicFunction[] = [];
  const seen = new Set<unknown>();
  for (const file of generatedModules()) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [exportName, holder, fn, f] of functionsOf(mod)) {
      out.push({ label: `${path.relative(REPO, file)} ${exportName}.${fn}`, call: (args) => (f as (...a: unknown[]) => unknown).apply(holder, args) });
    }
  }
  const main = (await import("../../runtime/index.ts")) as Record<string, unknown>;
  for (const [entry, mod] of [[".", main] as const, ...(await runtimeEntries())]) {
    for (const [name, f] of Object.entries(mod)) {
      if (typeof f !== "function" || seen.has(f)) continue;
      seen.add(f);
      const cls = isClass(f);
      out.push({
        label: `${entry} ${name}`,
        call: (args) => {
          try {
            return cls ? new (f as new (...a: unknown[]) => unknown)(...args) : (f as (...a: unknown[]) => unknown)(...args);
          } catch (e) {
            // throwing back the very value it was handed is what rethrowAt and its kin do (their first argument)
            if (args.length > 0 && Object.is(e, args[0])) return undefined;
            throw e;
          }
        },
      });
    }
  }
  return out;
}

/**
 * A value of the kinds the issue names (null, undefined, a number, a string, an array, a plain object), in their
 * awkward forms: NaN, infinities and huge numbers; empty, binary-looking, JSON- and TOON-looking and 100 KB strings;
 * nested arrays; objects with `__proto__`, `then` or `length` keys, frozen objects, byte arrays. Fresh each time: a
 * callee may keep or change what it is given.
 */
export function wrongValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, 9)) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return rng.pick([0, -0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 53 + 2, Number.MAX_VALUE, 1e-320]);
    case 3:
      return rng.pick(["", "x", "0", "a: 1", "[1]", "{}", '{"a":', "```toon\n", "\u0000\uffff\ud800", "TOON", "orders[2]{id}:\n  1\n  2"]);
    case 4:
      return "x".repeat(rng.int(1_000, 100_000));
    case 5:
      return depth > 1 ? [] : Array.from({ length: rng.int(0, 3) }, () => wrongValue(rng, depth + 1));
    case 6:
      return depth > 1 ? {} : { [rng.pick(["a", "__proto__", "constructor", "toString", "then", "type", "name", ""])]: wrongValue(rng, depth + 1) };
    case 7:
      return new Uint8Array(Array.from({ length: rng.int(0, 16) }, () => rng.int(0, 255)));
    case 8:
      return Object.freeze({ a: 1 });
    default:
      return { length: rng.pick([-1, 2 ** 32, NaN]), 0: "a" };
  }
}

export interface ArgumentCase {
  /** `null` when the call returned or threw a ToonError in time; else what went wrong. */
  failure: string | null;
  ms: number;
}

/** One call of `f` with 0 to 3 random arguments. */
export async function argumentCase(f: PublicFunction, rng: Rng, msLimit: number): Promise<ArgumentCase> {
  const args = Array.from({ length: rng.int(0, 3) }, () => wrongValue(rng));
  const started = performance.now();
  const e = await outcome(() => f.call(args));
  const ms = performance.now() - started;
  const shown = args.map((a) => (typeof a === "string" && a.length > 40 ? `"${a.slice(0, 20)}…" (${a.length})` : typeof a === "symbol" || typeof a === "bigint" ? String(a) : safeJson(a))).join(", ");
  if (e !== null) return { failure: `${f.label}(${shown}): ${(e as Error)?.name}: ${String((e as Error)?.message).slice(0, 160)}`, ms };
  if (ms > msLimit) return { failure: `${f.label}(${shown}): took ${ms.toFixed(0)} ms`, ms };
  return { failure: null, ms };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v)?.slice(0, 60) ?? String(v);
  } catch {
    return typeof v === "object" ? "(an object JSON cannot show)" : typeof v;
  }
}
