/**
 * A loopback HTTP server that stands in for the providers (no model is reachable from here): it replays the
 * recorded streams of recorded/<provider>-turn-<n>.sse, the turn being the number of assistant messages in the
 * request plus one, so it is stateless like the real APIs. It checks what the real APIs check before answering:
 * the tools are sent, and every tool call of the previous assistant message has a result with its id (OpenAI:
 * "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'";
 * Anthropic: "tool_use ids were found without tool_result blocks immediately after"). Otherwise 400, as they do.
 * The stream is written in small pieces, so the clients see events split across reads.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";

type Json = Record<string, any>;

export interface ReplayServer {
  /** `http://127.0.0.1:<port>`: the OpenAI client's baseURL is this plus `/v1`; Anthropic's is this. */
  url: string;
  /** Every request body received, in order (tests look at what the loop sent). */
  requests: { path: string; body: Json }[];
  close(): Promise<void>;
}

function problem(messages: Json[], provider: "openai" | "anthropic"): string | undefined {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
    if (provider === "openai") {
      const ids: string[] = (m.tool_calls ?? []).map((c: Json) => c.id);
      const answered = new Set(messages.slice(i + 1).filter((x) => x.role === "tool").map((x) => x.tool_call_id));
      const missing = ids.filter((id) => !answered.has(id));
      if (missing.length > 0) return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`;
    } else {
      const ids: string[] = (Array.isArray(m.content) ? m.content : []).filter((b: Json) => b.type === "tool_use").map((b: Json) => b.id);
      const next = messages[i + 1];
      const answered = new Set((Array.isArray(next?.content) ? next.content : []).filter((b: Json) => b.type === "tool_result").map((b: Json) => b.tool_use_id));
      const missing = ids.filter((id) => !answered.has(id));
      if (missing.length > 0) return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}`;
    }
  }
  return undefined;
}

async function body(req: IncomingMessage): Promise<Json> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  return JSON.parse(Buffer.concat(parts).toString("utf8")) as Json;
}

/** Start the server on a free loopback port. */
export async function startReplayServer(recordedDir = new URL("./recorded/", import.meta.url)): Promise<ReplayServer> {
  const requests: ReplayServer["requests"] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? "").split("?")[0]!;
      const provider = path === "/v1/chat/completions" ? "openai" : path === "/v1/messages" ? "anthropic" : undefined;
      const json = req.method === "POST" ? await body(req) : {};
      requests.push({ path, body: json });
      const fail = (status: number, message: string): void => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(provider === "anthropic" ? { type: "error", error: { type: "invalid_request_error", message } } : { error: { message, type: "invalid_request_error", code: null } }));
      };
      if (provider === undefined) return fail(404, `no route ${path}`);
      const messages: Json[] = Array.isArray(json.messages) ? json.messages : [];
      if (!Array.isArray(json.tools) || json.tools.length === 0) return fail(400, "this replay expects the tool definitions in every request");
      const why = problem(messages, provider);
      if (why !== undefined) return fail(400, why);
      const turn = messages.filter((m) => m.role === "assistant").length + 1;
      let sse: Buffer;
      try {
        sse = readFileSync(new URL(`${provider}-turn-${turn}.sse`, recordedDir));
      } catch {
        return fail(400, `the recording has no turn ${turn}`);
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-request-id": `req_replay_${turn}` });
      for (let i = 0; i < sse.length; i += 97) res.write(sse.subarray(i, i + 97));
      res.end();
    })().catch((e: unknown) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
