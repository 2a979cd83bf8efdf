/**
 * From a loaded schema and its dictionary to the codec descriptor the engine runs (runtime/codec/descriptor.ts):
 * the dictionary's wire layout and default tables applied here (they need the dictionary file and xxhash), then
 * the shapes trimmed to what the engine reads, so the descriptor is small enough to embed in a generated module.
 */
import type { CodecDescriptor, Constraints, Shape as WireShape } from "../../runtime/codec/descriptor.ts";
import type { Dictionary } from "../dictionary/types.ts";
import { applyWireLayout } from "../dictionary/wire-layout.ts";
import type { ObjectShape, SchemaIR, Shape } from "../ir/types.ts";
import { someObject } from "../ir/walk.ts";
import { codecFingerprint, hasTables, withDefaultTables } from "../samples/tables.ts";
import { formatOf } from "../../runtime/codec/formats.ts";
import { wireSlots } from "../../runtime/codec/plan.ts";
import { withInterning } from "../dictionary/intern.ts";

/** True when some object of `ir` already carries a wire layout (`ObjectShape.wire`, set by `applyWireLayout`). */
export function hasWireLayout(ir: SchemaIR): boolean {
  return someObject(ir, (o) => o.wire !== undefined);
}

/**
 * The IR the generated module is emitted from (`emitModule(applyWireLayout(ir, dict), dict)`): `ir` as loaded
 * gets the dictionary's wire layout; an IR that already has one (the very IR handed to `emitModule`) is taken
 * as it is, so passing either gives the same codec. (For a dictionary made from this very schema the layout is
 * the schema order, and the codec is the one of a fresh IR.)
 */
export function laidOut(ir: SchemaIR, dict: Dictionary): SchemaIR {
  return hasWireLayout(ir) ? ir : applyWireLayout(ir, dict);
}

/** The IR the codec runs: the wire layout, then the default-value tables and the per-path interning applied. */
export function codecIR(schema: SchemaIR, dict: Dictionary): SchemaIR {
  return withInterning(withDefaultTables(laidOut(schema, dict), dict), dict);
}

/**
 * The descriptor of the codec `emitModule` generates for `schema` and `dict` (`dict` as for `interpret`: the
 * dictionary the module was generated with).
 */
export function describeCodec(schema: SchemaIR, dict: Dictionary): CodecDescriptor {
  return descriptorOf(codecIR(schema, dict), dict);
}

/** The descriptor of an IR the wire layout and tables are applied to already (`codecIR`; what `emitModule` emits). */
export function descriptorOf(ir: SchemaIR, dict: Dictionary): CodecDescriptor {
  const rootIsDefinition = ir.root.kind === "ref" && ir.root.name === ir.name;
  for (const d of ir.definitions) {
    if (d.name === ir.name && !rootIsDefinition) throw new Error(`internal: definition ${d.name} clashes with the codec name`);
  }
  return {
    name: ir.name,
    fingerprint: codecFingerprint(dict),
    level: dict.extensions.length,
    tables: hasTables(dict),
    root: trim(ir.root, false),
    definitions: ir.definitions.map((d) => ({ name: d.name, shape: trim(d.shape, false) })),
    retired: dict.retired.map((r) => r.id),
  };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Lines up to this width print on one line; longer objects and arrays get one entry per line. */
const LINE = 240;

/**
 * A descriptor (any JSON) as a TypeScript expression for a generated module: an object or array that fits in
 * LINE columns on one line (without spaces), otherwise one entry per line, so a schema change shows as a small diff. Keys are
 * bare when they are identifiers; `__proto__` is computed (`["__proto__"]`), so it stays an own property.
 */
export function printDescriptor(v: unknown, indent = ""): string {
  const flat = printFlat(v);
  if (typeof v !== "object" || v === null || indent.length + flat.length <= LINE) return flat;
  const inner = indent + "  ";
  // a long list of primitives (enum values, table entries) fills its lines: one entry per line would spend more
  // on indentation than on the values, and appending one changes the last line only
  if (Array.isArray(v) && v.length > 0 && v.every((x) => x === null || typeof x !== "object")) {
    const lines: string[] = [];
    let line = "";
    for (const x of v) {
      const item = printFlat(x) + ",";
      if (line !== "" && inner.length + line.length + 1 + item.length > LINE) {
        lines.push(inner + line);
        line = item;
      } else line = line === "" ? item : line + " " + item;
    }
    lines.push(inner + line);
    return "[\n" + lines.join("\n") + "\n" + indent + "]";
  }
  const entries = Array.isArray(v)
    ? v.map((x) => inner + printDescriptor(x, inner))
    : Object.entries(v).map(([k, x]) => inner + printKey(k) + ": " + printDescriptor(x, inner));
  return (Array.isArray(v) ? "[" : "{") + "\n" + entries.join(",\n") + ",\n" + indent + (Array.isArray(v) ? "]" : "}");
}

// One-line parts print without spaces: a descriptor is data the engine reads, not code a reader edits, and its
// spaces were a tenth of its bytes (it is in every module, for streams).
function printFlat(v: unknown): string {
  if (Array.isArray(v)) return "[" + v.map(printFlat).join(",") + "]";
  if (typeof v === "object" && v !== null) {
    const parts = Object.entries(v).map(([k, x]) => printKey(k) + ":" + printFlat(x));
    return parts.length === 0 ? "{}" : "{" + parts.join(",") + "}";
  }
  if (typeof v === "string") return printString(v);
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "boolean" || v === null) return String(v);
  throw new Error(`internal: ${typeof v} in a descriptor`);
}

