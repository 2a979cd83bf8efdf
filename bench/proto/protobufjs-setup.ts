/**
 * Make protobufjs read 64-bit integers as JS numbers. `--force-number` only changes the generated types: with the
 * `long` package installed (a dependency of protobufjs), Reader.int64() still returns Long objects. Clearing
 * util.Long and re-running configure() swaps the readers to LongBits.toNumber. Import this module before any
 * generated static module: those read util.Long once, when they load (prototype defaults).
 */
import $protobuf from "protobufjs/minimal.js";

($protobuf.util as { Long: unknown }).Long = null;
$protobuf.configure();
