/**
 * TOON streams over server-sent events (text/event-stream, docs/FORMAT.md §10.3 (§7 there)). Each frame (the header
 * first) travels as one event named `toon` whose single `data:` line is the frame's bytes in base64 (RFC 4648,
 * with padding). Base64 is text-safe: it holds no line break, so a frame is always exactly one line.
 *
 * Server: `res.write(sseEvent(frame))` per frame. Client: an `SseFrameReader` takes the response text (or bytes)
 * in chunks split anywhere and hands back the frames, for a `StreamDecoder`. Browsers' `EventSource` works too:
 * `es.addEventListener("toon", (e) => decoder.push(fromBase64(e.data)))`.
 *
 * Zero dependencies; no Node APIs (TextDecoder is a web standard).
 */
import { ToonError, optionsArg } from "./wire/errors.ts";

/** Event name the helpers use for TOON frames. */
export const SSE_EVENT = "toon";

/** Response headers for an event stream (no caching, no proxy buffering). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Base64 (RFC 4648 §4, padded). */
export function toBase64(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) throw new ToonError("INVALID_VALUE", `toBase64 expects a Uint8Array, got ${bytes === null ? "null" : typeof bytes}`);
  let out = "";
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const x = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[x >>> 18]! + ALPHABET[(x >>> 12) & 63]! + ALPHABET[(x >>> 6) & 63]! + ALPHABET[x & 63]!;
  }
  if (i < n) {
    const x = (bytes[i]! << 16) | (i + 1 < n ? bytes[i + 1]! << 8 : 0);
    out += ALPHABET[x >>> 18]! + ALPHABET[(x >>> 12) & 63]! + (i + 1 < n ? ALPHABET[(x >>> 6) & 63]! : "=") + "=";
  }
  return out;
}

/** Decode base64 (padding optional). Throws ToonError INVALID_ENCODING on anything else. */
export function fromBase64(text: string): Uint8Array {
  if (typeof text !== "string") throw new ToonError("INVALID_VALUE", `fromBase64 expects a string, got ${text === null ? "null" : typeof text}`);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  if (text.length - end > 2 || end % 4 === 1) throw new ToonError("INVALID_ENCODING", "not base64 (bad length or padding)");
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let bits = 0;
  let p = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? DECODE[c]! : -1;
    if (v < 0) throw new ToonError("INVALID_ENCODING", `not base64: character ${JSON.stringify(text[i])} at ${i}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[p++] = (acc >>> bits) & 0xff;
    }
  }
  return out;
}

/** One event of an event stream. */
export interface SseMessage {
  /** The event type (`message` when the event named none). */
  event: string;
  data: string;
  /** The last event ID seen, if any. */
  id?: string;
}

/**
 * The text of one event carrying `frames` (one frame, or several concatenated): `event: toon`, an optional
 * `id:`, one `data:` line of base64, a blank line.
 */
export function sseEvent(frames: Uint8Array | readonly Uint8Array[], options: { event?: string; id?: string } = {}): string {
  optionsArg(options, "sseEvent");
  let bytes: Uint8Array;
  if (frames instanceof Uint8Array) bytes = frames;
  else if (!Array.isArray(frames)) throw new ToonError("INVALID_VALUE", `sseEvent expects a frame (Uint8Array) or an array of frames, got ${frames === null ? "null" : typeof frames}`);
  else {
    let n = 0;
    for (const f of frames) {
      if (!(f instanceof Uint8Array)) throw new ToonError("INVALID_VALUE", `sseEvent expects frames (Uint8Array), got an item that is ${f === null ? "null" : Array.isArray(f) ? "an array" : typeof f}`);
      n += f.length;
    }
    bytes = new Uint8Array(n);
    let p = 0;
    for (const f of frames) {
      bytes.set(f, p);
      p += f.length;
    }
  }
  const event = options.event ?? SSE_EVENT;
  if (/[\r\n]/.test(event) || (options.id !== undefined && /[\r\n\0]/.test(options.id))) {
    throw new ToonError("INVALID_VALUE", "an SSE event name or id may not hold line breaks");
  }
  return `event: ${event}\n${options.id !== undefined ? `id: ${options.id}\n` : ""}data: ${toBase64(bytes)}\n\n`;
}

/** A comment line (ignored by clients): keeps idle connections open through proxies. */
export function sseComment(text = ""): string {
  if (typeof text !== "string") throw new ToonError("INVALID_VALUE", `sseComment expects a string, got ${text === null ? "null" : typeof text}`);
  return `: ${text.replace(/[\r\n]+/g, " ")}\n\n`;
}

/**
 * Parses an event stream as the WHATWG HTML standard (§9.2.6) does: lines end in CRLF, LF or CR (a CRLF split
 * between chunks included), `:` lines are comments, `data:` lines accumulate, a blank line dispatches. Chunks
 * may be split anywhere.
 */
export class SseParser {
  private line = "";
  private lastCR = false;
  private started = false;
  private event = "";
  private data: string[] = [];
  private lastId: string | undefined;
  private bytes: TextDecoder | undefined;

  /** Feed text; returns the events it completed. */
  push(text: string): SseMessage[] {
    const out: SseMessage[] = [];
    let i = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    let from = i;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      if (c === 10 && this.lastCR && i === from && this.line === "") {
        // the LF of a CRLF whose CR ended the previous piece
        this.lastCR = false;
        from = i + 1;
        continue;
      }
      this.lineDone(this.line + text.slice(from, i), out);
      this.line = "";
      this.lastCR = c === 13;
      if (c === 13 && i + 1 < text.length && text.charCodeAt(i + 1) === 10) {
        i++;
        this.lastCR = false;
      }
      from = i + 1;
    }
    if (from < text.length) {
      this.line += text.slice(from);
      this.lastCR = false;
    }
    return out;
  }

  /** Feed bytes (UTF-8, split anywhere, even inside a character). */
  pushBytes(chunk: Uint8Array): SseMessage[] {
    this.bytes ??= new TextDecoder("utf-8");
    return this.push(this.bytes.decode(chunk, { stream: true }));
  }

  private lineDone(line: string, out: SseMessage[]): void {
    if (line === "") {
      if (this.data.length > 0) {
        const m: SseMessage = { event: this.event === "" ? "message" : this.event, data: this.data.join("\n") };
        if (this.lastId !== undefined) m.id = this.lastId;
        out.push(m);
      }
      this.data = [];
      this.event = "";
      return;
    }
    if (line.charCodeAt(0) === 58) return; // comment
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id") {
      if (value.indexOf("\0") < 0) this.lastId = value;
    }
    // `retry` and unknown fields: ignored
  }
}

/** The client side: event-stream text in, TOON frames out (events of other types are skipped). */
export class SseFrameReader {
  /** Events of other types seen so far (for callers that multiplex). */
  readonly others: SseMessage[] = [];
  private readonly parser = new SseParser();
  private readonly event: string;

  constructor(options: { event?: string } = {}) {
    this.event = optionsArg(options, "SseFrameReader")!.event ?? SSE_EVENT;
  }

  /** Feed response text; returns the frames (bytes) of the events it completed. */
  push(text: string): Uint8Array[] {
    return this.frames(this.parser.push(text));
  }

  /** Feed response bytes (UTF-8). */
  pushBytes(chunk: Uint8Array): Uint8Array[] {
    return this.frames(this.parser.pushBytes(chunk));
  }

  private frames(events: SseMessage[]): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const e of events) {
      if (e.event === this.event) out.push(fromBase64(e.data));
      else this.others.push(e);
    }
    return out;
  }
}
