/**
 * State shared while emitting one module: module-level constant tables (hoisted so the hot path only reads
 * them), fresh local names, and facts about definitions (which recurse, how many bytes a value takes at least).
 */
import type { Definition, SchemaIR, Shape } from "../ir/types.ts";
import { someObject } from "../ir/walk.ts";
import { Code, code, jsonBlock, name, raw } from "../../templates/code.ts";
import { minWidth, recursiveDefinitions } from "../../runtime/codec/plan.ts";

/**
 * The most lines of straight-line code one generated function gets before the emitter splits it (objects into
 * chunks of properties, union arms into their own functions). Two limits are behind this: TypeScript gives up
 * on a function whose control flow is too long ("TS2563: The containing function or module body is too large
 * for control flow analysis", past roughly 1000 sequential branches), which real schemas with hundreds of
 * properties reach (SchemaStore's eslintrc, package.json, tsconfig, tslint); and V8 does not optimise very
 * large functions. Every schema of a normal size stays below it, so its code is not split at all.
 */
export const MAX_FUNCTION_LINES = 400;

/** Lines of a piece of generated code. */
export function linesOf(c: Code | readonly Code[]): number {
  if (c instanceof Code) return c.text.split("\n").length;
  let n = 0;
  for (const x of c) n += linesOf(x);
  return n;
}

/**
 * Group consecutive blocks so that each group stays within MAX_FUNCTION_LINES (a block larger than that is a
 * group of its own).
 */
export function chunkBlocks<T extends { code: Code }>(blocks: readonly T[]): T[][] {
  const groups: T[][] = [];
  let cur: T[] = [];
  let lines = 0;
  for (const b of blocks) {
    const n = linesOf(b.code);
    if (cur.length > 0 && lines + n > MAX_FUNCTION_LINES) {
      groups.push(cur);
      cur = [];
      lines = 0;
    }
    cur.push(b);
    lines += n;
  }
  if (cur.length > 0) groups.push(cur);
  return groups;
}

export class ModuleContext {
  /** Functions split off oversized ones (see MAX_FUNCTION_LINES), emitted after the rest. */
  private helperFns: Code[] = [];
  readonly defs = new Map<string, Definition>();
  /** Definitions that can reach themselves: their functions carry a depth guard. */
  readonly recursive = new Set<string>();
  private constants: Code[] = [];
  private constantKeys = new Map<string, Code>();
  /** Module-level names handed out (constants, named functions); the module's fixed ones are taken. */
  private readonly moduleNames = new NameSet(["$rt", "$isArray", "$isInteger", "$dictionary", "$FLAGS", "$FINGERPRINT", "$LEVEL", "$streamSpec", "$applyExtensions", "$PEEK"]);
  /** Predicate functions requested for union branch selection, emitted after the rest. */
  readonly predicates = new Map<string, { fn: Code; shape: Shape }>();

  /** The dictionary has evolved: objects have extension properties, so writers track JSON pointers. */
  readonly evolved: boolean;
  /** Extension properties by dictionary ID: each gets a writer and a reader of its own (records are standalone). */
  readonly extensions = new Map<number, { key: string; shape: Shape; level: number; writer: Code; reader: Code; required: boolean }>();

  constructor(readonly ir: SchemaIR) {
    this.evolved = hasExtensions(ir);
    for (const d of ir.definitions) this.defs.set(d.name, d);
    for (const n of recursiveDefinitions(new Map(ir.definitions.map((d) => [d.name, d.shape])))) this.recursive.add(n);
    nameShapes(ir.root, ir.name, this.shapeNames);
    for (const d of ir.definitions) nameShapes(d.shape, d.name, this.shapeNames);
  }

  /**
   * What a shape of this IR is called in generated names: its definition and the path to it
   * (`Order_total`, `Order_items_items`, `OrderList_orders`), sanitised. Shapes made up by the emitter go by
   * their schema location instead.
   */
  nameOf(s: Shape): string {
    return identPart(this.shapeNames.get(s) ?? this.hintName(s.schemaPath), 60);
  }

  private readonly shapeNames = new Map<Shape, string>();

  /** Names of the writer and reader of extension property `id` (emitted by the module after the rest). */
  extension(id: number, key: string, shape: Shape, level: number, required = false): { writer: Code; reader: Code } {
    let e = this.extensions.get(id);
    if (!e) this.extensions.set(id, (e = { key, shape, level, writer: name(`$extW${id}`), reader: name(`$extR${id}`), required }));
    return e;
  }

