/**
 * The agent loop of loop.ts against OpenAI and Anthropic. Offline (the default) both clients talk to the loopback
 * replay server (server.ts); with OPENAI_API_KEY / ANTHROPIC_API_KEY set, that provider's client talks to the real
 * API instead (models: OPENAI_MODEL, default gpt-4.1-mini; ANTHROPIC_MODEL, default claude-sonnet-4-6).
 *
 *   node --conditions=toon-dev --import tsx examples/agent-loop/main.ts
 */
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { anthropicLoop, openaiLoop, type Transcript } from "./loop.ts";
import { startReplayServer } from "./server.ts";

const server = await startReplayServer();
try {
  const openaiKey = process.env.OPENAI_API_KEY;
  const anthropicKey = process.env.ANTHROPIC_API_KEY;
  const openai = openaiKey ? new OpenAI({ apiKey: openaiKey }) : new OpenAI({ apiKey: "offline", baseURL: `${server.url}/v1`, maxRetries: 0 });
  const anthropic = anthropicKey ? new Anthropic({ apiKey: anthropicKey }) : new Anthropic({ apiKey: "offline", baseURL: server.url, maxRetries: 0 });
  const show = (who: string, t: Transcript): void => {
    console.log(`\n${who}: ${t.turns} turns`);
    for (const c of t.calls) console.log(`  turn ${c.turn}  ${c.ok ? "ran    " : "refused"}  ${c.name.padEnd(13)} ${c.id}${c.ok ? "" : `  ${c.error} ${c.paths?.join(", ")}`}`);
    console.log(`  answer: ${t.answer}`);
  };
  show(`OpenAI Chat Completions (${openaiKey ? "live" : "replayed"})`, await openaiLoop(openai, process.env.OPENAI_MODEL ?? "gpt-4.1-mini"));
  show(`Anthropic Messages (${anthropicKey ? "live" : "replayed"})`, await anthropicLoop(anthropic, process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6"));
} finally {
  await server.close();
}
