/**
 * How a benchmark child process times one operation (bench/child.ts, bench/dense.ts, bench/dense-ceiling.ts):
 * a warm-up that also calibrates the iteration count, then timed batches of that many calls, each reported as
 * ops per wall-second and ops per CPU-second of the process. A module of its own, with no codecs, so that a child
 * loads only what it times.
 */

let sink: unknown;
const now = (): number => performance.now();

export interface Measured {
  wall: number[];
  cpu: number[];
  iters: number;
}

export function measure(fn: () => unknown, warmupMs: number, batchMs: number, batches: number): Measured {
  let n = 0;
  const t0 = now();
  let t = t0;
  do {
    sink = fn();
    n++;
    t = now();
  } while (t - t0 < warmupMs || n < 10);
  const iters = Math.max(1, Math.round(batchMs / ((t - t0) / n)));
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let b = 0; b < batches; b++) {
    const c0 = process.cpuUsage();
    const s = now();
    for (let i = 0; i < iters; i++) sink = fn();
    const e = now();
    const c = process.cpuUsage(c0);
    wall.push(iters / ((e - s) / 1000));
    cpu.push(iters / ((c.user + c.system) / 1e6));
  }
  if (sink === Symbol.for("never")) console.error("unreachable");
  return { wall, cpu, iters };
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
