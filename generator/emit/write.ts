/**
 * Encoder emission: straight-line statements that check and write one value of a shape. Static paths are
 * baked into the `throw`s; loops and calls to definition writers add their dynamic part in a `catch`.
 * The value variable is typed `any` inside (the codec's public signature carries the real type).
 */
import type { ObjectShape, Shape, TupleShape, UnionShape } from "../ir/types.ts";
import { Code, code, join, lit, name, prop, raw } from "../../templates/code.ts";
import { block, enumTable, indentBy, readProp } from "./code-helpers.ts";
import { childPath, chunkBlocks, fieldOf, isPrimitive, linesOf, Locals, MAX_FUNCTION_LINES, type ModuleContext } from "./context.ts";
import { objectLayout } from "./layout.ts";
import { chooseBranches } from "./predicate.ts";
import { writerName } from "./names.ts";
import { isTabled, tableConstant } from "./defaults.ts";
import { formatOf, type ScalarShape } from "../../runtime/codec/formats.ts";
import { indexMark } from "./index-marks.ts";
import { callAt, functionBody, inLoop } from "./at.ts";
import { MAX_ZERO_WIDTH_ITEMS } from "../../runtime/wire/wire.ts";
import { scalarForm, scalarGuardName } from "../../runtime/codec/kinds/scalar.ts";
import { ENUM_SCAN_MAX } from "../../runtime/codec/kinds/enum.ts";
import { oneOf, tupleExpected, unionExpected, zeroWidthExpected } from "../../runtime/codec/messages.ts";
import { extensionOf, type Extension } from "./extends.ts";


/**
 * `req`: the value is a required property's, so an `undefined` is that property missing. Leaf guards fold that
 * check in (`foldsMissing`); other shapes get their own `missing` line from the caller.
 */
export function emitWrite(s: Shape, v: Code, p: string, cx: ModuleContext, L: Locals, req = false): Code {
  const r = req ? raw(", 1") : raw("");
  switch (s.kind) {
    case "string":
    case "integer":
    case "number":
      return emitScalarWrite(s, v, p, cx, r);
    case "boolean":
      return code`$rt.wBool(w, ${v}, ${p}${r});`;
    case "null":
      return code`$rt.wNull(${v}, ${p}${r});`;
    case "any":
      return p === "" ? code`$rt.writeAny(w, ${v});` : callAt(L, p, code`$rt.writeAny(w, ${v});`);
    case "const":
      return isPrimitive(s.value)
        ? code`$rt.wConst(${v}, ${lit(s.value)}, ${p}${r});`
        : code`$rt.wJsonConst(${v}, ${cx.jsonConstant(s.value, s)}, ${p}${r});`;
    case "enum":
      return emitEnum(s.values, v, p, cx, s, r);
    case "ref": {
      // A direct call (see emitRead's ref case: `$rt.writeRef(w, writeX, ...)` would keep V8 from inlining writeX).
      const call = p !== "" && cx.tracksPointers(s) ? code`w.ptr.push(${p});
${writerName(s.name)}(w, ${v});
w.ptr.pop();` : code`${writerName(s.name)}(w, ${v});`;
      return p === "" ? call : callAt(L, p, call);
    }
    case "array":
      return emitArray(s.items, v, p, cx, L, r);
    case "tuple":
      return emitTuple(s, v, p, cx, L, r);
    case "object":
      return emitObject(s, v, p, cx, L, r);
    case "union":
      return emitUnion(s, v, p, cx, L);
  }
}

/**
 * A string, integer or number position: its wire format's guard (runtime/codec/kinds/scalar.ts, named by
 * `WireFormat.tabled`), through its default-value table when the dictionary gave it one. The engine's twin is
 * `scalarWriter`.
 */
function emitScalarWrite(s: Extract<Shape, ScalarShape>, v: Code, p: string, cx: ModuleContext, r: Code): Code {
  const form = scalarForm(formatOf(s));
  if (isTabled(s)) return code`$rt.${raw(scalarGuardName(form, true))}(w, ${v}, ${tableConstant(s, cx)}, ${p}${r});`;
  return code`$rt.${raw(scalarGuardName(form, false))}(w, ${v}, ${p}${r});`;
}

