import { describe, expect, it } from "vitest";
import { millisToRts, rtsToMillis, stepRts, isRts } from "../../src/codec/rts.ts";
import { isDecodeError } from "../../src/errors/DecodeError.ts";

describe("rts", () => {
  it("round-trips epoch milliseconds", () => {
    const ms = Date.UTC(2026, 10, 20, 9, 30);
    expect(isRts(millisToRts(ms))).toBe(true);
    expect(rtsToMillis(millisToRts(ms))).toBe(ms);
  });
  it("steps exactly beyond 2^53", () => {
    expect(stepRts("ffffffffffffffff", -1)).toBe("fffffffffffffffe");
    expect(stepRts("0000000000000000", -1)).toBe("0000000000000000");
  });
  it("rejects malformed RTS with a DecodeError", () => {
    let caught: unknown;
    try { rtsToMillis("XYZ"); } catch (e) { caught = e; }
    expect(isDecodeError(caught)).toBe(true);
  });
});
