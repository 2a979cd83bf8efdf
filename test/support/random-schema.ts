/**
 * Seeded random JSON Schemas (draft 2020-12) for property tests over shapes nobody wrote by hand: nested objects
 * with awkward property names (separators, quotes, `__proto__`, reserved words, digits, empty), optional and
 * required fields, open, closed and typed additional properties, maps, arrays, tuples, string/number/mixed enums,
 * consts, nullable types, multi-type scalars, scalar unions, discriminated (and nullable discriminated) and plain
 * unions of objects, `allOf` extensions, shared and recursive definitions, pattern properties,
 * `date`/`date-time`/`uuid` formats, int64 and untyped values. The same seed always gives the same schema.
 */
import { Rng } from "./rng.ts";

type Schema = Record<string, unknown>;

/** Property names that stress key spelling in every layout (headers, field lines, JSON, dictionaries). */
const NAMES = [
  "id", "name", "type", "value", "items", "note", "createdAt", "count", "tags", "meta",
  "__proto__", "constructor", "toString", "hasOwnProperty", "a b", "x,y", "k:v", "semi;colon", "br[ack]et",
  "{brace}", "-dash", "- item", "null", "true", "123", "0", "é名", "with\"quote", "back\\slash", "new\nline",
  "", " lead", "trail ", "$ref", "#hash", "tab\there", "u\u2028sep", "*/", "${x}", "`tick`",
];

const WORDS = ["a", "b", "news", "report", "x,y", "null", "true", "12", "", " sp", "é", "a;b", "]", "\"q\""];

export interface RandomSchemaOptions {
  /** Deepest nesting of composite shapes (default 3). */
  maxDepth?: number;
}

export function randomSchema(seed: number, options: RandomSchemaOptions = {}): Schema {
  return new SchemaGen(new Rng(seed), options.maxDepth ?? 3).root();
}

class SchemaGen {
  private readonly defs: Record<string, Schema> = {};
  private defCount = 0;
  /**
   * Inside the branches of a plain (undiscriminated) union of objects: no int64 there. Such branches overlap (an
   * open one takes any object), and which branch's int64 a JSON number belongs to is not in the text: the first
   * branch that takes the value reads it, as `anyOf` says, so a bigint under a later branch could come back as a
   * number (binary's branch test sees the bigint and is exact).
   */
  private plainUnion = 0;
  private readonly building = new Set<string>();

  constructor(
    private readonly r: Rng,
    private readonly maxDepth: number,
  ) {}

  root(): Schema {
    const roll = this.r.next();
    const body = roll < 0.75 ? this.object(0) : roll < 0.9 ? this.array(0) : this.any(0);
    const out: Schema = { $schema: "https://json-schema.org/draft/2020-12/schema", title: "Random", ...body };
    if (this.defCount > 0) out.$defs = this.defs;
    return out;
  }

  private any(depth: number): Schema {
    const r = this.r;
    if (depth >= this.maxDepth) return this.scalar();
    const roll = r.next();
    if (roll < 0.3) return this.scalar();
    if (roll < 0.45) return this.object(depth);
    if (roll < 0.57) return this.array(depth);
    if (roll < 0.64) return this.enumOf();
    if (roll < 0.68) return { const: r.pick<unknown>(["fixed", 7, true, null, { k: [1, "two"] }]) };
    if (roll < 0.74) return this.nullable(depth);
    if (roll < 0.79) return this.scalarUnion();
    if (roll < 0.85) return this.discriminated(depth);
    if (roll < 0.87) return { type: "object", additionalProperties: this.any(depth + 1) };
    if (roll < 0.89) return { type: "array", prefixItems: [this.scalar(), this.any(depth + 1)], items: r.chance(0.5) ? false : this.scalar() };
    if (roll < 0.91) return {};
    if (roll < 0.93) return this.recursive();
    if (roll < 0.95) return this.shared(depth);
    if (roll < 0.96) return this.extended(depth);
    if (roll < 0.97) return { type: r.pick([["string", "number"], ["integer", "boolean", "null"], ["string", "array"], ["object", "string"]]) };
    if (roll < 0.98) {
      this.plainUnion++;
      const branches = [this.object(depth + 1), this.object(depth + 1)];
      this.plainUnion--;
      return { anyOf: branches };
    }
    if (roll < 0.985) {
      // a scalar or a composite, no discriminator (`string | string[]`, `boolean | {...}`): dense lays it out as
      // `any` and checks it against the union on reading; int64 kept out as in plain object unions
      this.plainUnion++;
      const composite = r.chance(0.5) ? this.object(depth + 1) : this.array(depth + 1);
      const branches = r.chance(0.5) ? [this.scalar(), composite] : [composite, this.scalar()];
      this.plainUnion--;
      return { anyOf: branches };
    }
    if (roll < 0.99) return { enum: [{ a: 1 }, [1, "x"], "s", null] };
    return { type: "object", patternProperties: { "^x-": this.scalar() }, properties: { id: { type: "string" } } };
  }

  private scalar(): Schema {
    const r = this.r;
    const roll = r.next();
    if (roll < 0.3) return { type: "string" };
    if (roll < 0.38) return { type: "string", format: r.pick(["date-time", "date", "uuid"]) };
    if (roll < 0.55) return { type: "integer" };
    if (roll < 0.6) return this.plainUnion > 0 ? { type: "integer" } : { type: "integer", format: "int64" };
    if (roll < 0.75) return { type: "number" };
    if (roll < 0.9) return { type: "boolean" };
    if (roll < 0.95) return { type: "null" };
    return this.enumOf();
  }

