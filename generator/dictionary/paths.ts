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

const BARE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function propertySegment(parent: string, name: string): string {
  const seg = BARE.test(name) ? name : `[${JSON.stringify(name)}]`;
  if (parent === "$") return seg.startsWith("[") ? "$" + seg : seg;
  return seg.startsWith("[") ? parent + seg : parent + "." + seg;
}

export function itemsSegment(parent: string): string {
  return parent + "[]";
}

export function tupleSegment(parent: string, index: number | "rest"): string {
  return parent + (index === "rest" ? "[...]" : `[${index}]`);
}

export function mapSegment(parent: string): string {
  return parent + "{}";
}

export function branchSegment(parent: string, index: number): string {
  return parent + `<${index}>`;
}

export function definitionRoot(name: string): string {
  return "#" + name;
}
