/**
 * Tool-call arguments as JSON text (OpenAI sends them as a string, `\uXXXX` escapes and all; streams send them
 * in fragments split anywhere): read by the runtime's JSON reader (./text/reader/json.ts) into the value
 * `JSON.parse` would give (doubles, the last of duplicate keys, `__proto__` as an own property), so that the
 * accumulator knows as the fragments arrive whether the value is whole, cut off, broken, or followed by more.
 */
import { ToonError } from "../wire/errors.ts";
import { JsonReader } from "../text/reader/json.ts";
import { describeJsonFault, jsonFaultError, type JsonFault } from "../text/reader/json-fault.ts";
import { JsonValueBuilder, readJsonText, type JsonValueOptions } from "../text/reader/json-value.ts";

/** As JSON.parse reads them: lone surrogates are the schema check's to refuse, at their path. */
const AS_JSON_PARSE: JsonValueOptions = { numbers: "double", duplicates: "last", loneSurrogates: true };

/**
 * Parse the JSON text of tool-call arguments. Blank text means "no arguments" (`{}`). A text that is a cut-off
 * prefix of JSON is INCOMPLETE; anything else that does not parse is INVALID_VALUE. Errors carry `path`.
 */
export function parseArgumentsJson(text: string, path = "/arguments"): unknown {
  if (text.trim() === "") return {};
  return readJsonText(text, {
    ...AS_JSON_PARSE,
    raise: (f) => {
      throw argumentsError(f, text.length, path);
    },
  }).value;
}

/** The error of arguments (`length` characters of text) whose JSON has fault `f`. */
function argumentsError(f: JsonFault, length: number, path: string): ToonError {
  const cause = jsonFaultError(f);
  if (f.atEnd) return new ToonError("INCOMPLETE", `the arguments end before their JSON value does (${length} characters, cut off)`, { path, cause });
  return new ToonError("INVALID_VALUE", `the arguments are not valid JSON (${describeJsonFault(f)} at line ${f.line}, column ${f.column})`, { path, cause });
}

/** Whether `text` holds something other than JSON whitespace from `from` on. */
function hasContent(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return true;
  }
  return false;
}

/** Argument JSON arriving in fragments: fed to the reader as they come, the value built on the way. */
export class ArgumentsFeed {
  private readonly builder = new JsonValueBuilder(AS_JSON_PARSE);
  // it stops at the end of the value: what follows is only looked at (`trailing`)
  private readonly reader = new JsonReader(this.builder, { ...AS_JSON_PARSE, stopAtEnd: true, raise: (f) => this.broke(f) });
  /** What broke the text (nothing after it is read). */
  private fault: JsonFault | undefined;
  private length = 0;
  private ended = false;
  /** Characters other than whitespace after the value. */
  trailing = false;

  constructor() {
    this.builder.reader = this.reader;
  }

  /** Nothing but whitespace so far. */
  get empty(): boolean {
    return !this.reader.started && this.fault === undefined;
  }

  /** The value's JSON closed (its last `}`, `]` or quote came). */
  get closed(): boolean {
    return this.reader.done;
  }

  /** The text cannot become JSON any more (a fault, or something after the value). */
  get broken(): boolean {
    return (this.fault !== undefined && !this.fault.atEnd) || this.trailing;
  }

  /** The arguments value (once `closed`). */
  get value(): unknown {
    return this.builder.value;
  }

  feed(text: string): void {
    this.length += text.length;
    if (this.fault !== undefined) return;
    if (this.reader.done) {
      if (hasContent(text, 0)) this.trailing = true;
      return;
    }
    try {
      const end = this.reader.push(text);
      if (end >= 0 && hasContent(text, end)) this.trailing = true;
    } catch (e) {
      if (this.fault === undefined) throw e; // not the reader's fault (broke() records those)
    }
  }

  /** The fragments are over: a number or literal at the end is complete; a value that is not is cut off. */
  end(): void {
    if (this.ended || this.fault !== undefined || this.reader.done) return;
    this.ended = true;
    try {
      this.reader.end();
    } catch (e) {
      if (this.fault === undefined) throw e;
    }
  }

  /** The error of the arguments' text (undefined when it is whole JSON with nothing after it). */
  error(path: string): ToonError | undefined {
    if (this.trailing) return new ToonError("INVALID_VALUE", "text after the end of the argument JSON", { path });
    return this.fault === undefined ? undefined : argumentsError(this.fault, this.length, path);
  }

  private broke(f: JsonFault): never {
    this.fault = f;
    throw jsonFaultError(f);
  }
}
