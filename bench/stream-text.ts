/**
 * The streaming text reader (docs/TEXT.md §7: `Codec.reader()`) against its targets, on the four examples' data:
 *
 * 1. Cost of streaming: a reply (the payload in a ```toon or ```json fence, a line of prose before and after it)
 *    in dense, TOON v4, compact JSON and pretty JSON, and the bare compact JSON (a structured-output reply), fed
 *    to `Codec.reader()` in seeded pieces of 1-8 characters, against the same reader given the whole reply in one
 *    `push`, and against `Codec.fromModelOutput(reply)`; and the payload
 *    alone, `Codec.reader({ input: "text" })` in pieces against `Codec.fromText(text)` (dense and TOON v4).
 *    Target: pieces / whole <= 1.5x (reply: against the reader given the whole reply; text: against fromText).
 * 2. Whole reads against the code before the reader work: the TOON-only group (`<Codec>Text.fromText`), the
 *    dense-only group (`<Codec>Dense.fromText`) and the codec object's detection (`Codec.fromText`, on TOON text
 *    and on dense text), here and in an old checkout given with `--baseline <dir>`. Targets: new / old speed
 *    >= 1.0x; detection within 1.1x of the forced layout's group (its CPU per read / the group's <= 1.1).
 *    Without `--baseline` only today's figures (and the detection target) are measured.
 * 3. Against the field's streaming readers, on the same value and the same pieces: the AI SDK's
 *    `parsePartialJson` (`ai`) on the accumulated JSON after every piece (what `streamText`'s `Output.object`
 *    does) against `Codec.reader()` on that JSON; @toon-format/toon's `decodeStreamSync` and `decodeStream`
 *    (events, no value, no schema; fed lines: split beforehand, or split from the pieces as they arrive) against
 *    `Codec.reader({ input: "text", layout: "toon" })` (and with detection) on the same TOON v4 text in pieces.
 *    Also on the orders list repeated 10 times (a reply 10x longer): parsePartialJson grows with its square.
 * 4. Latency: the characters and tokens (o200k_base) of the payload that must arrive, one character at a time,
 *    before the first item of the root's array is delivered whole: our reader on a dense, TOON v4 and JSON reply
 *    (its first `element` event for that item), parsePartialJson on the bare JSON (the first partial result whose
 *    first item deep-equals the final first item).
 *
 *   node --conditions=toon-dev --import tsx bench/stream-text.ts [--quick] [--baseline <dir>]
 *        [--only cost,whole,field,latency] [--example orders,logs]
 *
 * `--baseline <dir>`: a checkout of the code before the reader work (6fd21e8), with its own node_modules, e.g.
 *     git worktree add --detach /tmp/toon-old 6fd21e8
 *     (cd /tmp/toon-old && npm ci --ignore-scripts)   # or: node_modules of symlinks to this tree's packages,
 *                                                      # except @toon-gen/runtime -> ../../runtime (its own)
 *     npm run bench -- --baseline /tmp/toon-old        # or this script alone, as above
 *     git worktree remove --force /tmp/toon-old
 * Its processes run there (cwd, codecs and runtime of that tree), timing the same calls on the same texts.
 *
 * Every case (example, text, operation, tree) runs in its own process (`--child`): a warm-up, then batches of
 * calls timed by the process's CPU time (user + system); a process reports the median of its batches, a figure
 * is the median over rounds (processes), rounds alternating direction. An operation slower than a second per call
 * is timed on one call per process (the check's), over at most 3 processes. Before timing, a child checks that the call reads the
 * value (deep-equal to the data). Full run: bench/results/stream-text.{json,md}; `--quick` (the orders example
 * only, a 3x reply for the scaling, one round of short batches, under a minute) or `--only`/`--example`:
 * bench/results/stream-text.scratch.{json,md}.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { median } from "./measure.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const NODE_FLAGS = ["--conditions=toon-dev", "--import", "tsx"];

/** [examples/ folder, file base name, codec export, the root's array (its first item is the first row)]. */
const EXAMPLES: [string, string, string, string][] = [
  ["orders", "order-list", "OrderList", "orders"],
  ["logs", "log-report", "LogReport", "services"],
  ["extraction", "extraction-result", "ExtractionResult", "documents"],
  ["tool-calls", "tool-call-batch", "ToolCallBatch", "calls"],
];

const PROSE_BEFORE = "Here is the data you asked for, in the format you described.";
const PROSE_AFTER = "Let me know if you need anything else.";
const SEED = 2026;

type Layout = "dense" | "toon" | "json";
const LAYOUTS: Layout[] = ["dense", "toon", "json"];
/**
 * The replies: the three layouts in their fences (JSON compact, as `JSON.stringify` writes it), pretty JSON in a
 * fence (`JSON.stringify(v, null, 2)`), and the bare compact JSON (a structured-output reply: no prose, no fence).
 */
type ReplyKind = Layout | "json-pretty" | "json-bare";
const REPLIES: ReplyKind[] = ["dense", "toon", "json", "json-pretty", "json-bare"];

/** The texts of one case: the payloads (compact JSON), the replies around them. */
interface Fixture {
  example: string;
  scale: number;
  value: unknown;
  payload: Record<Layout, string>;
  /**
   * Whole reads of dense text (section 2): with a baseline, the dense text its writer makes, which both trees read
   * (today's writer uses forms that came later: flush rows, keyed tables); else today's.
   */
  wholeDense: string;
  reply: Record<ReplyKind, string>;
}