/** Shapes whose first check is a guard that takes `req` (so a required property needs no `missing` line). */
export function foldsMissing(s: Shape): boolean {
  switch (s.kind) {
    case "any":
    case "ref":
    case "union":
      return false;
    default:
      return true;
  }
}

/**
 * Enums: the index in the same list constant the reader uses (`wEnum`: `indexOf`); long lists of primitives
 * through a Map built once from it; lists holding objects compared structurally.
 */
function emitEnum(values: unknown[], v: Code, p: string, cx: ModuleContext, at: Shape, r: Code): Code {
  if (values.length === 1) return emitWrite({ kind: "const", value: values[0] as never, schemaPath: at.schemaPath }, v, p, cx, new Locals(), r.text !== "");
  if (!values.every(isPrimitive)) return code`$rt.wJsonEnum(w, ${v}, ${cx.jsonConstant(values, at)}, ${p}${r});`;
  const table = enumTable(values, cx, at);
  if (values.length <= ENUM_SCAN_MAX) {
    // an inline switch: measured faster than the scan in wEnum on the hot path (strings compare by identity first)
    const cases = values.map((x, i) => code`  case ${lit(x as string)}: ${writeIndex(i)} break;`);
    return code`switch (${v}) {
${join(cases)}
  default: throw $rt.enumFail(${v}, ${table}, ${p}${r});
}`;
  }
  const index = cx.constant("enumIndex", code`/*@__PURE__*/ $rt.enumIndex(${table})`, at);
  return code`$rt.wEnumMap(w, ${v}, ${index}, ${table}, ${p}${r});`;
}

/** The list of an enum of primitives (emit/read.ts uses the same constant). */
function writeIndex(i: number): Code {
  return i < 128 ? code`w.byte(${i});` : code`w.varint(${i});`;
}

function emitArray(items: Shape, v: Code, p: string, cx: ModuleContext, L: Locals, r: Code): Code {
  const n = L.fresh("n", fieldOf(p));
  const i = L.fresh("i", fieldOf(p));
  const e = L.fresh("e", fieldOf(p));
  const zeroWidth = cx.minWidth(items) === 0;
  const body = inLoop(L, () => emitWrite(items, e, "", cx, L));
  const track = cx.tracksPointers(items) ? pointerTracking(code`${p} + "/" + ${i}`) : undefined;
  // plain strings, the commonest array: one runtime call for the same loop (read.ts has its pair)
  if (!track && !zeroWidth && body.text === `$rt.wString(w, ${e.text}, "");`) return code`$rt.wStrings(w, ${v}, ${p}${r});`;
  return code`$rt.gArray(${v}, ${p}${r});
const ${n} = ${v}.length;
${zeroWidth ? code`if (${n} > ${MAX_ZERO_WIDTH_ITEMS}) throw $rt.invalid(${p}, ${zeroWidthExpected(false)}, ${v});\n` : raw("")}w.varint(${n});
let ${i} = 0;
${track ? track.before : raw("")}try {
  for (; ${i} < ${n}; ${i}++) {
    const ${e} = ${v}[${i}];
${track ? code`    ${track.each}\n` : raw("")}${indentBy(body, "    ")}
  }
} catch (err) {
  $rt.rethrowAtIndex(err, ${p}, ${i});
}${track ? code`\n${track.after}` : raw("")}`;
}

