/**
 * JSON text in pieces -> frames: the encoder's JSON mode, one feed per location being fed. It runs the one JSON
 * tokenizer (../text/reader/json.ts) and makes a frame as each value completes (a string as TEXT pieces as it
 * arrives), buffering a container only where the path table cannot address its children.
 */
import { setOwn } from "../wire/objects.ts";
import { StreamPathFlag } from "../codec/stream-seg.ts";
import { JsonReader } from "../text/reader/json.ts";
import type { JsonHandler } from "../text/reader/json-handler.ts";
import { describeJsonFault, type JsonFault, jsonFaultError } from "../text/reader/json-fault.ts";
import type { Cursor, Token } from "./cursor.ts";
import type { StreamEncoder } from "./encoder.ts";

/** JSON mode of the encoder: one per location being fed. */
export class JsonFeed implements JsonHandler {
  finished = false;
  // strings as JSON.parse takes them (a lone surrogate is the encoder's to refuse, at its path)
  private readonly parser = new JsonReader(this, { loneSurrogates: true, raise: malformedJson });
  private frames: Uint8Array[] = [];
  /**
   * Open containers: streamed ones (frames per child; `inner` caches the cursor after the container's refs and
   * union, once the first child has resolved it) or buffered ones (built, then sent whole).
   */
  private stack: { at: Cursor; inner: Cursor | undefined; kind: "object" | "array"; index: number; key: string | null; buffered: unknown }[] = [];
  /** The string being streamed as TEXT: its cursor, text not yet sent, whether any TEXT went out. */
  private str: { at: Cursor | undefined; pending: string; sent: boolean; buffered: boolean; whole: string } | null = null;
  private bufDepth = 0;

  constructor(
    private readonly enc: StreamEncoder<any, any>,
    private readonly base: Cursor,
  ) {}

  push(delta: string): Uint8Array[] {
    this.frames = [];
    this.parser.push(delta);
    // what has arrived of a streamed string goes out now
    const s = this.str;
    if (s !== null && !s.buffered) this.flushText(false);
    if (this.parser.done) this.finished = true;
    return this.frames;
  }

  private add(frames: Uint8Array[]): void {
    for (const f of frames) this.frames.push(f);
  }

