/**
 * internMac gives one string per MAC, its normal form, made from the MAC's 48-bit value: the same
 * string object every time, and right however many MACs pass through its bounded table.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { internMac } from "../../src/codec/internMac.ts";
import { toNormalMac } from "../../src/codec/mac.ts";

const hex12 = (high: number, low: number): string => high.toString(16).padStart(6, "0") + low.toString(16).padStart(6, "0");

describe("internMac", () => {
  it("gives the normal form of any 48-bit value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), fc.integer({ min: 0, max: 0xffffff }), (high, low) => {
        expect(internMac(high, low)).toBe(toNormalMac(hex12(high, low)));
      }),
      { numRuns: 5000 },
    );
  });

  it("stays bounded and right when ever-new MACs fill its table", () => {
    // More MACs than the table holds (it empties itself at 131 072): every one still right, and a
    // MAC seen before the table emptied is right after.
    const seen = new Map<string, [number, number]>();
    let wrong = 0;
    for (let i = 0; i < 300_000; i++) {
      const value = 0x020000000000 + i * 7919;
      const high = Math.floor(value / 0x1000000);
      const low = value % 0x1000000;
      if (internMac(high, low) !== toNormalMac(hex12(high, low))) wrong++;
      if (i % 1000 === 0) seen.set(hex12(high, low), [high, low]);
    }
    expect(wrong).toBe(0);
    for (const [text, [high, low]] of seen) expect(internMac(high, low)).toBe(toNormalMac(text));
  });
});
