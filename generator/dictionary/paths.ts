/**
 * The dictionary's path syntax (docs/FORMAT.md §5):
 *
 *   $                       the root value
 *   customer.address.city   properties; a name that is not [A-Za-z_][A-Za-z0-9_-]* is written ["json string"]
 *   items[]                 the items of an array
 *   point[0]                a tuple position; point[...] its rest items
 *   labels{}                the values of a map / additional properties
 *   entities[]<2>           branch 2 of a union
 *   #Address.city           inside the named definition Address (one scope per definition, like a protobuf message)
 *
 * Escaping keeps every path unambiguous whatever characters a property name holds.
 */

import type { SchemaIR, Shape } from "../ir/types.ts";
import { wireSlots } from "../../runtime/codec/plan.ts";

import { branchSegment, definitionRoot, itemsSegment, mapSegment, propertySegment, tupleSegment } from "../../runtime/codec/paths.ts";

export { branchSegment, definitionRoot, itemsSegment, mapSegment, propertySegment, tupleSegment };

/** A property name a path spells bare (docs/FORMAT.md §5). */
const BARE_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * The object path and property name of a property path (`a.b` -> `a`, `b`; `a["x.y"]` -> `a`, `x.y`;
 * `#Def.k` -> `#Def`, `k`), or undefined when the last segment is not a property.
 */
export function parentOfProperty(path: string): { parent: string; name: string } | undefined {
  if (path.endsWith('"]')) {
    // a quoted segment: find the `["` that starts it (the JSON string itself may hold `["`)
    for (let i = path.lastIndexOf('["'); i >= 0; i = path.lastIndexOf('["', i - 1)) {
      try {
        const name = JSON.parse(path.slice(i + 1, -1)) as unknown;
        if (typeof name !== "string" || JSON.stringify(name) !== path.slice(i + 1, -1)) continue;
        const parent = path.slice(0, i);
        return { parent: parent === "$" || parent === "" ? "$" : parent, name };
      } catch {
        /* not the start of the segment */
      }
    }
    return undefined;
  }
  // a bare last segment: the name after the last "." (or the whole path). No regex over the path: a quoted
  // segment may hold U+2028 or U+2029, which `.` does not match, and the path is the schema's to choose
  const dot = path.lastIndexOf(".");
  const name = path.slice(dot + 1);
  if (!BARE_NAME.test(name)) return undefined;
  if (dot < 0) return path === "$" ? undefined : { parent: "$", name };
  return { parent: path.slice(0, dot), name };
}

/**
 * A copy of `ir` in which every shape is `leaf(shape, path)` at its dictionary path (retired slots of frozen
 * layouts included), containers rebuilt only where something under them changed. The dictionary stage uses it to
 * put what the dictionary decided per path (default tables, interning) onto the IR.
 */
export function mapShapesByPath(ir: SchemaIR, leaf: (s: Shape, path: string) => Shape): SchemaIR {
  const visit = (s: Shape, path: string): Shape => {
    switch (s.kind) {
      case "object": {
        const properties = s.properties.map((p) => {
          const shape = visit(p.shape, propertySegment(path, p.name));
          return shape === p.shape ? p : { ...p, shape };
        });
        const additional = s.additional === false ? false : visit(s.additional, mapSegment(path));
        let wire = s.wire;
        if (wire !== undefined) {
          const slots = wireSlots(s).map((slot) => {
            if (!("retired" in slot)) return slot;
            const shape = visit(slot.shape, propertySegment(path, slot.retired));
            return shape === slot.shape ? slot : { ...slot, shape };
          });
          if (slots.some((x, i) => x !== wire!.slots?.[i])) wire = { ...wire, slots };
        }
        if (additional === s.additional && wire === s.wire && properties.every((p, i) => p === s.properties[i])) return s;
        return wire === undefined ? { ...s, properties, additional } : { ...s, properties, additional, wire };
      }
      case "array": {
        const items = visit(s.items, itemsSegment(path));
        return items === s.items ? s : { ...s, items };
      }
      case "tuple": {
        const items = s.items.map((item, i) => visit(item, tupleSegment(path, i)));
        const rest = s.rest === false ? false : visit(s.rest, tupleSegment(path, "rest"));
        return rest === s.rest && items.every((x, i) => x === s.items[i]) ? s : { ...s, items, rest };
      }
      case "union": {
        const branches = s.branches.map((b, i) => visit(b, branchSegment(path, i)));
        return branches.every((x, i) => x === s.branches[i]) ? s : { ...s, branches };
      }
      default:
        return leaf(s, path);
    }
  };
  return {
    ...ir,
    root: visit(ir.root, "$"),
    definitions: ir.definitions.map((d) => {
      const shape = visit(d.shape, definitionRoot(d.name));
      return shape === d.shape ? d : { ...d, shape };
    }),
  };
}
