/**
 * Text TOON runtime beyond the spec fixtures: seeded random round trips, cross-checks against the reference
 * implementation @toon-format/toon, host-type normalization, prototype safety, depth limits, error positions,
 * non-strict behaviour and the exported encoder building blocks.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decode as refDecode, encode as refEncode } from "@toon-format/toon";
import { ToonError } from "../runtime/wire/errors.ts";
import {
  arrayHeader,
  decodeText,
  detectKeyedFields,
  detectTabularFields,
  encodeFieldLines,
  encodeKey,
  encodeListItemLines,
  encodeNumber,
  encodePrimitive,
  encodeStringValue,
  encodeText,
  fieldList,
  indentation,
  joinPrimitives,
  keyedHeader,
  normalizeValue,
  tableHeader,
  tableRow,
} from "../runtime/text/index.ts";
import type { TextDelimiter, TextEncodeOptions } from "../runtime/text/index.ts";

// ---------------------------------------------------------------------------------------------------------------
// Seeded random JSON values

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TRICKY_STRINGS = [
  "", " ", "  ", " a", "a ", "\ta", "a\t", "true", "false", "null", "True", "NULL", "42", "-3.14", "1e6", "1E+6", "1e-7",
  "05", "007", "+1", "-0", "0", "0.0", ".5", "1.", "0x10", "1_000", "Infinity", "-Infinity", "NaN", "-", "--", "- item",
  "-x", "#", "#x", "# comment", "a#b", "a:b", "http://x.y/z?q=1", "a,b", "a|b", "a\tb", 'say "hi"', '"', "back\\slash",
  "\\", "line\nbreak", "cr\rx", "\r\n", "\u0001ctl", "\u001f", "\u007f", "[5]", "[3]: x,y", "{x}", "a[0]", "]", "}",
  "café", "你好", "🚀 launch", "👋", "\u00a0nbsp", "nbsp\u00a0", "a\u2028b", "\ufeffbom", "é", "[]", "{}", "key: value",
  "x y z", "a.b.c", "__proto__", "constructor",
];
const TRICKY_KEYS = [
  "id", "name", "a", "b", "_private", "user.name", "x1", "__proto__", "constructor", "prototype", "toString",
  "hasOwnProperty", "", " ", "a b", "1abc", "123", "a-b", "x:y", '"q"', "a,b", "a|b", "a\tb", "line\nkey", "[i]", "{k}",
  "#h", "-lead", "é", "键", "🔑", "tab\there", "a\\b",
];
const ALPHABET = [..."abcxyzABC019 _-.:,|\t\"\\#[]{}\n\r", "é", "中", "🚀", "\u0000", "\u00a0"];

class Gen {
  readonly r: () => number;
  constructor(seed: number) {
    this.r = mulberry32(seed);
  }
  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  string(): string {
    if (this.r() < 0.45) return this.pick(TRICKY_STRINGS);
    if (this.r() < 0.3) return this.pick(["Ada", "Bob", "hello world", "ok", "pending", "A1", "sku-1", "x_y"]);
    let s = "";
    const n = this.int(12);
    for (let i = 0; i < n; i++) s += this.pick(ALPHABET);
    return s;
  }
  key(): string {
    if (this.r() < 0.35) return this.pick(TRICKY_KEYS);
    return this.pick(["id", "name", "qty", "price", "tags", "meta", "items", "user", "note", "flag", "k" + this.int(20)]);
  }
  number(): number {
    switch (this.int(9)) {
      case 0:
        return this.int(100);
      case 1:
        return -this.int(1_000_000);
      case 2:
        return Math.round(this.r() * 1e6) / 100;
      case 3:
        return this.r() * 1e-7;
      case 4:
        return (this.r() + 0.1) * 1e21 * (this.r() < 0.5 ? -1 : 1);
      case 5:
        return this.pick([0, 1, -1, 0.1 + 0.2, 1 / 3, 1e-6, 1e20, 9007199254740991, -9007199254740991, 2 ** 53 + 2, 1.5e300, 5e-324]);
      case 6:
        return (this.r() - 0.5) * 2 ** this.int(80);
      default:
        return this.int(10_000);
    }
  }
  primitive(): unknown {
    const x = this.r();
    if (x < 0.4) return this.string();
    if (x < 0.75) return this.number();
    if (x < 0.87) return this.r() < 0.5;
    return null;
  }
  /** Object with own keys (`__proto__` set as an own property, never the prototype). */
  object(keys: string[], value: (k: string, i: number) => unknown): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    keys.forEach((k, i) => Object.defineProperty(o, k, { value: value(k, i), enumerable: true, writable: true, configurable: true }));
    return o;
  }
  distinctKeys(n: number): string[] {
    const ks = new Set<string>();
    while (ks.size < n) ks.add(this.key());
    return [...ks];
  }
  /** A uniform object shape: primitive leaves or nested uniform groups. */
  shape(depth: number): (string | [string, unknown[]])[] {
    return this.distinctKeys(1 + this.int(4)).map((k) => (depth < 2 && this.r() < 0.2 ? [k, this.shape(depth + 1)] : k));
  }
  fromShape(shape: (string | [string, unknown[]])[]): Record<string, unknown> {
    const keys = shape.map((s) => (typeof s === "string" ? s : s[0]));
    // Order of keys per object MAY vary (§9.3); shuffle sometimes.
    const order = this.r() < 0.2 ? [...shape].sort(() => this.r() - 0.5) : shape;
    void keys;
    return this.object(
      order.map((s) => (typeof s === "string" ? s : s[0])),
      (_k, i) => {
        const s = order[i];
        return typeof s === "string" ? this.primitive() : this.fromShape(s[1] as (string | [string, unknown[]])[]);
      },
    );
  }
  value(depth: number): unknown {
    if (depth > 5) return this.primitive();
    const x = this.r();
    if (x < 0.3) return this.primitive();
    if (x < 0.45) return this.object(this.distinctKeys(this.int(6)), () => this.value(depth + 1));
    if (x < 0.55) return Array.from({ length: this.int(6) }, () => this.primitive());
    if (x < 0.67) {
      const shape = this.shape(0);
      return Array.from({ length: 1 + this.int(5) }, () => this.fromShape(shape));
    }
    if (x < 0.75) {
      const shape = this.shape(0);
      return this.object(this.distinctKeys(this.int(5)), () => this.fromShape(shape));
    }
    if (x < 0.82) return Array.from({ length: this.int(4) }, () => Array.from({ length: this.int(4) }, () => this.primitive()));
    if (x < 0.88) return this.pick([{}, [], [{}], [[]], { a: {} }, [{}, {}]]);
    return Array.from({ length: this.int(5) }, () => this.value(depth + 1));
  }
}