function emitTuple(s: TupleShape, v: Code, p: string, cx: ModuleContext, L: Locals, r: Code): Code {
  const n = L.fresh("n", fieldOf(p));
  const max = s.rest === false ? s.items.length : -1;
  const out: Code[] = [
    code`$rt.gArray(${v}, ${p}${r});
const ${n} = ${v}.length;
if (${n} < ${s.minItems}${max >= 0 ? code` || ${n} > ${max}` : raw("")}) throw $rt.invalid(${p}, ${tupleExpected(s.minItems, max)}, ${v});${
      s.rest !== false && cx.minWidth(s.rest) === 0
        ? code`
if (${n} - ${s.items.length} > ${MAX_ZERO_WIDTH_ITEMS}) throw $rt.invalid(${p}, ${zeroWidthExpected(true)}, ${v});`
        : raw("")
    }
w.varint(${n});`,
  ];
  s.items.forEach((item, idx) => {
    const t = L.fresh("t", fieldOf(childPath(p, idx)));
    const body = code`const ${t} = ${v}[${idx}];
${emitWrite(item, t, childPath(p, idx), cx, L)}`;
    out.push(block(idx < s.minItems ? undefined : code`${n} > ${idx}`, body));
  });
  if (s.rest !== false) {
    const i = L.fresh("i", fieldOf(p));
    const e = L.fresh("e", fieldOf(p));
    const track = cx.tracksPointers(s.rest) ? pointerTracking(code`${p} + "/" + ${i}`) : undefined;
    out.push(code`let ${i} = ${s.items.length};
${track ? track.before : raw("")}try {
  for (; ${i} < ${n}; ${i}++) {
    const ${e} = ${v}[${i}];
${track ? code`    ${track.each}\n` : raw("")}${indentBy(inLoop(L, () => emitWrite(s.rest as Shape, e, "", cx, L)), "    ")}
  }
} catch (err) {
  $rt.rethrowAtIndex(err, ${p}, ${i});
}${track ? code`\n${track.after}` : raw("")}`);
  }
  return join(out);
}

/**
 * A local holding `obj[key]`. Keys that `Object.prototype` has (`__proto__`, `constructor`, `toString`,
 * `hasOwnProperty`, ...) are read as own properties only: a plain `v.toString` finds the inherited function when
 * the optional property is absent, and the encoder would then see a present property of the wrong type.
 */
