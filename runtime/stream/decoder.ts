/**
 * The stream decoder: splits bytes into frames (the header first), applies each to the assembly and hands out the
 * events it made; `snapshot()`, `missing()` and `end()` read the assembly.
 */
import { optionsArg, ToonError } from "../wire/errors.ts";
import { type Header, hex16, peekHeader } from "../wire/header.ts";
import { Reader } from "../wire/reader.ts";
import { DEFAULT_MAX_ZERO_WIDTH_ITEMS, limitOf } from "../wire/limits.ts";
import { Flag, FORMAT_VERSION } from "../wire/wire.ts";
import type { PartialValue, StreamEvent } from "./events.ts";
import { DEFAULT_MAX_FRAME_BYTES, EMPTY, HEADER_FLAGS, type PathMap, type StreamDecoderOptions, type StreamSpec } from "./spec.ts";
import { type PathTable, tableOf } from "./path-table.ts";
import { Assembly, type MissingPart } from "./assembly.ts";

/** Rebase a decoding error onto the stream: absolute byte offset, frame number. */
function streamError(e: unknown, offset: number, frame: number): ToonError {
  if (!(e instanceof ToonError)) {
    if (e instanceof RangeError) return new ToonError("DEPTH_LIMIT", "nesting too deep for the call stack", { cause: e, offset });
    throw e;
  }
  const reason = e.reason.replace(/ \(byte \d+\)$/, "");
  const at = e.offset !== undefined ? offset + e.offset : offset;
  return new ToonError(e.code, `${reason} (frame ${frame}, stream byte ${at})`, { path: e.path, offset: at, cause: e, ...(e.details ? { details: e.details } : {}) });
}

export class StreamDecoder<T = unknown, P extends PathMap = PathMap> {
  /** The stream header, once its bytes have arrived. */
  header: Header | undefined;
  /** Complete frames applied so far (the header not counted). */
  frames = 0;
  /** Bytes consumed so far (header and complete frames). */
  bytes = 0;
  private readonly asm: Assembly<T, P>;
  private readonly t: PathTable;
  private acc: Uint8Array = EMPTY;
  private accLen = 0;
  private failed: ToonError | undefined;
  private readonly maxFrame: number;
  private readonly onEvent: ((e: StreamEvent<T, P>) => void) | undefined;

  constructor(
    readonly spec: StreamSpec,
    options: StreamDecoderOptions<T, P> = {},
  ) {
    this.t = tableOf(spec);
    optionsArg(options, "StreamDecoder");
    this.asm = new Assembly<T, P>(this.t, true, limitOf(options.maxZeroWidthItems, DEFAULT_MAX_ZERO_WIDTH_ITEMS, "maxZeroWidthItems"));
    this.maxFrame = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.onEvent = options.onEvent;
  }

  /** True once the whole value has arrived. */
  get done(): boolean {
    return this.asm.finished;
  }

  /** The complete value (throws INCOMPLETE until `done`). */
  get value(): T {
    if (!this.asm.finished) throw this.incomplete();
    return this.asm.root.value as T;
  }

  /**
   * Feed bytes, split anywhere (a frame may span chunks, a chunk may hold many frames). Returns the events of
   * the frames this chunk completed. A decoding error is thrown now and again by every later call.
   */
  push(chunk: Uint8Array): StreamEvent<T, P>[] {
    if (this.failed) throw this.failed;
    if (!(chunk instanceof Uint8Array)) {
      throw (this.failed = new ToonError("INVALID_ENCODING", "expected a Uint8Array chunk, got " + typeof chunk));
    }
    const events: StreamEvent<T, P>[] = [];
    this.asm.events = events;
    let buf: Uint8Array;
    let end: number;
    if (this.accLen === 0) {
      buf = chunk;
      end = chunk.length;
    } else {
      this.reserve(this.accLen + chunk.length);
      this.acc.set(chunk, this.accLen);
      this.accLen += chunk.length;
      buf = this.acc;
      end = this.accLen;
    }
    let pos = 0;
    const base = this.bytes;
    try {
      pos = this.consume(buf, end);
    } catch (e) {
      this.failed = streamError(e, base, this.frames + 1);
      this.asm.events = null;
      throw this.failed;
    }
    const left = end - pos;
    if (left === 0) this.accLen = 0;
    else if (buf === chunk) {
      this.reserve(left);
      this.acc.set(chunk.subarray(pos, end), 0);
      this.accLen = left;
    } else {
      this.acc.copyWithin(0, pos, end);
      this.accLen = left;
    }
    this.asm.events = null;
    if (this.onEvent) for (const e of events) this.onEvent(e);
    return events;
  }

  private reserve(n: number): void {
    if (this.acc.length >= n) return;
    const next = new Uint8Array(Math.max(n, this.acc.length * 2, 256));
    next.set(this.acc.subarray(0, this.accLen));
    this.acc = next;
  }

