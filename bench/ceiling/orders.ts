/**
 * The speed ceiling of the dense layout on the orders example: a writer and a reader written by hand for that
 * one schema, with literal property reads, object literals and no column specs, estimates or dispatch. They
 * spell and read exactly what the codec does (test/dense-ceiling.test.ts checks both on the example data and on
 * seeded random order lists), and use the codec's own cell helpers (quoting, numbers, stamps), so what they cost
 * is what the layout itself costs in JavaScript. bench/dense-ceiling.ts times them beside the codec and
 * JSON.stringify/JSON.parse: the gap between the codec and these is what a driver over the schema spends, the
 * gap between these and JSON is the layout's own.
 *
 * Scope, to keep them short: values the orders schema accepts, and text the codec writes for them. They are not a
 * second implementation of the layout: no tables of other shapes, no lists, no JSON fallback, and a bad text is
 * a plain Error, not a ToonError with line and column.
 */
import { basicStamp, extendedStamp, needsQuotes, spellCellNumber } from "../../runtime/text/dense/syntax.ts";

interface Address {
  street: string;
  city: string;
  postcode: string;
  country: string;
}
interface Order {
  id: string;
  customer: { id: number; name: string; email: string; address: Address };
  items: { sku: string; name: string; qty: number; unitPrice: number }[];
  total: number;
  currency: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  note?: string;
}

const HEADER = "{id,customer{id,name,email,address{street,city,postcode,country}},items[]{sku,name,qty,unitPrice},total,currency,status,createdAt,updatedAt";

/** A string cell as the codec spells a plain string (quoted only where a raw one would read otherwise). */
function str(s: string): string {
  return needsQuotes(s) ? JSON.stringify(s) : s;
}

/** A date-time cell: its basic form when it has one, else as the codec writes it (quoted where raw would mislead). */
function stamp(s: string): string {
  const b = basicStamp(s);
  if (b !== undefined) return b;
  return extendedStamp(s) !== undefined || needsQuotes(s) ? JSON.stringify(s) : s;
}

export function writeOrders(v: { orders: Order[] }): string {
  const os = v.orders;
  let note = false;
  for (const o of os) {
    if (o.note !== undefined) {
      note = true;
      break;
    }
  }
  let out = "orders[" + os.length + "]" + HEADER + (note ? ",note}:" : "}:");
  for (const o of os) {
    const c = o.customer;
    const a = c.address;
    const items = o.items;
    let row = "\n" + str(o.id) + "," + spellCellNumber(c.id) + "," + str(c.name) + "," + str(c.email) + "," + str(a.street) + "," + str(a.city) + "," + str(a.postcode) + "," + str(a.country) + ",[" + items.length + ":";
    for (let i = 0; i < items.length; i++) {
      const it = items[i]!;
      row += (i > 0 ? ";" : "") + str(it.sku) + "," + str(it.name) + "," + spellCellNumber(it.qty) + "," + spellCellNumber(it.unitPrice);
    }
    row += "]," + spellCellNumber(o.total) + "," + o.currency + "," + o.status + "," + stamp(o.createdAt) + "," + stamp(o.updatedAt);
    if (note) row += "," + (o.note === undefined ? "" : str(o.note));
    out += row;
  }
  // one flat string, as JSON.stringify returns (the codec's writer flattens its result too)
  out.charCodeAt(0);
  return out;
}

const CELL_END = /[,;\]\n]/g;
const CURRENCIES = new Set(["CNY", "HKD", "JPY", "KRW", "SGD", "USD", "EUR", "GBP"]);
const STATUSES = new Set(["pending", "paid", "shipped", "delivered", "cancelled"]);

