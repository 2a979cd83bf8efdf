/**
 * What the fuzzer feeds (issue 12): every decoder and parser of toon-gen, each with valid seed inputs to mutate
 * and a `run` that returns the decoded value (or throws). The contract `harness.ts` checks: a value of the
 * schema's shape (one `encode` accepts) or a ToonError with a code and a string path, nothing else.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { buildDictionary } from "../../generator/dictionary/file.ts";
import { initHash } from "../../generator/dictionary/hash.ts";
import { emitModule } from "../../generator/emit/module.ts";
import { schemaToIR } from "../../generator/load/index.ts";
import { interpret } from "../../generator/interpret/index.ts";
import { walkSchemalessMessage, walkSchemaMessage } from "../../generator/inspect/walk.ts";
import { decodeSchemaless, encodeSchemaless } from "../../runtime/schemaless.ts";
import { decodeText, encodeText } from "../../runtime/text/index.ts";
import { SseParser, sseEvent } from "../../runtime/sse.ts";
import { getCompressor, setCompressor } from "../../runtime/compression.ts";
import { arbitrary } from "../support/arbitrary.ts";
import { REPO } from "../support/gen.ts";
import { Rng } from "../support/rng.ts";

/** A decoder under test. `bytes` targets take Uint8Array inputs, `text` targets strings, `chunks` byte chunks. */
export interface Target {
  name: string;
  input: "bytes" | "text" | "chunks";
  seeds: (Uint8Array | string)[];
  /** Decode; the value returned must satisfy `accept` (when given), errors must be ToonErrors. */
  run(input: never): unknown;
  /** A decoded value is of the schema's shape: `encode` takes it (throws otherwise). */
  accept?(value: unknown): void;
  /**
   * Failures already known and filed (test/fuzz/open/ holds one input each): reported as open, not as new. Today:
   * fromText checks a `format: "uuid"` string as any string, so it returns values binary `encode` refuses.
   */
  open?: RegExp;
}

/** JSON.stringify of snapshots holding int64 values (bigints beyond 2^53). */
const bigints = (_k: string, v: unknown): unknown => (typeof v === "bigint" ? String(v) : v);

/** The open finding of every fromText target (see Target.open). */
const OPEN_TEXT_UUID = /decoded a value its encoder refuses: INVALID_VALUE: expected a UUID/;

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyCodec = any;

const S2020 = "https://json-schema.org/draft/2020-12/schema";

/** Inline schemas that reach every kind the binary decoder has: zero-width items, tuples, maps, unions, any, recursion. */
const SCHEMAS: Record<string, unknown> = {
  NullGrid: { type: "array", items: { type: "array", items: { type: "null" } } },
  Consts: { type: "object", properties: { k: { type: "array", items: { const: { a: [1, 2, 3] } } }, e: { type: "array", items: { type: "object", additionalProperties: false } } }, required: ["k", "e"], additionalProperties: false },
  Pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: { type: "boolean" } },
  Counts: { type: "object", additionalProperties: { type: "integer" } },
  Shape: {
    oneOf: [
      { type: "object", properties: { kind: { const: "circle" }, r: { type: "number" } }, required: ["kind", "r"], additionalProperties: false },
      { type: "object", properties: { kind: { const: "box" }, w: { type: "integer", format: "int64" }, at: { type: "string", format: "date-time" } }, required: ["kind", "w"], additionalProperties: false },
    ],
  },
  Anything: {},
  Tree: { $ref: "#/$defs/Node", $defs: { Node: { type: "object", properties: { name: { type: "string" }, kids: { type: "array", items: { $ref: "#/$defs/Node" } } }, required: ["name"], additionalProperties: false } } },
  Indexed: { type: "object", properties: { id: { type: "string", format: "uuid" }, title: { type: "string" }, tags: { type: "array", items: { type: "string" } }, score: { type: "number" }, day: { type: "string", format: "date" } }, required: ["id", "title"], additionalProperties: false },
};

