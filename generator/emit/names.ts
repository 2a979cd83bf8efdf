/** Names of generated functions, after their type (ts-proto / avsc style): `writeOrder`, `readOrder`, `$isOrder`. */
import { type Code, name } from "../../templates/code.ts";

export function writerName(typeName: string): Code {
  return name(`write${typeName}`);
}

export function readerName(typeName: string): Code {
  return name(`read${typeName}`);
}
