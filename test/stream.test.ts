// Streaming frames (docs/FORMAT.md §10.3, runtime/stream.ts, generator/emit/stream.ts, runtime/sse.ts):
// every split point of every example stream, interleaved elements, a lost connection's partial state and
// INCOMPLETE, corrupt and foreign streams, the encoder API and JSON mode, random values of the inline test
// schemas, the SSE helper, and the loopback HTTP example.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import {
  concatBytes,
  fromBase64,
  SseFrameReader,
  SseParser,
  sseComment,
  sseEvent,
  toBase64,
  ToonError,
  type StreamCodec,
  type StreamEvent,
} from "../runtime/index.ts";
import { ToolCallBatch } from "../examples/tool-calls/gen/tool-call-batch.ts";
import { OrderList } from "../examples/orders/gen/order-list.ts";
import { LogReport } from "../examples/logs/gen/log-report.ts";
import { ExtractionResult } from "../examples/extraction/gen/extraction-result.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { Rng } from "./support/rng.ts";
import { INLINE_SCHEMAS } from "./support/schemas.ts";
import { compileSchema, REPO, suiteDir } from "./support/gen.ts";

const readData = (rel: string): any => JSON.parse(readFileSync(path.join(REPO, "examples", rel), "utf8"));

interface Example {
  name: string;
  codec: { encode(v: any): Uint8Array; decode(b: Uint8Array): any; stream: StreamCodec<any, any> };
  value: any;
}

const EXAMPLES: Example[] = [
  { name: "tool-calls", codec: ToolCallBatch, value: readData("tool-calls/data/tool-call-batch.json") },
  { name: "orders", codec: OrderList, value: readData("orders/data/order-list.json") },
  { name: "logs", codec: LogReport, value: readData("logs/data/log-report.json") },
  { name: "extraction", codec: ExtractionResult, value: readData("extraction/data/extraction-result.json") },
];

/** JSON text with bigints as plain digits (int64 fields). */
function toJson(v: unknown): string {
  if (typeof v === "bigint") return String(v);
  if (Array.isArray(v)) return "[" + v.map(toJson).join(",") + "]";
  if (typeof v === "object" && v !== null) {
    return "{" + Object.keys(v).filter((k) => (v as any)[k] !== undefined).map((k) => JSON.stringify(k) + ":" + toJson((v as any)[k])).join(",") + "}";
  }
  return JSON.stringify(v);
}

/** Same value, same key order (deepStrictEqual ignores key order; the decoder promises schema order). */
function sameValue(actual: unknown, expected: unknown, message?: string): void {
  assert.ok(isDeepStrictEqual(actual, expected), message ?? "values differ");
  assert.equal(toJson(actual), toJson(expected), message ?? "key order differs");
}

function decodeChunks(codec: Example["codec"], chunks: Uint8Array[]): { value: any; events: StreamEvent<any, any>[] } {
  const d = codec.stream.decoder();
  const events: StreamEvent<any, any>[] = [];
  for (const c of chunks) events.push(...d.push(c));
  return { value: d.end(), events };
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  out.push(bytes.subarray(from));
  return out;
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof ToonError) return e.code;
    throw e;
  }
  return "ok";
}

// -------------------------------------------------------------------------------------------- examples

for (const ex of EXAMPLES) {
  test(`stream: examples/${ex.name}: every split point decodes to the same value`, () => {
    const bytes = ex.codec.stream.encode(ex.value);
    const expected = ex.codec.decode(ex.codec.encode(ex.value));
    assert.ok(isDeepStrictEqual(expected, ex.value));
    for (let k = 0; k <= bytes.length; k++) {
      const { value, events } = decodeChunks(ex.codec, [bytes.subarray(0, k), bytes.subarray(k)]);
      if (!isDeepStrictEqual(value, expected)) assert.fail(`split at byte ${k} of ${bytes.length} decodes to another value`);
      const last = events[events.length - 1]!;
      assert.equal(last.type, "value");
      assert.equal(events.filter((e) => e.type === "value").length, 1);
    }
    sameValue(ex.codec.stream.decode(bytes), expected);
  });

  test(`stream: examples/${ex.name}: element granularity, TEXT pieces, random 3-way splits and one byte at a time`, () => {
    const expected = ex.codec.decode(ex.codec.encode(ex.value));
    const rng = new Rng(ex.name.length * 31);
    for (const options of [{ depth: 2 }, { depth: 1 }, { depth: 0 }, { textChunk: 3 }, { depth: 3, textChunk: 5 }]) {
      const bytes = ex.codec.stream.encode(ex.value, options);
      for (let i = 0; i < 40; i++) {
        const cuts = [rng.int(0, bytes.length), rng.int(0, bytes.length)];
        sameValue(decodeChunks(ex.codec, splitAt(bytes, cuts)).value, expected, `${JSON.stringify(options)} cuts ${cuts}`);
      }
    }
    // byte by byte: the same events, in the same order, as with the whole stream at once
    const bytes = ex.codec.stream.encode(ex.value, { textChunk: 4 });
    const whole = decodeChunks(ex.codec, [bytes]).events;
    const single = decodeChunks(
      ex.codec,
      Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)),
    ).events;
    assert.deepEqual(
      single.map((e) => `${e.type} ${e.pointer}`),
      whole.map((e) => `${e.type} ${e.pointer}`),
    );
    assert.ok(whole.some((e) => e.type === "text") === ex.codec.stream.frames(ex.value, { textChunk: 4 }).length > ex.codec.stream.frames(ex.value).length);
  });
}

