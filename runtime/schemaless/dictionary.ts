/**
 * The dictionary's wire form, both directions: composite types depth first, a type equal to one written before as
 * a REF, constants and enum values as self-describing scalars through the shared string table.
 */
import { readAny, writeAny } from "../wire/any.ts";
import type { Reader } from "../wire/reader.ts";
import type { Writer } from "../wire/writer.ts";
import { AnyTag } from "../wire/wire.ts";
import { K, objectType, type SchemalessScalar, type SchemalessType, SIMPLE } from "./types.ts";
import type { SchemalessStrings, StrWriter } from "./strings.ts";
import type { SchemalessBodyReader } from "./body.ts";

/** Writes the dictionary: composite types depth first, a type equal to one written before as a REF. */
export class DictionaryWriter {
  private ids = new Map<SchemalessType, number>();
  private keys = new Map<string, number>();
  /** Canonical id -> index among the numbered (composite) types written so far. */
  private written = new Map<number, number>();
  private next = 0;

  constructor(
    private readonly w: Writer,
    private readonly sw: StrWriter,
  ) {}

  /** Structural identity: equal ids for types that encode the same way (written once, then as REF). */
  canon(t: SchemalessType): number {
    let id = this.ids.get(t);
    if (id !== undefined) return id;
    let key: string;
    switch (t.kind) {
      case K.CONST:
        key = JSON.stringify(["c", scalarText(t.value)]);
        break;
      case K.ENUM:
        key = JSON.stringify(["e", t.values.map(scalarText)]);
        break;
      case K.ARRAY:
        key = `a${this.canon(t.items)}`;
        break;
      case K.OBJECT:
        key = JSON.stringify(["o", t.keys, t.optional.map((b) => (b ? 1 : 0)), t.types.map((x) => this.canon(x))]);
        break;
      case K.MAP:
        key = `m${t.keyKind},${this.canon(t.values)}`;
        break;
      case K.UNION:
        key = `u${t.branches.map((x) => this.canon(x)).join(",")}`;
        break;
      default:
        key = `s${t.kind}`;
    }
    id = this.keys.get(key);
    if (id === undefined) this.keys.set(key, (id = this.keys.size));
    this.ids.set(t, id);
    return id;
  }

  type(t: SchemalessType): void {
    const w = this.w;
    if (t.kind <= K.INT64) {
      w.byte(t.kind);
      return;
    }
    const id = this.canon(t);
    const at = this.written.get(id);
    if (at !== undefined) {
      w.byte(K.REF);
      w.varint(at);
      return;
    }
    w.byte(t.kind);
    switch (t.kind) {
      case K.CONST:
        writeScalar(w, t.value, this.sw);
        break;
      case K.ENUM:
        w.varint(t.values.length);
        for (const v of t.values) writeScalar(w, v, this.sw);
        break;
      case K.ARRAY:
        this.type(t.items);
        break;
      case K.OBJECT: {
        const n = t.keys.length;
        w.varint(n);
        for (let b = 0; b < n; b += 8) {
          let byte = 0;
          for (let i = b; i < n && i < b + 8; i++) if (t.optional[i]) byte |= 1 << (i - b);
          w.byte(byte);
        }
        for (let i = 0; i < n; i++) {
          this.sw.write(w, t.keys[i]!);
          this.type(t.types[i]!);
        }
        break;
      }
      case K.MAP:
        w.byte(t.keyKind);
        this.type(t.values);
        break;
      case K.UNION:
        w.varint(t.branches.length);
        for (const b of t.branches) this.type(b);
        break;
    }
    this.written.set(id, this.next++);
  }
}

/** A CONST or ENUM value: the `any` tags of scalars (FORMAT §4.8), strings in the STR form (value table). */
function writeScalar(w: Writer, v: SchemalessScalar, sw: StrWriter): void {
  if (typeof v === "string") {
    w.byte(AnyTag.STRING);
    sw.write(w, v);
  } else writeAny(w, v);
}

function scalarText(v: SchemalessScalar): string {
  if (typeof v === "number") return v === 0 && 1 / v < 0 ? "n-0" : "n" + v;
  if (typeof v === "string") return "s" + v;
  return String(v);
}

