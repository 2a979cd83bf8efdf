/**
 * The toon-gen projects of the benchmark itself (each a folder with a toon.config.json, its generated modules and
 * dictionaries committed): the examples' schemas generated without samples (bench/no-samples/<example>; the
 * examples that have samples only: extraction and tool-calls are generated without them already), and the
 * held-out orders shape no example has seen (bench/held-out). `npm run gen:examples` regenerates them and
 * test/golden.test.ts checks them, like the examples.
 */
export const BENCH_PROJECTS: readonly string[] = ["bench/held-out", "bench/no-samples/logs", "bench/no-samples/orders"];