function replyOf(layout: Layout, payload: string): string {
  return `${PROSE_BEFORE}\n\n\`\`\`${layout === "json" ? "json" : "toon"}\n${payload}\n\`\`\`\n\n${PROSE_AFTER}\n`;
}

/** Seeded pieces of 1-8 characters (mulberry32), never splitting a surrogate pair. */
function piecesOf(text: string, seed = SEED): string[] {
  let s = seed >>> 0;
  const rnd = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    let j = Math.min(text.length, i + 1 + Math.floor(rnd() * 8));
    const c = text.charCodeAt(j - 1);
    if (j < text.length && c >= 0xd800 && c <= 0xdbff) j++;
    out.push(text.slice(i, j));
    i = j;
  }
  return out;
}

/** Lines as they complete in a stream of pieces (what a consumer of a line-based decoder must do). */
function* linesOf(pieces: readonly string[]): Generator<string> {
  let pending = "";
  for (const p of pieces) {
    const text = pending + p;
    let nl = text.indexOf("\n");
    if (nl < 0) {
      pending = text;
      continue;
    }
    let start = 0;
    while (nl >= 0) {
      yield text.slice(start, nl);
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    pending = text.slice(start);
  }
  if (pending.length > 0) yield pending;
}

// ---------------------------------------------------------------------------------------------------------
// The child: one case

interface Reader {
  push(delta: string): { type: string; pointer?: string }[];
  end(): unknown;
}
interface Codec {
  toText(v: unknown, o?: { layout?: "dense" | "toon" }): string;
  fromText(t: string, o?: { layout?: "dense" | "toon" }): unknown;
  fromModelOutput(reply: string): unknown;
  reader?(o?: { layout?: Layout; input?: "reply" | "text" }): Reader;
}
interface Group {
  fromText(t: string): unknown;
}

const COST_OPS = ["reply pieces", "reply whole", "fromModelOutput"] as const;
const TEXT_OPS = ["text pieces", "text whole", "fromText"] as const;
const WHOLE_OPS = ["group toon", "detect toon", "group dense", "detect dense"] as const;
const FIELD_OPS = [
  "parsePartialJson pieces",
  "reader json pieces",
  "decodeStreamSync lines",
  "decodeStreamSync pieces",
  "decodeStream pieces",
  "reader toon pieces",
  "reader toon pieces (detected)",
] as const;
type Op = (typeof COST_OPS)[number] | (typeof TEXT_OPS)[number] | (typeof WHOLE_OPS)[number] | (typeof FIELD_OPS)[number];

interface ChildArgs {
  /** The tree whose codecs are timed (this one, or the baseline). */
  root: string;
  fixtures: string;
  example: string;
  scale: number;
  op: Op;
  /** The layout of a text (text and whole reads), or the kind of reply (replies). */
  layout?: ReplyKind;
  warmupMs: number;
  batchMs: number;
  batches: number;
}

interface ChildResult {
  /** CPU microseconds per call: the median of the batches. */
  us: number;
  batchUs: number[];
  iters: number;
}

async function child(c: ChildArgs): Promise<ChildResult> {
  const [dir, base, name] = EXAMPLES.find(([d]) => d === c.example)!;
  const mod = (await import(path.join(c.root, "examples", dir, "gen", `${base}.ts`))) as Record<string, unknown>;
  const codec = mod[name] as Codec;
  const textGroup = mod[`${name}Text`] as Group;
  const denseGroup = mod[`${name}Dense`] as Group;
  const fx = (JSON.parse(readFileSync(c.fixtures, "utf8")) as Fixture[]).find((f) => f.example === c.example && f.scale === c.scale)!;
  const kind = c.layout ?? "json";
  const payload = fx.payload[kind === "dense" || kind === "toon" ? kind : "json"];
  const reply = fx.reply[kind];
  const expected = fx.value;
  const replyPieces = piecesOf(reply);
  const payloadPieces = piecesOf(payload);
  const jsonPieces = piecesOf(fx.payload.json);
  const reader = (o?: { layout?: Layout; input?: "reply" | "text" }): Reader => {
    if (codec.reader === undefined) throw new Error(`${c.root}: ${name} has no reader()`);
    return codec.reader(o);
  };
  const feed = (r: Reader, pieces: readonly string[]): unknown => {
    for (let i = 0; i < pieces.length; i++) r.push(pieces[i]!);
    return r.end();
  };
  let fn: () => unknown;
  let isAsync = false;
  // what a call returns, to check before timing: the value, or (for the event decoders) the count of events
  let check: (out: unknown) => boolean = (out) => isDeepStrictEqual(out, expected);
  switch (c.op) {
    case "reply pieces":
      fn = () => feed(reader(), replyPieces);
      break;
    case "reply whole":
      fn = () => feed(reader(), [reply]);
      break;
    case "fromModelOutput":
      fn = () => codec.fromModelOutput(reply);
      break;
    case "text pieces":
      fn = () => feed(reader({ input: "text" }), payloadPieces);
      break;
    case "text whole":
      fn = () => feed(reader({ input: "text" }), [payload]);
      break;
    case "fromText":
      fn = () => codec.fromText(payload);
      break;
    case "group toon":
      fn = () => textGroup.fromText(fx.payload.toon);
      break;
    case "detect toon":
      fn = () => codec.fromText(fx.payload.toon);
      break;
    case "group dense":
      fn = () => denseGroup.fromText(fx.wholeDense);
      break;
    case "detect dense":
      fn = () => codec.fromText(fx.wholeDense);
      break;
    case "reader json pieces":
      fn = () => feed(reader(), jsonPieces);
      break;
    case "parsePartialJson pieces": {
      const { parsePartialJson } = await import("ai");
      isAsync = true;
      fn = async () => {
        let acc = "";
        let last: unknown;
        for (let i = 0; i < jsonPieces.length; i++) {
          acc += jsonPieces[i]!;
          last = (await parsePartialJson(acc)).value;
        }
        return last;
      };
      break;
    }
    case "decodeStreamSync lines":
    case "decodeStreamSync pieces": {
      const { decodeStreamSync } = await import("@toon-format/toon");
      const toonPieces = piecesOf(fx.payload.toon);
      const toonLines = fx.payload.toon.split("\n");
      const fromPieces = c.op === "decodeStreamSync pieces";
      const events = [...decodeStreamSync(toonLines)].length;
      fn = () => {
        let n = 0;
        for (const _ of decodeStreamSync(fromPieces ? linesOf(toonPieces) : toonLines)) n++;
        return n;
      };
      check = (out) => out === events;
      break;
    }
    case "decodeStream pieces": {
      const { decodeStream, decodeStreamSync } = await import("@toon-format/toon");
      const events = [...decodeStreamSync(fx.payload.toon.split("\n"))].length;
      const toonPieces = piecesOf(fx.payload.toon);
      isAsync = true;
      fn = async () => {
        let n = 0;
        for await (const _ of decodeStream(linesOf(toonPieces))) n++;
        return n;
      };
      check = (out) => out === events;
      break;
    }
    case "reader toon pieces":
    case "reader toon pieces (detected)": {
      const toonPieces = piecesOf(fx.payload.toon);
      const o = c.op === "reader toon pieces" ? ({ input: "text", layout: "toon" } as const) : ({ input: "text" } as const);
      fn = () => feed(reader(o), toonPieces);
      break;
    }
  }
  const c0 = cpuNow();
  const first = isAsync ? await (fn() as Promise<unknown>) : fn();
  const firstUs = cpuNow() - c0;
  if (!check(first)) throw new Error(`${c.example} x${c.scale} ${c.op} ${c.layout ?? ""}: the call does not read the value`);
  // a call slower than a second: that call is the measure (the JIT's warm-up is a sliver of it)
  if (firstUs > 1e6) return { us: firstUs, batchUs: [firstUs], iters: 1 };
  return await timeCalls(fn, isAsync, c);
}

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** A warm-up (that calibrates calls per batch), then batches: CPU microseconds per call, median of batches. */
async function timeCalls(fn: () => unknown, isAsync: boolean, c: ChildArgs): Promise<ChildResult> {
  const run = isAsync
    ? async (n: number) => {
        for (let i = 0; i < n; i++) await fn();
      }
    : async (n: number) => {
        for (let i = 0; i < n; i++) fn();
      };
  let n = 0;
  const c0 = cpuNow();
  const t0 = performance.now();
  do {
    await run(1);
    n++;
  } while (performance.now() - t0 < c.warmupMs);
  const perCall = (cpuNow() - c0) / n;
  const iters = Math.max(1, Math.round((c.batchMs * 1000) / Math.max(1, perCall)));
  const batches = perCall * iters > 0.5e6 ? Math.min(c.batches, 3) : c.batches;
  const batchUs: number[] = [];
  for (let b = 0; b < batches; b++) {
    const s = cpuNow();
    await run(iters);
    batchUs.push((cpuNow() - s) / iters);
  }
  return { us: median(batchUs), batchUs, iters };
}

const argv = process.argv.slice(2);
if (argv[0] === "--child") {
  const r = await child(JSON.parse(argv[1]!) as ChildArgs);
  process.stdout.write(JSON.stringify(r) + "\n");
  process.exit(0);
}
if (argv[0] === "--write-dense") {
  // the dense text a tree's own writer makes of a value (the baseline's, for whole reads both trees can read)
  const { root, example, value } = JSON.parse(readFileSync(argv[1]!, "utf8")) as { root: string; example: string; value: unknown };
  const [dir, base, name] = EXAMPLES.find(([d]) => d === example)!;
  const codec = ((await import(path.join(root, "examples", dir, "gen", `${base}.ts`))) as Record<string, Codec>)[name]!;
  process.stdout.write(codec.toText(value, { layout: "dense" }));
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------
// The parent

const { values: opts } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    baseline: { type: "string" },
    only: { type: "string" },
    example: { type: "string" },
    rounds: { type: "string" },
  },
});
const quick = opts.quick === true;
const SECTIONS = ["cost", "whole", "field", "latency"] as const;
type Section = (typeof SECTIONS)[number];
const only = new Set((opts.only ?? SECTIONS.join(",")).split(",").filter((s) => s !== ""));
for (const s of only) if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`--only ${s}: no such section (${SECTIONS.join(", ")})`);
const want = (s: Section): boolean => only.has(s);
const examples = (opts.example ?? (quick ? "orders" : EXAMPLES.map(([d]) => d).join(","))).split(",");
for (const e of examples) if (!EXAMPLES.some(([d]) => d === e)) throw new Error(`--example ${e}: no such example`);
const SCALE = quick ? 3 : 10;
const rounds = Number(opts.rounds ?? (quick ? 1 : 5));
// (a short warm-up counts the optimizing compiler's threads in the batches' CPU time: quick figures are rough)
const timing = quick ? { warmupMs: 200, batchMs: 40, batches: 3 } : { warmupMs: 500, batchMs: 150, batches: 5 };
/** Whole reads are compared with the old code at 1.0x: longer warm-up and batches. */
const wholeTiming = quick ? timing : { warmupMs: 1000, batchMs: 200, batches: 5 };
const partial = quick || opts.only !== undefined || opts.example !== undefined;
const baseline = opts.baseline === undefined ? undefined : path.resolve(opts.baseline);
if (baseline !== undefined && !existsSync(path.join(baseline, "examples", "orders", "gen", "order-list.ts"))) throw new Error(`--baseline ${baseline}: not a checkout of this repository`);