test("stream: completed fields are final: every later snapshot holds them unchanged", () => {
  for (const ex of EXAMPLES.slice(0, 2)) {
    const frames = ex.codec.stream.frames(ex.value, { textChunk: 3 });
    const d = ex.codec.stream.decoder();
    const final = new Map<string, unknown>();
    const at = (v: unknown, pointer: string): unknown => {
      let x: any = v;
      for (const k of pointer.split("/").slice(1)) x = x?.[k.replace(/~1/g, "/").replace(/~0/g, "~")];
      return x;
    };
    assert.equal(d.snapshot(), undefined, "nothing before the first frame");
    for (const f of frames) {
      for (const e of d.push(f)) if (e.type !== "text") final.set(e.pointer, e.value);
      const snap = d.snapshot();
      for (const [pointer, v] of final) assert.ok(isDeepStrictEqual(at(snap, pointer), v), `${ex.name}: ${pointer} changed after it completed`);
    }
    assert.ok(d.done);
    sameValue(d.value, ex.codec.decode(ex.codec.encode(ex.value)));
  }
});

// -------------------------------------------------------------------------------------------- interleaving

test("stream: frames of different array elements may interleave (encoder API, tool calls)", () => {
  const enc = ToolCallBatch.stream.encoder();
  const frames = [
    ...enc.set("/calls/1/action", "get_forecast"),
    ...enc.set("/calls/0/args/city", "北京"),
    ...enc.append("/calls/1/args/city", "上"),
    ...enc.set("/calls/0/action", "get_weather"),
    ...enc.append("/calls/1/args/city", "海"),
    ...enc.set("/calls/1/args/date", "2025-01-22"),
    ...enc.end("/calls/1"), // also ends /calls/1/args/city and /calls/1/args
    ...enc.set(["calls", 0, "args", "date"], "2025-01-15"),
    ...enc.end(), // /calls/0/args, /calls/0, /calls, the root
  ];
  assert.ok(enc.done);
  const d = ToolCallBatch.stream.decoder();
  const events = frames.flatMap((f) => d.push(f));
  const expected = {
    calls: [
      { action: "get_weather", args: { city: "北京", date: "2025-01-15" } },
      { action: "get_forecast", args: { city: "上海", date: "2025-01-22" } },
    ],
  };
  sameValue(d.end(), expected);
  assert.deepEqual(
    events.filter((e) => e.type === "element").map((e) => e.pointer),
    ["/calls/1", "/calls/0"],
    "element 1 completes first",
  );
  const texts = events.filter((e) => e.type === "text");
  assert.deepEqual(
    texts.map((e) => (e.type === "text" ? e.text : "")),
    ["上", "上海"],
  );
  // typed events: the path names the value's type
  for (const e of events) {
    if (e.type === "field" && e.path === "calls[].args.city") {
      const city: string = e.value;
      assert.equal(typeof city, "string");
    }
    if (e.type === "element" && e.path === "calls[]") {
      const call: ToolCallBatch["calls"][number] = e.value;
      assert.ok(call.args.city.length > 0);
    }
  }
});

test("stream: orders made independently and interleaved at random decode to the same list", () => {
  const value = readData("orders/data/order-list.json") as OrderList;
  const rng = new Rng(2024);
  for (let round = 0; round < 25; round++) {
    const enc = OrderList.stream.encoder();
    const header = enc.header();
    const queues = value.orders.map((o, i) => enc.encodeIncremental(o, { at: `/orders/${i}`, depth: round % 3 === 0 ? 4 : Infinity }));
    const tail = enc.end();
    const mixed: Uint8Array[] = [...header];
    while (queues.some((q) => q.length > 0)) {
      const live = queues.filter((q) => q.length > 0);
      mixed.push(rng.pick(live).shift()!);
    }
    mixed.push(...tail);
    const bytes = concatBytes(mixed);
    const cut = rng.int(0, bytes.length);
    sameValue(decodeChunks(OrderList, [bytes.subarray(0, cut), bytes.subarray(cut)]).value, value);
  }
});

// -------------------------------------------------------------------------------------------- lost connection

