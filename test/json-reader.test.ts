/**
 * The runtime's JSON tokenizer (runtime/text/reader/json.ts) and its value builder (json-value.ts): every JSON
 * text of the examples and a set of edge cases read whole, one character at a time and in seeded random pieces of
 * 1-8 characters give the same value or the same error (code, line, column, path, message); every proper prefix
 * of a document is INCOMPLETE with `atEnd`; the slips are named, and repaired, exactly as the parsers it replaced
 * did (tables below, recorded from them); mutated input gives a value or a ToonError, nothing else.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToonError } from "../runtime/wire/errors.ts";
import { TextNumber } from "../runtime/text/decode.ts";
import { JsonReader, JSON_MAX_DEPTH } from "../runtime/text/reader/json.ts";
import type { JsonHandler } from "../runtime/text/reader/json-handler.ts";
import { JsonValueBuilder, locateJson, parseJsonExact, readJsonSlice, readJsonText, type JsonValueOptions } from "../runtime/text/reader/json-value.ts";
import { parseJsonRepairing, type JsonRepair } from "../runtime/text/json-repair.ts";
import { readJson, type JsonCursor } from "../runtime/text/dense/json.ts";
import { parseArgumentsJson } from "../runtime/tools.ts";
import { exampleJsonTexts } from "./support/example-data.ts";
import { Rng } from "./support/rng.ts";

const EXAMPLES: [string, string][] = exampleJsonTexts().map(({ name, text }) => [name, text]);

const EDGE = [
  '{"a":"\\u00e9\\ud83d\\ude00 \\n\\t\\"\\\\\\/\\b\\f\\r","b":"\\u00E9"}',
  '"a\ud83d\ude00b\ud83d\ude00"',
  '["\\ud83d\\ude00", "\\ud83d\ude00", "x\\u0000y"]',
  "12345678901234567890",
  "[-12345678901234567890, 9007199254740993, 9007199254740992, -0, 0, 1.0, 1e2, 1E+2, 0.1, 1.5e-7, 123.456e+78]",
  "1e999",
  "[-1e999, 2]",
  "[".repeat(JSON_MAX_DEPTH) + "]".repeat(JSON_MAX_DEPTH),
  "[".repeat(JSON_MAX_DEPTH + 1) + "]".repeat(JSON_MAX_DEPTH + 1),
  '{"__proto__":{"x":1},"constructor":2,"toString":[],"a":[]}',
  '{"a":1,"a":2}',
  '{"constructor":1,"constructor":2}',
  " \t\r\n true \n",
  "false",
  "null",
  " [ ] ",
  "{ }",
  '""',
  '{"a":{"b":{"c":[1,{"d":null}]}},"e":[[],[[]],{}]}',
  '{"k\\u00e9y":"v", "k\\"q":1}',
  '{"a":[1,2,]}',
  "{'a':'x'}",
  '{"a":True}',
  '{"a":1 // one\n}',
  '{"a":"x\ny"}',
  '{"a":NaN}',
  "[1 2]",
  '["\\ud800"]',
  '"\\udc00"',
  '"\ud800"',
  '["\\q"]',
  "01",
  "[1.]",
  "-",
  "[truex]",
  '{"a":1} x',
];

/** What reading gives, in a form to compare: the value (TextNumbers, bigints and -0 spelled out), or the error's facts. */
function outcome(read: () => unknown): string {
  try {
    return "value " + JSON.stringify(read(), (_k, v) => (v instanceof TextNumber ? `TN:${v.raw}` : typeof v === "bigint" ? `big:${v}` : Object.is(v, -0) ? "-0" : v));
  } catch (e) {
    if (!(e instanceof ToonError)) throw e;
    return `error ${e.code} ${e.line}:${e.column} ${JSON.stringify(e.path)} ${e.atEnd === true ? "atEnd " : ""}${e.message}`;
  }
}

