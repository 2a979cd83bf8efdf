/**
 * From an evolved dictionary to the wire layout of every object (ObjectShape.wire): each object keeps the
 * slot order of the segment it was introduced in (retired properties keep their slot, written absent),
 * and properties added since travel as extension records. Retired slots get a shape rebuilt from their
 * dictionary entries, so data from older writers that still fill them can be skipped.
 */
import type { Definition, JsonValue, ObjectShape, SchemaIR, Shape } from "../ir/types.ts";
import type { DictionaryEntry } from "./build.ts";
import type { Dictionary } from "./types.ts";
import { branchSegment, definitionRoot, itemsSegment, mapSegment, parentOfProperty, propertySegment, tupleSegment } from "./paths.ts";

interface Known {
  entry: DictionaryEntry;
  level: number;
  values?: JsonValue[];
}

class DictionaryIndex {
  readonly byPath = new Map<string, Known>();
  /** Property children of an object path, per segment level, in segment order. */
  readonly children = new Map<string, Map<number, DictionaryEntry[]>>();
  readonly retired: Set<number>;

  constructor(readonly dict: Dictionary) {
    this.retired = new Set(dict.retired.map((r) => r.id));
    for (const seg of [dict.base, ...dict.extensions]) {
      for (const e of seg.entries) {
        const known = this.byPath.get(e.path);
        if (known && !(this.retired.has(known.entry.id) && e.id !== known.entry.id)) {
          if (e.values !== undefined) known.values = [...(known.values ?? []), ...e.values];
          continue;
        }
        // first sight of the path, or the path came back after being retired: the live entry wins lookups
        this.byPath.set(e.path, e.values !== undefined ? { entry: e, level: seg.level, values: e.values } : { entry: e, level: seg.level });
        const parent = parentOfProperty(e.path);
        if (parent) {
          let perLevel = this.children.get(parent.parent);
          if (!perLevel) this.children.set(parent.parent, (perLevel = new Map()));
          let list = perLevel.get(seg.level);
          if (!list) perLevel.set(seg.level, (list = []));
          list.push(e);
        }
      }
    }
  }

  levelOf(path: string): number {
    return this.byPath.get(path)?.level ?? 0;
  }

  /** The shape the dictionary describes at `path`, as the writer of its segment laid it out. */
  shapeAt(path: string, missingDefs: Set<string>): Shape {
    const k = this.byPath.get(path);
    if (!k) return { kind: "any", schemaPath: path };
    const e = k.entry;
    const base = { schemaPath: `dictionary:${path}` };
    switch (e.type) {
      case "string":
        return { kind: "string", ...base, ...(e.format ? { format: e.format } : {}), ...(e.int64 ? { int64: true } : {}), ...(e.intern === false ? { intern: false as const } : {}) };
      case "integer":
        return { kind: "integer", ...base, ...(e.int64 ? { int64: true } : {}) };
      case "number":
      case "boolean":
      case "null":
      case "any":
        return { kind: e.type, ...base };
      case "enum":
        return { kind: "enum", ...base, values: k.values ?? [] };
      case "const":
        return { kind: "const", ...base, value: e.value ?? null };
      case "ref":
        missingDefs.add(e.ref!);
        return { kind: "ref", ...base, name: e.ref! };
      case "array":
        return { kind: "array", ...base, items: this.shapeAt(itemsSegment(path), missingDefs) };
      case "map":
      case "object": {
        const own = this.children.get(path)?.get(k.level) ?? [];
        const properties = own.map((c) => ({ name: parentOfProperty(c.path)!.name, required: c.required === true, shape: this.shapeAt(c.path, missingDefs) }));
        const additional = e.closed ? false : this.shapeAt(mapSegment(path), missingDefs);
        return { kind: "object", ...base, properties, additional };
      }
      case "tuple": {
        const items: Shape[] = [];
        let minItems = 0;
        for (let i = 0; this.byPath.has(tupleSegment(path, i)); i++) {
          const item = this.byPath.get(tupleSegment(path, i))!;
          if (item.entry.required) minItems = i + 1;
          items.push(this.shapeAt(tupleSegment(path, i), missingDefs));
        }
        const rest = this.byPath.has(tupleSegment(path, "rest")) ? this.shapeAt(tupleSegment(path, "rest"), missingDefs) : false;
        return { kind: "tuple", ...base, items, minItems, rest };
      }
      case "union": {
        const branches: Shape[] = [];
        for (let i = 0; this.byPath.has(branchSegment(path, i)); i++) branches.push(this.shapeAt(branchSegment(path, i), missingDefs));
        return { kind: "union", ...base, branches };
      }
    }
  }
}

