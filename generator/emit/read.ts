/**
 * Decoder emission. Every value is read into a local in wire order (`stmts`), then objects are assembled
 * from the locals in schema order, so keys come out in schema order and `__proto__` is always an own key.
 * Before each read `r.at` is set to the static path (relative to the innermost loop or definition), so a
 * failure anywhere names where it happened; loops and definition calls prefix their part while it bubbles.
 */
import type { ObjectShape, Shape, TupleShape, UnionShape } from "../ir/types.ts";
import { Code, code, join, jsonBlock, lit, name, prop, propKey, raw } from "../../templates/code.ts";
import { childPath, chunkBlocks, fieldOf, isPrimitive, linesOf, Locals, MAX_FUNCTION_LINES, type ModuleContext } from "./context.ts";
import { byteMask, objectLayout } from "./layout.ts";
import { readerName } from "./names.ts";
import { isTabled, tableConstant } from "./defaults.ts";
import { formatOf, type ScalarShape } from "../../runtime/codec/formats.ts";
import { block, enumTable, indentBy } from "./code-helpers.ts";
import { callAt, functionBody, inLoop } from "./at.ts";
import { countWidth } from "../../runtime/codec/zero-width.ts";
import { extensionOf, type Extension } from "./extends.ts";

export interface ReadCode {
  /** Statements to run first (may be empty). */
  stmts: Code;
  /** An expression of the value, valid right after `stmts`. */
  expr: Code;
  /**
   * The same read assigning a declared local instead (a definition call: `let` + `try` of its own, so a field
   * local is assigned directly rather than through a second temporary). Call it where `stmts` would go.
   */
  into?: (target: Code) => Code;
}

const EMPTY = raw("");

/** A leaf read: one expression that sets `r.at` (the path a failure names) and reads (a Reader method). */
function leaf(p: string, call: Code): ReadCode {
  return { stmts: EMPTY, expr: code`(r.at = ${p}, ${call})` };
}

/**
 * A string, integer or number position: its wire format's Reader primitive (runtime/codec/formats.ts), through
 * its default-value table when it has one. The engine's twin is `scalarReader`.
 */
function emitScalarRead(s: Extract<Shape, ScalarShape>, p: string, cx: ModuleContext): ReadCode {
  const f = formatOf(s);
  const call = isTabled(s)
    ? code`${raw("$rt.readTabled" + f.tabled)}(r, ${tableConstant(s, cx)})`
    : "method" in f.readCall
      ? code`r.${raw(f.readCall.method)}()`
      : code`${raw("$rt." + f.readCall.fn)}(r)`;
  return leaf(p, f.readAs === undefined ? call : code`${raw(f.readAs)}(${call})`);
}

export function emitRead(s: Shape, p: string, cx: ModuleContext, L: Locals): ReadCode {
  switch (s.kind) {
    case "string":
    case "integer":
    case "number":
      return emitScalarRead(s, p, cx);
    case "boolean":
      return leaf(p, code`r.bool()`);
    case "null":
      return { stmts: EMPTY, expr: code`null` };
    case "any":
      return leaf(p, code`$rt.readAny(r)`);
    case "const":
      return { stmts: EMPTY, expr: isPrimitive(s.value) ? lit(s.value) : code`$rt.cloneJson(${cx.jsonConstant(s.value, s)})` };
    case "enum": {
      if (s.values.length === 1) return { stmts: EMPTY, expr: constantValue(s.values[0], cx, s) };
      const table = s.values.every(isPrimitive) ? enumTable(s.values, cx, s) : cx.jsonConstant(s.values, s);
      const pick = code`${table}[r.index(${s.values.length})]`;
      return leaf(p, s.values.every(isPrimitive) ? pick : code`$rt.cloneJson(${pick})`);
    }
    case "ref": {
      const x = L.fresh("r", fieldOf(p));
      const call = code`${readerName(s.name)}(r)`;
      if (p === "") return { stmts: code`const ${x} = ${call};`, expr: x };
      // A direct call in a try block, never through `$rt.readRef(r, readX, path)`: with the reader passed as an
      // argument its call site sees every definition and V8 stops inlining them (logs decode measured 15-30%
      // slower); `callAt` prefixes the definition's errors with this path.
      return { stmts: code`let ${x}: any;
${callAt(L, p, code`${x} = ${call};`)}`, expr: x, into: (t) => callAt(L, p, code`${t} = ${call};`) };
    }
    case "array":
      return emitArray(s.items, p, cx, L);
    case "tuple":
      return emitTuple(s, p, cx, L);
    case "object":
      return emitObject(s, p, cx, L);
    case "union":
      return emitUnion(s, p, cx, L);
  }
}

