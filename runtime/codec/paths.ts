/**
 * The dictionary's path syntax (docs/FORMAT.md §5), one segment function per way a value hangs off its parent.
 * Here, in the runtime, because the engine names stream paths from a descriptor exactly as the generator's
 * dictionary stage names them (generator/dictionary/paths.ts re-exports these).
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

