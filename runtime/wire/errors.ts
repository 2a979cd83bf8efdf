/**
 * The one error type of toon-gen. Every failure a user can cause (bad bytes, bad text, bad values, bad schemas)
 * surfaces as a `ToonError` with a stable `code` and a JSON-pointer `path` to where it happened.
 */

export type ToonErrorCode =
  // binary decoding
  | "TRUNCATED" // the input ended before the value did
  | "TRAILING_BYTES" // bytes left after a complete value
  | "BAD_MAGIC" // not a TOON message
  | "UNSUPPORTED_VERSION" // a format version this runtime does not read
  | "UNSUPPORTED_FLAGS" // a header flag this decoder does not implement
  | "FINGERPRINT_MISMATCH" // written with another dictionary
  | "INVALID_ENCODING" // a tag, index or count that no encoder writes
  | "INVALID_UTF8" // a string that is not well-formed UTF-8
  | "DEPTH_LIMIT" // nesting deeper than the recursion limit
  // encoding and validation
  | "INVALID_VALUE" // a value that does not fit the schema
  // text TOON
  | "TEXT_SYNTAX" // malformed TOON text (line and column in the message)
  | "NO_PAYLOAD" // model output with no TOON or JSON payload in it
  // streams
  | "INCOMPLETE" // a stream or tool call that ended before its value was complete
  // generator
  | "SCHEMA_ERROR" // a schema the generator cannot compile
  | "UNSUPPORTED_SCHEMA" // a construct the generator does not support (named in the message)
  | "CONFIG_ERROR" // bad configuration or CLI arguments
  | "IO_ERROR"; // a file that cannot be read or written

const BRAND = Symbol.for("toon-gen.ToonError");

export interface ToonErrorOptions {
  /** JSON pointer (RFC 6901) into the value, text or schema: `""` is the root, `/items/3/price` a field. */
  path?: string;
  cause?: unknown;
  /** Byte offset (binary) where decoding failed. */
  offset?: number;
  /** 1-based line and column (text TOON). */
  line?: number;
  column?: number;
  /** Further findings, when one error stands for several (validation lists every violation). */
  details?: ToonErrorDetail[];
}

/**
 * A text reader's count error as facts: the header at `line`/`column` (its `[`) declares `declared` rows, items,
 * values or entries and `found` were under it (`more`: the reader stopped at the first one past the count, so
 * there may be more). `inline`: the items stand on the header's own line (`tags[2]: a,b,c`, `[2:a;b;c]`), which
 * no repair rewrites.
 */
export interface CountMismatch {
  declared: number;
  found: number;
  more: boolean;
  what: "rows" | "items" | "values" | "entries";
  inline: boolean;
  line: number;
  column: number;
}

/**
 * Which tool call an error is about, so that an agent loop can answer it (OpenAI wants a reply for every
 * `tool_call_id`). `path` stays a JSON pointer into the parsed call (`/arguments/city`, `/name`); where the call
 * sat in a stream or response is `position`, apart from it.
 */
export interface ToolCallRef {
  /** The provider's call id (`call_...`, `toolu_...`); `""` when the form or the stream gave none (yet). */
  id: string;
  /** The tool name as the model wrote it (`""` when none came). */
  name: string;
  /** 0-based: the call's place among the calls of the response or stream, in the order they started. */
  index: number;
  /** The raw argument text as received (JSON text; an object the provider sent whole is shown as JSON). */
  arguments: string;
  /**
   * Where the call came from: a stream slot (`openai:<completion id>:<choice>:<index>`, `responses:<output index>`,
   * `anthropic:<block index>`) or a JSON pointer into a whole response (`/choices/0/message/tool_calls/1`).
   */
  position?: string;
}

export interface ToonErrorDetail {
  path: string;
  message: string;
}

export class ToonError extends Error {
  declare readonly [BRAND]: true;
  override readonly name = "ToonError" as const;
  readonly code: ToonErrorCode;
  /** Mutable while the error bubbles up through generated code, which prefixes the enclosing path. */
  path: string;
  readonly offset?: number;
  readonly line?: number;
  readonly column?: number;
  readonly details?: ToonErrorDetail[];
  /**
   * Text readers: the count that did not match (see {@link CountMismatch}). Declared only, and set by the text
   * readers (runtime/text/reader/facts.ts), so that a bundle that reads no text carries no code for it.
   */
  declare readonly count?: CountMismatch;
  /** Text readers: raised where the input ended (the value being read ran into its end). Declared only, as `count`. */
  declare readonly atEnd?: boolean;
  /**
   * Set on tool-call errors (runtime/tools.ts): the call's id, name, index, raw arguments and stream position.
   * Declared only, and assigned by the tool-call code, so that codecs that never parse tool calls carry no code for it.
   */
  declare readonly call?: ToolCallRef;
  /** The message without the path suffix (the `message` is rebuilt as the path grows). */
  readonly reason: string;

