/**
 * TOON text emission (issue 5): per schema, a specialised text encoder (`toText`), a check pass for the text
 * decoder (`fromText`, `fromModelOutput`) and a prompt snippet (`formatInstructions`).
 *
 * Encoder. The output must be byte-identical to the runtime's generic `encodeText`, whose layout depends on the
 * value (key order, which arrays are uniform enough for a table, keyed tables). The generated code therefore
 * follows the value, using the schema to predict it: it walks an object's keys expecting the schema's order
 * (one pointer comparison per key) and emits declared properties with straight-line code for their shape; it
 * writes arrays of objects the schema proves tabular (every property a required primitive, or a nested group of
 * such) with precomputed headers and one row function per shape; and it hands everything it cannot predict
 * (reordered or unknown keys, `any`, tuples, arrays of arrays, rows that turn out non-uniform, a value of the
 * wrong type) to the runtime's generic building blocks, which append to the same encoder state. Any surprise
 * deeper down (a non-plain object, a depth limit, an error) makes the whole value go through `encodeText`
 * instead (`encodeTextWith`). So the output equals `encodeText`'s for every schema-valid value, and for any other
 * value made of plain JSON data (objects with a toJSON method, Dates, Maps in object-typed positions are read as
 * plain objects, where `encodeText` would normalise them first).
 *
 * Check pass. `fromText` decodes with the runtime (`decodeTextExact`) and runs a generated pass over the value:
 * structure checks (types, required and unknown properties, tuple lengths, enum/const) and coercions per schema
 * (runtime/text/check.ts): one guard call a position, the guards the interpreted pass
 * (runtime/codec/engine/text-check.ts, which `compileTextCheck` runs on the IR for the CLI) calls too.
 */
import type { ArrayShape, ObjectShape, SchemaIR, Shape, UnionShape } from "../ir/types.ts";
import { Code, code, join, jsonBlock, jsonLit, lit, name, raw, stringBlock } from "../../templates/code.ts";
import { childPath, chunkBlocks, fieldOf, isPrimitive, linesOf, Locals, MAX_FUNCTION_LINES, type ModuleContext } from "./context.ts";
import { inheritedCount } from "./write.ts";
import { indentBy, readProp } from "./code-helpers.ts";
import { extensionOf, type Extension } from "./extends.ts";
import { encodeKey, encodeText, fieldList, type TextDelimiter, type TextField } from "../../runtime/text/encode.ts";
import type { TextCheckFn } from "../../runtime/text/check.ts";
import { formatOf } from "../../runtime/codec/formats.ts";
import { categoryMasks, nullableOf, textCheckOf } from "../../runtime/codec/engine/text-check.ts";
import type { PayloadHints } from "../../runtime/text/model-output.ts";
import { fillSpecOf } from "./model-fill.ts";

// ---------------------------------------------------------------------------------------------------------------
// Static facts about shapes

interface Defs {
  def(name: string): { shape: Shape };
}

/** The shape behind refs (undefined for a ref cycle with nothing in between). */
function resolve(s: Shape, cx: Defs, seen: Set<string> = new Set()): Shape | undefined {
  while (s.kind === "ref") {
    if (seen.has(s.name)) return undefined;
    seen.add(s.name);
    s = cx.def(s.name).shape;
  }
  return s;
}

/** Only ever a primitive (string, number, boolean, null). */
function primOnly(s: Shape, cx: Defs, seen: Set<string> = new Set()): boolean {
  const r = resolve(s, cx, seen);
  if (r === undefined) return false;
  switch (r.kind) {
    case "string":
    case "integer":
    case "number":
    case "boolean":
    case "null":
      return true;
    case "const":
      return isPrimitive(r.value);
    case "enum":
      return r.values.every(isPrimitive);
    case "union":
      return r.branches.every((b) => primOnly(b, cx, new Set(seen)));
    default:
      return false;
  }
}

