// One binary reader besides the AOT hot path: the engine, observed (runtime/codec/engine/read-observed.ts), on the
// bytes a generated module writes. For every schema of every example, the inline schemas of every kind and the
// evolution codecs (extension records, retired slots, defaults), with their data and random values: the module's
// decode and the observed engine read the same value; the ranges the observer is told nest and cover the body
// exactly (every byte of the message is the header's, a value's own or a map key's, each once); each value told
// is the one at its JSON pointer in the decoded value, at a path of the dictionary; and cut or damaged bytes fail
// with the module's ToonError (code, path, message, offset).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { CodecDescriptor, Shape } from "../runtime/codec/descriptor.ts";
import { compileCodec } from "../runtime/codec/engine/codec.ts";
import { objectLayout } from "../runtime/codec/plan.ts";
import { observedReader, type ReadObserver } from "../runtime/codec/engine/read-observed.ts";
import type { Step } from "../runtime/codec/engine/read.ts";
import { ToonError, pointerSegment } from "../runtime/wire/errors.ts";
import { readHeader } from "../runtime/wire/header.ts";
import { getOwn } from "../runtime/wire/objects.ts";
import { Reader } from "../runtime/wire/reader.ts";
import { Flag } from "../runtime/wire/wire.ts";
import type { Dictionary } from "../generator/dictionary/file.ts";
import { parseDictionary } from "../generator/dictionary/file.ts";
import type { SchemaIR } from "../generator/ir/types.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { generate } from "../generator/pipeline.ts";
import { varintSize } from "../runtime/schemaless/json-values.ts";
import { arbitrary } from "./support/arbitrary.ts";
import { outcome } from "./support/toon-error.ts";
import { REPO, emitTo, exampleProjects, suiteDir } from "./support/gen.ts";
import { INLINE_SCHEMAS } from "./support/schemas.ts";

interface ModuleCodec {
  name: string;
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
  stream: { spec: { descriptor: CodecDescriptor } };
}

interface Subject {
  label: string;
  ir: SchemaIR;
  dictionary: Dictionary;
  codec: ModuleCodec;
  values: unknown[];
}

/** The codec a generated module exports under the IR's name (a tool set's inner modules export it too). */
async function moduleCodec(file: string, name: string): Promise<ModuleCodec> {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const c = mod[name] as ModuleCodec | undefined;
  assert.ok(c !== undefined && typeof c.decode === "function" && c.stream?.spec?.descriptor !== undefined, `${file} exports no codec ${name}`);
  return c;
}

function randomValues(ir: SchemaIR, n: number, seed: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(arbitrary(ir, seed + i, { maxItems: 4 }));
  return out;
}

async function subjects(): Promise<Subject[]> {
  const out: Subject[] = [];
  for (const ex of exampleProjects()) {
    const run = await generate(ex.config, { cwd: ex.dir, dryRun: true });
    for (const s of run.schemas) {
      const values = randomValues(s.ir, 6, 7000);
      const data = path.join(ex.dir, "data", path.basename(s.dictionaryPath).replace(/\.dictionary\.json$/, ".json"));
      try {
        values.unshift(JSON.parse(readFileSync(data, "utf8")));
      } catch {
        /* no data file for this codec */
      }
      out.push({ label: `${ex.name}/${s.ir.name}`, ir: s.ir, dictionary: s.dictionary, codec: await moduleCodec(s.modulePath, s.ir.name), values });
    }
  }
  const dir = suiteDir("read-observed");
  for (const [key, schema] of Object.entries(INLINE_SCHEMAS)) {
    const ir = schemaToIR(schema, { source: `${key}.schema.json`, baseDir: dir });
    const e = await emitTo(ir, dir, key);
    out.push({ label: `inline/${key}`, ir, dictionary: e.dictionary, codec: await moduleCodec(e.file, ir.name), values: randomValues(ir, 8, 9100) });
  }
  return out;
}

/** A value as the observer was told it: where it lies, what it is, and the values and keys read inside it. */
interface Told {
  path: string;
  shape: Shape;
  step: Step;
  start: number;
  end: number;
  value: unknown;
  pointer: string;
  inside: (Told | { key: string; start: number; end: number })[];
}

/** A ReadObserver that keeps the tree it is told, checking that calls nest. */
class Recorder implements ReadObserver {
  roots: Told[] = [];
  records: { start: number; end: number }[] = [];
  private open: Told[] = [];
  private lastKey: string | undefined;

