/**
 * The constraint checker (runtime/validate/constraints.ts) on the one shape model, the descriptor's: its findings
 * say what `encode` says for the same wrong value (runtime/codec/messages.ts), its paths are JSON pointers, and an
 * untrusted value cannot make it recurse without bound or run for exponential time.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CodecDescriptor, Shape } from "../runtime/codec/descriptor.ts";
import { compileCodec } from "../runtime/codec/index.ts";
import { ToonError } from "../runtime/wire/errors.ts";
import { checkConstraints, checkShape, hasConstraints, MAX_CHECK_DEPTH } from "../runtime/validate/constraints.ts";
import { messageOf } from "../runtime/validate/messages.ts";

function descriptor(root: Shape, definitions: { name: string; shape: Shape }[] = []): CodecDescriptor {
  return { name: "T", fingerprint: 1, level: 0, tables: false, root, definitions, retired: [] };
}

/** What encode throws for `value` (its message and path). */
function encodeError(d: CodecDescriptor, value: unknown): { path: string; message: string } {
  try {
    compileCodec(d).encode(value);
  } catch (e) {
    assert.ok(e instanceof ToonError, String(e));
    return { path: e.path, message: e.reason };
  }
  assert.fail("encode took the value");
}

test("constraints: a wrong value reads as encode says it, kind by kind", () => {
  const cases: [Shape, unknown][] = [
    [{ kind: "string" }, 5],
    [{ kind: "string", format: "uuid" }, "nope"],
    [{ kind: "integer" }, 1.5],
    [{ kind: "integer", int64: true }, "x"],
    [{ kind: "number" }, "x"],
    [{ kind: "boolean" }, null],
    [{ kind: "null" }, 0],
    [{ kind: "enum", values: ["a", "b"] }, "c"],
    [{ kind: "const", value: "a" }, "b"],
    [{ kind: "const", value: { a: 1 } }, { a: 2 }],
    [{ kind: "array", items: { kind: "string" } }, {}],
    [{ kind: "object", properties: [{ name: "a", required: true, shape: { kind: "string" } }], additional: false }, []],
    [{ kind: "object", properties: [{ name: "a", required: true, shape: { kind: "string" } }], additional: false }, {}],
    [{ kind: "object", properties: [], additional: false }, { x: 1 }],
    [{ kind: "tuple", items: [{ kind: "string" }], minItems: 1, rest: false }, ["a", "b"]],
    [
      {
        kind: "union",
        branches: [
          { kind: "object", properties: [{ name: "t", required: true, shape: { kind: "const", value: "a" } }], additional: false },
          { kind: "object", properties: [{ name: "t", required: true, shape: { kind: "const", value: "b" } }], additional: false },
        ],
        discriminator: { property: "t", values: ["a", "b"] },
      },
      { t: "c" },
    ],
  ];
  for (const [shape, value] of cases) {
    const d = descriptor(shape);
    const found = checkConstraints(value, d);
    assert.deepEqual(found[0], encodeError(d, value), JSON.stringify(shape));
  }
  // a value no branch takes (encode, which tries the last branch without a test, names that branch's type)
  const union: Shape = { kind: "union", branches: [{ kind: "string" }, { kind: "array", items: { kind: "string" } }] };
  assert.deepEqual(checkShape(5, union, {}, "/u"), [{ path: "/u", message: "expected a value matching one of the 2 alternatives, got the number 5" }]);
  // ... unless exactly one branch has the value's type: then that branch's findings
  assert.deepEqual(checkShape([1], union), [{ path: "/0", message: "expected a string, got the number 1" }]);
});

