/**
 * Self-describing values, for schema positions that allow any JSON (`{}`, open `additionalProperties`).
 * A tag byte (wire.ts AnyTag) then the payload; object keys and strings share the message's string table,
 * so repeated keys inside `any` values still travel once.
 */
import { ToonError, pointerSegment, rethrowAt } from "./errors.ts";
import type { Reader } from "./reader.ts";
import { describe, type Writer } from "./writer.ts";
import { AnyTag, DEFAULT_MAX_DEPTH } from "./wire.ts";
import { setOwn } from "./objects.ts";

export function writeAny(w: Writer, v: unknown): void {
  switch (typeof v) {
    case "string":
      w.byte(AnyTag.STRING);
      if (!w.string(v)) throw new ToonError("INVALID_VALUE", "string holds a lone surrogate (not representable in UTF-8)");
      return;
    case "number":
      if (v >= 0 && v < 32 && Number.isInteger(v) && (v !== 0 || 1 / v > 0)) {
        w.byte(AnyTag.SMALL_INT + v);
        return;
      }
      w.byte(AnyTag.NUMBER);
      if (!w.num(v)) throw new ToonError("INVALID_VALUE", `expected a finite number, got ${v}`);
      return;
    case "boolean":
      w.byte(v ? AnyTag.TRUE : AnyTag.FALSE);
      return;
    case "object":
      if (v === null) {
        w.byte(AnyTag.NULL);
        return;
      }
      if (++w.depth > DEFAULT_MAX_DEPTH) throw new ToonError("DEPTH_LIMIT", `value nested deeper than ${DEFAULT_MAX_DEPTH} (a cycle?)`);
      if (Array.isArray(v)) {
        w.byte(AnyTag.ARRAY);
        const n = v.length;
        w.varint(n);
        let i = 0;
        try {
          for (; i < n; i++) writeAny(w, v[i]);
        } catch (e) {
          rethrowAt(e, pointerSegment(i));
        }
      } else {
        w.byte(AnyTag.OBJECT);
        writeAnyEntries(w, v as Record<string, unknown>);
      }
      w.depth--;
      return;
    default:
      throw new ToonError("INVALID_VALUE", `expected a JSON value, got ${describe(v)}`);
  }
}

/** Object entries: count, then key and value; keys whose value is `undefined` are skipped, as JSON.stringify does. */
function writeAnyEntries(w: Writer, o: Record<string, unknown>): void {
  const keys = Object.keys(o);
  let n = 0;
  for (let i = 0; i < keys.length; i++) if (o[keys[i]!] !== undefined) n++;
  w.varint(n);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const value = o[k];
    if (value === undefined) continue;
    if (!w.string(k)) throw new ToonError("INVALID_VALUE", "key holds a lone surrogate", { path: pointerSegment(k) });
    try {
      writeAny(w, value);
    } catch (e) {
      rethrowAt(e, pointerSegment(k));
    }
  }
}

export function readAny(r: Reader): unknown {
  const tag = r.byte();
  if (tag >= AnyTag.SMALL_INT) {
    if (tag <= AnyTag.SMALL_INT_END) return tag - AnyTag.SMALL_INT;
    r.pos--;
    throw r.fail("INVALID_ENCODING", `unknown value tag ${tag}`);
  }
  switch (tag) {
    case AnyTag.NULL:
      return null;
    case AnyTag.FALSE:
      return false;
    case AnyTag.TRUE:
      return true;
    case AnyTag.STRING:
      return r.string();
    case AnyTag.NUMBER:
      return r.num();
    case AnyTag.ARRAY: {
      r.enter();
      const n = r.count(1);
      const a: unknown[] = [];
      const at = r.at;
      let i = 0;
      try {
        for (; i < n; i++) {
          r.at = "";
          a.push(readAny(r));
        }
      } catch (e) {
        rethrowAt(e, at + pointerSegment(i));
      }
      r.at = at;
      r.depth--;
      return a;
    }
    case AnyTag.OBJECT: {
      r.enter();
      const n = r.count(2);
      const o: Record<string, unknown> = {};
      const at = r.at;
      let k = "";
      try {
        for (let i = 0; i < n; i++) {
          r.at = "";
          k = r.string();
          if (Object.prototype.hasOwnProperty.call(o, k)) throw r.fail("INVALID_ENCODING", `duplicate key ${JSON.stringify(k)}`);
          setOwn(o, k, readAny(r));
        }
      } catch (e) {
        rethrowAt(e, at + pointerSegment(k));
      }
      r.at = at;
      r.depth--;
      return o;
    }
    default:
      r.pos--;
      throw r.fail("INVALID_ENCODING", `unknown value tag ${tag}`);
  }
}