/** A digest of the code measured (runtime/ and the examples' generated codecs), to tell whether it changed during the run. */
function codeDigest(root: string): string {
  const h = createHash("sha256");
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "dist" && e.name !== "node_modules") walk(p);
      } else if (e.name.endsWith(".ts")) h.update(path.relative(root, p) + "\0").update(readFileSync(p));
    }
  };
  walk(path.join(root, "runtime"));
  for (const [dir] of EXAMPLES) walk(path.join(root, "examples", dir, "gen"));
  return h.digest("hex").slice(0, 16);
}
const digestBefore = codeDigest(ROOT);

const git = (cwd: string, ...args: string[]): string => spawnSync("git", ["-C", cwd, ...args], { encoding: "utf8" }).stdout.trim();
const version = (pkg: string): string => (JSON.parse(readFileSync(path.join(ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;

/** The dense text of `value` as the baseline tree's writer makes it (a process there). */
function baselineDense(example: string, value: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), "stream-text-dense-"));
  try {
    const file = path.join(dir, "args.json");
    writeFileSync(file, JSON.stringify({ root: baseline, example, value }));
    const p = spawnSync(process.execPath, [...NODE_FLAGS, SELF, "--write-dense", file], { cwd: baseline, encoding: "utf8", maxBuffer: 64 << 20 });
    if (p.status !== 0) throw new Error(`the baseline's dense writer failed: ${p.stderr}`);
    return p.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// the texts, written once by today's codecs: every process (either tree) reads the same ones
const fixtures: Fixture[] = [];
const codecs = new Map<string, Codec>();
for (const [dir, base, name] of EXAMPLES) {
  if (!examples.includes(dir)) continue;
  const codec = ((await import(path.join(ROOT, "examples", dir, "gen", `${base}.ts`))) as Record<string, Codec>)[name]!;
  codecs.set(dir, codec);
  const data = JSON.parse(readFileSync(path.join(ROOT, "examples", dir, "data", `${base}.json`), "utf8")) as Record<string, unknown>;
  const scales = dir === "orders" && want("field") ? [1, SCALE] : [1];
  for (const scale of scales) {
    const value = scale === 1 ? data : { ...data, orders: Array.from({ length: scale }, () => data.orders as unknown[]).flat() };
    const payload = { dense: codec.toText(value, { layout: "dense" }), toon: codec.toText(value), json: JSON.stringify(value) };
    const reply = {
      dense: replyOf("dense", payload.dense),
      toon: replyOf("toon", payload.toon),
      json: replyOf("json", payload.json),
      "json-pretty": replyOf("json", JSON.stringify(value, null, 2)),
      "json-bare": payload.json,
    };
    fixtures.push({ example: dir, scale, value, payload, reply, wholeDense: scale === 1 && baseline !== undefined && want("whole") ? baselineDense(dir, value) : payload.dense });
  }
}
const fixtureDir = mkdtempSync(path.join(tmpdir(), "stream-text-"));
const fixtureFile = path.join(fixtureDir, "fixtures.json");
writeFileSync(fixtureFile, JSON.stringify(fixtures));

interface Case {
  key: string;
  section: Section;
  tree: "new" | "old";
  args: ChildArgs;
  slow?: boolean;
}
const cases: Case[] = [];
const add = (section: Section, tree: "new" | "old", example: string, scale: number, op: Op, layout?: ReplyKind): void => {
  const root = tree === "new" ? ROOT : baseline!;
  const key = `${section}/${tree}/${example}/x${scale}/${layout ?? "-"}/${op}`;
  const slow = op === "parsePartialJson pieces" && (scale > 1 || example === "logs");
  cases.push({ key, section, tree, slow, args: { root, fixtures: fixtureFile, example, scale, op, ...(layout ? { layout } : {}), ...(section === "whole" ? wholeTiming : timing) } });
};
for (const ex of examples) {
  if (want("cost")) {
    for (const kind of REPLIES) for (const op of COST_OPS) add("cost", "new", ex, 1, op, kind);
    for (const layout of ["dense", "toon"] as Layout[]) for (const op of TEXT_OPS) add("cost", "new", ex, 1, op, layout);
  }
  if (want("whole")) for (const tree of baseline === undefined ? (["new"] as const) : (["new", "old"] as const)) for (const op of WHOLE_OPS) add("whole", tree, ex, 1, op);
  if (want("field")) for (const scale of ex === "orders" ? [1, SCALE] : [1]) for (const op of FIELD_OPS) add("field", "new", ex, scale, op);
}

const perCase = new Map<string, number[]>();
const failures: string[] = [];
const started = performance.now();
const loadBefore = loadavg();
const total = cases.reduce((a, c) => a + (c.slow ? Math.min(rounds, 3) : rounds), 0);
let done = 0;
for (let r = 0; r < rounds; r++) {
  for (const c of r % 2 === 0 ? cases : [...cases].reverse()) {
    if (c.slow && r >= 3) continue;
    process.stderr.write(`[${++done}/${total}] ${c.key} (round ${r + 1}) ... `);
    const p = spawnSync(process.execPath, [...NODE_FLAGS, SELF, "--child", JSON.stringify(c.args)], { cwd: c.args.root, encoding: "utf8", maxBuffer: 16 << 20 });
    const last = p.stdout?.trim().split("\n").pop();
    if (p.status !== 0 || !last) {
      const err = (p.stderr || `exit ${p.status}`).trim();
      failures.push(`${c.key}: ${err.split("\n").slice(0, 5).join(" | ")}`);
      process.stderr.write(`FAILED\n${err}\n`);
      continue;
    }
    const res = JSON.parse(last) as ChildResult;
    (perCase.get(c.key) ?? perCase.set(c.key, []).get(c.key)!).push(res.us);
    process.stderr.write(`${fmtUs(res.us)} per call\n`);
  }
}
rmSync(fixtureDir, { recursive: true, force: true });

function fmtUs(us: number): string {
  if (!Number.isFinite(us)) return "—";
  if (us >= 1e6) return `${(us / 1e6).toFixed(2)} s`;
  if (us >= 1e4) return `${(us / 1000).toFixed(1)} ms`;
  if (us >= 1000) return `${(us / 1000).toFixed(2)} ms`;
  if (us >= 100) return `${us.toFixed(0)} µs`;
  return `${us.toFixed(1)} µs`;
}
const us = (section: Section, tree: "new" | "old", example: string, scale: number, op: Op, layout?: ReplyKind): number => {
  const list = perCase.get(`${section}/${tree}/${example}/x${scale}/${layout ?? "-"}/${op}`);
  return list === undefined || list.length === 0 ? NaN : median(list);
};
const x = (a: number, b: number, digits = 2): string => (Number.isFinite(a / b) ? `${(a / b).toFixed(digits)}x` : "—");
const n = (v: number): string => v.toLocaleString("en-US");
const layoutName: Record<ReplyKind, string> = { dense: "dense", toon: "TOON v4", json: "JSON", "json-pretty": "pretty JSON", "json-bare": "bare JSON (no prose, no fence)" };

const digestAfter = codeDigest(ROOT);
const md: string[] = [
  "# Streaming text reader: cost, whole reads, the field's readers, latency",
  "",
  `Generated by \`bench/stream-text.ts${quick ? " --quick" : ""}${baseline !== undefined ? " --baseline <old checkout>" : ""}\` on ${new Date().toISOString()}: Node ${process.version}, ${cpus()[0]?.model.trim() ?? "?"}, ${cpus().length} cores, load average ${loadBefore.map((v) => v.toFixed(2)).join(" ")} before, ${loadavg()
    .map((v) => v.toFixed(2))
    .join(" ")} after; tree ${git(ROOT, "rev-parse", "--short", "HEAD")}${git(ROOT, "status", "--porcelain", "--", "runtime", "examples").length > 0 ? " with uncommitted changes under runtime/ and examples/ (the working tree as measured)" : ""}, code digest ${digestBefore} (runtime/ and the examples' codecs). ai ${version("ai")}, @toon-format/toon ${version("@toon-format/toon")}, gpt-tokenizer ${version("gpt-tokenizer")}.`,
  "",
  `CPU time per read (user + system of the process): each case in its own process, ${timing.batches} batches of ~${timing.batchMs} ms after a ${timing.warmupMs} ms warm-up (whole reads, section 2: ${wholeTiming.batches} of ~${wholeTiming.batchMs} ms after ${wholeTiming.warmupMs} ms), the process's median batch; the figure is the median over ${rounds} process${rounds > 1 ? "es" : ""} (rounds alternating direction; calls over a second: one call per process, at most 3 processes). Pieces: 1-8 characters, seeded (mulberry32, seed ${SEED}), the same for every reader of a text. Replies: \`${PROSE_BEFORE}\`, a blank line, the payload in a \`\`\`toon (dense, TOON v4) or \`\`\`json (JSON: compact, as \`JSON.stringify(value)\` writes it, on one line; pretty: \`JSON.stringify(value, null, 2)\`) fence, a blank line, \`${PROSE_AFTER}\`; and the bare compact JSON, no prose and no fence (a structured-output reply).`,
  "",
  ...(digestBefore === digestAfter ? [] : ["**The code measured changed during the run** (runtime/ or the examples' codecs were edited meanwhile): figures mix versions.", ""]),
];
const json: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: cpus()[0]?.model.trim(),
  cores: cpus().length,
  loadAverage: { before: loadBefore, after: loadavg() },
  tree: git(ROOT, "rev-parse", "HEAD"),
  codeDigest: { before: digestBefore, after: digestAfter, of: "runtime/**/*.ts and examples/*/gen/**/*.ts (sha256, 16 hex)" },
  baseline: baseline === undefined ? null : { commit: git(baseline, "rev-parse", "HEAD") },
  versions: { ai: version("ai"), "@toon-format/toon": version("@toon-format/toon"), "gpt-tokenizer": version("gpt-tokenizer") },
  settings: { quick, rounds, timing, wholeTiming, seed: SEED, pieces: "1-8 characters", scale: SCALE, examples },
  perProcessUs: Object.fromEntries(perCase),
};
const misses: string[] = [];

// ------------------------------------------------------------------------------------------ 1. cost
if (want("cost")) {
  const rows: unknown[] = [];
  const lines = [
    "| example | layout | reply (chars) | pieces | reader, pieces | reader, whole reply | fromModelOutput | pieces / whole | pieces / fromModelOutput | target <= 1.5x |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  const textLines = [
    "| example | layout | text (chars) | pieces | reader (input: text), pieces | reader (input: text), whole | fromText | pieces / fromText | pieces / reader whole | target <= 1.5x |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const ex of examples) {
    const fx = fixtures.find((f) => f.example === ex && f.scale === 1)!;
    for (const layout of REPLIES) {
      const p = us("cost", "new", ex, 1, "reply pieces", layout);
      const w = us("cost", "new", ex, 1, "reply whole", layout);
      const f = us("cost", "new", ex, 1, "fromModelOutput", layout);
      const ok = p / w <= 1.5;
      if (!ok) misses.push(`cost: ${ex} ${layoutName[layout]} reply, pieces / whole ${x(p, w)} > 1.5x`);
      lines.push(`| ${ex} | ${layoutName[layout]} | ${n(fx.reply[layout].length)} | ${n(piecesOf(fx.reply[layout]).length)} | ${fmtUs(p)} | ${fmtUs(w)} | ${fmtUs(f)} | ${x(p, w)} | ${x(p, f)} | ${ok ? "met" : "MISSED"} |`);
      rows.push({ example: ex, input: "reply", layout, chars: fx.reply[layout].length, pieces: piecesOf(fx.reply[layout]).length, piecesUs: p, wholeUs: w, fromModelOutputUs: f, piecesOverWhole: p / w, piecesOverFromModelOutput: p / f });
    }
    for (const layout of ["dense", "toon"] as Layout[]) {
      const p = us("cost", "new", ex, 1, "text pieces", layout);
      const w = us("cost", "new", ex, 1, "text whole", layout);
      const f = us("cost", "new", ex, 1, "fromText", layout);
      const ok = p / f <= 1.5;
      if (!ok) misses.push(`cost: ${ex} ${layoutName[layout]} text, pieces / fromText ${x(p, f)} > 1.5x`);
      textLines.push(`| ${ex} | ${layoutName[layout]} | ${n(fx.payload[layout].length)} | ${n(piecesOf(fx.payload[layout]).length)} | ${fmtUs(p)} | ${fmtUs(w)} | ${fmtUs(f)} | ${x(p, f)} | ${x(p, w)} | ${ok ? "met" : "MISSED"} |`);
      rows.push({ example: ex, input: "text", layout, chars: fx.payload[layout].length, pieces: piecesOf(fx.payload[layout]).length, piecesUs: p, wholeUs: w, fromTextUs: f, piecesOverFromText: p / f, piecesOverWhole: p / w });
    }
  }
  json.cost = rows;
  md.push(
    "## 1. Cost of streaming",
    "",
    "A reply fed to `Codec.reader()` in pieces, against the same reader given the whole reply in one `push` and against `Codec.fromModelOutput(reply)` (CPU per reply). Compact JSON in a fence is one line, which the reader hands on only once it ends (section 4): in pieces it is read as a whole line; the bare JSON and the pretty JSON stream character by character.",
    "",
    ...lines,
    "",
    "The payload alone (`input: \"text\"`, read dense first, then TOON v4, as `fromText` does), in pieces, against `Codec.fromText(text)`:",
    "",
    ...textLines,
    "",
  );
}

// ------------------------------------------------------------------------------------------ 2. whole reads
if (want("whole")) {
  const rows: unknown[] = [];
  const lines = [
    `| example | read | text | today | before (${baseline === undefined ? "not measured" : git(baseline, "rev-parse", "--short", "HEAD")}) | new / old speed | target >= 1.0x |`,
    "|---|---|---|---:|---:|---:|---|",
  ];
  const detLines = ["| example | text | forced layout's group | `Codec.fromText` (detected) | detected / group | target <= 1.1x | before: detected / group |", "|---|---|---:|---:|---:|---|---:|"];
  const label: Record<(typeof WHOLE_OPS)[number], [string, string]> = {
    "group toon": ["`Text.fromText` (TOON only)", "TOON v4"],
    "detect toon": ["`Codec.fromText` (detected)", "TOON v4"],
    "group dense": ["`Dense.fromText` (dense only)", "dense"],
    "detect dense": ["`Codec.fromText` (detected)", "dense"],
  };
  for (const ex of examples) {
    for (const op of WHOLE_OPS) {
      const a = us("whole", "new", ex, 1, op);
      const b = baseline === undefined ? NaN : us("whole", "old", ex, 1, op);
      const speed = b / a;
      let target = "—";
      if (baseline !== undefined) {
        target = speed >= 1 ? "met" : "MISSED";
        if (!(speed >= 1)) misses.push(`whole: ${ex} ${op} new / old speed ${speed.toFixed(2)}x < 1.0x`);
      }
      lines.push(`| ${ex} | ${label[op][0]} | ${label[op][1]} | ${fmtUs(a)} | ${fmtUs(b)} | ${x(b, a)} | ${target} |`);
      rows.push({ example: ex, op, newUs: a, oldUs: b, newOverOldSpeed: speed });
    }
    for (const t of ["toon", "dense"] as const) {
      const g = us("whole", "new", ex, 1, `group ${t}`);
      const d = us("whole", "new", ex, 1, `detect ${t}`);
      const ok = d / g <= 1.1;
      if (!ok) misses.push(`whole: ${ex} detection on ${layoutName[t]} text ${x(d, g)} of the group > 1.1x`);
      const og = baseline === undefined ? NaN : us("whole", "old", ex, 1, `group ${t}`);
      const od = baseline === undefined ? NaN : us("whole", "old", ex, 1, `detect ${t}`);
      detLines.push(`| ${ex} | ${layoutName[t]} | ${fmtUs(g)} | ${fmtUs(d)} | ${x(d, g)} | ${ok ? "met" : "MISSED"} | ${x(od, og)} |`);
    }
  }
  json.whole = rows;
  md.push(
    "## 2. Whole reads: today against the code before the reader work",
    "",
    baseline === undefined
      ? "Not measured against the old code (run with `--baseline <checkout of 6fd21e8>`)."
      : `The same calls on the same texts in a checkout of ${git(baseline, "rev-parse", "--short", "HEAD")} (\`${git(baseline, "log", "-1", "--format=%s")}\`), each in its own process there. CPU per read; new / old speed = old CPU / new CPU.`,
    "",
    ...lines,
    "",
    "Detection (`Codec.fromText(text)`, no layout: dense first, then TOON v4) against the forced layout's group, today:",
    "",
    ...detLines,
    "",
  );
}

// ------------------------------------------------------------------------------------------ 3. the field
if (want("field")) {
  const rows: unknown[] = [];
  const jl = [
    "| example | JSON (chars) | pieces | `parsePartialJson` after every piece | `Codec.reader()`, pieces | parsePartialJson / reader |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  const tl = [
    "| example | TOON v4 (chars) | lines | `decodeStreamSync`, lines given | `decodeStreamSync`, lines split from the pieces | `decodeStream` (async), lines from the pieces | `Codec.reader({ input: \"text\", layout: \"toon\" })`, pieces | same, layout detected | decodeStreamSync (pieces) / reader |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const cases: [string, number][] = examples.map((e) => [e, 1]);
  if (examples.includes("orders")) cases.splice(1, 0, ["orders", SCALE]);
  for (const [ex, scale] of cases) {
    const fx = fixtures.find((f) => f.example === ex && f.scale === scale)!;
    const name = scale === 1 ? ex : `orders x${scale}`;
    const ppj = us("field", "new", ex, scale, "parsePartialJson pieces");
    const rj = us("field", "new", ex, scale, "reader json pieces");
    const dl = us("field", "new", ex, scale, "decodeStreamSync lines");
    const dp = us("field", "new", ex, scale, "decodeStreamSync pieces");
    const da = us("field", "new", ex, scale, "decodeStream pieces");
    const rt = us("field", "new", ex, scale, "reader toon pieces");
    const rd = us("field", "new", ex, scale, "reader toon pieces (detected)");
    jl.push(`| ${name} | ${n(fx.payload.json.length)} | ${n(piecesOf(fx.payload.json).length)} | ${fmtUs(ppj)} | ${fmtUs(rj)} | ${x(ppj, rj, 0)} |`);
    tl.push(`| ${name} | ${n(fx.payload.toon.length)} | ${n(fx.payload.toon.split("\n").length)} | ${fmtUs(dl)} | ${fmtUs(dp)} | ${fmtUs(da)} | ${fmtUs(rt)} | ${fmtUs(rd)} | ${x(dp, rt)} |`);
    rows.push({ example: ex, scale, jsonChars: fx.payload.json.length, toonChars: fx.payload.toon.length, parsePartialJsonUs: ppj, readerJsonUs: rj, decodeStreamSyncLinesUs: dl, decodeStreamSyncPiecesUs: dp, decodeStreamPiecesUs: da, readerToonUs: rt, readerToonDetectedUs: rd });
  }
  const scaleOf = (op: Op): string => {
    const a = us("field", "new", "orders", 1, op);
    const b = us("field", "new", "orders", SCALE, op);
    return x(b, a, 1);
  };
  const sl = examples.includes("orders")
    ? [
        `| reader | orders | orders x${SCALE} | growth (x${SCALE} text) |`,
        "|---|---:|---:|---:|",
        ...(
          [
            ["`parsePartialJson` after every piece (JSON)", "parsePartialJson pieces"],
            ["`Codec.reader()`, pieces (JSON)", "reader json pieces"],
            ["`decodeStreamSync`, lines from the pieces (TOON v4)", "decodeStreamSync pieces"],
            ["`decodeStream`, lines from the pieces (TOON v4)", "decodeStream pieces"],
            ["`Codec.reader({ input: \"text\", layout: \"toon\" })`, pieces", "reader toon pieces"],
          ] as [string, Op][]
        ).map(([label, op]) => `| ${label} | ${fmtUs(us("field", "new", "orders", 1, op))} | ${fmtUs(us("field", "new", "orders", SCALE, op))} | ${scaleOf(op)} |`),
      ]
    : [];
  json.field = rows;
  md.push(
    "## 3. Against the field's streaming readers",
    "",
    "JSON: the AI SDK's `parsePartialJson` on the accumulated text after every piece, as `streamText`'s `Output.object` does (it also `JSON.stringify`s each new partial to compare it with the last one: not counted here), against `Codec.reader()` fed the same pieces of the same compact JSON (our reader returns each item and field, checked, as it completes). CPU per reply:",
    "",
    ...jl,
    "",
    "TOON v4: @toon-format/toon's `decodeStreamSync` / `decodeStream` (JSON events: no value is built, no schema checked) fed the text's lines (split beforehand, or split as the same pieces arrive), against our reader on the same TOON v4 text in the same pieces (values built and checked, events per row and item). CPU per reply:",
    "",
    ...tl,
    "",
    ...(sl.length > 0 ? [`How they scale with a reply ${SCALE}x longer (the orders list repeated ${SCALE} times):`, "", ...sl, ""] : []),
  );
}

// ------------------------------------------------------------------------------------------ 4. latency
if (want("latency")) {
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  const { parsePartialJson } = await import("ai");
  const rows: unknown[] = [];
  const lines = [
    "| example | first item | dense reply: chars (tokens) | TOON v4 reply: chars (tokens) | compact JSON reply (fenced): chars (tokens) | pretty JSON reply (fenced): chars (tokens) | bare compact JSON, our reader: chars (tokens) | bare compact JSON, parsePartialJson: chars (tokens) | whole payload: dense / TOON v4 / compact JSON tokens |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const at = (payload: string, chars: number): string => (chars < 0 ? "never" : `${n(chars)} (${n(countTokens(payload.slice(0, chars)))})`);
  for (const [ex, , , arrayKey] of EXAMPLES) {
    if (!examples.includes(ex)) continue;
    const fx = fixtures.find((f) => f.example === ex && f.scale === 1)!;
    const codec = codecs.get(ex)!;
    const target = `/${arrayKey}/0`;
    const firstItem = (fx.value as Record<string, unknown[]>)[arrayKey]![0];
    const ours: Record<Layout, number> = { dense: -1, toon: -1, json: -1 };
    for (const layout of LAYOUTS) {
      const reply = fx.reply[layout];
      const start = reply.indexOf("\n", reply.indexOf("```")) + 1; // the payload's first character
      const r = codec.reader!();
      for (let i = 0; i < reply.length; i++) {
        const evs = r.push(reply[i]!);
        if (evs.some((e) => e.type === "element" && e.pointer === target)) {
          ours[layout] = i + 1 - start;
          break;
        }
      }
    }
    // pretty-printed JSON in the fence (its first line `{` ends at once)
    const pretty = JSON.stringify(fx.value, null, 2);
    let prettyAt = -1;
    {
      const reply = fx.reply["json-pretty"];
      const start = reply.indexOf("\n", reply.indexOf("```")) + 1;
      const r = codec.reader!();
      for (let i = 0; i < reply.length; i++) {
        if (r.push(reply[i]!).some((e) => e.type === "element" && e.pointer === target)) {
          prettyAt = i + 1 - start;
          break;
        }
      }
    }
    // the bare JSON (what parsePartialJson is given): a structured-output reply
    let bare = -1;
    {
      const r = codec.reader!();
      const j = fx.payload.json;
      for (let i = 0; i < j.length; i++) {
        if (r.push(j[i]!).some((e) => e.type === "element" && e.pointer === target)) {
          bare = i + 1;
          break;
        }
      }
    }
    let ppj = -1;
    const j = fx.payload.json;
    for (let i = 1; i <= j.length; i++) {
      const partial = (await parsePartialJson(j.slice(0, i))).value as Record<string, unknown[]> | undefined;
      const items = partial?.[arrayKey];
      if (Array.isArray(items) && items.length > 0 && isDeepStrictEqual(items[0], firstItem)) {
        ppj = i;
        break;
      }
    }
    const tok = (s: string): number => countTokens(s);
    lines.push(`| ${ex} | \`${target}\` | ${at(fx.payload.dense, ours.dense)} | ${at(fx.payload.toon, ours.toon)} | ${at(j, ours.json)} | ${at(pretty, prettyAt)} | ${at(j, bare)} | ${at(j, ppj)} | ${n(tok(fx.payload.dense))} / ${n(tok(fx.payload.toon))} / ${n(tok(j))} |`);
    rows.push({
      example: ex,
      pointer: target,
      dense: { chars: ours.dense, tokens: countTokens(fx.payload.dense.slice(0, ours.dense)) },
      toon: { chars: ours.toon, tokens: countTokens(fx.payload.toon.slice(0, ours.toon)) },
      json: { chars: ours.json, tokens: countTokens(j.slice(0, ours.json)) },
      prettyJson: { chars: prettyAt, tokens: countTokens(pretty.slice(0, prettyAt)) },
      bareJson: { chars: bare, tokens: countTokens(j.slice(0, bare)) },
      parsePartialJson: { chars: ppj, tokens: countTokens(j.slice(0, ppj)) },
      payloadTokens: { dense: tok(fx.payload.dense), toon: tok(fx.payload.toon), json: tok(j) },
    });
  }
  json.latency = rows;
  md.push(
    "## 4. Latency: how much of the payload arrives before the first row or item is delivered",
    "",
    "Characters (and o200k_base tokens) of the payload, counted from its first character (after the fence's line), that must have arrived, one character at a time, before the first item of the root's array is delivered whole: our reader (`Codec.reader()`) on the reply (its first `element` event for that item: a dense or TOON table row when its line ends, a TOON list item when the next item's line ends, a JSON item at its `}`), on the bare compact JSON (a structured-output reply: no prose, no fence), and `parsePartialJson` on the bare compact JSON (the first partial whose first item deep-equals the final one). Pretty JSON: `JSON.stringify(value, null, 2)` in the fence.",
    "",
    ...lines,
    "",
  );
}

md.push("## Targets", "", misses.length === 0 ? "All measured targets met." : misses.map((m) => `- MISSED: ${m}`).join("\n"), "");
if (failures.length > 0) md.push("## Failed processes", "", ...failures.map((f) => `- ${f}`), "");
json.misses = misses;
json.failures = failures;
json.seconds = Math.round((performance.now() - started) / 1000);

const out = path.join(ROOT, "bench", "results", partial ? "stream-text.scratch" : "stream-text");
writeFileSync(out + ".json", JSON.stringify(json, null, 2) + "\n");
writeFileSync(out + ".md", md.join("\n"));
console.log(md.join("\n"));
console.log(`${done} processes in ${json.seconds} s; wrote ${path.relative(ROOT, out)}.{json,md}`);
if (failures.length > 0) process.exitCode = 1;
