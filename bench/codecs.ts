/**
 * The codecs compared. Each prepares itself from the dataset (and may infer a schema from the data there,
 * untimed) and then offers encode / decode plus the bytes that count for size.
 */
import avro from "avsc";
import { Packr } from "msgpackr";
import { encode as toonTextEncode, decode as toonTextDecode } from "@toon-format/toon";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import type { Dataset } from "./datasets.ts";

export interface Prepared {
  encode(value: unknown): unknown;
  decode(encoded: unknown): unknown;
  /** The wire bytes of an encoded message (UTF-8 for text formats). */
  bytes(encoded: unknown): Uint8Array;
  /** Decode with a fresh codec instance, to show a message does not depend on encoder-side state. */
  decodeFresh?(encoded: unknown): unknown;
  /**
   * For codecs whose encode takes objects of their own (protobuf messages): builds them from the JSON data,
   * untimed. Without it, encode gets the JSON data itself.
   */
  input?(data: unknown): unknown;
  /** The way back from what decode returns to JSON values, for the round-trip check only (untimed). */
  output?(decoded: unknown): unknown;
}

export interface CodecDef {
  name: string;
  /** One line for the report: what exactly is timed. */
  describe: string;
  prepare(data: unknown, dataset: Dataset, root: string): Promise<Prepared>;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** avsc infers `float` (32-bit) for every non-int32 number; this hook makes the inferred schema lossless. */
function doubleHook(value: unknown): avro.Type {
  if (typeof value === "number" && value !== (value | 0)) return avro.Type.forSchema("double");
  return undefined as unknown as avro.Type; // undefined: let avsc infer as usual
}

function avscCodec(type: avro.Type): Prepared {
  return {
    encode: (v) => type.toBuffer(v),
    decode: (b) => type.fromBuffer(b as Buffer),
    bytes: (b) => b as Buffer,
  };
}

/**
 * A protobuf library on the dataset's .proto equivalent (bench/proto). Timed: the library's own encode of
 * message objects and decode to message objects; the JSON ⇄ message adapter runs untimed (input / output).
 */
async function protoCodec(dataset: Dataset, which: "protobufjs" | "pbf"): Promise<Prepared> {
  // imported here, not at the top: only the processes of these codecs load protobuf code
  const { loadPeer } = await import("./proto/peers.ts");
  const peer = await loadPeer(dataset.name, which);
  const lib = peer[which];
  return {
    encode: (m) => lib.encode(m as object),
    decode: (b) => lib.decode(b as Uint8Array),
    bytes: (b) => b as Uint8Array,
    input: (data) => peer.adapter.toMessage(data),
    output: (m) => peer.adapter.fromMessage(m),
  };
}

export const CODECS: readonly CodecDef[] = [
  {
    name: "toon-gen",
    describe: "generated codec `encode(value)` → Uint8Array (validates while writing), `decode(bytes)`",
    async prepare(_data, dataset, root) {
      const mod = (await import(pathToFileURL(resolve(root, dataset.module)).href)) as Record<string, unknown>;
      const codec = mod[dataset.codec] as { encode(v: unknown): Uint8Array; decode(b: Uint8Array): unknown } | undefined;
      if (codec === undefined) throw new Error(`${dataset.module} does not export ${dataset.codec}`);
      return {
        encode: (v) => codec.encode(v),
        decode: (b) => codec.decode(b as Uint8Array),
        bytes: (b) => b as Uint8Array,
      };
    },
  },
  {
    name: "json",
    describe: "`TextEncoder.encode(JSON.stringify(v))`, `JSON.parse(TextDecoder.decode(bytes))`",
    async prepare() {
      return {
        encode: (v) => utf8Encoder.encode(JSON.stringify(v)),
        decode: (b) => JSON.parse(utf8Decoder.decode(b as Uint8Array)),
        bytes: (b) => b as Uint8Array,
      };
    },
  },
  {
    name: "avsc",
    describe: "avsc 5.7.9, schema `Type.forValue(data)` (infers float32 for non-int32 numbers, null for absent keys), `toBuffer` / `fromBuffer`",
    async prepare(data) {
      return avscCodec(avro.Type.forValue(data as object));
    },
  },
  {
    name: "avsc-f64",
    describe: "as avsc, but `forValue(data, { valueHook })` infers `double` for non-int32 numbers (lossless numbers)",
    async prepare(data) {
      return avscCodec(avro.Type.forValue(data as object, { valueHook: doubleHook }));
    },
  },
  {
    name: "msgpackr",
    describe: "msgpackr 2.1.4 `new Packr({ useRecords: true })`, `pack` / `unpack` (record structures travel in each message)",
    async prepare() {
      const packr = new Packr({ useRecords: true });
      return {
        encode: (v) => packr.pack(v),
        decode: (b) => packr.unpack(b as Uint8Array),
        bytes: (b) => b as Uint8Array,
        decodeFresh: (b) => new Packr({ useRecords: true }).unpack(b as Uint8Array),
      };
    },
  },
  {
    name: "protobufjs",
    describe:
      "protobufjs 8.8.1 static code (`pbjs -t static-module --keep-case --force-number`, util.Long cleared) from bench/proto/*.proto, " +
      "`T.encode(message).finish()` / `T.decode(bytes)` on message objects (JSON ⇄ message adapter untimed)",
    async prepare(_data, dataset) {
      return protoCodec(dataset, "protobufjs");
    },
  },
  {
    name: "pbf",
    describe:
      "pbf 5.1.2 compiled read/write functions (`pbf NAME.proto`) from bench/proto/*.proto, `writeT(message, new PbfWriter())` + `finish()` / " +
      "`readT(new PbfReader(bytes))` on message objects (JSON ⇄ message adapter untimed)",
    async prepare(_data, dataset) {
      return protoCodec(dataset, "pbf");
    },
  },
  {
    name: "toon-text",
    describe: "@toon-format/toon 4.4.0 `encode(v)` → string, `decode(string)` (no UTF-8 step timed; size = UTF-8 bytes)",
    async prepare() {
      return {
        encode: (v) => toonTextEncode(v),
        decode: (s) => toonTextDecode(s as string),
        bytes: (s) => utf8Encoder.encode(s as string),
      };
    },
  },
];

export function codecByName(name: string): CodecDef {
  const c = CODECS.find((c) => c.name === name);
  if (c === undefined) throw new Error(`unknown codec ${name}`);
  return c;
}
