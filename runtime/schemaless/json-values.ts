/**
 * What inference, the body writer and the body reader ask of a JSON value alike: its own keys as JSON.stringify
 * writes them, a map key that keeps 0 and -0 apart, which numbers are integers the wire carries, how long a
 * string and a varint are in bytes.
 */


export const objectProto = Object.prototype;

export const hasOwnProperty = objectProto.hasOwnProperty;

/** Own keys whose value is not undefined (what JSON.stringify writes), in order. */
export function ownKeys(o: Record<string, unknown>): string[] {
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) {
    if (o[keys[i]!] === undefined) return keys.filter((k) => o[k] !== undefined);
  }
  return keys;
}

const NEG_ZERO = Symbol("-0");

/** Map key of a scalar: SameValueZero would merge 0 and -0. */
export function scalarKey(v: unknown): unknown {
  return v === 0 && 1 / (v as number) < 0 ? NEG_ZERO : v;
}

export function varintSize(n: number): number {
  let s = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    s++;
  }
  return s;
}

export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c < 0x800 ? 1 : c >= 0xd800 && c < 0xdc00 ? 0 : 2;
  }
  return n;
}

export function isSafeInt(x: number): boolean {
  return Number.isSafeInteger(x) && (x !== 0 || 1 / x > 0);
}

/** An integer the INT kind carries: integral, not -0, within [-2^63, 2^64). */
export function isWireInt(x: number): boolean {
  return Number.isInteger(x) && x >= -9223372036854775808 && x < 18446744073709551616 && (x !== 0 || 1 / x > 0);
}
