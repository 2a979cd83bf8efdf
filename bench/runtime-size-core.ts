/** The binary core of the runtime (what a codec that uses no text, stream or schemaless features needs). */
export { Writer } from "../runtime/wire/writer.ts";
export { Reader } from "../runtime/wire/reader.ts";
export { writeHeader, readHeader } from "../runtime/wire/header.ts";
export { writeAny, readAny } from "../runtime/wire/any.ts";
export { ToonError } from "../runtime/wire/errors.ts";
