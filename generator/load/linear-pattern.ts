/**
 * A JSON Schema pattern (ECMAScript syntax) as the same language in RE2 syntax, for re2js: an engine that runs in
 * time linear in the input whatever the pattern. re2js's `translateRegExp` maps the syntax (`\u{...}`, named
 * groups, `[^]`, ...); two classes mean something else in RE2 and are spelled out first: ECMAScript's `\s` takes
 * every Unicode space (RE2's only ASCII ones) and `.` stops at `\r`, U+2028 and U+2029 too (RE2's only at `\n`).
 * What RE2 cannot run at all (backreferences, lookaround) gives a reason instead: a backreference would otherwise
 * come out of the translation as literal text, a different language. Groups do not capture (a pattern only
 * tests, and re2js's automaton runs 4-7x faster on `(?:a|b)*` than on `(a|b)*`).
 */
import { RE2JS } from "re2js";

/** ECMAScript's WhiteSpace and LineTerminator code points, as class members (what `\s` matches). */
const SPACE = String.raw`\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff`;
/** What `.` matches without the `s` flag: anything but a line terminator. */
const DOT = String.raw`[^\n\r\u2028\u2029]`;

export type LinearPattern = { ok: true; source: string } | { ok: false; why: string };

/** `source` in RE2 syntax with ECMAScript's meaning, or why RE2 cannot run it. */
export function linearPattern(source: string): LinearPattern {
  const spelled = spellOut(source);
  if (typeof spelled !== "string") return spelled;
  let translated: string;
  try {
    translated = RE2JS.translateRegExp(spelled);
    RE2JS.compile(translated);
  } catch (e) {
    return { ok: false, why: `RE2 cannot run it (${e instanceof Error ? e.message : String(e)})` };
  }
  return { ok: true, source: translated };
}

/** `\s`, `\S` and `.` as explicit classes, groups without captures; a reason where RE2 lacks a construct. */
function spellOut(source: string): string | { ok: false; why: string } {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      const n = source[i + 1];
      if (n === undefined) return { ok: false, why: "it ends in a lone backslash" };
      if (n === "k" || (n >= "1" && n <= "9")) return { ok: false, why: "RE2 has no backreferences" };
      if (n === "s") out += inClass ? SPACE : `[${SPACE}]`;
      else if (n === "S") {
        if (inClass) return { ok: false, why: "RE2 cannot spell \\S inside a class" };
        out += `[^${SPACE}]`;
      } else out += c + n;
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      // `[]` and `[^]` (a `]` first is the end of the class in ECMAScript, not a member)
      if (source[i + 1] === "^") {
        out += "^";
        i++;
      }
      continue;
    }
    if (c === "(") {
      if (source[i + 1] !== "?") {
        out += "(?:";
        continue;
      }
      const kind = source[i + 2];
      if (kind === "=" || kind === "!" || (kind === "<" && (source[i + 3] === "=" || source[i + 3] === "!"))) return { ok: false, why: "RE2 has no lookaround" };
      if (kind === "<") {
        const close = source.indexOf(">", i + 3);
        if (close === -1) return { ok: false, why: "a group name is not closed" };
        out += "(?:";
        i = close;
        continue;
      }
    }
    out += c === "." ? DOT : c;
  }
  return out;
}
