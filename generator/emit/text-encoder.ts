/**
 * The specialised TOON text encoder of a module (`toText`, issue 5). Its output must be byte-identical to the
 * runtime's generic `encodeText`, whose layout depends on the value (key order, which arrays are uniform enough
 * for a table, keyed tables). The generated code therefore follows the value, using the schema to predict it
 * (./text-shapes.ts): it walks an object's keys expecting the schema's order (one pointer comparison per key) and
 * emits declared properties with straight-line code for their shape; it writes arrays of objects the schema
 * proves tabular (every property a required primitive, or a nested group of such) with precomputed headers and
 * one row function per shape; and it hands everything it cannot predict (reordered or unknown keys, `any`,
 * tuples, arrays of arrays, rows that turn out non-uniform, a value of the wrong type) to the runtime's generic
 * building blocks, which append to the same encoder state. Any surprise deeper down (a non-plain object, a depth
 * limit, an error) makes the whole value go through `encodeText` instead (`encodeTextWith`). So the output equals
 * `encodeText`'s for every schema-valid value, and for any other value made of plain JSON data (objects with a
 * toJSON method, Dates, Maps in object-typed positions are read as plain objects, where `encodeText` would
 * normalise them first).
 */
import type { ArrayShape, ObjectShape, Shape, UnionShape } from "../ir/types.ts";
import { Code, code, join, jsonBlock, lit, name, raw } from "../../templates/code.ts";
import { chunkBlocks, linesOf, Locals, MAX_FUNCTION_LINES, type ModuleContext } from "./context.ts";
import { indentBy, readProp } from "./code-helpers.ts";
import { extensionOf, type Extension } from "./extends.ts";
import { encodeKey, type TextDelimiter } from "../../runtime/text/primitives.ts";
import { fieldList, type TextField } from "../../runtime/text/headers.ts";
import { arrayProperty, objOnly, primOnly, probeProperties, resolve, tabularFields } from "./text-shapes.ts";

/** An integer expression `base + k` with constant folding. */
class Num {
  constructor(
    readonly base: string | null,
    readonly k: number,
  ) {}
  plus(n: number): Num {
    return new Num(this.base, this.k + n);
  }
  get code(): Code {
    if (this.base === null) return raw(String(this.k));
    return raw(this.k === 0 ? this.base : `${this.base} + ${this.k}`);
  }
}

/** Where a value is written: an object field (`key: value`), or a list item (`- value`). */
type Pos =
  | { mode: "field"; lead: Code; key: Code; kt: string | Code; fd: Num; lvl: Num; field?: string }
  | { mode: "item"; depth: Num; dash: Code; lvl: Num };

export class TextEncoderEmitter {
  private readonly fns: Code[] = [];
  private readonly defFns = new Map<string, Code>();
  private readonly rowFns = new Map<string, Code>();
  /** allOf parents' field-line writers (emit/extends.ts), by parent. */
  private readonly inheritedWriters = new Map<string, Code>();
  /** Locals of the encoder function being emitted (each function has its own: see withLocals). */
  private L = new Locals();

  constructor(readonly cx: ModuleContext) {}

  /** Functions emitted so far besides the root encoder (definition encoders, row functions, chunk helpers). */
  functions(): Code[] {
    return this.fns;
  }

  /** `function fn(e, v): string | null` encoding a whole value of `shape` (null: let the generic encoder do it). */
  rootEncoder(fn: Code, shape: Shape): Code {
    const body = this.withLocals(() => this.root(shape));
    // nothing to specialise (a root the generic encoder writes as well): no parameters to leave unused
    if (body.text.trim() === "") return code`function ${fn}(_e: $rt.TextState, _v: any): string | null {
  return null;
}`;
    return code`function ${fn}(e: $rt.TextState, v: any): string | null {
${indentBy(body, "  ")}
  return null;
}`;
  }

  /**
   * Run `emit` with fresh locals: names are per function (an edit of one definition renames nothing in the
   * others), and definition encoders are emitted on first use, from inside another function's emission.
   */
  private withLocals(emit: () => Code): Code {
    const outer = this.L;
    this.L = new Locals();
    try {
      return emit();
    } finally {
      this.L = outer;
    }
  }

