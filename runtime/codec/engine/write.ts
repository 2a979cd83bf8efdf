/**
 * The engine's encoder, twin of generator/emit/write.ts: each shape compiles once into a closure `(w, v) => void` that performs the
 * same checks, in the same order, with the same static paths (relative to the innermost loop or definition)
 * and the same messages as the generated statements, and writes the same bytes.
 */
import type { ObjectShape, Shape, TupleShape, UnionShape } from "../descriptor.ts";
import { objectLayout, planBranches, type CodecPlan } from "../plan.ts";
import { formatOf, type ScalarShape } from "../formats.ts";
import { defaultTable } from "../../wire/defaults.ts";
import { writeAny } from "../../wire/any.ts";
import { ToonError, pointerSegment, rethrowAt, rethrowAtIndex } from "../../wire/errors.ts";
import { writeExtension } from "../../features/extensions.ts";
import { checkClosed, extraKeys, keyCount, missing } from "../../wire/objects.ts";
import { DEFAULT_MAX_DEPTH, MAX_ZERO_WIDTH_ITEMS } from "../../wire/wire.ts";
import { invalid, type Writer } from "../../wire/writer.ts";
import { oneOf, tupleExpected, unionExpected, zeroWidthExpected } from "../messages.ts";
import { ENUM_SCAN_MAX, SCALAR_GUARDS, TABLED_GUARDS, enumIndex, gArray, gObject, scalarForm, wBool, wConst, wEnum, wEnumMap, wJsonConst, wJsonEnum, wKey, wNull } from "../kinds/index.ts";
import { categoryTest, type Predicate, type PredicateCompiler } from "./predicate.ts";
import { childPath, isPrimitive, propReader } from "./props.ts";

export type WriteFn = (w: Writer, v: any) => void;

const isArray = Array.isArray;
const isInteger = Number.isInteger;

export class WriteCompiler {
  private defs = new Map<string, { fn: WriteFn }>();
  /** Writers of extension property values, by dictionary ID (`$extW<id>` in a generated module). */
  private exts = new Map<number, { fn: WriteFn }>();
  /** `plan.evolved`: loops and definition calls keep `w.ptr` current, so extension records name their object. */
  private readonly evolved: boolean;

  constructor(
    private readonly plan: CodecPlan,
    private readonly preds: PredicateCompiler,
  ) {
    this.evolved = plan.evolved;
  }

  /** The writer of extension property `id` (a standalone value: `emitWriteFunction(shape, false)`). */
  extension(id: number, shape: Shape): { fn: WriteFn } {
    let cell = this.exts.get(id);
    if (cell === undefined) {
      cell = { fn: () => undefined };
      this.exts.set(id, cell);
      cell.fn = this.function(shape, false);
    }
    return cell;
  }

  /** The writer function of a named definition (compiled once; depth-guarded when it recurses). */
  definition(name: string): { fn: WriteFn } {
    let cell = this.defs.get(name);
    if (cell === undefined) {
      cell = { fn: () => undefined };
      this.defs.set(name, cell);
      cell.fn = this.function(this.plan.def(name).shape, this.plan.recursive.has(name));
    }
    return cell;
  }

  /** `emitWriteFunction`. */
  function(shape: Shape, recursive: boolean): WriteFn {
    const body = this.compile(shape, "");
    if (!recursive) return body;
    return (w, v) => {
      if (++w.depth > DEFAULT_MAX_DEPTH) throw new ToonError("DEPTH_LIMIT", "value nested deeper than " + DEFAULT_MAX_DEPTH + " (a cycle?)");
      body(w, v);
      w.depth--;
    };
  }

  /** `emitWrite`: `p` is the static path relative to the innermost loop or definition. */
  compile(s: Shape, p: string): WriteFn {
    switch (s.kind) {
      case "string":
      case "integer":
      case "number":
        return scalarWriter(s, p);
      case "boolean":
        return (w, v) => wBool(w, v, p);
      case "null":
        return (_w, v) => wNull(v, p);
      case "any":
        if (p === "") return writeAny;
        return (w, v) => {
          try {
            writeAny(w, v);
          } catch (e) {
            rethrowAt(e, p);
          }
        };
      case "const": {
        const c = s.value;
        if (isPrimitive(c)) return (_w, v) => wConst(v, c, p);
        return (_w, v) => wJsonConst(v, c, p);
      }
      case "enum":
        // a one-value enum is written (as nothing) and checked like a const
        if (s.values.length === 1) return this.compile({ kind: "const", value: s.values[0]! }, p);
        return enumWriter(s.values, p);
      case "ref": {
        const cell = this.definition(s.name);
        if (p === "") return (w, v) => cell.fn(w, v);
        if (this.evolved) {
          return (w, v) => {
            try {
              w.ptr.push(p);
              cell.fn(w, v);
              w.ptr.pop();
            } catch (e) {
              rethrowAt(e, p);
            }
          };
        }
        return (w, v) => {
          try {
            cell.fn(w, v);
          } catch (e) {
            rethrowAt(e, p);
          }
        };
      }
      case "array":
        return this.array(s.items, p);
      case "tuple":
        return this.tuple(s, p);
      case "object":
        return this.object(s, p);
      case "union":
        return this.union(s, p);
    }
  }

