/**
 * The agent loop, once per provider: send the tool definitions (from the one generated tool set), stream the
 * reply, feed every event to the accumulator, run each valid call, answer each bad one with an error result the
 * model can act on (same id), and go on until the model answers in text. Nothing here knows whether the other end
 * is the real API or the replay server.
 */
import type OpenAI from "openai";
import type Anthropic from "@anthropic-ai/sdk";
import { AgentTools, type AgentToolsCall, type AgentToolsOutcome } from "./gen/agent-tools.js";

/** What happened, for the console and the tests. */
export interface Transcript {
  /** Each call as it came out of the accumulator: `ok` and, for a bad one, its error code and paths. */
  calls: { turn: number; id: string; name: string; ok: boolean; error?: string; paths?: string[] }[];
  /** The tools that ran, with their arguments (as parsed: typed, strict-mode nulls gone). */
  ran: { name: string; arguments: unknown }[];
  /** The model's final text. */
  answer: string;
  turns: number;
}

/** The tools themselves (fakes: this example is about the loop). */
export function execute(call: AgentToolsCall): unknown {
  switch (call.name) {
    case "lookup_order":
      return { orderId: call.arguments.orderId, status: "delivered", condition: "damaged", total: 89.9, currency: "EUR" };
    case "refund":
      return { refundId: "RF-7731", orderId: call.arguments.orderId, amount: call.arguments.amount, currency: "EUR" };
    case "search_docs":
      return { passages: ["Refunds reach your card in 5–7 business days.", "Damaged items need no return."].slice(0, call.arguments.limit ?? 3) };
  }
}

const SYSTEM = "You are a support agent. Use the tools; refund damaged orders in full up to 25 EUR.";
const USER = "My order ORD-1001 arrived damaged. Please refund 25 EUR and tell me how long it takes.";
const MAX_TURNS = 6;

function record(t: Transcript, turn: number, o: AgentToolsOutcome): void {
  if (o.ok) t.calls.push({ turn, id: o.call.id, name: o.call.name, ok: true });
  else t.calls.push({ turn, id: o.id, name: o.name, ok: false, error: o.error.code, paths: (o.error.details ?? []).map((d) => d.path) });
}

/** The model's argument text of an outcome, to echo its calls back in the assistant message. */
function argumentText(o: AgentToolsOutcome): string {
  return o.ok ? JSON.stringify(o.call.arguments) : (o.error.call?.arguments ?? "{}");
}

export async function openaiLoop(client: OpenAI, model: string): Promise<Transcript> {
  const t: Transcript = { calls: [], ran: [], answer: "", turns: 0 };
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: "system", content: SYSTEM },
    { role: "user", content: USER },
  ];
  const tools = AgentTools.definitions("openai-chat", { strict: true });
  for (let turn = 1; turn <= MAX_TURNS; turn++) {
    t.turns = turn;
    const stream = await client.chat.completions.create({ model, messages, tools, stream: true });
    const acc = AgentTools.accumulator();
    const outcomes: AgentToolsOutcome[] = [];
    let text = "";
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      outcomes.push(...acc.push(chunk));
    }
    outcomes.push(...acc.end());
    if (outcomes.length === 0) {
      t.answer = text;
      return t;
    }
    messages.push({
      role: "assistant",
      content: text === "" ? null : text,
      tool_calls: outcomes.map((o) => ({ id: o.ok ? o.call.id : o.id, type: "function" as const, function: { name: o.ok ? o.call.name : o.name, arguments: argumentText(o) } })),
    });
    for (const o of outcomes) {
      record(t, turn, o);
      if (o.ok) t.ran.push({ name: o.call.name, arguments: o.call.arguments });
      messages.push(AgentTools.resultMessage("openai-chat", o, o.ok ? execute(o.call) : undefined));
    }
  }
  throw new Error(`no final answer after ${MAX_TURNS} turns`);
}

export async function anthropicLoop(client: Anthropic, model: string): Promise<Transcript> {
  const t: Transcript = { calls: [], ran: [], answer: "", turns: 0 };
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: USER }];
  const tools = AgentTools.definitions("anthropic") as Anthropic.Tool[];
  for (let turn = 1; turn <= MAX_TURNS; turn++) {
    t.turns = turn;
    const stream = await client.messages.create({ model, max_tokens: 1024, system: SYSTEM, messages, tools, stream: true });
    const acc = AgentTools.accumulator();
    const outcomes: AgentToolsOutcome[] = [];
    let text = "";
    for await (const event of stream) {
      if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text;
      outcomes.push(...acc.push(event));
    }
    outcomes.push(...acc.end());
    if (outcomes.length === 0) {
      t.answer = text;
      return t;
    }
    const input = (o: AgentToolsOutcome): Record<string, unknown> => {
      if (o.ok) return o.call.arguments as unknown as Record<string, unknown>;
      try {
        const v: unknown = JSON.parse(o.error.call?.arguments ?? "{}");
        return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
      } catch {
        return {}; // arguments that were not JSON: echoed as an empty input, the error result says what was wrong
      }
    };
    messages.push({
      role: "assistant",
      content: [
        ...(text === "" ? [] : [{ type: "text" as const, text }]),
        ...outcomes.map((o) => ({ type: "tool_use" as const, id: o.ok ? o.call.id : o.id, name: o.ok ? o.call.name : o.name, input: input(o) })),
      ],
    });
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const o of outcomes) {
      record(t, turn, o);
      if (o.ok) t.ran.push({ name: o.call.name, arguments: o.call.arguments });
      results.push(AgentTools.resultMessage("anthropic", o, o.ok ? execute(o.call) : undefined));
    }
    messages.push({ role: "user", content: results });
  }
  throw new Error(`no final answer after ${MAX_TURNS} turns`);
}
