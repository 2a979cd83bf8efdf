/**
 * `toon-gen encode` / `decode` without `--schema`: schemaless messages (docs/FORMAT.md §10.4), the
 * dictionary inferred from the value and embedded in the message.
 */
import { ToonError } from "../../runtime/errors.ts";
import type { EncodeOptions } from "../../runtime/compression.ts";
import { decodeSchemaless, encodeSchemaless } from "../../runtime/schemaless.ts";
import { stringifyJson } from "../interpret/json.ts";
import { isCompressedMessage, useZstd } from "./zstd.ts";

/** JSON text to a value; integer literals beyond 2^53 become exact bigints (schemaless int64 keeps them). */
export function parseJsonExact(text: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const plain = JSON.parse(text) as unknown;
  let found = false;
  const tag = "\u0000" + Math.random().toString(36).slice(2) + ":";
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) => {
    if (token.charCodeAt(0) === 34 || /[.eE]/.test(token) || Number.isSafeInteger(Number(token))) return token;
    const b = BigInt(token);
    if (b < -(2n ** 63n) || b >= 2n ** 64n) return token; // beyond 64 bits: the double, as JSON.parse gives it
    found = true;
    return JSON.stringify(tag + token);
  });
  if (!found) return plain;
  return JSON.parse(marked, (_key, v) => (typeof v === "string" && v.startsWith(tag) ? BigInt(v.slice(tag.length)) : v)) as unknown;
}

export async function schemalessCommand(command: "encode" | "decode", input: Uint8Array, options: EncodeOptions | undefined): Promise<Uint8Array> {
  if (command === "encode") {
    let value: unknown;
    try {
      value = parseJsonExact(new TextDecoder("utf-8", { fatal: true }).decode(input));
    } catch (e) {
      throw new ToonError("INVALID_VALUE", `input is not valid JSON: ${(e as Error).message}`);
    }
    return encodeSchemaless(value, options);
  }
  if (isCompressedMessage(input)) await useZstd();
  return new TextEncoder().encode(stringifyJson(decodeSchemaless(input)));
}
