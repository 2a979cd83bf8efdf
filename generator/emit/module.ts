/**
 * Assembles one generated module: header, runtime import, types, hoisted tables, the unrolled write/read
 * functions (one pair per named definition), structural predicates, the dictionary and the codec object.
 * Output is a pure function of (IR, dictionary, generator version): deterministic, byte for byte.
 */
import type { Dictionary } from "../dictionary/types.ts";
import type { SchemaIR } from "../ir/types.ts";
import { Code, code, join, lineComment, name, raw } from "../../templates/code.ts";
import { ToonError } from "../../runtime/wire/errors.ts";
import { ModuleContext } from "./context.ts";
import { emitPendingPredicates } from "./predicate.ts";
import { emitReadFunction } from "./read.ts";
import { declareType } from "./types.ts";
import { shareTypes } from "./types-share.ts";
import { emitWriteFunction } from "./write.ts";
import { INTERNAL_DOC } from "./link.ts";
import { hasConstraints } from "../../runtime/validate/constraints.ts";
import { LINEAR_ENGINE_IMPORT, linearPatternsDeclaration, linearPatternsOf } from "./linear-patterns.ts";
import { emitTextSection } from "./text.ts";
import { emitStreamSection } from "./stream.ts";
import { readerName, writerName } from "./names.ts";
import { DEFAULT_RUNTIME_IMPORT, GENERATOR_VERSION, RUNTIME_CONTRACT_VERSION } from "../version.ts";
import { codecFingerprint, hasTables, withDefaultTables } from "../samples/tables.ts";
import { withInterning } from "../dictionary/intern.ts";
import { emitPeekSection, planFieldIndex, type IndexOption } from "./peek.ts";

export interface EmitOptions {
  /** Module specifier of the runtime (default `@toon-gen/runtime`). */
  runtimeImport?: string;
  /** File name used in the runtime contract check message. */
  fileName: string;
  /** Paths with a field offset table (FIELD_INDEX, emit/peek.ts): `true` for every top-level property. */
  index?: IndexOption;
  /**
   * The codec's JSON Schema validator module (generator/validate): `validate()` and `fromModelOutput` check the
   * source schema with it, every violation listed. Without it, `validate()` checks the shape and the constraints
   * the IR keeps.
   */
  validator?: { from: string; name: string };
  /**
   * How the hot paths are written (protobuf's `optimize_for`): `"speed"` unrolls binary encode/decode and the text
   * encoder and check for this schema; `"size"` embeds only the descriptor and runs every feature on the engine
   * (runtime/codec/engine/module.ts: same bytes, values and errors, about half the speed); `"auto"` (the default)
   * is `"speed"` unless that module would pass {@link SIZE_BUDGET}. A field index (`index`) needs `"speed"`.
   */
  optimize?: Optimize;
  /** The budget of `"auto"` in bytes (default {@link SIZE_BUDGET}). */
  sizeBudget?: number;
  /**
   * The module is one of a tool set's (args, call, batch): each definition's descriptor shape is a constant named
   * after the definition (emit/descriptor-share.ts), so that generator/emit/link.ts can import it from the
   * argument codec instead of repeating it. Only the module's source changes, not the descriptor's value.
   */
  shareDefinitions?: boolean;
  /**
   * The module is a tool set's call codec: it exports its descriptor (`$descriptor`, in the internal export
   * statement of generator/emit/link.ts) for the set's main module, whose tools are checked against it.
   */
  exportDescriptor?: boolean;
}

export type Optimize = "speed" | "size" | "auto";

/**
 * Above this many bytes, `"auto"` writes a module for size: unrolled code that large costs more to load, parse
 * and compile (tsc, bundlers, the JIT) than the engine's closures cost at run time.
 */
export const SIZE_BUDGET = 1024 * 1024;

