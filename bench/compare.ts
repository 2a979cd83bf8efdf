/** Round-trip check: compare a decoded value with the original as JSON values, and classify what differs. */

export interface Difference {
  path: string;
  kind: "number-rounded" | "absent-became-null" | "other";
  expected: unknown;
  actual: unknown;
}

/** All differences (up to `limit`), comparing own enumerable keys only, prototypes ignored (avsc decodes to records). */
export function jsonDiff(expected: unknown, actual: unknown, limit = 10000): Difference[] {
  const out: Difference[] = [];
  walk(expected, actual, "", out, limit);
  return out;
}

function walk(a: unknown, b: unknown, path: string, out: Difference[], limit: number): void {
  if (out.length >= limit || Object.is(a, b)) return;
  if (typeof a === "number" && typeof b === "number") {
    out.push({ path, kind: "number-rounded", expected: a, actual: b });
    return;
  }
  if (a === undefined && b === null) {
    out.push({ path, kind: "absent-became-null", expected: a, actual: b });
    return;
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    out.push({ path, kind: "other", expected: a, actual: b });
    return;
  }
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) {
      out.push({ path, kind: "other", expected: `array of ${a.length}`, actual: `array of ${bb.length}` });
      return;
    }
    for (let i = 0; i < a.length; i++) walk(a[i], bb[i], `${path}/${i}`, out, limit);
    return;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) walk(ao[k], bo[k], `${path}/${k}`, out, limit);
}

/** `ok`, or a one-line summary of what was lost, e.g. `LOSSY: 64 numbers rounded (e.g. /x: 302.4 → 302.3999938964844)`. */
export function summarize(diffs: readonly Difference[]): string {
  if (diffs.length === 0) return "ok";
  const byKind = new Map<Difference["kind"], Difference[]>();
  for (const d of diffs) {
    let list = byKind.get(d.kind);
    if (list === undefined) byKind.set(d.kind, (list = []));
    list.push(d);
  }
  const parts: string[] = [];
  const show = (v: unknown): string => (v === undefined ? "absent" : JSON.stringify(v));
  for (const [kind, list] of byKind) {
    const d = list[0]!;
    const label = kind === "number-rounded" ? "numbers changed" : kind === "absent-became-null" ? "absent keys became null" : "other differences";
    parts.push(`${list.length} ${label} (e.g. ${d.path}: ${show(d.expected)} → ${show(d.actual)})`);
  }
  return "LOSSY: " + parts.join("; ");
}

/** A table cell: `ok`, or counts only, e.g. `lossy: 52 numbers changed, 26 absent keys → null`. */
export function summarizeShort(diffs: readonly Difference[]): string {
  if (diffs.length === 0) return "ok";
  const count = (k: Difference["kind"]): number => diffs.filter((d) => d.kind === k).length;
  const parts: string[] = [];
  if (count("number-rounded") > 0) parts.push(`${count("number-rounded")} numbers changed`);
  if (count("absent-became-null") > 0) parts.push(`${count("absent-became-null")} absent keys → null`);
  if (count("other") > 0) parts.push(`${count("other")} other differences`);
  return "lossy: " + parts.join(", ");
}