  /**
   * Two scalars, but never int64 with another number kind: inside JSON (map values, tuple items, arrays of arrays)
   * the TOON text check reads a JSON number by the union's first branch that takes it, so `integer | int64` would
   * read a big integer as the double. Dense cells take the int64 (test/random-schemas.test.ts checks those).
   */
  private scalarUnion(): Schema {
    const branches = [this.scalar(), this.scalar()];
    const numeric = (b: Schema): boolean => b.type === "integer" || b.type === "number";
    if (branches.every(numeric) && branches.some((b) => b.format === "int64")) return { anyOf: branches.map((b) => ({ type: b.type })) };
    return { anyOf: branches };
  }

  private enumOf(): Schema {
    const r = this.r;
    const n = r.int(1, 4);
    const pool: unknown[] = r.chance(0.6) ? WORDS : ["a", 1, 2.5, null, true, "b,c", "12"];
    const values: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const v = r.pick(pool);
      if (!values.some((x) => x === v)) values.push(v);
    }
    return { enum: values };
  }

  private names(n: number): string[] {
    const out: string[] = [];
    while (out.length < n) {
      const k = this.r.chance(0.5) ? this.r.pick(NAMES) : this.r.pick(NAMES.slice(0, 10)) + out.length;
      if (!out.includes(k)) out.push(k);
    }
    return out;
  }

  private object(depth: number): Schema {
    const r = this.r;
    const keys = this.names(r.int(1, 6));
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const k of keys) {
      Object.defineProperty(properties, k, { value: this.any(depth + 1), enumerable: true, writable: true, configurable: true });
      if (r.chance(0.5)) required.push(k);
    }
    const out: Schema = { type: "object", properties };
    if (required.length > 0) out.required = required;
    const extra = r.next();
    if (extra < 0.5) out.additionalProperties = false;
    else if (extra < 0.6) out.additionalProperties = this.scalar();
    return out;
  }

  private array(depth: number): Schema {
    return { type: "array", items: this.any(depth + 1) };
  }

  private nullable(depth: number): Schema {
    const r = this.r;
    if (r.chance(0.5)) {
      const s = this.scalar();
      return typeof s.type === "string" && s.type !== "null" ? { ...s, type: [s.type, "null"] } : { anyOf: [s, { type: "null" }] };
    }
    return { anyOf: [this.object(depth + 1), { type: "null" }] };
  }

  private discriminated(depth: number): Schema {
    const r = this.r;
    const tag = r.pick(["type", "kind", "__proto__", "a b"]);
    const n = r.int(2, 4);
    const branches: Schema[] = [];
    for (let i = 0; i < n; i++) {
      const o = this.object(depth + 1);
      const props = o.properties as Record<string, Schema>;
      delete props[tag];
      const withTag: Record<string, Schema> = {};
      Object.defineProperty(withTag, tag, { value: { const: r.pick(["person", "org", "x,y", "1", "null"]) + i }, enumerable: true, writable: true, configurable: true });
      for (const k of Object.keys(props)) Object.defineProperty(withTag, k, { value: props[k], enumerable: true, writable: true, configurable: true });
      o.properties = withTag;
      o.required = [tag, ...((o.required as string[] | undefined) ?? []).filter((k) => k !== tag)];
      branches.push(o);
    }
    // a null branch beside the objects (GeoJSON's geometry): no discriminator in the schema's union, one among its
    // objects for the dense layout
    return r.chance(0.25) ? { oneOf: [{ type: "null" }, ...branches] } : { oneOf: branches };
  }

  /** A definition referenced from here (and from wherever else the generator lands on it again). */
  private shared(depth: number): Schema {
    // only finished definitions: one under construction could end up requiring itself (no finite value)
    const names = Object.keys(this.defs).filter((n) => n.startsWith("Shared") && !this.building.has(n));
    if (names.length > 0 && this.r.chance(0.5)) return { $ref: `#/$defs/${this.r.pick(names)}` };
    const name = `Shared${this.defCount++}`;
    this.building.add(name);
    this.defs[name] = { type: "object" };
    this.defs[name] = this.object(depth + 1);
    this.building.delete(name);
    return { $ref: `#/$defs/${name}` };
  }

  /** `allOf` of a shared object and more properties (an extension of a base, as OpenAPI schemas write it). */
  private extended(depth: number): Schema {
    const base = this.shared(depth);
    const more = this.object(depth + 1);
    delete more.additionalProperties;
    // its own names: the same name with another type in both would be a schema no value satisfies
    const props = more.properties as Record<string, Schema>;
    const renamed: Record<string, Schema> = {};
    for (const k of Object.keys(props)) Object.defineProperty(renamed, "ext " + k, { value: props[k], enumerable: true, writable: true, configurable: true });
    more.properties = renamed;
    if (Array.isArray(more.required)) more.required = (more.required as string[]).map((k) => "ext " + k);
    return { allOf: [base, more] };
  }

  /** A definition that refers to itself (an optional child and a list of children), referenced by `$ref`. */
  private recursive(): Schema {
    const name = `Node${this.defCount++}`;
    const self = { $ref: `#/$defs/${name}` };
    this.defs[name] = {
      type: "object",
      properties: { label: this.scalar(), next: self, children: { type: "array", items: self } },
      required: ["label"],
      additionalProperties: false,
    };
    return self;
  }
}