/** Only ever a (non-array) object. */
function objOnly(s: Shape, cx: Defs, seen: Set<string> = new Set()): boolean {
  const r = resolve(s, cx, seen);
  if (r === undefined) return false;
  if (r.kind === "object") return true;
  if (r.kind === "union") return r.branches.every((b) => objOnly(b, cx, new Set(seen)));
  return false;
}

/** Only ever an array. */
function arrOnly(s: Shape, cx: Defs): boolean {
  const r = resolve(s, cx);
  return r !== undefined && (r.kind === "array" || r.kind === "tuple");
}

/**
 * The header fields when every value of `s` is an object the schema proves fits a table row: at least one
 * property, all required, each a primitive or (a nested group) such an object. Null otherwise.
 */
function tabularFields(s: Shape, cx: Defs, depth = 0): { fields: TextField[]; shape: ObjectShape; depth: number } | null {
  const r = resolve(s, cx);
  if (r === undefined || r.kind !== "object" || r.properties.length === 0 || depth > 8) return null;
  const fields: TextField[] = [];
  let deepest = 1;
  for (const p of r.properties) {
    if (!p.required || p.name === "__proto__") return null;
    if (primOnly(p.shape, cx)) fields.push(p.name);
    else {
      const sub = tabularFields(p.shape, cx, depth + 1);
      if (sub === null) return null;
      fields.push({ name: p.name, fields: sub.fields });
      deepest = Math.max(deepest, sub.depth + 1);
    }
  }
  return { fields, shape: r, depth: deepest };
}

/**
 * Up to 8 property names that a value of object (or object union) `s` may or may not have: rows that differ in
 * one of them have different keys, so they cannot form a table.
 */
function probeProperties(s: Shape, cx: Defs): string[] {
  const r = resolve(s, cx);
  if (r === undefined) return [];
  const objects: ObjectShape[] = [];
  const collect = (x: Shape): void => {
    const y = resolve(x, cx);
    if (y?.kind === "object") objects.push(y);
    else if (y?.kind === "union") y.branches.forEach(collect);
  };
  collect(r);
  const names = new Set<string>();
  for (const o of objects) for (const p of o.properties) names.add(p.name);
  const always = (n: string): boolean => objects.every((o) => o.properties.some((p) => p.name === n && p.required));
  return [...names].filter((n) => !always(n)).slice(0, 8);
}

/** A required property of object `s` that is always an array (so rows of `s` never form a table). */
function arrayProperty(s: Shape, cx: Defs): string | undefined {
  const r = resolve(s, cx);
  if (r === undefined || r.kind !== "object") return undefined;
  return r.properties.find((p) => p.required && p.name !== "__proto__" && arrOnly(p.shape, cx))?.name;
}

// ---------------------------------------------------------------------------------------------------------------
// Encoder emission

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

export class TextEmitter {
  private readonly fns: Code[] = [];
  private readonly defFns = new Map<string, Code>();
  private readonly rowFns = new Map<string, Code>();
  private readonly checkFns = new Map<string, Code>();
  /** allOf parents' field-line writers and property checks (emit/extends.ts), by parent. */
  private readonly inheritedWriters = new Map<string, Code>();
  /** allOf parents' property checks, by parent. */
  private readonly inheritedChecks = new Map<string, Code>();
  /** Locals of the encoder function being emitted (each function has its own: see withLocals). */
  private L = new Locals();

  constructor(readonly cx: ModuleContext) {}

  /** Functions emitted so far (definition encoders and checkers, row functions, union branch checkers). */
  functions(): Code[] {
    return this.fns;
  }

