import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import { describe, expect, it } from "vitest";
import { studentQuantile } from "../../src/stats/studentQuantile.ts";
import { twoSided } from "../../src/stats/twoSided.ts";

describe("twoSided", () => {
  it("gives the quantiles at (1 + level) ÷ 2 that the interval rules took from the level themselves", () => {
    for (const level of [0.5, 0.8, 0.9, 0.95, 0.99]) {
      const i = twoSided(level);
      // The same expressions the estimate's rules used, so its figures stay the same to the bit.
      expect(i.z).toBe(normalQuantile(0.5 + level / 2, 0, 1));
      expect(i.tail).toBe((1 - level) / 2);
      for (const df of [1, 2.5, 9, 60, 1e6, Number.POSITIVE_INFINITY]) expect(i.t(df)).toBe(studentQuantile(0.5 + level / 2, df));
    }
  });

  it("is symmetric: the tail left out below the quantile is the tail above it", () => {
    const i = twoSided(0.9);
    expect(normalQuantile(i.tail, 0, 1)).toBeCloseTo(-i.z, 12);
    expect(i.t(7)).toBeGreaterThan(i.z);
  });

  it("refuses a level outside (0, 1)", () => {
    for (const bad of [0, 1, -0.1, 1.5, Number.NaN]) expect(() => twoSided(bad)).toThrow(RangeError);
  });
});
