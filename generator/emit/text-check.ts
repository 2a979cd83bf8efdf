/**
 * The check pass of a module's text decoding (`fromText`, `fromModelOutput`): the runtime decodes the text
 * (`decodeTextExact`) and a generated pass runs over the value: structure checks (types, required and unknown
 * properties, tuple lengths, enum/const) and coercions per schema (runtime/text/check.ts): one guard call a
 * position, the guards the interpreted pass (runtime/codec/engine/text-check.ts, which `compileTextCheck` runs on
 * the IR for the CLI) calls too.
 */
import type { ObjectShape, Shape, UnionShape } from "../ir/types.ts";
import { Code, code, join, jsonBlock, lit, name, raw } from "../../templates/code.ts";
import { childPath, chunkBlocks, fieldOf, isPrimitive, linesOf, Locals, MAX_FUNCTION_LINES, type ModuleContext } from "./context.ts";
import { inheritedCount } from "./write.ts";
import { indentBy, readProp } from "./code-helpers.ts";
import { extensionOf, type Extension } from "./extends.ts";
import { formatOf } from "../../runtime/codec/formats.ts";
import { categoryMasks, nullableOf } from "../../runtime/codec/engine/text-check.ts";
import { resolve } from "./text-shapes.ts";

export class TextCheckEmitter {
  private readonly fns: Code[] = [];
  private readonly checkFns = new Map<string, Code>();
  /** allOf parents' property checks (emit/extends.ts), by parent. */
  private readonly inheritedChecks = new Map<string, Code>();

  constructor(readonly cx: ModuleContext) {}

  /** Checker functions emitted so far (definitions and the root, union branches, chunk helpers). */
  functions(): Code[] {
    return this.fns;
  }

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
