/**
 * A tokenizer-free estimate of how many tokens a text costs, for the writer's one choice that needs it: dense
 * lines or compact JSON for the whole document (docs/TEXT.md §3, "The document"). It counts the pre-tokens of
 * the o200k_base split rule (letter runs, digit runs of up to 3, punctuation runs, whitespace runs): both
 * candidates hold the same words and numbers, so what differs between them is the punctuation and line
 * structure, which that split counts about as a BPE tokenizer does. No tokenizer ships with the runtime (it has
 * no dependencies); the benchmark (bench/dense.ts) checks the choice against the real tokenizers.
 */

// The o200k_base pre-tokenizer pattern, less its case-insensitive contraction suffixes (a rare extra pre-token).
const PRETOKEN =
  /[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

export function estimateTokens(text: string): number {
  PRETOKEN.lastIndex = 0;
  let n = 0;
  while (PRETOKEN.exec(text) !== null) n++;
  return n;
}