export function emitModule(ir: SchemaIR, dict: Dictionary, options: EmitOptions): string {
  const optimize = options.optimize ?? "auto";
  if (optimize === "size" && options.index !== undefined) {
    throw new ToonError("CONFIG_ERROR", `${ir.name}: a field index ("index") needs "optimize": "speed" (peek reads through unrolled readers)`, { path: "/optimize" });
  }
  const speed = optimize === "size" ? undefined : emitWith(ir, dict, options, false);
  if (speed !== undefined && (optimize === "speed" || options.index !== undefined || Buffer.byteLength(speed) <= (options.sizeBudget ?? SIZE_BUDGET))) return speed;
  return emitWith(ir, dict, options, true);
}

function emitWith(ir: SchemaIR, dict: Dictionary, options: EmitOptions, size: boolean): string {

  // default-value tables (docs/FORMAT.md §10.1): the positions they cover are written through them
  const tabled = hasTables(dict);
  ir = withInterning(withDefaultTables(ir, dict), dict);
  const cx = new ModuleContext(ir);
  // field index (docs/FORMAT.md §10.2): marks in the root writer, before anything is emitted
  const index = planFieldIndex(ir, dict, options.index, cx);
  for (const d of ir.definitions) {
    if (d.name === ir.name) {
      // the root refers to itself (`$ref: "#"`): its definition is the root
      if (!(ir.root.kind === "ref" && ir.root.name === ir.name)) throw new Error(`internal: definition ${d.name} clashes with the codec name`);
    }
  }
  const rootIsDefinition = ir.root.kind === "ref" && ir.root.name === ir.name;
  const codec = name(ir.name);

  // inline object types that repeat are declared once (types-share.ts)
  const declared = [...(rootIsDefinition ? [] : [{ name: ir.name, shape: ir.root }]), ...ir.definitions];
  const taken = new Set([ir.name, ...ir.definitions.map((d) => d.name), ...Object.values(featureGroups(ir.name))]);
  const sharedTypes = shareTypes(declared, taken);
  const types: Code[] = [];
  if (!rootIsDefinition) types.push(declareType(ir.name, ir.root, ir.description, sharedTypes.aliases, sharedTypes.bases.get(ir.name)));
  for (const d of ir.definitions) types.push(declareType(d.name, d.shape, undefined, sharedTypes.aliases, sharedTypes.bases.get(d.name)));
  types.push(...sharedTypes.declarations);

  const fns: Code[] = [];
  if (size) {
    // written for size: no unrolled code; the engine runs the descriptor (runtime/codec/engine/module.ts)
  } else if (!rootIsDefinition) {
    fns.push(emitWriteFunction(writerName(ir.name), ir.root, false, cx));
    fns.push(emitReadFunction(readerName(ir.name), ir.root, false, cx));
  }
  for (const d of size ? [] : ir.definitions) {
    const rec = cx.recursive.has(d.name);
    fns.push(emitWriteFunction(writerName(d.name), d.shape, rec, cx));
    fns.push(emitReadFunction(readerName(d.name), d.shape, rec, cx));
  }
  // predicates may request further predicates while being emitted
  const preds = emitPendingPredicates(cx, new Set<string>());

  const text = emitTextSection(ir, cx, size);
  // extension properties' own writers and readers (they may request more: nested extensions)
  const extFns: Code[] = [];
  const emittedExt = new Set<number>();
  for (let again = true; again; ) {
    again = false;
    for (const [id, x] of [...cx.extensions]) {
      if (emittedExt.has(id)) continue;
      emittedExt.add(id);
      again = true;
      // an extension's writer and reader side by side (one line each when their value is one statement)
      extFns.push(code`${emitWriteFunction(x.writer, x.shape, false, cx)}\n${emitReadFunction(x.reader, x.shape, false, cx)}`);
    }
  }
  // streaming frames: per-path writers and readers, after everything else asked the context for its functions
  const stream = emitStreamSection(ir, dict, cx, size, options.shareDefinitions === true);
  const level = dict.extensions.length;
  // from this writer level on, a message lacks records it must have unless it is checked (see decode)
  const mustArrive = [...cx.extensions.values()].filter((x) => x.required).map((x) => x.level);
  const checkFrom = mustArrive.length === 0 ? null : Math.min(...mustArrive);
  const retiredIds = dict.retired.map((r) => r.id).filter((id) => !cx.extensions.has(id));
  const applyCases = [...cx.extensions].map(
    ([id, x]) => code`    case ${id}:
      $rt.applyExtension(r, root, ${x.key}, ${x.reader});
      return true;`,
  );
  // always a switch, so that the first extension property adds its case, not a new function
  const knowsNone = applyCases.length === 0 && retiredIds.length === 0;
  const apply = size
    ? code`/** Applies the extension records this codec knows (the engine's, from the descriptor). */
function $applyExtensions(id: number, r: $rt.Reader, root: unknown): boolean {
  return $engine.applyExtensions(id, r, root);
}`
    : code`/** Extension records it knows; others stay on the root (runtime/features/extensions.ts). */
function $applyExtensions(${knowsNone ? raw("id: number") : raw("id: number, r: $rt.Reader, root: unknown")}): boolean {
  switch (id) {${knowsNone ? raw("") : code`
${join(applyCases)}`}${
    retiredIds.length === 0
      ? raw("")
      : code`
${join(retiredIds.map((id) => code`    case ${id}:`))}
      r.pos = r.end; // a retired property: dropped
      return true;`
  }
    default:
      return false;
  }
}`;

  // value constraints (minLength, pattern, minimum, ...): checked by validate() when the schema has any
  // checked on the descriptor the module embeds (runtime/validate/constraints.ts), which keeps the IR's constraints
  const shapes = [ir.root, ...ir.definitions.map((d) => d.shape)];
  const constraints = hasConstraints(shapes);
  // without a validator module, validate() runs the constraints' patterns: those planned for re2js on it
  const linear = options.validator || !constraints ? [] : linearPatternsOf(shapes);
  const patternsArg = linear.length === 0 ? raw("") : raw(", $linearPatterns");

  const fp = codecFingerprint(dict);
  const extraFlags = tabled ? raw("$rt.Flag.DEFAULTS") : raw("0");
  const peek = index === undefined ? undefined : emitPeekSection(index, cx, ir.name, extraFlags);
  const fileName = options.fileName;
  const header = [
    lineComment(`@generated by toon-gen ${GENERATOR_VERSION} from ${ir.source}. DO NOT EDIT.`),
    lineComment(
      `Dictionary ${dict.name}: fingerprint 0x${fp.toString(16).padStart(4, "0")}, ${dict.base.entries.length} paths${level > 0 ? `, extension level ${level}` : ""}${tabled ? `, default-value tables for ${dict.defaults!.tables.length} paths` : ""}${index ? `, field index of ${index.slots.length} paths` : ""}.`,
    ),
    ...(size ? [lineComment(`Written for size ("optimize"): encode, decode, validate and the text check run on the engine over $descriptor.`)] : []),
    raw("/* eslint-disable */"),
  ];
  const g = featureGroups(ir.name);
  const [B, Va, Tx, Dn, Pr, St, Pk] = [g.binary, g.validate, g.text, g.dense, g.prompt, g.stream, g.peek].map((n) => name(n)) as [Code, Code, Code, Code, Code, Code, Code];
  // written for size: the groups call the engine, compiled from the descriptor on first use
  const engineFns = code`/** The engine's codec over the descriptor (runtime/codec/engine/module.ts): compiled the first time it is used. */
const $engine = /*@__PURE__*/ $rt.engineCodec($descriptor${patternsArg});
/** The text check of \`fromText\` and \`fromModelOutput\`, from the descriptor (built on first use). */
const $textCheck = /*@__PURE__*/ $rt.engineTextCheck($descriptor);

/** Encode to TOON binary. Throws ToonError INVALID_VALUE (with the path of the offending value). */
function $encode(value: ${codec}, options?: $rt.EncodeOptions): Uint8Array {
  return $engine.encode(value, options);
}

/** Decode TOON binary. Throws ToonError (TRUNCATED, FINGERPRINT_MISMATCH, ...) with a path and byte offset. */
function $decode(bytes: Uint8Array, options?: $rt.DecodeOptions): ${codec} {
  return $engine.decode(bytes, options) as ${codec};
}

${options.validator ? code`/** Check a value against the JSON Schema (its validator module), every violation listed; then what the codec can carry. */
function $validate(value: unknown, options?: $rt.ValidateOptions): $rt.ValidationResult<${codec}> {
  return $rt.validateFull<${codec}>(value, options, $checkSchema, $engine.write);
}` : code`/** Check a value against the schema: its shape, then its value constraints, every violation listed. */
function $validate(value: unknown, options?: $rt.ValidateOptions): $rt.ValidationResult<${codec}> {
  return $engine.validate(value, options) as $rt.ValidationResult<${codec}>;
}`}
`;
  const body = code`${join(header)}
import * as $rt from ${codegenImport(options.runtimeImport)};${options.validator ? code`
import { ${name(options.validator.name)} as $checkSchema } from ${options.validator.from};` : raw("")}${linear.length === 0 ? raw("") : code`
${LINEAR_ENGINE_IMPORT}

${linearPatternsDeclaration(linear)}`}

${raw(GLOBALS_MARK)}

${join(types, "\n\n")}

${join(cx.hoisted())}

${join(fns, "\n\n")}
${extFns.length ? code`\n${join(extFns, "\n")}` : raw("")}
${apply}
${preds.length ? code`\n${join(preds, "\n\n")}\n` : raw("")}
${cx.helpers().length ? code`\n${join(cx.helpers(), "\n\n")}\n` : raw("")}
${text.functions}

/** The dictionary's identity (docs/FORMAT.md §5). */
const $dictionary = {
  name: ${dict.name},
  fingerprint: ${raw("0x" + fp.toString(16).padStart(4, "0"))},
  hash64: ${dict.base.hash64},
} as const;

/** Extension segments of the dictionary, and the header flags. */
const $LEVEL = ${level};
const $FLAGS = $rt.Flag.FIXED_DICTIONARY | ($LEVEL > 0 ? $rt.Flag.EXTENSIONS : 0)${tabled ? raw(" | $rt.Flag.DEFAULTS") : raw("")}${index ? raw(" | $rt.Flag.FIELD_INDEX") : raw("")};
/** Through the runtime contract check (runtime/wire/contract.ts). */
const $FINGERPRINT = /*@__PURE__*/ $rt.requireContract(${RUNTIME_CONTRACT_VERSION}, ${fileName}, $dictionary.fingerprint, ${ir.name});
${peek ? code`
${peek.section}
` : raw("")}
${stream.section}

${size ? engineFns : code`/** Errors are ToonError with a path (decode: and a byte offset). */
function $encode(value: ${codec}, options?: $rt.EncodeOptions): Uint8Array {
  const w = $rt.Writer.shared();
  const unknown = $rt.unknownOf(value);
  const flags = unknown === undefined ? $FLAGS : $FLAGS | $rt.Flag.EXTENSIONS;
  $rt.writeHeader(w, flags, $FINGERPRINT, $LEVEL);${index ? code`
  $rt.beginFieldIndex(w, ${index.slots.length});` : raw("")}
  try {
    ${writerName(ir.name)}(w, value);
  } catch (e) {
    $rt.rethrowAt(e, "");
  }${index ? code`
  $rt.endFieldIndex(w, ${raw("0x" + index.tag.toString(16).padStart(4, "0"))});` : raw("")}
  if (flags & $rt.Flag.EXTENSIONS) $rt.writeExtensionSection(w, unknown);
  return options === undefined ? w.finish() : $rt.compressMessage(w.finish(), options);
}

function $decode(bytes: Uint8Array, options?: $rt.DecodeOptions): ${codec} {
  const r = new $rt.Reader(bytes, 0, undefined, options);
  const flags = $rt.readHeader(r, $FINGERPRINT, ${ir.name}${tabled ? raw(", $rt.Flag.DEFAULTS") : raw("")});
  const v = ${readerName(ir.name)}(r);
  if (flags & $rt.Flag.EXTENSIONS && ($rt.readExtensionSection(r, v, $applyExtensions, options) > 0${checkFrom === null ? raw("") : code` || r.level >= ${checkFrom}`})) {
    $rt.assertDecoded(v, ${writerName(ir.name)});
  }
  r.done();
  return v;
}

${options.validator ? code`/** Check a value against the JSON Schema (its validator module), every violation listed; then what the codec can carry. */
function $validate(value: unknown, options?: $rt.ValidateOptions): $rt.ValidationResult<${codec}> {
  return $rt.validateFull<${codec}>(value, options, $checkSchema, ${writerName(ir.name)});
}` : code`/** The shape first, then the schema's value constraints. */
function $validate(value: unknown, options?: $rt.ValidateOptions): $rt.ValidationResult<${codec}> {
  ${!constraints ? code`void options;
  return $rt.validateWith(value, ${writerName(ir.name)});` : code`  const shaped = $rt.validateWith<${codec}>(value, ${writerName(ir.name)});
  if (!shaped.ok || options?.constraints === false) return shaped;
  const errors = $rt.checkConstraints(value, $descriptor${patternsArg});
  return errors.length === 0 ? shaped : { ok: false, errors };`}
}`}

`}

// Feature groups: a bundler drops those not imported.

/** Binary TOON: encode and decode. */
export const ${B} = {
  name: ${ir.name},
  fingerprint: $FINGERPRINT,
  dictionary: $dictionary,
  encode: $encode,
  decode: $decode,
};

/** Validation against the schema (shape and value constraints), without encoding. */
export const ${Va} = {
  name: ${ir.name},
  fingerprint: $FINGERPRINT,
  validate: $validate,
};

/** TOON text: what a model reads and writes. */
export const ${Tx}: $rt.ToonTextGroup<${codec}> = {
  name: ${ir.name},
  fingerprint: $FINGERPRINT,
${text.members}
};

/** Dense text (docs/TEXT.md): the schema-aware layout with far fewer tokens, that a model reads and writes. */
export const ${Dn}: $rt.DenseTextGroup<${codec}> = {
  name: ${ir.name},
  fingerprint: $FINGERPRINT,
${text.denseMembers}
};

/** What reads this codec's text from a model's reply, whole or as it streams (runtime/text/reader). */
const $readerSpec: $rt.ReaderSpec = { name: ${ir.name}, descriptor: $descriptor, ${text.readerSpec}${options.validator ? raw(", schema: $checkSchema") : raw("")} };

/** Prompting: the instructions that teach a model this shape, and reading the value out of its reply, whole or as it streams${options.validator ? raw(" (then checked against the full JSON Schema: ToonError INVALID_VALUE listing every violation)") : raw("")}. */
export const ${Pr} = /*@__PURE__*/ $rt.promptGroup<${codec}, $StreamPaths>($readerSpec, $FINGERPRINT, ${text.instructions});

/** Streaming frames (docs/FORMAT.md §10.3). */
export const ${St}: $rt.StreamCodec<${codec}, $StreamPaths> = /*@__PURE__*/ $rt.streamCodec<${codec}, $StreamPaths>($streamSpec);
${peek ? code`
/** O(1) field access (docs/FORMAT.md §10.2). */
export const ${Pk} = {
  name: ${ir.name},
  fingerprint: $FINGERPRINT,
${peek.member}
};
` : raw("")}
/** Every feature group, the two text layouts behind one toText/fromText (a bundle that uses it keeps them all: prefer the groups above). */
export const ${codec} = /*@__PURE__*/ $rt.codecOf(${B}, ${Va}, /*@__PURE__*/ $rt.textLayouts(${Tx}, ${Dn}), ${Pr}, { stream: ${St} }${peek ? code`, ${Pk}` : raw("")});
${options.exportDescriptor ? code`
${raw(INTERNAL_DOC)}
export { $descriptor };
` : raw("")}`;
  return tidy(unusedParameters(withGlobals(body.text)));
}