  /** Process the header and every complete frame in buf[0, end); returns where the unprocessed bytes start. */
  private consume(buf: Uint8Array, end: number): number {
    let pos = 0;
    if (this.header === undefined) {
      const r = new Reader(buf, 0, end);
      let h: Header;
      try {
        h = peekHeader(r);
      } catch (e) {
        if (e instanceof ToonError && e.code === "TRUNCATED") return 0;
        throw e;
      }
      this.checkHeader(h);
      this.header = h;
      this.asm.level = h.level;
      this.asm.ext = (h.flags & Flag.EXTENSIONS) !== 0;
      pos = r.pos;
      this.bytes += pos;
    }
    while (pos < end) {
      if (this.asm.finished) {
        throw new ToonError("TRAILING_BYTES", `${end - pos} bytes after the complete value`, { offset: pos });
      }
      // length prefix
      let len = 0;
      let p = pos;
      let shift = 1;
      for (;;) {
        if (p >= end) return pos;
        const b = buf[p++]!;
        len += (b & 0x7f) * shift;
        if (b < 0x80) break;
        shift *= 128;
        if (shift > 2 ** 35) throw new ToonError("INVALID_ENCODING", "frame length varint too long", { offset: pos });
      }
      if (len === 0) throw new ToonError("INVALID_ENCODING", "empty frame", { offset: pos });
      if (len > this.maxFrame) throw new ToonError("INVALID_ENCODING", `frame of ${len} bytes exceeds the limit of ${this.maxFrame}`, { offset: pos });
      if (end - p < len) return pos;
      const r = new Reader(buf, p, p + len);
      r.level = this.asm.level;
      this.asm.apply(r);
      this.frames++;
      this.bytes += p + len - pos;
      pos = p + len;
    }
    return pos;
  }

  private checkHeader(h: Header): void {
    if (h.version !== FORMAT_VERSION) {
      throw new ToonError("UNSUPPORTED_VERSION", `format version ${h.version}; this runtime reads version ${FORMAT_VERSION}`, { offset: 4 });
    }
    if (h.fingerprint === undefined) {
      throw new ToonError("FINGERPRINT_MISMATCH", `stream has no dictionary fingerprint; ${this.spec.name} expects ${hex16(this.spec.fingerprint)}`, { offset: 5 });
    }
    if (h.fingerprint !== this.spec.fingerprint) {
      throw new ToonError(
        "FINGERPRINT_MISMATCH",
        `stream was written with dictionary fingerprint ${hex16(h.fingerprint)}, but ${this.spec.name} expects ${hex16(this.spec.fingerprint)}: the sender and receiver use different dictionaries`,
        { offset: 7 },
      );
    }
    if ((h.flags & Flag.STREAM) === 0) {
      throw new ToonError("UNSUPPORTED_FLAGS", `header flags ${hex16(h.flags)} lack STREAM (0x0010): this is a whole message, decode it with ${this.spec.name}.decode()`, { offset: 5 });
    }
    const defaults = (this.spec.flags ?? 0) & Flag.DEFAULTS;
    if (defaults !== 0 && (h.flags & Flag.DEFAULTS) === 0) {
      // as for whole messages: the fingerprint of a codec with default-value tables covers them
      throw new ToonError("FINGERPRINT_MISMATCH", `stream has fingerprint ${hex16(h.fingerprint)} but not the DEFAULTS flag, and ${this.spec.name} reads only values written with its default-value tables`, { offset: 5 });
    }
    const unknown = h.flags & ~(HEADER_FLAGS | Flag.EXTENSIONS | defaults);
    if (unknown !== 0) throw new ToonError("UNSUPPORTED_FLAGS", `header flags ${hex16(unknown)} are not supported in a stream`, { offset: 5 });
  }

  /**
   * The value as far as it has arrived: completed parts are final (and copies); parts still missing are absent
   * (array items not started are holes). `partialText` includes strings still arriving through TEXT frames.
   * Undefined before anything of the value has arrived.
   */
  snapshot(options: { partialText?: boolean } = {}): PartialValue<T> | undefined {
    const root = this.asm.root;
    if (!root.started) return undefined;
    return this.asm.snapshot(root, options.partialText === true) as PartialValue<T>;
  }

  /** What is still missing: required values that never arrived, locations not finished (empty once `done`). */
  missing(): MissingPart[] {
    if (this.asm.finished) return [];
    const out: MissingPart[] = [];
    if (this.header === undefined) out.push({ path: "", dictionaryPath: "$", kind: "stream", message: "the stream header never arrived" });
    if (this.accLen > 0 && this.header !== undefined) out.push({ path: "", dictionaryPath: "$", kind: "stream", message: `the last frame was cut off after ${this.accLen} bytes` });
    out.push(...this.asm.missing());
    return out;
  }

  /**
   * The transport is closed: returns the value if it is complete, else throws INCOMPLETE naming what is
   * missing (required values that never arrived, locations not finished, a cut-off frame; all of them in
   * `details`). The partial state stays readable through `snapshot()`.
   */
  end(): T {
    if (this.failed) throw this.failed;
    if (!this.asm.finished) throw this.incomplete();
    return this.asm.root.value as T;
  }

  private incomplete(): ToonError {
    const parts = this.missing();
    const name = (m: MissingPart): string => (m.path === "" ? `the root (${m.dictionaryPath})` : `${m.path} (${m.dictionaryPath})`);
    const list = (ms: MissingPart[], max: number): string =>
      ms
        .slice(0, max)
        .map((m) => (m.kind === "unfinished" && m.message !== "not ended" ? `${name(m)}: ${m.message}` : name(m)))
        .join(", ") + (ms.length > max ? ` and ${ms.length - max} more` : "");
    const required = parts.filter((m) => m.kind === "required");
    const unfinished = parts.filter((m) => m.kind === "unfinished");
    const stream = parts.filter((m) => m.kind === "stream");
    const what = [
      ...stream.map((m) => m.message),
      ...(required.length > 0 ? [`missing ${list(required, 8)}`] : []),
      ...(unfinished.length > 0 ? [`not finished: ${list(unfinished, 6)}`] : []),
    ].join("; ");
    return new ToonError("INCOMPLETE", `${this.spec.name} stream ended before the value was complete (${this.frames} frames): ${what}`, {
      path: (required[0] ?? unfinished[0])?.path ?? "",
      details: parts.map((m) => ({ path: m.path, message: `${m.dictionaryPath}: ${m.message}` })),
    });
  }
}
