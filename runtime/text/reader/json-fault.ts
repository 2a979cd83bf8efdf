/**
 * What went wrong in JSON text, as facts (./json.ts raises them): what the reader expected, what it found, where
 * (offset, line, column, and the JSON pointer of the value it was reading) and whether the text ran out there.
 * Each caller words them its own way (the dense reader, the stream encoder, tool-call arguments); the wording
 * here is the strict reader's, which names the slips models make (a trailing comma, single quotes, Python's
 * `True`, a comment, a raw line break in a string, NaN).
 */
import { ToonError, type ToonErrorCode } from "../../wire/errors.ts";
import { withFacts } from "./facts.ts";

export type JsonFaultKind =
  /** A character or word that cannot stand here (`expected` says what could, `found` what came). */
  | "unexpected"
  /** The text ended inside the value (INCOMPLETE): `token` is what it ended in. */
  | "end"
  /** A `,` right before `}` or `]` (`found` is the closer). */
  | "trailing-comma"
  /** A raw control character inside a string (`found` is the character). */
  | "control"
  /** A backslash escape JSON does not have (at the string's opening quote). */
  | "escape"
  /** A high surrogate without its low one, or a low one alone (at the string's opening quote). */
  | "surrogate"
  /** Digits, signs, dots and exponents that do not spell a JSON number (`found` is the token). */
  | "number"
  /** Containers nested deeper than `limit` (at the bracket that opens one too many). */
  | "depth"
  /** A key the object has already (`found` is the key; raised by a value builder that refuses them). */
  | "duplicate"
  /** A number beyond the range of a double (`1e999`), raised by a builder that refuses them. */
  | "range";

/** What could stand where the fault is: a value, an object's key, the `:` after one, what follows a member or an item, or nothing more (after the root value). */
export type JsonExpected = "value" | "key" | "colon" | "object-next" | "array-next" | "nothing";

export interface JsonFault {
  kind: JsonFaultKind;
  expected: JsonExpected;
  /** The character met, the whole word (`True`, `NaN`, `tru`), `//` or `/*` for a comment, a number's token, a duplicate key; "" at the end. */
  found: string;
  /** For "end": the token the text ended in. */
  token?: "string" | "key" | "number" | "word" | "comment";
  /** Characters read before the fault (from the first `push`), and its 1-based line and column. */
  offset: number;
  line: number;
  column: number;
  /** JSON pointer of the value being read ("" for the root, or the container between its members). */
  path: string;
  /** The text ran out here (a cut-off value). */
  atEnd: boolean;
  /** For "depth": the limit. */
  limit: number;
}

/** The JSON spelling of Python's `True`, `False` and `None` (undefined for any other word). */
export function pythonLiteral(word: string): "true" | "false" | "null" | undefined {
  return word === "True" ? "true" : word === "False" ? "false" : word === "None" ? "null" : undefined;
}

const WORD = /^[A-Za-z_$]/;

/** The ToonError code of a fault: INCOMPLETE where the text ended, DEPTH_LIMIT for nesting, else TEXT_SYNTAX. */
export function jsonFaultCode(f: JsonFault): ToonErrorCode {
  return f.kind === "end" ? "INCOMPLETE" : f.kind === "depth" ? "DEPTH_LIMIT" : "TEXT_SYNTAX";
}

/** The strict reader's error for a fault (what `parseJsonExact` throws). */
export function jsonFaultError(f: JsonFault, code: ToonErrorCode = jsonFaultCode(f), reason = jsonFaultReason(f)): ToonError {
  return withFacts(new ToonError(code, reason, { line: f.line, column: f.column, path: f.path }), undefined, f.atEnd);
}

/** The default `raise` of the reader: throw the strict reader's error. */
export function throwJsonFault(f: JsonFault): never {
  throw jsonFaultError(f);
}

/** The strict reader's wording: "invalid JSON: ..." naming the slip, the truncation, or the nesting limit. */
export function jsonFaultReason(f: JsonFault): string {
  if (f.kind === "end") return "the JSON ends before its value does (truncated)";
  if (f.kind === "depth") return `JSON nested deeper than ${f.limit} levels`;
  return `invalid JSON: ${describeJsonFault(f)}`;
}

const EXPECTED: Record<JsonExpected, string> = {
  value: "a value",
  key: "a property name in double quotes",
  colon: "':' after property name",
  "object-next": "',' or '}' after a property value",
  "array-next": "',' or ']' after an array item",
  nothing: "nothing",
};

/** A fault in words, without the "invalid JSON: " prefix. */
export function describeJsonFault(f: JsonFault): string {
  switch (f.kind) {
    case "end":
      return "the text ends before the value does";
    case "trailing-comma":
      return `trailing comma before ${f.found}`;
    case "control": {
      const c = f.found.charCodeAt(0);
      return c === 10 || c === 13 ? "a raw line break inside a string (JSON writes \\n)" : c === 9 ? "a raw tab inside a string (JSON writes \\t)" : "a raw control character inside a string";
    }
    case "escape":
      return "invalid escape in string";
    case "surrogate":
      return "a lone surrogate in a string (not valid Unicode)";
    case "number":
      return `invalid number ${JSON.stringify(f.found)}`;
    case "depth":
      return `nested deeper than ${f.limit} levels`;
    case "duplicate":
      return `duplicate key ${JSON.stringify(f.found)}`;
    case "range":
      return "a number beyond the range of float64";
    case "unexpected":
      return describeUnexpected(f);
  }
}

/** What was found where `expected` was expected: the slip a model makes there, named, or the character. */
function describeUnexpected(f: JsonFault): string {
  if (f.expected === "nothing") return "unexpected content after the JSON value";
  if (f.expected === "colon") return "expected ':' after property name";
  const expected = EXPECTED[f.expected];
  const found = f.found;
  if (found === "'") return `a single-quoted string where ${expected} was expected (JSON strings use double quotes)`;
  if (found === "//" || found === "/*") return `a comment where ${expected} was expected (JSON has no comments)`;
  if (WORD.test(found)) {
    const py = pythonLiteral(found);
    if (py !== undefined) return `Python's ${found} where ${expected} was expected (JSON writes ${py})`;
    if (f.expected === "key") return `unquoted property name ${JSON.stringify(found)} (JSON needs double quotes)`;
    if (found === "NaN" || found === "Infinity" || found === "undefined") return `${found} is not a JSON value`;
  }
  return `expected ${expected}, got ${JSON.stringify(found.charAt(0))}`;
}
