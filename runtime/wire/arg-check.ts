/**
 * Argument checks of the public entries. The runtime's internal functions (what generated code and the runtime
 * itself call per value, with values of their own) check nothing; an entry exports a checked copy instead
 * (`checked`), so that an argument of the wrong kind is a ToonError naming the function and the parameter, never
 * a TypeError from using it, and the hot paths and bundles stay as they are. One check per call, at the boundary:
 * the kind of each argument (a Writer, a string, a descriptor...), not its whole contents.
 */
import { ToonError, optionsArg } from "./errors.ts";

/** How a message names what it got: `null`, `an array`, else its typeof. */
export function kindOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v;
}

/** INVALID_VALUE: `fn expects <expected>, got <kind>`. */
export function refuse(fn: string, expected: string, got: unknown): never {
  throw new ToonError("INVALID_VALUE", `${fn} expects ${expected}, got ${kindOf(got)}`);
}

type Test = (v: any) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const isFunction = (v: unknown): boolean => typeof v === "function";
/** A codec descriptor, or what readers need of one (`root` and `definitions`). */
export const isDescriptor: Test = (v) => isObject(v) && isObject(v.root) && Array.isArray(v.definitions);

function isTextFields(v: unknown, depth: number): boolean {
  if (!Array.isArray(v) || depth > 100) return false;
  for (const f of v) if (typeof f !== "string" && !(isObject(f) && typeof f.name === "string" && isTextFields(f.fields, depth + 1))) return false;
  return true;
}

/**
 * The kinds a signature names, each with how a message says it. A kind tells a real argument from null, a
 * number, a string, an array or a plain object by what the function reads first (a Writer's methods, a
 * descriptor's root), as `peekHeader` tells a Reader.
 */
const KINDS: Record<string, readonly [what: string, test: Test]> = {
  string: ["a string", (v) => typeof v === "string"],
  number: ["a number", (v) => typeof v === "number"],
  boolean: ["a boolean", (v) => typeof v === "boolean"],
  bigint: ["a bigint", (v) => typeof v === "bigint"],
  null: ["null", (v) => v === null],
  function: ["a function", isFunction],
  object: ["an object", isObject],
  // what a property is set on: not frozen, sealed or preventExtensions'd
  extensible: ["an object that takes new properties", (v) => isObject(v) && Object.isExtensible(v)],
  array: ["an array", Array.isArray],
  iterable: ["an iterable", (v) => isFunction(v?.[Symbol.iterator]) && isObject(v)],
  Set: ["a Set", (v) => isObject(v) && isFunction(v.has)],
  Map: ["a Map", (v) => isObject(v) && isFunction(v.get) && isFunction(v.has)],
  Writer: ["a Writer (new Writer())", (v) => isObject(v) && isFunction(v.varint) && isFunction(v.finish)],
  Reader: ["a Reader (new Reader(bytes))", (v) => isObject(v) && isFunction(v.varint) && isFunction(v.remaining)],
  DefaultTable: ["a default table (defaultTable(values))", (v) => isObject(v) && Array.isArray(v.values) && isObject(v.index) && isFunction(v.index.get)],
  Descriptor: ["a codec descriptor", isDescriptor],
  Shape: ["a descriptor shape", (v) => isObject(v) && typeof v.kind === "string"],
  DefinitionLookup: ["a definition lookup (a CodecPlan)", (v) => isObject(v) && isFunction(v.def)],
  ReaderSpec: ["a ReaderSpec", (v) => isObject(v) && isDescriptor(v.descriptor) && isFunction(v.check) && isObject(v.hints)],
  PayloadHints: ["payload hints", (v) => isObject(v) && typeof v.root === "string" && Array.isArray(v.keys)],
  Payload: ["a payload (findPayloads)", (v) => isObject(v) && typeof v.text === "string" && typeof v.kind === "string"],
  FillSpec: ["a fill spec", (v) => isObject(v) && isObject(v.root) && isObject(v.defs)],
  ToolSetSpec: ["a tool set spec (toolSet)", (v) => isObject(v) && isObject(v.tools) && isFunction(v.tools.get) && isDescriptor(v.descriptor)],
  TextState: ["a text encoder's state", (v) => isObject(v) && typeof v.out === "string" && Array.isArray(v.nl)],
  TextGroup: ["a text group (name, fingerprint, toText, fromText)", (v) => isObject(v) && isFunction(v.toText) && isFunction(v.fromText)],
  SchemalessType: ["a schemaless type", (v) => isObject(v) && typeof v.kind === "number"],
  SchemalessBodyReader: ["a schemaless body reader (schemalessBodyReader)", (v) => isObject(v) && typeof v.nodes === "number" && isObject(v.strings)],
  // a nesting depth or level: it sizes indentation, so a huge one would cost gigabytes for a few bytes of input
  depth: ["a depth (an integer from 0 to 10000)", (v) => Number.isInteger(v) && v >= 0 && v <= 10_000],
  // table fields: names, or { name, fields } for a nested table (each checked, as they are walked)
  TextFields: ["text fields (names, or { name, fields })", (v) => isTextFields(v, 0)],
  // a tool set's tools: [name, argument codec] each
  ToolEntries: [
    "the tools ([name, argument codec] each)",
    (v) => Array.isArray(v) && v.every((t) => Array.isArray(t) && typeof t[0] === "string" && isObject(t[1]) && isFunction(t[1].validate)),
  ],
  PeekSpec: ["a peek spec (name, fingerprint, flags, tag, count)", (v) => isObject(v) && typeof v.fingerprint === "number" && typeof v.tag === "number"],
  // an options argument is CONFIG_ERROR, as everywhere else (optionsArg)
  options: ["options", (v) => v === undefined || (isObject(v) && !Array.isArray(v))],
};

