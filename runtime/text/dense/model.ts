/**
 * The dense layout's view of a codec descriptor: refs resolved, each shape classified once (cached per shape
 * object, so a codec's model is built lazily, on first use, and shared by its writer and reader).
 *
 * A shape is spelled one of three ways in dense text (docs/TEXT.md):
 * - "text": a scalar cell (string, number, integer, boolean, null, all-string enum, a union of those); its
 *   spelling is read back by the schema, so strings need quotes only around separators;
 * - "object": a fixed-shape object (declared properties), which can be a field group or field lines;
 * - "json": everything else (maps, tuples, `any`, mixed enums, unions with composite branches), spelled as
 *   compact JSON, which is self-delimiting.
 */
import { discriminatorOf } from "../../codec/discriminator.ts";
import { someShape } from "../../codec/plan.ts";
import { spellKey, type StampFormat } from "./syntax.ts";
import type { CodecDescriptor, ObjectShape, PropertyShape, Shape, UnionShape } from "../../codec/descriptor.ts";
import type { ArraySpec, Col, GroupSpec, VariantProp } from "./spec.ts";

export type Spelling = "text" | "object" | "json";

export interface ShapeInfo {
  shape: Shape;
  spelling: Spelling;
  /** Objects: declared properties and a name -> index map. */
  props?: PropertyShape[];
  index?: Map<string, number>;
  /** Objects, per property: its info, whether dense text drops it (a required const), its key as written. */
  propInfos?: ShapeInfo[];
  dropped?: boolean[];
  keys?: string[];
  /** Arrays: the items' info. */
  itemInfo?: ShapeInfo;
  /** Text cells: the scalar kinds the cell may hold (a union's branches), to spell strings unambiguously. */
  kinds?: Set<string>;
  /** Text cells of an all-string enum (or a union with one): the allowed strings (and, the reader's, as a list). */
  enumValues?: Set<string>;
  enumList?: string[];
  /** A discriminated union of objects: its branches' infos and the discriminator. */
  disc?: {
    property: string;
    values: (string | number | boolean | null)[];
    branches: ShapeInfo[];
    /** The reader's, per branch: whether a row's object can be built with the discriminator first (read.ts). */
    first?: boolean[];
  };
  /** Text cells of one kind: 1 string, 2 string enum, 3 number, 4 integer (not int64), 5 boolean, 6 int64; 0 otherwise. */
  fast?: number;
  /** Text cells: an int64 integer (big values read as bigint) / a uuid string (checked). */
  int64?: boolean;
  /** An int64 integer decoded as a bigint always (the config's `"int64": "bigint"`, descriptor `bigint`). */
  bigint?: boolean;
  uuid?: boolean;
  /**
   * Text cells of a `date-time` or `date` string (every string branch of that format, and no number, boolean or enum
   * branch a basic form could be read as): written in ISO 8601 basic form (syntax.ts `compactStamp`).
   */
  stamp?: StampFormat;
  /** `X | null` where X is not null: the non-null branch (a group or array when no value is null). */
  nonNull?: ShapeInfo;
  /**
   * The writer's, per document reused when the data gives the same header again (spec.ts): objects, the column of
   * each scalar property and the last group spec; arrays, the last array spec.
   */
  cellCols?: Col[];
  lastGroup?: GroupSpec;
  lastArray?: ArraySpec;
  /**
   * Objects, the reader's: which property followed each one last time (index `props.length`: which came first),
   * the field it matches in place before reading a key (objects of one kind list their fields in one order).
   */
  follows?: Int32Array;
  /** Discriminated unions, the writer's: the discriminator column, the other columns (spec.ts variantProps). */
  discCol?: Col;
  variantProps?: VariantProp[];
  /**
   * A position the schema leaves open (`any`, or a map whose values are scalars or `any`): the info of one cell
   * under a header that names the keys the data has (docs/TEXT.md §3, open objects). Undefined elsewhere.
   */
  open?: ShapeInfo;
  /** The cell of an open position's key: a scalar spelled to read back without the schema, or JSON (`{`, `[`). */
  anyCell?: boolean;
  /**
   * A union the dense layout cannot lay out by its branches (composite branches, no discriminator, not `X | null`)
   * and that holds no int64: its cells are spelled as `anyCell` spells them (a string raw unless it would read as
   * another kind, `{` or `[` JSON), and the reader checks what it reads against the union (docs/TEXT.md §3).
   */
  asAny?: boolean;
  /**
   * Where a position is written and read as another (an `asAny` union as `any`, an array of them as an array of
   * `any`): the field lines, tables and cells of that info, whose value the reader then checks against this one.
   */
  viaAny?: ShapeInfo;
  /**
   * A map whose values are composites (objects, arrays, unions of them): field lines of its keys, each value
   * laid out by the value shape (a field group, a table, nested field lines), or JSON.
   */
  fieldMap?: boolean;
}

export type DenseSource = Pick<CodecDescriptor, "root" | "definitions">;

