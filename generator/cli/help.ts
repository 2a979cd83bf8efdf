/**
 * The text of `toon-gen --help`, and of each subcommand's `--help` (`toon-gen encode --help`, or
 * `toon-gen help encode`): the overview is the subcommands' usage blocks plus the config and inputs.
 */

const GENERATE = `  toon-gen [generate] [--config toon.config.json] [--quiet] [--rebase <Name>]... [--samples <glob>]...
                    [--prune] [--watch] [--no-cache] [--target ts|js] [--int64 auto|bigint]
      Read the config, generate one TypeScript module per schema into outDir (plus outDir/index.ts) and one
      dictionary file per schema into dictionaryDir. --target js (or "target": "js"): ESM .js plus .d.ts
      instead of .ts, for plain Node and JavaScript projects (needs the typescript package). --int64 bigint (or
      "int64": "bigint"): int64 integers decode as bigint always, instead of a number when safe. Files whose content is unchanged are not rewritten;
      the files of a run are written together or not at all (temporary files, then renames).
      Prints one summary line: schemas read, files written, files unchanged, time.
      Every failing input is reported (one line each), then the exit code is 1 and nothing is written.
      A committed dictionary is evolved, never rewritten: new paths go to a new extension segment, removed
      ones are retired. A schema change that breaks wire compatibility with it fails (SCHEMA_ERROR, one line
      per finding) and writes nothing. --rebase <Name> (a codec name; repeatable; '*' for every codec) folds
      that dictionary into a new base with a new fingerprint instead: the explicit breaking release, after
      which old decoders fail with FINGERPRINT_MISMATCH.
      A renamed or moved schema file keeps its dictionary (and fingerprint): its new module takes over the
      old dictionary. What the old name left behind (module, dictionary) is an orphan: generate warns,
      check reports it, --prune deletes it.
      --samples <glob> (repeatable; config "samples"): profile sample JSON (.jsonl: one value per line) and
      give each path's most frequent values (and schema defaults) a default-value table in the dictionary:
      such values travel as one-byte references (docs/FORMAT.md §10.1). Tables are frozen once committed;
      --rebase re-profiles. Config "index" (true, or dictionary paths): a field offset table in every
      message and typed Codec.peek.<path>(bytes) accessors (docs/FORMAT.md §10.2).
      An unchanged rerun is answered from a cache (node_modules/.cache/toon-gen) without generating;
      --no-cache runs in full. --watch: generate, then again whenever an input or the config changes.
`;

const CHECK = `  toon-gen check [--config toon.config.json] [--json]
      For CI: regenerate in memory, write nothing, and print one line per problem ("<file>: <path>: [rule]
      message (fix: ...)"): a schema change that breaks wire compatibility with the committed dictionaries
      (breaking), a generated file or dictionary that is out of date or missing ([stale]: run generate), or
      one that no input generates any more ([orphan]: run generate --prune). --json: {"ok", "findings":
      [{file, path, rule, kind, breaking, message, fix}]}, kind "breaking", "stale", "orphan" or "warning".
      Exit code 0 when clean, 1 on any finding but warnings, 2 for usage errors.
`;

const SCHEMA_ARG = `      --schema takes any input kind: a JSON Schema file, a tool-definition file (its tool set's call
      codec) or tools.json#<tool> (that tool's arguments codec), a Zod module's schemas.ts#<Export>.`;

const ENCODE = `  toon-gen encode --schema <schema.json> [in.json] [--out file] [--text [--layout dense]]
      Encode a JSON value (file or stdin) to TOON binary (stdout or --out). With --text: check it against
      the schema and write TOON text (spec v4), exactly what the generated Codec.toText(value) writes;
      --layout dense: the schema-aware dense layout (docs/TEXT.md), Codec.toText(value, { layout: "dense" }).
${SCHEMA_ARG}
      Without --schema: a schemaless message, its dictionary inferred from the value and embedded in it
      (docs/FORMAT.md §10.4). --compress [--compress-threshold N]: zstd-compress the payload when it is
      at least N bytes (default 8192; needs the optional zstd-napi package; docs/FORMAT.md §10.5).
`;

const DECODE = `  toon-gen decode --schema <schema.json> [in.toon] [--out file] [--text [--layout toon|dense]]
      Decode TOON binary (file or stdin) to pretty JSON. With --text: decode TOON text, either layout
      (detected, or forced with --layout), checked against the schema and coerced as the generated
      Codec.fromText(text) does; errors name line, column and path.
${SCHEMA_ARG}
      Without --schema: a schemaless message. Compressed messages are inflated (zstd-napi).
`;

const STATS = `  toon-gen stats <file.json> [--schema <schema.json>] [--json]
      A table of bytes and tokens (gpt-tokenizer, o200k_base) of the document as pretty JSON, compact JSON,
      TOON text and, with --schema (any input kind, as for encode), the dense text layout and TOON binary
      (tokens of its base64 form). --json: the rows as JSON.
`;

