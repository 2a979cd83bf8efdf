/**
 * Profiling sample data (`toon-gen generate --samples <glob>`, config `samples`): walk each sample value along
 * the schema's shapes, exactly as the encoder would (same union branch choice), and count per dictionary path
 * how often it occurs and, for strings, integers and numbers, which values it holds. The default-value tables
 * (./tables.ts) are chosen from this.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import { getOwn } from "../../runtime/wire/objects.ts";
import { planBranches } from "../../runtime/codec/plan.ts";
import { glob, hasMagic, toPosix } from "../fs/glob.ts";
import { definitionLookup } from "../ir/walk.ts";
import { categoryTest, PredicateCompiler, type Predicate } from "../../runtime/codec/engine/predicate.ts";
import type { SchemaIR, Shape } from "../ir/types.ts";
import { formatNamed, formatOf, isScalar, type FormatName } from "../../runtime/codec/formats.ts";
import { branchSegment, definitionRoot, itemsSegment, mapSegment, propertySegment, tupleSegment } from "../dictionary/paths.ts";

/** How a tabled position encodes (docs/FORMAT.md §10.1): its wire format, whose tag space its references use. */
export type TableKind = FormatName;

export function tableKind(s: Shape): TableKind | undefined {
  return isScalar(s) ? formatOf(s).name : undefined;
}

export interface ValueCount {
  value: string | number;
  /** Occurrences over all samples. */
  count: number;
  /** Samples it occurs in at least once. */
  samples: number;
  /** Internal: the last sample that counted it. */
  last: number;
}

export interface PathProfile {
  path: string;
  kind: TableKind;
  /** Occurrences of the path (values of the right type). */
  occurrences: number;
  values: Map<string, ValueCount>;
  /** Distinct values not tracked any more (beyond MAX_DISTINCT): their occurrences. */
  untracked: number;
}

export interface Profile {
  /** Sample values profiled. */
  samples: number;
  /** How often each dictionary path occurred (every kind, objects and arrays included). */
  frequency: Map<string, number>;
  /** Value counts of the paths that can have a table. */
  paths: Map<string, PathProfile>;
}

/** Distinct values tracked per path; a path with more is mostly unique values, and its head is already known. */
const MAX_DISTINCT = 100_000;
const MAX_DEPTH = 256;

export class Profiler {
  readonly profile: Profile = { samples: 0, frequency: new Map(), paths: new Map() };
  private readonly cx: ReturnType<typeof definitionLookup>;
  private readonly preds: PredicateCompiler;
  private readonly unionPlans = new Map<Shape, { index: number; test: Predicate | undefined }[]>();
  private readonly fits: Predicate;

  constructor(readonly ir: SchemaIR) {
    this.cx = definitionLookup(ir);
    this.preds = new PredicateCompiler(this.cx);
    this.fits = this.preds.predicateOf(ir.root);
  }

  /** Whether `value` has the schema's shape (as the encoder's union predicates see it). */
  accepts(value: unknown): boolean {
    return this.fits(value);
  }

  add(value: unknown): void {
    const n = this.profile.samples++;
    this.walk(this.ir.root, value, "$", n, 0);
  }

  private count(path: string): void {
    const f = this.profile.frequency;
    f.set(path, (f.get(path) ?? 0) + 1);
  }

  private record(s: Shape, v: unknown, path: string, sample: number): void {
    const kind = tableKind(s);
    if (kind === undefined) return;
    if (typeof v !== (formatNamed(kind).kind === "string" ? "string" : "number")) return;
    let p = this.profile.paths.get(path);
    if (p === undefined) this.profile.paths.set(path, (p = { path, kind, occurrences: 0, values: new Map(), untracked: 0 }));
    p.occurrences++;
    const value = v as string | number;
    const key = typeof value === "number" ? (Object.is(value, -0) ? "n:-0" : "n:" + value) : "s:" + value;
    const known = p.values.get(key);
    if (known !== undefined) {
      known.count++;
      if (known.last !== sample) {
        known.samples++;
        known.last = sample;
      }
    } else if (p.values.size < MAX_DISTINCT) {
      p.values.set(key, { value, count: 1, samples: 1, last: sample });
    } else {
      p.untracked++;
    }
  }

