/**
 * The wire formats, as one table (avsc's logical types over an underlying kind): every way a `string`,
 * `integer` or `number` position can be encoded has one entry here, and that entry owns everything a consumer
 * needs to know about it, side by side: the value guard and the Writer/Reader primitive, the message when the
 * primitive refuses a value, the default-table variant (runtime/wire/defaults.ts) and its cost model, what the
 * dictionary records (docs/FORMAT.md §5.2), what union predicates and streams need, and the decoded TS type.
 *
 * Consumers (the AOT emitter, the engine, the dictionary, samples, inspect, streams) never test `format` or
 * `int64` themselves: they call `formatOf(shape)` and read the entry. Adding a format is adding an entry, its
 * primitives and its section of docs/FORMAT.md.
 *
 * Scaled decimals (`number` values such as 12.5) are not a format: Writer.num picks the scale per value for
 * every number position (FORMAT §3.4), so there is no per-shape decision to record.
 */
import * as d from "../wire/defaults.ts";
import { EXPECTED_INT64, EXPECTED_INTEGER, EXPECTED_NUMBER, EXPECTED_UUID, EXPECTED_WELL_FORMED } from "./messages.ts";
import type { DefaultTable } from "../wire/defaults.ts";
import type { Reader } from "../wire/reader.ts";
import { utf8Length } from "../wire/utf8.ts";
import { isCanonicalUuid, isUuid, readUuid, writeUuid } from "../wire/uuid.ts";
import { writeInt64, type Writer } from "../wire/writer.ts";

export type FormatName = "string" | "plain-string" | "date-time" | "date" | "decimal-string" | "uuid" | "integer" | "int64" | "int64-bigint" | "number";

/**
 * How a value is checked before its primitive runs, and which message a failure of the guard itself gives:
 * `string`: not a string is "a string", then the primitive's refusal is `expected`; the others check type and
 * primitive in one test with one message.
 */
export type Guard = "string" | "integer" | "int64" | "number";

/** Default-table cost model of a format (generator/samples/tables.ts chooses tables with it). */
export interface TableCost {
  /** Whether `v` can be an entry: it must come back from the table exactly as it went in. */
  entry(v: unknown): boolean;
  /** Bytes of a reference to entry k. */
  reference(k: number): number;
  /** Extra bytes a value that is not an entry pays because the table has `size` entries (0 when size is 0). */
  shift(v: string | number, size: number): number;
  /** The message's string table interns these values: a table saves (about) one occurrence per message. */
  interned: boolean;
}