export class DenseModel {
  private readonly defs = new Map<string, Shape>();
  private readonly infos = new Map<Shape, ShapeInfo>();
  private anyCellInfo: ShapeInfo | undefined;
  private anyInfo: ShapeInfo | undefined;
  private anyArrayInfo: ShapeInfo | undefined;
  private readonly openObjects = new Map<ShapeInfo, ShapeInfo>();
  readonly root: ShapeInfo;
  readonly definitions: DenseSource["definitions"];

  constructor(src: DenseSource) {
    this.definitions = src.definitions;
    for (const d of src.definitions) this.defs.set(d.name, d.shape);
    this.root = this.info(src.root);
  }

  resolve(s: Shape): Shape {
    let guard = 0;
    while (s.kind === "ref") {
      const d = this.defs.get(s.name);
      if (d === undefined || ++guard > 1000) return { kind: "any" };
      s = d;
    }
    return s;
  }

  info(shape: Shape): ShapeInfo {
    const s = this.resolve(shape);
    let info: ShapeInfo | undefined = this.infos.get(s);
    if (info !== undefined) return info;
    info = blankInfo(s);
    this.infos.set(s, info);
    this.classify(info);
    return info;
  }

  private classify(info: ShapeInfo): void {
    const s = info.shape;
    switch (s.kind) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
      case "null":
        info.spelling = "text";
        info.kinds = new Set([s.kind]);
        if (s.kind === "integer" && s.int64 === true) info.int64 = true;
        if (s.kind === "integer" && s.bigint === true) info.bigint = true;
        if (s.kind === "string" && s.format === "uuid") info.uuid = true;
        if (s.kind === "string" && (s.format === "date-time" || s.format === "date")) info.stamp = s.format;
        info.fast = s.kind === "string" ? 1 : s.kind === "number" ? 3 : s.kind === "integer" ? (s.int64 !== true ? 4 : 6) : s.kind === "boolean" ? 5 : 0;
        return;
      case "enum":
        if (s.values.every((v) => typeof v === "string")) {
          info.spelling = "text";
          info.kinds = new Set(["enum"]);
          info.enumValues = new Set(s.values as string[]);
          info.fast = 2;
        }
        return;
      case "object":
        if (s.properties.length > 0) {
          info.spelling = "object";
          info.props = s.properties;
          info.index = new Map(s.properties.map((p, i) => [p.name, i]));
          info.dropped = s.properties.map((p) => p.required && this.resolve(p.shape).kind === "const");
          info.keys = s.properties.map((p) => spellKey(p.name));
          info.propInfos = s.properties.map((p) => this.info(p.shape));
        } else if (s.additional !== false) {
          // a map: its keys can head a field group or table when its values are scalars (or anything)
          const a = this.info(s.additional);
          info.open = a.spelling === "text" ? a : a.shape.kind === "any" ? this.anyCell() : undefined;
          if (info.open === undefined) info.fieldMap = true;
        }
        return;
      case "array":
        info.itemInfo = this.info(s.items);
        // an array of unions spelled as `any` is an array of `any` (a table of their keys, or JSON), checked after
        if (info.itemInfo.asAny === true) info.viaAny = this.anyArray;
        return;
      case "union":
        this.classifyUnion(info, s);
        return;
      case "any":
        info.open = this.anyCell();
        return;
      default:
        return; // const (never alone in a cell: dropped or checked), array handled by callers, tuple: json
    }
  }

  /** The info of `any` (an open object's key whose values are objects: a nested group of their keys). */
  get any(): ShapeInfo {
    return (this.anyInfo ??= this.info(ANY));
  }

  /**
   * An open position (`any`, a map) holding an object written as field lines: an object of no declared properties
   * whose keys take the map's value shape (`any` for `any`), so that the object field lines' reader and writer
   * take it as they take an open object's extra keys.
   */
  openObject(info: ShapeInfo): ShapeInfo {
    let o = this.openObjects.get(info);
    if (o === undefined) {
      const additional = info.shape.kind === "object" && info.shape.additional !== false ? info.shape.additional : ANY;
      o = blankInfo({ kind: "object", properties: [], additional });
      o.spelling = "object";
      o.props = [];
      o.index = new Map();
      o.propInfos = [];
      o.dropped = [];
      o.keys = [];
      this.openObjects.set(info, o);
    }
    return o;
  }

  /** An array of `any`: what an `any` position holding an array is read and written as when it is a table. */
  get anyArray(): ShapeInfo {
    return (this.anyArrayInfo ??= this.info(ANY_ARRAY));
  }

  /**
   * The cell of a key the schema does not declare, where any value may stand: null, booleans, numbers and strings
   * read as a union of those reads them (a string that would read as another kind is quoted), and a cell that
   * begins with `{` or `[` is JSON (a string that begins so is quoted too).
   */
  private anyCell(): ShapeInfo {
    if (this.anyCellInfo !== undefined) return this.anyCellInfo;
    const cell = blankInfo({ kind: "any" });
    cell.spelling = "text";
    cell.kinds = new Set(["null", "boolean", "number", "string"]);
    cell.anyCell = true;
    return (this.anyCellInfo = cell);
  }

  private classifyUnion(info: ShapeInfo, s: UnionShape): void {
    const branches = s.branches.map((b) => this.info(b));
    const kinds = new Set<string>();
    const enumValues = new Set<string>();
    let scalar = true;
    for (const b of branches) {
      if (b.spelling !== "text") {
        scalar = false;
        break;
      }
      for (const k of b.kinds!) kinds.add(k);
      if (b.int64) info.int64 = true;
      if (b.bigint) info.bigint = true;
      if (b.enumValues) for (const v of b.enumValues) enumValues.add(v);
    }
    if (scalar) {
      // a uuid check only when every string branch is a uuid
      const strings = branches.filter((b) => b.kinds!.has("string"));
      if (strings.length > 0 && strings.every((b) => b.uuid === true)) info.uuid = true;
      // the basic form only where no other branch could read it: a basic date (`20250115`) is also a number or
      // could be an enum value, so a date union takes it only with strings and null; a basic stamp reads as
      // nothing else
      const stamp = strings[0]?.stamp;
      if (stamp !== undefined && strings.every((b) => b.stamp === stamp) && (stamp === "date-time" || [...kinds].every((k) => k === "string" || k === "null"))) info.stamp = stamp;
      info.spelling = "text";
      info.kinds = kinds;
      if (enumValues.size > 0) info.enumValues = enumValues;
      return;
    }
    const nonNull = branches.filter((b) => b.shape.kind !== "null");
    if (nonNull.length === 1 && branches.length === 2) info.nonNull = nonNull[0]!;
    else if (nonNull.length >= 2 && branches.length === nonNull.length + 1) {
      // `oneOf: [{type: "null"}, Point, LineString]`: the objects, when they are discriminated, as X of `X | null`
      // (a table of their variants); the schema's own union has a branch that is no object, so no discriminator
      const shapes = nonNull.map((b) => b.shape);
      const d = discriminatorOf(shapes, (x) => this.resolve(x));
      if (d !== undefined) info.nonNull = this.info({ kind: "union", branches: shapes, discriminator: d });
    }
    if (s.discriminator !== undefined && branches.every((b) => b.spelling === "object")) {
      info.disc = { property: s.discriminator.property, values: s.discriminator.values, branches };
    }
    // any other union of composites (`string | string[] | {...}`, objects no discriminator tells apart): laid out
    // as `any` lays out its value, then checked against the union; not with an int64 inside, whose digits only the
    // schema can keep (an `any` position reads numbers as doubles)
    if (info.disc === undefined && info.nonNull === undefined && !someShape([s], isInt64, (x) => this.resolve(x))) {
      info.asAny = true;
      info.viaAny = this.any;
    }
  }


  /** The object info a group column or field lines use for this shape (undefined: not an object). */
  objectOf(info: ShapeInfo): ShapeInfo | undefined {
    return info.spelling === "object" ? info : undefined;
  }
}

