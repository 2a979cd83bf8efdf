/**
 * The agent's tools, defined once in Zod. `define.ts` turns them into an MCP `tools/list` file
 * (tools/agent-tools.json) that toon-gen compiles into the `AgentTools` tool set (gen/agent-tools.ts); the tool
 * set then writes them for OpenAI (Chat, strict mode), Anthropic and MCP, parses the model's calls and builds the
 * replies. test/agent-loop.test.ts checks that the JSON file is what these schemas give.
 */
import { z } from "zod";

export const LookupOrder = z.object({
  orderId: z.string().regex(/^ORD-[0-9]{4}$/).describe("Order number, like ORD-1001."),
});

export const Refund = z.object({
  orderId: z.string().regex(/^ORD-[0-9]{4}$/),
  amount: z.number().positive().max(1000).describe("Amount to refund, in the order's currency."),
  reason: z.enum(["damaged", "late", "wrong_item", "other"]).optional(),
});

export const SearchDocs = z.object({
  query: z.string().min(1),
  limit: z.number().int().min(1).max(5).optional().describe("How many passages (default 3)."),
});

export const TOOLS = [
  { name: "lookup_order", description: "Look up an order: status, items and total.", schema: LookupOrder },
  { name: "refund", description: "Refund part or all of an order.", schema: Refund },
  { name: "search_docs", description: "Search the help-center articles.", schema: SearchDocs },
] as const;

/** The MCP `tools/list` result these definitions give (what define.ts writes). */
export function toolsList(): { tools: { name: string; description: string; inputSchema: Record<string, unknown> }[] } {
  return {
    tools: TOOLS.map((t) => {
      const { $schema: _drop, ...inputSchema } = z.toJSONSchema(t.schema) as Record<string, unknown>;
      return { name: t.name, description: t.description, inputSchema };
    }),
  };
}
