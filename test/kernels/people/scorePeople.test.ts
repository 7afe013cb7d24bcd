import { describe, expect, it } from "vitest";
import { dwellStats } from "../../../src/kernels/visits/dwellStats.ts";
import type { OccupancyInterval, PeopleEstimate } from "../../../src/kernels/people/PeopleEstimate.ts";
import { scorePeople, type PeopleTruth } from "../../../src/kernels/people/scorePeople.ts";

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
  universalInside: 0,
  universalPersons: 0,
  insideBursts: 0,
  outsideBursts: 0,
  features: [],
  calibration: null,
});
const MIN = 60_000;
const estimate = (shopId: number, visitors: number, low: number, high: number, occupancy: OccupancyInterval[], knownDwells: number[] = []): PeopleEstimate =>
  ({ shopId, label: "2026-11-16", start: 0, end: occupancy.length * Q, visitors, visitorsLow: low, visitorsHigh: high, occupancy, dwell: dwellStats(knownDwells) }) as unknown as PeopleEstimate;

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

  it("leaves the dwell unscored without dwell truth", () => {
    const s = scorePeople([estimate(1, 110, 95, 125, [], [20 * MIN])], truth);
    expect(s.days[0]!.trueMedianDwellMs).toBeNaN();
    expect(s.days[0]!.medianDwellErrorMs).toBeNaN();
    expect(s.meanAbsMedianDwellErrorMs).toBeNaN();
  });

  it("scores the estimate's median dwell (the identity-known visits') against the true median of the visits", () => {
    // Shop 1's visits last 10, 20, 30 and 40 min (true median 25 min); shop 2's 6 and 8 min (7).
    const withDwells: PeopleTruth = { ...truth, dwells: (shopId) => (shopId === 1 ? [40 * MIN, 10 * MIN, 30 * MIN, 20 * MIN] : [6 * MIN, 8 * MIN]) };
    const s = scorePeople(
      [
        estimate(1, 110, 95, 125, [], [15 * MIN, 21 * MIN, 40 * MIN]), // median 21 min: 4 min short
        estimate(2, 40, 35, 45, [], [9 * MIN]), // 2 min long
        estimate(3, 5, 4, 6, [], []), // no identity-known visit: no estimated dwell
        estimate(4, Number.NaN, Number.NaN, Number.NaN, [], [12 * MIN]), // no estimate: the summary's dwell is MAC-level, not scored here
      ],
      withDwells,
    );
    expect(s.days.map((d) => d.trueMedianDwellMs)).toEqual([25 * MIN, 7 * MIN, 7 * MIN, 7 * MIN]);
    expect(s.days[0]!.medianDwellErrorMs).toBe(-4 * MIN);
    expect(s.days[1]!.medianDwellErrorMs).toBe(2 * MIN);
    expect(s.days[2]!.medianDwellErrorMs).toBeNaN();
    expect(s.days[3]!.medianDwellErrorMs).toBeNaN();
    // Mean |error| over the two shop-days that have one.
    expect(s.meanAbsMedianDwellErrorMs).toBe(3 * MIN);
  });

  it("asks the truth for the dwells of each estimate's own shop and day", () => {
    const asked: [number, number, number][] = [];
    scorePeople([estimate(7, 10, 9, 11, [interval(7, 0, 1, 0, 2)], [MIN])], { ...truth, dwells: (shopId, start, end) => (asked.push([shopId, start, end]), []) });
    expect(asked).toEqual([[7, 0, Q]]);
  });

  it("rejects what it cannot score", () => {
    expect(() => scorePeople({} as never, truth)).toThrow(TypeError);
    expect(() => scorePeople([], {} as never)).toThrow(TypeError);
    expect(() => scorePeople([], { ...truth, dwells: 5 } as never)).toThrow(TypeError);
  });
});
