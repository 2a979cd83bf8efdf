/**
 * The protobuf peers of each benchmark dataset: the protobufjs static type and the pbf read/write functions
 * generated from bench/proto/NAME.proto, and the adapter between the dataset's JSON values and message objects.
 * Everything is imported lazily, so that a benchmark process loads only the code of the case it times.
 */
import { PbfReader, PbfWriter } from "pbf";
import "./protobufjs-setup.ts"; // before any generated protobufjs module (see there)

export interface Peer {
  /** The .proto file, relative to bench/proto. */
  proto: string;
  /** JSON value ⇄ message object (plain object, field names as in the .proto), shared by both libraries. */
  adapter: { toMessage(value: unknown): object; fromMessage(message: unknown): unknown };
  protobufjs: { encode(message: object): Uint8Array; decode(bytes: Uint8Array): object };
  pbf: { encode(message: object): Uint8Array; decode(bytes: Uint8Array): object };
}

interface PeerDef {
  proto: string;
  adapter(): Promise<{ toMessage(value: never): object; fromMessage(message: never): unknown }>;
  /** The generated static class of the root message. */
  pbjs(): Promise<object>;
  pbf(): Promise<{ read(pbf: PbfReader): object; write(obj: object, pbf: PbfWriter): void }>;
}

/** Keyed by the dataset names of bench/datasets.ts. */
const PEERS: Record<string, PeerDef> = {
  orders: {
    proto: "orders.proto",
    adapter: () => import("./adapt/orders.ts"),
    pbjs: async () => (await import("./gen/orders.pbjs.js")).toonbench.orders.OrderList,
    pbf: async () => {
      const m = await import("./gen/orders.pbf.js");
      return { read: m.readOrderList, write: m.writeOrderList };
    },
  },
  logs: {
    proto: "logs.proto",
    adapter: () => import("./adapt/logs.ts"),
    pbjs: async () => (await import("./gen/logs.pbjs.js")).toonbench.logs.LogReport,
    pbf: async () => {
      const m = await import("./gen/logs.pbf.js");
      return { read: m.readLogReport, write: m.writeLogReport };
    },
  },
  extraction: {
    proto: "extraction.proto",
    adapter: () => import("./adapt/extraction.ts"),
    pbjs: async () => (await import("./gen/extraction.pbjs.js")).toonbench.extraction.ExtractionResult,
    pbf: async () => {
      const m = await import("./gen/extraction.pbf.js");
      return { read: m.readExtractionResult, write: m.writeExtractionResult };
    },
  },
  "held-out-orders": {
    proto: "held-out-orders.proto",
    adapter: () => import("./adapt/held-out-orders.ts"),
    pbjs: async () => (await import("./gen/held-out-orders.pbjs.js")).toonbench.heldout.OrderBatch,
    pbf: async () => {
      const m = await import("./gen/held-out-orders.pbf.js");
      return { read: m.readOrderBatch, write: m.writeOrderBatch };
    },
  },
  "tool-calls": {
    proto: "tool-calls.proto",
    adapter: () => import("./adapt/tool-calls.ts"),
    pbjs: async () => (await import("./gen/tool-calls.pbjs.js")).toonbench.toolcalls.ToolCallBatch,
    pbf: async () => {
      const m = await import("./gen/tool-calls.pbf.js");
      return { read: m.readToolCallBatch, write: m.writeToolCallBatch };
    },
  },
};

export const PEER_DATASETS: readonly string[] = Object.keys(PEERS);

/** The peer of a dataset; `which` limits loading to one library (the other then throws when used). */
export async function loadPeer(dataset: string, which: "protobufjs" | "pbf" | "both" = "both"): Promise<Peer> {
  const def = PEERS[dataset];
  if (def === undefined) throw new Error(`no .proto equivalent for dataset ${dataset} (add one in bench/proto/peers.ts)`);
  const adapter = (await def.adapter()) as unknown as Peer["adapter"];
  const notLoaded = (): never => {
    throw new Error(`loadPeer(${dataset}, ${which}) did not load this library`);
  };
  let protobufjs: Peer["protobufjs"] = { encode: notLoaded, decode: notLoaded };
  let pbf: Peer["pbf"] = { encode: notLoaded, decode: notLoaded };
  if (which !== "pbf") {
    const type = (await def.pbjs()) as unknown as { encode(m: object): { finish(): Uint8Array }; decode(b: Uint8Array): object };
    protobufjs = { encode: (m) => type.encode(m).finish(), decode: (b) => type.decode(b) };
  }
  if (which !== "protobufjs") {
    const { read, write } = await def.pbf();
    pbf = {
      encode(m) {
        const w = new PbfWriter();
        write(m, w);
        return w.finish();
      },
      decode: (b) => read(new PbfReader(b)),
    };
  }
  return { proto: def.proto, adapter, protobufjs, pbf };
}
