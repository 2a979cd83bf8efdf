// Deterministic data for schemas/order-batch.schema.json: the benchmark's held-out orders shape (no example has
// seen it, and its codec is generated without samples, as a first run of toon-gen on a new schema is).
// Run: node --import tsx bench/held-out/make-data.ts   (rewrites data/order-batch.json)
// Same seed → byte-identical output: a seeded PRNG, fixed epochs, no Math.random/Date.now.

import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface PostalAddress { line1: string; line2?: string; city: string; region?: string; postalCode: string; countryCode: string }
export interface Customer { customerId: number; firstName: string; lastName: string; email: string; phone: string; shippingAddress: PostalAddress }
export interface OrderLine { productId: string; title: string; variant?: string; quantity: number; unitPrice: number }
export type PaymentMethod = "card" | "paypal" | "apple-pay" | "google-pay" | "bank-transfer" | "cash-on-delivery";
export interface Payment { method: PaymentMethod; cardBrand?: "visa" | "mastercard" | "amex" | "discover"; last4?: string; currency: string; amount: number }
export type Status = "open" | "paid" | "packed" | "shipped" | "delivered" | "returned" | "cancelled";
export interface Order {
  orderNumber: string;
  placedAt: string;
  status: Status;
  customer: Customer;
  lines: OrderLine[];
  tags: string[];
  payment: Payment;
  shippingMethod: "standard" | "express" | "next-day" | "pickup";
  shippingCost: number;
  total: number;
  trackingNumber?: string;
}
export interface OrderBatch { exportedAt: string; orders: Order[] }

/** mulberry32: tiny, fast, good enough for benchmark data. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ["José", "Sophie", "Jonas", "Aisha", "Michael", "Emily", "Lucas", "Søren", "Giulia", "Priya", "Daan", "Olivia", "Mateo", "Emma", "Noah", "Zoë", "Hannah", "Liam", "Chloé", "Mehmet", "Ingrid", "Tomás", "Fatima", "Oscar", "Lena", "Ravi", "Camille", "Finn", "Nora", "Kenji"];
const LAST = ["Álvarez", "Dubois", "Müller", "Khan", "O'Brien", "Chen", "Silva", "Nielsen", "Rossi", "Sharma", "de Vries", "Taylor", "García", "Johansson", "Williams", "Martin", "Becker", "Murphy", "Novak", "Yilmaz", "Larsen", "Costa", "Haddad", "Lindqvist", "Schmidt", "Patel", "Moreau", "Walsh", "Berg", "Tanaka"];
const STREETS = ["Main St", "High Street", "Calle Mayor", "Rue de la Paix", "Hauptstraße", "Via Roma", "Kerkstraat", "Storgatan", "Oak Avenue", "Station Road", "Avenida Central", "Church Lane", "Park Road", "Bahnhofstraße", "Rua Augusta", "Elm Street"];
const LINE2 = ["Apt 4B", "Flat 2", "Suite 300", "3º izquierda", "Floor 5", "Unit 12", "c/o Reception", "Hinterhaus"];
// [city, region ("" when the country has none in addresses), country, calling code, postal code pattern: # digit, A letter]
const CITIES: [string, string, string, string, string][] = [
  ["Madrid", "Comunidad de Madrid", "ES", "+34", "280##"], ["Barcelona", "Cataluña", "ES", "+34", "080##"],
  ["Lyon", "Auvergne-Rhône-Alpes", "FR", "+33", "6900#"], ["Paris", "", "FR", "+33", "750##"],
  ["Berlin", "", "DE", "+49", "10###"], ["München", "Bayern", "DE", "+49", "80###"],
  ["Manchester", "", "GB", "+44", "M# #AA"], ["London", "", "GB", "+44", "SW# #AA"],
  ["San Francisco", "CA", "US", "+1", "941##"], ["Austin", "TX", "US", "+1", "787##"], ["New York", "NY", "US", "+1", "100##"],
  ["Vancouver", "BC", "CA", "+1", "V6E #A#"], ["São Paulo", "SP", "BR", "+55", "01###-###"],
  ["København", "", "DK", "+45", "2###"], ["Roma", "Lazio", "IT", "+39", "001##"], ["Bengaluru", "Karnataka", "IN", "+91", "5600##"],
  ["Amsterdam", "Noord-Holland", "NL", "+31", "10## AA"], ["Sydney", "NSW", "AU", "+61", "20##"],
  ["Ciudad de México", "CDMX", "MX", "+52", "06###"], ["Stockholm", "", "SE", "+46", "111 ##"],
  ["Bruxelles", "", "BE", "+32", "10##"], ["Wien", "", "AT", "+43", "10#0"], ["Dublin", "", "IE", "+353", "D0# AA##"],
];

const CURRENCY: Record<string, string> = {
  ES: "EUR", FR: "EUR", DE: "EUR", IT: "EUR", NL: "EUR", BE: "EUR", AT: "EUR", IE: "EUR",
  GB: "GBP", US: "USD", CA: "CAD", BR: "BRL", DK: "DKK", IN: "INR", AU: "AUD", MX: "MXN", SE: "SEK",
};
/** Units of local currency per EUR (fixed, illustrative). */
const RATE: Record<string, number> = { EUR: 1, GBP: 0.85, USD: 1.08, CAD: 1.47, BRL: 5.4, DKK: 7.46, INR: 90, AUD: 1.65, MXN: 18.5, SEK: 11.4 };

