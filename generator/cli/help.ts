/** The text of `toon-gen --help`. */
export const HELP = `toon-gen: JSON Schema in; fixed dictionaries and typed TOON codecs out.

Usage:
  toon-gen [generate] [--config toon.config.json] [--quiet]
      Read the config, generate one TypeScript module per schema into outDir (plus outDir/index.ts) and one
      dictionary file per schema into dictionaryDir. Files whose content is unchanged are not rewritten.
      Prints one summary line: schemas read, files written, files unchanged, time.

  toon-gen encode --schema <schema.json> [in.json] [--out file]
      Encode a JSON value (file or stdin) to TOON binary (stdout or --out).

  toon-gen decode --schema <schema.json> [in.toon] [--out file]
      Decode TOON binary (file or stdin) to pretty JSON.

  toon-gen --version | --help

toon.config.json (paths relative to the config file):
  {
    "inputs": ["schemas/*.schema.json"],   globs of JSON Schema files (* ? ** supported)
    "outDir": "src/gen",                   generated modules: <name>.ts and index.ts
    "dictionaryDir": "dictionaries",       dictionary files <name>.dictionary.json: commit these
    "runtimeImport": "toon-gen/runtime"    optional: the module generated code imports
  }

A schema file order-list.schema.json (or order-list.json) yields outDir/order-list.ts exporting a codec named
after the schema's "title" (else the file name) in PascalCase:
  import { OrderList } from "./gen/order-list.js";
  const bytes = OrderList.encode(value);   const value2 = OrderList.decode(bytes);

Errors are printed as "toon-gen: CODE: message at /json/pointer"; the exit code is 1 (2 for usage errors).
Docs: docs/FORMAT.md (wire format), docs/EVOLUTION.md (dictionaries), README.md.
`;