  // --- encoder --------------------------------------------------------------------------------------------

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
    switch (s.kind) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
      case "null":
      case "any":
      case "tuple":
      case "ref":
        return true;
      case "enum":
      case "const":
        return true;
      case "union":
        return primOnly(s, this.cx);
      default:
        return false;
    }
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
      // inline `key[N]: a,b,c` when every item is a primitive (runtime/text/encode.ts textPrimitives)
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

  // --- check pass -----------------------------------------------------------------------------------------

  /** The checker function of a definition (or of the root, under the codec's name); emitted on first use. */
  checker(n: string, shape: Shape): Code {
    const known = this.checkFns.get("def:" + n);
    if (known !== undefined) return known;
    const fn = this.cx.uniqueName(`$ck${n}`);
    this.checkFns.set("def:" + n, fn);
    this.fns.push(this.checkFunction(fn, shape));
    return fn;
  }

  private checkFunction(fn: Code, shape: Shape): Code {
    const L = new Locals();
    const body = this.check(shape, name("v"), "", (x) => code`v = ${x};`, L);
    return code`function ${fn}(v: any): any {
${indentBy(body, "  ")}
  return v;
}`;
  }

  /** Checker of a union branch (a definition's own for refs). */
  private branchChecker(s: Shape): Code {
    if (s.kind === "ref") return this.checker(s.name, this.cx.def(s.name).shape);
    const key = "shape:" + JSON.stringify(s);
    const known = this.checkFns.get(key);
    if (known !== undefined) return known;
    const fn = this.cx.uniqueName(`$ckb_${this.cx.nameOf(s)}`);
    this.checkFns.set(key, fn);
    this.fns.push(this.checkFunction(fn, s));
    return fn;
  }

  /**
   * The guard call checking `v` (the value at static path `p`) as an expression: the checked, coerced value.
   * Every kind is one call of its runtime guard (runtime/text/check.ts), the same the interpreted pass makes;
   * objects, tuples and unions are a call of their own checker function.
   */
  private guard(s: Shape, v: Code, p: string): Code {
    const cx = this.cx;
    switch (s.kind) {
      case "const":
      case "enum": {
        const values = s.kind === "const" ? [s.value] : s.values;
        if (values.every(isPrimitive)) return code`$rt.tcEnum(${v}, ${p}, ${cx.constant("tenum", code`${jsonBlock(values)} as const`, s)})`;
        return code`$rt.tcJsonEnum(${v}, ${p}, ${cx.jsonConstant(values, s)})`;
      }
      case "array":
        return code`$rt.tcArray(${v}, ${p}, ${this.itemCheck(s.items)})`;
      case "union": {
        const other = nullableOf(s);
        if (other !== undefined) return code`$rt.tcOrNull(${v}, ${p}, ${this.itemCheck(other)})`;
        break;
      }
      case "object":
      case "tuple":
      case "ref":
        break;
      default:
        return code`${this.itemCheck(s)}(${v}, ${p})`;
    }
    const fn = this.itemCheck(s);
    return p === "" ? code`${fn}(${v})` : code`$rt.tcRef(${v}, ${p}, ${fn})`;
  }

  /** A check function `(v) => checked` for values of `s` (errors relative to the value): a guard or a checker. */
  private itemCheck(s: Shape): Code {
    switch (s.kind) {
      case "string":
        return raw(`$rt.${formatOf(s).textGuard ?? "tcString"}`);
      case "integer":
        if (!s.int64) return raw("$rt.tcInteger");
        // "int64": "bigint": the int64 guard's value as a bigint, with no runtime export of its own (formats.ts readAs)
        return formatOf(s).readAs === "BigInt" ? raw("((v: unknown, p?: string) => BigInt($rt.tcInt64(v, p)))") : raw("$rt.tcInt64");
      case "number":
        return raw("$rt.tcNumber");
      case "boolean":
        return raw("$rt.tcBoolean");
      case "null":
        return raw("$rt.tcNull");
      case "any":
        return raw("$rt.tcAny");
      default:
        return this.branchChecker(s);
    }
  }

  /** Statements checking `v` (the value at static path `p`); `set(x)` stores a coerced replacement. */
  private check(s: Shape, v: Code, p: string, set: (x: Code) => Code, L: Locals): Code {
    switch (s.kind) {
      case "object":
        return this.checkObject(s, v, p, L);
      case "tuple": {
        const max = s.rest === false ? s.items.length : -1;
        const range = max < 0 ? `at least ${s.minItems} items` : s.minItems === max ? `exactly ${max} items` : `${s.minItems} to ${max} items`;
        const out: Code[] = [
          code`if (!$isArray(${v}) || ${v}.length < ${s.minItems}${max >= 0 ? code` || ${v}.length > ${max}` : raw("")}) throw $rt.textInvalid(${p}, ${"an array of " + range}, ${v});`,
        ];
        s.items.forEach((item, idx) => {
          const store = code`${v}[${idx}] = ${this.guard(item, code`${v}[${idx}]`, childPath(p, idx))};`;
          out.push(idx < s.minItems ? store : code`if (${v}.length > ${idx}) ${store}`);
        });
        if (s.rest !== false) {
          const i = L.fresh("i", fieldOf(p));
          out.push(code`let ${i} = ${s.items.length};
try {
  for (; ${i} < ${v}.length; ${i}++) ${v}[${i}] = ${this.itemCheck(s.rest)}(${v}[${i}]);
} catch (e) {
  $rt.textRethrowAt(e, ${p}, ${i});
}`);
        }
        return join(out);
      }
      case "union":
        if (nullableOf(s) === undefined) return this.checkUnion(s, v, p, set, L);
    }
    return set(this.guard(s, v, p));
  }

  private checkObject(s: ObjectShape, v: Code, p: string, L: Locals): Code {
    const cx = this.cx;
    const out: Code[] = [code`$rt.tcObject(${v}, ${p});`];
    // allOf inheritance (emit/extends.ts): the parent's properties are checked by its helper, which calls its own
    // parent's, so a chain of n definitions costs n parts, not 1 + 2 + ... + n
    const ext = p === "" ? extensionOf(s, cx) : undefined;
    const from = ext?.k ?? 0;
    const { blocks, terms } = this.propertyChecks(s, from, v, p);
    if (ext !== undefined) blocks.unshift(code`${this.inheritedCheck(ext)}(${v});`);
    const known = cx.knownKeys(s.properties.map((q) => q.name), s);
    const split = linesOf(blocks) > MAX_FUNCTION_LINES;
    out.push(...this.chunkedChecks(blocks, v, this.cx.nameOf(s)));
    if (split && s.additional === false) {
      out.push(code`$rt.checkClosed(${v}, ${known}, ${p});`);
    } else if (s.additional === false) {
      const required = s.properties.slice(from).filter((q) => q.required).length;
      const sum =
        ext !== undefined
          ? join([code`${inheritedCount(ext, cx)}(${v})`, ...(required > 0 ? [raw(String(required))] : []), ...terms], " + ")
          : terms.length === 0
            ? raw(String(required))
            : required === 0
              ? join(terms, " + ")
              : join([raw(String(required)), ...terms], " + ");
      out.push(code`if ($rt.keyCount(${v}) !== ${sum}) $rt.checkClosed(${v}, ${known}, ${p});`);
    } else if (s.additional.kind === "any") {
      out.push(code`$rt.tcExtras(${v}, ${known});`);
    } else {
      const k = L.fresh("k", fieldOf(p));
      const skip = s.properties.length > 0 ? code`    if (${known}.has(${k})) continue;\n` : raw("");
      out.push(code`let ${k} = "";
try {
  for (${k} of Object.keys(${v})) {
${skip}    $rt.setOwn(${v}, ${k}, ${this.guard(s.additional, code`${v}[${k}]`, "")});
  }
} catch (e) {
  $rt.textRethrowAt(e, ${p}, ${k});
}`);
    }
    return join(out);
  }

  /** One statement per property from index `from` on (its guard, its store) and the presence terms of the optional ones. */
  private propertyChecks(s: ObjectShape, from: number, v: Code, p: string): { blocks: Code[]; terms: Code[] } {
    const blocks: Code[] = [];
    const terms: Code[] = [];
    for (const q of s.properties.slice(from)) {
      // one line a property: its guard reads it, throws when a required one is missing, and stores the result
      const read = readProp(v, q.name);
      const g = this.guard(q.shape, read, childPath(p, q.name));
      const store = q.name === "__proto__" ? code`$rt.setOwn(${v}, "__proto__", ${g});` : code`${propOf(v, q.name)} = ${g};`;
      blocks.push(q.required ? store : code`if (${read} !== undefined) ${store}`);
      if (!q.required) terms.push(code`(${read} !== undefined ? 1 : 0)`);
    }
    return { blocks, terms };
  }

  /** `$ckf_<Parent>(v)`: checks the parent's properties of an object at the root of its check (emitted once per parent). */
  private inheritedCheck(ext: Extension): Code {
    const known = this.inheritedChecks.get(ext.name);
    if (known !== undefined) return known;
    const fn = this.cx.uniqueName(`$ckf_${ext.name}`);
    this.inheritedChecks.set(ext.name, fn);
    const up = extensionOf(ext.shape, this.cx);
    const v = name("v");
    const { blocks } = this.propertyChecks(ext.shape, up?.k ?? 0, v, "");
    if (up !== undefined) blocks.unshift(code`${this.inheritedCheck(up)}(${v});`);
    this.fns.push(code`function ${fn}(${v}: any): void {
${indentBy(join(this.chunkedChecks(blocks, v, ext.name)), "  ")}
}`);
    return fn;
  }

  /**
   * Property check statements as they are, or, when too many for one function (see MAX_FUNCTION_LINES), calls of
   * helpers `$ckc_<owner>` that each check a chunk of them.
   */
  private chunkedChecks(blocks: Code[], v: Code, owner: string): Code[] {
    if (linesOf(blocks) <= MAX_FUNCTION_LINES) return blocks;
    return chunkBlocks(blocks.map((c) => ({ code: c }))).map((group) => {
      const fn = this.cx.uniqueName(`$ckc_${owner}`);
      this.fns.push(code`function ${fn}(${v}: any): void {
${indentBy(join(group.map((g) => g.code)), "  ")}
}`);
      return code`${fn}(${v});`;
    });
  }

  private checkUnion(s: UnionShape, v: Code, p: string, set: (x: Code) => Code, L: Locals): Code {
    const cx = this.cx;
    const fns = s.branches.map((b) => this.branchChecker(b));
    const masks = s.branches.map((b) => categoryMasks(b, (n) => cx.def(n).shape));
    const table = cx.constant("tunion", code`[${fns}] as const`, s);
    const exact = cx.constant("tmask", code`[${masks.map((m) => m.exact)}] as const`, `${cx.nameOf(s)}_exact`);
    const coercible = cx.constant("tmask", code`[${masks.map((m) => m.coercible)}] as const`, `${cx.nameOf(s)}_coercible`);
    const general = set(code`$rt.tcUnion(${v}, ${p}, ${table}, ${exact}, ${coercible})`);
    if (s.discriminator !== undefined) {
      const d = L.fresh("d", fieldOf(p));
      const cases = s.branches.map((b, i) => {
        const call = code`${fns[i]!}(${v})`;
        const body = p === "" ? set(call) : code`try {
  ${set(call)}
} catch (e) {
  $rt.textRethrow(e, ${p});
}`;
        return code`case ${lit(s.discriminator!.values[i]!)}: {
${indentBy(body, "  ")}
  break;
}`;
      });
      return code`$rt.tcObject(${v}, ${p});
const ${d} = ${readProp(v, s.discriminator.property)};
switch (${d}) {
${indentBy(join(cases), "  ")}
  default:
    ${general}
}`;
    }
    // a value that one primitive branch takes as is needs no search
    const direct = s.branches.map((b) => exactTest(b, v, cx)).filter((t): t is Code => t !== undefined);
    if (direct.length > 0) return code`if (!(${join(direct, " || ")})) ${general}`;
    return general;
  }

  // --- model output -----------------------------------------------------------------------------------------

  hints(shape: Shape): PayloadHints {
    return payloadHints(shape, this.cx);
  }
}

