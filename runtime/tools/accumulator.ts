/**
 * Tool calls from a streamed reply: the accumulator keeps one slot per call the stream has started, feeds its
 * argument text to a resumable JSON reader (./arguments.ts) and yields each call once it is complete, as an
 * outcome (never a throw for a bad call).
 */
import { type ToolCallRef, ToonError, type ToonErrorCode, type ToonErrorDetail } from "../wire/errors.ts";
import { isPlainObject } from "../wire/objects.ts";
import { ArgumentsFeed } from "./arguments.ts";
import { argumentText, callError, callLabel, checkCall, failure, str, type ToolCall, type ToolCallOutcome, type ToolSetSpec } from "./tool-set.ts";

/** A call the accumulator has seen start but not yet returned. */
export interface PendingToolCall {
  /** Where it came from: `openai:<completion id>:<choice>:<index>`, `responses:<output_index>` or `anthropic:<index>`. */
  key: string;
  id: string;
  name: string;
  /** Characters of argument JSON received so far. */
  received: number;
}

interface Slot extends PendingToolCall {
  text: string;
  /** The argument JSON read so far. */
  args: ArgumentsFeed;
  /** Arguments given whole (Anthropic `input` at block start, Responses `arguments` at `done`). */
  given?: unknown;
  /** Returned already (later fragments for it are an error), or failed. */
  done: boolean;
  /** OpenAI Chat: complete when the JSON closes; others wait for their stop event. */
  closesOnJson: boolean;
  /** The call's place in the stream (the order calls started), `ToolCallRef.index`. */
  order: number;
}

/**
 * Accumulates streamed tool-call events and yields each call once it is complete: `{ ok: true, call }` when it
 * is valid, `{ ok: false, id, name, error }` when it is not (a model's bad call is data for the next turn, not
 * an exception). It never throws for a bad call and keeps going after one.
 *
 * `push(event)` takes one parsed stream event (the JSON of an SSE `data:` line, or the SDKs' event objects) of:
 * - OpenAI Chat Completions chunks: `{ choices: [{ index, delta: { tool_calls: [{ index, id?, function: { name?, arguments? } }] }, finish_reason }] }`.
 *   A call is complete when its argument JSON closes (or, for `""`, when its choice finishes).
 * - OpenAI Responses events: `response.output_item.added`, `response.function_call_arguments.delta`,
 *   `response.function_call_arguments.done`, `response.output_item.done`, `response.incomplete`.
 * - Anthropic Messages events: `content_block_start` (tool_use), `content_block_delta` (`input_json_delta`),
 *   `content_block_stop`, `message_delta` (stop_reason `max_tokens` marks open calls as cut off).
 * Other events (text deltas, pings) are ignored.
 *
 * Failures: INVALID_VALUE (every violation in `details`, paths `/arguments/...`), INCOMPLETE (the stream cut the
 * call off: `length`, `max_tokens`, or no stop event), each error's `call` naming id, name, index, raw
 * arguments and stream position. Text arriving for a call already yielded is a second, failed outcome for it.
 * Call `end()` when the stream is over: it yields what is left, each call that never finished as INCOMPLETE.
 */
export class ToolCallAccumulator<C extends ToolCall = ToolCall> {
  private readonly slots = new Map<string, Slot>();
  private ready: ToolCallOutcome<C>[] = [];
  private order = 0;

  constructor(private readonly spec: ToolSetSpec) {}

  /** Calls started and not yet returned or failed, in the order they started. */
  get pending(): PendingToolCall[] {
    return [...this.slots.values()]
      .filter((s) => !s.done)
      .sort((a, b) => a.order - b.order)
      .map(({ key, id, name, received }) => ({ key, id, name, received }));
  }