/**
 * The IR with `wire` set on every object: the committed dictionary, not the schema's current key order, fixes
 * the order of fields on the wire (reordering properties in a schema must not change the bytes old readers
 * expect). For a dictionary made from this very schema the layout is the schema order, and the generated code
 * is the same as without it.
 */
export function applyWireLayout(ir: SchemaIR, dict: Dictionary): SchemaIR {
  const index = new DictionaryIndex(dict);
  const missingDefs = new Set<string>();
  const visit = (s: Shape, path: string): Shape => {
    switch (s.kind) {
      case "object": {
        const properties = s.properties.map((p) => ({ ...p, shape: visit(p.shape, propertySegment(path, p.name)) }));
        const additional = s.additional === false ? false : visit(s.additional, mapSegment(path));
        const out: ObjectShape = { ...s, properties, additional };
        const level = index.levelOf(path);
        const frozen = index.children.get(path)?.get(level) ?? [];
        const byName = new Map(properties.map((p, i) => [p.name, i]));
        const slots: NonNullable<ObjectShape["wire"]>["slots"] = [];
        const placed = new Set<number>();
        for (const c of frozen) {
          const name = parentOfProperty(c.path)!.name;
          const i = byName.get(name);
          if (i !== undefined && !index.retired.has(c.id)) {
            slots.push({ prop: i });
            placed.add(i);
          } else {
            slots.push({ retired: name, required: false, shape: index.shapeAt(c.path, missingDefs) });
          }
        }
        const ext = properties
          .map((p, i) => ({ p, i }))
          .filter(({ i }) => !placed.has(i))
          .map(({ p, i }) => {
            const k = index.byPath.get(propertySegment(path, p.name));
            return { prop: i, id: k?.entry.id ?? -1, level: k?.level ?? 0 };
          });
        out.wire = { path, slots, ext };
        return out;
      }
      case "array":
        return { ...s, items: visit(s.items, itemsSegment(path)) };
      case "tuple":
        return { ...s, items: s.items.map((item, i) => visit(item, tupleSegment(path, i))), rest: s.rest === false ? false : visit(s.rest, tupleSegment(path, "rest")) };
      case "union":
        return { ...s, branches: s.branches.map((b, i) => visit(b, branchSegment(path, i))) };
      default:
        return s;
    }
  };
  const root = visit(ir.root, "$");
  const definitions: Definition[] = ir.definitions.map((d) => ({ ...d, shape: visit(d.shape, definitionRoot(d.name)) }));
  // definitions only retired slots still refer to: as their writers laid them out (the shape rebuilt from the
  // dictionary is that layout already; a wire layout of it would turn every slot into a retired one, give required
  // properties a presence bit they never had, and claim their retired IDs as extension properties)
  const have = new Set(definitions.map((d) => d.name));
  for (let again = true; again; ) {
    again = false;
    for (const name of [...missingDefs]) {
      if (have.has(name)) continue;
      have.add(name);
      again = true;
      definitions.push({ name, origin: `dictionary:#${name} (retired)`, shape: index.shapeAt(definitionRoot(name), missingDefs) });
    }
  }
  return { ...ir, root, definitions };
}
