/**
 * What JSON's tokens are, for the tokenizer (./json.ts): the characters a number or a word is read over, the number
 * grammar a number token is checked against, and the literals a word is or may become (the repairs' Python words
 * among them).
 */

/** Characters a number token is read over (then checked against the grammar: `1-2`, `01` are faults). */
export function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

export function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}

export function isWordStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}

/** A number token against the JSON grammar: 0 a number, 1 the start of one (more digits could make it one), 2 never one. */
export function numberShape(raw: string): 0 | 1 | 2 {
  let s = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    const digit = c >= 48 && c <= 57;
    switch (s) {
      case 0: // start
        s = c === 45 ? 1 : c === 48 ? 2 : digit ? 3 : 9;
        break;
      case 1: // after `-`
        s = c === 48 ? 2 : digit ? 3 : 9;
        break;
      case 2: // a leading 0
        s = c === 46 ? 4 : c === 101 || c === 69 ? 6 : 9;
        break;
      case 3: // integer digits
        s = digit ? 3 : c === 46 ? 4 : c === 101 || c === 69 ? 6 : 9;
        break;
      case 4: // after `.`
      case 5: // fraction digits
        s = digit ? 5 : s === 5 && (c === 101 || c === 69) ? 6 : 9;
        break;
      case 6: // after `e`
        s = c === 43 || c === 45 ? 7 : digit ? 8 : 9;
        break;
      case 7: // after the exponent's sign
      case 8: // exponent digits
        s = digit ? 8 : 9;
        break;
    }
    if (s === 9) return 2;
  }
  return s === 2 || s === 3 || s === 5 || s === 8 ? 0 : 1;
}

/** The literal a word starts with (`truex` -> `true`), or "". */
export function literalPrefix(w: string): string {
  return w.startsWith("true") ? "true" : w.startsWith("false") ? "false" : w.startsWith("null") ? "null" : "";
}

export function literalValue(w: string): boolean | null {
  return w === "true" ? true : w === "false" ? false : null;
}

/** Whether a word cut off by the end of the text could have become a literal (`tr`, `fals`; `Tru` when repairing). */
export function literalStart(w: string, repair: boolean): boolean {
  const any = (full: string): boolean => full.length > w.length && full.startsWith(w);
  return any("true") || any("false") || any("null") || (repair && (any("True") || any("False") || any("None")));
}