function encodeKeySafe(k: string): string | undefined {
  try {
    return encodeKey(k);
  } catch {
    return undefined; // a lone surrogate: the runtime throws at encode time, as the generic encoder does
  }
}

/** `obj.key` / `obj["key"]` for a store (never `__proto__`). */
function propOf(obj: Code, key: string): Code {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? code`${obj}.${raw(key)}` : code`${obj}[${key}]`;
}

/** A test that `v` is taken by primitive branch `s` exactly as it is (no coercion, no search). */
function exactTest(s: Shape, v: Code, cx: ModuleContext): Code | undefined {
  const r = resolve(s, cx);
  if (r === undefined) return undefined;
  switch (r.kind) {
    case "string":
      return code`typeof ${v} === "string"`;
    case "integer":
      // "int64": "bigint": the branch turns the number into a bigint, so the number is not taken as it is
      if (formatOf(r).readAs === "BigInt") return undefined;
      return code`(typeof ${v} === "number" && $isInteger(${v}))`;
    case "number":
      return code`typeof ${v} === "number"`;
    case "boolean":
      return code`typeof ${v} === "boolean"`;
    case "null":
      return code`${v} === null`;
    default:
      return undefined;
  }
}

function payloadHints(shape: Shape, cx: Defs): PayloadHints {
  const r = resolve(shape, cx);
  if (r?.kind === "object") return { root: "object", keys: r.properties.map((p) => p.name) };
  if (r?.kind === "array" || r?.kind === "tuple") return { root: "array", keys: [] };
  return { root: "other", keys: [] };
}

