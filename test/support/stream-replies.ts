/**
 * Model replies for the streaming tests (test/read-stream.test.ts, test/ai-sdk.test.ts), written from the orders
 * example's data by the codec itself: the dense layout, TOON v4 or JSON, in a fence between two lines of prose,
 * and cut into the small deltas a model streams.
 */
import { readFileSync } from "node:fs";
import { OrderList } from "../../examples/orders/gen/order-list.ts";
import { Rng } from "./rng.ts";

export type Layout = "dense" | "toon" | "json";
export const LAYOUTS: readonly Layout[] = ["dense", "toon", "json"];

/** examples/orders/data/order-list.json: 30 orders. */
export const ORDERS: OrderList = JSON.parse(readFileSync(new URL("../../examples/orders/data/order-list.json", import.meta.url), "utf8")) as OrderList;

/** The payload as a model asked for `layout` writes it. */
export function payloadOf(value: OrderList, layout: Layout): string {
  if (layout === "json") return JSON.stringify(value, null, 2);
  return layout === "dense" ? OrderList.toText(value, { layout: "dense" }) : OrderList.toText(value);
}

/** A reply: a line of prose, the payload in its fence, a line of prose after it. */
export function replyOf(value: OrderList, layout: Layout): string {
  return `Here are the orders you asked for.\n\n\`\`\`${layout === "json" ? "json" : "toon"}\n${payloadOf(value, layout)}\n\`\`\`\n\nTell me if you need anything else.`;
}

/** `text` in the deltas a model streams: 1 to `max` characters each (seeded). */
export function deltas(text: string, seed: number, max = 7): string[] {
  const rng = new Rng(seed);
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = rng.int(1, max);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

/** The first `n` orders. */
export function firstOrders(n: number): OrderList {
  return { orders: ORDERS.orders.slice(0, n) };
}