function emitObject(s: ObjectShape, v: Code, p: string, cx: ModuleContext, L: Locals, r: Code): Code {
  const layout = objectLayout(s);
  // allOf inheritance: the parent's properties go through its helpers (emit/extends.ts), at the start of bits and fields
  const ext = p === "" ? extensionOf(s, cx) : undefined;
  const from = ext?.k ?? 0;
  const head: Code[] = [code`$rt.gObject(${v}, ${p}${r});`];
  const locals = s.properties.map((prop, i) => {
    if (i < from) return raw("");
    const f = L.fresh("v", prop.name);
    head.push(code`const ${f} = ${readProp(v, prop.name)};`);
    return f;
  });
  const known = cx.knownKeys(s.properties.map((q) => q.name), s);
  let extras: Code | undefined;
  const checks: Code[] = [];
  if (s.additional === false) {
    // cheap unknown-key check: compare key counts; only a mismatch walks the keys
    const sum = ext === undefined ? keySum(s, locals) : inheritedKeySum(s, ext, locals, v, cx);
    checks.push(code`if ($rt.keyCount(${v}) !== ${sum}) $rt.checkClosed(${v}, ${known}, ${p});`);
  } else {
    extras = L.fresh("x", fieldOf(p));
    checks.push(code`const ${extras} = $rt.extraKeys(${v}, ${known});`);
  }
  // presence bitmap: one branch-free expression per byte
  const flat = (f: Code): Code => code`+(${f} !== undefined)`;
  const bitmap: Code[] = [];
  // with a parent: its helper writes its whole bytes and returns the bits of the byte it shares with the child
  let shared: Code | undefined;
  if (ext !== undefined && ext.bits > 0) {
    const call = code`${inheritedBits(ext, cx)}(w, ${v})`;
    if (ext.bits % 8 === 0) bitmap.push(code`${call};`);
    else {
      shared = L.fresh("b", fieldOf(p));
      bitmap.push(code`const ${shared} = ${call};`);
    }
  }
  for (let b = ext === undefined ? 0 : ext.bits >> 3; b * 8 < layout.bits; b++) {
    const terms: Code[] = shared !== undefined && b === ext!.bits >> 3 ? [shared] : [];
    s.properties.forEach((_, i) => {
      const bit = layout.bitOf[i]!;
      if (i >= from && bit >= 0 && bit >> 3 === b) terms.push((bit & 7) === 0 ? flat(locals[i]!) : code`${flat(locals[i]!)} << ${bit & 7}`);
    });
    if (layout.extrasBit >= 0 && layout.extrasBit >> 3 === b) terms.push(code`${flat(extras!)} << ${layout.extrasBit & 7}`);
    bitmap.push(code`w.byte(${terms.length === 0 ? raw("0") : join(terms, " | ")});`);
  }
  const own = layout.order.filter((i) => i >= from);
  const blocks = [
    ...(ext === undefined ? [] : [code`${inheritedFields(ext, cx)}(w, ${v});`]),
    ...own.map((i) => propertyWrite(s, i, locals[i]!, p, cx, L)),
  ];
  const tail: Code[] = [];
  // properties added after the object's dictionary segment: extension records (runtime/features/extensions.ts)
  for (const x of layout.ext) {
    const q = s.properties[x.prop]!;
    const f = locals[x.prop]!;
    // required: writers at its level always send it (defaults only stand in for older writers)
    const fns = cx.extension(x.id, q.name, q.shape, x.level, q.required);
    const write = code`$rt.writeExtension(w, ${x.id}, ${p}, ${q.name}, ${f}, ${fns.writer});`;
    tail.push(q.required ? code`if (${f} === undefined) throw $rt.missing(${p}, ${q.name});
${write}` : code`if (${f} !== undefined) ${write}`);
  }
  if (s.additional !== false && s.additional.kind === "any" && !cx.tracksPointers(s.additional)) {
    // the commonest open object: one runtime call for its extras instead of the loop (same bytes, no
    // definition function passed, so V8 still inlines it)
    const call = code`$rt.wAnyExtras(w, ${v}, ${extras!}, ${p});`;
    tail.push(layout.isMap ? code`if (${extras!} === undefined) w.byte(0);
else ${call}` : code`if (${extras!} !== undefined) ${call}`);
  } else if (s.additional !== false) {
    const k = L.fresh("k", fieldOf(p));
    const e = L.fresh("e", fieldOf(p));
    const track = cx.tracksPointers(s.additional) ? pointerTracking(code`${p} + $rt.pointerSegment(${k})`) : undefined;
    const entries = code`let ${k} = "";
${track ? track.before : raw("")}try {
  for (${k} of ${extras!}) {
${track ? code`    ${track.each}\n` : raw("")}    $rt.wKey(w, ${k});
    const ${e} = ${v}[${k}];
${indentBy(inLoop(L, () => emitWrite(s.additional as Shape, e, "", cx, L)), "    ")}
  }
} catch (err) {
  $rt.rethrowAtIndex(err, ${p}, ${k});
}${track ? code`\n${track.after}` : raw("")}`;
    if (layout.isMap) {
      tail.push(code`if (${extras!} === undefined) w.byte(0);
else {
  w.varint(${extras!}.length);
${indentBy(entries, "  ")}
}`);
    } else {
      tail.push(code`if (${extras!} !== undefined) {
  w.varint(${extras!}.length);
${indentBy(entries, "  ")}
}`);
    }
  }
  if (linesOf(blocks) <= MAX_FUNCTION_LINES) return join([...head, ...checks, ...bitmap, ...blocks, ...tail]);

  // too big for one function (see MAX_FUNCTION_LINES): chunks of property writes in helper functions
  const calls = chunkedWrites(s, [...(ext === undefined ? [] : [{ code: blocks[0]!, locals: [] }]), ...own.map((i, j) => ({ code: blocks[j + (ext === undefined ? 0 : 1)]!, locals: [locals[i]!] }))], cx);
  return join([...head, ...checks, ...bitmap, ...calls, ...tail]);
}