  /** Statements returning the text of root value `v` (falling through when they cannot). */
  private root(shape: Shape): Code {
    const s = resolve(shape, this.cx) ?? shape;
    if (s.kind === "object") {
      const ks = this.L.fresh("ks");
      const kf = this.L.fresh("kf");
      return code`if (typeof v === "object" && v !== null && !$isArray(v)) {
  const ${ks}: any[] = Object.keys(v);
  if (${ks}.length === 0) return "";
  const ${kf} = ${this.keyed(s, name("v"), ks, new Num(null, 1), new Num(null, 2))};
  if (${kf} !== null) return ${kf};
${indentBy(this.fields(s, name("v"), ks, raw('"\\n"'), new Num(null, 0), new Num(null, 1), true), "  ")}
  return e.out.slice(1);
}`;
    }
    if (s.kind === "array") {
      const n = this.L.fresh("n");
      return code`if ($isArray(v)) {
  const ${n} = v.length;
  if (${n} === 0) return "[]";
${indentBy(this.array(s.items, raw('"\\n"'), name("v"), n, new Num(null, 1), new Num(null, 1), true), "  ")}
  return e.out.slice(1);
}`;
    }
    if (s.kind === "union") {
      // the value's JSON type picks the branch; each branch's code checks the rest
      const objs = s.branches.filter((b) => resolve(b, this.cx)?.kind === "object");
      const arrs = s.branches.filter((b) => resolve(b, this.cx)?.kind === "array");
      const out: Code[] = [];
      if (objs.length === 1) out.push(this.root(objs[0]!));
      if (arrs.length === 1) out.push(this.root(arrs[0]!));
      return join(out);
    }
    return raw("");
  }

  /**
   * The keyed table form of object `v` (keys `ks`), or null: the generic textKeyed, which declines fewer than two
   * keys or a first value that is no object itself. When the first declared property is a primitive (its value is
   * no object), keys that begin with it skip the call.
   */
  private keyed(s: ObjectShape, v: Code, ks: Code, depth: Num, lvl: Num): Code {
    const call = code`$rt.textKeyed(e, ${v}, ${ks}, ${depth.code}, ${lvl.code})`;
    const first = s.properties[0];
    return first !== undefined && first.name !== "__proto__" && primOnly(first.shape, this.cx) ? code`${ks}[0] !== ${first.name} ? ${call} : null` : call;
  }

