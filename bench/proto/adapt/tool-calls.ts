/** examples/tool-calls JSON values ⇄ bench/proto/tool-calls.proto message objects. */
import type { ToolCallBatch } from "../../../examples/tool-calls/gen/tool-call-batch.ts";
import type { toonbench } from "../gen/tool-calls.pbjs.js";
import { enumMap } from "./enums.ts";

type ToolCallBatchMsg = toonbench.toolcalls.ToolCallBatch.$Properties;

const action = enumMap<ToolCallBatch["calls"][number]["action"]>("Action", ["get_weather", "get_forecast", "get_air_quality", "get_sunrise_sunset"]);

export function toMessage(v: ToolCallBatch): ToolCallBatchMsg {
  return { calls: v.calls.map((c) => ({ action: action.toProto(c.action), args: { city: c.args.city, date: c.args.date } })) };
}

export function fromMessage(m: ToolCallBatchMsg): ToolCallBatch {
  return {
    calls: (m.calls ?? []).map((c) => {
      const a = c.args!;
      return { action: action.fromProto(c.action!), args: { city: a.city!, date: a.date! } };
    }),
  };
}