/** The write statements of property `i` of `s` (value in local `f`), checks included. */
function propertyWrite(s: ObjectShape, i: number, f: Code, p: string, cx: ModuleContext, L: Locals): Code {
  const q = s.properties[i]!;
  const fp = childPath(p, q.name);
  const folds = q.required && foldsMissing(q.shape); // the guard reports it missing
  const body = indexMark(cx, s, i, emitWrite(q.shape, f, fp, cx, L, folds)); // field index (emit/peek.ts)
  if (q.required) {
    return folds ? body : code`if (${f} === undefined) throw $rt.missing(${p}, ${q.name});
${body}`;
  }
  // one statement on one line (not a call at a path: generator/emit/at.ts resolves those by whole lines)
  if (!body.text.includes("\n") && !body.text.startsWith("($at")) return code`if (${f} !== undefined) ${body}`;
  return code`if (${f} !== undefined) {
${indentBy(body, "  ")}
}`;
}

/**
 * Too big for one function (see MAX_FUNCTION_LINES): the property writes move, in chunks, into helper functions
 * that take the field locals. The bytes are the same.
 */
function chunkedWrites(s: ObjectShape, blocks: { code: Code; locals: Code[] }[], cx: ModuleContext): Code[] {
  return chunkBlocks(blocks).map((group) => {
    const params = group.flatMap((g) => g.locals);
    const fn = cx.helper("W", s, (fn) => code`function ${fn}(w: $rt.Writer${join(params.map((l) => code`, ${l}: any`), "")}): void {
${indentBy(functionBody(join(group.map((g) => g.code))), "  ")}
}`);
    return code`${fn}(w${join(params.map((l) => code`, ${l}`), "")});`;
  });
}

/** A closed extending object's key count: the parent's (its helper) plus its own. */
function inheritedKeySum(s: ObjectShape, ext: Extension, locals: Code[], v: Code, cx: ModuleContext): Code {
  const own = s.properties.slice(ext.k);
  const required = own.filter((q) => q.required).length;
  const optional = own.flatMap((q, j) => (q.required ? [] : [code`+(${locals[ext.k + j]!} !== undefined)`]));
  return join([code`${inheritedCount(ext, cx)}(${v})`, ...(required > 0 ? [raw(String(required))] : []), ...optional], " + ");
}

const inherited = new WeakMap<ModuleContext, Map<string, Code>>();

/** A helper of parent `ext` (emit/extends.ts), emitted once per parent and kind, when first asked for. */
function inheritedHelper(kind: "count" | "bits" | "fields", ext: Extension, cx: ModuleContext, make: (fn: Code, up: Extension | undefined, from: number) => Code): Code {
  let byKey = inherited.get(cx);
  if (byKey === undefined) inherited.set(cx, (byKey = new Map()));
  const key = `${kind}:${ext.name}`;
  const known = byKey.get(key);
  if (known !== undefined) return known;
  const fn = cx.uniqueName(`$w${kind[0]}_${ext.name}`);
  byKey.set(key, fn);
  // each calls its own parent's for the part it inherits, so a chain of definitions costs one part per link
  const up = extensionOf(ext.shape, cx);
  cx.addFunction(make(fn, up, up?.k ?? 0));
  return fn;
}

const present = (q: { name: string }): Code => code`+(${readProp(name("v"), q.name)} !== undefined)`;

/** `(v) => number`: how many of the parent's properties `v` has (a closed child's key count). */
export function inheritedCount(ext: Extension, cx: ModuleContext): Code {
  return inheritedHelper("count", ext, cx, (fn, up, from) => {
    const own = ext.shape.properties.slice(from);
    const required = own.filter((q) => q.required).length;
    const terms = [...(up === undefined ? [] : [code`${inheritedCount(up, cx)}(v)`]), ...(required > 0 ? [raw(String(required))] : []), ...own.filter((q) => !q.required).map(present)];
    return code`function ${fn}(v: any): number {
  return ${join(terms, " + ")};
}`;
  });
}

