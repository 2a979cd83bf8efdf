/**
 * Identifier sanitising for generated code. Schema strings (titles, file names, definition keys) are untrusted:
 * whatever comes in, what goes out is a plain ASCII identifier that is not a keyword and does not shadow a
 * global the generated code (or its reader) relies on.
 */

/** JS/TS reserved words and contextual keywords that cannot (or should not) name a binding or a type. */
const RESERVED = new Set([
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum",
  "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null",
  "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield",
  "let", "static", "implements", "interface", "package", "private", "protected", "public", "await", "async",
  "arguments", "eval", "undefined", "NaN", "Infinity", "globalThis",
  // TypeScript type keywords (a type named `string` breaks every annotation that follows it)
  "any", "unknown", "never", "string", "number", "boolean", "symbol", "object", "bigint", "type", "declare",
  "namespace", "module", "abstract", "as", "satisfies", "keyof", "readonly", "infer", "is", "asserts", "out",
  "accessor", "override", "require", "get", "set", "of", "from", "constructor",
]);

/**
 * Globals and standard TS utility types a PascalCase name could shadow. Generated modules use several of them
 * (`Array`, `Uint8Array`, `Map`, `Error`, `BigInt`...), and a shadowed one fails far from the cause.
 */
const GLOBALS = new Set([
  "Object", "Array", "String", "Number", "Boolean", "Symbol", "BigInt", "Function", "Error", "EvalError",
  "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError", "AggregateError", "Map", "Set",
  "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "Date", "RegExp", "Promise", "Proxy", "Reflect",
  "JSON", "Math", "Intl", "Atomics", "ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array",
  "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array",
  "BigInt64Array", "BigUint64Array", "Iterator", "AsyncIterator", "Generator", "AsyncGenerator", "Iterable",
  "AsyncIterable", "IterableIterator", "TextEncoder", "TextDecoder", "Buffer", "URL", "URLSearchParams", "Record", "Partial", "Required", "Readonly", "Pick", "Omit", "Exclude", "Extract",
  "NonNullable", "Parameters", "ConstructorParameters", "ReturnType", "InstanceType", "Awaited", "ThisType",
  "Uppercase", "Lowercase", "Capitalize", "Uncapitalize", "PropertyKey", "ArrayLike", "PromiseLike",
  "ReadonlyArray", "ReadonlyMap", "ReadonlySet", "TemplateStringsArray", "ToonError", "JsonValue",
]);

/** Split into ASCII alphanumeric words; diacritics are folded (`é` -> `e`), anything else separates words. */
function words(raw: string): string[] {
  const folded = raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ß/g, "ss")
    // `compiler's` reads as one word, not `CompilerS`
    .replace(/['\u2019]/g, "");
  return folded.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
}

/** `.json` / `.schema` file suffixes are not part of a name (`order-list.schema.json` -> `OrderList`). */
function stripFileSuffixes(raw: string): string {
  let s = raw.trim();
  for (;;) {
    const t = s.replace(/\.(json|schema)$/i, "");
    if (t === s) return s;
    s = t;
  }
}

/**
 * Capitalise each word, keeping inner capitals (`getHTTPResponse` -> `GetHTTPResponse`), except when the whole
 * input is SCREAMING_CASE (`HTTP_STATUS` -> `HttpStatus`).
 */
function joinPascal(ws: string[], screaming: boolean): string {
  return ws
    .map((w) => {
      const body = screaming ? w.slice(1).toLowerCase() : w.slice(1);
      return w.charAt(0).toUpperCase() + body;
    })
    .join("");
}

function guard(id: string): string {
  let s = id;
  if (/^[0-9]/.test(s)) s = "_" + s;
  if (RESERVED.has(s) || GLOBALS.has(s)) s += "_";
  return s;
}

/** A valid, non-reserved ASCII PascalCase identifier for `raw`; `Schema` when nothing usable is left. */
export function pascalCase(raw: string): string {
  const ws = words(stripFileSuffixes(raw));
  if (ws.length === 0) return "Schema";
  const screaming = !/[a-z]/.test(ws.join(""));
  return guard(joinPascal(ws, screaming));
}

/** A valid, non-reserved ASCII camelCase identifier for `raw`; `value` when nothing usable is left. */
export function camelCase(raw: string): string {
  const ws = words(stripFileSuffixes(raw));
  if (ws.length === 0) return "value";
  const screaming = !/[a-z]/.test(ws.join(""));
  const pascal = joinPascal(ws, screaming);
  // lower the leading run of capitals, but keep the capital starting the next word (`HTTPServer` -> `httpServer`)
  const m = /^[A-Z]+/.exec(pascal);
  let camel = pascal;
  if (m !== null) {
    const run = m[0];
    const keep = run.length > 1 && run.length < pascal.length && /[a-z]/.test(pascal.charAt(run.length)) ? 1 : 0;
    camel = run.slice(0, run.length - keep).toLowerCase() + pascal.slice(run.length - keep);
  }
  return guard(camel);
}

/** `base`, or `base2`, `base3`, ... whichever is not in `used`; the result is added to `used`. */
export function uniqueName(base: string, used: Set<string>): string {
  let name = base;
  for (let i = 2; used.has(name); i++) name = base + i;
  used.add(name);
  return name;
}
