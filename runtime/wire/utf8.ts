/**
 * UTF-8 without Node's Buffer. Short strings are coded in JS (a native call has a high fixed cost, see
 * NOTES-perf); long ones go to TextEncoder/TextDecoder. Both directions refuse what UTF-8 cannot carry
 * losslessly: lone surrogates on encode, malformed sequences on decode.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Below this many UTF-16 units the JS loops beat the native coders on this machine. */
export const SHORT_STRING = 32;

/**
 * Write `s` into `buf` at `pos` (which must have room for `s.length * 3` bytes).
 * Returns the new position, or -1 when `s` holds a lone surrogate.
 */
export function writeUtf8(s: string, buf: Uint8Array, pos: number): number {
  const n = s.length;
  if (n > SHORT_STRING) {
    if (!s.isWellFormed()) return -1;
    return pos + encoder.encodeInto(s, buf.subarray(pos)).written;
  }
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      buf[pos++] = c;
    } else if (c < 0x800) {
      buf[pos++] = 0xc0 | (c >> 6);
      buf[pos++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c >= 0xe000) {
      buf[pos++] = 0xe0 | (c >> 12);
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
      buf[pos++] = 0x80 | (c & 0x3f);
    } else {
      // surrogate pair
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c >= 0xdc00 || d < 0xdc00 || d > 0xdfff) return -1;
      i++;
      c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      buf[pos++] = 0xf0 | (c >> 18);
      buf[pos++] = 0x80 | ((c >> 12) & 0x3f);
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
      buf[pos++] = 0x80 | (c & 0x3f);
    }
  }
  return pos;
}

const fromCharCode = String.fromCharCode;

/**
 * Decode `len` bytes at `pos`. Returns `undefined` for malformed UTF-8 (the caller knows the path to report).
 */
export function readUtf8(buf: Uint8Array, pos: number, len: number): string | undefined {
  if (len > SHORT_STRING) {
    try {
      return decoder.decode(buf.subarray(pos, pos + len));
    } catch {
      return undefined;
    }
  }
  const end = pos + len;
  let out = "";
  // ASCII runs 8 bytes at a time: one fixed-arity fromCharCode per 8 characters
  for (; pos + 8 <= end; pos += 8) {
    const a = buf[pos]!, b = buf[pos + 1]!, c = buf[pos + 2]!, d = buf[pos + 3]!;
    const e = buf[pos + 4]!, f = buf[pos + 5]!, g = buf[pos + 6]!, h = buf[pos + 7]!;
    if ((a | b | c | d | e | f | g | h) >= 0x80) break;
    out += fromCharCode(a, b, c, d, e, f, g, h);
  }
  while (pos < end) {
    const a = buf[pos++]!;
    if (a < 0x80) {
      out += fromCharCode(a);
      continue;
    }
    if (a >= 0xc2 && a < 0xe0) {
      if (pos >= end) return undefined;
      const b = buf[pos++]!;
      if ((b & 0xc0) !== 0x80) return undefined;
      out += fromCharCode(((a & 0x1f) << 6) | (b & 0x3f));
    } else if (a >= 0xe0 && a < 0xf0) {
      if (pos + 1 >= end) return undefined;
      const b = buf[pos++]!;
      const c = buf[pos++]!;
      if ((b & 0xc0) !== 0x80 || (c & 0xc0) !== 0x80) return undefined;
      const cp = ((a & 0x0f) << 12) | ((b & 0x3f) << 6) | (c & 0x3f);
      if (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000)) return undefined; // overlong or surrogate
      out += fromCharCode(cp);
    } else if (a >= 0xf0 && a < 0xf5) {
      if (pos + 2 >= end) return undefined;
      const b = buf[pos++]!;
      const c = buf[pos++]!;
      const d = buf[pos++]!;
      if ((b & 0xc0) !== 0x80 || (c & 0xc0) !== 0x80 || (d & 0xc0) !== 0x80) return undefined;
      const cp = ((a & 0x07) << 18) | ((b & 0x3f) << 12) | ((c & 0x3f) << 6) | (d & 0x3f);
      if (cp < 0x10000 || cp > 0x10ffff) return undefined;
      const u = cp - 0x10000;
      out += fromCharCode(0xd800 + (u >> 10), 0xdc00 + (u & 0x3ff));
    } else {
      return undefined;
    }
  }
  return out;
}

/** Exact UTF-8 byte length of a well-formed string (used by size reports, not the hot path). */
export function utf8Length(s: string): number {
  return encoder.encode(s).length;
}
