/**
 * `toon-gen encode` / `toon-gen decode`: one-off conversions with a schema, through the interpreted codec
 * (the generated modules' twin), so no generated code is needed.
 *
 * `--schema` is any input kind (a JSON Schema, `tools.json[#tool]`, `schemas.ts#Export`: cli/schema-arg.ts).
 * The dictionary (its fingerprint is checked on decode) is, in order: `--dictionary <file>`; the committed
 * dictionary of the schema when a toon.config.json in the working directory lists the schema among its inputs
 * (so messages of the generated modules decode); else one built fresh from the schema, as `generate` would
 * write it the first time.
 *
 * Without `--schema` (binary only), messages are schemaless (docs/FORMAT.md §10.4). `--compress` zstd-compresses
 * payloads from 8 KiB (or `--compress-threshold`) up (docs/FORMAT.md §10.5); decode inflates by itself.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import * as path from "node:path";
import { ToonError } from "../../runtime/wire/errors.ts";
import { buildDictionary, parseDictionary } from "../dictionary/file.ts";
import type { Dictionary } from "../dictionary/types.ts";
import { initHash } from "../dictionary/hash.ts";
import { interpret } from "../interpret/index.ts";
import { parseJson, stringifyJson } from "../interpret/json.ts";
import { loadSchemaArg } from "./schema-arg.ts";
import { encodeText } from "../../runtime/text/encode.ts";
import { textLayouts } from "../../runtime/text/layout.ts";
import { fromTextWith } from "../../runtime/text/check.ts";
import { denseFromText, denseToText } from "../../runtime/text/dense/index.ts";
import { compileTextCheck } from "../emit/text.ts";
import { schemalessCommand } from "../inspect/schemaless-cli.ts";
import { compressOptions, isCompressedMessage, useZstd } from "../inspect/zstd.ts";

export async function runCodecCommand(command: "encode" | "decode", args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { schema: { type: "string", short: "s" }, out: { type: "string", short: "o" }, dictionary: { type: "string", short: "d" }, text: { type: "boolean", short: "t" }, layout: { type: "string" }, compress: { type: "boolean", short: "z" }, "compress-threshold": { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new ToonError("CONFIG_ERROR", `${command}: ${(e as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (values.schema === undefined && values.text) throw new ToonError("CONFIG_ERROR", `${command} --text needs --schema <schema.json>`);
  if (positionals.length > 1) throw new ToonError("CONFIG_ERROR", `${command} takes at most one input file`);
  const layout = values.layout;
  if (layout !== undefined && layout !== "toon" && layout !== "dense") throw new ToonError("CONFIG_ERROR", `${command} --layout is "toon" or "dense", not ${JSON.stringify(layout)}`);
  if (layout !== undefined && !values.text) throw new ToonError("CONFIG_ERROR", `${command} --layout applies to --text`);
  if ((values.compress || values["compress-threshold"] !== undefined) && (command !== "encode" || values.text)) {
    throw new ToonError("CONFIG_ERROR", "--compress applies to binary encode only (decode decompresses by itself)");
  }
  const cwd = process.cwd();
  const compress = await compressOptions(values.compress, values["compress-threshold"]);
  if (values.schema === undefined) {
    // no schema: schemaless mode, the dictionary inferred from the value and embedded (docs/FORMAT.md §10.4)
    const input = positionals[0] === undefined || positionals[0] === "-" ? readStdin() : readBytes(positionals[0], cwd);
    return writeOutput(await schemalessCommand(command, input, compress), values.out, cwd);
  }
  await initHash();
  // any input kind: a JSON Schema, tools.json[#tool], schemas.ts#Export (cli/schema-arg.ts)
  const arg = await loadSchemaArg(values.schema, cwd);
  const ir = arg.ir;
  const dictionaryFile = values.dictionary ?? arg.dictionary;
  const previous = dictionaryFile === undefined ? undefined : readDictionary(dictionaryFile, cwd);
  // IDs kept from the committed dictionary, exactly as `generate` assigns them
  const codec = interpret(ir, buildDictionary(ir, previous));
  const input = positionals[0] === undefined || positionals[0] === "-" ? readStdin() : readBytes(positionals[0], cwd);
  let output: Uint8Array;
  if (command === "encode") {
    let value: unknown;
    try {
      value = parseJson(new TextDecoder("utf-8", { fatal: true }).decode(input), ir);
    } catch (e) {
      throw new ToonError("INVALID_VALUE", `input is not valid JSON: ${(e as Error).message}`);
    }
    if (values.text) {
      // TOON text: the schema check of the binary codec, then the runtime encoder (what Codec.toText writes)
      const checked = codec.validate(value);
      if (!checked.ok) throw new ToonError("INVALID_VALUE", checked.errors[0]!.message, { path: checked.errors[0]!.path, details: checked.errors });
      output = new TextEncoder().encode((layout === "dense" ? denseToText(ir, value) : encodeText(value)) + "\n");
    } else {
      output = codec.encode(value, compress);
    }
  } else if (values.text) {
    // TOON text: decoded and checked against the schema as Codec.fromText does (interpreted twin)
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(input);
    } catch (e) {
      throw new ToonError("INVALID_VALUE", `input is not valid UTF-8: ${(e as Error).message}`);
    }
    // either layout, detected as Codec.fromText does (docs/TEXT.md); --layout forces one
    const check = compileTextCheck(ir).check;
    const layouts = textLayouts<unknown>(
      { name: ir.name, fingerprint: 0, toText: (v, o) => encodeText(v, o), fromText: (t, o) => fromTextWith(t, o, check) },
      { name: ir.name, fingerprint: 0, toText: (v) => denseToText(ir, v), fromText: (t) => denseFromText(ir, t) },
    );
    output = new TextEncoder().encode(stringifyJson(layouts.fromText(text, layout === undefined ? undefined : { layout })));
  } else {
    if (isCompressedMessage(input)) await useZstd();
    output = new TextEncoder().encode(stringifyJson(codec.decode(input)));
  }
  return writeOutput(output, values.out, cwd);
}

function writeOutput(output: Uint8Array, file: string | undefined, cwd: string): number {
  if (file !== undefined) {
    const out = path.resolve(cwd, file);
    try {
      writeFileSync(out, output);
    } catch (e) {
      throw new ToonError("IO_ERROR", `cannot write ${file}: ${(e as Error).message}`);
    }
  } else {
    process.stdout.write(output);
  }
  return 0;
}

export function readDictionary(file: string, cwd: string): Dictionary {
  const text = new TextDecoder().decode(readBytes(file, cwd));
  return parseDictionary(text, file);
}


function readBytes(file: string, cwd: string): Uint8Array {
  try {
    return readFileSync(path.resolve(cwd, file));
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