  enter(path: string, shape: Shape, step: Step, pos: number): void {
    const parent = this.open[this.open.length - 1];
    let pointer = "";
    if (parent !== undefined) {
      const seg =
        typeof step === "object" && "prop" in step
          ? step.prop
          : typeof step === "object" && "retired" in step
            ? step.retired
            : step === "values"
              ? this.lastKey!
              : step === "items" || step === "rest" || (typeof step === "object" && "tuple" in step)
                ? parent.inside.filter((x) => "shape" in x).length
                : undefined;
      pointer = seg === undefined ? parent.pointer : parent.pointer + pointerSegment(seg);
      if (step === "values") this.lastKey = undefined;
    } else if (typeof step === "object" && "ext" in step) pointer = "(ext)";
    const told: Told = { path, shape, step, start: pos, end: -1, value: undefined, pointer, inside: [] };
    if (parent !== undefined) parent.inside.push(told);
    else this.roots.push(told);
    this.open.push(told);
  }

  leave(value: unknown, pos: number): void {
    const t = this.open.pop();
    assert.ok(t !== undefined, "leave without enter");
    t.end = pos;
    t.value = value;
  }

  key(key: string, from: number, to: number): void {
    const t = this.open[this.open.length - 1];
    assert.ok(t !== undefined && t.shape.kind === "object", "a key outside an object");
    assert.equal(this.lastKey, undefined, "two keys without a value between them");
    this.lastKey = key;
    t.inside.push({ key, start: from, end: to });
  }

  record(id: number, start: number, end: number): void {
    this.records.push({ start: start - varintSize(id) - varintSize(end - start), end });
  }

  get depth(): number {
    return this.open.length;
  }
}

const dictPaths = (d: Dictionary): Set<string> => new Set([d.base, ...d.extensions].flatMap((seg) => seg.entries.map((e) => e.path)));

function at(root: unknown, pointer: string): unknown {
  let v = root;
  if (pointer === "") return v;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    v = Array.isArray(v) ? v[Number(key)] : getOwn(v as object, key);
  }
  return v;
}

/** Check one value told and everything inside it; returns the bytes it covers that nothing inside it does. */
function checkTold(t: Told, decoded: unknown, paths: Set<string>, label: string): number {
  assert.ok(t.end >= t.start, `${label} ${t.path}: never left`);
  assert.ok(paths.has(t.path), `${label}: ${t.path} is not a dictionary path`);
  const dropped = typeof t.step === "object" && "retired" in t.step;
  if (!dropped && !t.pointer.startsWith("(ext)")) assert.deepStrictEqual(t.value, at(decoded, t.pointer), `${label} ${t.path}: the value told is not the one at ${t.pointer}`);
  let pos = t.start;
  let own = 0;
  let keys = 0;
  for (const [i, x] of t.inside.entries()) {
    assert.ok(x.start >= pos && x.end >= x.start && x.end <= t.end, `${label} ${t.path}: what is read inside it overlaps or leaves it`);
    own += x.start - pos;
    if ("shape" in x) checkTold(x, decoded, paths, label);
    else {
      // a key: its value follows it at once
      keys++;
      const next = t.inside[i + 1];
      assert.ok(next !== undefined && "shape" in next && next.start === x.end && x.end > x.start, `${label} ${t.path}: key ${JSON.stringify(x.key)} is not followed by its value`);
    }
    pos = x.end;
  }
  own += t.end - pos;
  const k = t.shape.kind;
  // a container's own bytes: an array's count; an object's presence bitmap, then its extras' count (when it has extras)
  if (k === "array") assert.equal(own, varintSize((t.value as unknown[]).length), `${label} ${t.path}: an array's own bytes are its count`);
  if (k === "object") {
    const bitmap = Math.ceil(objectLayout(t.shape).bits / 8);
    const ok = keys > 0 ? own === bitmap + varintSize(keys) : t.shape.additional === false ? own === bitmap : own === bitmap || own === bitmap + 1;
    assert.ok(ok, `${label} ${t.path}: an object's own bytes (${own}) are its bitmap (${bitmap}) and its extras' count (${keys} keys)`);
  }
  if (k === "ref" || k === "null" || k === "const" || (k === "enum" && t.shape.values.length === 1)) assert.equal(own, 0, `${label} ${t.path}: a ${k} takes no bytes of its own`);
  if (k === "union" || k === "string" || k === "integer" || k === "number" || k === "boolean" || k === "any" || k === "array") {
    assert.ok(own > 0, `${label} ${t.path}: a ${k} takes bytes of its own`);
  }
  return own;
}

/** The observed engine's decode: the header as the codec reads it, then the body told to `observer`. */
function observedDecode(desc: CodecDescriptor, observer: ReadObserver, bytes: Uint8Array): { value: unknown; bodyStart: number } {
  const r = new Reader(bytes);
  const flags = readHeader(r, desc.fingerprint, desc.name, desc.tables ? Flag.DEFAULTS : 0);
  const bodyStart = r.pos;
  return { value: observedReader(desc, observer)(r, flags), bodyStart };
}