// ---------------------------------------------------------------------------------------------------------------
// Module section

export interface TextSection {
  /** Functions to place in the module body. */
  functions: Code;
  /** `toText` and `fromText` of the TOON v4 group, each ending with a comma. */
  members: Code;
  /** `toText` and `fromText` of the dense group. */
  denseMembers: Code;
  /** The prompt snippet's constant (`formatInstructions`: what a model is told). */
  instructions: Code;
  /** The reader spec's members after `name` and `descriptor` (runtime/text/reader/payload-reader.ts `ReaderSpec`). */
  readerSpec: Code;
}

/**
 * The text part of a generated module for codec `codec` (type and value name) with root `root`. Call before
 * `cx.hoisted()` is read: it hoists its own constants.
 */
export function emitTextSection(ir: SchemaIR, cx: ModuleContext, engine = false): TextSection {
  const t = new TextEmitter(cx);
  const rootIsDefinition = ir.root.kind === "ref" && ir.root.name === ir.name;
  const enc = name(`$tx${ir.name}`);
  // written for size (emit/module.ts): the generic encoder (the one the specialised one equals) and the engine's check
  const encoder = engine ? undefined : t.rootEncoder(enc, ir.root);
  const check = engine ? raw("$textCheck") : rootIsDefinition ? t.checker(ir.name, cx.def(ir.name).shape) : t.checker(ir.name, ir.root);
  const hints = cx.constant("thints", code`${jsonBlock(t.hints(ir.root))} as const`);
  const fillSpec = fillSpecOf(ir, cx);
  // laid out one definition a line (root, then each of defs), so that a new property changes one line
  const fill = fillSpec === undefined ? undefined : cx.constant("tfill", code`${fillBlock(fillSpec)} as $rt.FillSpec`);
  const instructions = cx.constant("tinstructions", stringBlock(formatInstructions(ir, cx)));
  const T = name(ir.name);
  // the members' documentation is the runtime's (ToonTextGroup, DenseTextGroup), which the groups are typed as
  const members = code`  toText(value, options) {
    return $rt.encodeTextWith(value, options, ${encoder === undefined ? raw("undefined") : enc});
  },
  fromText(text, options) {
    return $rt.fromTextWith<${T}>(text, options, ${check});
  },`;
  const denseMembers = code`  toText(value) {
    return $rt.denseToText($descriptor, value);
  },
  fromText(text) {
    return $rt.denseFromText<${T}>($descriptor, text);
  },`;
  const readerSpec = code`check: ${check}, hints: ${hints}${fill === undefined ? raw("") : code`, fill: ${fill}`}`;
  return { functions: encoder === undefined ? raw("") : join([encoder, ...t.functions()], "\n\n"), members, denseMembers, instructions, readerSpec };
}