export interface WireFormat {
  readonly name: FormatName;
  /** The underlying shape kind. */
  readonly kind: "string" | "integer" | "number";
  /** What selects the format, as the dictionary entry and the descriptor record it (nothing for plain kinds). */
  readonly record: { readonly format?: string; readonly int64?: true; readonly intern?: false };
  readonly guard: Guard;
  /** The primitive as generated code calls it: a Writer method `w.<method>(v)` or a runtime function `$rt.<fn>(w, v)`. */
  readonly writeCall: { readonly method: string } | { readonly fn: string };
  /** The primitive generated code reads with: a Reader method `r.<method>()` or a runtime function `$rt.<fn>(r)`. */
  readonly readCall: { readonly method: string } | { readonly fn: string };
  /**
   * A global generated code applies to what `readCall` (or the tabled read) returns: `BigInt(r.int64())`. A
   * variant that only converts the decoded value needs no runtime export, so no new runtime contract.
   */
  readonly readAs?: "BigInt";
  /**
   * What the descriptor records beyond `record`: how values decode, not how they travel (the dictionary, which
   * `record` feeds, never sees it, so the fingerprint does not depend on it).
   */
  readonly decode?: { readonly bigint: true };
  /** The same primitives for the engine. `write` returns false when the value cannot be written. */
  readonly write: (w: Writer, v: any) => boolean;
  readonly read: (r: Reader) => unknown;
  /** What the value was expected to be when `write` refuses it (`expected ...` in the INVALID_VALUE message). */
  readonly expected: string;
  /** The default-table variant: runtime/wire/defaults.ts `writeTabled<tabled>` / `readTabled<tabled>`. */
  readonly tabled: string;
  readonly writeTabled: (w: Writer, v: any, t: DefaultTable<any>) => boolean;
  readonly readTabled: (r: Reader, t: DefaultTable<any>) => unknown;
  readonly table: TableCost;
  /** JSON types a value can have (union branch choice, runtime/codec/plan.ts). */
  readonly categories: readonly ("string" | "number" | "bigint")[];
  /**
   * Union predicates: a runtime test stricter than the guard (`$rt.<name>(v)` in generated code), for formats
   * that take only some strings; without it the guard's type test is the predicate.
   */
  readonly test?: { readonly name: string; readonly fn: (v: unknown) => boolean };
  /**
   * The text check's guard (runtime/text/check.ts) for a position of this format, by name (`$rt.<name>` in
   * generated code, looked up by the interpreted check): `tcString` unless the format takes only some strings.
   */
  readonly textGuard?: "tcUuid";
  /** Streams: travels as an ordinary string, so a long value may be sent in text chunks (StreamPathFlag.PLAIN). */
  readonly plain: boolean;
  /** The TypeScript type of a decoded value. */
  readonly tsType: string;
  /** What the constraint checker (runtime/validate/constraints.ts: `validate()`, tool calls) holds a value to beyond its kind. */
  readonly check: { readonly int64?: true; readonly uuid?: true };
}

function varintLength(x: number): number {
  let n = 1;
  for (; x >= 0x80; x = Math.floor(x / 128)) n++;
  return n;
}

/** A header varint h of the value's own encoding that the table shifts to h + size (strings, integers). */
function shifted(h: number, size: number): number {
  return varintLength(h + size) - varintLength(h);
}

/** The longest string a table keeps: the generated module embeds the table. */
const MAX_TABLE_STRING = 4096;

function stringEntry(v: unknown): boolean {
  return typeof v === "string" && v.length <= MAX_TABLE_STRING && v.isWellFormed();
}

function integerEntry(v: unknown): boolean {
  return typeof v === "number" && Number.isSafeInteger(v) && !Object.is(v, -0);
}

const oneByte = (): number => 1;
const noShift = (): number => 0;
const integerShift = (v: string | number, size: number): number => shifted((v as number) >= 0 ? (v as number) * 2 : -(v as number) * 2 - 1, size);

const SURROGATES = EXPECTED_WELL_FORMED;

const STRING: WireFormat = {
  name: "string",
  kind: "string",
  record: {},
  guard: "string",
  writeCall: { method: "string" },
  readCall: { method: "string" },
  write: (w, v) => w.string(v),
  read: (r) => r.string(),
  expected: SURROGATES,
  tabled: "String",
  writeTabled: d.writeTabledString,
  readTabled: d.readTabledString,
  table: { entry: stringEntry, reference: oneByte, shift: (v, size) => shifted(2 * utf8Length(v as string), size), interned: true },
  categories: ["string"],
  plain: true,
  tsType: "string",
  check: {},
};

/**
 * FORMAT §3.1: a plain string at a path the dictionary does not intern (`intern: false`, generator/dictionary/
 * intern.ts): the literal only, never a reference, and it never enters the message's string table.
 */
const PLAIN_STRING: WireFormat = {
  ...STRING,
  name: "plain-string",
  record: { intern: false },
  writeCall: { method: "plainString" },
  readCall: { method: "plainString" },
  write: (w, v) => w.plainString(v),
  read: (r) => r.plainString(),
  tabled: "PlainString",
  writeTabled: d.writeTabledPlainString,
  readTabled: d.readTabledPlainString,
  table: { ...STRING.table, interned: false },
};

