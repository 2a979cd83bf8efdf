/** Equality of decoded values for round-trip property tests (test/random-schemas.test.ts, scripts/fuzz.ts). */

/**
 * Equal as decoded values. An int64 given as a double beyond 2^53 decodes to the bigint of its value (binary and
 * TOON text alike: docs/FORMAT.md §3.2). `loose`: -0 may come back as 0 (the TOON spec's number normalization;
 * binary, where a union of integer and number takes the integer branch for -0). `toon`: also a bigint beyond
 * 2^53 as its quoted digits (how TOON v4 writes one, which a union with a string branch reads as that string).
 */
export function sameDecoded(a: unknown, b: unknown, toon = false, loose = toon): boolean {
  if (typeof a === "bigint" || typeof b === "bigint") {
    if (typeof a === "bigint" && typeof b === "bigint") return a === b;
    const [big, other] = (typeof a === "bigint" ? [a, b] : [b, a]) as [bigint, unknown];
    if (typeof other === "number") return Number.isInteger(other) && BigInt(other) === big;
    return toon && other === big.toString();
  }
  if (typeof a === "number" && typeof b === "number") return loose ? a === b || (a !== a && b !== b) : Object.is(a, b);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(y, k) && sameDecoded(x[k], y[k], toon, loose));
}