  /** The outcomes this event completed (usually none or one; a finish event may complete several). */
  push(event: unknown): ToolCallOutcome<C>[] {
    if (isPlainObject(event)) {
      if (Array.isArray(event.choices)) {
        // indices restart with every completion: the chunk's completion id is part of the key
        const stream = typeof event.id === "string" ? event.id : "";
        for (const choice of event.choices) {
          if (!isPlainObject(choice)) continue;
          const ci = `${stream}:${typeof choice.index === "number" ? choice.index : 0}`;
          const delta = choice.delta;
          if (isPlainObject(delta) && Array.isArray(delta.tool_calls)) {
            for (const frag of delta.tool_calls) if (isPlainObject(frag)) this.openaiFragment(ci, frag);
          }
          const finish = choice.finish_reason;
          if (typeof finish === "string") this.finishPrefix(`openai:${ci}:`, finish);
        }
      } else if (typeof event.type === "string") {
        this.typedEvent(event.type, event);
      }
    }
    return this.take();
  }

  /** The stream is over: the calls still waiting, and each call that never finished as INCOMPLETE. */
  end(): ToolCallOutcome<C>[] {
    for (const s of [...this.slots.values()].sort((a, b) => a.order - b.order)) {
      if (s.done) continue;
      // a call whose JSON closed (or that carries no arguments) but whose stop event never came is whole
      s.args.end();
      if (s.args.closed || s.args.broken) this.complete(s);
      else this.cutOff(s);
    }
    return this.take();
  }

  private take(): ToolCallOutcome<C>[] {
    const out = this.ready;
    this.ready = [];
    return out;
  }

  private slot(key: string, closesOnJson: boolean): Slot {
    let s = this.slots.get(key);
    if (s === undefined) {
      s = { key, id: "", name: "", received: 0, text: "", args: new ArgumentsFeed(), done: false, closesOnJson, order: this.order++ };
      this.slots.set(key, s);
    }
    return s;
  }

  private ref(s: Slot): ToolCallRef {
    return { id: s.id, name: s.name, index: s.order, arguments: s.args.empty && s.given !== undefined ? argumentText(s.given) : s.text, position: s.key };
  }

  private fail(s: Slot, code: ToonErrorCode, reason: string, path: string, details?: ToonErrorDetail[]): void {
    const ref = this.ref(s);
    this.ready.push(failure(callError(code, `${callLabel(ref)}: ${reason}`, ref, path, details)));
  }

  private append(s: Slot, text: string): void {
    if (text === "") return;
    if (s.done) {
      if (text.trim() !== "") this.fail(s, "INVALID_VALUE", "more argument text after the call was complete", "/arguments");
      return;
    }
    s.text += text;
    s.received = s.text.length;
    s.args.feed(text);
  }

  private openaiFragment(choice: string, frag: Record<string, unknown>): void {
    const index = typeof frag.index === "number" ? frag.index : 0;
    const s = this.slot(`openai:${choice}:${index}`, true);
    if (typeof frag.id === "string" && frag.id !== "") s.id = frag.id;
    const fn = frag.function;
    if (isPlainObject(fn)) {
      // names arrive whole in the first fragment; some compatible servers repeat them, others split them
      if (typeof fn.name === "string" && fn.name !== "" && fn.name !== s.name && !s.done) s.name += fn.name;
      if (typeof fn.arguments === "string") this.append(s, fn.arguments);
    }
    if (!s.done && s.name !== "" && s.args.closed) this.complete(s);
  }

