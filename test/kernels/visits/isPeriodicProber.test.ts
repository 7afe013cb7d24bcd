import { describe, expect, it } from "vitest";
import { isPeriodicProber, PERIODIC_MIN_MS, PERIODIC_MIN_PROBES, PERIODIC_SHARE, repeatsOnTimer } from "../../../src/kernels/visits/isPeriodicProber.ts";

describe("repeatsOnTimer", () => {
  it("needs the fewest probes and the share of repeating gaps, both inclusive", () => {
    expect(repeatsOnTimer(12, 7, 12)).toBe(true); // 7 ≥ 0.7 × 10
    expect(repeatsOnTimer(12, 6, 12)).toBe(false);
    expect(repeatsOnTimer(11, 9, 12)).toBe(false);
    expect(repeatsOnTimer(12, 9, 12, 0.9)).toBe(true);
    expect(repeatsOnTimer(12, 8, 12, 0.9)).toBe(false);
  });
});

describe("isPeriodicProber", () => {
  it("is a timer test over an hour at least", () => {
    const gaps = Math.ceil(PERIODIC_SHARE * (PERIODIC_MIN_PROBES - 2));
    expect(isPeriodicProber({ probeCount: PERIODIC_MIN_PROBES, periodicGaps: gaps, dwellMs: PERIODIC_MIN_MS })).toBe(true);
    expect(isPeriodicProber({ probeCount: PERIODIC_MIN_PROBES, periodicGaps: gaps, dwellMs: PERIODIC_MIN_MS - 1 })).toBe(false);
    expect(isPeriodicProber({ probeCount: PERIODIC_MIN_PROBES, periodicGaps: gaps - 1, dwellMs: PERIODIC_MIN_MS })).toBe(false);
  });
});