test("stream: a lost connection leaves the frames' partial value, and end() throws INCOMPLETE naming the missing paths", () => {
  const value: ToolCallBatch = {
    calls: [
      { action: "get_weather", args: { city: "北京", date: "2025-01-15" } },
      { action: "get_forecast", args: { city: "上海", date: "2025-01-22" } },
    ],
  };
  const frames = ToolCallBatch.stream.frames(value, { textChunk: 1 });
  // header, call 0: action, TEXT 北, TEXT 京, END city, date, END args, END calls/0; call 1: action, TEXT 上, TEXT 海 | cut
  const cutAfter = 11;
  const d = ToolCallBatch.stream.decoder();
  for (const f of frames.slice(0, cutAfter)) d.push(f);
  // and half of the next frame
  const next = frames[cutAfter]!;
  d.push(next.subarray(0, 2));
  assert.equal(d.frames, cutAfter - 1);
  assert.deepEqual(d.snapshot(), { calls: [value.calls[0], { action: "get_forecast", args: {} }] });
  assert.deepEqual(d.snapshot({ partialText: true }), { calls: [value.calls[0], { action: "get_forecast", args: { city: "上海" } }] });
  const missing = d.missing();
  assert.deepEqual(
    missing.filter((m) => m.kind === "required").map((m) => [m.path, m.dictionaryPath]),
    [["/calls/1/args/date", "calls[].args.date"]],
  );
  assert.ok(missing.some((m) => m.kind === "stream" && /cut off after 2 bytes/.test(m.message)));
  assert.ok(missing.some((m) => m.kind === "unfinished" && m.path === "/calls/1/args/city"));
  let err: ToonError | undefined;
  try {
    d.end();
  } catch (e) {
    err = e as ToonError;
  }
  assert.ok(err instanceof ToonError);
  assert.equal(err.code, "INCOMPLETE");
  assert.match(err.message, /missing \/calls\/1\/args\/date \(calls\[\]\.args\.date\)/);
  assert.match(err.message, /not finished: \/calls\/1\/args\/city/);
  assert.equal(err.path, "/calls/1/args/date");
  assert.ok(err.details!.length >= 5);
  // the decoder still works: the rest of the stream completes the value
  d.push(next.subarray(2));
  for (const f of frames.slice(cutAfter + 1)) d.push(f);
  sameValue(d.end(), value);

  // a stream cut before its first required field: the root's required fields are named
  const empty = ToolCallBatch.stream.decoder();
  empty.push(frames[0]!);
  assert.throws(() => empty.end(), (e: ToonError) => e.code === "INCOMPLETE" && /missing \/calls \(calls\)/.test(e.message));
  const nothing = ToolCallBatch.stream.decoder();
  nothing.push(frames[0]!.subarray(0, 5));
  assert.throws(() => nothing.end(), (e: ToonError) => e.code === "INCOMPLETE" && /header never arrived/.test(e.message));
});

test("stream: every prefix of a stream is either complete or INCOMPLETE, and its snapshot grows monotonically", () => {
  const ex = EXAMPLES[0]!;
  const bytes = ex.codec.stream.encode(ex.value, { textChunk: 2 });
  let prev = "";
  for (let k = 0; k <= bytes.length; k++) {
    const d = ex.codec.stream.decoder();
    d.push(bytes.subarray(0, k));
    const code = codeOf(() => d.end());
    assert.equal(code, k === bytes.length ? "ok" : "INCOMPLETE", `prefix ${k}`);
    const snap = JSON.stringify(d.snapshot() ?? null);
    // completed calls never disappear: the text of the previous snapshot's complete elements stays a prefix
    const calls = (d.snapshot() as any)?.calls?.filter((c: any) => c?.args?.date !== undefined).length ?? 0;
    const prevCalls = prev === "" ? 0 : ((JSON.parse(prev) as any)?.calls?.filter((c: any) => c?.args?.date !== undefined).length ?? 0);
    assert.ok(calls >= prevCalls, `prefix ${k}: ${calls} complete calls after ${prevCalls}`);
    prev = snap;
  }
});

// -------------------------------------------------------------------------------------------- bad input