/** The JSON-model value an encode/decode round trip must reproduce (§2: -0 equals 0). */
function jsonModel(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v));
}

const OPTION_SETS: TextEncodeOptions[] = [{}, { delimiter: "\t" }, { delimiter: "|" }, { indentSize: 4 }, { delimiter: "|", indentSize: 3 }];

// ---------------------------------------------------------------------------------------------------------------

describe("random round trips", () => {
  test("decodeText(encodeText(v)) deep-equals v for 600 seeded random values under several option sets", () => {
    const g = new Gen(12345);
    for (let i = 0; i < 600; i++) {
      const v = g.value(0);
      const opts = OPTION_SETS[i % OPTION_SETS.length];
      const text = encodeText(v, opts);
      let back: unknown;
      try {
        back = decodeText(text, { indentSize: opts.indentSize });
      } catch (e) {
        assert.fail(`value #${i} ${JSON.stringify(v)} encoded as\n${text}\nfailed to decode: ${String(e)}`);
      }
      assert.deepStrictEqual(back, jsonModel(v), `value #${i} encoded as\n${text}`);
      // The encoder output is canonical: re-encoding the decoded value gives the same text.
      assert.equal(encodeText(back, opts), text, `value #${i} is not stable under re-encoding`);
    }
  });

  test("tricky strings and keys round-trip at every position", () => {
    for (const s of TRICKY_STRINGS) {
      for (const k of TRICKY_KEYS) {
        const v = { [k]: s, list: [s, s], rows: [{ [k]: s, n: 1 }, { [k]: s, n: 2 }], nested: [[s]], items: [s, { [k]: s }] };
        for (const opts of OPTION_SETS) {
          const text = encodeText(v, opts);
          assert.deepStrictEqual(decodeText(text, { indentSize: opts.indentSize }), jsonModel(v), text);
        }
      }
      assert.equal(decodeText(encodeText(s)), s);
    }
  });
});