/** The orders text the codec writes, read back with the checks its reader makes on it (types, enums, counts). */
export function readOrders(t: string): { orders: Order[] } {
  const r = new Cursor(t);
  if (!t.startsWith("orders[")) r.fail("the orders header");
  r.p = 7;
  const n = r.count();
  r.sep(93);
  if (!t.startsWith(HEADER, r.p)) r.fail("the orders header");
  r.p += HEADER.length;
  let note = false;
  if (t.startsWith(",note}:", r.p)) {
    note = true;
    r.p += 7;
  } else if (t.startsWith("}:", r.p)) r.p += 2;
  else r.fail("the orders header");
  const orders: Order[] = [];
  for (let i = 0; i < n; i++) {
    // (the rows of the table that ends the document are flush left: docs/TEXT.md §2)
    if (t.charCodeAt(r.p) !== 10) r.fail("a row");
    r.p += 1;
    const id = r.string();
    r.sep(44);
    const customerId = r.integer();
    r.sep(44);
    const name = r.string();
    r.sep(44);
    const email = r.string();
    r.sep(44);
    const street = r.string();
    r.sep(44);
    const city = r.string();
    r.sep(44);
    const postcode = r.string();
    r.sep(44);
    const country = r.string();
    r.sep(44);
    r.sep(91);
    const k = r.count();
    r.sep(58);
    const items: Order["items"] = [];
    for (let j = 0; j < k; j++) {
      if (j > 0) r.sep(59);
      const sku = r.string();
      r.sep(44);
      const itemName = r.string();
      r.sep(44);
      const qty = r.integer();
      r.sep(44);
      const unitPrice = r.number();
      items.push({ sku, name: itemName, qty, unitPrice });
    }
    r.sep(93);
    r.sep(44);
    const total = r.number();
    r.sep(44);
    const currency = r.string();
    if (!CURRENCIES.has(currency)) r.fail("a currency");
    r.sep(44);
    const status = r.string();
    if (!STATUSES.has(status)) r.fail("a status");
    r.sep(44);
    const createdAt = r.dateTime();
    r.sep(44);
    const updatedAt = r.dateTime();
    const o: Order = { id, customer: { id: customerId, name, email, address: { street, city, postcode, country } }, items, total, currency, status, createdAt, updatedAt };
    if (note) {
      r.sep(44);
      if (r.p < t.length && t.charCodeAt(r.p) !== 10) o.note = r.string();
    }
    orders.push(o);
  }
  if (r.p !== t.length) r.fail("the end of the text");
  return { orders };
}

/** A position in the text and the cells read there. */
class Cursor {
  p = 0;
  constructor(readonly t: string) {}

  fail(what: string): never {
    throw new Error(`orders text: ${what} at offset ${this.p}`);
  }

  count(): number {
    const t = this.t;
    const start = this.p;
    let p = start;
    let n = 0;
    for (let c = t.charCodeAt(p); c >= 48 && c <= 57; c = t.charCodeAt(++p)) n = n * 10 + c - 48;
    this.p = p;
    return p === start ? this.fail("a count") : n;
  }

  sep(c: number): void {
    if (this.t.charCodeAt(this.p) !== c) this.fail(`"${String.fromCharCode(c)}"`);
    this.p++;
  }

  raw(): string {
    CELL_END.lastIndex = this.p;
    const e = CELL_END.test(this.t) ? CELL_END.lastIndex - 1 : this.t.length;
    const s = this.t.slice(this.p, e);
    this.p = e;
    return s;
  }

  quoted(): string {
    const t = this.t;
    let q = this.p + 1;
    for (;;) {
      const c = t.charCodeAt(q);
      if (c === 34) break;
      if (c === 92) q++;
      else if (q >= t.length || c === 10) this.fail("a closing quote");
      q++;
    }
    const s = JSON.parse(t.slice(this.p, q + 1)) as string;
    this.p = q + 1;
    return s;
  }

  string(): string {
    if (this.t.charCodeAt(this.p) === 34) return this.quoted();
    const s = this.raw();
    return s === "" ? this.fail("a string") : s;
  }

  number(): number {
    const s = this.raw();
    const x = Number(s);
    return s === "" || !Number.isFinite(x) ? this.fail("a number") : x;
  }

  integer(): number {
    const x = this.number();
    return Number.isInteger(x) ? x : this.fail("an integer");
  }

  dateTime(): string {
    if (this.t.charCodeAt(this.p) === 34) return this.quoted();
    const s = this.raw();
    return extendedStamp(s) ?? s;
  }
}
