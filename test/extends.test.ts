// allOf inheritance in unrolled code (generator/emit/extends.ts): a definition that begins with all of another's
// properties writes and reads that part through the parent's helpers. The bytes, values and errors must be those
// of the engine (a module written for size runs on it), and the binary code of a chain must grow linearly.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildDictionary } from "../generator/dictionary/file.ts";
import { initHash } from "../generator/dictionary/hash.ts";
import { emitModule } from "../generator/emit/module.ts";
import { schemaToIR } from "../generator/load/index.ts";
import { encodeText } from "../runtime/text/index.ts";

const DIR = path.join(fileURLToPath(new URL("..", import.meta.url)), "test", ".gen", "extends");

/** d0 (p0, required q0), each d<i> = d<i-1> plus p<i> (required where `req(i)`); root f<i> -> d<i>. */
function chain(n: number, req: (i: number) => boolean, closed: boolean, list = false): unknown {
  const defs: Record<string, unknown> = { d0: { type: "object", properties: { p0: { type: "string" }, q0: { type: "integer" } }, required: ["q0"], ...(closed ? { additionalProperties: false } : {}) } };
  for (let i = 1; i < n; i++) {
    const own = { properties: { [`p${i}`]: i % 3 === 0 ? { type: "string" } : { type: "integer" } }, ...(req(i) ? { required: [`p${i}`] } : {}) };
    defs[`d${i}`] = { allOf: [{ $ref: `#/definitions/d${i - 1}` }, own], ...(closed ? { unevaluatedProperties: false } : {}) };
  }
  const props: Record<string, unknown> = Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { $ref: `#/definitions/d${i}` }]));
  // a list of links: TOON writes its objects as list items (the fields after the dash line)
  if (list) props.items = { type: "array", items: { $ref: `#/definitions/d${n - 1}` } };
  return { definitions: defs, type: "object", properties: props };
}

function emit(schema: unknown, optimize: "speed" | "size"): string {
  const ir = schemaToIR(schema, { source: "chain.json", name: "Chain" });
  return emitModule(ir, buildDictionary(ir), { fileName: "chain.ts", optimize });
}

/** Bytes of the binary write and read functions (the parent's helpers included). */
function binaryBytes(module: string): number {
  let n = 0;
  for (const m of module.matchAll(/^function ([A-Za-z_$][\w$]*)[\s\S]*?^}/gm)) if (/^(write|read|\$w[cbf]_|\$rf_|\$chunk[WR])/.test(m[1]!)) n += m[0].length;
  return n;
}

function outcome(f: () => unknown): string {
  try {
    const v = f();
    return v instanceof Uint8Array ? Buffer.from(v).toString("hex") : JSON.stringify(v);
  } catch (e) {
    const err = e as { code?: string; path?: string; message?: string };
    return `${err.code} ${err.path} ${err.message}`;
  }
}

