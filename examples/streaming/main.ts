/**
 * TOON streams over server-sent events, on loopback (docs/FORMAT.md §10.3).
 *
 * A Node HTTP server on 127.0.0.1 (an ephemeral port) streams values frame by frame as SSE events; a client
 * in the same process reads them with `SseFrameReader`, feeds a `StreamDecoder` and prints the events and
 * partial snapshots as they arrive. Four runs:
 *
 * 1. `/tool-calls`: a model's tool-call arguments arriving as JSON text in small pieces (as an LLM API streams
 *    them) are turned into frames on the fly (`encoder.json(delta)`): the client sees each city name grow
 *    character by character (TEXT frames) and each call as soon as it is complete.
 * 2. `/tool-calls?cut=N`: the same, but the server drops the connection after N frames: the client keeps a
 *    well-defined partial value and `end()` reports INCOMPLETE naming the required fields that never came.
 * 3. `/orders`: three orders assembled in parallel (say, from three backends); their frames interleave on the
 *    wire and the client completes each order when its last frame arrives.
 * 4. `/orders-text`: a model's reply streaming the orders as dense TOON text (a line of prose, then a ```toon
 *    fence, as `OrderList.formatInstructions({ layout: "dense" })` asks for). The server reads it with
 *    `OrderList.reader()` (a typed row as each line arrives) and forwards it with `encoder.text(piece)`, which
 *    makes one frame per order as its row's line is read: the client gets each order before the reply is over.
 *
 * Everything is bounded: the server stops after the four runs, a timer aborts the whole thing after 10 s.
 *
 *   node --conditions=toon-dev --import tsx examples/streaming/main.ts
 */
import { readFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SSE_HEADERS, SseFrameReader, sseEvent, ToonError, type StreamEvent } from "toon-gen/runtime";
import { ToolCallBatch } from "../tool-calls/gen/tool-call-batch.ts";
import { OrderList } from "../orders/gen/order-list.ts";

export interface RunOptions {
  /** Where the narration goes (default: nowhere). */
  log?: (line: string) => void;
  /** Milliseconds between pieces the server sends (default 2). */
  delayMs?: number;
  /** Abort everything after this long (default 10 000 ms). */
  timeoutMs?: number;
}

export interface ClientResult {
  frames: number;
  bytes: number;
  events: number;
  /** Stream bytes that had arrived when the first field was complete. */
  firstFieldAtByte: number | undefined;
  value?: unknown;
  error?: ToonError;
  snapshot: unknown;
}

export interface RunResult {
  port: number;
  toolCalls: ClientResult & { expected: unknown };
  cut: ClientResult;
  orders: ClientResult & { expected: unknown };
  ordersText: ClientResult & { expected: unknown };
}

const dataDir = fileURLToPath(new URL("../", import.meta.url));
const toolCallData = JSON.parse(readFileSync(dataDir + "tool-calls/data/tool-call-batch.json", "utf8")) as ToolCallBatch;
const orderData = JSON.parse(readFileSync(dataDir + "orders/data/order-list.json", "utf8")) as OrderList;

/** What the server streams: the first three tool calls, and three orders. */
const TOOL_CALLS: ToolCallBatch = { calls: toolCallData.calls.slice(0, 3) };
const ORDERS: OrderList = { orders: orderData.orders.slice(0, 3) };

/**
 * What the model replies when asked for the orders in the dense layout (`OrderList.formatInstructions({ layout:
 * "dense" })` is the prompt that asks for it): a line of prose, then the payload in a ```toon fence.
 */