/**
 * Top-level functions share signatures by role (`(w, v)`, `(e, v, lead, key, kt, fd, lvl)`), and some bodies need
 * fewer of them (a constant writes nothing; a field function may not use its precomputed key text): such a
 * parameter is written `_name`, so the module compiles under `noUnusedParameters`.
 */
export function unusedParameters(text: string): string {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith("function ")) continue;
    const open = line.indexOf("(");
    let depth = 0;
    let close = -1;
    for (let k = open; k < line.length; k++) {
      const c = line[k];
      if (c === "(" || c === "<" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === ">" || c === "]" || c === "}") {
        depth--;
        if (depth === 0) {
          close = k;
          break;
        }
      }
    }
    if (close < 0) continue;
    let end = i;
    if (!line.trimEnd().endsWith("}") || line.trimEnd().endsWith("{")) {
      while (end + 1 < lines.length && lines[end + 1] !== "}") end++;
      end++;
    }
    const body = line.slice(close + 1) + "\n" + lines.slice(i + 1, end + 1).join("\n");
    const params = splitTopLevel(line.slice(open + 1, close));
    let changed = false;
    const renamed = params.map((param) => {
      const m = /^([A-Za-z_$][\w$]*)(\??:.*)$/s.exec(param.trim());
      if (m === null || m[1]!.startsWith("_")) return param;
      if (new RegExp(`(^|[^\\w$.]|\\.\\.\\.)${m[1]!.replace(/\$/g, "\\$")}(?![\\w$])`).test(body)) return param;
      changed = true;
      return (param.startsWith(" ") ? " " : "") + "_" + m[1] + m[2];
    });
    if (changed) lines[i] = line.slice(0, open + 1) + renamed.join(",") + line.slice(close);
  }
  return lines.join("\n");
}

