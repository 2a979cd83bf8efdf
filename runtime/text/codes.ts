/**
 * The TOON decoder's constants: its line-table layout, line kinds and the character codes of the grammar.
 *
 * A module of its own, with no imports, for size: esbuild inlines the constants of an import-free module where
 * they are used, while a module that imports anything keeps its own constants as variables (a var list plus a
 * name at every use: about 130 B gzipped of the text bundle).
 */

/** Line table layout: S int32 slots per content line. */
export const S = 6;
export const L_START = 0; // offset of the first content character (after indentation)
export const L_END = 1; // offset after the last content character (trailing spaces and CR removed)
export const L_DEPTH = 2; // indentation depth
export const L_LINE = 3; // 1-based line number in the original text
export const L_BLANK = 4; // line number of the first blank line since the previous content line, 0 if none
export const L_OFF = 5; // offset of the start of the physical line (for columns)

export const K_NONE = 0; // no unquoted colon: a scalar line
export const K_KV = 1; // key-value line: D.key / D.vs set
export const K_HDR = 2; // array or keyed header: D.hdr set

export const CH_TAB = 9;
export const CH_SPACE = 32;
export const CH_QUOTE = 34;
export const CH_HASH = 35;
export const CH_COMMA = 44;
export const CH_MINUS = 45;
export const CH_DOT = 46;
export const CH_COLON = 58;
export const CH_LBRACKET = 91;
export const CH_BACKSLASH = 92;
export const CH_RBRACKET = 93;
export const CH_LBRACE = 123;
export const CH_PIPE = 124;
export const CH_RBRACE = 125;
