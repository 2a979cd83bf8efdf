/**
 * A barrel of every example's generated codecs (each examples/<name>/gen/index.ts), as an app that keeps all
 * its codecs in one package would import them. test/bench-size.test.ts checks that no example is missing.
 */
export * from "../../examples/agent-loop/gen/index.ts";
export * from "../../examples/extraction/gen/index.ts";
export * from "../../examples/logs/gen/index.ts";
export * from "../../examples/orders/gen/index.ts";
export * from "../../examples/tool-calls/gen/index.ts";
export * from "../../examples/tools/gen/index.ts";
