/** Targets of issue 9 and the tables `npm run bench:size` prints and writes to bench/results/size.{json,md}. */
import type { BundleSize } from "./bundle.ts";
import type { DiffStability } from "./diff.ts";
import { ONE_MB, type GeneratedSize, type GeneratedSummary } from "./generated.ts";
import type { Part } from "./parts.ts";

export const KB = 1024;

export interface SizeResults {
  /** Tool versions and the day of the run (sizes themselves are deterministic). */
  run: { date: string; node: string; esbuild: string; commit: string; corpus: string };
  bundles: BundleSize[];
  /** Entries esbuild could not bundle, with its message. */
  bundleFailures: { entry: string; error: string }[];
  generated: { rows: GeneratedSize[]; summary: GeneratedSummary } | { skipped: string };
  diff: DiffStability;
  targets: TargetCheck[];
}

export interface TargetCheck {
  what: string;
  target: string;
  actual: string;
  ok: boolean;
}

/** Every target that has a figure in `r` (a missing bundle entry or a skipped corpus simply has none). */
export function checkTargets(r: Omit<SizeResults, "targets">): TargetCheck[] {
  const out: TargetCheck[] = [];
  const bundle = (name: string): BundleSize | undefined => r.bundles.find((b) => b.name === name);
  // a target entry that did not bundle misses its target rather than vanishing from the table
  const failed = (name: string): void => {
    if (r.bundleFailures.some((f) => f.entry.endsWith(`/${name}.ts`))) out.push({ what: `bundle ${name}`, target: "bundles", actual: "did not bundle", ok: false });
  };
  const binary = bundle("orders-binary");
  if (binary) out.push({ what: "bundle orders-binary (gzip)", target: `<= ${kb(12 * KB)}`, actual: kb(binary.gzip), ok: binary.gzip <= 12 * KB });
  else failed("orders-binary");
  const text = bundle("orders-text");
  if (text && binary) {
    const extra = text.gzip - binary.gzip;
    out.push({ what: "bundle orders-text over orders-binary (gzip)", target: `<= ${kb(10 * KB)}`, actual: kb(extra), ok: extra <= 10 * KB });
  } else failed("orders-text");
  const barrel = bundle("barrel-one");
  if (barrel) out.push({ what: "bundle barrel-one (gzip)", target: `<= ${kb(14 * KB)}`, actual: kb(barrel.gzip), ok: barrel.gzip <= 14 * KB });
  else failed("barrel-one");
  if ("summary" in r.generated) {
    const s = r.generated.summary;
    out.push({ what: "generated/schema bytes, median", target: "<= 6x", actual: `${s.medianRatio.toFixed(2)}x`, ok: s.medianRatio <= 6 });
    out.push({ what: "generated/schema bytes, worst", target: "<= 20x", actual: `${(s.worst?.ratio ?? NaN).toFixed(2)}x (${s.worst?.id})`, ok: (s.worst?.ratio ?? Infinity) <= 20 });
    out.push({ what: "generated modules over 1 MB", target: "0", actual: String(s.overOneMB), ok: s.overOneMB === 0 });
    out.push({ what: "corpus schemas that failed to generate", target: "0", actual: String(s.failed), ok: s.failed === 0 });
  }
  out.push({ what: `changed lines of ${r.diff.module} after one optional property`, target: "<= 40", actual: String(r.diff.changed), ok: r.diff.changed <= 40 });
  return out;
}