  /**
   * The fields of object `v` (keys `ks`, non-empty) at `depth`: declared properties in schema order while the
   * keys follow it, then the remaining keys one by one. `lead0` starts the first line (`"\n" + indent`, or the
   * `- ` of a list item); `same`: lead0 is the plain indentation of `depth`.
   */
  private fields(s: ObjectShape, v: Code, ks: Code, lead0: Code, depth: Num, lvl: Num, same: boolean, field?: string): Code {
    const L = this.L;
    const ind = L.fresh("ind", field);
    const j = L.fresh("j", field);
    const lead = same ? ind : L.fresh("lead", field);
    const out: Code[] = [code`const ${ind} = $rt.textNl(e, ${depth.code});`];
    if (!same) out.push(code`let ${lead} = ${lead0};`);
    out.push(code`let ${j} = 0;`);
    // allOf inheritance (emit/extends.ts): the parent's properties go through its helper, which calls its own
    // parent's, so a chain of n definitions costs n parts, not 1 + 2 + ... + n. Field lines only: a list item,
    // whose first field shares the dash line, keeps its fields unrolled
    const ext = same ? extensionOf(s, this.cx) : undefined;
    const blocks: Code[] = ext === undefined ? [] : [this.inheritedCall(ext, v, ks, j, ind, depth, lvl)];
    for (const p of s.properties.slice(ext?.k ?? 0)) blocks.push(this.fieldBlock(p, v, ks, j, lead, ind, depth, lvl, same));
    if (linesOf(blocks) <= MAX_FUNCTION_LINES) out.push(...blocks);
    else {
      // too big for one function (see MAX_FUNCTION_LINES): chunks of properties go to helpers that return `j`
      const bases = [...new Set([depth.base, lvl.base].filter((b): b is string => b !== null))].map((b) => raw(b));
      for (const group of chunkBlocks(blocks.map((c) => ({ code: c })))) {
        const fn = this.cx.uniqueName(`$txc_${this.cx.nameOf(s)}`);
        const params = [code`e: $rt.TextState`, code`${v}: any`, code`${ks}: string[]`, code`${j}: number`, ...(same ? [] : [code`${lead}: string`]), code`${ind}: string`, ...bases.map((b) => code`${b}: number`)];
        this.fns.push(code`function ${fn}(${join(params, ", ")}): number {
${indentBy(join(group.map((g) => g.code)), "  ")}
  return ${j};
}`);
        const args = [raw("e"), v, ks, j, ...(same ? [] : [lead]), ind, ...bases];
        out.push(code`${j} = ${fn}(${join(args, ", ")});`);
        if (!same) out.push(code`if (${j} > 0) ${lead} = ${ind};`);
      }
    }
    const k = L.fresh("k", field);
    const x = L.fresh("x", field);
    const extra: Pos = { mode: "field", lead, key: k, kt: code`$rt.encodeKey(${k})`, fd: depth, lvl };
    const entry =
      s.additional !== false && s.additional.kind !== "any" && s.properties.length === 0
        ? this.value(s.additional, x, extra)
        : code`$rt.textField(e, ${x}, ${lead}, ${k}, ${depth.code}, ${lvl.code});`;
    out.push(code`for (; ${j} < ${ks}.length; ${j}++) {
  const ${k} = ${ks}[${j}];
  const ${x} = ${v}[${k}];
${indentBy(entry, "  ")}
${same ? raw("") : code`  ${lead} = ${ind};\n`}}`);
    return join(out);
  }

  /** The block writing property `p` when it is the next key (`ks[j]`), in schema order. */
  private fieldBlock(p: ObjectShape["properties"][number], v: Code, ks: Code, j: Code, lead: Code, ind: Code, depth: Num, lvl: Num, same: boolean): Code {
    const f = this.L.fresh("v", p.name);
    const kt = encodeKeySafe(p.name);
    const pos: Pos = { mode: "field", lead, key: lit(p.name), kt: kt ?? code`$rt.encodeKey(${p.name})`, fd: depth, lvl, field: p.name };
    const once = this.readOnce(p.shape);
    const body = this.value(p.shape, once ? readProp(v, p.name) : f, pos);
    return code`if (${ks}[${j}] === ${p.name}) {
${once ? raw("") : code`  const ${f} = ${readProp(v, p.name)};\n`}${indentBy(body, "  ")}
${same ? raw("") : code`  ${lead} = ${ind};\n`}  ${j}++;
}`;
  }

  /** `j = $txf_<Parent>(...)`: the parent's properties as field lines, written by its helper (emitted once per parent). */
  private inheritedCall(ext: Extension, v: Code, ks: Code, j: Code, ind: Code, depth: Num, lvl: Num): Code {
    return code`${j} = ${this.inheritedFields(ext)}(e, ${v}, ${ks}, ${j}, ${ind}, ${depth.code}, ${lvl.code});`;
  }

  private inheritedFields(ext: Extension): Code {
    const known = this.inheritedWriters.get(ext.name);
    if (known !== undefined) return known;
    const fn = this.cx.uniqueName(`$txf_${ext.name}`);
    this.inheritedWriters.set(ext.name, fn);
    const up = extensionOf(ext.shape, this.cx);
    const fnCode = this.withLocals(() => {
      const L = this.L;
      const [v, ks, j, ind] = [L.fresh("v"), L.fresh("ks"), L.fresh("j"), L.fresh("ind")];
      const depth = new Num(L.fresh("fd").text, 0);
      const lvl = new Num(L.fresh("lvl").text, 0);
      const blocks: Code[] = up === undefined ? [] : [this.inheritedCall(up, v, ks, j, ind, depth, lvl)];
      for (const p of ext.shape.properties.slice(up?.k ?? 0)) blocks.push(this.fieldBlock(p, v, ks, j, ind, ind, depth, lvl, true));
      return code`function ${fn}(e: $rt.TextState, ${v}: any, ${ks}: string[], ${j}: number, ${ind}: string, ${depth.code}: number, ${lvl.code}: number): number {
${indentBy(join(blocks), "  ")}
  return ${j};
}`;
    });
    this.fns.push(fnCode);
    return fn;
  }

