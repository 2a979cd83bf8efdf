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
  let m: RegExpExecArray | null;
  while ((m = PRETOKEN.exec(text)) !== null) {
    // a word after `{`, `,` or `;` is one pre-token of the split rule, but o200k_base has merges for few of them:
    // `{type` costs two tokens, `,root` and `;write` one or two (headers, rows and inline arrays hold many; JSON has
    // none outside its strings). Counted as 2 and 1.5, the lines-or-JSON choice leaves no corpus instance above
    // compact JSON (bench/dense.ts)
    const c = m[0].charCodeAt(0);
    n += m[0].length > 1 ? (c === 123 ? 2 : c === 44 || c === 59 ? 1.5 : 1) : 1;
  }
  return n;
}
