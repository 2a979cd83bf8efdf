/** A browser app that moves orders as TOON binary and as dense text (to prompt a model with the fewest tokens). */
import { OrderListBinary, OrderListDense, type OrderList } from "../../examples/orders/gen/order-list.ts";

export const encodeOrders = (value: OrderList): Uint8Array => OrderListBinary.encode(value);
export const decodeOrders = (bytes: Uint8Array): OrderList => OrderListBinary.decode(bytes);
export const ordersToDense = (value: OrderList): string => OrderListDense.toText(value);
export const ordersFromDense = (text: string): OrderList => OrderListDense.fromText(text);
