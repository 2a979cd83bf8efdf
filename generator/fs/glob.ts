/**
 * A small, dependency-free glob for config inputs: `*`, `?`, `**` and literal segments, `/` separated,
 * relative to a base directory. Results are sorted so generation order (and output) is deterministic.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

function segmentRegex(seg: string): RegExp {
  let re = "^";
  for (const ch of seg) {
    if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(re + "$");
}

export function hasMagic(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

/** Files under `cwd` matching `pattern` (absolute paths, sorted). A pattern without wildcards matches itself. */
export function glob(pattern: string, cwd: string): string[] {
  const normalized = pattern.replace(/\\/g, "/");
  const absolute = normalized.startsWith("/");
  const parts = normalized.split("/").filter((p, i) => p !== "" && !(p === "." && i === 0));
  const root = absolute ? "/" : cwd;
  const out = new Set<string>();
  walk(root, parts, 0, out);
  return [...out].sort((a, b) => (relative(cwd, a) < relative(cwd, b) ? -1 : 1));
}

function walk(dir: string, parts: string[], i: number, out: Set<string>): void {
  if (i === parts.length) {
    if (isFile(dir)) out.add(dir);
    return;
  }
  const part = parts[i]!;
  if (part === "**") {
    walk(dir, parts, i + 1, out);
    for (const entry of listDir(dir)) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), parts, i, out);
    }
    return;
  }
  if (!hasMagic(part)) {
    walk(join(dir, part), parts, i + 1, out);
    return;
  }
  const re = segmentRegex(part);
  for (const entry of listDir(dir)) {
    if (re.test(entry.name)) walk(join(dir, entry.name), parts, i + 1, out);
  }
}

function listDir(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch {
    return [];
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export function toPosix(p: string): string {
  return p.split(sep).join("/");
}
