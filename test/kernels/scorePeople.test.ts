import { describe, expect, it } from "vitest";
import type { OccupancyInterval, PeopleEstimate } from "../../src/kernels/PeopleEstimator.ts";
import { scorePeople, type PeopleTruth } from "../../src/kernels/scorePeople.ts";

const Q = 900_000;
const interval = (shopId: number, i: number, inside: number, low: number, high: number): OccupancyInterval => ({
  shopId,
  start: i * Q,
  end: (i + 1) * Q,
  inside,
  insideLow: low,
  insideHigh: high,
  outside: 0,
  knownInside: 0,
  insideBursts: 0,
  outsideBursts: 0,
});
const estimate = (shopId: number, visitors: number, low: number, high: number, occupancy: OccupancyInterval[]): PeopleEstimate =>
  ({ shopId, label: "2026-11-16", start: 0, end: occupancy.length * Q, visitors, visitorsLow: low, visitorsHigh: high, occupancy }) as unknown as PeopleEstimate;

describe("scorePeople", () => {
  // Shop 1: 100 people, 2 then 4 inside; shop 2: 50 people, nobody inside.
  const truth: PeopleTruth = {
    visitors: (shopId) => (shopId === 1 ? 100 : 50),
    inside: (shopId, start) => (shopId === 1 ? (start === 0 ? 2 : 4) : 0),
  };

  it("scores each shop-day's visitors and interval, and the occupancy per interval", () => {
    const s = scorePeople(
      [
        estimate(1, 110, 95, 125, [interval(1, 0, 3, 1, 5), interval(1, 1, 3, 2.5, 3.5)]),
        estimate(2, 40, 35, 45, [interval(2, 0, 1, 0, 2)]),
      ],
      truth,
    );
    expect(s.days.map((d) => [d.truth, d.error, d.covered, d.trueInside, d.intervalsCovered])).toEqual([
      [100, 0.1, true, [2, 4], 1],
      [50, -0.2, false, [0], 1],
    ]);
    expect(s.days.map((d) => d.occupancyMae)).toEqual([2 / 6, Number.NaN]);
    expect(s.truth).toBe(150);
    expect(s.visitors).toBe(150);
    expect(s.totalError).toBe(0);
    expect(s.meanAbsError).toBeCloseTo(0.15, 12);
    expect(s.covered).toBe(1);
    // |3 − 2| + |3 − 4| + |1 − 0| over 2 + 4 + 0 people inside.
    expect(s.occupancyMae).toBeCloseTo(3 / 6, 12);
    expect(s.intervals).toBe(3);
    expect(s.intervalsCovered).toBe(2);
  });

  it("leaves a day without an estimate out of the errors and counts it as not covered", () => {
    const s = scorePeople([estimate(1, Number.NaN, Number.NaN, Number.NaN, []), estimate(2, 50, 45, 55, [])], truth);
    expect(s.days[0]!.error).toBeNaN();
    expect(s.days[0]!.covered).toBe(false);
    expect(s.truth).toBe(150);
    expect(s.totalError).toBe(0);
    expect(s.meanAbsError).toBe(0);
    expect(s.covered).toBe(1);
    expect(s.occupancyMae).toBeNaN();
  });

  it("rejects what it cannot score", () => {
    expect(() => scorePeople({} as never, truth)).toThrow(TypeError);
    expect(() => scorePeople([], {} as never)).toThrow(TypeError);
  });
});