function printKey(k: string): string {
  if (k === "__proto__") return '["__proto__"]';
  return IDENTIFIER.test(k) ? k : printString(k);
}

/** A JSON string literal, with the line separators escaped too (a module's text stays plain lines). */
function printString(s: string): string {
  return JSON.stringify(s).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/**
 * A shape with only what the engine reads: no schema paths, descriptions or unenforced keywords; string
 * formats only where they change the encoding; wire layouts only where they differ from the schema order; `default` only on extension properties (a decoder fills them
 * in for writers older than the property).
 */
/** What the engine reads of `s` (no source facts): two shapes with equal ones write and read the same bytes. */
export function wireShapeOf(s: Shape): WireShape {
  return trim(s, false);
}

function trim(s: Shape, keepDefault: boolean): WireShape {
  const out: Record<string, unknown> = { kind: s.kind };
  switch (s.kind) {
    case "string":
    case "integer":
    case "number":
      Object.assign(out, formatOf(s).record, formatOf(s).decode);
      break;
    case "enum":
      out.values = s.values;
      break;
    case "const":
      out.value = s.value;
      break;
    case "ref":
      out.name = s.name;
      break;
    case "array":
      out.items = trim(s.items, false);
      break;
    case "tuple":
      out.items = s.items.map((i) => trim(i, false));
      out.minItems = s.minItems;
      out.rest = s.rest === false ? false : trim(s.rest, false);
      break;
    case "union":
      out.branches = s.branches.map((b) => trim(b, false));
      if (s.discriminator !== undefined) out.discriminator = s.discriminator;
      break;
    case "object": {
      const ext = new Set(s.wire?.ext.map((x) => x.prop));
      out.properties = s.properties.map((p, i) => ({ name: p.name, required: p.required, shape: trim(p.shape, ext.has(i)) }));
      out.additional = s.additional === false ? false : trim(s.additional, false);
      // a layout that is the schema order, nothing retired or added, travels as a fresh object does: left out
      if (s.wire !== undefined && !isSchemaOrder(s)) {
        const wire: Record<string, unknown> = { path: s.wire.path };
        // slots that are the other properties in schema order (an object that only gained some) are left out
        if (!slotsAreDefault(s)) {
          wire.slots = wireSlots(s).map((slot) => ("prop" in slot ? { prop: slot.prop } : { retired: slot.retired, required: false, shape: trim(slot.shape, false) }));
        }
        wire.ext = s.wire.ext.map((x) => ({ prop: x.prop, id: x.id, level: x.level }));
        out.wire = wire;
      }
      break;
    }
    default:
      break;
  }
  if (keepDefault && s.default !== undefined) out.default = s.default;
  if (s.table !== undefined) out.table = s.table;
  const c = enforced(s.constraints);
  if (c !== undefined) out.constraints = c;
  return out as unknown as WireShape;
}

function isSchemaOrder(s: ObjectShape): boolean {
  return s.wire!.ext.length === 0 && wireSlots(s).every((slot, i) => "prop" in slot && slot.prop === i);
}

/** The slots are what `wireSlots` gives when they are absent: the non-extension properties in schema order. */
function slotsAreDefault(s: ObjectShape): boolean {
  const slots = wireSlots(s);
  const ext = new Set(s.wire!.ext.map((x) => x.prop));
  const others = s.properties.map((_, i) => i).filter((i) => !ext.has(i));
  return slots.length === others.length && slots.every((slot, i) => "prop" in slot && slot.prop === others[i]);
}

function enforced(c: Constraints | undefined): Constraints | undefined {
  if (c === undefined) return undefined;
  const { unchecked: _, ...rest } = c;
  return Object.keys(rest).length === 0 ? undefined : rest;
}