const EXAMPLES: [file: string, exportName: string, data: string][] = [
  ["examples/orders/gen/order-list.ts", "OrderList", "examples/orders/data/order-list.json"],
  ["examples/logs/gen/log-report.ts", "LogReport", "examples/logs/data/log-report.json"],
  ["examples/extraction/gen/extraction-result.ts", "ExtractionResult", "examples/extraction/data/extraction-result.json"],
  ["examples/tool-calls/gen/tool-call-batch.ts", "ToolCallBatch", "examples/tool-calls/data/tool-call-batch.json"],
];

/** Strings aimed at every quoting context of generated code (names, titles, enum values). */
export const INJECTIONS: readonly string[] = [
  '"); globalThis.PWNED = 1; ("',
  "'); globalThis.PWNED = 1; ('",
  "`; globalThis.PWNED = 1; `",
  "${globalThis.PWNED = 1}",
  "*/ globalThis.PWNED = 1; /*",
  "\u2028globalThis.PWNED = 1; //",
  "</script><script>globalThis.PWNED = 1</script>",
  "__proto__",
  "constructor",
  "a.b[].c",
  "\\",
  "\ud800",
  "",
];

/** A random schema with hostile names and values (seeded): objects, arrays, enums, consts, unions, refs, patterns. */
export function hostileSchema(rng: Rng, depth = 0): Record<string, unknown> {
  const name = (): string => (rng.chance(0.6) ? rng.pick(INJECTIONS) : "f" + rng.int(0, 99));
  const kind = depth > 3 ? rng.int(0, 3) : rng.int(0, 8);
  switch (kind) {
    case 0:
      return { type: "string", ...(rng.chance(0.3) ? { maxLength: rng.int(0, 10) } : {}), ...(rng.chance(0.2) ? { pattern: rng.pick(["^[a-z]+$", "(a+)+$", "^\\d{3}$", "(x|x)*y", "["]) } : {}) };
    case 1:
      return { type: rng.pick(["integer", "number", "boolean", "null"]) };
    case 2:
      return { enum: [name(), name(), rng.int(-5, 5), null] };
    case 3:
      return { const: rng.chance(0.5) ? name() : { [name()]: [name()] } };
    case 4:
    case 5: {
      const properties: Record<string, unknown> = {};
      const n = rng.int(0, 5);
      for (let i = 0; i < n; i++) properties[name()] = hostileSchema(rng, depth + 1);
      const keys = Object.keys(properties);
      return { type: "object", title: name(), description: name(), properties, required: keys.filter(() => rng.chance(0.5)), additionalProperties: rng.chance(0.5) ? false : hostileSchema(rng, depth + 1) };
    }
    case 6:
      return { type: "array", items: hostileSchema(rng, depth + 1), ...(rng.chance(0.3) ? { maxItems: rng.int(0, 4) } : {}) };
    case 7:
      return { anyOf: [hostileSchema(rng, depth + 1), hostileSchema(rng, depth + 1)] };
    default:
      return { $ref: "#/$defs/" + "D", $defs: { D: hostileSchema(rng, depth + 1) } };
  }
}

function read(rel: string): unknown {
  return JSON.parse(readFileSync(path.join(REPO, rel), "utf8"));
}

/** Generated modules for the inline schemas (written once to `dir`), peek accessors on `Indexed`. */
async function compileInline(dir: string): Promise<Map<string, { codec: AnyCodec; ir: ReturnType<typeof schemaToIR> }>> {
  await initHash();
  mkdirSync(dir, { recursive: true });
  const out = new Map<string, { codec: AnyCodec; ir: ReturnType<typeof schemaToIR> }>();
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    const ir = schemaToIR({ $schema: S2020, title: name, ...(schema as object) }, { source: `${name}.schema.json`, baseDir: dir });
    const dict = buildDictionary(ir);
    const file = path.join(dir, `${name}.ts`);
    writeFileSync(file, emitModule(ir, dict, { fileName: `${name}.ts`, ...(name === "Indexed" ? { index: true } : {}) }));
    const mod = (await import(pathToFileURL(file).href)) as Record<string, AnyCodec>;
    out.set(name, { codec: mod[ir.name], ir });
  }
  return out;
}