  constructor(code: ToonErrorCode, reason: string, options: ToonErrorOptions = {}) {
    super(formatMessage(code, reason, options.path ?? ""), options.cause === undefined ? undefined : { cause: options.cause });
    Object.defineProperty(this, BRAND, { value: true });
    this.code = code;
    this.reason = reason;
    this.path = options.path ?? "";
    if (options.offset !== undefined) this.offset = options.offset;
    if (options.line !== undefined) this.line = options.line;
    if (options.column !== undefined) this.column = options.column;
    if (options.details !== undefined) this.details = options.details;
  }

  /** Works across duplicated copies of the runtime (two bundles, dev and dist builds). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }

  /** Prefix the path with an enclosing segment (already escaped, starting with `/`). */
  prefixPath(prefix: string): this {
    this.path = prefix + this.path;
    this.message = formatMessage(this.code, this.reason, this.path);
    return this;
  }
}

function formatMessage(code: ToonErrorCode, reason: string, path: string): string {
  return `${code}: ${reason}${path === "" ? "" : ` at ${path}`}`;
}

/** Escape one JSON-pointer reference token (RFC 6901). */
export function pointerSegment(key: string | number): string {
  if (typeof key === "number") return "/" + key;
  return "/" + (key.indexOf("~") === -1 && key.indexOf("/") === -1 ? key : key.replace(/~/g, "~0").replace(/\//g, "~1"));
}

/**
 * Rethrow `e` with `prefix` in front of its path. Non-ToonErrors (a bug, or a RangeError from a hostile input
 * we did not foresee) are wrapped so callers only ever see ToonError.
 */
export function rethrowAt(e: unknown, prefix: string): never {
  if (e instanceof ToonError) throw e.prefixPath(prefix);
  throw hostError(e, prefix);
}

/**
 * A stack overflow (a cyclic value, or nesting deeper than the call stack allows). Only this RangeError becomes
 * DEPTH_LIMIT: a RangeError the user's own code throws (a getter, a toJSON) passes through unchanged.
 */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

/** A TypeError the engine throws for any use of a revoked Proxy (typeof still works; Array.isArray does not). */
export function isRevokedProxy(e: unknown): boolean {
  return e instanceof TypeError && /revoked/i.test(e.message);
}

/**
 * An options argument as given: undefined (the defaults) or a plain object. Anything else (null, a string, an
 * array, whose own members such as `at` would be read as options) is CONFIG_ERROR naming the call, never a
 * TypeError from reading a member of it.
 */
export function optionsArg<O>(options: O | undefined, what: string): O | undefined {
  if (options === undefined || (typeof options === "object" && options !== null && !Array.isArray(options))) return options;
  throw new ToonError("CONFIG_ERROR", `${what} options must be an object, got ${options === null ? "null" : Array.isArray(options) ? "an array" : typeof options}`);
}

/**
 * What a non-ToonError met while walking a value at `path` becomes: a stack overflow is DEPTH_LIMIT, a revoked
 * Proxy is INVALID_VALUE (the value cannot be read), anything else (the user's own error) is returned unchanged.
 */
export function hostError(e: unknown, path: string): unknown {
  if (isStackOverflow(e)) return new ToonError("DEPTH_LIMIT", "nesting too deep for the call stack (a cyclic value?)", { path, cause: e });
  if (isRevokedProxy(e)) return new ToonError("INVALID_VALUE", "a revoked Proxy (its contents cannot be read)", { path, cause: e });
  return e;
}

/**
 * `Array.isArray` of a value being walked at `path`: it is the first thing that touches a value and throws a
 * TypeError for a revoked Proxy, which becomes INVALID_VALUE at the value's own path (the encoders, validate).
 */
export function isArrayAt(v: unknown, path: string | (() => string)): v is unknown[] {
  try {
    return Array.isArray(v);
  } catch (e) {
    // a walker that keeps its location as tokens passes a function: the pointer is built only on failure
    throw hostError(e, typeof path === "string" ? path : path());
  }
}

/**
 * The one `catch` of a generated function (generator/emit/at.ts): `at` is the path of the definition call in
 * flight, "" between calls (the function's own errors carry their paths already and pass unchanged).
 */
export function rethrowIn(e: unknown, at: string): never {
  if (at === "") throw e;
  return rethrowAt(e, at);
}

/** Rethrow with an array index (or map key) prepended. */
export function rethrowAtIndex(e: unknown, prefix: string, index: number | string): never {
  return rethrowAt(e, prefix + pointerSegment(index));
}