/**
 * `(w, v) => number`: writes the parent's whole presence bytes and returns its bits of the byte it shares with the
 * child (bit j of a fresh layout is its j-th optional property).
 */
function inheritedBits(ext: Extension, cx: ModuleContext): Code {
  return inheritedHelper("bits", ext, cx, (fn, up, from) => {
    const body: Code[] = [];
    const upBits = up?.bits ?? 0;
    let b: Code | undefined;
    if (up !== undefined && up.bits > 0) {
      const call = code`${inheritedBits(up, cx)}(w, v)`;
      if (upBits % 8 === 0) body.push(code`${call};`);
      else {
        b = name("b0");
        body.push(code`const ${b} = ${call};`);
      }
    }
    const optional = ext.shape.properties.slice(from).filter((q) => !q.required);
    const termsOf = (byte: number): Code[] => {
      const terms: Code[] = b !== undefined && byte === upBits >> 3 ? [b] : [];
      optional.forEach((q, j) => {
        const bit = upBits + j;
        if (bit >> 3 === byte) terms.push((bit & 7) === 0 ? present(q) : code`${present(q)} << ${bit & 7}`);
      });
      return terms;
    };
    for (let byte = upBits >> 3; (byte + 1) * 8 <= ext.bits; byte++) body.push(code`w.byte(${join(termsOf(byte), " | ")});`);
    const rest = ext.bits % 8 === 0 ? [] : termsOf(ext.bits >> 3);
    body.push(code`return ${rest.length === 0 ? raw("0") : join(rest, " | ")};`);
    return code`function ${fn}(w: $rt.Writer, v: any): number {
${indentBy(join(body), "  ")}
}`;
  });
}

/** `(w, v) => void`: writes the parent's fields, at the parent's (relative) paths. */
function inheritedFields(ext: Extension, cx: ModuleContext): Code {
  return inheritedHelper("fields", ext, cx, (fn, up, from) => {
    const s = ext.shape;
    const own = s.properties.slice(from);
    const F = new Locals();
    const locals = own.map((q) => F.fresh("v", q.name));
    const head = own.map((q, j) => code`const ${locals[j]!} = ${readProp(name("v"), q.name)};`);
    const blocks = [
      ...(up === undefined ? [] : [{ code: code`${inheritedFields(up, cx)}(w, v);`, locals: [] as Code[] }]),
      ...own.map((_, j) => ({ code: propertyWrite(s, from + j, locals[j]!, "", cx, F), locals: [locals[j]!] })),
    ];
    const body = linesOf(blocks.map((x) => x.code)) <= MAX_FUNCTION_LINES ? [...head, ...blocks.map((x) => x.code)] : [...head, ...chunkedWrites(s, blocks, cx)];
    return code`function ${fn}(w: $rt.Writer, v: any): void {
${indentBy(functionBody(join(body)), "  ")}
}`;
  });
}

/** The number of keys a closed object has when it has no unknown ones: the required count plus the optional present. */
function keySum(s: ObjectShape, locals: Code[]): Code {
  const required = s.properties.filter((q) => q.required).length;
  const optional = s.properties.flatMap((q, i) => (q.required ? [] : [code`+(${locals[i]!} !== undefined)`]));
  return join(required > 0 || optional.length === 0 ? [raw(String(required)), ...optional] : optional, " + ");
}

