/**
 * Diff stability: how many lines of a generated module change when a schema gains one optional property, the
 * commonest schema edit. Done as a user would: a copy of examples/orders is generated, the property is added
 * to `Order`, and the copy is regenerated against the dictionary the first run committed (evolved, not
 * rebuilt). Lines are counted by `git diff --no-index --numstat` (added + deleted).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { loadConfig } from "../../generator/cli/config.ts";
import { generate } from "../../generator/pipeline.ts";
import { REPO } from "./bundle.ts";

export interface DiffOptions {
  /** The example project to copy (default examples/orders). */
  project?: string;
  /** Schema file inside it, relative to the project. */
  schema?: string;
  /** JSON pointer of the object schema that gains the property. */
  at?: string;
  /** Generated module inside the project whose lines are counted. */
  module?: string;
  property?: { name: string; schema: Record<string, unknown> };
}

export interface DiffStability {
  project: string;
  module: string;
  /** `<pointer>/properties/<name>` of the property added. */
  added: string;
  moduleLines: number;
  linesAdded: number;
  linesDeleted: number;
  /** linesAdded + linesDeleted. */
  changed: number;
  /**
   * `changed` once numbered names (`m9`, `$check25`, `$extW29`) are written without their numbers: what is left
   * when the emitter's counters shifting is not counted.
   */
  changedIgnoringNumbering: number;
  /** Hunks of the diff (`@@` blocks at zero context): how scattered the changes are. */
  hunks: number;
  /** The dictionary file changed too (a new extension segment), as it should. */
  dictionaryChanged: boolean;
  /** The unified diff itself (paths `before/<module>` and `after/<module>`). */
  patch: string;
}

/** An identifier ending in a counter the emitter appends (`f8`, `$dt2`, `$extR29`). */
const NUMBERED_NAME = /\b(\$?[A-Za-z_][A-Za-z_]*?)\d+\b/g;

const DEFAULTS = {
  project: "examples/orders",
  schema: "schemas/order-list.schema.json",
  at: "/$defs/Order",
  module: "gen/order-list.ts",
  property: { name: "giftMessage", schema: { description: "Message printed on the gift receipt.", type: "string", maxLength: 200 } },
} satisfies Required<DiffOptions>;

export async function diffStability(options: DiffOptions = {}): Promise<DiffStability> {
  const o = { ...DEFAULTS, ...options };
  const tmp = mkdtempSync(path.join(tmpdir(), "toon-size-diff-"));
  try {
    const project = path.join(tmp, "project");
    cpSync(path.join(REPO, o.project), project, { recursive: true });
    const run = async (): Promise<void> => {
      const { config, baseDir } = loadConfig(path.join(project, "toon.config.json"), project);
      const result = await generate(config, { cwd: baseDir });
      const breaking = result.findings.filter((f) => f.breaking);
      if (breaking.length > 0) throw new Error(`regeneration reported breaking changes: ${breaking.map((f) => f.message).join("; ")}`);
    };
    await run();
    const modulePath = path.join(project, o.module);
    const before = path.join(tmp, "before", path.basename(o.module));
    const after = path.join(tmp, "after", path.basename(o.module));
    cpSync(modulePath, before);
    const dictionaries = snapshot(path.join(project, "dictionaries"));

    const schemaPath = path.join(project, o.schema);
    const schema = JSON.parse(readFileSync(schemaPath, "utf8")) as Record<string, unknown>;
    const target = pointerGet(schema, o.at) as { properties?: Record<string, unknown> } | undefined;
    if (target?.properties === undefined) throw new Error(`${o.schema}#${o.at} is not an object schema with properties`);
    if (Object.hasOwn(target.properties, o.property.name)) throw new Error(`${o.schema}#${o.at} already has ${o.property.name}`);
    target.properties[o.property.name] = o.property.schema;
    writeFileSync(schemaPath, JSON.stringify(schema, null, 2) + "\n");
    await run();

    cpSync(modulePath, after);
    const rel = (f: string): string => path.relative(tmp, f).split(path.sep).join("/");
    const { added, deleted } = numstat(gitDiff(tmp, ["--numstat", rel(before), rel(after)]));
    const patch = gitDiff(tmp, [rel(before), rel(after)]);
    const unnumbered = (f: string): string => {
      const out = path.join(tmp, "unnumbered", path.basename(path.dirname(f)), path.basename(f));
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, readFileSync(f, "utf8").replace(NUMBERED_NAME, "$1#"));
      return rel(out);
    };
    const renumbered = numstat(gitDiff(tmp, ["--numstat", unnumbered(before), unnumbered(after)]));
    const hunks = gitDiff(tmp, ["-U0", rel(before), rel(after)]).split("\n").filter((l) => l.startsWith("@@")).length;
    return {
      project: o.project,
      module: o.module,
      added: `${o.at}/properties/${o.property.name}`,
      moduleLines: readFileSync(modulePath, "utf8").split("\n").length,
      linesAdded: added,
      linesDeleted: deleted,
      changed: added + deleted,
      changedIgnoringNumbering: renumbered.added + renumbered.deleted,
      hunks,
      dictionaryChanged: snapshot(path.join(project, "dictionaries")) !== dictionaries,
      patch,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Every file of a folder with its content, in name order (enough to tell whether any changed). */
function snapshot(dir: string): string {
  const files = (readdirSync(dir, { recursive: true }) as string[]).map((f) => path.join(dir, f)).filter((f) => statSync(f).isFile()).sort();
  return files.map((f) => `${f}\n${readFileSync(f, "utf8")}`).join("\n");
}

/** `git diff --no-index <args>` run in `cwd`: its output (exit code 1 means "they differ", not an error). */
function gitDiff(cwd: string, args: string[]): string {
  const r = spawnSync("git", ["diff", "--no-index", "--no-color", ...args], { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.error !== undefined || (r.status !== 0 && r.status !== 1)) throw new Error(`git diff failed: ${r.stderr || r.error}`);
  return r.stdout;
}

function numstat(out: string): { added: number; deleted: number } {
  let added = 0;
  let deleted = 0;
  for (const line of out.split("\n")) {
    const m = /^(\d+)\t(\d+)\t/.exec(line);
    if (m !== null) {
      added += Number(m[1]);
      deleted += Number(m[2]);
    }
  }
  return { added, deleted };
}

function pointerGet(doc: unknown, pointer: string): unknown {
  let cur: unknown = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