  private array(items: Shape, p: string): WriteFn {
    const zeroWidth = this.plan.minWidth(items) === 0;
    const item = this.compile(items, "");
    const tooMany = zeroWidthExpected(false);
    if (this.evolved) {
      return (w, v) => {
        gArray(v, p);
        const n = v.length;
        if (zeroWidth && n > MAX_ZERO_WIDTH_ITEMS) throw invalid(p, tooMany, v);
        w.varint(n);
        let i = 0;
        w.ptr.push("");
        try {
          for (; i < n; i++) {
            const e = v[i];
            w.ptr[w.ptr.length - 1] = p + "/" + i;
            item(w, e);
          }
        } catch (err) {
          rethrowAtIndex(err, p, i);
        }
        w.ptr.pop();
      };
    }
    return (w, v) => {
      gArray(v, p);
      const n = v.length;
      if (zeroWidth && n > MAX_ZERO_WIDTH_ITEMS) throw invalid(p, tooMany, v);
      w.varint(n);
      let i = 0;
      try {
        for (; i < n; i++) item(w, v[i]);
      } catch (err) {
        rethrowAtIndex(err, p, i);
      }
    };
  }

  private tuple(s: TupleShape, p: string): WriteFn {
    const min = s.minItems;
    const max = s.rest === false ? s.items.length : -1;
    const expected = tupleExpected(min, max);
    const items = s.items.map((item, idx) => this.compile(item, childPath(p, idx)));
    const count = items.length;
    const rest = s.rest === false ? undefined : this.compile(s.rest, "");
    const zeroWidthRest = s.rest !== false && this.plan.minWidth(s.rest) === 0;
    const tooMany = zeroWidthExpected(true);
    const evolved = this.evolved;
    return (w, v) => {
      gArray(v, p);
      const n = v.length;
      if (n < min || (max >= 0 && n > max)) throw invalid(p, expected, v);
      if (zeroWidthRest && n - count > MAX_ZERO_WIDTH_ITEMS) throw invalid(p, tooMany, v);
      w.varint(n);
      for (let idx = 0; idx < count; idx++) if (idx < min || n > idx) items[idx]!(w, v[idx]);
      if (rest !== undefined) {
        let i = count;
        if (evolved) {
          w.ptr.push("");
          try {
            for (; i < n; i++) {
              const e = v[i];
              w.ptr[w.ptr.length - 1] = p + "/" + i;
              rest(w, e);
            }
          } catch (err) {
            rethrowAtIndex(err, p, i);
          }
          w.ptr.pop();
          return;
        }
        try {
          for (; i < n; i++) rest(w, v[i]);
        } catch (err) {
          rethrowAtIndex(err, p, i);
        }
      }
    };
  }