/** Read `text` in the pieces `sizes` gives (with the builder's options); value, raws, tracked positions and repairs. */
function readInPieces(text: string, sizes: () => number, options: JsonValueOptions = {}): unknown {
  const repairs: JsonRepair[] = [];
  const builder = new JsonValueBuilder({ ...options, track: true });
  const reader = new JsonReader(builder, { ...options, onRepair: (r) => repairs.push(r) });
  builder.reader = reader;
  for (let i = 0; i < text.length; ) {
    const n = Math.max(1, sizes());
    reader.push(text.slice(i, i + n));
    i += n;
  }
  reader.end();
  repairs.sort((a, b) => a.line - b.line || a.column - b.column);
  return { value: builder.value, raws: builder.raws, track: [...builder.track!.values()].map((m) => [...m]), repairs };
}

function sameInPieces(text: string, what: string, options: JsonValueOptions = {}, rng = new Rng(7)): void {
  const whole = outcome(() => readInPieces(text, () => text.length, options));
  assert.equal(outcome(() => readInPieces(text, () => 1, options)), whole, `${what}: one character at a time`);
  for (let k = 0; k < 4; k++) assert.equal(outcome(() => readInPieces(text, () => rng.int(1, 8), options)), whole, `${what}: random pieces (${k})`);
}

test("json reader: the examples' JSON reads as JSON.parse reads it, whole, by character and in random pieces", () => {
  assert.ok(EXAMPLES.length >= 4, "the examples' data files");
  for (const [name, text] of EXAMPLES) {
    const r = parseJsonExact(text);
    assert.deepEqual(JSON.parse(JSON.stringify(r.value, (_k, v) => (v instanceof TextNumber ? v.value : v))), JSON.parse(text), name);
    sameInPieces(text, name);
    sameInPieces(text, `${name} (repair mode)`, { repair: true });
  }
});

test("json reader: edge cases give the same value or error whole, by character and in random pieces", () => {
  for (const text of EDGE) {
    for (const options of [{}, { repair: true }, { numbers: "double" as const, duplicates: "last" as const, loneSurrogates: true }, { numbers: "bigint" as const }]) {
      sameInPieces(text, `${JSON.stringify(text.slice(0, 60))} ${JSON.stringify(options)}`, options);
    }
  }
});

