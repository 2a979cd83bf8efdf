/** The per-kind guards of the binary path, shared by generated code (via runtime/codegen.ts) and the engine. */
export { fail, missingAt } from "./fail.ts";
export { wString, wPlainString, wDateTime, wDate, wDecimalString, wUuid, wStringT, wPlainStringT, wDateTimeT, wDateT, wDecimalStringT, wUuidT, wKey } from "./string.ts";
export { wInt, wInt64, wIntT, wInt64T } from "./integer.ts";
export { wNumber, wNumberT } from "./number.ts";
export { wBool } from "./boolean.ts";
export { wNull } from "./null.ts";
export { wConst, wJsonConst } from "./const.ts";
export { wEnum, enumFail, wEnumMap, wJsonEnum, enumIndex, enumExpected, ENUM_SCAN_MAX } from "./enum.ts";
export { gObject, gArray, rKey } from "./composite.ts";
export { SCALAR_GUARDS, TABLED_GUARDS, scalarForm, scalarGuardName } from "./scalar.ts";
export type { ScalarForm } from "./scalar.ts";