const ANY: Shape = { kind: "any" };
const ANY_ARRAY: Shape = { kind: "array", items: ANY };

/**
 * An info before classification, every field set, in one order: infos share one hidden class, so the writer's and
 * reader's reads of them stay monomorphic (classify's varying assignments would otherwise give each kind its own).
 */
function blankInfo(shape: Shape): ShapeInfo {
  return {
    shape,
    spelling: "json",
    props: undefined,
    index: undefined,
    propInfos: undefined,
    dropped: undefined,
    keys: undefined,
    itemInfo: undefined,
    kinds: undefined,
    enumValues: undefined,
    enumList: undefined,
    disc: undefined,
    fast: 0,
    int64: undefined,
    bigint: undefined,
    uuid: undefined,
    stamp: undefined,
    nonNull: undefined,
    cellCols: undefined,
    follows: undefined,
    lastGroup: undefined,
    lastArray: undefined,
    discCol: undefined,
    variantProps: undefined,
    open: undefined,
    anyCell: undefined,
    asAny: undefined,
    viaAny: undefined,
    fieldMap: undefined,
  };
}

/**
 * A required scalar that may be null: its null is an empty cell in rows and groups (a required field is never
 * absent, so the empty cell can only mean null; `,,` is a token fewer than `,null,`). Field lines write `null`.
 */
export function nullAsEmpty(required: boolean, info: ShapeInfo): boolean {
  return required && info.spelling === "text" && info.kinds!.has("null");
}

/** A required `const` property: dense text drops it (the reader puts it back). */
export function droppedConst(p: PropertyShape, model: DenseModel): boolean {
  return p.required && model.resolve(p.shape).kind === "const";
}

/** An int64 integer (a bigint beyond 2^53, or always with the `bigint` config): only the schema keeps its digits. */
function isInt64(s: Shape): boolean {
  return s.kind === "integer" && (s.int64 === true || s.bigint === true);
}

export function isArrayShape(s: Shape): s is Extract<Shape, { kind: "array" }> {
  return s.kind === "array";
}

export type { ObjectShape };
