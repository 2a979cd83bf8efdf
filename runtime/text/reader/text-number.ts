/**
 * A number token whose JS number does not carry it exactly: an integer beyond ±(2^53 - 1), or a token not in
 * canonical form (`1.0`, `1e3`, `0.10`, `-0`, `0.0000001`). Produced only in exact mode (`decodeTextExact`, the
 * reader's `exact` option), so that a schema-aware pass can keep the token's text (a `string` field holding `1.10`)
 * or its exact integer value (an int64 field holding `12345678901234567890`). `value` is what `decodeText` would
 * have produced. A module of its own: the dense reader shares it without the TOON v4 reader.
 */
export class TextNumber {
  declare readonly value: number;
  declare readonly raw: string;
  constructor(value: number, raw: string) {
    this.value = value;
    this.raw = raw;
  }
}
