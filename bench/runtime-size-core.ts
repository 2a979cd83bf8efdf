/** The binary core of the runtime (what a codec that uses no text, stream or schemaless features needs). */
export { Writer } from "../runtime/writer.ts";
export { Reader } from "../runtime/reader.ts";
export { writeHeader, readHeader } from "../runtime/header.ts";
export { writeAny, readAny } from "../runtime/any.ts";
export { ToonError } from "../runtime/errors.ts";
