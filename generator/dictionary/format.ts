/**
 * The dictionary file format's name and version (`"format"` in every `<name>.dictionary.json`): apart from
 * file.ts, which reads and writes the files and evolves them through evolve.ts, so that evolve.ts, which makes
 * new ones, needs nothing back from it.
 */
export const DICTIONARY_FORMAT = "toon-gen/dictionary@1";
