// Deterministic sample data for schemas/log-report.schema.json.
// Run: node --import tsx examples/logs/make-data.ts   (rewrites data/log-report.json)
// Same seed → byte-identical output: a seeded PRNG, fixed epochs, no Math.random/Date.now.

import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface TimeWindow { start: string; end: string; bucketSeconds: number }
export interface LevelCounts { debug: number; info: number; warn: number; error: number; fatal: number }
export interface Latency { p50: number; p90: number; p99: number; max: number }
export interface TopError {
  message: string;
  level: "error" | "fatal";
  count: number;
  firstSeen: string;
  lastSeen: string;
  sampleTraceIds: string[];
}
export interface ServiceGroup {
  service: string;
  version: string;
  healthy: boolean;
  instances: number;
  counts: LevelCounts;
  errorRate: number;
  latencyMs: Latency;
  bytesIngested: number;
  tags: string[];
  incidentId?: string | null;
  topErrors: TopError[];
}
export interface LogReport {
  reportId: string;
  query: string;
  window: TimeWindow;
  environment: "production" | "staging" | "development";
  region: string;
  truncated: boolean;
  totalEvents: number;
  totalBytes: number;
  services: ServiceGroup[];
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICES = [
  "api-gateway", "auth-service", "order-service", "payment-service", "inventory-service",
  "search-service", "recommendation-engine", "notification-worker", "llm-router", "embedding-service",
  "user-profile", "billing-batch", "vector-db-proxy", "cdn-log-shipper",
];

const TAGS = ["team:platform", "team:commerce", "team:ml", "tier:1", "tier:2", "lang:go", "lang:java", "lang:python", "lang:ts", "k8s", "canary", "pci", "gpu", "cn-mirror"];

const ERRORS: [string, "error" | "fatal"][] = [
  ["upstream request timeout after <n>ms", "error"],
  ["connection reset by peer (redis://cache-<n>:6379)", "error"],
  ["deadline exceeded calling inventory.v1.Stock/Reserve", "error"],
  ["failed to acquire DB connection from pool: pool exhausted", "error"],
  ["JWT validation failed: token expired", "error"],
  ["rate limit exceeded for tenant <id>", "error"],
  ["payment provider returned HTTP 502", "error"],
  ["kafka producer: message too large (<n> bytes)", "error"],
  ["context length exceeded: <n> tokens > 128000", "error"],
  ["CUDA out of memory while allocating <n> MiB", "fatal"],
  ["null pointer dereference in OrderMapper.toDto", "error"],
  ["schema validation failed: /items/<n>/price must be number", "error"],
  ["TLS handshake failed: certificate has expired", "error"],
  ["OOMKilled: container exceeded memory limit", "fatal"],
  ["下游服务不可用: 503 Service Unavailable", "error"],
  ["idempotency key conflict for order <id>", "error"],
];

const WINDOW_START = Date.UTC(2025, 2, 14, 8, 0, 0); // 2025-03-14T08:00:00Z
const WINDOW_HOURS = 6;

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function makeData(seed = 0x10c5): LogReport {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
  const hex = (n: number) => Array.from({ length: n }, () => "0123456789abcdef"[int(0, 15)]).join("");
  const end = WINDOW_START + WINDOW_HOURS * 3600_000;

  const services: ServiceGroup[] = SERVICES.map((service, si) => {
    const scale = 10 ** (4 + rnd() * 2.4) / (si + 1) ** 0.5;
    const info = Math.round(scale);
    const counts: LevelCounts = {
      debug: Math.round(scale * (0.2 + rnd() * 1.5)),
      info,
      warn: Math.round(info * (0.005 + rnd() * 0.05)),
      error: Math.round(info * (0.0005 + rnd() * 0.01)),
      fatal: rnd() < 0.3 ? int(1, 4) : 0,
    };
    const p50 = round(3 + rnd() * 60, 2);
    const latencyMs: Latency = {
      p50,
      p90: round(p50 * (1.8 + rnd()), 2),
      p99: round(p50 * (4 + rnd() * 6), 2),
      max: round(p50 * (20 + rnd() * 80), 1),
    };
    const events = counts.debug + counts.info + counts.warn + counts.error + counts.fatal;
    // bytes: ~300-2000 bytes per event, plus a few very chatty services; stays far below 2^53.
    const bytesIngested = Math.round(events * (300 + rnd() * 1700) * (si % 5 === 0 ? 65536 : 1));
    const healthy = counts.fatal === 0 && rnd() < 0.85;

    // Error-level messages share counts.error (the top ones cover most of it); a fatal
    // message, if any, takes all of counts.fatal.
    const plan: { e: number; count: number }[] = [];
    const used = new Set<number>();
    const draw = (level: "error" | "fatal") => {
      let e = int(0, ERRORS.length - 1);
      while (used.has(e) || ERRORS[e]![1] !== level) e = (e + 1) % ERRORS.length;
      used.add(e);
      return e;
    };
    if (counts.fatal > 0) plan.push({ e: draw("fatal"), count: counts.fatal });
    let remaining = Math.round(counts.error * (0.7 + rnd() * 0.25));
    const nErr = counts.error === 0 ? 0 : int(3, 6);
    for (let k = 0; k < nErr && remaining > 0; k++) {
      const count = k === nErr - 1 ? remaining : Math.max(1, Math.round(remaining * (0.35 + rnd() * 0.3)));
      remaining -= count;
      plan.push({ e: draw("error"), count });
    }
    plan.sort((a, b) => b.count - a.count);
    const topErrors: TopError[] = [];
    for (const { e, count } of plan) {
      const [message, level] = ERRORS[e]!;
      const first = WINDOW_START + int(0, 2 * 3600) * 1000;
      const last = Math.min(end - 1000, first + int(60, 4 * 3600) * 1000);
      topErrors.push({
        message,
        level,
        count,
        firstSeen: iso(first),
        lastSeen: iso(count === 1 ? first : last),
        sampleTraceIds: Array.from({ length: Math.min(count, int(1, 3)) }, () => hex(32)),
      });
    }

    const tagSet = new Set<string>();
    const nTags = int(1, 4);
    while (tagSet.size < nTags) tagSet.add(pick(TAGS));

    const g: ServiceGroup = {
      service,
      version: `${int(1, 4)}.${int(0, 30)}.${int(0, 12)}`,
      healthy,
      instances: int(2, 48),
      counts,
      errorRate: round((counts.error + counts.fatal) / Math.max(1, info), 5),
      latencyMs,
      bytesIngested,
      tags: [...tagSet].sort(),
      topErrors,
    };
    if (!healthy) g.incidentId = `INC-${int(10000, 99999)}`;
    else if (si % 3 === 1) g.incidentId = null;
    return g;
  });

  services.sort((a, b) => b.counts.info - a.counts.info);
  const totalEvents = services.reduce((s, g) => s + g.counts.debug + g.counts.info + g.counts.warn + g.counts.error + g.counts.fatal, 0);
  const totalBytes = services.reduce((s, g) => s + g.bytesIngested, 0);
  if (!Number.isSafeInteger(totalBytes)) throw new Error("totalBytes exceeds 2^53");

  return {
    reportId: `rpt_${hex(12)}`,
    query: 'env:production AND region:"cn-east-1" | stats count() by service, level',
    window: { start: iso(WINDOW_START), end: iso(end), bucketSeconds: 60 },
    environment: "production",
    region: "cn-east-1",
    truncated: false,
    totalEvents,
    totalBytes,
    services,
  };
}

export const dataFile = fileURLToPath(new URL("./data/log-report.json", import.meta.url));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mkdirSync(fileURLToPath(new URL("./data/", import.meta.url)), { recursive: true });
  writeFileSync(dataFile, JSON.stringify(makeData(), null, 2) + "\n");
  console.log(`wrote ${dataFile}`);
}
