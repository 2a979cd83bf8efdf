/** Imports the barrel of every example codec but uses one codec's encode and decode: what tree-shaking leaves. */
import { OrderListBinary, type OrderList } from "./_all-examples.ts";

export const encodeOrders = (value: OrderList): Uint8Array => OrderListBinary.encode(value);
export const decodeOrders = (bytes: Uint8Array): OrderList => OrderListBinary.decode(bytes);