/** Every target, with seeds made by encoding example data and random values of each schema (seeded). */
export async function buildTargets(dir: string, seed: number): Promise<Target[]> {
  const rng = new Rng(seed);
  const targets: Target[] = [];
  const codecs: { name: string; codec: AnyCodec; values: unknown[] }[] = [];
  for (const [file, exportName, data] of EXAMPLES) {
    const mod = (await import(pathToFileURL(path.join(REPO, file)).href)) as Record<string, AnyCodec>;
    codecs.push({ name: exportName, codec: mod[exportName], values: [read(data)] });
  }
  const inline = await compileInline(dir);
  for (const [name, { codec, ir }] of inline) {
    const values: unknown[] = [];
    for (let i = 0; i < 4; i++) values.push(arbitrary(ir, rng.u32(), { maxItems: 5 }));
    codecs.push({ name, codec, values });
    // the engine (what `toon-gen decode` runs) on the same bytes
    const dict = buildDictionary(ir);
    const engine = interpret(ir, dict);
    targets.push({
      name: `engine:${name}`,
      input: "bytes",
      seeds: values.map((v) => engine.encode(v)),
      run: (b: Uint8Array) => engine.decode(b),
      accept: (v) => void engine.encode(v),
    });
    // inspect (the CLI's walk over a message, with the schema)
    targets.push({ name: `inspect:${name}`, input: "bytes", seeds: values.map((v) => codec.encode(v) as Uint8Array), run: (b: Uint8Array) => walkSchemaMessage(b, ir, dict) });
  }
  const zstd = getCompressor();
  for (const { name, codec, values } of codecs) {
    const seeds = values.map((v) => codec.encode(v) as Uint8Array);
    targets.push({ name: `decode:${name}`, input: "bytes", seeds, run: (b: Uint8Array) => codec.decode(b), accept: (v) => void codec.encode(v) });
    if (zstd !== undefined) {
      targets.push({
        name: `compressed:${name}`,
        input: "bytes",
        seeds: values.map((v) => codec.encode(v, { compress: true, threshold: 0 }) as Uint8Array),
        run: (b: Uint8Array) => codec.decode(b),
        accept: (v) => void codec.encode(v),
      });
    }
    targets.push({
      name: `fromText:${name}`,
      input: "text",
      seeds: values.map((v) => codec.toText(v) as string),
      run: (t: string) => codec.fromText(t),
      accept: (v) => void codec.encode(v),
      open: OPEN_TEXT_UUID,
    });
    // the dense reader on dense text (fromText above reaches it only from TOON seeds, through detection)
    targets.push({
      name: `fromDense:${name}`,
      input: "text",
      seeds: values.map((v) => codec.toText(v, { layout: "dense" }) as string),
      run: (t: string) => codec.fromText(t, { layout: "dense" }),
      accept: (v) => void codec.encode(v),
      open: OPEN_TEXT_UUID,
    });
    // a model's reply: the payload search, reasoning blocks, fences, and the opt-in repairs
    const replies = values.flatMap((v) => [
      "Here you go:\n```toon\n" + (codec.toText(v) as string) + "\n```\n",
      '<think>{"draft": [1, 2</think>\n```json\n' + JSON.stringify(v, bigints) + "\n```",
      JSON.stringify(v, bigints),
    ]);
    for (const repair of [false, true]) {
      targets.push({
        name: `fromModelOutput${repair ? "+repair" : ""}:${name}`,
        input: "text",
        seeds: replies,
        run: (t: string) => codec.fromModelOutput(t, repair ? { repair: true } : undefined),
        accept: (v) => void codec.encode(v),
        open: OPEN_TEXT_UUID,
      });
    }
    if (codec.stream !== undefined) {
      targets.push({
        name: `stream:${name}`,
        input: "chunks",
        seeds: values.map((v) => codec.stream.encode(v, { textChunk: 3 }) as Uint8Array),
        run: (chunks: Uint8Array[]) => {
          const d = codec.stream.decoder();
          try {
            for (const c of chunks) {
              d.push(c);
              // a snapshot a consumer can iterate and stringify in time linear in the bytes so far
              JSON.stringify(d.snapshot({ partialText: true }) ?? null, bigints);
            }
          } catch (e) {
            JSON.stringify(d.snapshot() ?? null, bigints);
            throw e;
          }
          return d.end();
        },
        accept: (v) => void codec.encode(v),
      });
    }
    if (codec.peek !== undefined) {
      const peeks = Object.values(codec.peek) as ((b: Uint8Array) => unknown)[];
      targets.push({ name: `peek:${name}`, input: "bytes", seeds, run: (b: Uint8Array) => peeks.map((p) => p(b)) });
    }
  }
  const jsonValues = codecs.flatMap((c) => c.values);
  targets.push({
    name: "schemaless",
    input: "bytes",
    seeds: jsonValues.slice(0, 8).map((v) => encodeSchemaless(v)),
    run: (b: Uint8Array) => decodeSchemaless(b),
    accept: (v) => void encodeSchemaless(v),
  });
  targets.push({ name: "decodeText", input: "text", seeds: jsonValues.slice(0, 8).map((v) => encodeText(v)), run: (t: string) => decodeText(t), accept: (v) => void encodeText(v) });
  const frames = codecs.find((c) => c.name === "ToolCallBatch")!;
  targets.push({
    name: "sse",
    input: "text",
    seeds: frames.values.map((v) => sseEvent(frames.codec.stream.frames(v, { textChunk: 4 }) as Uint8Array[], { id: "1" })),
    run: (t: string) => {
      const p = new SseParser();
      const out = p.push(t);
      return out.length;
    },
  });
  // tool calls: a model's arguments text, whole (parseToolCall) and streamed in pieces (the accumulator, whose
  // outcomes carry the errors it never throws)
  const tools = (await import(pathToFileURL(path.join(REPO, "examples", "tools", "gen", "weather-tools.ts")).href)).WeatherTools as AnyCodec;
  const recorded = JSON.parse(readFileSync(path.join(REPO, "examples", "tools", "recorded", "openai-chat-completion.json"), "utf8")) as {
    choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[];
  };
  for (const call of recorded.choices[0]!.message.tool_calls) {
    const fn = call.function.name;
    targets.push({
      name: `parseToolCall:${fn}`,
      input: "text",
      seeds: [call.function.arguments],
      run: (t: string) => tools.parseToolCall({ id: "call_1", type: "function", function: { name: fn, arguments: t } }),
      accept: (c) => void tools.encode(c),
    });
    targets.push({
      name: `accumulator:${fn}`,
      input: "text",
      seeds: [call.function.arguments],
      run: (t: string) => {
        const acc = tools.accumulator();
        const outcomes: { ok: boolean; call?: unknown; error?: unknown }[] = [];
        for (let i = 0; i * 5 < t.length || i === 0; i++) {
          const piece = t.slice(i * 5, i * 5 + 5);
          const delta = i === 0 ? { index: 0, id: "call_1", type: "function", function: { name: fn, arguments: piece } } : { index: 0, function: { arguments: piece } };
          outcomes.push(...acc.push({ choices: [{ index: 0, delta: { tool_calls: [delta] } }] }));
        }
        outcomes.push(...acc.end());
        for (const o of outcomes) if (!o.ok) throw o.error;
        return outcomes.map((o) => o.call);
      },
      accept: (calls) => {
        for (const c of calls as unknown[]) tools.encode(c);
      },
    });
  }
  targets.push({ name: "inspect:schemaless", input: "bytes", seeds: jsonValues.slice(0, 8).map((v) => encodeSchemaless(v)), run: (b: Uint8Array) => walkSchemalessMessage(b) });
  return targets;
}

/** Register the CLI's zstd (bounded) when zstd-napi is installed, for the compressed targets. */
export async function withZstd(): Promise<boolean> {
  if (getCompressor() !== undefined) return true;
  try {
    const { loadZstd } = await import("../../generator/inspect/zstd.ts");
    setCompressor(await loadZstd());
    return true;
  } catch {
    return false;
  }
}