const ORDERS_REPLY = `Here are the three orders you asked for.\n\n\`\`\`toon\n${OrderList.toText(ORDERS, { layout: "dense" })}\n\`\`\`\n`;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Cut text into pieces of 1..8 characters, the way a model's tokens arrive (deterministic). */
function pieces(text: string): string[] {
  const out: string[] = [];
  let seed = 7;
  for (let i = 0; i < text.length; ) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const n = 1 + (seed % 8);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

function startServer(delayMs: number, log: (line: string) => void): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    res.writeHead(200, { ...SSE_HEADERS });
    let sent = 0;
    const cut = Number(url.searchParams.get("cut") ?? Infinity);
    let closed = false;
    res.on("close", () => (closed = true));
    const send = (frames: Uint8Array[]): boolean => {
      for (const f of frames) {
        if (closed) return false;
        if (sent === cut) {
          // the connection drops in the middle of the stream
          closed = true;
          res.destroy();
          return false;
        }
        res.write(sseEvent(f));
        sent++;
      }
      return true;
    };
    void (async () => {
      if (url.pathname === "/tool-calls") {
        const enc = ToolCallBatch.stream.encoder();
        for (const piece of pieces(JSON.stringify(TOOL_CALLS))) {
          if (!send(enc.json(piece))) return;
          await sleep(delayMs);
        }
      } else if (url.pathname === "/orders") {
        // each order's frames, made independently, then sent interleaved: round robin, one frame at a time
        const enc = OrderList.stream.encoder();
        const perOrder = ORDERS.orders.map((o, i) => enc.encodeIncremental(o, { at: `/orders/${i}` }));
        if (!send(perOrder[0]!.splice(0, 1))) return; // the header frame came with the first call
        for (let k = 0; perOrder.some((f) => k < f.length); k++) {
          for (const frames of perOrder) if (k < frames.length && !send([frames[k]!])) return;
          await sleep(delayMs);
        }
        if (!send(enc.end())) return;
      } else if (url.pathname === "/orders-text") {
        // the server reads the model's reply itself (typed rows, say to store them) ...
        const reader = OrderList.reader();
        // ... and forwards it as frames: `text()` reads the same pieces and sends each order as its row completes
        const enc = OrderList.stream.encoder();
        for (const piece of pieces(ORDERS_REPLY)) {
          for (const e of reader.push(piece)) {
            if (e.type === "element" && e.path === "orders[]") log(`  server   row ${e.pointer.padEnd(10)} ${e.value.id}  ${e.value.customer.name}  ${e.value.total} ${e.value.currency}`);
          }
          if (!send(enc.text(piece))) return;
          await sleep(delayMs);
        }
        reader.end(); // the whole value, checked (the closing fence completed it already)
        // the reply is over: what its end completes goes out (nothing here: the fence closed the value)
        if (!send(enc.end())) return;
      } else {
        res.statusCode = 404;
      }
      res.end();
    })();
  });
}

function short(v: unknown, max = 110): string {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > max ? s.slice(0, max - 3) + "..." : s;
}

/** How many fields of each order a snapshot has. */
function progress(snapshot: unknown): string {
  const orders = (snapshot as { orders?: (Record<string, unknown> | undefined)[] } | undefined)?.orders ?? [];
  return `snapshot has ${[...orders].map((o, i) => `orders/${i}: ${o === undefined ? 0 : Object.keys(o).length} fields`).join(", ")}`;
}

/**
 * GET an event stream and decode it; resolves when the connection ends, whichever way. `style`: what to print of
 * the events: all of them, one line per order completed with the others' progress, or the orders as they arrive.
 */
