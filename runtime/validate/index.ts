/**
 * toon-gen/runtime/validate: what generated `<name>.validate.ts` modules import (ajv standalone code compiled at
 * build time needs these few helpers, and nothing of ajv at run time), plus the check that turns its findings
 * into `validate()` errors. Zero dependencies, no Node APIs, no `eval`: safe in a browser.
 */
export { ucs2length, equal } from "./helpers.ts";
export { formats, setFormatChecks, FORMAT_EXPECTED } from "./formats.ts";
export type { FormatCheck, FormatName } from "./formats.ts";
export { checkSchema } from "./check.ts";
export type { SchemaValidator, SchemaCheckOptions } from "./check.ts";
export { messageOf } from "./messages.ts";
export type { SchemaError } from "./messages.ts";
export type { ValidationIssue } from "../features/validate.ts";
