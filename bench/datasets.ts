/**
 * The benchmark datasets: one entry per (data file, generated codec). Add a dataset here and every codec,
 * size and speed measurement picks it up. Paths are relative to the repository root.
 */

export interface Dataset {
  /** Short name shown in tables and matched by `--filter`. */
  name: string;
  /** JSON data file (one message). */
  data: string;
  /** Generated toon-gen module and the name of the codec object it exports. */
  module: string;
  codec: string;
}

export const DATASETS: readonly Dataset[] = [
  { name: "orders", data: "examples/orders/data/order-list.json", module: "examples/orders/gen/order-list.ts", codec: "OrderList" },
  { name: "logs", data: "examples/logs/data/log-report.json", module: "examples/logs/gen/log-report.ts", codec: "LogReport" },
  {
    name: "extraction",
    data: "examples/extraction/data/extraction-result.json",
    module: "examples/extraction/gen/extraction-result.ts",
    codec: "ExtractionResult",
  },
  {
    name: "tool-calls",
    data: "examples/tool-calls/data/tool-call-batch.json",
    module: "examples/tool-calls/gen/tool-call-batch.ts",
    codec: "ToolCallBatch",
  },
];