function constantValue(v: unknown, cx: ModuleContext, at: Shape): Code {
  return isPrimitive(v) ? lit(v) : code`$rt.cloneJson(${cx.jsonConstant(v, at)})`;
}

/** Bind a ReadCode to a fresh const. */
function bind(rc: ReadCode, L: Locals, prefix: string, field: string | undefined): { stmts: Code; local: Code } {
  const local = L.fresh(prefix, field);
  if (rc.into !== undefined) return { stmts: code`let ${local}: any;
${rc.into(local)}`, local };
  return { stmts: code`${rc.stmts}${rc.stmts.text === "" ? EMPTY : raw("\n")}const ${local} = ${rc.expr};`, local };
}

function emitArray(items: Shape, p: string, cx: ModuleContext, L: Locals): ReadCode {
  const n = L.fresh("n", fieldOf(p));
  const a = L.fresh("a", fieldOf(p));
  const i = L.fresh("i", fieldOf(p));
  const item = inLoop(L, () => emitRead(items, "", cx, L));
  // plain strings, the commonest array: one runtime call for the same loop (write.ts has its pair)
  if (item.stmts.text === "" && item.expr.text === `(r.at = "", r.string())` && countWidth(items, cx) === 1) return { stmts: EMPTY, expr: code`$rt.rStrings(r, ${p})` };
  const push = item.stmts.text === "" ? code`${a}.push(${item.expr});` : code`${item.stmts}
${a}.push(${item.expr});`;
  return {
    stmts: code`r.at = ${p};
const ${n} = r.count(${countWidth(items, cx)});
const ${a}: any[] = [];
let ${i} = 0;
try {
  for (; ${i} < ${n}; ${i}++) {
${indentBy(push, "    ")}
  }
} catch (e) {
  $rt.rethrowAtIndex(e, ${p}, ${i});
}`,
    expr: a,
  };
}

function emitTuple(s: TupleShape, p: string, cx: ModuleContext, L: Locals): ReadCode {
  const n = L.fresh("n", fieldOf(p));
  const a = L.fresh("a", fieldOf(p));
  const max = s.rest === false ? s.items.length : -1;
  const out: Code[] = [
    code`r.at = ${p};
const ${n} = r.tupleCount(${s.items.length}, ${s.rest === false ? -1 : cx.minWidth(s.rest)});
if (${n} < ${s.minItems}) throw r.fail("INVALID_ENCODING", "tuple length " + ${n} + " below the schema's minimum");
const ${a}: any[] = [];`,
  ];
  s.items.forEach((item, idx) => {
    const rc = emitRead(item, childPath(p, idx), cx, L);
    const body = rc.stmts.text === "" ? code`${a}.push(${rc.expr});` : code`${rc.stmts}
${a}.push(${rc.expr});`;
    out.push(block(idx < s.minItems ? undefined : code`${n} > ${idx}`, body));
  });
  if (s.rest !== false) {
    const i = L.fresh("i", fieldOf(p));
    const rc = inLoop(L, () => emitRead(s.rest as Shape, "", cx, L));
    const body = rc.stmts.text === "" ? code`${a}.push(${rc.expr});` : code`${rc.stmts}
${a}.push(${rc.expr});`;
    out.push(code`let ${i} = ${s.items.length};
try {
  for (; ${i} < ${n}; ${i}++) {
${indentBy(body, "    ")}
  }
} catch (e) {
  $rt.rethrowAtIndex(e, ${p}, ${i});
}`);
  }
  return { stmts: join(out), expr: a };
}

function assign(o: Code, key: string, value: Code): Code {
  return key === "__proto__" ? code`$rt.setOwn(${o}, "__proto__", ${value});` : code`${prop(o, key)} = ${value};`;
}