  private walk(s: Shape, v: unknown, path: string, sample: number, depth: number): void {
    if (v === undefined || depth > MAX_DEPTH) return;
    this.count(path);
    switch (s.kind) {
      case "string":
      case "integer":
      case "number":
        this.record(s, v, path, sample);
        return;
      case "ref":
        this.walk(this.cx.def(s.name).shape, v, definitionRoot(s.name), sample, depth + 1);
        return;
      case "object": {
        if (typeof v !== "object" || v === null || Array.isArray(v)) return;
        const declared = new Set<string>();
        for (const p of s.properties) {
          declared.add(p.name);
          this.walk(p.shape, getOwn(v, p.name), propertySegment(path, p.name), sample, depth);
        }
        if (s.additional !== false) {
          for (const k of Object.keys(v)) if (!declared.has(k)) this.walk(s.additional, (v as Record<string, unknown>)[k], mapSegment(path), sample, depth);
        }
        return;
      }
      case "array":
        if (!Array.isArray(v)) return;
        for (const e of v) this.walk(s.items, e, itemsSegment(path), sample, depth);
        return;
      case "tuple":
        if (!Array.isArray(v)) return;
        v.forEach((e, i) => {
          if (i < s.items.length) this.walk(s.items[i]!, e, tupleSegment(path, i), sample, depth);
          else if (s.rest !== false) this.walk(s.rest, e, tupleSegment(path, "rest"), sample, depth);
        });
        return;
      case "union": {
        const i = this.branchOf(s, v);
        if (i !== undefined) this.walk(s.branches[i]!, v, branchSegment(path, i), sample, depth);
        return;
      }
      default:
        return;
    }
  }

  /** The branch the encoder writes for `v` (emit/write.ts emitUnion), or undefined when none fits. */
  private branchOf(s: Extract<Shape, { kind: "union" }>, v: unknown): number | undefined {
    if (s.discriminator) {
      if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
      const d = getOwn(v, s.discriminator.property);
      const i = s.discriminator.values.findIndex((x) => x === d);
      return i < 0 ? undefined : i;
    }
    let plan = this.unionPlans.get(s);
    if (plan === undefined) {
      plan = planBranches(s.branches, this.cx).map((b) => ({
        index: b.index,
        test: b.test === "else" ? undefined : b.test === "categories" ? categoryTest(b.categories) : this.preds.predicateOf(s.branches[b.index]!),
      }));
      this.unionPlans.set(s, plan);
    }
    for (const arm of plan) if (arm.test === undefined || arm.test(v)) return arm.index;
    return undefined;
  }
}

/**
 * Sample files of a config: `samples` globs (relative to `cwd`). `.jsonl` / `.ndjson` files hold one value per
 * line, any other file one JSON value.
 */
export function readSamples(patterns: readonly string[], cwd: string): { file: string; values: unknown[] }[] {
  const files = new Set<string>();
  for (const p of patterns) {
    const matches = glob(p, cwd);
    if (matches.length === 0 && !hasMagic(p)) throw new ToonError("IO_ERROR", `samples ${JSON.stringify(p)} does not exist`);
    for (const m of matches) files.add(m);
  }
  return [...files].map((file) => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new ToonError("IO_ERROR", `cannot read sample ${file}`, { cause: e });
    }
    const rel = toPosix(path.relative(cwd, file));
    const parse = (t: string, line?: number): unknown => {
      try {
        return JSON.parse(t);
      } catch (e) {
        throw new ToonError("IO_ERROR", `sample ${rel}${line === undefined ? "" : ` line ${line}`}: not valid JSON (${(e as Error).message})`);
      }
    };
    if (/\.(jsonl|ndjson)$/i.test(file)) {
      const values: unknown[] = [];
      text.split("\n").forEach((l, i) => {
        if (l.trim() !== "") values.push(parse(l, i + 1));
      });
      return { file: rel, values };
    }
    return { file: rel, values: [parse(text)] };
  });
}

/**
 * Profile the sample values that fit `ir` (values of other schemas in the same files are skipped).
 * Returns undefined when none fits.
 */
export function profileSamples(ir: SchemaIR, values: Iterable<unknown>): Profile | undefined {
  const p = new Profiler(ir);
  for (const v of values) if (p.accepts(v)) p.add(v);
  return p.profile.samples === 0 ? undefined : p.profile;
}