/** `a: X, b: Y<P, Q>` at its top-level commas (each part keeps its leading space). */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s[k];
    if (c === "(" || c === "<" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === ">" || c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push(s.slice(start, k));
      start = k + 1;
    }
  }
  if (s.length > 0) out.push(s.slice(start));
  return out;
}

const GLOBALS_MARK = "/* $globals */";
/** Aliases of globals generated code calls: declared only where used (`noUnusedLocals`). */
const GLOBALS: [string, string][] = [
  ["$isArray", "globalThis.Array.isArray"],
  ["$isInteger", "globalThis.Number.isInteger"],
];

function withGlobals(text: string): string {
  const [head, rest] = [text.slice(0, text.indexOf(GLOBALS_MARK)), text.slice(text.indexOf(GLOBALS_MARK) + GLOBALS_MARK.length)];
  const used = GLOBALS.filter(([n]) => rest.includes(n + "("));
  return head + used.map(([n, v]) => `const ${n} = ${v};`).join("\n") + rest;
}

/**
 * The feature groups a codec module exports besides the all-in-one codec object: each a small object an app can
 * import alone, so that its bundle keeps only that feature (tree-shaking drops the others).
 */
export function featureGroups(codecName: string): { binary: string; validate: string; text: string; dense: string; prompt: string; stream: string; peek: string } {
  return {
    binary: `${codecName}Binary`,
    validate: `${codecName}Validate`,
    text: `${codecName}Text`,
    dense: `${codecName}Dense`,
    prompt: `${codecName}Prompt`,
    stream: `${codecName}Stream`,
    peek: `${codecName}Peek`,
  };
}

/** Every name a codec module exports as a value: the codec object, then its feature groups (peek only when indexed). */
export function codecExports(codecName: string, indexed: boolean): string[] {
  const g = featureGroups(codecName);
  return [codecName, g.binary, g.validate, g.text, g.dense, g.prompt, g.stream, ...(indexed ? [g.peek] : [])];
}

/**
 * The generated-code surface of the runtime (runtime/codegen.ts, versioned by its contract), by its internal
 * subpath: generated code calls it per value with values of its own, unchecked. The public `<runtime>/codegen` is
 * the same surface with every function checking its arguments (runtime/codegen-entry.ts).
 */
export function codegenImport(runtimeImport: string | undefined): string {
  return `${runtimeImport ?? DEFAULT_RUNTIME_IMPORT}/internal/codegen.js`;
}

/** Collapse runs of blank lines left by empty sections. */
function tidy(text: string): string {
  return text.replace(/\n{3,}/g, "\n\n").replace(/[ \t]+$/gm, "");
}