function emitObject(s: ObjectShape, p: string, cx: ModuleContext, L: Locals): ReadCode {
  const layout = objectLayout(s);
  const maskStmts: Code[] = [];
  const masks: Code[] = [];
  for (let b = 0; b * 8 < layout.bits; b++) {
    const m = L.fresh("m", fieldOf(p));
    masks.push(m);
    // r.at stays at the object's path for the following bytes
    maskStmts.push(b === 0 ? code`r.at = ${p};
const ${m} = r.bits(${byteMask(layout.bits, b)});` : code`const ${m} = r.bits(${byteMask(layout.bits, b)});`);
  }
  const bitTest = (bit: number): Code => code`(${masks[bit >> 3]!} & ${1 << (bit & 7)})`;
  // allOf inheritance (emit/extends.ts): the parent's helper reads its properties into the object, given its bytes
  const ext = p === "" ? extensionOf(s, cx) : undefined;
  if (ext !== undefined) {
    const o = L.fresh("o", fieldOf(p));
    const inheritedCall = code`${inheritedReader(ext, cx)}(r, ${o}${join(masks.slice(0, (ext.bits + 7) >> 3).map((m) => code`, ${m}`), "")});`;
    const blocks = [{ code: inheritedCall, mask: -1 }, ...propertyReads(s, ext.k, bitTest, o, cx, L)];
    const body = linesOf(blocks.map((b) => b.code)) <= MAX_FUNCTION_LINES ? blocks.map((b) => b.code) : chunkedReads(s, blocks, o, masks, cx);
    return { stmts: join([...maskStmts, code`const ${o}: any = {};`, ...body, ...extrasReadOf(s, p, layout, bitTest, cx, L)(o)]), expr: o };
  }
  const locals: Code[] = [];
  const reads: ReadCode[] = [];
  const propStmts: Code[] = [];
  // retired slots an older writer may still fill: read and dropped, where the slot stood
  const skipRetired = (at: number): Code[] =>
    layout.retired
      .filter((x) => x.after === at)
      .map((x) => {
        const rc = emitRead(x.shape, childPath(p, x.name), cx, L);
        return code`if (${bitTest(x.bit)}) {
${indentBy(code`${rc.stmts}${rc.stmts.text === "" ? EMPTY : raw("\n")}${rc.expr};`, "  ")}
}`;
      });
  const inWire = new Set(layout.order);
  layout.order.forEach((i, at) => {
    propStmts.push(...skipRetired(at));
    const q = s.properties[i]!;
    const rc = emitRead(q.shape, childPath(p, q.name), cx, L);
    reads[i] = rc;
    const bit = layout.bitOf[i]!;
    if (bit < 0) {
      const b = bind(rc, L, "v", q.name);
      propStmts.push(b.stmts);
      locals[i] = b.local;
    } else {
      const f = L.fresh("v", q.name);
      locals[i] = f;
      if (rc.stmts.text === "") {
        propStmts.push(code`const ${f} = ${bitTest(bit)} ? ${rc.expr} : undefined;`);
        return;
      }
      propStmts.push(code`let ${f}: any;
if (${bitTest(bit)}) {
${indentBy(rc.into !== undefined ? rc.into(f) : rc.stmts.text === "" ? code`${f} = ${rc.expr};` : code`${rc.stmts}
${f} = ${rc.expr};`, "  ")}
}`);
    }
  });
  propStmts.push(...skipRetired(layout.order.length));
  // extension properties arrive as records after the body; data from writers older than them gets the default
  const extDefaults = (o: Code): Code[] =>
    layout.ext.flatMap((x) => {
      const q = s.properties[x.prop]!;
      const value = q.shape.kind === "const" ? q.shape.value : q.shape.default;
      if (value === undefined) return [];
      return [code`if (r.level < ${x.level}) ${assign(o, q.name, code`$rt.cloneJson(${cx.jsonConstant(value, q.shape)})`)}`];
    });
  const extrasRead = extrasReadOf(s, p, layout, bitTest, cx, L);

  if (linesOf(propStmts) > MAX_FUNCTION_LINES) {
    // Too big for one function (see MAX_FUNCTION_LINES): the object is created first and helper functions read
    // chunks of properties into it, in schema order (so keys keep that order), given the bitmap bytes they test.
    const o = L.fresh("o", fieldOf(p));
    const skipsAt = (at: number) => layout.retired.filter((x) => x.after === at).map((x, j) => ({ code: skipRetired(at)[j]!, mask: x.bit >> 3 }));
    const blocks = layout.order.flatMap((i, at) => {
      const q = s.properties[i]!;
      const rc = reads[i]!;
      const bit = layout.bitOf[i]!;
      const set = assign(o, q.name, rc.expr);
      const body = rc.stmts.text === "" ? set : code`${rc.stmts}
${set}`;
      return [...skipsAt(at), { code: bit < 0 ? body : code`if (${bitTest(bit)}) {
${indentBy(body, "  ")}
}`, mask: bit < 0 ? -1 : bit >> 3 }];
    });
    blocks.push(...skipsAt(layout.order.length));
    const calls = chunkedReads(s, blocks, o, masks, cx);
    return { stmts: join([...maskStmts, code`const ${o}: any = {};`, ...calls, ...extDefaults(o), ...extrasRead(o)]), expr: o };
  }

  const out: Code[] = [...maskStmts, ...propStmts];
  // assemble: a literal up to the first optional property, then assignments in schema order
  const o = L.fresh("o", fieldOf(p));
  const firstOptional = s.properties.findIndex((_, i) => layout.bitOf[i]! >= 0 || !inWire.has(i));
  const literalCount = firstOptional < 0 ? s.properties.length : firstOptional;
  const fields = s.properties.slice(0, literalCount).map((q, i) => (q.name === "__proto__" ? code`["__proto__"]: ${locals[i]!}` : code`${propKey(q.name)}: ${locals[i]!}`));
  out.push(code`const ${o}: any = {${fields.length ? code` ${join(fields, ", ")} ` : EMPTY}};`);
  for (let i = literalCount; i < s.properties.length; i++) {
    if (!inWire.has(i)) continue;
    const q = s.properties[i]!;
    const bit = layout.bitOf[i]!;
    const set = assign(o, q.name, locals[i]!);
    out.push(bit < 0 ? set : code`if (${bitTest(bit)}) ${set}`);
  }
  out.push(...extDefaults(o), ...extrasRead(o));
  return { stmts: join(out), expr: o };
}

