/**
 * The engine's decoder, observed: the same closures as ./read.ts (this compiler only overrides where a child
 * value is compiled and how map keys are read), each value wrapped to tell a `ReadObserver` where it starts and
 * ends, with its dictionary path. `toon-gen inspect` (generator/inspect) counts the bytes of every path on it.
 * Nothing here is on the codec's own path: `compileCodec` never builds an observed reader, so a codec nobody
 * observes runs exactly the closures it ran before.
 */
import type { CodecDescriptor, Shape } from "../descriptor.ts";
import { CodecPlan, extensionsOf } from "../plan.ts";
import { branchSegment, definitionRoot, itemsSegment, mapSegment, propertySegment, tupleSegment } from "../paths.ts";
import type { Reader } from "../../wire/reader.ts";
import { rKey } from "../kinds/composite.ts";
import { compileReading, compileWriter, type BodyReader } from "./codec.ts";
import type { ApplyExtensions } from "./extensions.ts";
import { ReadCompiler, type ReadFn, type Step } from "./read.ts";

/**
 * Told what the engine reads, as it reads it. Calls nest: each `enter` is followed by the `enter`s and `leave`s of
 * the values inside it (and the `key`s of an open object's extras), then by its own `leave`, unless reading fails
 * (a ToonError thrown to the caller of the reader: the values entered and not left are the ones it was reading).
 */
export interface ReadObserver {
  /**
   * A value starts at byte `pos`: at dictionary path `path` (docs/FORMAT.md §5.1: `#Name` for a definition's body),
   * of shape `shape`, hanging off the value entered before it as `step` says (nothing entered: the root, or an
   * extension property's value, `{ ext, key }`).
   */
  enter(path: string, shape: Shape, step: Step, pos: number): void;
  /** The value entered last ends at byte `pos`; it decoded to `value`. */
  leave(value: unknown, pos: number): void;
  /** An open object's key (its next value's, a `"values"` step) took bytes `from` to `to`. */
  key(key: string, from: number, to: number): void;
  /**
   * Extension record `id`, its payload bytes `start` to `end` (its ID and length before them), was read: applied
   * (a value this codec knows, entered and left inside it; or a retired property's, dropped) or not (`known`
   * false: a record this codec does not know).
   */
  record?(id: number, start: number, end: number, known: boolean): void;
}

/** A ReadCompiler whose values report to `observer`. */
export class ObservedReadCompiler extends ReadCompiler {
  /** The dictionary path of the value being compiled. */
  private dictPath = "$";
  /** Extension properties' dictionary paths, by ID. */
  private readonly extPaths: Map<number, string>;

  constructor(
    plan: CodecPlan,
    desc: CodecDescriptor,
    private readonly observer: ReadObserver,
  ) {
    super(plan);
    this.extPaths = new Map([...extensionsOf(desc.root, desc.definitions)].map(([id, x]) => [id, propertySegment(x.object, x.key)]));
  }

  protected override child(s: Shape, p: string, step: Step): ReadFn {
    const parent = this.dictPath;
    const path = (this.dictPath = pathOf(parent, step, this.extPaths));
    let read: ReadFn;
    try {
      read = super.child(s, p, step);
    } finally {
      this.dictPath = parent;
    }
    const o = this.observer;
    return (r) => {
      o.enter(path, s, step, r.pos);
      const v = read(r);
      o.leave(v, r.pos);
      return v;
    };
  }

  protected override keyReader(): (r: Reader, o: object) => string {
    const observer = this.observer;
    return (r, o) => {
      const from = r.pos;
      const k = rKey(r, o);
      observer.key(k, from, r.pos);
      return k;
    };
  }
}

/**
 * The engine's reading of a message of `desc` after its header (the root value, the extension section, the end),
 * reporting to `observer`: what `compileCodec(desc).decode` reads, in the same closures, with the same errors.
 */
export function observedReader(desc: CodecDescriptor, observer: ReadObserver): BodyReader {
  const plan = new CodecPlan(desc);
  const records =
    observer.record === undefined
      ? undefined
      : (apply: ApplyExtensions): ApplyExtensions =>
          (id, payload, root) => {
            const start = payload.pos;
            const known = apply(id, payload, root);
            observer.record!(id, start, payload.end, known);
            return known;
          };
  return compileReading(desc, new ObservedReadCompiler(plan, desc, observer), compileWriter(desc, plan), records).body;
}

function pathOf(parent: string, step: Step, ext: Map<number, string>): string {
  if (typeof step === "string") {
    switch (step) {
      case "root":
        return "$";
      case "items":
        return itemsSegment(parent);
      case "rest":
        return tupleSegment(parent, "rest");
      case "values":
        return mapSegment(parent);
    }
  }
  if ("prop" in step) return propertySegment(parent, step.prop);
  if ("retired" in step) return propertySegment(parent, step.retired);
  if ("tuple" in step) return tupleSegment(parent, step.tuple);
  if ("branch" in step) return branchSegment(parent, step.branch);
  if ("def" in step) return definitionRoot(step.def);
  return ext.get(step.ext) ?? `(extension ${step.ext})`;
}