  private generic(pos: Pos, v: Code): Code {
    return pos.mode === "field"
      ? code`$rt.textField(e, ${v}, ${pos.lead}, ${pos.key}, ${pos.fd.code}, ${pos.lvl.code});`
      : code`$rt.textItem(e, ${v}, ${pos.depth.code}, ${pos.lvl.code});`;
  }

  /** The start of the line of `pos` followed by `suffix` (`: ` for a scalar field). */
  private pre(pos: Pos, suffix: string): Code {
    if (pos.mode === "item") return suffix === "" ? pos.dash : code`${pos.dash} + ${suffix}`;
    if (typeof pos.kt === "string") return code`${pos.lead} + ${pos.kt + suffix}`;
    return suffix === "" ? code`${pos.lead} + ${pos.kt}` : code`${pos.lead} + ${pos.kt} + ${suffix}`;
  }

  /**
   * A field of primitive shape: one call of the runtime's guard for its kind (textString, textNumber; textScalar
   * for the others). Per kind, not one for all: the string or number test first keeps toText as fast as inline code.
   */
  private scalarField(s: Shape, pos: Pos & { mode: "field" }, v: Code): Code {
    const kc = typeof pos.kt === "string" ? lit(pos.kt + ": ") : code`${pos.kt} + ": "`;
    const key = typeof pos.kt === "string" && pos.kt === pos.field ? raw("") : code`, ${pos.key}`;
    const r = resolve(s, this.cx);
    const fn = r?.kind === "string" ? "$rt.textString" : r?.kind === "number" || r?.kind === "integer" ? "$rt.textNumber" : "$rt.textScalar";
    return code`${raw(fn)}(e, ${v}, ${pos.lead}, ${kc}, ${pos.fd.code}, ${pos.lvl.code}${key});`;
  }

  /** Whether `value` reads a value of `s` at a field exactly once (then it needs no local: the read goes inline). */
  private readOnce(s: Shape): boolean {
    // an object or an array is read by its type test and again by its body; a union by the test of each arm,
    // unless every branch is a primitive (one guard call)
    if (s.kind === "object" || s.kind === "array") return false;
    return s.kind !== "union" || primOnly(s, this.cx);
  }

  /** Statements writing value `v` of shape `s` at `pos`. */
  private value(s: Shape, v: Code, pos: Pos): Code {
    const sep = pos.mode === "field" ? ": " : "";
    if (pos.mode === "field" && primOnly(s, this.cx) && s.kind !== "ref") return this.scalarField(s, pos, v);
    switch (s.kind) {
      case "string":
        return code`if (typeof ${v} === "string") e.out += ${this.pre(pos, sep)} + $rt.textStr(${v}, e.dc);
else ${this.generic(pos, v)}`;
      case "integer":
      case "number":
        return code`if (typeof ${v} === "number" && ${v} - ${v} === 0) e.out += ${this.pre(pos, sep)} + ${v};
else ${this.generic(pos, v)}`;
      case "boolean":
        return code`if (typeof ${v} === "boolean") e.out += ${this.pre(pos, sep)} + (${v} ? "true" : "false");
else ${this.generic(pos, v)}`;
      case "null":
        return code`if (${v} === null) e.out += ${this.pre(pos, sep + "null")};
else ${this.generic(pos, v)}`;
      case "any":
      case "tuple":
        return this.generic(pos, v);
      case "ref":
        return pos.mode === "field"
          ? code`${this.defFn(s.name, "field")}(e, ${v}, ${pos.lead}, ${pos.key}, ${typeof pos.kt === "string" ? lit(pos.kt) : pos.kt}, ${pos.fd.code}, ${pos.lvl.code});`
          : code`${this.defFn(s.name, "item")}(e, ${v}, ${pos.depth.code}, ${pos.dash}, ${pos.lvl.code});`;
      case "object":
        // a map (no declared properties) has nothing for the schema to predict: the generic encoder writes it
        if (s.properties.length === 0) return this.generic(pos, v);
        return code`if (typeof ${v} === "object" && ${v} !== null && !$isArray(${v})) {
${indentBy(this.object(s, v, pos), "  ")}
} else ${this.generic(pos, v)}`;
      case "array":
        return code`if ($isArray(${v})) {
${indentBy(this.arrayValue(s, v, pos), "  ")}
} else ${this.generic(pos, v)}`;
      case "union":
        return this.union(s, v, pos);
      case "enum":
      case "const":
        if (primOnly(s, this.cx)) return this.primitive(v, pos);
        return this.generic(pos, v);
    }
  }

