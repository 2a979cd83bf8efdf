/**
 * The runtime contract: the generated-code surface (`toon-gen/runtime/codegen`) is versioned apart from the user
 * API. A generated module calls `requireContract` (as a PURE call whose result it uses, so bundlers keep the check
 * exactly when they keep the codec), and a runtime too old or too new for it fails at first use with a clear
 * message instead of misreading bytes.
 */
import { ToonError } from "./errors.ts";
import { registerDictionary } from "./header.ts";

/**
 * Bumped when generated code needs runtime exports that older runtimes lack, or their meaning changes.
 * 2: the `codegen` entry, `requireContract(version, module, fingerprint, name)` and `codecOf`.
 * 3: `StreamSpec.ids` (the dictionary IDs of the descriptor's walk) replaces the generated path rows, which the
 *    runtime now derives from the descriptor (runtime/codec/stream-rows.ts); `writeRef`/`readRef`; the
 *    `StreamCodec` type; `validateFull`, `assertSchema` and `withSchemaCheck` in `codegen`, and the `toon-gen/runtime/validate` entry
 *    that `<name>.validate.ts` modules import (JSON Schema validators compiled at build time).
 * 4: the dense text layout (runtime/text/dense, docs/TEXT.md): `textLayouts` (the codec object's two-layout text),
 *    `encodeTextWith` without a specialised encoder, `denseToText`,
 *    `denseFromText`, `denseInstructions`; `fromModelOutputWith` takes the dense reader as a sixth argument; modules
 *    written for size (`optimize`) run on `engineCodec`/`engineTextCheck`; `wAnyExtras`/`rAnyExtras` (an open
 *    object's extra keys) and `wStrings`/`rStrings` (arrays of plain strings), one call each in generated code;
 *    `writeRef`/`readRef` are gone (a definition passed to them kept V8 from inlining it: refs are direct calls).
 * 5: one resumable text reader (runtime/text/reader): a module's `$readerSpec` (`ReaderSpec`: descriptor, text check,
 *    root hints, fill spec, JSON Schema check) and prompt snippet make its Prompt group (`promptGroup`:
 *    `fromModelOutput`, `reader()`, `readStream()`, `formatInstructions`); `fromModelOutputWith`, `denseInstructions`
 *    and `withSchemaCheck` are no longer called by generated code.
 * 6: one shape model: `toolSet(name, [[tool, argument codec], ...], callDescriptor, patterns?)` finds each tool's
 *    shape in the call codec's descriptor (a tool set's call module exports its `$descriptor` to the main module),
 *    which no longer embeds check shapes; the `CheckShape` and `CheckDefs` types are gone (`checkShape` and
 *    `checkConstraints` check descriptor shapes).
 */
export const RUNTIME_CONTRACT = 6;

/**
 * Checks the contract, registers the module's dictionary name (so a fingerprint mismatch names the writer's
 * dictionary) and hands back the fingerprint, which the module's codecs then use.
 */
export function requireContract(version: number, module: string, fingerprint: number, dictionaryName: string): number {
  if (version !== RUNTIME_CONTRACT) {
    throw new ToonError(
      "CONFIG_ERROR",
      `${module} was generated for runtime contract ${version}, but the installed @toon-gen/runtime implements contract ${RUNTIME_CONTRACT}: regenerate it with the installed toon-gen`,
    );
  }
  registerDictionary(fingerprint, dictionaryName);
  return fingerprint;
}

/**
 * A generated module's all-in-one codec object from its feature groups (binary, text, streams, peek). A function
 * so that a module can mark it PURE: a bundle that never touches the all-in-one object drops it and the groups it
 * alone keeps alive.
 */
export function codecOf<A extends object, B extends object, C extends object>(a: A, b: B, c: C): A & B & C;
export function codecOf<A extends object, B extends object, C extends object, D extends object>(a: A, b: B, c: C, d: D): A & B & C & D;
export function codecOf<A extends object, B extends object, C extends object, D extends object, E extends object>(a: A, b: B, c: C, d: D, e: E): A & B & C & D & E;
export function codecOf<A extends object, B extends object, C extends object, D extends object, E extends object, F extends object>(a: A, b: B, c: C, d: D, e: E, f: F): A & B & C & D & E & F;
export function codecOf(...groups: object[]): object {
  const out: Record<string, unknown> = {};
  for (const g of groups) {
    for (const k of Object.keys(g)) out[k] = (g as Record<string, unknown>)[k];
  }
  return out;
}