  private object(s: ObjectShape, p: string): WriteFn {
    const layout = objectLayout(s);
    const names = s.properties.map((q) => q.name);
    const getters = names.map(propReader);
    const required = s.properties.map((q) => q.required);
    const count = names.length;
    // positional properties in wire order (schema order unless the dictionary froze another)
    const order = layout.order;
    const inWire = new Set(order);
    const writers = s.properties.map((q, i) => (inWire.has(i) ? this.compile(q.shape, childPath(p, q.name)) : undefined));
    // properties added after the object's dictionary segment: extension records, after the positional ones
    const ext = layout.ext.map((x) => ({ prop: x.prop, id: x.id, key: names[x.prop]!, required: required[x.prop]!, cell: this.extension(x.id, s.properties[x.prop]!.shape) }));
    const known = new Set<string>(names);
    const closed = s.additional === false;
    const additional = s.additional === false ? undefined : this.compile(s.additional, "");
    const isMap = layout.isMap;
    const evolved = this.evolved;
    // presence bitmap: per byte, the (property index, bit mask) pairs and the extras mask (0 when not in it)
    const bitmap: { props: [number, number][]; extras: number }[] = [];
    for (let b = 0; b * 8 < layout.bits; b++) {
      const props: [number, number][] = [];
      layout.bitOf.forEach((bit, i) => {
        if (bit >= 0 && bit >> 3 === b) props.push([i, 1 << (bit & 7)]);
      });
      const extras = layout.extrasBit >= 0 && layout.extrasBit >> 3 === b ? 1 << (layout.extrasBit & 7) : 0;
      bitmap.push({ props, extras });
    }
    return (w, v) => {
      gObject(v, p);
      const f: unknown[] = new Array(count);
      for (let i = 0; i < count; i++) f[i] = getters[i]!(v);
      let extras: string[] | undefined;
      if (closed) {
        let sum = 0;
        for (let i = 0; i < count; i++) if (required[i] || f[i] !== undefined) sum++;
        if (keyCount(v) !== sum) checkClosed(v, known, p);
      } else {
        extras = extraKeys(v, known);
      }
      for (let b = 0; b < bitmap.length; b++) {
        const byte = bitmap[b]!;
        let m = 0;
        for (const [i, mask] of byte.props) if (f[i] !== undefined) m |= mask;
        if (extras !== undefined) m |= byte.extras;
        w.byte(m);
      }
      for (let j = 0; j < order.length; j++) {
        const i = order[j]!;
        const x = f[i];
        if (required[i]) {
          if (x === undefined) throw missing(p, names[i]!);
          writers[i]!(w, x);
        } else if (x !== undefined) {
          writers[i]!(w, x);
        }
      }
      for (let j = 0; j < ext.length; j++) {
        const e = ext[j]!;
        const x = f[e.prop];
        if (x === undefined) {
          if (e.required) throw missing(p, e.key);
          continue;
        }
        writeExtension(w, e.id, p, e.key, x, e.cell.fn);
      }
      if (additional !== undefined) {
        if (extras === undefined) {
          if (isMap) w.byte(0);
          return;
        }
        w.varint(extras.length);
        let k = "";
        if (evolved) w.ptr.push("");
        try {
          for (let j = 0; j < extras.length; j++) {
            k = extras[j]!;
            if (evolved) w.ptr[w.ptr.length - 1] = p + pointerSegment(k);
            wKey(w, k);
            additional(w, v[k]);
          }
        } catch (err) {
          rethrowAtIndex(err, p, k);
        }
        if (evolved) w.ptr.pop();
      }
    };
  }

  private union(s: UnionShape, p: string): WriteFn {
    const branches = s.branches.map((b) => this.compile(b, p));
    if (s.discriminator) {
      const key = s.discriminator.property;
      const index = new Map<unknown, number>();
      s.discriminator.values.forEach((x, i) => {
        if (!index.has(x)) index.set(x, i); // first case wins, as in a switch
      });
      const expected = oneOf(s.discriminator.values);
      const at = childPath(p, key);
      const get = propReader(key);
      return (w, v) => {
        gObject(v, p);
        const d = get(v);
        const i = index.get(d);
        if (i === undefined) throw invalid(at, expected, d);
        w.varint(i);
        branches[i]!(w, v);
      };
    }
    const arms: { index: number; test: Predicate | undefined }[] = planBranches(s.branches, this.plan).map((b) => ({
      index: b.index,
      test: b.test === "else" ? undefined : b.test === "categories" ? categoryTest(b.categories) : this.preds.predicateOf(s.branches[b.index]!),
    }));
    const expected = unionExpected(s.branches.length);
    return (w, v) => {
      for (let a = 0; a < arms.length; a++) {
        const arm = arms[a]!;
        if (arm.test === undefined || arm.test(v)) {
          w.varint(arm.index);
          branches[arm.index]!(w, v);
          return;
        }
      }
      throw invalid(p, expected, v);
    };
  }
}

/**
 * A string, integer or number position: its wire format's guard (runtime/codec/kinds/scalar.ts), through its
 * default-value table when the dictionary gave it one. `emitScalarWrite` in generator/emit/write.ts.
 */
function scalarWriter(s: ScalarShape & { table?: (string | number)[] }, p: string): WriteFn {
  const form = scalarForm(formatOf(s));
  if (s.table !== undefined && s.table.length > 0) {
    const t = defaultTable(s.table);
    const tabled = TABLED_GUARDS[form];
    return (w, v) => tabled(w, v, t, p);
  }
  const guard = SCALAR_GUARDS[form];
  return (w, v) => guard(w, v, p);
}

/** Enums: `wEnum` scans short lists of primitives, longer ones go through an index (as generated code does). */
function enumWriter(values: unknown[], p: string): WriteFn {
  if (!values.every(isPrimitive)) return (w, v) => wJsonEnum(w, v, values, p);
  if (values.length <= ENUM_SCAN_MAX) return (w, v) => wEnum(w, v, values, p);
  const index = enumIndex(values);
  return (w, v) => wEnumMap(w, v, index, values, p);
}