describe("cross-check with @toon-format/toon 4.4.0", () => {
  test("encodeText output equals the reference encode output for 500 random values", () => {
    const g = new Gen(777);
    for (let i = 0; i < 500; i++) {
      const v = g.value(0);
      const opts = OPTION_SETS[i % OPTION_SETS.length];
      const ours = encodeText(v, opts);
      const theirs = refEncode(v, { delimiter: opts.delimiter, indentSize: opts.indentSize });
      assert.equal(ours, theirs, `value #${i}: ${JSON.stringify(v)}`);
    }
  });

  test("each decoder reads the other's output to equal values (500 random values)", () => {
    const g = new Gen(4242);
    for (let i = 0; i < 500; i++) {
      const v = g.value(0);
      const opts = OPTION_SETS[i % OPTION_SETS.length];
      const dopts = { indentSize: opts.indentSize };
      const ours = encodeText(v, opts);
      const theirs = refEncode(v, { delimiter: opts.delimiter, indentSize: opts.indentSize });
      assert.deepStrictEqual(decodeText(theirs, dopts), jsonModel(v));
      assert.deepStrictEqual(refDecode(ours, dopts), jsonModel(v));
      assert.deepStrictEqual(decodeText(ours, dopts), refDecode(ours, dopts));
    }
  });

  test("decoders agree on hand-written documents", () => {
    const docs = [
      "a: 1\nb:\n  c: [x]\n  d[2]: 1,2",
      "items[2]:\n  - id: 1\n    tags[1]: x\n  - [2]: a,b",
      "rows[2|]{a|b{c|d}}:\n  1|2|3\n  x|\"y|z\"|null",
      "m[2:\t]{v\tw}:\n  a: 1\t2\n  \"b c\": 3\t4",
      "# comment\n\nx: \"esc \\u00e9 \\t \\\\ \\\"\"\r\ny: -1.50e+2",
      "[3]:\n  - -\n  -\n  - \"-\"",
      "k: a b c\nl: 05\nm: 1e999\nn: -0.0",
    ];
    for (const doc of docs) assert.deepStrictEqual(decodeText(doc), refDecode(doc), doc);
  });

  test("documented disagreements with the reference (this runtime follows SPEC v4.0)", () => {
    // §5.2 names `foo [2]: bar` as a line that fails the header grammar and falls through to a key-value line;
    // the reference rejects it ("Unexpected whitespace between key and bracket segment").
    assert.deepStrictEqual(decodeText("foo [2]: bar"), { "foo [2]": "bar" });
    assert.throws(() => refDecode("foo [2]: bar"));
    // §6 non-strict fall-through of malformed headers to literal keys (the four fixtures the reference fails).
    assert.deepStrictEqual(decodeText("foo[1][bar]: 10", { strict: false }), { "foo[1][bar]": 10 });
    assert.throws(() => refDecode("foo[1][bar]: 10", { strict: false }));
    // §7.1: raw control characters (other than tab) are outside the quoted-char grammar; strict mode rejects them,
    // the reference accepts them.
    assert.throws(() => decodeText('a: "x\u0001"'), (e: unknown) => e instanceof ToonError && e.code === "TEXT_SYNTAX");
    assert.deepStrictEqual(decodeText('a: "x\u0001"', { strict: false }), { a: "x\u0001" });
    assert.deepStrictEqual(refDecode('a: "x\u0001"'), { a: "x\u0001" });
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("host-type normalization (§3)", () => {
  test("numbers", () => {
    assert.equal(encodeText(-0), "0");
    assert.equal(encodeText(NaN), "null");
    assert.equal(encodeText(Infinity), "null");
    assert.equal(encodeText(-Infinity), "null");
    assert.equal(encodeText(1e21), "1e+21");
    assert.equal(encodeText(1e-7), "1e-7");
    assert.equal(encodeText(1.5e-7), "1.5e-7");
    assert.equal(encodeText(123456789.125), "123456789.125");
    assert.equal(encodeText([1, -0, NaN]), "[3]: 1,0,null");
    assert.equal(decodeText(encodeText(1e21)), 1e21);
  });

  test("bigint, undefined, functions, symbols, holes", () => {
    assert.equal(encodeText(12n), "12");
    assert.equal(encodeText(2n ** 64n), '"18446744073709551616"');
    assert.equal(encodeText({ a: undefined, b: () => 1, c: Symbol("s") }), "a: null\nb: null\nc: null");
    // a hole is INVALID_VALUE at its index, as in binary encode (issue 12: a sparse array's length is not walked)
    // eslint-disable-next-line no-sparse-arrays
    assert.throws(() => encodeText([1, , 3]), (e: unknown) => e instanceof ToonError && e.code === "INVALID_VALUE" && e.path === "/1");
    assert.equal(encodeText([1, undefined, 3]), "[3]: 1,null,3");
    assert.equal(encodeText(undefined), "null");
  });

  test("Date, toJSON, Map, Set, boxed primitives, class instances", () => {
    const d = new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 6));
    assert.equal(encodeText({ at: d }), 'at: "2025-01-02T03:04:05.006Z"');
    assert.equal(encodeText({ at: new Date(NaN) }), "at: null");
    assert.equal(encodeText({ x: { toJSON: () => ({ y: 1 }) } }), "x:\n  y: 1");
    // Map keys become String(key); as in any JS object, integer-like keys ("2") enumerate first.
    assert.equal(encodeText(new Map<unknown, unknown>([["a", 1], [2, new Set([1, 2])], [true, "t"]])), '"2"[2]: 1,2\na: 1\ntrue: t');
    assert.equal(encodeText([new String("s"), new Number(2), new Boolean(false)]), "[3]: s,2,false");
    class P {
      x = 1;
      y = "two";
    }
    assert.equal(encodeText([new P(), new P()]), "[2]{x,y}:\n  1,two\n  1,two");
    // Dates inside tables are primitive cells after normalization.
    assert.equal(encodeText([{ at: d }, { at: d }]), '[2]{at}:\n  "2025-01-02T03:04:05.006Z"\n  "2025-01-02T03:04:05.006Z"');
  });

  test("toJSON is called once per value", () => {
    let calls = 0;
    const v = { rows: [{ t: { toJSON: () => (calls++, "x") } }, { t: "y" }] };
    assert.equal(encodeText(v), "rows[2]{t}:\n  x\n  y");
    assert.equal(calls, 1);
  });

  test("lone surrogates and circular references are errors", () => {
    assert.throws(() => encodeText("a\ud800b"), (e: unknown) => e instanceof ToonError && e.code === "INVALID_VALUE");
    assert.throws(() => encodeText({ ["k\udc00"]: 1 }), (e: unknown) => e instanceof ToonError && e.code === "INVALID_VALUE");
    assert.throws(() => encodeText({ a: { b: ["\udbff"] } }), (e: unknown) => e instanceof ToonError && e.path === "/a/b");
    const cyc: Record<string, unknown> = { a: 1 };
    cyc.self = cyc;
    assert.throws(() => encodeText(cyc), (e: unknown) => e instanceof ToonError && e.code === "DEPTH_LIMIT");
    assert.equal(encodeText("🚀"), "🚀");
  });

  test("root strings starting with U+FEFF are quoted; a leading BOM in the text is ignored", () => {
    assert.equal(encodeText("\ufeffx"), '"\ufeffx"');
    assert.equal(decodeText(encodeText("\ufeffx")), "\ufeffx");
    assert.deepStrictEqual(decodeText("\ufeffa: 1"), { a: 1 });
  });
});

describe("prototype safety (§15)", () => {
  test("__proto__ keys decode as own properties in every position", () => {
    const docs = ["__proto__: 1", '"__proto__": 1', "__proto__:\n  polluted: true", "r[1]{__proto__}:\n  1", "r[1]{a{__proto__}}:\n  1", "m[2:]{x}:\n  __proto__: 1\n  b: 2", "l[1]:\n  - __proto__: 1", "__proto__[1]: 1"];
    for (const doc of docs) {
      const v = decodeText(doc) as Record<string, unknown>;
      const walk = (x: unknown): void => {
        if (x && typeof x === "object") {
          if (!Array.isArray(x)) assert.equal(Object.getPrototypeOf(x), Object.prototype, doc);
          for (const k of Object.keys(x)) walk((x as Record<string, unknown>)[k]);
        }
      };
      walk(v);
      assert.ok(JSON.stringify(v).includes('"__proto__"'), doc);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test("__proto__ own properties encode as ordinary keys", () => {
    const o = JSON.parse('{"__proto__": {"x": 1}, "a": [{"__proto__": 1}, {"__proto__": 2}]}');
    const text = encodeText(o);
    assert.equal(text, "__proto__:\n  x: 1\na[2]{__proto__}:\n  1\n  2");
    assert.deepStrictEqual(decodeText(text), o);
  });
});

describe("limits and robustness", () => {
  test("deep nesting throws DEPTH_LIMIT instead of overflowing", () => {
    let doc = "";
    for (let i = 0; i < 1500; i++) doc += " ".repeat(2 * i) + "k:\n";
    assert.throws(() => decodeText(doc), (e: unknown) => e instanceof ToonError && e.code === "DEPTH_LIMIT");
    assert.doesNotThrow(() => decodeText(doc, { maxDepth: 2000 }));
    let list = "";
    for (let i = 0; i < 1200; i++) list += " ".repeat(2 * i) + "- [1]:\n";
    assert.throws(() => decodeText("[1]:\n" + list.replace(/^/gm, "  ")), (e: unknown) => e instanceof ToonError && e.code === "DEPTH_LIMIT");
    const fields = "r[1]" + "{a".repeat(1200) + "}".repeat(1200) + ":\n  1";
    assert.throws(() => decodeText(fields), (e: unknown) => e instanceof ToonError && e.code === "DEPTH_LIMIT");
    let deep: unknown = 1;
    for (let i = 0; i < 1100; i++) deep = { k: deep };
    assert.throws(() => encodeText(deep), (e: unknown) => e instanceof ToonError && e.code === "DEPTH_LIMIT");
    let arr: unknown = 1;
    for (let i = 0; i < 1100; i++) arr = [arr, 2];
    assert.throws(() => encodeText(arr), (e: unknown) => e instanceof ToonError && e.code === "DEPTH_LIMIT");
  });

  test("mutated documents either decode or throw ToonError, quickly (never hang)", () => {
    const g = new Gen(99);
    const pieces = ["\n", " ", "  ", "-", "- ", ":", ",", "|", "\t", '"', "\\", "[", "]", "{", "}", "[2]", "[0]:", "{a,b}", "#", "x", "1", "\r"];
    const start = performance.now();
    for (let i = 0; i < 3000; i++) {
      let doc = encodeText(g.value(0), OPTION_SETS[i % OPTION_SETS.length]);
      const edits = 1 + g.int(4);
      for (let j = 0; j < edits; j++) {
        const at = g.int(doc.length + 1);
        const del = g.int(3);
        doc = doc.slice(0, at) + (g.r() < 0.7 ? g.pick(pieces) : "") + doc.slice(at + del);
      }
      for (const strict of [true, false]) {
        try {
          decodeText(doc, { strict });
        } catch (e) {
          if (!(e instanceof ToonError)) assert.fail(`non-ToonError ${String(e)} for ${JSON.stringify(doc)}`);
          if (e.code === "TEXT_SYNTAX") assert.ok((e.line ?? 0) >= 1 && (e.column ?? 0) >= 1, JSON.stringify(doc));
        }
      }
    }
    assert.ok(performance.now() - start < 20000);
  });

  test("huge declared lengths are only compared, never allocated", () => {
    assert.throws(() => decodeText("a[999999999999]: 1"), (e: unknown) => e instanceof ToonError && e.code === "TEXT_SYNTAX");
    assert.deepStrictEqual(decodeText("a[999999999999]: 1", { strict: false }), { a: [1] });
  });
});

describe("errors carry line, column and path", () => {
  const cases: [string, number, number, string][] = [
    ["a:\n  b:\n    c: \"x\\q\"", 3, 10, "/a/b/c"],
    ["items[2]{id,name}:\n  1,Ada\n  2,\"Bob", 3, 5, "/items/1/name"],
    ["o[1]{a,b{c,d}}:\n  1,2,\"x\\z\"", 2, 9, "/o/0/b/d"],
    ["list[2]:\n  - x: 1\n  - y:\n      z: \"\\u12\"", 4, 11, "/list/1/y/z"],
    ["m[1:]{v}:\n  k: \"unterminated", 2, 6, "/m/k/v"],
    ["a: 1\nb[3]: 1,2", 2, 2, "/b"],
    ["x:\n  y: 1\n  y: 2", 3, 3, "/x"],
  ];
  for (const [doc, line, column, path] of cases) {
    test(JSON.stringify(doc), () => {
      assert.throws(
        () => decodeText(doc),
        (e: unknown) => {
          assert.ok(e instanceof ToonError);
          assert.equal(e.code, "TEXT_SYNTAX");
          assert.deepStrictEqual({ line: e.line, column: e.column, path: e.path }, { line, column, path });
          assert.ok(e.message.includes(e.reason));
          return true;
        },
      );
    });
  }
});

describe("non-strict mode", () => {
  test("lenient indentation, counts, blank lines, duplicates, trailing content", () => {
    const o = { strict: false };
    assert.deepStrictEqual(decodeText("a:\n   b: 1\n\tc: 2", o), { a: { b: 1, c: 2 } });
    assert.deepStrictEqual(decodeText("t[5]: 1,2", o), { t: [1, 2] });
    assert.deepStrictEqual(decodeText("t[1]:\n  - 1\n\n  - 2", o), { t: [1, 2] });
    assert.deepStrictEqual(decodeText("a: 1\na: 2", o), { a: 2 });
    assert.deepStrictEqual(decodeText("[1]: x\nmore: 1", o), ["x"]);
    assert.deepStrictEqual(decodeText("items[2]{a,b}: 1,2", o), { "items[2]{a,b}": "1,2" });
    assert.deepStrictEqual(decodeText("a:\n  [2]: 1,2", o), { a: { "[2]": "1,2" } });
  });
});

describe("encoder building blocks", () => {
  const delims: TextDelimiter[] = [",", "\t", "|"];

  test("keys, strings, numbers, primitives", () => {
    assert.equal(encodeKey("a.b_1"), "a.b_1");
    assert.equal(encodeKey("1a"), '"1a"');
    assert.equal(encodeKey("a-b"), '"a-b"');
    assert.equal(encodeKey(""), '""');
    assert.equal(encodeKey("é"), '"é"');
    assert.equal(encodeStringValue("a,b"), '"a,b"');
    assert.equal(encodeStringValue("a,b", "|"), "a,b");
    assert.equal(encodeStringValue("a|b", "|"), '"a|b"');
    assert.equal(encodeStringValue("a\tb", "\t"), '"a\\tb"');
    assert.equal(encodeStringValue("\u0007"), '"\\u0007"');
    assert.equal(encodeStringValue("1e5"), '"1e5"');
    assert.equal(encodeStringValue("1e"), "1e");
    assert.equal(encodeNumber(-0), "0");
    assert.equal(encodeNumber(0.000001), "0.000001");
    assert.equal(encodePrimitive(null), "null");
    assert.equal(encodePrimitive(true), "true");
    assert.equal(joinPrimitives(["a", 1, null, "b|c"], "|"), 'a|1|null|"b|c"');
  });

  test("headers and rows", () => {
    const fields = ["id", { name: "customer", fields: ["name", "full name"] }];
    assert.equal(arrayHeader("tags", 3, "|"), "tags[3|]:");
    assert.equal(arrayHeader(null, 0), "[0]:");
    assert.equal(fieldList(fields, "\t"), '{id\tcustomer{name\t"full name"}}');
    assert.equal(tableHeader("my key", 2, fields), '"my key"[2]{id,customer{name,"full name"}}:');
    assert.equal(keyedHeader("m", 2, ["x"], "|"), "m[2:|]{x}:");
    assert.equal(keyedHeader(null, 2, ["x"]), "[2:]{x}:");
    assert.equal(tableRow({ id: 1, customer: { "full name": "A,B", name: "x" } }, fields), '1,x,"A,B"');
    assert.equal(indentation(3, 2), "      ");
  });

  test("detection and field/item lines match encodeText byte for byte", () => {
    const g = new Gen(5);
    for (let i = 0; i < 200; i++) {
      const v = g.value(0);
      const delimiter = delims[i % 3];
      const opts = { delimiter, indentSize: 1 + (i % 4) };
      const whole = encodeText({ key: v }, opts);
      assert.equal(encodeFieldLines("key", v, 0, opts), whole);
      // [v, [1]] always takes the expanded list form (it contains an array).
      const list = encodeText([v, [1]], opts);
      const mark = delimiter === "," ? "" : delimiter;
      assert.equal(`[2${mark}]:\n` + encodeListItemLines(v, 1, opts) + "\n" + indentation(1, opts.indentSize) + `- [1${mark}]: 1`, list);
      const n = normalizeValue(v);
      if (Array.isArray(n) && n.length > 0) {
        const f = detectTabularFields(n);
        if (f !== null) assert.ok(whole.startsWith("key" + tableHeader(null, n.length, f, delimiter)), whole);
      } else if (n !== null && typeof n === "object" && !Array.isArray(n)) {
        const f = detectKeyedFields(n as Record<string, unknown>);
        if (f !== null) assert.ok(whole.startsWith(keyedHeader("key", Object.keys(n).length, f, delimiter)), whole);
      }
    }
  });

  test("option validation", () => {
    assert.throws(() => encodeText(1, { delimiter: ";" as TextDelimiter }), (e: unknown) => e instanceof ToonError && e.code === "CONFIG_ERROR");
    assert.throws(() => encodeText(1, { indentSize: 0 }), (e: unknown) => e instanceof ToonError && e.code === "CONFIG_ERROR");
    assert.throws(() => decodeText("a: 1", { indentSize: 1.5 }), (e: unknown) => e instanceof ToonError && e.code === "CONFIG_ERROR");
  });
});