/** FORMAT §3.7: a varint of seconds or milliseconds, or a literal fallback. Entries are v mod 4 = 3. */
const DATE_TIME: WireFormat = {
  name: "date-time",
  kind: "string",
  record: { format: "date-time" },
  guard: "string",
  writeCall: { method: "dateTime" },
  readCall: { method: "dateTime" },
  write: (w, v) => w.dateTime(v),
  read: (r) => r.dateTime(),
  expected: SURROGATES,
  tabled: "DateTime",
  writeTabled: d.writeTabledDateTime,
  readTabled: d.readTabledDateTime,
  table: { entry: stringEntry, reference: (k) => varintLength(4 * k + 3), shift: noShift, interned: false },
  categories: ["string"],
  plain: false,
  tsType: "string",
  check: {},
};

/** FORMAT §3.7: a varint day number, or a literal fallback. Entries are even varints other than 0. */
const DATE: WireFormat = {
  name: "date",
  kind: "string",
  record: { format: "date" },
  guard: "string",
  writeCall: { method: "date" },
  readCall: { method: "date" },
  write: (w, v) => w.date(v),
  read: (r) => r.date(),
  expected: SURROGATES,
  tabled: "Date",
  writeTabled: d.writeTabledDate,
  readTabled: d.readTabledDate,
  table: { entry: stringEntry, reference: (k) => varintLength(2 * k + 2), shift: noShift, interned: false },
  categories: ["string"],
  plain: false,
  tsType: "string",
  check: {},
};

/** FORMAT §3.3: an int64-marked string, a tag byte and a varint when canonical. Entries are tags 2 + k. */
const DECIMAL_STRING: WireFormat = {
  name: "decimal-string",
  kind: "string",
  record: { int64: true },
  guard: "string",
  writeCall: { method: "decimalString" },
  readCall: { method: "decimalString" },
  write: (w, v) => w.decimalString(v),
  read: (r) => r.decimalString(),
  expected: SURROGATES,
  tabled: "DecimalString",
  writeTabled: d.writeTabledDecimalString,
  readTabled: d.readTabledDecimalString,
  table: { entry: stringEntry, reference: oneByte, shift: noShift, interned: false },
  categories: ["string"],
  plain: false,
  tsType: "string",
  check: { int64: true },
};

/** FORMAT §3.8: 16 raw bytes. Tabled paths put a tag byte first (0: the bytes follow, 1 + k: entry k). */
const UUID: WireFormat = {
  name: "uuid",
  kind: "string",
  record: { format: "uuid" },
  guard: "string",
  writeCall: { fn: "writeUuid" },
  readCall: { fn: "readUuid" },
  write: writeUuid,
  read: readUuid,
  expected: EXPECTED_UUID,
  tabled: "Uuid",
  writeTabled: d.writeTabledUuid,
  readTabled: d.readTabledUuid,
  table: { entry: isCanonicalUuid, reference: oneByte, shift: (_v, size) => (size > 0 ? 1 : 0), interned: false },
  categories: ["string"],
  test: { name: "isUuid", fn: isUuid },
  textGuard: "tcUuid",
  plain: false,
  tsType: "string",
  check: { uuid: true },
};

/** FORMAT §3.2: a zigzag varint; beyond 2^53 rounded to a double. Entries are varints k < K. */
const INTEGER: WireFormat = {
  name: "integer",
  kind: "integer",
  record: {},
  guard: "integer",
  writeCall: { method: "int" },
  readCall: { method: "int" },
  write: (w, v) => w.int(v),
  read: (r) => r.int(),
  expected: EXPECTED_INTEGER,
  tabled: "Int",
  writeTabled: d.writeTabledInt,
  readTabled: d.readTabledInt,
  table: { entry: integerEntry, reference: oneByte, shift: integerShift, interned: false },
  categories: ["number"],
  plain: false,
  tsType: "number",
  check: {},
};

