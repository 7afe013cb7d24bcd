import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compactNumber } from "../../../src/kernels/sessions/compactNumber.ts";

describe("compactNumber", () => {
  it("returns the same number for every double", () => {
    fc.assert(
      fc.property(fc.double(), (x) => {
        expect(Object.is(compactNumber(x), x)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps the edges: -0, NaN, infinities, int32 bounds and timestamps", () => {
    for (const x of [0, -0, Number.NaN, Infinity, -Infinity, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 1.7e12, 0.5, -62.5, 41_120]) {
      expect(Object.is(compactNumber(x), x)).toBe(true);
    }
  });

  it("keeps what arithmetic on timestamps gives", () => {
    const start = 1_794_799_772_155;
    expect(compactNumber(start + 41_120 - start)).toBe(41_120);
    expect(compactNumber(start - start)).toBe(0);
    expect(Object.is(compactNumber(start - start), 0)).toBe(true);
  });
});