test("json reader: exact numbers, -0, 1e999, big integers, __proto__, duplicates, depth", () => {
  const big = parseJsonExact("[12345678901234567890, 9007199254740993, 1.0, -0, 0, 1e2, 0.5, 1e999]");
  assert.deepEqual(
    (big.value as unknown[]).map((v) => (v instanceof TextNumber ? `TN:${v.raw}` : v)),
    ["TN:12345678901234567890", "TN:9007199254740993", "TN:1.0", "TN:-0", 0, "TN:1e2", 0.5, "1e999"],
  );
  assert.equal(big.raws, 5);
  assert.deepEqual(readJsonText("[12345678901234567890, -9223372036854775808, 18446744073709551616, 1.5, 7]", { numbers: "bigint" }).value, [12345678901234567890n, -9223372036854775808n, 18446744073709551616, 1.5, 7]);
  assert.deepEqual(readJsonText("[1e999, 12345678901234567890]", { numbers: "double" }).value, [Infinity, 12345678901234567890]);
  const safe = readJsonText("[12345678901234567890, 1.0]", { numbers: "safe-integers" });
  assert.deepEqual([(safe.value as TextNumber[])[0]!.raw, (safe.value as number[])[1]], ["12345678901234567890", 1]);
  assert.equal(outcome(() => readJsonText("[1, 1e999]", { numbers: "safe-integers" })), 'error TEXT_SYNTAX 1:5 "/1" TEXT_SYNTAX: invalid JSON: a number beyond the range of float64 at /1');
  const proto = parseJsonExact('{"__proto__":{"polluted":1}}').value as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.deepEqual(Object.keys(proto), ["__proto__"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(readJsonText('{"a":1,"b":2,"a":3}', { duplicates: "last" }).value, { a: 3, b: 2 });
  assert.equal(outcome(() => parseJsonExact('{"toString":1,"toString":2}')), 'error TEXT_SYNTAX 1:15 "" TEXT_SYNTAX: invalid JSON: duplicate key "toString"');
  assert.deepEqual(parseJsonExact('{"toString":1,"constructor":2}').value, { toString: 1, constructor: 2 });
  // depth: 1000 containers read, the 1001st is DEPTH_LIMIT at its bracket (and no call stack is used up)
  assert.match(outcome(() => parseJsonExact("[".repeat(1000) + "]".repeat(1000))), /^value /);
  assert.match(outcome(() => parseJsonExact("[".repeat(1001) + "]".repeat(1001))), /^error DEPTH_LIMIT 1:1001 "(\/0){1000}" DEPTH_LIMIT: JSON nested deeper than 1000 levels/);
  assert.match(outcome(() => readJsonText("[".repeat(100_000), { maxDepth: 200_000 })), /^error INCOMPLETE .* atEnd/);
  assert.equal(outcome(() => readJsonText("[[[1]]]", { maxDepth: 2 })), 'error DEPTH_LIMIT 1:3 "/0/0" DEPTH_LIMIT: JSON nested deeper than 2 levels at /0/0');
  // surrogates: pairs whole or split by a piece's end pass, lone ones are faults (unless asked for, as JSON.parse)
  assert.equal(parseJsonExact('"\\ud83d\\ude00\ud83d\ude00"').value, "😀😀");
  assert.equal(readJsonText('"\\ud800"', { loneSurrogates: true }).value, "\ud800");
  assert.match(outcome(() => parseJsonExact('"a\udc00"')), /lone surrogate/);
  // positions (what fromModelOutput points errors at)
  const tracked = parseJsonExact('{\n  "a": [1, {"b": "x"}]\n}', true);
  assert.deepEqual([locateJson(tracked, "/a"), locateJson(tracked, "/a/1/b"), locateJson(tracked, "")], [9, 19, 0]);
});

test("json reader: every proper prefix of a document is INCOMPLETE with atEnd, by whole or in pieces", () => {
  const docs = [...EXAMPLES.map(([, t]) => t.slice(0, 400)), '{"a":[1,-2.5e+3,true,false,null,"\\u00e9\\n",{}],"b":{"c":""}}', '"\\ud83d\\ude00"', "[12345678901234567890]"];
  for (const doc of docs) {
    for (let n = 0; n < doc.length; n++) {
      const cut = doc.slice(0, n);
      if (cut.trim() !== "" && cut.trimEnd().length < doc.trimEnd().length && /^\s*-?\d/.test(cut)) continue; // a number's prefix is a number
      for (const read of [() => parseJsonExact(cut), () => readInPieces(cut, () => 3), () => parseJsonRepairing(cut)]) {
        try {
          const r = read() as { repairs?: JsonRepair[] };
          // (repairing, a root object whose last member is whole lacks only its `}`, which the repair adds)
          assert.deepEqual(r.repairs?.map((x) => x.kind), ["missing-brace"], `a value from ${JSON.stringify(cut)}`);
        } catch (e) {
          if (!(e instanceof ToonError)) throw e;
          assert.equal(e.code, "INCOMPLETE", `${JSON.stringify(cut)}: ${e.message}`);
          assert.equal(e.atEnd, true, JSON.stringify(cut));
        }
      }
    }
  }
});
// Recorded from the parsers this reader replaced (parseJsonExact and repairJson in runtime/text, the dense
// reader's readJson, tools' parseArgumentsJson) on these inputs, before they were deleted.

/** Strict reading: [text, code, line, column, path, reason]. */
const STRICT: [string, string, number, number, string, string][] = [
  ["{\"a\":[1,2,]}", "TEXT_SYNTAX", 1, 11, "/a", "invalid JSON: trailing comma before ]"],
  ["{\"a\":1,}", "TEXT_SYNTAX", 1, 8, "", "invalid JSON: trailing comma before }"],
  ["{'a':1}", "TEXT_SYNTAX", 1, 2, "", "invalid JSON: a single-quoted string where a property name in double quotes was expected (JSON strings use double quotes)"],
  ["{\"a\":'x'}", "TEXT_SYNTAX", 1, 6, "/a", "invalid JSON: a single-quoted string where a value was expected (JSON strings use double quotes)"],
  ["{a:1}", "TEXT_SYNTAX", 1, 2, "", "invalid JSON: unquoted property name \"a\" (JSON needs double quotes)"],
  ["{\"a\":True}", "TEXT_SYNTAX", 1, 6, "/a", "invalid JSON: Python's True where a value was expected (JSON writes true)"],
  ["{\"a\":False}", "TEXT_SYNTAX", 1, 6, "/a", "invalid JSON: Python's False where a value was expected (JSON writes false)"],
  ["{\"a\":None}", "TEXT_SYNTAX", 1, 6, "/a", "invalid JSON: Python's None where a value was expected (JSON writes null)"],
  ["[1, None]", "TEXT_SYNTAX", 1, 5, "/1", "invalid JSON: Python's None where a value was expected (JSON writes null)"],
  ["{\"a\":1 // one\n}", "TEXT_SYNTAX", 1, 8, "", "invalid JSON: a comment where ',' or '}' after a property value was expected (JSON has no comments)"],
  ["{\"a\":1 /* c */}", "TEXT_SYNTAX", 1, 8, "", "invalid JSON: a comment where ',' or '}' after a property value was expected (JSON has no comments)"],
  ["[/* c */ 1]", "TEXT_SYNTAX", 1, 2, "/0", "invalid JSON: a comment where a value was expected (JSON has no comments)"],
  ["{\"a\":\"x\ny\"}", "TEXT_SYNTAX", 1, 8, "/a", "invalid JSON: a raw line break inside a string (JSON writes \\n)"],
  ["{\"a\":\"x\ty\"}", "TEXT_SYNTAX", 1, 8, "/a", "invalid JSON: a raw tab inside a string (JSON writes \\t)"],
  ["{\"a\":\"x\u0001y\"}", "TEXT_SYNTAX", 1, 8, "/a", "invalid JSON: a raw control character inside a string"],
  ["{\"a\":NaN}", "TEXT_SYNTAX", 1, 6, "/a", "invalid JSON: NaN is not a JSON value"],
  ["{\"a\":Infinity}", "TEXT_SYNTAX", 1, 6, "/a", "invalid JSON: Infinity is not a JSON value"],
  ["[undefined]", "TEXT_SYNTAX", 1, 2, "/0", "invalid JSON: undefined is not a JSON value"],
  ["{\"a\":1} x", "TEXT_SYNTAX", 1, 9, "", "invalid JSON: unexpected content after the JSON value"],
  ["{\"a\":1,\"a\":2}", "TEXT_SYNTAX", 1, 8, "", "invalid JSON: duplicate key \"a\""],
  ["{\"a\" 1}", "TEXT_SYNTAX", 1, 6, "", "invalid JSON: expected ':' after property name"],
  ["[1 2]", "TEXT_SYNTAX", 1, 4, "", "invalid JSON: expected ',' or ']' after an array item, got \"2\""],
  ["{\"a\":1]", "TEXT_SYNTAX", 1, 7, "", "invalid JSON: expected ',' or '}' after a property value, got \"]\""],
  ["{\"b\":{\"c\":[1,2,]}}", "TEXT_SYNTAX", 1, 16, "/b/c", "invalid JSON: trailing comma before ]"],
  ["{\n  \"a\": [\n    1,\n  ]\n}", "TEXT_SYNTAX", 4, 3, "/a", "invalid JSON: trailing comma before ]"],
  ["{\"x\":{\"y\":tru}}", "TEXT_SYNTAX", 1, 11, "/x/y", "invalid JSON: expected a value, got \"t\""],
  ["[\"\\q\"]", "TEXT_SYNTAX", 1, 2, "/0", "invalid JSON: invalid escape in string"],
  ["[\"\\ud800\"]", "TEXT_SYNTAX", 1, 2, "/0", "invalid JSON: a lone surrogate in a string (not valid Unicode)"],
  ["{\"a\":1,\n \"b\": 'x'}", "TEXT_SYNTAX", 2, 7, "/b", "invalid JSON: a single-quoted string where a value was expected (JSON strings use double quotes)"],
  ["{\"k\":\"v\"}}", "TEXT_SYNTAX", 1, 10, "", "invalid JSON: unexpected content after the JSON value"],
  ["[1,]", "TEXT_SYNTAX", 1, 4, "", "invalid JSON: trailing comma before ]"],
  ["{\"a\":{\"b\":[{\"c\":x}]}}", "TEXT_SYNTAX", 1, 17, "/a/b/0/c", "invalid JSON: expected a value, got \"x\""],
];

/** Repair mode: [text, value as JSON (TextNumbers as "TN:<token>"), repairs as [kind, line, column, message]]. */
const REPAIRS: [string, string, [string, number, number, string][]][] = [
  ["[True, False, None]", "[true,false,null]", [["python-literal", 1, 2, "wrote True as true"], ["python-literal", 1, 8, "wrote False as false"], ["python-literal", 1, 15, "wrote None as null"]]],
  ["{\"a\":[1,2,],}", "{\"a\":[1,2]}", [["trailing-comma", 1, 10, "removed a trailing comma before ]"], ["trailing-comma", 1, 12, "removed a trailing comma before }"]]],
  ["{'a': 'it\\'s \"q\"'}", "{\"a\":\"it's \\\"q\\\"\"}", [["single-quotes", 1, 2, "turned a single-quoted string into a double-quoted one"], ["single-quotes", 1, 7, "turned a single-quoted string into a double-quoted one"]]],
  ["{\"a\":1 // one\n}", "{\"a\":1}", [["comment", 1, 8, "removed a comment (JSON has none)"]]],
  ["/* head */ {\"a\": /* mid */ 1} // tail", "{\"a\":1}", [["comment", 1, 1, "removed a comment (JSON has none)"], ["comment", 1, 18, "removed a comment (JSON has none)"], ["comment", 1, 31, "removed a comment (JSON has none)"]]],
  ["{\"a\":\"x\ny\tz\"}", "{\"a\":\"x\\ny\\tz\"}", [["raw-control", 1, 8, "escaped a raw line break inside a string"], ["raw-control", 2, 2, "escaped a raw tab inside a string"]]],
  ["{'k': 'v\r'}", "{\"k\":\"v\\r\"}", [["single-quotes", 1, 2, "turned a single-quoted string into a double-quoted one"], ["single-quotes", 1, 7, "turned a single-quoted string into a double-quoted one"], ["raw-control", 1, 9, "escaped a raw control character inside a string"]]],
  ["{\"a\":1", "{\"a\":1}", [["missing-brace", 1, 7, "added the missing closing } at the end"]]],
  ["{\"a\":{\"b\":[1,2]}", "{\"a\":{\"b\":[1,2]}}", [["missing-brace", 1, 17, "added the missing closing } at the end"]]],
  ["{\"a\":\"x\" /* never closed", "{\"a\":\"x\"}", [["missing-brace", 1, 25, "added the missing closing } at the end"]]],
  ["{\"a\":1, // c\n}", "{\"a\":1}", [["trailing-comma", 1, 7, "removed a trailing comma before }"], ["comment", 1, 9, "removed a comment (JSON has none)"]]],
  ["[1, /* x */ ]", "[1]", [["trailing-comma", 1, 3, "removed a trailing comma before ]"], ["comment", 1, 5, "removed a comment (JSON has none)"]]],
  ["{\n  // the contacts\n  'people': [\n    {'name': 'Ada', 'age': 36, },\n    {\"name\": \"Bo\nb\"},\n  ],\n  \"tags\": [True, None] /* odd */", "{\"people\":[{\"name\":\"Ada\",\"age\":36},{\"name\":\"Bo\\nb\"}],\"tags\":[true,null]}", [["comment", 2, 3, "removed a comment (JSON has none)"], ["single-quotes", 3, 3, "turned a single-quoted string into a double-quoted one"], ["single-quotes", 4, 6, "turned a single-quoted string into a double-quoted one"], ["single-quotes", 4, 14, "turned a single-quoted string into a double-quoted one"], ["single-quotes", 4, 21, "turned a single-quoted string into a double-quoted one"], ["trailing-comma", 4, 30, "removed a trailing comma before }"], ["raw-control", 5, 17, "escaped a raw line break inside a string"], ["trailing-comma", 6, 4, "removed a trailing comma before ]"], ["python-literal", 8, 12, "wrote True as true"], ["python-literal", 8, 18, "wrote None as null"], ["comment", 8, 24, "removed a comment (JSON has none)"], ["missing-brace", 8, 33, "added the missing closing } at the end"]]],
  ["{\"a\":[True],\"b\":None,}\n", "{\"a\":[true],\"b\":null}", [["python-literal", 1, 7, "wrote True as true"], ["python-literal", 1, 17, "wrote None as null"], ["trailing-comma", 1, 21, "removed a trailing comma before }"]]],
  ["{\"n\": 12345678901234567890, \"f\": 1.50}", "{\"n\":\"TN:12345678901234567890\",\"f\":\"TN:1.50\"}", []],
];

/**
 * The dense reader's JSON cells: [text, "fail", message, at, code] or [text, "value", value as JSON, end, raws]. (A
 * duplicate key is now reported at the key, as the strict reader does, not after its value.)
 */
const DENSE: (string | number)[][] = [
  ["{\"a\":1", "fail", "expected \",\" or \"}\" in a JSON object", 6, "TEXT_SYNTAX"],
  ["[1,2", "fail", "expected \",\" or \"]\" in a JSON array", 4, "TEXT_SYNTAX"],
  ["\"abc", "fail", "unterminated quoted string", 0, "TEXT_SYNTAX"],
  ["{\"a\" 1}", "fail", "expected \":\" in a JSON object", 5, "TEXT_SYNTAX"],
  ["{\"a\":1,\"a\":2}", "fail", "duplicate key \"a\" in a JSON object", 7, "TEXT_SYNTAX"],
  ["[1e999]", "fail", "a number beyond the range of float64", 1, "TEXT_SYNTAX"],
  ["1e999", "fail", "a number beyond the range of float64", 0, "TEXT_SYNTAX"],
  ["\"a\\x\"", "fail", "invalid escape in a quoted string", 0, "TEXT_SYNTAX"],
  ["\"\\ud800\"", "fail", "a lone surrogate in a \\u escape (text must be well-formed Unicode)", 0, "TEXT_SYNTAX"],
  ["[tru]", "fail", "expected a JSON value", 1, "TEXT_SYNTAX"],
  ["-", "fail", "expected a JSON value", 0, "TEXT_SYNTAX"],
  ["{1:2}", "fail", "expected a quoted key in a JSON object", 1, "TEXT_SYNTAX"],
  ["[1 2]", "fail", "expected \",\" or \"]\" in a JSON array", 3, "TEXT_SYNTAX"],
  ["\"a\u0001\"", "fail", "control character in a quoted string", 2, "TEXT_SYNTAX"],
  ["12345678901234567890", "value", "\"TN:12345678901234567890\"", 20, 1],
  ["[1,\"x\",{\"b\":null}],rest", "value", "[1,\"x\",{\"b\":null}]", 18, 0],
  ["\"q\" tail", "value", "\"q\"", 3, 0],
  ["true,1", "value", "true", 4, 0],
];

/** Tool-call arguments: [text, code] or [text, "value", value as JSON]. (A cut-off string or literal is INCOMPLETE now.) */
const ARGS: string[][] = [
  ["  ", "value", "{}"],
  ["{\"a\":1}", "value", "{\"a\":1}"],
  ["{\"city\": nope}", "INVALID_VALUE"],
  ["{\"city\":\"Osl", "INCOMPLETE"],
  ["{\"a\":1} x", "INVALID_VALUE"],
  ["[1,2", "INCOMPLETE"],
  ["\"abc", "INCOMPLETE"],
  ["tru", "INCOMPLETE"],
  ["42", "value", "42"],
  ["{\"a\":[1,2]]", "INVALID_VALUE"],
  ["{\"__proto__\":{\"x\":1}}", "value", "{\"__proto__\":{\"x\":1}}"],
  ["{\"a\":1,\"a\":2}", "value", "{\"a\":2}"],
  ["1e999", "value", "null"],
];

test("json reader: the slips are named as parseJsonExact named them (line, column, path, message)", () => {
  for (const [text, code, line, column, path, reason] of STRICT) {
    try {
      parseJsonExact(text);
      assert.fail(`a value from ${JSON.stringify(text)}`);
    } catch (e) {
      if (!(e instanceof ToonError)) throw e;
      assert.deepEqual([e.code, e.line, e.column, e.path, e.reason], [code, line, column, path, reason], JSON.stringify(text));
    }
    sameInPieces(text, JSON.stringify(text));
  }
});

test("json reader: repair mode gives the values and the repair reports repairJson gave, without rewriting the text", () => {
  for (const [text, value, repairs] of REPAIRS) {
    const r = parseJsonRepairing(text);
    assert.equal(JSON.stringify(r.value, (_k, v) => (v instanceof TextNumber ? `TN:${v.raw}` : v)), value, JSON.stringify(text));
    assert.deepEqual(r.repairs.map((x) => [x.kind, x.line, x.column, x.message]), repairs, JSON.stringify(text));
    sameInPieces(text, JSON.stringify(text), { repair: true });
  }
  // what the repair does not touch stays an error: a cut-off value, several missing closers, a lone `'`
  for (const text of ['{"people": [{"name": "Ada"', '{"a":{"b":1', "{'a': 'b", '{"a":1 /']) assert.match(outcome(() => parseJsonRepairing(text)), /^error (INCOMPLETE|TEXT_SYNTAX)/, text);
});

/** A cursor over `text` as the dense reader keeps one: its failures recorded as [message, at, code]. */
function cursor(text: string): JsonCursor & { failed?: (string | number)[] } {
  const c: JsonCursor & { failed?: (string | number)[] } = {
    text,
    pos: 0,
    end: text.length,
    raws: 0,
    fail(message: string, at?: number, code?: "DEPTH_LIMIT"): never {
      c.failed = [message, at ?? c.pos, code ?? "TEXT_SYNTAX"];
      throw new ToonError(code ?? "TEXT_SYNTAX", message);
    },
  };
  return c;
}

test("json reader: dense JSON cells read as before: same messages and places, and where the value ends", () => {
  for (const [text, kind, ...rest] of DENSE) {
    const c = cursor(text as string);
    try {
      const v = readJson(c, 0);
      assert.deepEqual([kind, JSON.stringify(v, (_k, x) => (x instanceof TextNumber ? `TN:${x.raw}` : x)), c.pos, c.raws], ["value", ...rest], text as string);
    } catch (e) {
      if (!(e instanceof ToonError)) throw e;
      assert.deepEqual([kind, ...c.failed!], ["fail", ...rest], text as string);
    }
  }
  // a cell in the middle of a line: read from its start, stopping at its end
  const line = 'a,{"x":[1,2]} ,7';
  const r = readJsonSlice(line, 2, line.length);
  assert.deepEqual([r.value, r.end], [{ x: [1, 2] }, 13]);
  assert.deepEqual([readJsonSlice(line, 15, line.length).value, readJsonSlice(line, 15, line.length).end], [7, 16]);
  // a reader with stopAtEnd tells where the value ended in the piece that ended it
  const events: string[] = [];
  const reader = new JsonReader(recorder(events), { stopAtEnd: true });
  assert.deepEqual([reader.push('  {"a":'), reader.push('"b"}, "next"')], [-1, 4]);
  assert.deepEqual(events, ["open object 2", "key a 3", "string 7", 'chunk "b"', "end", "close"]);
});

test("json reader: tool-call arguments keep their contract (blank is {}, a cut-off prefix INCOMPLETE, else INVALID_VALUE)", () => {
  for (const [text, code, value] of ARGS) {
    if (code === "value") assert.equal(JSON.stringify(parseArgumentsJson(text!)), value, text);
    else assert.equal(outcome(() => parseArgumentsJson(text!)).split(" ")[1], code, text);
  }
});

/** A handler that writes down what it is told. */
function recorder(events: string[]): JsonHandler {
  return {
    open: (kind, at) => events.push(`open ${kind} ${at}`),
    key: (k, at) => events.push(`key ${k} ${at}`),
    scalar: (v, raw, at) => events.push(`scalar ${String(v)} ${raw} ${at}`),
    stringStart: (at) => events.push(`string ${at}`),
    stringChunk: (s) => events.push(`chunk ${JSON.stringify(s)}`),
    stringEnd: () => events.push("end"),
    close: () => events.push("close"),
  };
}

test("json reader: a stream's string arrives in chunks as its pieces do, escapes and surrogate pairs split anywhere", () => {
  const events: string[] = [];
  const reader = new JsonReader(recorder(events));
  for (const piece of ['["ab', "c\\", "u00", "e9\\ud83d", "\\ude00", '", 12', "3, tr", "ue]"]) reader.push(piece);
  reader.end();
  assert.equal(reader.done, true);
  assert.deepEqual(events, ["open array 0", "string 1", 'chunk "ab"', 'chunk "c"', 'chunk "é\\ud83d"', 'chunk "\\ude00"', "end", "scalar 123 123 26", "scalar true true 31", "close"]);
});

test("json reader: mutated and random input gives a value or a ToonError, never another exception", () => {
  const rng = new Rng(11);
  const seeds = [...EXAMPLES.map(([, t]) => t.slice(0, 600)), ...EDGE.filter((t) => t.length < 2000)];
  const alphabet = ['"', "\\", "u", "{", "}", "[", "]", ",", ":", "'", "/", "*", "\n", "-", "0", "9", ".", "e", "t", "N", "\ud83d", "\ude00", "\u0001", " "];
  for (let k = 0; k < 1500; k++) {
    let text = rng.pick(seeds);
    for (let m = rng.int(1, 4); m > 0; m--) {
      const at = rng.int(0, text.length);
      const op = rng.int(0, 2);
      text = op === 0 ? text.slice(0, at) + rng.pick(alphabet) + text.slice(at) : op === 1 ? text.slice(0, at) + text.slice(at + rng.int(1, 5)) : text.slice(0, at);
    }
    for (const options of [{}, { repair: true }, { numbers: "bigint" as const, loneSurrogates: true }]) {
      const whole = outcome(() => readInPieces(text, () => text.length || 1, options));
      assert.equal(outcome(() => readInPieces(text, () => rng.int(1, 8), options)), whole, JSON.stringify(text.slice(0, 80)));
    }
    const line = cursor(text.replace(/\n/g, " "));
    try {
      readJson(line, 0);
    } catch (e) {
      if (!(e instanceof ToonError)) throw e;
    }
  }
});
