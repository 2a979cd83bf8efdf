/** examples/logs JSON values ⇄ bench/proto/logs.proto message objects (field names as in the .proto). */
import type { LogReport, ServiceGroup, TopError } from "../../../examples/logs/gen/log-report.ts";
import type { toonbench } from "../gen/logs.pbjs.js";
import { enumMap } from "./enums.ts";

type LogReportMsg = toonbench.logs.LogReport.$Properties;
type ServiceGroupMsg = toonbench.logs.ServiceGroup.$Properties;

const environment = enumMap<LogReport["environment"]>("Environment", ["production", "staging", "development"]);
const level = enumMap<TopError["level"]>("ErrorLevel", ["error", "fatal"]);
const NULL_VALUE = 0;

/**
 * int64 fields travel as JS numbers (protobufjs with util.Long cleared, pbf always): exact up to 2^53 only.
 * A bigint, which the toon-gen type allows, is converted only when that is exact.
 */
function int64(v: number | bigint, path: string): number {
  if (typeof v === "number") return v;
  const n = Number(v);
  if (BigInt(n) !== v) throw new Error(`${path}: ${v} does not fit a JS number`);
  return n;
}

export function toMessage(v: LogReport): LogReportMsg {
  return {
    report_id: v.reportId,
    query: v.query,
    window: { start: v.window.start, end: v.window.end, bucket_seconds: v.window.bucketSeconds },
    environment: environment.toProto(v.environment),
    region: v.region,
    truncated: v.truncated,
    total_events: v.totalEvents,
    total_bytes: int64(v.totalBytes, "/totalBytes"),
    services: v.services.map((s, i): ServiceGroupMsg => {
      const m: ServiceGroupMsg = {
        service: s.service,
        version: s.version,
        healthy: s.healthy,
        instances: s.instances,
        counts: { ...s.counts },
        error_rate: s.errorRate,
        latency_ms: { ...s.latencyMs },
        bytes_ingested: int64(s.bytesIngested, `/services/${i}/bytesIngested`),
        tags: s.tags,
        top_errors: s.topErrors.map((e) => ({
          message: e.message,
          level: level.toProto(e.level),
          count: e.count,
          first_seen: e.firstSeen,
          last_seen: e.lastSeen,
          sample_trace_ids: e.sampleTraceIds,
        })),
      };
      // absent: neither oneof member; null: the NullValue member; a string: the string member
      if (s.incidentId === null) m.incident_id_null = NULL_VALUE;
      else if (s.incidentId !== undefined) m.incident_id_value = s.incidentId;
      return m;
    }),
  };
}

export function fromMessage(m: LogReportMsg): LogReport {
  const w = m.window!;
  return {
    reportId: m.report_id!,
    query: m.query!,
    window: { start: w.start!, end: w.end!, bucketSeconds: w.bucket_seconds! },
    environment: environment.fromProto(m.environment!),
    region: m.region!,
    truncated: m.truncated!,
    totalEvents: m.total_events!,
    totalBytes: m.total_bytes!,
    services: (m.services ?? []).map((s): ServiceGroup => {
      const c = s.counts!;
      const l = s.latency_ms!;
      const v: ServiceGroup = {
        service: s.service!,
        version: s.version!,
        healthy: s.healthy!,
        instances: s.instances!,
        counts: { debug: c.debug!, info: c.info!, warn: c.warn!, error: c.error!, fatal: c.fatal! },
        errorRate: s.error_rate!,
        latencyMs: { p50: l.p50!, p90: l.p90!, p99: l.p99!, max: l.max! },
        bytesIngested: s.bytes_ingested!,
        tags: s.tags ?? [],
        topErrors: (s.top_errors ?? []).map(
          (e): TopError => ({
            message: e.message!,
            level: level.fromProto(e.level!),
            count: e.count!,
            firstSeen: e.first_seen!,
            lastSeen: e.last_seen!,
            sampleTraceIds: e.sample_trace_ids ?? [],
          }),
        ),
      };
      if (s.incident_id === "incident_id_null") v.incidentId = null;
      else if (s.incident_id === "incident_id_value") v.incidentId = s.incident_id_value!;
      return v;
    }),
  };
}
