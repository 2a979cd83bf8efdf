/**
 * Shape validation without keeping bytes: the generated writer is the single source of truth for what a
 * value of the schema is, so `validate` runs it into a private writer and reports the first violation.
 * A codec generated with its JSON Schema validator (`<name>.validate.ts`) checks the schema first, every
 * violation listed (`validateFull`), and the shape after.
 */
import { ToonError, hostError, isArrayAt, pointerSegment, type ToonErrorDetail } from "../wire/errors.ts";
import { Writer } from "../wire/writer.ts";

export interface ValidateOptions {
  /** `false`: check only the shape (what the codec can carry), not minLength, pattern, minimum, ... */
  constraints?: boolean;
  /** `false`: `format` is an annotation only (no e-mail, date-time, ... checks). Default `true`. */
  formats?: boolean;
}

/**
 * One violation: where (JSON pointer of the offending value), what, and the JSON Schema keyword that failed
 * (`"type"`, `"required"`, `"format"`, ...; `"shape"` when the schema accepts the value but the codec cannot
 * carry it). Shape-only validation (no `<name>.validate.ts`, or `constraints: false`) reports no keyword.
 */
export interface ValidationIssue extends ToonErrorDetail {
  keyword?: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationIssue[] };

/** A generated module's schema check: every violation of the source JSON Schema (`[]`: valid). */
export type SchemaCheck = (value: unknown, options?: ValidateOptions) => ValidationIssue[];

const scratch = new Writer(1024);

export function validateWith<T>(value: unknown, write: (w: Writer, v: unknown) => void): ValidationResult<T> {
  scratch.reset();
  try {
    write(scratch, value);
  } catch (e) {
    // a stack overflow and a revoked Proxy are violations (hostError); an error of the user's own code (a
    // getter, a RangeError of theirs included) passes through unchanged
    const t = e instanceof ToonError ? e : hostError(e, "");
    if (t instanceof ToonError) return { ok: false, errors: t.details ?? [{ path: t.path, message: t.reason }] };
    throw e;
  } finally {
    if (scratch.buf.length > 1 << 20) scratch.buf = new Uint8Array(1024), scratch.view = new DataView(scratch.buf.buffer);
  }
  return { ok: true, value: value as T };
}

/**
 * Full validation: the source JSON Schema (compiled at build time into `<name>.validate.ts`), every violation
 * listed; then, for a value the schema accepts, what the codec can carry (so `validate` never passes a value
 * `encode` would refuse). `constraints: false` skips the schema and checks the shape alone.
 */
export function validateFull<T>(value: unknown, options: ValidateOptions | undefined, check: SchemaCheck, write: (w: Writer, v: unknown) => void): ValidationResult<T> {
  // shape only: the same result as a codec without a validator module
  if (options?.constraints === false) return validateWith<T>(value, write);
  let errors: ValidationIssue[];
  try {
    errors = withoutShadowedPatterns(check(jsonNumbers(value), options));
  } catch (e) {
    // a value that cannot be read (a revoked Proxy) is a finding at its path, like any other; the user's own
    // errors (a throwing getter) pass through unchanged
    const h = hostError(e, "");
    if (!(h instanceof ToonError) || h.code !== "INVALID_VALUE") throw h;
    return { ok: false, errors: [{ path: h.path ?? "", keyword: "type", message: h.reason }] };
  }
  if (errors.length > 0) return { ok: false, errors };
  const shaped = validateWith<T>(value, write);
  if (shaped.ok) return shaped;
  return { ok: false, errors: shaped.errors.map((e) => ({ path: e.path, keyword: "shape", message: e.message })) };
}

/**
 * `value` as JSON Schema sees it: int64 fields hold a `bigint` beyond 2^53 (what decode returns there), which is
 * a JSON number to the schema, so the compiled validator gets a copy with each bigint as the nearest double
 * (type and range keywords then apply; which positions may hold a bigint at all is the shape check's job). The
 * value itself when it holds no bigint (no copy).
 */
function jsonNumbers(value: unknown): unknown {
  // the path is kept as segments and written as a pointer only for the error of a value that cannot be read
  const segs: (string | number)[] = [];
  return numbersIn(value, segs, () => segs.map((x) => pointerSegment(x)).join(""));
}

function numbersIn(value: unknown, segs: (string | number)[], where: () => string): unknown {
  if (typeof value === "bigint") return Number(value);
  if (typeof value !== "object" || value === null || segs.length > 256) return value;
  if (isArrayAt(value, where)) {
    const items = value;
    let out: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const x = items[i];
      segs.push(i);
      const y = numbersIn(x, segs, where);
      segs.pop();
      if (y !== x) (out ??= items.slice())[i] = y;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(value)) {
    const x = (value as Record<string, unknown>)[k];
    segs.push(k);
    const y = numbersIn(x, segs, where);
    segs.pop();
    if (y !== x) {
      out ??= { ...(value as Record<string, unknown>) };
      Object.defineProperty(out, k, { value: y, enumerable: true, writable: true, configurable: true });
    }
  }
  return out ?? value;
}

/**
 * Schemas that Zod and other generators write carry a format and the regex that implements it (`format: "uuid"`
 * plus a `pattern`): where a value fails both, the format's message says what was expected ("expected a UUID") and
 * the regex's adds nothing but the regex, so it is left out.
 */
function withoutShadowedPatterns(errors: ValidationIssue[]): ValidationIssue[] {
  if (errors.length < 2) return errors;
  const formats = new Set(errors.filter((e) => e.keyword === "format").map((e) => e.path));
  return formats.size === 0 ? errors : errors.filter((e) => !(e.keyword === "pattern" && formats.has(e.path)));
}

/**
 * A decoded value checked against the source JSON Schema (`fromModelOutput`): the value, or ToonError
 * INVALID_VALUE at the first violation's path with every violation in `details`.
 */
export function assertSchema<T>(value: T, check: SchemaCheck): T {
  const errors = withoutShadowedPatterns(check(jsonNumbers(value)));
  if (errors.length === 0) return value;
  const first = errors[0]!;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  throw new ToonError("INVALID_VALUE", first.message + more, { path: first.path, details: errors });
}

