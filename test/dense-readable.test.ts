/**
 * Dense text a model can read (issue 25, docs/TEXT.md §2): no header merging open objects whose keys differ, no
 * line holding a JSON cell past 240 characters, `[]` for an empty inline array; each read back.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { schemaToIR } from "../generator/load/index.ts";
import { denseOf } from "../runtime/text/dense/index.ts";

function dense(schema: object) {
  return denseOf(schemaToIR(schema as never, { source: "readable.schema.json", baseDir: process.cwd() }));
}

const PROVIDERS = {
  type: "object",
  required: ["providers"],
  properties: {
    providers: {
      type: "array",
      items: { type: "object", required: ["name", "config"], properties: { name: { type: "string" }, scopes: { type: "array", items: { type: "string" } }, config: { type: "object", additionalProperties: true } } },
    },
  },
};

test("readable: open objects whose keys differ are a JSON cell each, not columns of one header full of empty cells", () => {
  const d = dense(PROVIDERS);
  const v = { providers: [{ name: "oauth2", scopes: ["read"], config: { authUrl: "https://a.example/", tokenUrl: "https://t.example" } }, { name: "saml", scopes: [], config: { entryPoint: "https://e.example/", cert: "abc" } }] };
  const text = d.lines(v);
  assert.doesNotMatch(text, /config\{/, text);
  assert.match(text, /^providers\[2\]\{name,scopes\[\],config\}:\noauth2,\[1:read\],\{"authUrl":"https:\/\/a\.example\/","tokenUrl":"https:\/\/t\.example"\}\nsaml,\[\],\{"entryPoint"/, text);
  assert.deepStrictEqual(d.fromText(text), v);
  // keys most values share still make a header (an absent one an empty cell)
  const w = { providers: [{ name: "a", config: { x: 1, y: 2, z: 3 } }, { name: "b", config: { x: 4, y: 5 } }] };
  assert.match(d.lines(w), /config\{x,y,z\}/);
  assert.deepStrictEqual(d.fromText(d.lines(w)), w);
});

test("readable: no line holding a JSON cell is longer than 240 characters (a table becomes a list, a field group its field lines)", () => {
  const d = dense(PROVIDERS);
  const long = "https://idp.example.com/" + "x".repeat(250);
  const v = { providers: [{ name: "oauth2", config: { authUrl: long, tokenUrl: "https://t.example" } }, { name: "saml", config: { entryPoint: long, cert: "abc" } }] };
  const text = d.lines(v);
  for (const line of text.split("\n")) if (line.includes('{"')) assert.ok(line.length <= 240, `${line.length}: ${line}`);
  assert.match(text, /^providers\[2\]:\n {2}- name: oauth2\n {4}config\{authUrl,tokenUrl\}: /, text);
  assert.deepStrictEqual(d.fromText(text), v);
  // one object holding two long JSON maps: field lines, not one field group line
  const m = dense({ type: "object", properties: { permissions: { type: "object", required: ["roles", "groups"], properties: { roles: { type: "object", additionalProperties: { type: "array", items: { type: "array", items: { type: "string" } } } }, groups: { type: "object", additionalProperties: { type: "array", items: { type: "array", items: { type: "string" } } } } } } } });
  const roles: Record<string, string[][]> = {};
  const groups: Record<string, string[][]> = {};
  for (let i = 0; i < 6; i++) {
    roles[`role_${i}`] = [["read", "write"], ["admin"]];
    groups[`group_${i}`] = [["member_" + i + "@example.com"], ["viewer"]];
  }
  const p = { permissions: { roles, groups } };
  const t = m.lines(p);
  assert.doesNotMatch(t, /^permissions\{/m, t);
  for (const line of t.split("\n")) if (line.includes('[["')) assert.ok(line.length <= 240, `${line.length}: ${line}`);
  assert.deepStrictEqual(m.fromText(t), p);
});

test("readable: an empty inline array is [] ([0:] reads too); a field of anything or null takes a raw scalar", () => {
  const d = dense({ type: "object", properties: { rows: { type: "array", items: { type: "object", required: ["id", "tags"], properties: { id: { type: "integer" }, tags: { type: "array", items: { type: "string" } } } } }, extra: { anyOf: [{}, { type: "null" }] } } });
  const v = { rows: [{ id: 1, tags: [] }, { id: 2, tags: ["a"] }] };
  const text = d.lines(v);
  assert.match(text, /^1,\[\]$/m);
  assert.deepStrictEqual(d.fromText(text), v);
  assert.deepStrictEqual(d.fromText(text.replace("1,[]", "1,[0:]")), v);
  for (const extra of ["'single'", "text", 12, null, { a: 1 }]) {
    const w = { rows: [{ id: 1, tags: ["x"] }], extra };
    const lines = `rows[1]{id,tags[]}:\n  1,[1:x]\nextra: ${typeof extra === "object" && extra !== null ? JSON.stringify(extra) : String(extra)}`;
    assert.deepStrictEqual(d.fromText(lines), w, lines);
    assert.deepStrictEqual(d.fromText(d.lines(w)), w);
  }
});