  private primitive(v: Code, pos: Pos): Code {
    return code`if (${v} === null || typeof ${v} !== "object") e.out += ${this.pre(pos, pos.mode === "field" ? ": " : "")} + $rt.textPrim(${v}, e.dc);
else ${this.generic(pos, v)}`;
  }

  private union(s: UnionShape, v: Code, pos: Pos): Code {
    if (primOnly(s, this.cx)) return this.primitive(v, pos);
    const prims = s.branches.filter((b) => primOnly(b, this.cx));
    const objs = s.branches.filter((b) => objOnly(b, this.cx));
    const arrs = s.branches.filter((b) => resolve(b, this.cx)?.kind === "array");
    const arms: Code[] = [];
    if (prims.length > 0) arms.push(code`if (${v} === null || typeof ${v} !== "object") e.out += ${this.pre(pos, pos.mode === "field" ? ": " : "")} + $rt.textPrim(${v}, e.dc);`);
    if (objs.length === 1) {
      arms.push(code`if (typeof ${v} === "object" && ${v} !== null && !$isArray(${v})) {
${indentBy(this.guarded(objs[0]!, v, pos), "  ")}
}`);
    } else if (objs.length > 1 && s.discriminator !== undefined && objs.length === s.branches.length) {
      const d = this.L.fresh("d");
      const cases = s.branches.map(
        (b, i) => code`case ${lit(s.discriminator!.values[i]!)}: {
${indentBy(this.guarded(b, v, pos), "  ")}
  break;
}`,
      );
      arms.push(code`if (typeof ${v} === "object" && ${v} !== null && !$isArray(${v})) {
  const ${d} = ${readProp(v, s.discriminator.property)};
  switch (${d}) {
${indentBy(join(cases), "    ")}
    default:
      ${this.generic(pos, v)}
  }
}`);
    }
    if (arrs.length === 1) {
      arms.push(code`if ($isArray(${v})) {
${indentBy(this.guarded(arrs[0]!, v, pos), "  ")}
}`);
    }
    if (arms.length === 0) return this.generic(pos, v);
    return code`${join(arms, "\nelse ")}
else ${this.generic(pos, v)}`;
  }

  /**
   * A union branch's statements inside the arm that already tested the value's JSON type: an inline object or array
   * goes straight to its body (its own `value()` would test the type again); anything else is its `value()`.
   */
  private guarded(b: Shape, v: Code, pos: Pos): Code {
    if (b.kind === "object" && b.properties.length > 0) return this.object(b, v, pos);
    if (b.kind === "array") return this.arrayValue(b, v, pos);
    return this.value(b, v, pos);
  }

  /** A non-null, non-array object value at `pos`. */
  private object(s: ObjectShape, v: Code, pos: Pos): Code {
    const field = pos.mode === "field" ? pos.field : undefined;
    const ks = this.L.fresh("ks", field);
    if (pos.mode === "field") {
      const inner = pos.fd.plus(1);
      const kf = this.L.fresh("kf", field);
      return code`const ${ks}: any[] = Object.keys(${v});
if (${ks}.length === 0) e.out += ${this.pre(pos, ":")};
else {
  if (${pos.lvl.plus(1).code} > e.max) $rt.textBail();
  const ${kf} = ${this.keyed(s, v, ks, inner, pos.lvl.plus(2))};
  if (${kf} !== null) e.out += ${this.pre(pos, "")} + ${kf};
  else {
    e.out += ${this.pre(pos, ":")};
${indentBy(this.fields(s, v, ks, raw(""), inner, pos.lvl.plus(1), true, field), "    ")}
  }
}`;
    }
    return code`const ${ks}: any[] = Object.keys(${v});
if (${ks}.length === 0) e.out += $rt.textNl(e, ${pos.depth.code}) + "-";
else {
  if (${pos.lvl.code} > e.max) $rt.textBail();
${indentBy(this.fields(s, v, ks, pos.dash, pos.depth.plus(1), pos.lvl, false), "  ")}
}`;
  }

