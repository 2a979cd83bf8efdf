/**
 * The Zod files of ../shared/corpus (zod/ and tool-definitions/zod-sources/) that cannot be loaded as they are,
 * with the reason. test/zod.test.ts prints this list and checks it: every file listed fails to load (with a
 * message matching `error`), every file not listed loads. Paths are relative to the corpus root.
 *
 * The corpus keeps these sources as data (PROVENANCE.md); the test copies them under test/.gen so that `zod`
 * resolves from this repo, and runs them through the generator's own module loader (tsx).
 */
export interface UnloadableZodFile {
  reason: string;
  /** Matched against the loader's error message. */
  error: RegExp;
  /**
   * A textual adaptation under which the file does load (the test loads the adapted copy and generates codecs
   * from it): `[from, to]` replacements.
   */
  adapted?: readonly (readonly [string, string])[];
  /**
   * Importing the file as it stands runs a program (an MCP server's main module connects a stdio transport, or
   * exits without arguments): the test never imports it and counts it as failed with `NOT_IMPORTED`.
   */
  notImported?: true;
}

/** The message recorded for a `notImported` file. */
export const NOT_IMPORTED = "not imported: importing it runs a program";

const MCP_SERVER = "an MCP server's main module: importing it connects a stdio transport (and exits without arguments)";
const REGISTER_ONLY = "exports only the function that registers the tool on an McpServer; its Zod schemas are local to it";

export const ZOD_CORPUS_UNLOADABLE: Readonly<Record<string, UnloadableZodFile>> = {
  "zod/openai-agents-js/customer-service.index.ts": {
    reason: "imports @openai/agents, which is not installed here",
    // it imports @openai/agents-core too, and the loader resolves imports concurrently: either may be reported
    error: /Cannot find package '@openai\/agents(-core)?'/,
  },
  "zod/openai-agents-js/financial-research-agent.agents.ts": {
    reason: "imports @openai/agents, which is not installed here",
    error: /Cannot find package '@openai\/agents'/,
  },
  "zod/openai-agents-js/research-bot.agents.ts": {
    reason: "imports @openai/agents, which is not installed here",
    error: /Cannot find package '@openai\/agents'/,
  },
  "zod/vercel-ai/anthropic-api.ts": {
    // the loader resolves a module's imports concurrently: either missing one may be reported first
    reason:
      "its schemas are @ai-sdk/provider-utils `lazySchema()` wrappers, no Zod schema (the package is here as a dependency of the AI SDK, " +
      "a devDependency), and it imports ../openai-error, which is not in the corpus",
    error: /exports no Zod schema|Cannot find package '@ai-sdk\/provider-utils'|Cannot find module .*openai-error/,
  },
  "zod/vercel-ai/openai-chat-api.ts": {
    // the loader resolves a module's imports concurrently: either missing one may be reported first
    reason:
      "its schemas are @ai-sdk/provider-utils `lazySchema()` wrappers, no Zod schema (the package is here as a dependency of the AI SDK, " +
      "a devDependency), and it imports ../openai-error, which is not in the corpus",
    error: /exports no Zod schema|Cannot find package '@ai-sdk\/provider-utils'|Cannot find module .*openai-error/,
  },
  "zod/vercel-ai/json-value.ts": {
    reason: "imports ../util/zod, a file of the vercel/ai repo that is not in the corpus",
    error: /Cannot find module .*util\/zod/,
  },
  "zod/shadcn-ui/schema.ts": {
    reason:
      "written for Zod 3 (`import { z } from \"zod\"` with zod@3): `.deepPartial()` is gone in the installed zod 4; " +
      "it loads with its import pointed at `zod/v3` (zod 4's bundled Zod 3 API), and goes through zod-to-json-schema",
    error: /deepPartial is not a function/,
    adapted: [['from "zod"', 'from "zod/v3"']],
  },
  "tool-definitions/zod-sources/modelcontextprotocol-servers/everything.tools.get-annotated-message.ts": {
    reason: "imports ./get-tiny-image.js, a sibling file of the servers repo that is not in the corpus",
    error: /Cannot find module .*get-tiny-image\.js/,
  },
  "tool-definitions/zod-sources/modelcontextprotocol-servers/everything.tools.get-resource-reference.ts": {
    reason: "imports ../resources/templates.js, a file of the servers repo that is not in the corpus",
    error: /Cannot find module .*resources\/templates\.js/,
  },
  "tool-definitions/zod-sources/modelcontextprotocol-servers/everything.tools.gzip-file-as-resource.ts": {
    reason: "imports ../resources/session.js, a file of the servers repo that is not in the corpus",
    error: /Cannot find module .*resources\/session\.js/,
  },
  "tool-definitions/zod-sources/modelcontextprotocol-servers/everything.tools.get-structured-content.ts": {
    reason:
      "loads (its SDK imports are type-only), but exports no Zod schema: the input and output schemas are " +
      "module-private constants handed to server.registerTool (their JSON Schema is in mcp/reference-servers/everything.tools_list.json)",
    error: /exports no Zod schema/,
  },
  "tool-definitions/zod-sources/modelcontextprotocol-servers/everything.tools.simulate-research-query.ts": { reason: REGISTER_ONLY, error: /exports no Zod schema/ },
  "tool-definitions/zod-sources/modelcontextprotocol-servers/everything.tools.trigger-elicitation-request.ts": { reason: REGISTER_ONLY, error: /exports no Zod schema/ },
  "tool-definitions/zod-sources/modelcontextprotocol-servers/filesystem.index.ts": { reason: MCP_SERVER, error: /not imported/, notImported: true },
  "tool-definitions/zod-sources/modelcontextprotocol-servers/memory.index.ts": { reason: MCP_SERVER, error: /not imported/, notImported: true },
  "tool-definitions/zod-sources/modelcontextprotocol-servers/sequentialthinking.index.ts": { reason: MCP_SERVER, error: /not imported/, notImported: true },
};
