/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) for reproducible property tests: the same seed gives
 * the same sequence on every machine and Node version, so a failing case is reported by its seed and replayed.
 */

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: number) {
    const sm = splitmix32(seed);
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [lo, hi] (inclusive; both safe integers, hi - lo < 2^32). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[this.int(0, items.length - 1)]!;
  }

  /** `text` cut into seeded random pieces of 1 to 8 characters (a stream of model deltas, in tests). */
  static pieces(text: string, seed: number): string[] {
    const rng = new Rng(seed);
    const out: string[] = [];
    for (let i = 0; i < text.length; ) {
      const n = rng.int(1, 8);
      out.push(text.slice(i, i + n));
      i += n;
    }
    return out;
  }

  /** A fresh generator derived from this one (for independent sub-streams). */
  fork(): Rng {
    return new Rng(this.u32());
  }
}