/** The reads of the properties of `s` from index `from` on (fields in property order), each assigned into `o`. */
function propertyReads(s: ObjectShape, from: number, bitTest: (bit: number) => Code, o: Code, cx: ModuleContext, L: Locals): { code: Code; mask: number }[] {
  const layout = objectLayout(s);
  return layout.order
    .filter((i) => i >= from)
    .map((i) => {
      const q = s.properties[i]!;
      const rc = emitRead(q.shape, childPath("", q.name), cx, L);
      const bit = layout.bitOf[i]!;
      const set = assign(o, q.name, rc.expr);
      const body = rc.stmts.text === "" ? set : code`${rc.stmts}
${set}`;
      return { code: bit < 0 ? body : code`if (${bitTest(bit)}) {
${indentBy(body, "  ")}
}`, mask: bit < 0 ? -1 : bit >> 3 };
    });
}

/** Reads too many for one function (MAX_FUNCTION_LINES), in helper functions given the bitmap bytes they test. */
function chunkedReads(s: ObjectShape, blocks: { code: Code; mask: number }[], o: Code, masks: Code[], cx: ModuleContext): Code[] {
  return chunkBlocks(blocks).map((group) => {
    const used = [...new Set(group.filter((g) => g.mask >= 0).map((g) => g.mask))].sort((a, b) => a - b);
    const fn = cx.helper("R", s, (fn) => code`function ${fn}(r: $rt.Reader, ${o}: any${join(used.map((m) => code`, ${masks[m]!}: number`), "")}): void {
${indentBy(functionBody(join(group.map((g) => g.code))), "  ")}
}`);
    return code`${fn}(r, ${o}${join(used.map((m) => code`, ${masks[m]!}`), "")});`;
  });
}

const inherited = new WeakMap<ModuleContext, Map<string, Code>>();

/**
 * `(r, o, m0, ...)`: reads a parent's properties into `o`, given the bytes of its presence bits (emit/extends.ts),
 * emitted once per parent; it calls its own parent's for the part it inherits.
 */
function inheritedReader(ext: Extension, cx: ModuleContext): Code {
  let byName = inherited.get(cx);
  if (byName === undefined) inherited.set(cx, (byName = new Map()));
  const known = byName.get(ext.name);
  if (known !== undefined) return known;
  const fn = cx.uniqueName(`$rf_${ext.name}`);
  byName.set(ext.name, fn);
  const s = ext.shape;
  const up = extensionOf(s, cx);
  const L = new Locals();
  const o = name("o");
  const masks = Array.from({ length: (ext.bits + 7) >> 3 }, (_, i) => name(`m${i}`));
  const bitTest = (bit: number): Code => code`(${masks[bit >> 3]!} & ${1 << (bit & 7)})`;
  const blocks = [
    ...(up === undefined ? [] : [{ code: code`${inheritedReader(up, cx)}(r, o${join(masks.slice(0, (up.bits + 7) >> 3).map((m) => code`, ${m}`), "")});`, mask: -1 }]),
    ...propertyReads(s, up?.k ?? 0, bitTest, o, cx, L),
  ];
  const body = linesOf(blocks.map((b) => b.code)) <= MAX_FUNCTION_LINES ? blocks.map((b) => b.code) : chunkedReads(s, blocks, o, masks, cx);
  cx.addFunction(code`function ${fn}(r: $rt.Reader, o: any${join(masks.map((m) => code`, ${m}: number`), "")}): void {
${indentBy(functionBody(join(body)), "  ")}
}`);
  return fn;
}

