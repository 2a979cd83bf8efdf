/**
 * The engine's decoder, twin of generator/emit/read.ts: each shape compiles once into a closure `(r) => value` that reads the same
 * bytes and keeps `r.at` exactly as the generated decoder does (set to the static path, relative to the
 * innermost loop or definition, before each read), so failures carry the same code, path and offset.
 *
 * Every value inside another is compiled through `child` with the `Step` that says how it hangs off its parent,
 * and map keys are read through `keyReader`: ./read-observed.ts overrides the two to report what it reads
 * (`toon-gen inspect`), so this file's closures are the same whether or not anything observes.
 */
import type { ObjectShape, Shape, TupleShape, UnionShape } from "../descriptor.ts";
import { byteMask, objectLayout, type CodecPlan, type ObjectLayout } from "../plan.ts";
import { formatOf, type ScalarShape } from "../formats.ts";
import { defaultTable } from "../../wire/defaults.ts";
import { readAny } from "../../wire/any.ts";
import { rethrowAt, rethrowAtIndex } from "../../wire/errors.ts";
import { cloneJson, setOwn } from "../../wire/objects.ts";
import { rKey } from "../kinds/composite.ts";
import type { Reader } from "../../wire/reader.ts";
import { childPath, isPrimitive } from "./props.ts";
import { countWidth } from "../zero-width.ts";

export type ReadFn = (r: Reader) => any;

/**
 * How a value hangs off the one it is read in: a property (`prop`, its name), a retired slot read and dropped
 * (`retired`), an array's items, a tuple position (`tuple`) or its rest items, an open object's values (its
 * keys read before each), a union branch (`branch`, taking the union's place), a definition's body (`def`, taking
 * the place of the reference), an extension property's value (`ext`, its dictionary ID and key), or the root.
 */
export type Step =
  | { prop: string }
  | { retired: string }
  | "items"
  | { tuple: number }
  | "rest"
  | "values"
  | { branch: number }
  | { def: string }
  | { ext: number; key: string }
  | "root";

export class ReadCompiler {
  private defs = new Map<string, { fn: ReadFn }>();
  /** Readers of extension property values, by dictionary ID (`$extR<id>` in a generated module). */
  private exts = new Map<number, ReadFn>();

  constructor(protected readonly plan: CodecPlan) {}

  /** The reader of extension property `id` (a standalone value: `emitReadFunction(shape, false)`). */
  extension(id: number, x: { key: string; shape: Shape }): ReadFn {
    let fn = this.exts.get(id);
    if (fn === undefined) {
      fn = this.function(x.shape, false, { ext: id, key: x.key });
      this.exts.set(id, fn);
    }
    return fn;
  }

  definition(name: string): { fn: ReadFn } {
    let cell = this.defs.get(name);
    if (cell === undefined) {
      cell = { fn: () => undefined };
      this.defs.set(name, cell);
      cell.fn = this.function(this.plan.def(name).shape, this.plan.recursive.has(name), { def: name });
    }
    return cell;
  }

  /** `emitReadFunction`. */
  function(shape: Shape, recursive: boolean, step: Step = "root"): ReadFn {
    const body = this.child(shape, "", step);
    if (!recursive) return body;
    return (r) => {
      r.enter();
      const v = body(r);
      r.depth--;
      return v;
    };
  }

  /** The reader of a value `step` from the one being compiled (./read-observed.ts reports it as it reads). */
  protected child(s: Shape, p: string, _step: Step): ReadFn {
    return this.compile(s, p);
  }

  /** What reads an open object's keys (./read-observed.ts reports their bytes). */
  protected keyReader(): (r: Reader, o: object) => string {
    return rKey;
  }