const INSPECT = `  toon-gen inspect <file.toon> [--schema <schema.json> [--dictionary d.json]] [--json]
      What a message holds: the header (flags by name, fingerprint, extension level, the dictionary it
      matches: the --schema's, else one in the dictionaryDir of ./toon.config.json with its fingerprint, or
      the embedded one of a schemaless message), the dictionary table (id, path, type), the decoded tree, and
      per path the bytes it takes in TOON against the bytes it took in JSON, sorted by waste (the TOON bytes
      the path still costs, largest first). On truncated or corrupt input it shows what decoded and where it
      stopped (byte offset, JSON pointer). --json: the same as one JSON object. Exit code 1 if incomplete.
`;

const CONFIG = `toon.config.json (paths relative to the config file; JSON with // and /* */ comments and trailing commas):
  {
    "inputs": ["schemas/*.schema.json"],   globs of input files (* ? ** supported), see "Inputs" below
    "outDir": "src/gen",                   generated modules: <name>.ts and index.ts
    "dictionaryDir": "dictionaries",       dictionary files <name>.dictionary.json: commit these
    "runtimeImport": "@toon-gen/runtime",  optional: the runtime package generated code imports
    "target": "ts",                        optional: "ts" (default) or "js" (ESM .js plus .d.ts)
    "int64": "auto"                        optional: int64 integers decode as a number when safe, else a bigint
                                           ("auto", the default, typed number | bigint) or always a bigint ("bigint")
  }
  A glob that matches no file is an error. An unknown key is an error that names the nearest known one.
`;

const INPUTS = `A schema file order-list.schema.json (or order-list.json) yields outDir/order-list.ts exporting a codec named
after the schema's "title" (else the file name) in PascalCase:
  import { OrderList } from "./gen/order-list.js";
  const bytes = OrderList.encode(value);   const value2 = OrderList.decode(bytes);
  const text = OrderList.toText(value);     const value3 = OrderList.fromText(text);
  OrderList.fromModelOutput(reply)          the value in a model's reply (a toon or json code block, prose around)
  OrderList.formatInstructions()            a prompt snippet showing the expected TOON shape

Inputs (each config input is one of; docs/inputs.md):
  JSON Schema       *.json that is a schema (draft-04 to 2020-12)          -> outDir/<file>.ts
  tool definitions  *.json holding OpenAI Chat Completions tools ({"type":"function","function":{...}}),
                    OpenAI Responses tools ({"type":"function","name",...}), Anthropic tools ({name,
                    input_schema}), or an MCP tools/list result ({"tools":[{name, inputSchema, outputSchema?}]}),
                    one or an array of them; recognised by shape            -> outDir/<file>.ts (+ outDir/<file>/)
                    The tool set codec encodes calls {name, arguments} (the name as an index); it also has
                    .batch, .tools.<name> argument codecs, .results.<name> (MCP outputSchema),
                    parseToolCall(), parseToolCalls() and accumulator() for streamed tool calls.
  Zod module        src/schemas.ts (every exported Zod schema) or src/schemas.ts#Name (one export);
                    .ts/.mts/.js/.mjs/...: loaded with tsx, no compile step. Zod 4 and Zod 3 (zod/v3)
                    -> outDir/<kebab-name>.ts, codec named after the export (a trailing "Schema" dropped)
`;

const FOOTER = `Errors are printed as "toon-gen: CODE: message at /json/pointer"; the exit code is 1 (2 for usage errors).
Docs: docs/FORMAT.md (wire format), docs/EVOLUTION.md (dictionaries), docs/inputs.md (Zod, tools), README.md.
`;

/** Each subcommand's own help (`toon-gen <cmd> --help`, `toon-gen help <cmd>`). */
export const COMMAND_HELP: Readonly<Record<string, string>> = {
  generate: `Usage:\n${GENERATE}\n${CONFIG}`,
  check: `Usage:\n${CHECK}`,
  encode: `Usage:\n${ENCODE}`,
  decode: `Usage:\n${DECODE}`,
  stats: `Usage:\n${STATS}`,
  inspect: `Usage:\n${INSPECT}`,
  help: `Usage:\n  toon-gen help [<command>]\n      This overview, or the usage of one command (${["generate", "check", "encode", "decode", "stats", "inspect"].join(", ")}).\n`,
};

export const HELP = `toon-gen: JSON Schema, Zod and LLM tool definitions in; fixed dictionaries and typed TOON codecs out.

Usage:
${[GENERATE, CHECK, ENCODE, DECODE, STATS, INSPECT].join("\n")}
  toon-gen --version | --help | help <command> | <command> --help

${CONFIG}
${INPUTS}
${FOOTER}`;