interface Param {
  name: string;
  optional: boolean;
  rest: boolean;
  kinds: (readonly [string, Test])[];
}

/** `name(a: Kind, b, c?: Kind | Kind, ...d: Kind)`: unchecked where no kind is given. */
function parseSignature(signature: string): { name: string; params: Param[] } {
  const open = signature.indexOf("(");
  const name = signature.slice(0, open);
  const inner = signature.slice(open + 1, signature.lastIndexOf(")")).trim();
  const params = inner === "" ? [] : inner.split(",").map((part): Param => {
    const [head, type] = part.split(":").map((s) => s.trim()) as [string, string | undefined];
    const rest = head.startsWith("...");
    const optional = head.endsWith("?");
    const kinds = (type ?? "").split("|").map((k) => k.trim()).filter((k) => k !== "").map((k) => {
      const kind = KINDS[k];
      if (kind === undefined) throw new Error(`internal: unknown argument kind ${k} in ${signature}`);
      return kind;
    });
    return { name: head.replace(/^\.\.\.|\?$/g, ""), optional, rest, kinds };
  });
  return { name, params };
}

function checkArg(fn: string, p: Param, v: unknown): void {
  if (p.kinds.length === 0 || (v === undefined && p.optional)) return;
  for (const [, test] of p.kinds) if (test(v)) return;
  if (p.kinds[0] === KINDS.options) optionsArg(v, fn);
  refuse(fn, `${p.name} to be ${p.kinds.map(([what]) => what).join(" or ")}`, v);
}

/**
 * A checked copy of the internal function `f` for a public entry: each call checks its arguments against
 * `signature` (`"wString(w: Writer, v, p: string, req?: number)"`: a parameter with no kind is not checked, `?`
 * may be undefined, `...` checks every remaining argument), then calls `f`. A wrong one is INVALID_VALUE
 * (`wString expects w to be a Writer (new Writer()), got null`), or CONFIG_ERROR for `options`.
 */
export function checked<F extends (...args: any[]) => any>(f: F, signature: string): F {
  const { name, params } = parseSignature(signature);
  const g = function (this: unknown, ...args: unknown[]): unknown {
    for (let i = 0; i < params.length; i++) {
      const p = params[i]!;
      if (!p.rest) checkArg(name, p, args[i]);
      else for (let j = i; j < args.length; j++) checkArg(name, p, args[j]);
    }
    return f.apply(this, args);
  };
  Object.defineProperty(g, "name", { value: name });
  return g as F;
}
