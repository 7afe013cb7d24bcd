import { describe, expect, it } from "vitest";
import { DWELL_BUCKETS, dwellBucket, dwellStats } from "../../../src/kernels/visits/dwellStats.ts";

const MIN = 60_000;

describe("dwellStats", () => {
  it("puts each bound in the bucket it starts", () => {
    expect([0, 5 * MIN - 1, 5 * MIN, 20 * MIN, 60 * MIN, 6 * 60 * MIN].map(dwellBucket)).toEqual([
      "lt5m",
      "lt5m",
      "m5to20",
      "m20to60",
      "h1to6",
      "ge6h",
    ]);
    expect(DWELL_BUCKETS.map((b) => b.key)).toEqual(["lt5m", "m5to20", "m20to60", "h1to6", "ge6h"]);
  });

  it("computes count, mean, median, p90 (linear interpolation) and buckets", () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((m) => m * MIN);
    const s = dwellStats(values);
    expect(s.count).toBe(10);
    expect(s.meanMs).toBe(5.5 * MIN);
    expect(s.medianMs).toBe(5.5 * MIN);
    // rank (n − 1)·0.9 = 8.1 → 9 min + 0.1 · 1 min
    expect(s.p90Ms).toBeCloseTo(9.1 * MIN, 6);
    expect(s.buckets).toEqual({ lt5m: 4, m5to20: 6, m20to60: 0, h1to6: 0, ge6h: 0 });
    expect(values[0]).toBe(MIN); // input untouched
  });

  it("reports NaN statistics for no values", () => {
    const s = dwellStats([]);
    expect(s.count).toBe(0);
    expect(Number.isNaN(s.meanMs) && Number.isNaN(s.medianMs) && Number.isNaN(s.p90Ms)).toBe(true);
  });
});