test("constraints: each keyword's message is the one a generated JSON Schema validator gives", () => {
  const str: Shape = { kind: "string", constraints: { minLength: 3, pattern: "^a" } };
  assert.deepEqual(checkShape("b", str), [
    { path: "", message: messageOf({ instancePath: "", keyword: "minLength", params: { limit: 3 } }, "b") },
    { path: "", message: messageOf({ instancePath: "", keyword: "pattern", params: { pattern: "^a" } }, "b") },
  ]);
  const num: Shape = { kind: "number", constraints: { minimum: 1, exclusiveMaximum: 2, multipleOf: 0.5 } };
  assert.deepEqual(checkShape(0.3, num).map((x) => x.message), [
    messageOf({ instancePath: "", keyword: "minimum", params: { comparison: ">=", limit: 1 } }, 0.3),
    messageOf({ instancePath: "", keyword: "multipleOf", params: { multipleOf: 0.5 } }, 0.3),
  ]);
  const arr: Shape = { kind: "array", items: { kind: "integer" }, constraints: { maxItems: 2, uniqueItems: true } };
  assert.deepEqual(checkShape([1, 1, 2], arr), [
    { path: "", message: messageOf({ instancePath: "", keyword: "maxItems", params: { limit: 2 } }, [1, 1, 2]) },
    { path: "/1", message: messageOf({ instancePath: "", keyword: "uniqueItems", params: { i: 1, j: 0 } }, [1, 1, 2]) },
  ]);
  assert.deepEqual(checkShape(1, { kind: "string" }), [{ path: "", message: messageOf({ instancePath: "", keyword: "type", params: { type: "string" } }, 1) }]);
  const closed: Shape = { kind: "object", properties: [{ name: "a", required: true, shape: { kind: "any" } }], additional: false };
  assert.deepEqual(checkShape({ b: 1 }, closed), [
    { path: "/a", message: messageOf({ instancePath: "", keyword: "required", params: { missingProperty: "a" } }, {}) },
    { path: "/b", message: messageOf({ instancePath: "", keyword: "additionalProperties", params: { additionalProperty: "b" } }, {}) },
  ]);
});

test("constraints: nesting is bounded, refs included, with the path of the value", () => {
  const list: Shape = { kind: "object", properties: [{ name: "next", required: false, shape: { kind: "ref", name: "List" } }], additional: false };
  const d = descriptor({ kind: "ref", name: "List" }, [{ name: "List", shape: list }]);
  let v: Record<string, unknown> = {};
  for (let i = 0; i < 2000; i++) v = { next: v };
  const found = checkConstraints(v, d);
  assert.equal(found.length, 1);
  assert.match(found[0]!.message, new RegExp(`nested deeper than ${MAX_CHECK_DEPTH} levels`));
  assert.ok(found[0]!.path.startsWith("/next/next/"));
  // a ref to itself consumes no value: bounded too
  const loop = descriptor({ kind: "ref", name: "L" }, [{ name: "L", shape: { kind: "ref", name: "L" } }]);
  assert.match(checkConstraints(1, loop)[0]!.message, /nested deeper than/);
});

test("constraints: unions whose branches all recurse into one value stop at the step budget", () => {
  const branch = (extra: string): Shape => ({
    kind: "object",
    properties: [
      { name: "a", required: false, shape: { kind: "ref", name: "T" } },
      { name: extra, required: true, shape: { kind: "string" } },
    ],
    additional: false,
  });
  const d = descriptor({ kind: "ref", name: "T" }, [{ name: "T", shape: { kind: "union", branches: [branch("x"), branch("y")] } }]);
  let v: Record<string, unknown> = {};
  for (let i = 0; i < 60; i++) v = { a: v };
  const started = Date.now();
  const found = checkConstraints(v, d);
  assert.ok(Date.now() - started < 10_000, "bounded time");
  assert.ok(found.length > 0 && found.some((x) => /too complex to check/.test(x.message)), JSON.stringify(found.slice(0, 3)));
});

test("constraints: definitions named __proto__ and property names of any kind", () => {
  const shape: Shape = { kind: "object", properties: [{ name: "__proto__", required: true, shape: { kind: "string" } }], additional: false };
  const d = descriptor({ kind: "ref", name: "__proto__" }, [{ name: "__proto__", shape }]);
  assert.deepEqual(checkConstraints(JSON.parse('{"__proto__": 1}'), d), [{ path: "/__proto__", message: "expected a string, got the number 1" }]);
  assert.deepEqual(checkShape({ "a/b~c": 1 }, { kind: "object", properties: [], additional: { kind: "string" } }), [{ path: "/a~1b~0c", message: "expected a string, got the number 1" }]);
  // a record of definitions is read by own properties only
  assert.match(checkShape({}, { kind: "ref", name: "toString" }, {})[0]!.message, /no definition toString/);
});

test("constraints: hasConstraints sees enforced constraints only", () => {
  assert.equal(hasConstraints([{ kind: "string" }]), false);
  assert.equal(hasConstraints([{ kind: "string", constraints: { unchecked: ["not"] } }]), false);
  assert.equal(hasConstraints([{ kind: "enum", values: ["a"], constraints: { minLength: 1 } }]), false);
  assert.equal(hasConstraints([{ kind: "array", items: { kind: "string", constraints: { pattern: "a" } } }]), true);
});