/** FORMAT §3.2: the same varint, decoded exactly (a bigint beyond 2^53). */
const INT64: WireFormat = {
  name: "int64",
  kind: "integer",
  record: { int64: true },
  guard: "int64",
  writeCall: { fn: "writeInt64" },
  readCall: { method: "int64" },
  write: writeInt64,
  read: (r) => r.int64(),
  expected: EXPECTED_INT64,
  tabled: "Int64",
  writeTabled: d.writeTabledInt64,
  readTabled: d.readTabledInt64,
  table: { entry: integerEntry, reference: oneByte, shift: integerShift, interned: false },
  // int64 fields take bigints too: a cheap union test that only looked for numbers would send them elsewhere
  categories: ["number", "bigint"],
  plain: false,
  tsType: "number | bigint",
  check: { int64: true },
};

/**
 * The same varint as INT64, every value decoded as a bigint (`"int64": "bigint"` in the config: `typeof` does not
 * depend on the value). Encoders take numbers and bigints alike, as INT64 does.
 */
const INT64_BIGINT: WireFormat = {
  ...INT64,
  name: "int64-bigint",
  readAs: "BigInt",
  decode: { bigint: true },
  read: (r) => BigInt(r.int64()),
  readTabled: (r, t) => BigInt(d.readTabledInt64(r, t)),
  tsType: "bigint",
};

/** FORMAT §3.4: scaled decimal or float64. Entries are v = 16(k + 1) + 15. */
const NUMBER: WireFormat = {
  name: "number",
  kind: "number",
  record: {},
  guard: "number",
  writeCall: { method: "num" },
  readCall: { method: "num" },
  write: (w, v) => w.num(v),
  read: (r) => r.num(),
  expected: EXPECTED_NUMBER,
  tabled: "Number",
  writeTabled: d.writeTabledNumber,
  readTabled: d.readTabledNumber,
  table: { entry: (v) => typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0), reference: (k) => varintLength(16 * (k + 1) + 15), shift: noShift, interned: false },
  categories: ["number"],
  plain: false,
  tsType: "number",
  check: {},
};

/** Every format, plain kinds first. */
export const FORMATS: readonly WireFormat[] = [STRING, PLAIN_STRING, DATE_TIME, DATE, DECIMAL_STRING, UUID, INTEGER, INT64, INT64_BIGINT, NUMBER];

/** String formats by the JSON Schema `format` that selects them (other formats are plain strings). */
const STRING_FORMATS: ReadonlyMap<string, WireFormat> = new Map(FORMATS.filter((f) => f.kind === "string" && f.record.format !== undefined).map((f) => [f.record.format!, f]));

/** The scalar shapes: the ones with a wire format. */
export interface ScalarShape {
  kind: "string" | "integer" | "number";
  format?: string;
  int64?: boolean;
  /** Integers with `int64`: decoded as bigints always (IntegerShape.bigint). */
  bigint?: boolean;
  /** `false` on plain-string paths the dictionary does not intern. */
  intern?: false;
}

export function isScalar<S extends { kind: string }>(s: S): s is S & ScalarShape {
  return s.kind === "string" || s.kind === "integer" || s.kind === "number";
}

/** The wire format of a scalar shape. int64 marking wins over `format`, as it always has on the wire. */
export function formatOf(s: ScalarShape): WireFormat {
  if (s.kind === "number") return NUMBER;
  if (s.kind === "integer") return s.int64 ? (s.bigint ? INT64_BIGINT : INT64) : INTEGER;
  if (s.int64) return DECIMAL_STRING;
  const f = (s.format !== undefined && STRING_FORMATS.get(s.format)) || STRING;
  return f === STRING && s.intern === false ? PLAIN_STRING : f;
}

/** The entry by name (`PathProfile.kind`, `chooseTable`). */
export function formatNamed(name: FormatName): WireFormat {
  return FORMATS.find((f) => f.name === name)!;
}