// ---------------------------------------------------------------------------------------------------------------
// Interpreted check pass (the CLI's `decode --text`): the descriptor engine's, run on the IR

export function compileTextCheck(ir: SchemaIR): { check: TextCheckFn; hints: PayloadHints } {
  const defs = new Map(ir.definitions.map((d) => [d.name, d]));
  const lookup: Defs = {
    def(n: string) {
      const d = defs.get(n);
      if (d === undefined) throw new Error(`internal: unknown definition ${n}`);
      return d;
    },
  };
  return { check: textCheckOf(ir), hints: payloadHints(ir.root, lookup) };
}

// ---------------------------------------------------------------------------------------------------------------
// Format instructions

const MAX_EXAMPLE_LINES = 60;

/**
 * A short prompt snippet: the expected TOON shape as an example document built from the schema (one item per
 * array, so tables show their header and one row), plus the notes a model needs (allowed values, optional
 * fields, union variants). The example is encoded by the runtime encoder, so it is valid TOON.
 */
export function formatInstructions(ir: SchemaIR, cx: Defs): string {
  let notes: string[] = [];
  let example = encodeText(exampleValue(ir.root, cx, true, (n) => notes.push(n)));
  if (example.split("\n").length > MAX_EXAMPLE_LINES) {
    notes = [];
    example = encodeText(exampleValue(ir.root, cx, false, (n) => notes.push(n)));
  }
  const uniq = [...new Set(notes)];
  const shown = uniq.slice(0, 12);
  if (uniq.length > shown.length) shown.push(`(${uniq.length - shown.length} more notes omitted)`);
  return [
    "Reply with TOON (Token-Oriented Object Notation) in a ```toon block, in exactly this shape:",
    "",
    "```toon",
    example,
    "```",
    "",
    "TOON rules: 2-space indentation; `key: value` fields; `key[N]:` is an array of N items (`- ` per item, or the",
    "values inline after the colon); `key[N]{a,b}:` is a table of N objects, one comma-separated row per object,",
    "values in header order. Quote a string only when it contains a comma, colon, quote, bracket or brace, has",
    "leading/trailing spaces, or looks like a number, true, false or null. Set each N to the real count.",
    ...(shown.length > 0 ? ["", "Notes:", ...shown.map((n) => `- ${n}`)] : []),
  ].join("\n");
}