  /** An array value at `pos`. */
  private arrayValue(s: ArrayShape, v: Code, pos: Pos): Code {
    const field = pos.mode === "field" ? pos.field : undefined;
    const n = this.L.fresh("n", field);
    if (pos.mode === "field") {
      return code`const ${n} = ${v}.length;
if (${n} === 0) e.out += ${this.pre(pos, ": []")};
else {
${indentBy(this.array(s.items, this.pre(pos, ""), v, n, pos.fd.plus(1), pos.lvl.plus(1), true, field), "  ")}
}`;
    }
    return code`const ${n} = ${v}.length;
if (${n} === 0) e.out += ${pos.dash} + "[0" + e.mk + "]:";
else {
${indentBy(this.array(s.items, pos.dash, v, n, pos.depth.plus(1), pos.lvl, false), "  ")}
}`;
  }

  /**
   * A non-empty array `v` (length `n`) of `items` whose header line starts with `pre`; items or rows at `cd`;
   * `lvl` as the generic emitArray's; `tab`: the tabular form is allowed.
   */
  private array(items: Shape, pre: Code, v: Code, n: Code, cd: Num, lvl: Num, tab: boolean, field?: string): Code {
    const L = this.L;
    const generic = code`$rt.textArray(e, ${pre}, ${v}, ${cd.code}, ${lvl.code}, ${tab});`;
    if (primOnly(items, this.cx)) {
      // inline `key[N]: a,b,c` when every item is a primitive (runtime/text/generated-encoder.ts textPrimitives)
      const r = resolve(items, this.cx)!;
      const kind = r.kind === "string" ? 0 : r.kind === "number" || r.kind === "integer" ? 1 : 2;
      return code`$rt.textPrimitives(e, ${pre}, ${v}, ${kind}, ${cd.code}, ${lvl.code}, ${tab});`;
    }
    if (!objOnly(items, this.cx)) return generic;
    const table = tab ? tabularFields(items, this.cx) : null;
    if (table !== null) {
      const row = this.rowFn(table.shape, table.fields);
      // the field list for the document's delimiter, as the generic fieldList writes it: the names are known, so
      // only the delimiter is left to the run (a raw NUL cannot occur in a list: encodeKey escapes controls)
      const header = join(
        ("]" + fieldList(table.fields, "\0" as TextDelimiter) + ":")
          .split("\0")
          .map((piece) => lit(piece)),
        " + e.d + ",
      );
      const body = L.fresh("b", field);
      const ind = L.fresh("ind", field);
      const i = L.fresh("i", field);
      const c = L.fresh("c", field);
      return code`const ${ind} = $rt.textNl(e, ${cd.code});
let ${body} = "";
let ${i} = 0;
if (${lvl.plus(table.depth).code} <= e.max) {
  for (; ${i} < ${n}; ${i}++) {
    const ${c} = ${row}(e, ${v}[${i}]);
    if (${c} === null) break;
    ${body} += ${ind} + ${c};
  }
}
if (${i} === ${n}) e.out += ${pre} + "[" + ${n} + e.mk + ${header} + ${body};
else ${generic}`;
    }
    const x0 = L.fresh("x", field);
    const t = L.fresh("t", field);
    const i = L.fresh("i", field);
    const dash = L.fresh("dash", field);
    const x = L.fresh("x", field);
    const arrProp = tab ? arrayProperty(items, this.cx) : undefined;
    const probes = tab && arrProp === undefined ? probeProperties(items, this.cx) : [];
    const attemptTable = code`${t} = $rt.textTable(e, ${v}, ${cd.code}, ${lvl.plus(1).code});`;
    let attempt: Code;
    if (!tab) attempt = raw("");
    else if (arrProp !== undefined) attempt = code`if (!$isArray(${readProp(x0, arrProp)})) ${attemptTable}\n  `;
    else if (probes.length === 0) attempt = code`${attemptTable}\n  `;
    else {
      // rows that differ in whether they have an optional property have different keys: no table (cheap test
      // before the generic attempt, which would build the first rows' cells first)
      const k = L.fresh("k", field);
      const r = L.fresh("r", field);
      const differs = join(
        probes.map((q) => code`$rt.hasOwn(${r}, ${q}) !== $rt.hasOwn(${x0}, ${q})`),
        " || ",
      );
      attempt = code`let ${k} = 1;
  for (; ${k} < ${n}; ${k}++) {
    const ${r} = ${v}[${k}];
    if (typeof ${r} !== "object" || ${r} === null || ${differs}) break;
  }
  if (${k} === ${n}) ${attemptTable}
  `;
    }
    const item: Pos = { mode: "item", depth: cd, dash, lvl: lvl.plus(1) };
    const body = this.value(items, x, item);
    // items the generic encoder writes compute their own line start: no `dash` (noUnusedLocals)
    const dashLine = new RegExp(`\\b${dash.text.replace(/\$/g, "\\$")}\\b`).test(body.text) ? code`\n    const ${dash} = $rt.textNl(e, ${cd.code}) + "- ";` : raw("");
    return code`const ${x0} = ${v}[0];
if (typeof ${x0} !== "object" || ${x0} === null || $isArray(${x0}) || ${lvl.code} > e.max) ${generic}
else {
  let ${t}: string | null = null;
  ${attempt}if (${t} !== null) e.out += ${pre} + ${t};
  else {
    e.out += ${pre} + "[" + ${n} + e.mk + "]:";${dashLine}
    for (let ${i} = 0; ${i} < ${n}; ${i}++) {
      const ${x} = ${v}[${i}];
      if (${x} === undefined) $rt.textBail(); // a hole: the generic encoder refuses it at its index, without walking the length
${indentBy(body, "      ")}
    }
  }
}`;
  }