// [product id, title, variants (may be empty), base price in EUR cents]
const PRODUCTS: [string, string, string[], number][] = [
  ["TSH-ORG-001", "Organic Cotton T-Shirt", ["S / White", "M / White", "M / Black", "L / Navy", "XL / Black"], 2490],
  ["HOO-ZIP-014", "Zip Hoodie", ["M / Grey", "L / Grey", "L / Forest"], 5990],
  ["JNS-SLM-032", "Slim Fit Jeans", ["30/32", "32/32", "34/34"], 7900],
  ["SNK-RUN-220", "Trail Running Shoes", ["EU 40", "EU 42", "EU 43", "EU 45"], 11900],
  ["SCK-MRN-003", "Merino Socks (3 pack)", ["S", "M", "L"], 1890],
  ["CAP-BSB-007", "Baseball Cap", [], 2200],
  ["BAG-TOT-011", "Canvas Tote Bag", [], 1590],
  ["BTL-INS-050", "Insulated Bottle 500 ml", ["Matte Black", "Sage"], 2990],
  ["MUG-ENM-035", "Enamel Camping Mug", [], 1450],
  ["TNT-UL2-900", "Ultralight Tent for 2", [], 34900],
  ["LMP-HDL-400", "Rechargeable Headlamp", [], 3990],
  ["BKP-DAY-025", "Daypack 25 L", ["Black", "Ochre"], 8900],
  ["JKT-RAIN-310", "Packable Rain Jacket", ["S / Blue", "M / Blue", "L / Red"], 12900],
  ["GLV-WOL-002", "Wool Gloves", ["M", "L"], 2490],
  ["BNE-KNT-009", "Knit Beanie", [], 1990],
  ["SLP-BAG-700", "Down Sleeping Bag −5 °C", ["Regular", "Long"], 27900],
  ["STV-GAS-120", "Compact Gas Stove", [], 4490],
  ["MAP-ALP-001", "Alps Hiking Map Set", [], 2900],
  ["KNF-FLD-080", "Folding Knife", [], 3490],
  ["CHR-CMP-330", "Camping Chair", ["Olive", "Charcoal"], 5490],
  ["SNG-SHD-012", "Polarised Sunglasses", [], 6990],
  ["GFT-CRD-050", "Gift Card €50", [], 5000],
];

const TAGS = ["gift", "first-order", "repeat-customer", "vip", "newsletter", "promo-SPRING25", "fragile", "split-shipment", "marketplace", "review-requested"];

