/**
 * JSON text with positions: configs are JSONC (comments, trailing commas), schema files strict JSON, and
 * either kind's syntax errors name a line and column (1-based), which an editor jumps to; a character offset
 * (what JSON.parse reports) it does not.
 */
import * as jsonc from "jsonc-parser";
import { ToonError, type ToonErrorCode } from "../../runtime/wire/errors.ts";

/** 1-based line and column of a character offset (a `\r\n` counts as one line break). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** jsonc-parser's error names (`CommaExpected`) in words (`a comma expected`). */
function describe(code: jsonc.ParseErrorCode): string {
  const words = jsonc.printParseErrorCode(code).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.replace(/ expected$/, " expected").replace(/^invalid symbol$/, "unexpected character");
}

function parseWith(text: string, file: string, code: ToonErrorCode, options: jsonc.ParseOptions, what: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const errors: jsonc.ParseError[] = [];
  const value = jsonc.parse(body, errors, options) as unknown;
  if (errors.length === 0 && (value !== undefined || body.trim() !== "")) return value;
  const first = errors[0];
  const at = lineColumn(body, first?.offset ?? body.length);
  throw new ToonError(code, `${file}: ${what} (${first === undefined ? "empty file" : describe(first.error)})`, at);
}

/** A config file: JSON with comments and trailing commas. CONFIG_ERROR with line and column. */
export function parseJsonc(text: string, file: string): unknown {
  return parseWith(text, file, "CONFIG_ERROR", { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false }, "not valid JSON");
}

/**
 * A schema or tool file: strict JSON (JSON.parse decides, it is what the loaders use). When it refuses,
 * SCHEMA_ERROR with the line and column of the first problem.
 */
export function checkJsonSyntax(text: string, file: string): void {
  try {
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    parseWith(text, file, "SCHEMA_ERROR", { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false }, "not valid JSON");
    // JSON.parse and jsonc-parser disagree (e.g. a lone surrogate escape): keep JSON.parse's verdict
    throw new ToonError("SCHEMA_ERROR", `${file}: not valid JSON`);
  }
}