export function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB (${n(bytes)} B)`;
}

function n(x: number): string {
  return x.toLocaleString("en-US");
}

function table(head: string[], rows: string[][], align: ("l" | "r")[]): string {
  const sep = align.map((a) => (a === "r" ? "---:" : "---"));
  return [head, sep, ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
}

/** How many bytes of a bundle come from generated code, the runtime, and anything else. */
export function bundleParts(b: BundleSize): { generated: number; runtime: number; other: number } {
  let generated = 0;
  let runtime = 0;
  let other = 0;
  for (const i of b.inputs) {
    if (i.path.startsWith("runtime/")) runtime += i.bytes;
    else if (/(^|\/)gen\//.test(i.path)) generated += i.bytes;
    else other += i.bytes;
  }
  return { generated, runtime, other };
}

/** Top inputs shown per bundle. */
const TOP_INPUTS = 8;
/** Top runtime files named per bundle (generated code can hide them in the top inputs). */
const TOP_RUNTIME = 6;

export function renderMarkdown(r: SizeResults): string {
  const out: string[] = [];
  out.push("# toon-gen sizes (`npm run bench:size`)", "");
  out.push(
    `${r.run.date}, commit ${r.run.commit}, Node ${r.run.node}, esbuild ${r.run.esbuild}. Sizes are deterministic: the same code gives the same figures. KB = 1,024 bytes.`,
    "",
  );
  out.push("## Targets", "");
  out.push(table(["what", "target", "actual", ""], r.targets.map((t) => [t.what, t.target, t.actual, t.ok ? "ok" : "**missed**"]), ["l", "r", "r", "l"]), "");

  out.push("## 1. Bundle size", "");
  out.push("Each `bench/bundle/*.ts` entry bundled with esbuild (`--bundle --minify --platform=browser --format=esm`, `toon-dev` condition: the runtime's .ts sources), then gzip -9. Parts: minified bytes by origin (esbuild metafile).", "");
  out.push(
    table(
      ["entry", "minified", "gzip -9", "generated code", "runtime", "other"],
      r.bundles.map((b) => {
        const p = bundleParts(b);
        return [`\`${b.name}\``, n(b.minified), n(b.gzip), n(p.generated), n(p.runtime), n(p.other)];
      }),
      ["l", "r", "r", "r", "r", "r"],
    ),
    "",
  );
  for (const f of r.bundleFailures) out.push(`**${f.entry} did not bundle:**`, "", "```", f.error, "```", "");
  for (const b of r.bundles) {
    const share = (i: { bytes: number }): string => `${((100 * i.bytes) / b.minified).toFixed(1)}%`;
    out.push(`**${b.name}**: top inputs by minified bytes in the output`, "");
    out.push(table(["input", "bytes", "share"], b.inputs.slice(0, TOP_INPUTS).map((i) => [`\`${i.path}\``, n(i.bytes), share(i)]), ["l", "r", "r"]), "");
    const runtime = b.inputs.filter((i) => i.path.startsWith("runtime/")).slice(0, TOP_RUNTIME);
    out.push(`Runtime files that dominate it: ${runtime.map((i) => `\`${i.path.slice("runtime/".length)}\` ${n(i.bytes)} (${share(i)})`).join(", ")}.`, "");
    if (b.warnings.length > 0) out.push("esbuild warnings:", "", ...b.warnings.map((w) => `- ${w}`), "");
  }

  out.push("## 2. Generated size over the corpus", "");
  if ("skipped" in r.generated) {
    out.push(r.generated.skipped, "");
  } else {
    const { rows, summary: s } = r.generated;
    out.push(
      `${s.schemas} schemas (${r.run.corpus}); generated TypeScript bytes / schema bytes, where a schema's bytes are every file the loader read for it (each once, however often referenced) or, for one definition of the MCP spec, that definition and every definition it reaches.`,
      "",
      `Median **${s.medianRatio.toFixed(2)}x**, worst **${(s.worst?.ratio ?? NaN).toFixed(2)}x** (${s.worst?.id}), **${s.overOneMB}** module(s) over 1 MB (largest ${s.largestModule ? `${n(s.largestModule.bytes)} bytes, ${s.largestModule.id}` : "-"}), ${s.failed} failed.`,
      "",
      `Modules are written as \`"optimize": "auto"\` writes them (generator/emit/module.ts): unrolled ("speed") unless that passes 1 MB, else on the engine over the embedded descriptor ("size"); ${rows.filter((g) => g.written === "size").length} of ${rows.length} were written for size.`,
      "",
      "The files are generated as one project: a module imports what it has exactly as the module of another corpus file its schema references has it (generator/emit/link.ts; \"imports\": from how many modules), so a referenced file's definitions are emitted once; schema bytes still count every file a schema read.",
      "",
      "The 10 worst by ratio:",
      "",
    );
    const total = Object.values(s.parts).reduce((a, b) => a + b, 0);
    const pct = (x: number, of: number): string => `${((100 * x) / of).toFixed(1)}%`;
    const largestPart = (g: GeneratedSize): string => {
      if (g.parts === undefined) return "-";
      const [p, bytes] = Object.entries(g.parts).sort((a, b) => b[1] - a[1])[0]!;
      return `${p} ${pct(bytes, g.moduleBytes!)}`;
    };
    const row = (g: GeneratedSize): string[] => [
      `\`${g.id}\``,
      n(g.schemaBytes),
      String(g.documents),
      g.moduleBytes === undefined ? "-" : n(g.moduleBytes),
      g.ratio === undefined ? `failed: ${g.error}` : `${g.ratio.toFixed(2)}x${g.moduleBytes! > ONE_MB ? " (> 1 MB)" : ""}`,
      g.written ?? "-",
      g.imports === undefined ? "-" : String(g.imports),
      largestPart(g),
    ];
    const head = ["schema", "schema bytes", "files", "generated bytes", "ratio", "written for", "imports", "largest part"];
    const align: ("l" | "r")[] = ["l", "r", "r", "r", "r", "l", "r", "l"];
    out.push(table(head, s.worst10.map(row), align), "");
    out.push(
      "Where the generated bytes go, over every module (top-level declarations by the feature their name belongs to, bench/size/parts.ts):",
      "",
      table(
        ["part", "bytes, all modules", "share of all bytes", "median share per module"],
        Object.entries(s.parts).map(([p, b]) => [p, n(b), pct(b, total), pct(s.medianPartShare[p as Part], 1)]),
        ["l", "r", "r", "r"],
      ),
      "",
    );
    out.push("<details><summary>Every schema</summary>", "", table(head, rows.map(row), align), "", "</details>", "");
  }

  const d = r.diff;
  out.push("## 3. Diff stability", "");
  out.push(
    `A copy of \`${d.project}\` generated, then \`${d.added}\` (optional) added to its schema and the copy regenerated with the dictionary it had committed (evolved, as a user would). \`git diff --no-index --numstat\` of \`${d.module}\` (${n(d.moduleLines)} lines):`,
    "",
  );
  out.push(
    table(
      ["lines added", "lines deleted", "changed", "changed, numbered names unnumbered", "hunks", "dictionary changed"],
      [[String(d.linesAdded), String(d.linesDeleted), `**${d.changed}**`, String(d.changedIgnoringNumbering), String(d.hunks), d.dictionaryChanged ? "yes" : "no"]],
      ["r", "r", "r", "r", "r", "l"],
    ),
    "",
    "The fourth column counts the diff again with every counter-suffixed name (`m9`, `$check25`) written without its number: the lines that changed only because the emitter's counters shifted are the difference.",
    "",
    "The diff itself: `bench/results/size-diff.patch`.",
    "",
  );
  return out.join("\n");
}

/** The console version: the same tables, less detail. */
export function renderConsole(r: SizeResults): string {
  const md = renderMarkdown(r);
  // the per-schema table is long; the console gets the 10 worst only
  return md.replace(/<details>[\s\S]*?<\/details>\n\n/, "");
}