  private typedEvent(type: string, e: Record<string, unknown>): void {
    switch (type) {
      // Anthropic Messages
      case "content_block_start": {
        const block = e.content_block;
        if (!isPlainObject(block) || block.type !== "tool_use") return;
        const key = `anthropic:${typeof e.index === "number" ? e.index : 0}`;
        // block indices restart with every message: a new block replaces a finished one of the same index
        const old = this.slots.get(key);
        if (old !== undefined) {
          this.slots.delete(key);
          if (!old.done) this.cutOff(old);
        }
        const s = this.slot(key, false);
        s.id = str(block.id) ?? "";
        s.name = str(block.name) ?? "";
        if (isPlainObject(block.input) && Object.keys(block.input).length > 0) s.given = block.input;
        return;
      }
      case "content_block_delta": {
        const delta = e.delta;
        if (!isPlainObject(delta) || delta.type !== "input_json_delta") return;
        // (deltas of blocks that are not client tool calls, e.g. server_tool_use, are not ours)
        const s = this.slots.get(`anthropic:${typeof e.index === "number" ? e.index : 0}`);
        if (s !== undefined && typeof delta.partial_json === "string") this.append(s, delta.partial_json);
        return;
      }
      case "content_block_stop": {
        const s = this.slots.get(`anthropic:${typeof e.index === "number" ? e.index : 0}`);
        if (s === undefined || s.done) return;
        this.completeOrCut(s);
        return;
      }
      case "message_delta": {
        const d = e.delta;
        const reason = isPlainObject(d) ? d.stop_reason : undefined;
        if (typeof reason === "string") this.finishPrefix("anthropic:", reason);
        return;
      }
      // OpenAI Responses
      case "response.output_item.added":
      case "response.output_item.done": {
        const item = e.item;
        if (!isPlainObject(item) || item.type !== "function_call") return;
        const s = this.slot(`responses:${typeof e.output_index === "number" ? e.output_index : 0}`, false);
        s.id = str(item.call_id) ?? str(item.id) ?? s.id;
        if (typeof item.name === "string") s.name = item.name;
        if (type === "response.output_item.done" && !s.done) {
          if (typeof item.arguments === "string") this.replace(s, item.arguments);
          this.completeOrCut(s);
        }
        return;
      }
      case "response.function_call_arguments.delta": {
        const s = this.slot(`responses:${typeof e.output_index === "number" ? e.output_index : 0}`, false);
        if (typeof e.delta === "string") this.append(s, e.delta);
        return;
      }
      case "response.function_call_arguments.done": {
        const s = this.slot(`responses:${typeof e.output_index === "number" ? e.output_index : 0}`, false);
        if (s.done) return;
        if (typeof e.name === "string" && s.name === "") s.name = e.name;
        if (typeof e.arguments === "string") this.replace(s, e.arguments);
        this.completeOrCut(s);
        return;
      }
      case "response.incomplete":
      case "response.failed":
        this.finishPrefix("responses:", "incomplete");
        return;
      default:
        return;
    }
  }

  /** The final, whole argument text replaces the fragments. */
  private replace(s: Slot, text: string): void {
    s.text = "";
    s.args = new ArgumentsFeed();
    s.received = 0;
    this.append(s, text);
  }

  private completeOrCut(s: Slot): void {
    s.args.end();
    if (s.args.empty || s.args.closed || s.args.broken) this.complete(s);
    else this.cutOff(s);
  }

  /** A choice or message finished: its open calls are whole now, or were cut off (`length`, `max_tokens`). */
  private finishPrefix(prefix: string, reason: string): void {
    for (const s of [...this.slots.values()].sort((a, b) => a.order - b.order)) {
      if (s.done || !s.key.startsWith(prefix)) continue;
      s.args.end();
      // a broken call is a failure of its own, whatever stopped the stream
      const whole = s.args.closed || s.args.broken;
      if (whole || (s.args.empty && reason !== "length" && reason !== "max_tokens" && reason !== "incomplete")) this.complete(s);
      else this.cutOff(s, reason);
    }
  }

  /** The stream stopped (`reason`) or ended before the call's JSON closed. */
  private cutOff(s: Slot, reason?: string): void {
    s.done = true;
    const why = reason === undefined ? "the stream ended" : `the stream stopped (${reason})`;
    this.fail(s, "INCOMPLETE", `${why} after ${s.text.length} characters of arguments, before their JSON was complete`, "/arguments");
  }

  private complete(s: Slot): void {
    s.done = true;
    let args: unknown;
    if (s.args.empty) args = s.given ?? {};
    else {
      const e = s.args.error("/arguments");
      if (e !== undefined) return this.fail(s, e.code, e.reason, e.path);
      args = s.args.value;
    }
    try {
      this.ready.push({ ok: true, call: checkCall<C>(this.spec, this.ref(s), args), index: s.order });
    } catch (e) {
      if (!(e instanceof ToonError) || e.call === undefined) throw e;
      this.ready.push(failure(e));
    }
  }
}