const EPOCH = Date.UTC(2025, 2, 3, 6, 0, 0); // 2025-03-03T06:00:00Z

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function makeData(seed = 20250303): OrderBatch {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

  const digits = (n: number): string => Array.from({ length: n }, () => String(int(0, 9))).join("");
  const postal = (pattern: string): string => pattern.replace(/[#A]/g, (c) => (c === "#" ? String(int(0, 9)) : String.fromCharCode(65 + int(0, 25))));
  // most orders of a batch come from different customers; a few customers order again (their card stays the same)
  const customers: { customer: Customer; wallet: Pick<Payment, "method" | "cardBrand" | "last4"> }[] = [];
  const newCustomer = (): (typeof customers)[number] => {
    const firstName = pick(FIRST);
    const lastName = pick(LAST);
    const [city, region, countryCode, calling, postalPattern] = pick(CITIES);
    // keys in schema order, the optional ones only when set
    const shippingAddress: PostalAddress = {
      line1: `${int(1, 250)} ${pick(STREETS)}`,
      ...(rnd() < 0.3 ? { line2: pick(LINE2) } : {}),
      city,
      ...(region !== "" ? { region } : {}),
      postalCode: postal(postalPattern),
      countryCode,
    };
    const customer: Customer = {
      customerId: int(100_000, 999_999),
      firstName,
      lastName,
      email: `${firstName}.${lastName}${int(1, 99)}`.normalize("NFD").replace(/[^A-Za-z0-9.]/g, "").toLowerCase() + "@example.com",
      phone: calling + digits(calling.length === 2 ? 10 : 9),
      shippingAddress,
    };
    const wallet: Pick<Payment, "method" | "cardBrand" | "last4"> =
      rnd() < 0.55
        ? { method: "card", cardBrand: pick(["visa", "visa", "mastercard", "amex", "discover"] as const), last4: digits(4) }
        : { method: pick(["paypal", "apple-pay", "google-pay", "bank-transfer", "cash-on-delivery"] as const) };
    return { customer, wallet };
  };
  const orders: Order[] = [];
  let seq = int(10_480_000, 10_490_000);
  let t = EPOCH;
  for (let i = 0; i < 40; i++) {
    seq += int(1, 29);
    t += int(5, 180) * 60_000 + int(0, 59) * 1000;
    const again = customers.length > 0 && rnd() < 0.15;
    const { customer, wallet } = again ? pick(customers) : newCustomer();
    if (!again) customers.push({ customer, wallet });
    const currency = CURRENCY[customer.shippingAddress.countryCode]!;
    const local = (eurCents: number): number => Math.round(eurCents * RATE[currency]!) / 100;

    const n = rnd() < 0.45 ? 1 : int(2, 5);
    const chosen = new Set<number>();
    while (chosen.size < n) chosen.add(int(0, PRODUCTS.length - 1));
    let sumCents = 0;
    const lines = [...chosen].map((p): OrderLine => {
      const [productId, title, variants, eurCents] = PRODUCTS[p]!;
      const unitPrice = local(eurCents);
      const quantity = rnd() < 0.75 ? 1 : int(2, 3);
      const variant = variants.length > 0 ? pick(variants) : undefined;
      sumCents += Math.round(unitPrice * 100) * quantity;
      return { productId, title, ...(variant !== undefined ? { variant } : {}), quantity, unitPrice };
    });

    const tags: string[] = [];
    tags.push(again ? "repeat-customer" : "first-order");
    for (let k = int(0, 2); k > 0; k--) {
      const tag = pick(TAGS);
      if (!tags.includes(tag)) tags.push(tag);
    }

    const shippingMethod = pick(["standard", "standard", "standard", "express", "next-day", "pickup"] as const);
    const shippingCost = shippingMethod === "pickup" ? 0 : local(shippingMethod === "standard" ? (sumCents > 5000 ? 0 : 490) : shippingMethod === "express" ? 990 : 1490);
    const total = Math.round(sumCents + shippingCost * 100) / 100;
    const status: Status = i >= 36 ? "open" : pick(["paid", "packed", "shipped", "shipped", "delivered", "delivered", "delivered", "returned", "cancelled"] as const);
    const order: Order = {
      orderNumber: String(seq),
      placedAt: iso(t),
      status,
      customer,
      lines,
      tags,
      payment: { ...wallet, currency, amount: total },
      shippingMethod,
      shippingCost,
      total,
    };
    if ((status === "shipped" || status === "delivered" || status === "returned") && shippingMethod !== "pickup") {
      order.trackingNumber = pick([
        () => `1Z${String(int(100, 999))}AA1${String(int(1e7, 1e8 - 1))}`,
        () => `94001118992${String(int(1e10, 1e11 - 1))}`,
        () => `JJD0000${String(int(1e8, 1e9 - 1))}`,
      ])();
    }
    orders.push(order);
  }
  return { exportedAt: iso(t + 3600_000), orders };
}

export const dataFile = fileURLToPath(new URL("./data/order-batch.json", import.meta.url));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mkdirSync(fileURLToPath(new URL("./data/", import.meta.url)), { recursive: true });
  writeFileSync(dataFile, JSON.stringify(makeData(), null, 2) + "\n");
  console.log(`wrote ${dataFile}`);
}
