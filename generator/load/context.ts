/**
 * State shared by one `schemaToIR` run: the documents loaded (main + referenced files), the `$ref` targets found,
 * warnings, and the one way errors are raised (file name in the message, JSON pointer in `path`).
 */
import { ToonError, type ToonErrorCode } from "../../runtime/wire/errors.ts";
import type { Shape } from "../ir/types.ts";
import type { Draft } from "./drafts.ts";
import { PatternBudget } from "./patterns.ts";

export interface Doc {
  /** Absolute file path: the cache key, and the base for relative `$ref`s. */
  abs: string;
  /** `""` for the main document, else its path relative to the main document's directory (`/` separators). */
  label: string;
  /** File name used in messages. */
  display: string;
  root: unknown;
  draft: Draft;
  /** The document's absolute `$id` (`id` in draft-04) without fragment, when it has one. */
  id?: string;
  /** `$anchor` (and draft-07 `$id: "#name"`) -> pointer tokens; built on first use. */
  anchors?: Map<string, string[]>;
}

/** One `$ref` target (a schema node in some document). Becomes a named definition unless inlined. */
export interface Target {
  /** `abs#pointer`, canonical: equal keys are the same node. Also the provisional `RefShape.name`. */
  key: string;
  doc: Doc;
  pointer: string;
  node: unknown;
  /** PascalCase name wanted for the definition (made unique at the end). */
  hint: string;
  state: "pending" | "active" | "done" | "failed";
  shape?: Shape;
  /** Why normalising it failed; raised only if the target turns out to be used. */
  error?: unknown;
}

/** The work budget of one run: far beyond any real schema (the largest corpus schema needs ~1% of it). */
export const MAX_WORK = 2_000_000;

export type ReadFile = (absPath: string) => unknown;

export class LoadContext {
  readonly docs = new Map<string, Doc>();
  readonly targets = new Map<string, Target>();
  /** Targets still to normalise, in discovery order. */
  readonly queue: Target[] = [];
  /**
   * Shape of each schema node object already normalised. Parsed JSON never shares nodes, but an in-memory schema
   * may reuse one object at many places (even exponentially many paths): each is normalised once.
   */
  readonly nodeShapes = new WeakMap<object, Shape>();
  /** Shapes whose type is only implied by keywords (see allof.ts): merging them leaves other types alone. */
  readonly loose = new WeakSet<Shape>();
  private readonly warningSet = new Set<string>();
  /** Errors meaning "this schema accepts no value" (see `never`). */
  private readonly neverErrors = new WeakSet<object>();
  readonly warnings: string[] = [];
  /** URI prefix -> absolute local folder (ending in a separator) or file (load/refmap.ts). */
  refMap?: Readonly<Record<string, string>>;
  /** The draft of documents that declare no `$schema` (2020-12 when unset). */
  draft?: Draft;
  /** Patterns neither recheck nor RE2 can vouch for: a generation error, or (opted in) a warning (patterns.ts). */
  unsafePatterns: "error" | "allow" = "error";
  /** recheck time left for this schema's patterns (patterns.ts). */
  readonly patternBudget = new PatternBudget();

  constructor(
    readonly codecName: string,
    /** Directory of the main document (relative file refs in it resolve here). */
    readonly mainDir: string,
    readonly readFile: ReadFile,
  ) {}

  /** The `schemaPath` of a node: the bare pointer in the main document, `file#pointer` elsewhere. */
  schemaPath(doc: Doc, ptr: string): string {
    return doc.label === "" ? ptr : `${doc.label}#${ptr}`;
  }

  fail(code: ToonErrorCode, doc: Doc, ptr: string, reason: string, cause?: unknown): never {
    throw new ToonError(code, `${doc.display}: ${reason}`, cause === undefined ? { path: ptr } : { path: ptr, cause });
  }

  /** Work left before the schema is declared too large (an in-memory schema can share subtrees exponentially). */
  private budget = MAX_WORK;

  /** Count one unit of work (a node normalised, a pair of shapes merged). */
  tick(doc: Doc, ptr: string): void {
    if (--this.budget < 0) this.fail("SCHEMA_ERROR", doc, ptr, `schema too large to compile (more than ${MAX_WORK} schema nodes and merges)`);
  }

  /**
   * Fail because the schema at `ptr` accepts no value (`false`, `const` of the wrong type, an `allOf` conflict).
   * Where `false` is meaningful (a union branch, additional properties or items, an optional property) the
   * caller catches this and treats the schema as `false`; anywhere else it stands as the error.
   */
  never(doc: Doc, ptr: string, reason: string, code: ToonErrorCode = "SCHEMA_ERROR"): never {
    const e = new ToonError(code, `${doc.display}: ${reason}`, { path: ptr });
    this.neverErrors.add(e);
    throw e;
  }

  isNever(e: unknown): e is ToonError {
    return typeof e === "object" && e !== null && this.neverErrors.has(e);
  }

  /** Record a non-fatal finding once, named by `file#pointer` and keyword. */
  warn(doc: Doc, ptr: string, keyword: string, message: string): void {
    const text = `${doc.display}#${ptr}: ${keyword}: ${message}`;
    if (this.warningSet.has(text)) return;
    this.warningSet.add(text);
    this.warnings.push(text);
  }
}