test("stream: corrupted or truncated streams fail with ToonError, never anything else", () => {
  const ex = EXAMPLES[0]!;
  const bytes = ex.codec.stream.encode({ calls: ex.value.calls.slice(0, 3) }, { textChunk: 2 });
  const codes = new Map<string, number>();
  const rng = new Rng(7);
  for (let i = 0; i < bytes.length; i++) {
    for (const flip of [0xff, 0x01, 0x80, rng.int(1, 255)]) {
      const bad = bytes.slice();
      bad[i] ^= flip;
      const code = codeOf(() => ex.codec.stream.decode(bad));
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
  }
  for (let k = 0; k < bytes.length; k++) assert.equal(codeOf(() => ex.codec.stream.decode(bytes.subarray(0, k))), "INCOMPLETE");
  assert.ok((codes.get("INVALID_ENCODING") ?? 0) > 0, JSON.stringify([...codes]));
  assert.ok(!codes.has("ok") || codes.get("ok")! < bytes.length, "most corruptions are caught");
  // random garbage after a valid header
  for (let i = 0; i < 300; i++) {
    const junk = Uint8Array.from({ length: rng.int(1, 40) }, () => rng.int(0, 255));
    codeOf(() => ex.codec.stream.decode(concatBytes([bytes.subarray(0, 9), junk])));
  }
});

test("stream: specific framing errors", () => {
  const enc = ToolCallBatch.stream.encoder();
  const header = enc.header()[0]!;
  const action = enc.set("/calls/0/action", "get_weather")[0]!; // [len, head, id 3, row 0, value]
  const decodeFrames = (...frames: Uint8Array[]) => ToolCallBatch.stream.decode(concatBytes([header, ...frames]));
  const errorOf = (f: () => unknown): ToonError => {
    try {
      f();
    } catch (e) {
      if (e instanceof ToonError) return e;
      throw e;
    }
    assert.fail("did not throw");
  };
  // unknown path ID
  let e = errorOf(() => decodeFrames(Uint8Array.of(4, 4, 99, 0, 0)));
  assert.equal(e.code, "INVALID_ENCODING");
  assert.match(e.message, /unknown path ID 99/);
  assert.equal(e.offset, 11);
  // empty frame, reserved kind, no steps
  assert.equal(errorOf(() => decodeFrames(Uint8Array.of(0))).code, "INVALID_ENCODING");
  assert.equal(errorOf(() => decodeFrames(Uint8Array.of(3, 7, 3, 0))).code, "INVALID_ENCODING");
  assert.equal(errorOf(() => decodeFrames(Uint8Array.of(1, 0))).code, "INVALID_ENCODING");
  // a definition-scoped or deeper path as a first step of another scope; a step that does not continue a ref
  assert.match(errorOf(() => decodeFrames(Uint8Array.of(4, 8, 1, 3, 0))).message, /does not continue/);
  // the same value twice
  e = errorOf(() => decodeFrames(action, action));
  assert.equal(e.code, "INVALID_ENCODING");
  assert.equal(e.path, "/calls/0/action");
  // a value that does not fit its path (enum index out of range), bytes left in a frame
  assert.equal(errorOf(() => decodeFrames(Uint8Array.of(4, 4, 3, 0, 9))).code, "INVALID_ENCODING");
  assert.equal(errorOf(() => decodeFrames(Uint8Array.of(5, 4, 3, 0, 0, 0))).code, "TRAILING_BYTES");
  // END counts that do not match, END of a scalar, TEXT at an enum
  assert.match(errorOf(() => decodeFrames(action, Uint8Array.of(3, 5, 1, 2))).message, /END says 2 items, 1 arrived/);
  assert.match(errorOf(() => decodeFrames(Uint8Array.of(3, 5, 3, 0))).message, /END for a location of type enum/);
  assert.match(errorOf(() => decodeFrames(Uint8Array.of(5, 6, 3, 0, 2, 0x61))).message, /TEXT for a location of type enum/);
  // an element missing its required fields ends
  assert.match(errorOf(() => decodeFrames(action, Uint8Array.of(3, 5, 2, 0))).message, /without its required property "args"/);
  // a row beyond the limit
  assert.match(errorOf(() => decodeFrames(Uint8Array.of(8, 4, 3, 0xff, 0xff, 0xff, 0xff, 0x0f, 0))).message, /row .* out of range/);
  // frames after the value is complete
  const whole = ToolCallBatch.stream.encode({ calls: [] });
  assert.equal(codeOf(() => ToolCallBatch.stream.decode(concatBytes([whole, action]))), "TRAILING_BYTES");
  // an oversized frame length is refused before its bytes arrive
  const d = ToolCallBatch.stream.decoder({ maxFrameBytes: 100 });
  d.push(header);
  assert.match(errorOf(() => d.push(Uint8Array.of(0xe8, 0x07))).message, /exceeds the limit/);
  // a failed decoder keeps failing with the same error, and its state is what the good frames built
  assert.equal(errorOf(() => d.push(action)).code, "INVALID_ENCODING");
  const d2 = ToolCallBatch.stream.decoder();
  d2.push(concatBytes([header, action]));
  assert.throws(() => d2.push(action));
  assert.deepEqual(d2.snapshot(), { calls: [{ action: "get_weather" }] });
  // not TOON, other versions
  assert.equal(codeOf(() => ToolCallBatch.stream.decode(Uint8Array.of(1, 2, 3))), "BAD_MAGIC");
  const v2 = header.slice();
  v2[4] = 2;
  assert.equal(codeOf(() => ToolCallBatch.stream.decode(v2)), "UNSUPPORTED_VERSION");
});

test("stream: a stream of another dictionary is FINGERPRINT_MISMATCH before any frame is read", () => {
  const orders = OrderList.stream.encode(readData("orders/data/order-list.json"));
  assert.equal(codeOf(() => ToolCallBatch.stream.decode(orders)), "FINGERPRINT_MISMATCH");
  const d = ToolCallBatch.stream.decoder();
  // detected as soon as the 9 header bytes are in
  assert.deepEqual(d.push(orders.subarray(0, 8)), []);
  assert.throws(() => d.push(orders.subarray(8, 9)), (e: ToonError) => e.code === "FINGERPRINT_MISMATCH" && e.offset === 7);
  const tampered = ToolCallBatch.stream.encode({ calls: [] });
  tampered[8] ^= 1;
  assert.equal(codeOf(() => ToolCallBatch.stream.decode(tampered)), "FINGERPRINT_MISMATCH");
  // whole messages and streams are told apart by the STREAM flag
  assert.equal(codeOf(() => ToolCallBatch.stream.decode(ToolCallBatch.encode({ calls: [] }))), "UNSUPPORTED_FLAGS");
  assert.equal(codeOf(() => ToolCallBatch.decode(ToolCallBatch.stream.encode({ calls: [] }))), "UNSUPPORTED_FLAGS");
});

// -------------------------------------------------------------------------------------------- encoder

test("stream: encoder misuse is INVALID_VALUE, sends nothing and leaves the stream usable", () => {
  const sent: Uint8Array[] = [];
  const enc = ToolCallBatch.stream.encoder({ onFrame: (f) => sent.push(f) });
  enc.set("/calls/0/action", "get_weather");
  const n = sent.length;
  assert.equal(codeOf(() => enc.set("/calls/0/action", "get_forecast")), "INVALID_VALUE"); // twice
  assert.equal(codeOf(() => enc.set("/calls/0/action", "fly")), "INVALID_VALUE"); // not in the enum
  assert.equal(codeOf(() => enc.set("/calls/0/tool", "x")), "INVALID_VALUE"); // closed object
  assert.equal(codeOf(() => enc.set("/calls/x/action", "x")), "INVALID_VALUE"); // not an index
  assert.equal(codeOf(() => enc.end("/calls/0")), "INVALID_VALUE"); // args missing
  assert.equal(codeOf(() => enc.append("/calls/0/action", "x")), "INVALID_VALUE"); // TEXT at an enum
  assert.equal(codeOf(() => enc.set("calls", [])), "INVALID_VALUE"); // not a pointer
  assert.equal(sent.length, n, "nothing was sent by the failed calls");
  let err: ToonError | undefined;
  try {
    enc.set("/calls/0/args/date", 20250115);
  } catch (e) {
    err = e as ToonError;
  }
  assert.equal(err?.path, "/calls/0/args/date");
  enc.set("/calls/0/args", { city: "北京", date: "2025-01-15" });
  enc.end();
  assert.equal(codeOf(() => enc.set("/calls/1/action", "get_weather")), "INVALID_VALUE");
  sameValue(ToolCallBatch.stream.decode(sent), { calls: [{ action: "get_weather", args: { city: "北京", date: "2025-01-15" } }] });
  // encodeIncremental checks the whole value first
  assert.equal(codeOf(() => ToolCallBatch.stream.frames({ calls: [{ action: "get_weather", args: { city: "x" } }] } as any)), "INVALID_VALUE");
  assert.equal(codeOf(() => ToolCallBatch.stream.frames({ calls: [], extra: 1 } as any)), "INVALID_VALUE");
});

test("stream: union branches from the discriminator, from the only branch that fits, or pinned", () => {
  const enc = ExtractionResult.stream.encoder();
  const frames: Uint8Array[] = [];
  frames.push(...enc.set("/model", "m"));
  frames.push(...enc.set("/documents/0/id", "doc-0001"));
  // the discriminator picks the branch (and is not a value of its own on the wire beyond its frame)
  frames.push(...enc.set("/documents/0/entities/0/type", "money"));
  frames.push(...enc.set("/documents/0/entities/0/amount", 12.5));
  // without it, "name" fits several branches
  assert.equal(codeOf(() => enc.set("/documents/0/entities/1/name", "Ada")), "INVALID_VALUE");
  enc.branch("/documents/0/entities/1", 0);
  frames.push(...enc.set("/documents/0/entities/1/name", "Ada"));
  frames.push(...enc.set("/documents/0/entities/1/confidence", 0.9));
  // "ticker" only exists in one branch
  frames.push(...enc.set("/documents/0/entities/2/ticker", "ACME"));
  frames.push(...enc.set("/documents/0/entities/2/name", "Acme"));
  frames.push(...enc.set("/documents/0/entities/2/confidence", 1));
  frames.push(...enc.set("/documents/0/entities/0/text", "$12.50"));
  frames.push(...enc.set("/documents/0/entities/0/currency", "USD"));
  frames.push(...enc.set("/documents/0/entities/0/confidence", 0.5));
  // a whole entity in one frame
  frames.push(...enc.set("/documents/0/entities/3", { type: "location", name: "Paris", confidence: 0.7 }));
  frames.push(...enc.set("/documents/0/source", "news"));
  frames.push(...enc.set("/documents/0/language", "en"));
  frames.push(...enc.set("/documents/0/text", "Ada of Acme paid $12.50 in Paris"));
  frames.push(...enc.set("/extractedAt", "2025-01-15T10:30:00Z"));
  frames.push(...enc.end());
  const v = ExtractionResult.stream.decode(frames);
  const expected = {
    model: "m",
    extractedAt: "2025-01-15T10:30:00Z",
    documents: [
      {
        id: "doc-0001",
        source: "news",
        language: "en",
        text: "Ada of Acme paid $12.50 in Paris",
        entities: [
          { type: "money", text: "$12.50", amount: 12.5, currency: "USD", confidence: 0.5 },
          { type: "person", name: "Ada", confidence: 0.9 },
          { type: "organization", name: "Acme", ticker: "ACME", confidence: 1 },
          { type: "location", name: "Paris", confidence: 0.7 },
        ],
      },
    ],
  };
  sameValue(v, expected);
  sameValue(ExtractionResult.decode(ExtractionResult.encode(v as any)), expected);
});

test("stream: JSON text in pieces (a model streaming tool-call arguments) becomes frames as it arrives", () => {
  const rng = new Rng(99);
  for (const ex of EXAMPLES) {
    const text = JSON.stringify(ex.value);
    for (let round = 0; round < 4; round++) {
      const enc = ex.codec.stream.encoder();
      const frames: Uint8Array[] = [];
      for (let i = 0; i < text.length; ) {
        const n = round === 0 ? 1 : rng.int(1, 12);
        frames.push(...enc.json(text.slice(i, i + n)));
        i += n;
      }
      assert.ok(enc.done, `${ex.name}: the JSON closed, so the stream is complete`);
      sameValue(ex.codec.stream.decode(frames), ex.codec.decode(ex.codec.encode(ex.value)), ex.name);
    }
  }
  // the city of a tool call arrives as TEXT while it streams
  const enc = ToolCallBatch.stream.encoder();
  const d = ToolCallBatch.stream.decoder();
  const seen: string[] = [];
  for (const piece of ['{"calls":[{"action":"get_wea', 'ther","args":{"city":"Hang', "zh", 'ou","date":"2025-01-', '15"}}', "]}"]) {
    for (const f of enc.json(piece)) for (const e of d.push(f)) seen.push(`${e.type} ${e.pointer}${e.type === "text" ? " " + e.text : ""}`);
  }
  assert.deepEqual(seen, [
    "field /calls/0/action",
    "text /calls/0/args/city Hang",
    "text /calls/0/args/city Hangzh",
    "text /calls/0/args/city Hangzhou", // the piece that closes the string still carries text
    "field /calls/0/args/city",
    "field /calls/0/args/date",
    "field /calls/0/args",
    "element /calls/0",
    "field /calls",
    "value ",
  ]);
  // escapes and surrogate pairs split across pieces
  const e2 = ToolCallBatch.stream.encoder();
  const f2 = ['{"calls":[{"action":"get_weather","args":{"city":"a\\', 'u00e9\\ud83d', "\\ude00", "b\\n", '","date":"x"}}]}'].flatMap((p) => e2.json(p));
  sameValue(ToolCallBatch.stream.decode(f2), { calls: [{ action: "get_weather", args: { city: "aé😀b\n", date: "x" } }] });
  assert.equal(codeOf(() => ToolCallBatch.stream.encoder().json('{"calls":[}')), "INVALID_VALUE");
});

// -------------------------------------------------------------------------------------------- random values

test("stream: random values of the inline test schemas (tuples, maps, unions, recursion, int64, a wide object) stream exactly", async () => {
  const dir = suiteDir("stream");
  const rng = new Rng(5);
  const failures: string[] = [];
  let total = 0;
  for (const [key, schema] of Object.entries(INLINE_SCHEMAS)) {
    const c = await compileSchema(schema, dir, key);
    const codec = c.codec as unknown as Example["codec"] & { validate(v: unknown): { ok: boolean } };
    const count = key === "wide" ? 5 : 40;
    for (let seed = 1; seed <= count; seed++) {
      const value = arbitrary(c.ir, seed * 104729, { maxItems: 3, maxDepth: 4 });
      if (!codec.validate(value).ok) continue;
      total++;
      const expected = codec.decode(codec.encode(value));
      const options = [{}, { depth: rng.int(0, 3) }, { textChunk: rng.int(1, 4) }][seed % 3]!;
      try {
        const bytes = codec.stream.encode(value, options);
        const cuts = [rng.int(0, bytes.length), rng.int(0, bytes.length), rng.int(0, bytes.length)];
        const back = decodeChunks(codec, splitAt(bytes, cuts)).value;
        if (!isDeepStrictEqual(back, expected)) failures.push(`${key} seed ${seed} ${JSON.stringify(options)}: ${toJson(back)} != ${toJson(expected)}`);
        // JSON mode (no -0 in JSON: compare as JSON)
        const text = toJson(value);
        const enc = codec.stream.encoder();
        const frames: Uint8Array[] = [];
        for (let i = 0; i < text.length; ) {
          const n = rng.int(1, 9);
          frames.push(...enc.json(text.slice(i, i + n)));
          i += n;
        }
        if (!enc.done) failures.push(`${key} seed ${seed}: JSON mode did not finish`);
        const fromJson = codec.stream.decode(frames);
        if (toJson(fromJson) !== toJson(expected)) failures.push(`${key} seed ${seed} JSON mode: ${toJson(fromJson)} != ${toJson(expected)}`);
      } catch (e) {
        failures.push(`${key} seed ${seed} ${JSON.stringify(options)}: threw ${(e as Error).message}`);
      }
    }
  }
  assert.ok(total > 200, `only ${total} values`);
  assert.deepEqual(failures.slice(0, 5), []);
});

// -------------------------------------------------------------------------------------------- evolution

test("stream: writers and readers of different dictionary levels (test/evolution v1..v4): unknown paths skipped, defaults filled", async () => {
  const gen = (v: string) => import(`./evolution/gen/${v}.ts`).then((m) => m.Order as Example["codec"]);
  const codecs: Record<string, Example["codec"]> = { v1: await gen("v1"), v2: await gen("v2"), v3: await gen("v3"), v4: await gen("v4") };
  const values: Record<string, unknown> = {
    v1: { id: "A-1", status: "paid", note: "ring twice", items: [{ sku: "S1", qty: 2 }], payment: { kind: "card", card: "4242" } },
    v2: { id: "A-2", status: "paid", note: "leave at door", items: [{ sku: "S1", qty: 1, gift: true }, { sku: "S2", qty: 3 }], payment: { kind: "cash" }, coupon: { code: "WELCOME", percent: 12.5 }, channel: "app" },
    v3: { id: "A-3", status: "new", items: [{ sku: "S9", qty: 5, gift: false }], coupon: { code: "X" }, channel: "web" },
  };
  let pairs = 0;
  for (const w of ["v1", "v2", "v3"]) {
    for (const r of ["v1", "v2", "v3"]) {
      const writer = codecs[w]!;
      const reader = codecs[r]!;
      // what a whole message gives this reader is what the stream must give it
      const expected = reader.decode(writer.encode(values[w]));
      for (const options of [{}, { depth: 1 }, { depth: 2 }, { textChunk: 1 }]) {
        const got = reader.stream.decode(writer.stream.encode(values[w], options));
        assert.ok(isDeepStrictEqual(got, expected), `${w}>${r} ${JSON.stringify(options)}: ${toJson(got)} != ${toJson(expected)}`);
      }
      pairs++;
    }
    assert.equal(codeOf(() => codecs.v4!.stream.decode(codecs[w]!.stream.encode(values[w]))), "FINGERPRINT_MISMATCH");
  }
  assert.equal(pairs, 9);
  // an unknown ID from a writer that is not newer is an error
  const v1 = codecs.v1!.stream;
  const header = v1.encoder().header()[0]!;
  assert.equal(codeOf(() => v1.decode(concatBytes([header, Uint8Array.of(3, 4, 21, 0)]))), "INVALID_ENCODING");
});

// -------------------------------------------------------------------------------------------- the spec's example

test("stream: the worked example of docs/FORMAT.md §10.3 (§12 there) (bytes, partial value, INCOMPLETE)", async () => {
  // the committed worked example (docs/examples: its dictionary predates per-path interning, so every string interns)
  const mod = (await import(pathToFileURL(path.join(REPO, "docs/examples/gen/order.ts")).href)) as Record<string, unknown>;
  const codec = mod.Order as unknown as Example["codec"] & { fingerprint: number };
  assert.equal(codec.fingerprint, 0xeb6a);
  const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");
  const value = { id: "A-1001", qty: 3, price: 19.99, status: "paid", created: "2025-01-15T10:30:00Z", tags: ["gift", "express", "gift"] };
  assert.deepEqual(codec.stream.frames(value).map(hex), [
    "54 4f 4f 4e 01 00 11 eb 6a",
    "09 04 01 0c 41 2d 31 30 30 31",
    "03 04 02 06",
    "05 04 03 e2 f3 03",
    "03 04 04 01",
    "07 04 06 c1 e2 f1 e1 33",
    "08 04 08 00 08 67 69 66 74",
    "0b 04 08 01 0e 65 78 70 72 65 73 73",
    "08 04 08 02 08 67 69 66 74",
    "03 05 07 03",
    "02 05 00",
  ]);
  assert.equal(codec.encode(value).length, 42);
  const first = codec.stream.decoder();
  const bytes = codec.stream.encode(value);
  let at = 0;
  while (!first.push(bytes.subarray(at, at + 1)).some((e) => e.type === "field")) at++;
  assert.equal(at + 1, 19, "id is available after 19 bytes");
  const enc = codec.stream.encoder();
  const frames = [
    ...enc.set("/id", "A-1001"),
    ...enc.append("/note", "ring "),
    ...enc.set("/tags/1", "express"),
    ...enc.append("/note", "twice"),
    ...enc.set("/tags/0", "gift"),
  ];
  assert.deepEqual(frames.map(hex), [
    "54 4f 4f 4e 01 00 11 eb 6a",
    "09 04 01 0c 41 2d 31 30 30 31",
    "08 06 05 0a 72 69 6e 67 20",
    "0b 04 08 01 0e 65 78 70 72 65 73 73",
    "08 06 05 0a 74 77 69 63 65",
    "08 04 08 00 08 67 69 66 74",
  ]);
  assert.equal(sseEvent(frames[0]!) + sseEvent(frames[1]!), "event: toon\ndata: VE9PTgEAEetq\n\nevent: toon\ndata: CQQBDEEtMTAwMQ==\n\n");
  const d = codec.stream.decoder();
  for (const f of frames) d.push(f);
  assert.equal(JSON.stringify(d.snapshot()), '{"id":"A-1001","tags":["gift","express"]}');
  assert.equal(JSON.stringify(d.snapshot({ partialText: true })), '{"id":"A-1001","note":"ring twice","tags":["gift","express"]}');
  assert.throws(
    () => d.end(),
    (e: ToonError) =>
      e.message ===
      "INCOMPLETE: Order stream ended before the value was complete (5 frames): missing /qty (qty), /price (price), /status (status), /created (created); not finished: /note (note): string still arriving (10 characters so far), /tags (tags), the root ($) at /qty",
  );
  // §12.2: an address with four steps (the orders schema without default-value tables)
  const orders = await compileSchema(JSON.parse(readFileSync(path.join(REPO, "examples/orders/schemas/order-list.schema.json"), "utf8")), suiteDir("stream-doc"), "order-list");
  const oenc = (orders.codec as unknown as Example["codec"]).stream.encoder();
  oenc.header();
  assert.equal(hex(oenc.set("/orders/2/customer/address/city", "北京")[0]!), "0d 10 02 02 05 12 1a 0c e5 8c 97 e4 ba ac");
});

// -------------------------------------------------------------------------------------------- SSE

test("sse: base64 (RFC 4648 test vectors) both ways, and strict decoding", () => {
  const vectors: [string, string][] = [
    ["", ""],
    ["f", "Zg=="],
    ["fo", "Zm8="],
    ["foo", "Zm9v"],
    ["foob", "Zm9vYg=="],
    ["fooba", "Zm9vYmE="],
    ["foobar", "Zm9vYmFy"],
  ];
  for (const [plain, b64] of vectors) {
    assert.equal(toBase64(new TextEncoder().encode(plain)), b64);
    assert.equal(new TextDecoder().decode(fromBase64(b64)), plain);
  }
  const rng = new Rng(3);
  for (let i = 0; i < 200; i++) {
    const bytes = Uint8Array.from({ length: rng.int(0, 70) }, () => rng.int(0, 255));
    assert.deepEqual(fromBase64(toBase64(bytes)), bytes);
    assert.equal(toBase64(bytes), Buffer.from(bytes).toString("base64"));
  }
  assert.deepEqual(fromBase64("Zm9vYg"), new TextEncoder().encode("foob"));
  for (const bad of ["Z", "Zm9v!", "Zm9=v", "Zm===", "é"]) assert.equal(codeOf(() => fromBase64(bad)), "INVALID_ENCODING", bad);
});

test("sse: the parser follows the event-stream rules (CR, LF, CRLF split across chunks, comments, multi-line data)", () => {
  const text = "\ufeff: hello\r\nevent: toon\r\ndata: a\r\ndata:b\r\n\r\nid: 7\ndata: c\n\n: ping\n\ndata\n\nevent: other\rdata: d\r\r";
  const expected = [
    { event: "toon", data: "a\nb" },
    { event: "message", data: "c", id: "7" },
    { event: "message", data: "", id: "7" },
    { event: "other", data: "d", id: "7" },
  ];
  for (let k = 0; k <= text.length; k++) {
    const p = new SseParser();
    const got = [...p.push(text.slice(0, k)), ...p.push(text.slice(k))];
    assert.deepEqual(got, expected, `split at ${k}`);
  }
  const p = new SseParser();
  const all = Array.from(text).flatMap((c) => p.push(c));
  assert.deepEqual(all, expected, "one character at a time");
});

test("sse: a whole stream as events, re-split anywhere (text and bytes), decodes to the value", () => {
  const ex = EXAMPLES[1]!;
  const frames = ex.codec.stream.frames(ex.value, { depth: 3 });
  const body = sseComment("orders") + frames.map((f, i) => sseEvent(f, { id: String(i) })).join("") + sseEvent(frames.slice(0, 0), { event: "done" });
  assert.match(body, /^: orders\n\nevent: toon\nid: 0\ndata: VE9PTgEA/);
  const rng = new Rng(11);
  for (let round = 0; round < 20; round++) {
    const variant = round % 2 === 0 ? body : body.replace(/\n/g, "\r\n");
    const reader = new SseFrameReader();
    const d = ex.codec.stream.decoder();
    for (let i = 0; i < variant.length; ) {
      const n = rng.int(1, 200);
      for (const f of reader.push(variant.slice(i, i + n))) d.push(f);
      i += n;
    }
    sameValue(d.end(), ex.value);
    assert.deepEqual(
      reader.others.map((e) => e.event),
      ["done"],
    );
  }
  // bytes, with a multi-byte character split between chunks
  const bytes = new TextEncoder().encode(": 订单\n\n" + body);
  const reader = new SseFrameReader();
  const d = ex.codec.stream.decoder();
  for (let i = 0; i < bytes.length; i += 5) for (const f of reader.pushBytes(bytes.subarray(i, i + 5))) d.push(f);
  sameValue(d.end(), ex.value);
  // several frames in one event
  const r2 = new SseFrameReader();
  const batched = r2.push(sseEvent(frames.slice(0, 10)) + sseEvent(frames.slice(10)));
  sameValue(ex.codec.stream.decode(batched), ex.value);
  assert.equal(codeOf(() => sseEvent(frames[0]!, { event: "a\nb" })), "INVALID_VALUE");
});

// -------------------------------------------------------------------------------------------- loopback HTTP

test("stream: the loopback HTTP example (server and client on 127.0.0.1, SSE) runs and stops by itself", { timeout: 30_000 }, async () => {
  const { run } = await import("../examples/streaming/main.ts");
  const lines: string[] = [];
  const started = performance.now();
  const r = await run({ log: (l) => lines.push(l), delayMs: 0, timeoutMs: 20_000 });
  assert.ok(performance.now() - started < 20_000);
  assert.ok(r.port > 0);
  sameValue(r.toolCalls.value, r.toolCalls.expected);
  assert.ok(r.toolCalls.firstFieldAtByte !== undefined && r.toolCalls.firstFieldAtByte < 20, `first field after ${r.toolCalls.firstFieldAtByte} bytes`);
  assert.equal(r.cut.error?.code, "INCOMPLETE");
  assert.match(r.cut.error!.message, /missing \/calls\/1\/args\/date/);
  assert.deepEqual((r.cut.snapshot as any).calls[0], (r.toolCalls.expected as any).calls[0]);
  sameValue(r.orders.value, r.orders.expected);
  // a model's dense reply forwarded with encoder.text(piece): one VALUE frame per order, then END /orders, END root
  sameValue(r.ordersText.value, r.ordersText.expected);
  const textOrders = (r.ordersText.expected as { orders: { id: string }[] }).orders;
  assert.equal(r.ordersText.frames, textOrders.length + 2);
  const section = lines.slice(lines.findIndex((l) => l.includes("GET /orders-text")));
  textOrders.forEach((o, k) => {
    assert.ok(section.some((l) => l.startsWith(`  server   row /orders/${k} `) && l.includes(o.id)), `the server printed row ${k}`);
    // the client had order k as frame k + 1, each order its own frame
    assert.ok(section.some((l) => l.startsWith(`  client   order /orders/${k} `) && l.includes(o.id) && l.includes(`(frame ${k + 1},`)), `the client printed order ${k}: ${section.join("\n")}`);
  });
  assert.ok(section.some((l) => l.startsWith("   final value: ")));
  assert.ok(lines.some((l) => l.startsWith("  text ")), "TEXT events were printed");
  assert.ok(lines.some((l) => l.includes("snapshot")), "snapshots were printed");
});