  /**
   * Whether a writer must keep `w.ptr` current around the value of `s` (a loop over it, a call for it): only
   * when an extension record can be written inside it, which then names its object by that pointer. Values
   * that cannot reach an object with extension properties skip the bookkeeping (faster, and evolving one
   * definition does not touch the writers of the others).
   */
  tracksPointers(s: Shape): boolean {
    if (!this.evolved) return false;
    // definitions (the stream section adds synthetic ones later, hence the size check) that can reach an
    // extension property, directly or through others: to a fixed point
    if (this.extensionDefs === undefined || this.extensionDefs.size !== this.defs.size) {
      const found = new Set<string>();
      for (let grew = true; grew; ) {
        grew = false;
        for (const d of this.defs.values()) {
          if (!found.has(d.name) && reachesExtension(d.shape, found)) {
            found.add(d.name);
            grew = true;
          }
        }
      }
      this.extensionDefs = { size: this.defs.size, found };
    }
    return reachesExtension(s, this.extensionDefs.found);
  }

  private extensionDefs: { size: number; found: Set<string> } | undefined;

  def(n: string): Definition {
    const d = this.defs.get(n);
    if (d === undefined) throw new Error(`internal: unknown definition ${n}`);
    return d;
  }

  /**
   * Hoist a constant (`new Set([...])`, a table) to module level. Identical constants are shared (the first
   * user names it). The name says what it is, `$<prefix>_<hint>`, never a module-wide counter, so that a schema
   * edit only touches the constants it is about (a readable diff of the generated module): `hint` is the shape
   * the constant is for (see nameOf) or a plain label.
   * A clash of two different constants on one name (after sanitising) gets `$2`, `$3`... counted per name.
   */
  constant(prefix: string, init: Code, hint: Shape | string = ""): Code {
    const known = this.constantKeys.get(init.text);
    if (known) return known;
    const label = typeof hint === "string" ? (hint === "" ? identPart(this.ir.name) : identPart(hint, 60)) : this.nameOf(hint);
    const id = this.uniqueName(`$${prefix}_${label}`);
    this.constants.push(code`const ${id} = ${init};`);
    this.constantKeys.set(init.text, id);
    return id;
  }

  /** A module-level name: `base`, or `base$2`, `base$3`... when taken (counted per name). */
  uniqueName(base: string): Code {
    return name(this.moduleNames.take(base));
  }

  /**
   * A name from a schema location: the pointer loses its `$defs`/`definitions`/`properties` segments
   * (the definition name and property path remain); the root's pointers start with the codec's name.
   */
  private hintName(schemaPath: string): string {
    const pointer = schemaPath.slice(schemaPath.indexOf("#") + 1);
    const segs = pointer.split("/").slice(1).map((x) => x.replace(/~1/g, "/").replace(/~0/g, "~"));
    const out: string[] = [];
    for (let i = 0; i < segs.length; i++) {
      const x = segs[i]!;
      // keyword segments whose next segment is a name: keep the name only
      if ((x === "$defs" || x === "definitions" || x === "properties" || x === "patternProperties") && i + 1 < segs.length) continue;
      out.push(x);
    }
    if (!(segs[0] === "$defs" || segs[0] === "definitions")) out.unshift(this.ir.name);
    return identPart(out.join("_"), 60);
  }

  /**
   * The declared keys of an object. More than four go one per line whatever their length (width 0), so that
   * adding a property adds one line instead of flipping the layout when the list outgrows the width.
   */
  knownKeys(keys: string[], hint: Shape | string = ""): Code {
    return this.constant("keys", code`/*@__PURE__*/ new Set<string>(${jsonBlock(keys, "", keys.length > 4 ? 0 : undefined)})`, hint);
  }

  /**
   * A JSON constant (const values, enum tables), typed loosely: the code only compares and clones it, and TypeScript
   * infers (and then rejects) odd element types for literals such as `[{["__proto__"]: 1}, {"constructor": {}}]`.
   */
  jsonConstant(v: unknown, hint: Shape | string = ""): Code {
    return this.constant("json", code`${jsonBlock(v)} as ${raw(Array.isArray(v) ? "readonly unknown[]" : "unknown")}`, hint);
  }

  hoisted(): Code[] {
    return this.constants;
  }

  /**
   * A module-level function split off an oversized one (of shape `of`): `make` gets its (fresh, unique) name and
   * returns the function. Names are `$chunkW_<shape>` / `$chunkR_...` / `$chunkP_...`, then `$2`, `$3`...
   */
  helper(kind: "W" | "R" | "P", of: Shape, make: (fn: Code) => Code): Code {
    const fn = this.uniqueName(`$chunk${kind}_${this.nameOf(of)}`);
    this.helperFns.push(raw(""));
    const index = this.helperFns.length - 1;
    this.helperFns[index] = make(fn);
    return fn;
  }

  /** A module-level function under a name taken with `uniqueName` (emit/extends.ts helpers), emitted with the helpers. */
  addFunction(fn: Code): void {
    this.helperFns.push(fn);
  }

  helpers(): Code[] {
    return this.helperFns;
  }

