import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conversionRate } from "../../../src/kernels/visits/conversionRate.ts";

describe("conversionRate", () => {
  it("is receipts per visitor", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 100_000 }), fc.integer({ min: 1, max: 100_000 }), (receipts, visitors) => {
        expect(conversionRate(receipts, visitors)! * visitors).toBeCloseTo(receipts, 6);
      }),
    );
  });

  it("is not available (undefined) without visitors, never 0 or NaN", () => {
    expect(conversionRate(12, 0)).toBeUndefined();
    expect(conversionRate(0, 0)).toBeUndefined();
  });

  it("is not available when the visitors are unknown (NaN: a people estimate that could not be made)", () => {
    expect(conversionRate(12, Number.NaN)).toBeUndefined();
  });

  it("accepts estimated (fractional) visitors", () => {
    expect(conversionRate(1, 2.5)).toBe(0.4);
  });

  it("rejects counts that cannot be a rate's inputs", () => {
    expect(() => conversionRate(Number.NaN, 10)).toThrow(RangeError);
    expect(() => conversionRate(1, -1)).toThrow(RangeError);
    expect(() => conversionRate(1, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
