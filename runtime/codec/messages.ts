/**
 * What a value was expected to be, in INVALID_VALUE messages of the binary path (`expected <this>, got ...`): one
 * place for each message, imported by the formats table (./formats.ts `expected`) and the per-kind guards
 * (./kinds). A module of constants only, so a bundle that keeps a guard keeps no format it does not use.
 */
export const EXPECTED_STRING = "a string";
export const EXPECTED_WELL_FORMED = "a string without lone surrogates";
export const EXPECTED_UUID = "a UUID";
export const EXPECTED_INTEGER = "an integer";
export const EXPECTED_INT64 = "a 64-bit integer (number or bigint)";
export const EXPECTED_NUMBER = "a finite number";
