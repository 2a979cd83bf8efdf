/**
 * `toon-gen encode` / `decode` without `--schema`: schemaless messages (docs/FORMAT.md §10.4), the
 * dictionary inferred from the value and embedded in the message.
 */
import { ToonError } from "../../runtime/wire/errors.ts";
import type { EncodeOptions } from "../../runtime/compression.ts";
import { decodeSchemaless, encodeSchemaless } from "../../runtime/schemaless.ts";
import { readJsonText } from "../../runtime/text/reader/json-value.ts";
import { stringifyJson } from "../interpret/json.ts";
import { isCompressedMessage, useZstd } from "./zstd.ts";

/**
 * JSON text to a value, as `JSON.parse` reads it (a leading byte-order mark aside), except that integer literals
 * beyond 2^53 within the 64-bit range become exact bigints (schemaless int64 keeps them).
 */
export function parseJsonExact(text: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return readJsonText(text, { numbers: "bigint", duplicates: "last", loneSurrogates: true }).value;
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
