/**
 * The committed WebAssembly module must be the one its text compiles to: a change to
 * `signalRecordWat.ts` without `npm run build:wasm` would otherwise go unseen by every other test.
 */
import { describe, expect, it } from "vitest";
import { SIGNAL_RECORD_WASM } from "../../src/codec/signalRecordWasm.ts";
import { SIGNAL_RECORD_WAT } from "../../src/codec/signalRecordWat.ts";
import { compileSignalRecordWat } from "./buildSignalRecordWasm.ts";

describe("signalRecordWasm", () => {
  it("is what signalRecordWat compiles to (else run npm run build:wasm)", async () => {
    const bytes = await compileSignalRecordWat(SIGNAL_RECORD_WAT);
    expect(Buffer.from(SIGNAL_RECORD_WASM, "base64").equals(Buffer.from(bytes))).toBe(true);
  });
});