describe("allOf inheritance in unrolled code", () => {
  before(async () => {
    await initHash();
    mkdirSync(DIR, { recursive: true });
  });

  test("an extending definition calls its parent's helpers; bytes, values and errors are the engine's", async () => {
    const cases = [
      ["optional", 12, () => false, true, false],
      ["mixed", 12, (i: number) => i % 4 === 1, true, true],
      ["open", 10, (i: number) => i % 5 === 2, false, true],
      ["long", 24, (i: number) => i % 7 === 3, true, false],
    ] as const;
    for (const [label, n, req, closed, list] of cases) {
      const speed = emit(chain(n, req, closed, list), "speed");
      // each link writes its own property and calls the parent's helpers for the rest
      assert.match(speed, /^function writeD3\(w: \$rt\.Writer, v: any\): void \{\n {2}\$rt\.gObject\(v, ""\);\n {2}const v_p3 = v\.p3;$/m, label);
      assert.match(speed, /^ {2}\$wf_D2\(w, v\);$/m, label);
      assert.match(speed, /^ {2}\$rf_D2\(r, o0, m0(, m1)?\);$/m, label);
      writeFileSync(path.join(DIR, `${label}-speed.ts`), speed);
      writeFileSync(path.join(DIR, `${label}-size.ts`), emit(chain(n, req, closed, list), "size"));
      const S = (await import(pathToFileURL(path.join(DIR, `${label}-speed.ts`)).href)).ChainBinary;
      const Z = (await import(pathToFileURL(path.join(DIR, `${label}-size.ts`)).href)).ChainBinary;
      const ST = (await import(pathToFileURL(path.join(DIR, `${label}-speed.ts`)).href)).ChainText;
      const ZT = (await import(pathToFileURL(path.join(DIR, `${label}-size.ts`)).href)).ChainText;
      // the text encoder and check of a link call their parent's (the parent's properties, then its own)
      assert.match(speed, /^ {8}j0 = \$txf_D2\(e, v, ks0, j0, ind0, fd \+ 1, lvl \+ 1\);$/m, label);
      assert.match(speed, /^function \$ckD3\(v: any\): any \{\n {2}\$rt\.tcObject\(v, ""\);\n {2}\$ckf_D2\(v\);$/m, label);
      let seed = 11;
      const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (let t = 0; t < 150; t++) {
        const v: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          if (rnd() < 0.2) continue;
          const o: Record<string, unknown> = { q0: Math.floor(rnd() * 9) };
          for (let j = 0; j <= i; j++) {
            if (!(j > 0 && req(j)) && rnd() < 0.4) continue;
            o[`p${j}`] = j === 0 || j % 3 === 0 ? (rnd() < 0.5 ? "x" + Math.floor(rnd() * 5) : "shared") : Math.floor(rnd() * 100);
            if (rnd() < 0.01) o[`p${j}`] = "not an integer";
          }
          if (rnd() < 0.02) delete o.q0;
          if (rnd() < 0.02) o.extra = 1;
          v[`f${i}`] = o;
          if (list && rnd() < 0.3) ((v.items ??= []) as unknown[]).push(rnd() < 0.05 ? "s" : o);
        }
        // toText unrolls the parent's fields through its helper: the same text as the engine's
        assert.equal(outcome(() => ST.toText(v)), outcome(() => ZT.toText(v)), `${label} toText #${t}`);
        // fromText runs the text check: the same values and errors as the engine's
        const text = encodeText(v);
        assert.equal(outcome(() => ST.fromText(text)), outcome(() => ZT.fromText(text)), `${label} fromText #${t}`);
        const a = outcome(() => S.encode(v));
        assert.equal(a, outcome(() => Z.encode(v)), `${label} encode #${t}`);
        if (/^[0-9a-f]*$/.test(a)) {
          const bytes = Buffer.from(a, "hex");
          assert.equal(outcome(() => S.decode(bytes)), outcome(() => Z.decode(bytes)), `${label} decode #${t}`);
          const cut = bytes.subarray(0, bytes.length >> 1);
          assert.equal(outcome(() => S.decode(cut)), outcome(() => Z.decode(cut)), `${label} truncated #${t}`);
        }
      }
    }
  });

  test("the modules compile under the strict flags an app turns on (no unused helper)", async () => {
    const { spawnSync } = await import("node:child_process");
    const root = fileURLToPath(new URL("..", import.meta.url));
    writeFileSync(
      path.join(DIR, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noUnusedLocals: true, noUnusedParameters: true, verbatimModuleSyntax: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, target: "ES2022", module: "esnext", moduleResolution: "bundler", customConditions: ["toon-dev"], allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true, types: [], lib: ["ES2023", "DOM"] },
        include: ["*-speed.ts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(DIR, "tsconfig.json"), "--pretty", "false"], { cwd: root, encoding: "utf8" });
    assert.equal(`${tsc.stdout}${tsc.stderr}`.split("\n").filter((l) => l.includes("gen/extends/")).join("\n"), "");
  });

  test("the binary code of a chain grows linearly (it grew quadratically: 7.5, 20.2, 63.0, 219.2 KB for 5, 10, 20, 40 links)", () => {
    const sizes = [5, 10, 20, 40].map((n) => binaryBytes(emit(chain(n, () => false, true), "speed")));
    // twice the links, about twice the code (quadratic growth would be about four times)
    for (let i = 1; i < sizes.length; i++) assert.ok(sizes[i]! / sizes[i - 1]! < 2.3, `${sizes.join(", ")}`);
  });

  test("the text encoder and check of a chain grow linearly (they grew quadratically: 6.5, 16.0, 44.7, 140.0 KB and 2.6, 7.4, 24.3, 87.0 KB)", () => {
    const bytesOf = (module: string, re: RegExp): number => [...module.matchAll(/^function ([\w$]+)[\s\S]*?^}/gm)].filter((m) => re.test(m[1]!)).reduce((n, m) => n + m[0].length, 0);
    const modules = [5, 10, 20, 40].map((n) => emit(chain(n, () => false, true), "speed"));
    for (const re of [/^\$(tf|txf_)/, /^\$ck/]) {
      const sizes = modules.map((m) => bytesOf(m, re));
      for (let i = 1; i < sizes.length; i++) assert.ok(sizes[i]! / sizes[i - 1]! < 2.3, `${re}: ${sizes.join(", ")}`);
    }
  });

  test("a parent that only one definition extends, and that extends nothing, is written out again (helpers would not pay)", () => {
    const schema = {
      definitions: {
        Base: { type: "object", properties: { a: { type: "string" }, b: { type: "integer" }, c: { type: "boolean" } }, additionalProperties: false },
        Child: { allOf: [{ $ref: "#/definitions/Base" }, { properties: { d: { type: "string" } } }], unevaluatedProperties: false },
      },
      type: "object",
      properties: { x: { $ref: "#/definitions/Base" }, y: { $ref: "#/definitions/Child" } },
    };
    assert.doesNotMatch(emit(schema, "speed"), /\$wf_|\$rf_/);
  });
});
