// Deterministic sample data for schemas/order-list.schema.json.
// Run: node --import tsx examples/orders/make-data.ts   (rewrites data/order-list.json)
// Same seed → byte-identical output: a seeded PRNG, fixed epochs, no Math.random/Date.now.

import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface Address { street: string; city: string; postcode: string; country: string }
export interface Customer { id: number; name: string; email: string; address: Address }
export interface LineItem { sku: string; name: string; qty: number; unitPrice: number }
export type Currency = "CNY" | "HKD" | "JPY" | "KRW" | "SGD" | "USD" | "EUR" | "GBP";
export type Status = "pending" | "paid" | "shipped" | "delivered" | "cancelled";
export interface Order {
  id: string;
  customer: Customer;
  items: LineItem[];
  total: number;
  currency: Currency;
  status: Status;
  createdAt: string;
  updatedAt: string;
  note?: string;
}
export interface OrderList { orders: Order[] }

/** mulberry32: tiny, fast, good enough for sample data. */
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

// [name, e-mail, street, city, postcode, country]
const CUSTOMERS: [string, string, string, string, string, string][] = [
  ["王芳", "wang.fang@example.cn", "建国路88号", "北京", "100022", "CN"],
  ["李伟", "li.wei@example.cn", "世纪大道100号", "上海", "200120", "CN"],
  ["张敏", "zhang.min@example.cn", "天河路385号", "广州", "510620", "CN"],
  ["陈静", "chen.jing@example.cn", "深南大道9988号", "深圳", "518057", "CN"],
  ["刘洋", "liu.yang@example.cn", "文三路90号", "杭州", "310012", "CN"],
  ["黄磊", "huang.lei@example.cn", "人民南路四段11号", "成都", "610041", "CN"],
  ["周杰", "zhou.jie@example.cn", "中山路1号", "南京", "210008", "CN"],
  ["林嘉欣", "lam.kayan@example.hk", "皇后大道中99號", "香港", "999077", "HK"],
  ["佐藤健", "sato.ken@example.jp", "渋谷区道玄坂1-2-3", "東京", "150-0043", "JP"],
  ["김민준", "kim.minjun@example.kr", "강남구 테헤란로 152", "서울", "06236", "KR"],
  ["Tan Wei Ming", "weiming.tan@example.sg", "1 Raffles Place", "Singapore", "048616", "SG"],
  ["Emma Schneider", "e.schneider@example.de", "Friedrichstraße 43", "Berlin", "10117", "DE"],
  ["Oliver Bennett", "o.bennett@example.co.uk", "221B Baker St", "London", "NW1 6XE", "GB"],
  ["Lucas Martin", "lucas.martin@example.fr", "12 Rue de Rivoli", "Paris", "75004", "FR"],
  ["Mia Johnson", "mia.johnson@example.com", "500 Market St", "San Francisco", "94105", "US"],
];

const CURRENCY_BY_COUNTRY: Record<string, Currency> = {
  CN: "CNY", HK: "HKD", JP: "JPY", KR: "KRW", SG: "SGD", US: "USD", DE: "EUR", FR: "EUR", GB: "GBP",
};
/** Units of local currency per USD (fixed, illustrative). */
const RATE: Record<Currency, number> = {
  CNY: 7.2, HKD: 7.8, JPY: 150, KRW: 1350, SGD: 1.35, USD: 1, EUR: 0.92, GBP: 0.79,
};
const WHOLE_UNITS = new Set<Currency>(["JPY", "KRW"]);

// [sku, name, base price in US cents]
const PRODUCTS: [string, string, number][] = [
  ["KB-MX-087", "机械键盘 87键", 8900],
  ["EAR-BT-002", "无线蓝牙耳机", 5990],
  ["CBL-USBC-1M", "USB-C 数据线 1m", 999],
  ["MUG-CER-350", "Ceramic Mug", 1250],
  ["TEA-LJ-250", "西湖龙井 250g", 4500],
  ["NB-A5-DOT", "A5 Notebook", 780],
  ["LMP-DSK-LED", "LED Desk Lamp", 3499],
  ["MS-WL-M3", "Wireless Mouse", 2499],
  ["PWR-20K", "移动电源 20000mAh", 3990],
  ["TEA-SET-6", "青瓷茶具", 6800],
  ["STD-LAP-AL", "Laptop Stand", 4200],
  ["BTL-SS-750", "Steel Bottle 750ml", 1840],
  ["CHG-GAN-65", "65W GaN Charger", 3299],
  ["PIL-SLK-45", "真丝抱枕 45cm", 2750],
];

const NOTES = [
  "请在工作日送货",
  "Leave at the front desk, please.",
  "礼品包装，谢谢！",
  "Call before delivery.",
  "发票请开公司抬头",
  "配達前にお電話ください",
];

const EPOCH = Date.UTC(2025, 0, 2, 0, 0, 0); // 2025-01-02T00:00:00Z

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function makeData(seed = 20250102): OrderList {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

  // Fixed multiset of basket sizes (keeps the file size stable), shuffled.
  const basketSizes = [5, 4, 3, 2, ...Array<number>(26).fill(1)];
  for (let k = basketSizes.length - 1; k > 0; k--) {
    const j = Math.floor(rnd() * (k + 1));
    [basketSizes[k], basketSizes[j]] = [basketSizes[j]!, basketSizes[k]!];
  }
  const orders: Order[] = [];
  let seq = int(100, 400);
  let t = EPOCH;
  for (let i = 0; i < 30; i++) {
    seq += int(1, 37);
    t += int(3, 40) * 3600_000 + int(0, 3599) * 1000;
    const ci = i < CUSTOMERS.length ? i : int(0, CUSTOMERS.length - 1);
    const [name, email, street, city, postcode, country] = CUSTOMERS[ci]!;
    const currency = CURRENCY_BY_COUNTRY[country]!;

    // 1-5 items, mostly single-item baskets; no duplicate SKUs in an order.
    const n = basketSizes[i]!;
    const chosen = new Set<number>();
    while (chosen.size < n) chosen.add(int(0, PRODUCTS.length - 1));
    let totalCents = 0;
    const items: LineItem[] = [...chosen].map((p) => {
      const [sku, pname, usdCents] = PRODUCTS[p]!;
      let cents = Math.round(usdCents * RATE[currency]);
      if (WHOLE_UNITS.has(currency)) cents = Math.round(cents / 100) * 100;
      const qty = rnd() < 0.7 ? 1 : int(2, 4);
      totalCents += cents * qty;
      return { sku, name: pname, qty, unitPrice: cents / 100 };
    });

    const status: Status = i >= 27 ? "pending" : pick(["paid", "shipped", "delivered", "delivered", "cancelled"] as const);
    const updated = status === "pending" ? t : t + int(20, 6 * 24 * 60) * 60_000 + int(0, 59) * 1000;
    const order: Order = {
      id: `ORD-2025-${String(seq).padStart(6, "0")}`,
      customer: { id: 1000 + ci * 7 + 3, name, email, address: { street, city, postcode, country } },
      items,
      total: totalCents / 100,
      currency,
      status,
      createdAt: iso(t),
      updatedAt: iso(updated),
    };
    if (i % 7 === 3) order.note = pick(NOTES);
    orders.push(order);
  }
  return { orders };
}

export const dataFile = fileURLToPath(new URL("./data/order-list.json", import.meta.url));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mkdirSync(fileURLToPath(new URL("./data/", import.meta.url)), { recursive: true });
  writeFileSync(dataFile, JSON.stringify(makeData(), null, 2) + "\n");
  console.log(`wrote ${dataFile}`);
}
