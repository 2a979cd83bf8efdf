/** A browser app that only moves orders as TOON binary: encode and decode, nothing else of the codec. */
import { OrderListBinary, type OrderList } from "../../examples/orders/gen/order-list.ts";

export const encodeOrders = (value: OrderList): Uint8Array => OrderListBinary.encode(value);
export const decodeOrders = (bytes: Uint8Array): OrderList => OrderListBinary.decode(bytes);