  /** `function $trN(e, r): string | null`: the cells of one table row of `s`, or null when `r` does not fit. */
  private rowFn(s: ObjectShape, fields: TextField[]): Code {
    const key = JSON.stringify([s.schemaPath, fields]);
    const known = this.rowFns.get(key);
    if (known !== undefined) return known;
    const fn = this.cx.uniqueName(`$tr_${this.cx.nameOf(s)}`);
    this.rowFns.set(key, fn);
    const names = s.properties.map((p) => p.name);
    const keyTest =
      names.length <= 24
        ? code`if (ks.length !== ${names.length}${join(
            names.map((k, i) => code` || ks[${i}] !== ${k}`),
            "",
          )}) return null;`
        : code`if (ks.length !== ${names.length}) return null;
const kn = ${this.cx.constant("tkeys", code`${jsonBlock(names)} as const`, s)};
for (let i = 0; i < ${names.length}; i++) if (ks[i] !== kn[i]) return null;`;
    /** The code of cell `i`, appending to `s` (assigning it when `first`). */
    const cell = (p: (typeof s.properties)[number], i: number, first: boolean): Code => {
      const f = name(`f${i}`);
      const glue = first ? code`s = ` : code`s += e.d + `;
      const read = code`const ${f} = ${readProp(name("r"), p.name)};`;
      if (!primOnly(p.shape, this.cx)) {
        const sub = tabularFields(p.shape, this.cx)!;
        const subFn = this.rowFn(sub.shape, sub.fields);
        const c = name(`c${i}`);
        return code`${read}
const ${c} = ${subFn}(e, ${f});
if (${c} === null) return null;
${glue}${c};`;
      }
      // a primitive cell, whatever its kind: the runtime's one cell guard (null: not a primitive, no table)
      return code`const ${f} = $rt.textCell(${readProp(name("r"), p.name)}, e.dc);
if (${f} === null) return null;
${glue}${f};`;
    };
    const cells = s.properties.map((p, i) => cell(p, i, i === 0));
    if (linesOf(cells) <= MAX_FUNCTION_LINES) {
      // every cell, then one test: a cell after one that declines is computed in vain, but only on a row that is
      // no table row anyway, and a throw there hands the value to the generic encoder as any throw does
      const vars = s.properties.map((p, i) => (primOnly(p.shape, this.cx) ? name(`f${i}`) : name(`c${i}`)));
      const lines = s.properties.map((p, i) => {
        const read = readProp(name("r"), p.name);
        if (primOnly(p.shape, this.cx)) return code`const ${vars[i]!} = $rt.textCell(${read}, e.dc);`;
        const sub = tabularFields(p.shape, this.cx)!;
        return code`const ${vars[i]!} = ${this.rowFn(sub.shape, sub.fields)}(e, ${read});`;
      });
      this.fns.push(code`function ${fn}(e: $rt.TextState, r: any): string | null {
  if (typeof r !== "object" || r === null || $isArray(r)) return null;
  const ks = Object.keys(r);
${indentBy(keyTest, "  ")}
${indentBy(join(lines), "  ")}
  return ${join(
    vars.map((v) => code`${v} === null`),
    " || ",
  )} ? null : ${join(vars, " + e.d + ")};
}`);
      return fn;
    }
    // too big for one function (see MAX_FUNCTION_LINES): chunks of cells come from helpers
    const indexed = s.properties.map((p, i) => ({ code: cells[i]!, p, i }));
    const parts: Code[] = [];
    chunkBlocks(indexed).forEach((group, g) => {
      const part = this.cx.uniqueName(`$trc_${this.cx.nameOf(s)}`);
      this.fns.push(code`function ${part}(e: $rt.TextState, r: any): string | null {
  let s: string;
${indentBy(join(group.map((x, k) => cell(x.p, x.i, k === 0))), "  ")}
  return s;
}`);
      const c = name(`p${g}`);
      parts.push(code`const ${c} = ${part}(e, r);
if (${c} === null) return null;
${g === 0 ? code`s = ` : code`s += e.d + `}${c};`);
    });
    this.fns.push(code`function ${fn}(e: $rt.TextState, r: any): string | null {
  if (typeof r !== "object" || r === null || $isArray(r)) return null;
  const ks = Object.keys(r);
${indentBy(keyTest, "  ")}
  let s: string;
${indentBy(join(parts), "  ")}
  return s;
}`);
    return fn;
  }

