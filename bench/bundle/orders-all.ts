/** Every member of the orders codec (reference: the most one codec can cost). */
export * from "../../examples/orders/gen/order-list.ts";