function exampleValue(root: Shape, cx: Defs, optional: boolean, note: (n: string) => void): unknown {
  const seen = new Set<string>();
  const make = (s: Shape, path: string, hint: string): unknown => {
    switch (s.kind) {
      case "string":
        if (typeof s.default === "string" && s.default !== "") return s.default;
        if (s.int64) return "123";
        switch (s.format) {
          case "date-time":
            return "2025-01-15T09:30:00Z";
          case "date":
            return "2025-01-15";
          case "time":
            return "09:30:00";
          case "email":
            return "name@example.com";
          case "uri":
          case "url":
            return "https://example.com";
          case "uuid":
            return "123e4567-e89b-12d3-a456-426614174000";
        }
        return hint === "" ? "text" : `<${hint}>`;
      case "integer":
      case "number": {
        if (typeof s.default === "number") return s.default;
        const c = s.constraints ?? {};
        const lo = c.minimum ?? (c.exclusiveMinimum !== undefined ? c.exclusiveMinimum + 1 : undefined);
        const hi = c.maximum ?? (c.exclusiveMaximum !== undefined ? c.exclusiveMaximum - 1 : undefined);
        let x = s.kind === "integer" ? 1 : 1.5;
        if (hi !== undefined && x > hi) x = lo !== undefined ? (lo + hi) / 2 : hi;
        if (lo !== undefined && x < lo) x = lo;
        return s.kind === "integer" ? Math.ceil(x) : x;
      }
      case "boolean":
        return typeof s.default === "boolean" ? s.default : true;
      case "null":
        return null;
      case "any":
        return null;
      case "const":
        return s.value;
      case "enum": {
        if (s.values.length > 1) note(`${path || "the value"}: one of ${s.values.map((v) => JSON.stringify(v)).join(", ")}`);
        return s.values[0] ?? null;
      }
      case "ref": {
        if (seen.has(s.name)) return undefined;
        seen.add(s.name);
        const v = make(cx.def(s.name).shape, path, hint);
        seen.delete(s.name);
        return v;
      }
      case "array": {
        const item = make(s.items, path + "[]", hint);
        return item === undefined ? [] : [item];
      }
      case "tuple":
        return s.items.map((x, i) => make(x, `${path}[${i}]`, hint) ?? null);
      case "union": {
        const nonNull = s.branches.filter((b) => b.kind !== "null");
        if (s.discriminator !== undefined) {
          note(`${path || "the value"}: "${s.discriminator.property}" is one of ${s.discriminator.values.map((v) => JSON.stringify(v)).join(", ")}, each with its own fields; the example shows the first`);
        } else if (nonNull.length < s.branches.length) {
          note(`${path || "the value"}: may be null`);
        }
        return make(nonNull[0] ?? s.branches[0]!, path, hint);
      }
      case "object": {
        const o: Record<string, unknown> = {};
        const optionalNames: string[] = [];
        for (const p of s.properties) {
          if (!p.required && !optional) continue;
          const v = make(p.shape, path === "" ? p.name : `${path}.${p.name}`, p.name);
          if (v === undefined) continue;
          if (!p.required) optionalNames.push(p.name);
          if (p.name === "__proto__") Object.defineProperty(o, p.name, { value: v, enumerable: true, writable: true, configurable: true });
          else o[p.name] = v;
        }
        if (optionalNames.length > 0) note(`${path || "top level"}: optional (omit when unknown; in a table row, leave its cell empty): ${optionalNames.join(", ")}`);
        const defaulted = s.properties.filter((p) => p.shape.default !== undefined).map((p) => `${p.name} (${JSON.stringify(p.shape.default)})`);
        if (defaulted.length > 0) note(`${path || "top level"}: may be left out, then the default applies: ${defaulted.join(", ")}`);
        if (s.properties.length === 0 && s.additional !== false) {
          const v = make(s.additional, `${path}.<key>`, "value");
          if (v !== undefined) o["key"] = v;
          note(`${path || "top level"}: a map: any keys`);
        }
        return o;
      }
    }
  };
  const v = make(root, "", "");
  return v === undefined ? null : v;
}

/** A fill spec `{ root, defs }` with `root` and each definition of `defs` on a line of its own. */
function fillBlock(spec: { root?: unknown; defs?: Record<string, unknown> }): Code {
  const lines: Code[] = [];
  for (const [k, v] of Object.entries(spec)) {
    if (k === "defs" && typeof v === "object" && v !== null && !Array.isArray(v)) {
      // a definition named __proto__ stays an own property (a computed key)
      const key = (n: string): Code => (n === "__proto__" ? code`[${jsonLit(n)}]` : jsonLit(n));
      const defs = Object.entries(v as Record<string, unknown>).map(([n, d]) => code`    ${key(n)}: ${jsonLit(d)},`);
      lines.push(code`  "defs": {\n${join(defs, "\n")}\n  },`);
    } else lines.push(code`  ${jsonLit(k)}: ${jsonLit(v)},`);
  }
  return code`{\n${join(lines, "\n")}\n}`;
}
