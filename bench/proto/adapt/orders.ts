/** examples/orders JSON values ⇄ bench/proto/orders.proto message objects (field names as in the .proto). */
import type { Order, OrderList } from "../../../examples/orders/gen/order-list.ts";
import type { toonbench } from "../gen/orders.pbjs.js";
import { enumMap } from "./enums.ts";

type OrderListMsg = toonbench.orders.OrderList.$Properties;
type OrderMsg = toonbench.orders.Order.$Properties;

const currency = enumMap<Order["currency"]>("Currency", ["CNY", "HKD", "JPY", "KRW", "SGD", "USD", "EUR", "GBP"]);
const status = enumMap<Order["status"]>("OrderStatus", ["pending", "paid", "shipped", "delivered", "cancelled"]);

export function toMessage(v: OrderList): OrderListMsg {
  return {
    orders: v.orders.map((o): OrderMsg => {
      const m: OrderMsg = {
        id: o.id,
        customer: {
          id: o.customer.id,
          name: o.customer.name,
          email: o.customer.email,
          address: { ...o.customer.address },
        },
        items: o.items.map((i) => ({ sku: i.sku, name: i.name, qty: i.qty, unit_price: i.unitPrice })),
        total: o.total,
        currency: currency.toProto(o.currency),
        status: status.toProto(o.status),
        created_at: o.createdAt,
        updated_at: o.updatedAt,
      };
      if (o.note !== undefined) m.note = o.note;
      return m;
    }),
  };
}

export function fromMessage(m: OrderListMsg): OrderList {
  return {
    orders: (m.orders ?? []).map((o): Order => {
      const c = o.customer!;
      const a = c.address!;
      const v: Order = {
        id: o.id!,
        customer: {
          id: c.id!,
          name: c.name!,
          email: c.email!,
          address: { street: a.street!, city: a.city!, postcode: a.postcode!, country: a.country! },
        },
        items: (o.items ?? []).map((i) => ({ sku: i.sku!, name: i.name!, qty: i.qty!, unitPrice: i.unit_price! })),
        total: o.total!,
        currency: currency.fromProto(o.currency!),
        status: status.fromProto(o.status!),
        createdAt: o.created_at!,
        updatedAt: o.updated_at!,
      };
      // presence comes from the oneof case, not from the value ("" is a present note)
      if (o._note === "note") v.note = o.note!;
      return v;
    }),
  };
}