function emitUnion(s: UnionShape, v: Code, p: string, cx: ModuleContext, L: Locals): Code {
  if (s.discriminator) {
    const key = s.discriminator.property;
    const d = L.fresh("d", fieldOf(p));
    const bodies = outlineArms(
      s.branches.map((b) => emitWrite(b, v, p, cx, L)),
      v,
      cx,
      s,
    );
    const cases = s.branches.map((_, i) => {
      const body = bodies[i]!;
      return code`  case ${lit(s.discriminator!.values[i]!)}: {
    ${writeIndex(i)}
${indentBy(body, "    ")}
    break;
  }`;
    });
    const expected = oneOf(s.discriminator.values);
    return code`$rt.gObject(${v}, ${p});
const ${d} = ${readProp(v, key)};
switch (${d}) {
${join(cases)}
  default: throw $rt.invalid(${childPath(p, key)}, ${expected}, ${d});
}`;
  }
  const choices = chooseBranches(s.branches, v, cx);
  const bodies = outlineArms(
    choices.map((c) => emitWrite(s.branches[c.index]!, v, p, cx, L)),
    v,
    cx,
    s,
  );
  const arms = choices.map((c, i) => {
    const body = code`${writeIndex(c.index)}
${bodies[i]!}`;
    if (c.test === undefined) return code`{
${indentBy(body, "  ")}
}`;
    return code`${i === 0 ? raw("") : raw("else ")}if (${c.test}) {
${indentBy(body, "  ")}
}`;
  });
  const last = choices[choices.length - 1]!;
  const tail = last.test === undefined ? raw("") : code`
else throw $rt.invalid(${p}, ${unionExpected(s.branches.length)}, ${v});`;
  // an untested last arm is the else of the chain
  const armsText = arms.map((a, i) => (i > 0 && choices[i]!.test === undefined ? code`else ${a}` : a));
  return code`${join(armsText)}${tail}`;
}

/**
 * Union arms whose code together is too big for one function (see MAX_FUNCTION_LINES) move into helper
 * functions of the value variable (always a plain local); small arms stay inline.
 */
function outlineArms(bodies: Code[], v: Code, cx: ModuleContext, of: Shape): Code[] {
  if (linesOf(bodies) <= MAX_FUNCTION_LINES) return bodies;
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(v.text)) throw new Error(`internal: union value ${v.text} is not a local`);
  return bodies.map((body) => {
    if (linesOf(body) < 8) return body;
    const fn = cx.helper("W", of, (fn) => code`function ${fn}(w: $rt.Writer, ${v}: any): void {
${indentBy(functionBody(body), "  ")}
}`);
    return code`${fn}(w, ${v});`;
  });
}

/** `body` under `if (test)` (or a bare block when `test` is undefined): a one-line body needs no braces. */
export function emitWriteFunction(fn: Code, shape: Shape, recursive: boolean, cx: ModuleContext): Code {
  const L = new Locals();
  const body = functionBody(emitWrite(shape, name("v"), "", cx, L));
  // a one-statement function is one line (extension values, scalar definitions): a schema edit adds one line
  if (!recursive && !body.text.includes("\n")) return code`function ${fn}(w: $rt.Writer, v: any): void { ${body} }`;
  if (!recursive) {
    return code`function ${fn}(w: $rt.Writer, v: any): void {
${indentBy(body, "  ")}
}`;
  }
  return code`function ${fn}(w: $rt.Writer, v: any): void {
  if (++w.depth > $rt.DEFAULT_MAX_DEPTH) throw new $rt.ToonError("DEPTH_LIMIT", "value nested deeper than " + $rt.DEFAULT_MAX_DEPTH + " (a cycle?)");
${indentBy(body, "  ")}
  w.depth--;
}`;
}

/**
 * Evolved codecs: keep `w.ptr` (the JSON-pointer prefixes of enclosing loops and calls) current, so an extension
 * record written inside names its object (only around values that can hold one: ModuleContext.tracksPointers).
 * The top entry is overwritten per element.
 */
function pointerTracking(current: Code): { before: Code; each: Code; after: Code } {
  return { before: code`w.ptr.push("");\n`, each: code`w.ptr[w.ptr.length - 1] = ${current};`, after: code`w.ptr.pop();` };
}

/** Writer and reader functions of one extension property's value (each record has its own string table). */
export function emitExtensionWriter(fn: Code, shape: Shape, cx: ModuleContext): Code {
  return code`function ${fn}(w: $rt.Writer, v: any): void {
${indentBy(functionBody(emitWrite(shape, name("v"), "", cx, new Locals())), "  ")}
}`;
}