interface TypeReader {
  /** Composite types read so far, in the order they were completed (REF indices). */
  table: SchemalessType[];
  maxDepth: number;
  strings: SchemalessStrings;
}

/**
 * Read the embedded dictionary (the root type); `r` must be positioned after the header. `cx` is the body's
 * decoding state: dictionary and body share the value table of STR strings.
 */
export function readSchemalessDictionary(r: Reader, cx: SchemalessBodyReader): SchemalessType {
  r.at = "";
  return readType(r, { table: [], maxDepth: 2 * cx.maxDepth + 2, strings: cx.strings }, 0);
}

function readType(r: Reader, cx: TypeReader, depth: number): SchemalessType {
  if (depth > cx.maxDepth) throw r.fail("DEPTH_LIMIT", `embedded dictionary nested deeper than ${cx.maxDepth}`);
  const kind = r.byte();
  if (kind <= K.INT64) return SIMPLE[kind]!;
  let t: SchemalessType;
  switch (kind) {
    case K.CONST:
      t = { kind: K.CONST, value: readScalar(r, cx.strings) };
      break;
    case K.ENUM: {
      const n = r.count(1);
      if (n === 0) throw r.fail("INVALID_ENCODING", "enum type with no values");
      const values: SchemalessScalar[] = [];
      for (let i = 0; i < n; i++) values.push(readScalar(r, cx.strings));
      t = { kind: K.ENUM, values };
      break;
    }
    case K.ARRAY:
      t = { kind: K.ARRAY, items: readType(r, cx, depth + 1) };
      break;
    case K.OBJECT: {
      const n = r.count(2);
      const optional: boolean[] = [];
      for (let b = 0; b < n; b += 8) {
        const inByte = Math.min(8, n - b);
        const byte = r.bits(inByte >= 8 ? 0xff : (1 << inByte) - 1);
        for (let i = 0; i < inByte; i++) optional.push((byte & (1 << i)) !== 0);
      }
      const keys: string[] = [];
      const types: SchemalessType[] = [];
      const seen = new Set<string>();
      for (let i = 0; i < n; i++) {
        const k = cx.strings.read(r);
        if (seen.has(k)) throw r.fail("INVALID_ENCODING", `object type lists the key ${JSON.stringify(k)} twice`);
        seen.add(k);
        keys.push(k);
        types.push(readType(r, cx, depth + 1));
      }
      t = objectType(keys, optional, types);
      break;
    }
    case K.MAP: {
      const keyKind = r.byte();
      if (keyKind !== K.STR && keyKind !== K.DECSTR) {
        r.pos--;
        throw r.fail("INVALID_ENCODING", `map key kind ${keyKind} (expected 05 or 08)`);
      }
      t = { kind: K.MAP, keyKind, values: readType(r, cx, depth + 1) };
      break;
    }
    case K.UNION: {
      const n = r.count(1);
      if (n < 2) throw r.fail("INVALID_ENCODING", `union type with ${n} branch${n === 1 ? "" : "es"}`);
      const branches: SchemalessType[] = [];
      for (let i = 0; i < n; i++) branches.push(readType(r, cx, depth + 1));
      t = { kind: K.UNION, branches };
      break;
    }
    case K.REF: {
      const i = r.varint();
      const ref = cx.table[i];
      if (ref === undefined) throw r.fail("INVALID_ENCODING", `type reference ${i} to a type not yet defined (${cx.table.length} so far)`);
      return ref;
    }
    default:
      r.pos--;
      throw r.fail("INVALID_ENCODING", `unknown type kind ${kind}`);
  }
  cx.table.push(t);
  return t;
}

/** A CONST or ENUM value: an `any` value that must be a scalar. */
function readScalar(r: Reader, strings: SchemalessStrings): SchemalessScalar {
  if (r.pos >= r.end) throw r.truncated();
  const tag = r.buf[r.pos]!;
  if (tag === AnyTag.ARRAY || tag === AnyTag.OBJECT) throw r.fail("INVALID_ENCODING", "a constant or enum value must be a scalar");
  if (tag === AnyTag.STRING) {
    r.pos++;
    return strings.read(r);
  }
  return readAny(r) as SchemalessScalar;
}
