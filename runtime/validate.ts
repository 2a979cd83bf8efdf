/**
 * Shape validation without keeping bytes: the generated writer is the single source of truth for what a
 * value of the schema is, so `validate` runs it into a private writer and reports the first violation.
 */
import { ToonError, hostError, type ToonErrorDetail } from "./errors.ts";
import { Writer } from "./writer.ts";

export interface ValidateOptions {
  /** `false`: check only the shape (what the codec can carry), not minLength, pattern, minimum, ... */
  constraints?: boolean;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ToonErrorDetail[] };

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
