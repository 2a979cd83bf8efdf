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
  /** Whether the codec was generated with samples (its toon.config.json `"samples"`), for the tables. */
  samples: boolean;
  /**
   * The same data as that dataset, another codec (the schema generated without samples): only toon-gen runs, and
   * the ratios take the other codecs' figures from that dataset.
   */
  variantOf?: string;
}

export const DATASETS: readonly Dataset[] = [
  { name: "orders", data: "examples/orders/data/order-list.json", module: "examples/orders/gen/order-list.ts", codec: "OrderList", samples: true },
  {
    name: "orders-nosamples",
    data: "examples/orders/data/order-list.json",
    module: "bench/no-samples/orders/gen/order-list.ts",
    codec: "OrderList",
    samples: false,
    variantOf: "orders",
  },
  { name: "logs", data: "examples/logs/data/log-report.json", module: "examples/logs/gen/log-report.ts", codec: "LogReport", samples: true },
  {
    name: "logs-nosamples",
    data: "examples/logs/data/log-report.json",
    module: "bench/no-samples/logs/gen/log-report.ts",
    codec: "LogReport",
    samples: false,
    variantOf: "logs",
  },
  {
    name: "extraction",
    data: "examples/extraction/data/extraction-result.json",
    module: "examples/extraction/gen/extraction-result.ts",
    codec: "ExtractionResult",
    samples: false,
  },
  {
    name: "tool-calls",
    data: "examples/tool-calls/data/tool-call-batch.json",
    module: "examples/tool-calls/gen/tool-call-batch.ts",
    codec: "ToolCallBatch",
    samples: false,
  },
  // orders data of a shape no example has (bench/held-out), its codec generated without samples
  { name: "held-out-orders", data: "bench/held-out/data/order-batch.json", module: "bench/held-out/gen/order-batch.ts", codec: "OrderBatch", samples: false },
];

/** The codecs a dataset runs: a variant only toon-gen (the others' figures are its base dataset's). */
export function runsCodec(ds: Dataset, codec: string): boolean {
  return ds.variantOf === undefined || codec === "toon-gen";
}