/** An open object's extras, read after its properties into `o`. */
function extrasReadOf(s: ObjectShape, p: string, layout: ReturnType<typeof objectLayout>, bitTest: (bit: number) => Code, cx: ModuleContext, L: Locals): (o: Code) => Code[] {
  // (the body keeps the indentation it had as a closure inside emitObject: its templates are generated text)
  return (o: Code): Code[] => {
    if (s.additional === false) return [];
    if (s.additional.kind === "any" && 1 + cx.minWidth(s.additional) === 2) {
      // the commonest open object: one runtime call for its extras instead of the loop (write.ts has its pair)
      const call = code`$rt.rAnyExtras(r, ${o}, ${p});`;
      return [layout.isMap ? call : code`if (${bitTest(layout.extrasBit)}) ${call}`];
    }
    const n = L.fresh("n", fieldOf(p));
    const k = L.fresh("k", fieldOf(p));
    const known = cx.knownKeys(s.properties.map((q) => q.name), s);
    const val = inLoop(L, () => emitRead(s.additional as Shape, "", cx, L));
    const bound = bind(val, L, "e", fieldOf(p));
    const loop = code`r.at = ${p};
const ${n} = r.count(${1 + cx.minWidth(s.additional)});
let ${k} = "";
try {
  for (let j = 0; j < ${n}; j++) {
    ${k} = $rt.rKey(r, ${o});
${indentBy(bound.stmts, "    ")}
    $rt.setOwn(${o}, ${k}, ${bound.local});
  }
} catch (e) {
  $rt.rethrowAtIndex(e, ${p}, ${k});
}`;
    return [layout.isMap ? loop : code`if (${bitTest(layout.extrasBit)}) {
${indentBy(loop, "  ")}
}`];
  };
}

function emitUnion(s: UnionShape, p: string, cx: ModuleContext, L: Locals): ReadCode {
  const u = L.fresh("u", fieldOf(p));
  let bodies = s.branches.map((b) => {
    const rc = emitRead(b, p, cx, L);
    return { rc, code: rc.stmts.text === "" ? code`${u} = ${rc.expr};` : code`${rc.stmts}
${u} = ${rc.expr};` };
  });
  if (linesOf(bodies.map((b) => b.code)) > MAX_FUNCTION_LINES) {
    // too big for one function (see MAX_FUNCTION_LINES): the larger arms read their value in a helper
    bodies = bodies.map((b) => {
      if (linesOf(b.code) < 8) return b;
      const fn = cx.helper("R", s, (fn) => code`function ${fn}(r: $rt.Reader): any {
${indentBy(functionBody(code`${b.rc.stmts}
return ${b.rc.expr};`), "  ")}
}`);
      return { rc: b.rc, code: code`${u} = ${fn}(r);` };
    });
  }
  // two arms that are expressions: one conditional expression
  if (bodies.length === 2 && bodies.every((b) => b.rc.stmts.text === "" && b.code.text === code`${u} = ${b.rc.expr};`.text)) {
    return { stmts: EMPTY, expr: code`((r.at = ${p}, r.index(2)) === 0 ? ${bodies[0]!.rc.expr} : ${bodies[1]!.rc.expr})` };
  }
  const cases = bodies.map((b, i) => {
    const body = b.code;
    if (!body.text.includes("\n")) return code`  case ${i}: ${body} break;`;
    return code`  case ${i}: {
${indentBy(body, "    ")}
    break;
  }`;
  });
  return {
    stmts: code`r.at = ${p};
let ${u}: any;
switch (r.index(${s.branches.length})) {
${join(cases)}
}`,
    expr: u,
  };
}

export function emitReadFunction(fn: Code, shape: Shape, recursive: boolean, cx: ModuleContext): Code {
  const L = new Locals();
  const rc = emitRead(shape, "", cx, L);
  const stmts = rc.stmts.text === "" ? EMPTY : code`${rc.stmts}\n`;
  const body = functionBody(code`${stmts}${recursive ? raw("r.depth--;\n") : EMPTY}return ${rc.expr};`);
  if (!recursive && !body.text.includes("\n")) return code`function ${fn}(r: $rt.Reader): any { ${body} }`;
  return code`function ${fn}(r: $rt.Reader): any {
${recursive ? raw("  r.enter();\n") : EMPTY}${indentBy(body, "  ")}
}`;
}
