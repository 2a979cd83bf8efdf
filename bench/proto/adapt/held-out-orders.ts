/** bench/held-out JSON values ⇄ bench/proto/held-out-orders.proto message objects (field names as in the .proto). */
import type { Order, OrderBatch, OrderLine, Payment, PostalAddress } from "../../held-out/gen/order-batch.ts";
import type { toonbench } from "../gen/held-out-orders.pbjs.js";
import { enumMap } from "./enums.ts";

type OrderBatchMsg = toonbench.heldout.OrderBatch.$Properties;
type OrderMsg = toonbench.heldout.Order.$Properties;
type AddressMsg = toonbench.heldout.PostalAddress.$Properties;
type LineMsg = toonbench.heldout.OrderLine.$Properties;
type PaymentMsg = toonbench.heldout.Payment.$Properties;

const status = enumMap<Order["status"]>("OrderStatus", ["open", "paid", "packed", "shipped", "delivered", "returned", "cancelled"]);
const shipping = enumMap<Order["shippingMethod"]>("ShippingMethod", ["standard", "express", "next-day", "pickup"]);
const method = enumMap<Payment["method"]>("PaymentMethod", ["card", "paypal", "apple-pay", "google-pay", "bank-transfer", "cash-on-delivery"]);
const brand = enumMap<NonNullable<Payment["cardBrand"]>>("CardBrand", ["visa", "mastercard", "amex", "discover"]);

function addressMsg(a: PostalAddress): AddressMsg {
  const m: AddressMsg = { line1: a.line1, city: a.city, postal_code: a.postalCode, country_code: a.countryCode };
  if (a.line2 !== undefined) m.line2 = a.line2;
  if (a.region !== undefined) m.region = a.region;
  return m;
}

function lineMsg(l: OrderLine): LineMsg {
  const m: LineMsg = { product_id: l.productId, title: l.title, quantity: l.quantity, unit_price: l.unitPrice };
  if (l.variant !== undefined) m.variant = l.variant;
  return m;
}

function paymentMsg(p: Payment): PaymentMsg {
  const m: PaymentMsg = { method: method.toProto(p.method), currency: p.currency, amount: p.amount };
  if (p.cardBrand !== undefined) m.card_brand = brand.toProto(p.cardBrand);
  if (p.last4 !== undefined) m.last4 = p.last4;
  return m;
}

export function toMessage(v: OrderBatch): OrderBatchMsg {
  return {
    exported_at: v.exportedAt,
    orders: v.orders.map((o): OrderMsg => {
      const c = o.customer;
      const m: OrderMsg = {
        order_number: o.orderNumber,
        placed_at: o.placedAt,
        status: status.toProto(o.status),
        customer: {
          customer_id: c.customerId,
          first_name: c.firstName,
          last_name: c.lastName,
          email: c.email,
          phone: c.phone,
          shipping_address: addressMsg(c.shippingAddress),
        },
        lines: o.lines.map(lineMsg),
        tags: o.tags,
        payment: paymentMsg(o.payment),
        shipping_method: shipping.toProto(o.shippingMethod),
        shipping_cost: o.shippingCost,
        total: o.total,
      };
      if (o.trackingNumber !== undefined) m.tracking_number = o.trackingNumber;
      return m;
    }),
  };
}

/** Presence comes from the oneof case, not from the value ("" is a present string, 0 a present enum). */
export function fromMessage(m: OrderBatchMsg): OrderBatch {
  return {
    exportedAt: m.exported_at!,
    orders: (m.orders ?? []).map((o): Order => {
      const c = o.customer!;
      const a = c.shipping_address!;
      const p = o.payment!;
      const address: PostalAddress = { line1: a.line1!, city: a.city!, postalCode: a.postal_code!, countryCode: a.country_code! };
      if (a._line2 === "line2") address.line2 = a.line2!;
      if (a._region === "region") address.region = a.region!;
      const payment: Payment = { method: method.fromProto(p.method!), currency: p.currency!, amount: p.amount! };
      if (p._card_brand === "card_brand") payment.cardBrand = brand.fromProto(p.card_brand!);
      if (p._last4 === "last4") payment.last4 = p.last4!;
      const v: Order = {
        orderNumber: o.order_number!,
        placedAt: o.placed_at!,
        status: status.fromProto(o.status!),
        customer: {
          customerId: c.customer_id!,
          firstName: c.first_name!,
          lastName: c.last_name!,
          email: c.email!,
          phone: c.phone!,
          shippingAddress: address,
        },
        lines: (o.lines ?? []).map((l): OrderLine => {
          const line: OrderLine = { productId: l.product_id!, title: l.title!, quantity: l.quantity!, unitPrice: l.unit_price! };
          if (l._variant === "variant") line.variant = l.variant!;
          return line;
        }),
        tags: o.tags ?? [],
        payment,
        shippingMethod: shipping.fromProto(o.shipping_method!),
        shippingCost: o.shipping_cost!,
        total: o.total!,
      };
      if (o._tracking_number === "tracking_number") v.trackingNumber = o.tracking_number!;
      return v;
    }),
  };
}
