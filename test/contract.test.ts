// The runtime's layers: the versioned generated-code surface (toon-gen/runtime/codegen) and its contract check,
// the user API (toon-gen/runtime) kept apart from it, and every subpath of package.json pointing at a real file.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { REPO } from "./support/gen.ts";
import { RUNTIME_CONTRACT_VERSION } from "../generator/version.ts";

test("contract: generator and runtime agree on the contract number", async () => {
  const rt = await import("toon-gen/runtime/codegen");
  assert.equal(rt.RUNTIME_CONTRACT, RUNTIME_CONTRACT_VERSION);
});

test("contract: a module of another contract fails at first use with CONFIG_ERROR naming the file", async () => {
  const rt = await import("toon-gen/runtime/codegen");
  assert.throws(
    () => rt.requireContract(RUNTIME_CONTRACT_VERSION + 1, "gen/order.ts", 0x1234, "Order"),
    (e: unknown) => e instanceof rt.ToonError && e.code === "CONFIG_ERROR" && /gen\/order\.ts was generated for runtime contract/.test(e.message),
  );
});

test("contract: the check hands back the fingerprint and registers the dictionary name for mismatch messages", async () => {
  const rt = await import("toon-gen/runtime/codegen");
  assert.equal(rt.requireContract(RUNTIME_CONTRACT_VERSION, "gen/x.ts", 0xbeef, "ContractProbe"), 0xbeef);
  const w = new rt.Writer();
  rt.writeHeader(w, rt.Flag.FIXED_DICTIONARY, 0xbeef, 0);
  const bytes = w.finish();
  assert.throws(
    () => rt.readHeader(new rt.Reader(bytes), 0x0001, "Other"),
    (e: unknown) => e instanceof rt.ToonError && e.code === "FINGERPRINT_MISMATCH" && e.message.includes("ContractProbe"),
  );
});

test("contract: codecOf merges feature groups into one object, members unchanged", async () => {
  const rt = await import("toon-gen/runtime/codegen");
  const encode = (): number => 1;
  const toText = (): string => "t";
  const c = rt.codecOf({ name: "X", encode }, { name: "X", toText }, { stream: 3 });
  assert.deepEqual(Object.keys(c), ["name", "encode", "toText", "stream"]);
  assert.equal(c.encode, encode);
  assert.equal(c.toText, toText);
});

test("contract: the user API does not expose generated-code internals", async () => {
  const user = (await import("toon-gen/runtime")) as Record<string, unknown>;
  for (const internal of ["Writer", "Reader", "requireContract", "invalid", "rethrowAt", "keyCount", "writeTabledString", "textField", "tcString"]) {
    assert.ok(!(internal in user), `toon-gen/runtime exports ${internal}`);
  }
  for (const api of ["ToonError", "encodeText", "decodeText", "encodeSchemaless", "decodeSchemaless", "setCompressor", "peekHeader", "StreamDecoder", "SseFrameReader"]) {
    assert.ok(api in user, `toon-gen/runtime lacks ${api}`);
  }
});

test("contract: every package.json export resolves to a source file and a dist path of the same name", () => {
  const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { exports: Record<string, string | Record<string, string>> };
  for (const [sub, target] of Object.entries(pkg.exports)) {
    if (typeof target === "string") continue;
    const dev = target["toon-dev"]!;
    assert.ok(existsSync(path.join(REPO, dev)), `${sub}: ${dev} does not exist`);
    assert.equal(target.default, "./dist/" + dev.slice(2).replace(/\.ts$/, ".js"), `${sub}: default is not the build of ${dev}`);
    assert.equal(target.types, "./dist/" + dev.slice(2).replace(/\.ts$/, ".d.ts"), `${sub}: types is not the build of ${dev}`);
  }
  assert.ok("./runtime/codegen" in pkg.exports);
});