  /** The encoder function of definition `n` in field or item mode (emitted on first use). */
  private defFn(n: string, mode: "field" | "item"): Code {
    const key = mode + ":" + n;
    const known = this.defFns.get(key);
    if (known !== undefined) return known;
    const fn = this.cx.uniqueName(mode === "field" ? `$tf${n}` : `$ti${n}`);
    this.defFns.set(key, fn);
    const shape = this.cx.def(n).shape;
    const v = name("v");
    if (mode === "field") {
      const pos: Pos = { mode: "field", lead: name("lead"), key: name("key"), kt: name("kt"), fd: new Num("fd", 0), lvl: new Num("lvl", 0) };
      const body = this.withLocals(() => this.value(shape, v, pos));
      this.fns.push(code`function ${fn}(e: $rt.TextState, v: any, lead: string, key: string, kt: string, fd: number, lvl: number): void {
${indentBy(body, "  ")}
}`);
    } else {
      const pos: Pos = { mode: "item", depth: new Num("depth", 0), dash: name("dash"), lvl: new Num("lvl", 0) };
      const body = this.withLocals(() => this.value(shape, v, pos));
      this.fns.push(code`function ${fn}(e: $rt.TextState, v: any, depth: number, dash: string, lvl: number): void {
${indentBy(body, "  ")}
}`);
    }
    return fn;
  }
}

function encodeKeySafe(k: string): string | undefined {
  try {
    return encodeKey(k);
  } catch {
    return undefined; // a lone surrogate: the runtime throws at encode time, as the generic encoder does
  }
}
