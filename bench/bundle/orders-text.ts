/** A browser app that moves orders as TOON binary and as TOON text (e.g. to show or prompt with them). */
import { OrderList } from "../../examples/orders/gen/order-list.ts";

export const encodeOrders = (value: OrderList): Uint8Array => OrderList.encode(value);
export const decodeOrders = (bytes: Uint8Array): OrderList => OrderList.decode(bytes);
export const ordersToText = (value: OrderList): string => OrderList.toText(value);
export const ordersFromText = (text: string): OrderList => OrderList.fromText(text);
