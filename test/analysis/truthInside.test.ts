import { describe, expect, it } from "vitest";
import type { TruthSegment } from "../../src/truth/CountedTruth.ts";
import { truthInside } from "../../src/analysis/truthInside.ts";

const MIN = 60_000;
const seg = (shopId: number, startMin: number, endMin: number, people: number): TruthSegment => ({ shopId, start: startMin * MIN, end: endMin * MIN, people, line: 2, source: "t.csv" });

describe("truthInside", () => {
  // shop 61: 10 people 0–10 min, unknown 10–20, 4 people 20–30, 0 people 30–40; shop 7 elsewhere
  const segments = [seg(61, 20, 30, 4), seg(7, 0, 60, 99), seg(61, 0, 10, 10), seg(61, 30, 40, 0)];

  it("is the time-weighted mean over the covered part, and says how much is covered", () => {
    expect(truthInside(segments, 61, 0, 40 * MIN)).toEqual({ people: (10 * 10 + 4 * 10 + 0 * 10) / 30, coveredMs: 30 * MIN });
    // partial coverage at both ends: 5 min of 10 people, the 10-min gap, 5 min of 4 people
    expect(truthInside(segments, 61, 5 * MIN, 25 * MIN)).toEqual({ people: 7, coveredMs: 10 * MIN });
    // inside one segment
    expect(truthInside(segments, 61, 21 * MIN, 22 * MIN)).toEqual({ people: 4, coveredMs: MIN });
  });

  it("zero people counted is a count; no coverage is not", () => {
    expect(truthInside(segments, 61, 30 * MIN, 45 * MIN)).toEqual({ people: 0, coveredMs: 10 * MIN });
    expect(truthInside(segments, 61, 10 * MIN, 20 * MIN)).toEqual({ people: Number.NaN, coveredMs: 0 });
    expect(truthInside(segments, 61, 40 * MIN, 50 * MIN).coveredMs).toBe(0);
    expect(truthInside(segments, 8, 0, 50 * MIN)).toEqual({ people: Number.NaN, coveredMs: 0 });
    expect(truthInside([], 61, 0, 1).coveredMs).toBe(0);
  });

  it("only the shop asked about counts, and end is exclusive", () => {
    expect(truthInside(segments, 7, 59 * MIN, 61 * MIN)).toEqual({ people: 99, coveredMs: MIN });
    expect(truthInside(segments, 61, 10 * MIN, 10 * MIN + 1).coveredMs).toBe(0);
    expect(truthInside(segments, 61, 10 * MIN - 1, 10 * MIN)).toEqual({ people: 10, coveredMs: 1 });
  });

  it("fractional counts (means) weigh by time too", () => {
    expect(truthInside([seg(1, 0, 1, 2.5), seg(1, 1, 4, 0.5)], 1, 0, 4 * MIN).people).toBeCloseTo(1, 12);
  });

  it("rejects an empty, reversed or infinite interval", () => {
    expect(() => truthInside(segments, 61, 5, 5)).toThrow(RangeError);
    expect(() => truthInside(segments, 61, 6, 5)).toThrow(RangeError);
    expect(() => truthInside(segments, 61, 0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => truthInside(segments, 61, Number.NaN, 5)).toThrow(RangeError);
  });
});