  /** The cursor of the value that starts now (undefined inside a buffered container). */
  private next(): Cursor | undefined {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) return this.base;
    if (top.buffered !== undefined) return undefined;
    const tok: Token = top.kind === "object" ? top.key! : top.index;
    // the container's refs and union are resolved once, for its first child
    top.inner ??= this.enc.enter(top.at, tok, false);
    return this.enc.stepIn(top.inner, tok);
  }

  /** The concrete path type at a cursor for a JSON value of `kind`, choosing (and pinning) a union branch by it. */
  private typeAt(c: Cursor, kind: string): { type: string; flags: number } | undefined {
    const t = this.enc.t;
    let entry = c.entry;
    const node = c.node ?? this.enc.find(c.tokens);
    for (let guard = 0; guard < 1000; guard++) {
      const ty = t.type[entry]!;
      if (ty === "ref") {
        entry = t.extra[entry] as number;
        continue;
      }
      if (ty === "union") {
        const have = node?.branches?.get(entry);
        if (have !== undefined) {
          entry = t.branches.get(entry)![have]!;
          continue;
        }
        const fits: number[] = [];
        t.branches.get(entry)!.forEach((b, i) => {
          const cc = t.concrete(b, null);
          if (jsonKindFits(cc >= 0 ? t.type[cc]! : "union", kind)) fits.push(i);
        });
        if (fits.length !== 1) return undefined;
        this.enc.pin(c.tokens, entry, fits[0]!);
        entry = t.branches.get(entry)![fits[0]!]!;
        continue;
      }
      return { type: ty, flags: t.flags[entry]! };
    }
    return undefined;
  }

  /** Put a finished value into the buffered container on top, or send it. */
  private deliver(at: Cursor | undefined, v: unknown): void {
    if (at === undefined) {
      const top = this.stack[this.stack.length - 1]!;
      if (top.kind === "object") setOwn(top.buffered as Record<string, unknown>, top.key!, v);
      else (top.buffered as unknown[]).push(v);
      return;
    }
    this.add(this.enc.setAt(at, v));
  }

  private bump(): void {
    const top = this.stack[this.stack.length - 1];
    if (top !== undefined && top.kind === "array") top.index++;
  }

  open(kind: "object" | "array"): void {
    const at = this.next();
    if (at !== undefined) {
      const ty = this.typeAt(at, kind)?.type;
      const streams = kind === "object" ? ty === "object" || ty === "map" : ty === "array" || ty === "tuple";
      if (streams) {
        this.stack.push({ at, inner: undefined, kind, index: 0, key: null, buffered: undefined });
        return;
      }
      this.bufDepth++;
      this.stack.push({ at, inner: undefined, kind, index: 0, key: null, buffered: kind === "object" ? {} : [] });
      return;
    }
    this.bufDepth++;
    // nested in a buffered container: its cursor is that of the outermost buffered one (never used)
    this.stack.push({ at: this.base, inner: undefined, kind, index: 0, key: null, buffered: kind === "object" ? {} : [] });
  }

  key(k: string): void {
    this.stack[this.stack.length - 1]!.key = k;
  }

  close(): void {
    const top = this.stack.pop()!;
    if (top.buffered !== undefined) {
      this.bufDepth--;
      // the outermost buffered container is sent; inner ones go into their parent
      this.deliver(this.bufDepth === 0 ? top.at : undefined, top.buffered);
    } else {
      this.add(this.enc.endAt(top.at));
    }
    this.bump();
  }

  scalar(v: unknown, raw: string): void {
    const at = this.next();
    let value = v;
    if (at !== undefined && typeof v === "number" && /^-?[0-9]+$/.test(raw) && !Number.isSafeInteger(v)) {
      const ty = this.typeAt(at, "number");
      if (ty !== undefined && ty.flags & StreamPathFlag.INT64) value = BigInt(raw);
    }
    this.deliver(at, value);
    this.bump();
  }

  stringStart(): void {
    const at = this.next();
    let buffered = true;
    if (at !== undefined) {
      const ty = this.typeAt(at, "string");
      buffered = !(ty !== undefined && ty.type === "string" && ty.flags & StreamPathFlag.PLAIN);
    }
    this.str = { at, pending: "", sent: false, buffered, whole: "" };
  }

  stringChunk(s: string): void {
    const st = this.str!;
    if (st.buffered) st.whole += s;
    else st.pending += s;
  }

  stringEnd(): void {
    const st = this.str!;
    this.str = null;
    if (st.buffered) this.deliver(st.at, st.whole);
    else if (!st.sent) this.add(this.enc.setAt(st.at!, st.pending));
    else {
      this.str = st;
      this.flushText(true);
      this.str = null;
      this.add(this.enc.endAt(st.at!));
    }
    this.bump();
  }

  private flushText(all: boolean): void {
    const st = this.str!;
    let send = st.pending;
    // a high surrogate at the end waits for its pair
    if (!all && send.length > 0) {
      const last = send.charCodeAt(send.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) send = send.slice(0, -1);
    }
    if (send === "") return;
    st.pending = st.pending.slice(send.length);
    st.sent = true;
    this.add(this.enc.appendAt(st.at!, send));
  }
}

/** The encoder's error for JSON text that is not JSON (nesting too deep stays DEPTH_LIMIT). */
function malformedJson(f: JsonFault): never {
  throw jsonFaultError(f, f.kind === "depth" ? "DEPTH_LIMIT" : "INVALID_VALUE", `malformed JSON: ${describeJsonFault(f)}`);
}

function jsonKindFits(type: string, kind: string): boolean {
  switch (type) {
    case "object":
    case "map":
      return kind === "object";
    case "array":
    case "tuple":
      return kind === "array";
    case "string":
      return kind === "string";
    case "integer":
    case "number":
      return kind === "number";
    case "boolean":
      return kind === "boolean";
    case "null":
      return kind === "null";
    default:
      return true; // enum, const, any, nested union: cannot rule out
  }
}
