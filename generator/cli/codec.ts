/**
 * `toon-gen encode` / `toon-gen decode`: one-off conversions with a schema, through the interpreted codec
 * (the generated modules' twin), so no generated code is needed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import * as path from "node:path";
import { ToonError } from "../../runtime/errors.ts";
import { buildDictionary, parseDictionary } from "../dictionary/file.ts";
import { initHash } from "../dictionary/hash.ts";
import { loadSchemaFile } from "../load/index.ts";
import { interpret } from "../interpret/index.ts";

export async function runCodecCommand(command: "encode" | "decode", args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { schema: { type: "string", short: "s" }, out: { type: "string", short: "o" }, dictionary: { type: "string", short: "d" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", (e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.schema === undefined) throw new ToonError("CONFIG_ERROR", `${command} needs --schema <schema.json>`);
  if (positionals.length > 1) throw new ToonError("CONFIG_ERROR", `${command} takes at most one input file`);
  await initHash();
  const cwd = process.cwd();
  const ir = await loadSchemaFile(values.schema, { cwd });
  const previous = values.dictionary === undefined ? undefined : parseDictionary(readFile(values.dictionary), values.dictionary);
  const codec = interpret(ir, buildDictionary(ir, previous));
  const input = positionals[0] === undefined || positionals[0] === "-" ? readStdin() : readBytes(positionals[0]);
  let output: Uint8Array;
  if (command === "encode") {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(input));
    } catch (e) {
      throw new ToonError("INVALID_VALUE", `input is not valid JSON: ${(e as Error).message}`);
    }
    output = codec.encode(value);
  } else {
    output = new TextEncoder().encode(JSON.stringify(codec.decode(input), (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n");
  }
  if (values.out !== undefined) writeFileSync(path.resolve(cwd, values.out), output);
  else process.stdout.write(output);
  return 0;
}

function readFile(file: string): string {
  return new TextDecoder().decode(readBytes(file));
}

function readBytes(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new ToonError("IO_ERROR", `cannot read ${file}: ${(e as Error).message}`);
  }
}

function readStdin(): Uint8Array {
  try {
    return readFileSync(0);
  } catch {
    return new Uint8Array(0);
  }
}