/** Read `bytes` both ways and check everything the observer was told. */
function sameRead(s: { label: string; codec: ModuleCodec; dictionary: Dictionary }, desc: CodecDescriptor, bytes: Uint8Array, label: string): void {
  const emitted = s.codec.decode(bytes);
  const rec = new Recorder();
  const { value, bodyStart } = observedDecode(desc, rec, bytes);
  assert.deepStrictEqual(value, emitted, `${label}: the observed engine reads another value than the module`);
  assert.equal(rec.depth, 0, `${label}: values left open`);
  const root = rec.roots[0]!;
  assert.equal(root.start, bodyStart, `${label}: the root does not start where the header ends`);
  const paths = dictPaths(s.dictionary);
  checkTold(root, emitted, paths, label);
  // after the root: the extension section, if any; each record covered once, with the value it carries inside it
  const sectionStart = root.end;
  let pos = sectionStart;
  let ext = 1;
  for (const rec_ of rec.records) {
    assert.ok(rec_.start >= pos && rec_.end >= rec_.start, `${label}: extension records overlap`);
    pos = rec_.end;
    while (ext < rec.roots.length && rec.roots[ext]!.start >= rec_.start && rec.roots[ext]!.end <= rec_.end) checkTold(rec.roots[ext++]!, emitted, paths, label);
  }
  assert.equal(ext, rec.roots.length, `${label}: an extension value outside its record`);
  const flags = (bytes[5]! << 8) | bytes[6]!;
  if (!(flags & Flag.EXTENSIONS)) assert.equal(root.end, bytes.length, `${label}: the root does not end the message`);
  else if (rec.records.length > 0) assert.equal(pos, bytes.length, `${label}: the last extension record does not end the message`);
}

describe("the engine, observed, reads what the generated module reads", () => {
  test("every example schema, the inline schemas of every kind: data and random values, byte ranges exact", async () => {
    let messages = 0;
    for (const s of await subjects()) {
      const desc = s.codec.stream.spec.descriptor;
      const engine = compileCodec(desc);
      for (const [i, v] of s.values.entries()) {
        let bytes: Uint8Array;
        try {
          bytes = s.codec.encode(v);
        } catch (e) {
          if (e instanceof ToonError) continue; // a random value outside what the codec writes (a constraint)
          throw e;
        }
        assert.deepEqual(engine.encode(v), bytes, `${s.label}#${i}: the engine writes other bytes`);
        sameRead(s, desc, bytes, `${s.label}#${i}`);
        messages++;
        // cut and damaged: the module's error, with its code, path, message and offset
        if (i > 2) continue;
        for (let n = 0; n < bytes.length; n += Math.max(1, bytes.length >> 5)) {
          const cut = bytes.subarray(0, n);
          assert.deepStrictEqual(outcome(() => observedDecode(desc, new Recorder(), cut).value), outcome(() => s.codec.decode(cut)), `${s.label}#${i} cut at ${n}`);
        }
        for (let k = 9; k < bytes.length; k += Math.max(1, bytes.length >> 4)) {
          const bad = bytes.slice();
          bad[k] ^= 0xa5;
          assert.deepStrictEqual(outcome(() => observedDecode(desc, new Recorder(), bad).value), outcome(() => s.codec.decode(bad)), `${s.label}#${i} byte ${k} damaged`);
        }
      }
    }
    assert.ok(messages > 150, `${messages} messages`);
  });

  test("evolved messages: extension records, retired slots and defaults told as the module reads them", async () => {
    const dir = path.join(REPO, "test", "evolution");
    const v1 = { id: "A-1", status: "paid", note: "n", items: [{ sku: "S1", qty: 2 }], payment: { kind: "card", card: "4242" } };
    const v2 = { id: "A-2", status: "paid", note: "x", items: [{ sku: "S1", qty: 1, gift: true }], payment: { kind: "cash" }, coupon: { code: "W", percent: 12.5 }, channel: "app" };
    const v3 = { id: "A-3", status: "new", items: [{ sku: "S9", qty: 5, gift: false }], coupon: { code: "X" }, channel: "web" };
    const cases: [string, unknown, string][] = [
      ["v1", v1, "v2"],
      ["v2", v2, "v2"],
      ["v1", v1, "v3"],
      ["v2", v2, "v3"],
      ["v3", v3, "v3"],
    ];
    for (const [writer, value, reader] of cases) {
      const w = await moduleCodec(path.join(dir, "gen", `${writer}.ts`), "Order");
      const r = await moduleCodec(path.join(dir, "gen", `${reader}.ts`), "Order");
      const dictionary = parseDictionary(readFileSync(path.join(dir, "dictionaries", `${reader}.dictionary.json`), "utf8"), reader);
      const bytes = w.encode(value);
      const desc = r.stream.spec.descriptor;
      sameRead({ label: `${writer}>${reader}`, codec: r, dictionary }, desc, bytes, `${writer}>${reader}`);
      for (let n = 0; n < bytes.length; n++) {
        const cut = bytes.subarray(0, n);
        assert.deepStrictEqual(outcome(() => observedDecode(desc, new Recorder(), cut).value), outcome(() => r.decode(cut)), `${writer}>${reader} cut at ${n}`);
      }
    }
  });
});