  /** `emitRead`. */
  compile(s: Shape, p: string): ReadFn {
    switch (s.kind) {
      case "string":
      case "integer":
      case "number":
        return scalarReader(s, p);
      case "boolean":
        return (r) => ((r.at = p), r.bool());
      case "null":
        return () => null;
      case "any":
        return (r) => ((r.at = p), readAny(r));
      case "const":
        return constant(s.value);
      case "enum": {
        const values = s.values;
        const size = values.length;
        if (size === 1) return constant(values[0]);
        if (values.every(isPrimitive)) return (r) => ((r.at = p), values[r.index(size)]);
        return (r) => ((r.at = p), cloneJson(values[r.index(size)]));
      }
      case "ref": {
        const cell = this.definition(s.name);
        if (p === "") return (r) => cell.fn(r);
        return (r) => {
          try {
            return cell.fn(r);
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

  private array(items: Shape, p: string): ReadFn {
    const width = countWidth(items, this.plan);
    const item = this.child(items, "", "items");
    return (r) => {
      r.at = p;
      const n = r.count(width);
      const a: unknown[] = [];
      let i = 0;
      try {
        for (; i < n; i++) a.push(item(r));
      } catch (e) {
        rethrowAtIndex(e, p, i);
      }
      return a;
    };
  }

  private tuple(s: TupleShape, p: string): ReadFn {
    const min = s.minItems;
    const items = s.items.map((item, idx) => this.child(item, childPath(p, idx), { tuple: idx }));
    const count = items.length;
    const rest = s.rest === false ? undefined : this.child(s.rest, "", "rest");
    const restWidth = s.rest === false ? -1 : this.plan.minWidth(s.rest);
    return (r) => {
      r.at = p;
      const n = r.tupleCount(count, restWidth);
      if (n < min) throw r.fail("INVALID_ENCODING", "tuple length " + n + " below the schema's minimum");
      const a: unknown[] = [];
      for (let idx = 0; idx < count; idx++) if (idx < min || n > idx) a.push(items[idx]!(r));
      if (rest !== undefined) {
        let i = count;
        try {
          for (; i < n; i++) a.push(rest(r));
        } catch (e) {
          rethrowAtIndex(e, p, i);
        }
      }
      return a;
    };
  }

  private object(s: ObjectShape, p: string): ReadFn {
    return s.wire === undefined || isPlainLayout(objectLayout(s)) ? this.plainObject(s, p) : this.evolvedObject(s, p);
  }

  /** Every property in schema order (a fresh dictionary): values go straight into the object. */
  private plainObject(s: ObjectShape, p: string): ReadFn {
    const layout = objectLayout(s);
    const names = s.properties.map((q) => q.name);
    const readers = s.properties.map((q) => this.child(q.shape, childPath(p, q.name), { prop: q.name }));
    const count = names.length;
    const bitOf = layout.bitOf;
    const masks: number[] = [];
    for (let b = 0; b * 8 < layout.bits; b++) masks.push(byteMask(layout.bits, b));
    const additional = s.additional !== false;
    const readExtras = this.extras(s, p);
    const isMap = layout.isMap;
    const extrasBit = layout.extrasBit;
    return (r) => {
      const m: number[] = [];
      for (let b = 0; b < masks.length; b++) {
        r.at = p;
        m.push(r.bits(masks[b]!));
      }
      const o: Record<string, unknown> = {};
      for (let i = 0; i < count; i++) {
        const bit = bitOf[i]!;
        if (bit >= 0 && (m[bit >> 3]! & (1 << (bit & 7))) === 0) continue;
        const v = readers[i]!(r);
        const k = names[i]!;
        if (k === "__proto__") setOwn(o, k, v);
        else o[k] = v;
      }
      if (additional && (isMap || (m[extrasBit >> 3]! & (1 << (extrasBit & 7))) !== 0)) readExtras(r, o);
      return o;
    };
  }

  /**
   * A layout the dictionary froze (ObjectShape.wire): positional values in wire order into locals, retired slots
   * an older writer filled read and dropped where they stood, then the object assembled in schema order without
   * the extension properties (their records apply after the body), defaults for extension properties newer than
   * the writer, and the extras.
   */
  private evolvedObject(s: ObjectShape, p: string): ReadFn {
    const layout = objectLayout(s);
    const names = s.properties.map((q) => q.name);
    const count = names.length;
    const order = layout.order;
    const inWire = s.properties.map((_, i) => order.includes(i));
    const readers = s.properties.map((q, i) => (inWire[i] ? this.child(q.shape, childPath(p, q.name), { prop: q.name }) : undefined));
    const bitOf = layout.bitOf;
    const masks: number[] = [];
    for (let b = 0; b * 8 < layout.bits; b++) masks.push(byteMask(layout.bits, b));
    // retired slots, grouped by the number of positional values before them
    const skips: { bit: number; read: ReadFn }[][] = [];
    for (let at = 0; at <= order.length; at++) skips.push([]);
    for (const x of layout.retired) skips[x.after]!.push({ bit: x.bit, read: this.child(x.shape, childPath(p, x.name), { retired: x.name }) });
    // a constant added later is known without its record; other properties by their default
    const defaults = layout.ext.flatMap((x) => {
      const q = s.properties[x.prop]!.shape;
      const d = q.kind === "const" ? q.value : q.default;
      return d === undefined ? [] : [{ key: names[x.prop]!, level: x.level, value: d }];
    });
    const additional = s.additional !== false;
    const readExtras = this.extras(s, p);
    const isMap = layout.isMap;
    const extrasBit = layout.extrasBit;
    const has = (m: number[], bit: number): boolean => (m[bit >> 3]! & (1 << (bit & 7))) !== 0;
    const skip = (r: Reader, m: number[], at: number): void => {
      const list = skips[at]!;
      for (let j = 0; j < list.length; j++) if (has(m, list[j]!.bit)) list[j]!.read(r);
    };
    return (r) => {
      const m: number[] = [];
      for (let b = 0; b < masks.length; b++) {
        r.at = p;
        m.push(r.bits(masks[b]!));
      }
      const f: unknown[] = new Array(count);
      for (let at = 0; at < order.length; at++) {
        skip(r, m, at);
        const i = order[at]!;
        const bit = bitOf[i]!;
        if (bit < 0 || has(m, bit)) f[i] = readers[i]!(r);
      }
      skip(r, m, order.length);
      const o: Record<string, unknown> = {};
      for (let i = 0; i < count; i++) {
        if (!inWire[i]) continue;
        const bit = bitOf[i]!;
        if (bit >= 0 && !has(m, bit)) continue;
        const k = names[i]!;
        if (k === "__proto__") setOwn(o, k, f[i]);
        else o[k] = f[i];
      }
      for (let j = 0; j < defaults.length; j++) {
        const d = defaults[j]!;
        if (r.level < d.level) {
          if (d.key === "__proto__") setOwn(o, d.key, cloneJson(d.value));
          else o[d.key] = cloneJson(d.value);
        }
      }
      if (additional && (isMap || has(m, extrasBit))) readExtras(r, o);
      return o;
    };
  }

  /** The extras loop of an open object (`extrasRead` in the emitter). */
  private extras(s: ObjectShape, p: string): (r: Reader, o: Record<string, unknown>) => void {
    if (s.additional === false) return () => undefined;
    const additional = this.child(s.additional, "", "values");
    const entryWidth = 1 + this.plan.minWidth(s.additional);
    const readKey = this.keyReader();
    return (r, o) => {
      r.at = p;
      const n = r.count(entryWidth);
      let k = "";
      try {
        for (let j = 0; j < n; j++) {
          k = readKey(r, o);
          setOwn(o, k, additional(r));
        }
      } catch (e) {
        rethrowAtIndex(e, p, k);
      }
    };
  }

  private union(s: UnionShape, p: string): ReadFn {
    const branches = s.branches.map((b, i) => this.child(b, p, { branch: i }));
    const size = branches.length;
    return (r) => {
      r.at = p;
      return branches[r.index(size)]!(r);
    };
  }
}

/** A frozen layout that is the schema order with nothing retired or added: read like a fresh one. */
function isPlainLayout(layout: ObjectLayout): boolean {
  return layout.retired.length === 0 && layout.ext.length === 0 && layout.order.every((i, at) => i === at);
}

function constant(v: unknown): ReadFn {
  if (isPrimitive(v)) return () => v;
  return () => cloneJson(v);
}

/**
 * A string, integer or number position: its wire format's primitive (../formats.ts), through its default-value
 * table when it has one. `emitScalarRead` in generator/emit/read.ts.
 */
export function scalarReader(s: ScalarShape & { table?: (string | number)[] }, p: string): ReadFn {
  const f = formatOf(s);
  if (s.table !== undefined && s.table.length > 0) {
    const t = defaultTable(s.table);
    const tabled = f.readTabled;
    return (r) => ((r.at = p), tabled(r, t));
  }
  const read = f.read;
  return (r) => ((r.at = p), read(r));
}