  /** Fewest bytes one encoded value of `s` can take (bounds the counts a decoder accepts). */
  minWidth(s: Shape, seen: Set<string> = new Set()): number {
    return minWidth(s, this, seen);
  }
}

/** Whether `s` holds an object with extension properties, or a ref to one of `defs` (the ones known to). */
function reachesExtension(s: Shape, defs: ReadonlySet<string>): boolean {
  switch (s.kind) {
    case "object":
      return (
        (s.wire !== undefined && s.wire.ext.length > 0) ||
        s.properties.some((p) => reachesExtension(p.shape, defs)) ||
        (s.additional !== false && reachesExtension(s.additional, defs))
      );
    case "array":
      return reachesExtension(s.items, defs);
    case "tuple":
      return s.items.some((i) => reachesExtension(i, defs)) || (s.rest !== false && reachesExtension(s.rest, defs));
    case "union":
      return s.branches.some((b) => reachesExtension(b, defs));
    case "ref":
      return defs.has(s.name);
    default:
      return false;
  }
}

/**
 * Name every shape under `s` after the path to it from `n` (its definition, or the codec for the root): property
 * names, `items`, tuple positions, `rest`, `additional`, union arms by discriminator value or position. A shape
 * object met twice keeps its first name.
 */
function nameShapes(s: Shape, n: string, names: Map<Shape, string>): void {
  if (names.has(s)) return;
  names.set(s, n);
  switch (s.kind) {
    case "object":
      for (const p of s.properties) nameShapes(p.shape, `${n}_${p.name}`, names);
      if (s.additional !== false) nameShapes(s.additional, `${n}_additional`, names);
      return;
    case "array":
      return nameShapes(s.items, `${n}_items`, names);
    case "tuple":
      s.items.forEach((x, i) => nameShapes(x, `${n}_${i}`, names));
      if (s.rest !== false) nameShapes(s.rest, `${n}_rest`, names);
      return;
    case "union":
      s.branches.forEach((b, i) => nameShapes(b, `${n}_${s.discriminator ? String(s.discriminator.values[i]) : i}`, names));
      return;
    default:
      return;
  }
}

/**
 * Identifier-safe text from untrusted schema text (property and definition names): ASCII letters, digits and
 * `_`; every run of other characters becomes one `_`; at most `max` characters. Never contains `$`, which the
 * clash suffixes of NameSet use, so a suffixed name cannot equal another sanitised one.
 */
export function identPart(s: string, max = 40): string {
  const t = s.replace(/[^A-Za-z0-9_]+/g, "_");
  return t.length > max ? t.slice(0, max) : t;
}

/** Names handed out so far; a taken one gets `$2`, `$3`... (counted per name, so other names do not move). */
class NameSet {
  private readonly used: Set<string>;
  constructor(taken: readonly string[] = []) {
    this.used = new Set(taken);
  }
  take(base: string): string {
    let id = base;
    for (let k = 2; this.used.has(id); k++) id = `${base}$${k}`;
    this.used.add(id);
    return id;
  }
}

/**
 * Per-function local names. A local that belongs to a field is named after it, `<prefix>_<field>` (`v_id`,
 * `n_items`, `i_items`): adding a property adds its own locals and renames no other. Locals without a field
 * are `<prefix><k>`, k counted per prefix. Neither form can be a reserved word or one of the generated code's
 * own names (`v`, `w`, `r`, `e`, `depth`, `$rt`...): the first always has `_` right after a lowercase prefix,
 * the second ends in digits.
 */
export class Locals {
  private readonly names = new NameSet();
  private readonly counts = new Map<string, number>();
  fresh(prefix: string, field?: string | number): Code {
    if (!/^[a-z]+$/.test(prefix)) throw new Error(`internal: local prefix ${JSON.stringify(prefix)}`);
    if (field === undefined) {
      const k = this.counts.get(prefix) ?? 0;
      this.counts.set(prefix, k + 1);
      return name(`${prefix}${k}`);
    }
    // a field's first 16 characters name its locals: long keys (`artifacthub.io/containsSecurityUpdates`) would
    // otherwise be written out in full at every use of the local
    return name(this.names.take(`${prefix}_${identPart(String(field), 16)}`));
  }
}

/** The field a static JSON pointer ends in (its last segment), for naming locals; undefined for "". */
export function fieldOf(p: string): string | undefined {
  if (p === "") return undefined;
  return p.slice(p.lastIndexOf("/") + 1).replace(/~1/g, "/").replace(/~0/g, "~");
}

// the engine's, so a static path and what compares with `===` are the same in generated code and the engine
export { childPath, isPrimitive } from "../../runtime/codec/engine/props.ts";

function hasExtensions(ir: SchemaIR): boolean {
  return someObject(ir, (o) => o.wire !== undefined && o.wire.ext.length > 0);
}