function fetchStream<T>(
  port: number,
  pathname: string,
  decoder: { push(f: Uint8Array): StreamEvent<T, any>[]; end(): T; snapshot(o?: { partialText?: boolean }): unknown; frames: number; bytes: number },
  log: (line: string) => void,
  signal: AbortSignal,
  style: "all" | "progress" | "orders" = "all",
): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const reader = new SseFrameReader();
    const result: ClientResult = { frames: 0, bytes: 0, events: 0, firstFieldAtByte: undefined, snapshot: undefined };
    const req = http.get({ host: "127.0.0.1", port, path: pathname, signal }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (text: string) => {
        try {
          for (const frame of reader.push(text)) {
            for (const e of decoder.push(frame)) {
              result.events++;
              if (result.firstFieldAtByte === undefined && (e.type === "field" || e.type === "element")) result.firstFieldAtByte = decoder.bytes;
              if (e.type === "value") log(`  value    complete after ${decoder.frames} frames, ${decoder.bytes} bytes`);
              else if (style === "progress") {
                // orders: one line per order completed, with how far the others have got
                if (e.type === "element" && e.pointer.split("/").length === 3) log(`  element  ${e.pointer.padEnd(10)} complete at frame ${decoder.frames}; ${progress(decoder.snapshot())}`);
              } else if (style === "orders") {
                // each order as its frame arrives
                if (e.type === "element" && e.path === "orders[]") {
                  const o = e.value as OrderList["orders"][number];
                  log(`  client   order ${e.pointer.padEnd(10)} ${o.id}  ${o.customer.name}  ${o.total} ${o.currency}  (frame ${decoder.frames}, ${decoder.bytes} bytes)`);
                }
              } else if (e.type === "text") log(`  text     ${e.pointer.padEnd(20)} ${JSON.stringify(e.text)}`);
              else if (e.type === "field") log(`  field    ${e.pointer.padEnd(20)} ${short(e.value, 60)}`);
              else {
                log(`  element  ${e.pointer.padEnd(20)} ${short(e.value, 60)}`);
                log(`  snapshot ${short(decoder.snapshot({ partialText: true }))}`);
              }
            }
          }
        } catch (e) {
          req.destroy(e as Error);
        }
      });
      res.on("error", () => {}); // a dropped connection surfaces as `close` below
      res.on("close", () => {
        result.frames = decoder.frames;
        result.bytes = decoder.bytes;
        result.snapshot = decoder.snapshot();
        try {
          result.value = decoder.end();
        } catch (e) {
          if (!(e instanceof ToonError)) return reject(e);
          result.error = e;
        }
        resolve(result);
      });
    });
    req.on("error", (e) => {
      if (signal.aborted) reject(new Error("streaming example timed out"));
      else if (!(e instanceof ToonError)) reject(e);
    });
  });
}

export async function run(options: RunOptions = {}): Promise<RunResult> {
  const log = options.log ?? (() => {});
  const delayMs = options.delayMs ?? 2;
  const server = startServer(delayMs, log);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 10_000);
  try {
    log(`server on http://127.0.0.1:${port}`);

    log(`\n1. GET /tool-calls: tool-call JSON pieces -> frames -> SSE`);
    const toolCalls = await fetchStream(port, "/tool-calls", ToolCallBatch.stream.decoder(), log, abort.signal);
    log(`   ${toolCalls.frames} frames, ${toolCalls.bytes} bytes; first field after ${toolCalls.firstFieldAtByte} bytes`);

    log(`\n2. GET /tool-calls?cut=11: the connection drops after 11 events, while /calls/1/args/city is arriving`);
    const cut = await fetchStream(port, "/tool-calls?cut=11", ToolCallBatch.stream.decoder(), log, abort.signal);
    log(`   partial value: ${short(cut.snapshot, 220)}`);
    log(`   end(): ${cut.error?.code}: ${cut.error?.reason}`);

    log(`\n3. GET /orders: three orders' frames interleaved`);
    const orders = await fetchStream(port, "/orders", OrderList.stream.decoder(), log, abort.signal, "progress");
    log(`   ${orders.frames} frames, ${orders.bytes} bytes; the whole message would be ${OrderList.encode(ORDERS).length} bytes`);

    log(`\n4. GET /orders-text: a model's dense TOON reply in pieces -> one frame per order -> SSE`);
    const ordersText = await fetchStream(port, "/orders-text", OrderList.stream.decoder(), log, abort.signal, "orders");
    log(`   final value: ${short(ordersText.value, 220)}`);
    log(`   ${ordersText.frames} frames, ${ordersText.bytes} bytes for a reply of ${ORDERS_REPLY.length} characters`);

    return {
      port,
      toolCalls: { ...toolCalls, expected: TOOL_CALLS },
      cut,
      orders: { ...orders, expected: ORDERS },
      ordersText: { ...ordersText, expected: ORDERS },
    };
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await run({ log: (line) => console.log(line) });
  const same = (x: { value?: unknown; expected: unknown }) => JSON.stringify(x.value) === JSON.stringify(x.expected);
  const ok = same(r.toolCalls) && same(r.orders) && same(r.ordersText) && r.cut.error?.code === "INCOMPLETE";
  console.log(ok ? "\nok: the complete streams decoded to the values sent; the cut one reported INCOMPLETE" : "\nMISMATCH");
  if (!ok) process.exitCode = 1;
}
