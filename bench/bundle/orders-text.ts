/** A browser app that moves orders as TOON binary and as TOON text (e.g. to show or prompt with them). */
import { OrderListBinary, OrderListText, type OrderList } from "../../examples/orders/gen/order-list.ts";

export const encodeOrders = (value: OrderList): Uint8Array => OrderListBinary.encode(value);
export const decodeOrders = (bytes: Uint8Array): OrderList => OrderListBinary.decode(bytes);
export const ordersToText = (value: OrderList): string => OrderListText.toText(value);
export const ordersFromText = (text: string): OrderList => OrderListText.fromText(text);
