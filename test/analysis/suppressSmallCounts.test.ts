import { describe, expect, it } from "vitest";
import { suppressSmallCounts } from "../../src/analysis/suppressSmallCounts.ts";

const summary = {
  type: "summary",
  shopId: 101,
  date: "2026-11-16",
  visitors: 3,
  visits: 12,
  passersBy: 40,
  uniqueDevices: 43,
  captureRate: 3 / 43,
  newVisitors: 0,
  repeatVisitors: 3,
  staff: 1,
  stationary: 0,
  dwell: { count: 12, meanMs: 600_000, medianMs: 500_000, p90Ms: 900_000, buckets: { lt5m: 2, m5to20: 10, m20to60: 0, h1to6: 0, ge6h: 0 } },
  universal: { visitors: 1, visits: 5, passersBy: 10, uniqueDevices: 11, captureRate: 1 / 11 },
  randomized: { visitors: 2, visits: 7, passersBy: 30, uniqueDevices: 32, captureRate: 2 / 32 },
  visitorRssi: -65,
};

describe("suppressSmallCounts", () => {
  it("writes counts from 1 to K-1 as null with suppressed: true, keeps zeros and larger counts", () => {
    const s = suppressSmallCounts(summary, 5) as typeof summary & { suppressed?: boolean };
    expect(s.suppressed).toBe(true);
    expect([s.visitors, s.visits, s.passersBy, s.uniqueDevices]).toEqual([null, 12, 40, 43]);
    expect([s.newVisitors, s.repeatVisitors, s.staff, s.stationary]).toEqual([0, null, null, 0]);
    // A rate computed from a suppressed count goes with it.
    expect(s.captureRate).toBeNull();
    expect(s.dwell.buckets).toEqual({ lt5m: null, m5to20: 10, m20to60: 0, h1to6: 0, ge6h: 0 });
    expect(s.dwell.meanMs).toBe(600_000);
    expect(s.universal).toEqual({ visitors: null, visits: 5, passersBy: 10, uniqueDevices: 11, captureRate: null });
    // The input is not changed.
    expect(summary.visitors).toBe(3);
  });

  it("withholds a summary's people sample (per-visit sums, for pooling days) whole, and only when suppressing", () => {
    const line = { ...summary, peopleSample: { start: 0, end: 86_400_000, knownVisitors: 3, restBursts: 40, passersBy: 40, universal: { visits: 1, dwellSum: 600_000 }, shoppers: { visits: 3 } } };
    expect(suppressSmallCounts(line, 5)["peopleSample"]).toBeNull();
    expect(suppressSmallCounts(line, 1)["peopleSample"]).toEqual(line.peopleSample);
  });

  it("suppresses dwell statistics with a small dwell count, and interval counts of occupancy lines", () => {
    const s = suppressSmallCounts({ ...summary, dwell: { ...summary.dwell, count: 2 } }, 5) as typeof summary;
    expect(s.dwell).toMatchObject({ count: null, meanMs: null, medianMs: null, p90Ms: null });
    const o = suppressSmallCounts({ type: "occupancy", shopId: 101, start: 0, end: 900_000, inside: 2, insideLow: 1, insideHigh: 6, outside: 0 }, 5);
    expect(o).toEqual({ type: "occupancy", shopId: 101, start: 0, end: 900_000, inside: null, insideLow: null, insideHigh: 6, outside: 0, suppressed: true });
  });

  it("is off at K ≤ 1, leaves session lines and lines without small counts alone, and rejects a bad K", () => {
    expect(suppressSmallCounts(summary, 0)).toBe(summary);
    expect(suppressSmallCounts(summary, 1)).toBe(summary);
    const session = { type: "session", device: "x", signals: 1 };
    expect(suppressSmallCounts(session, 5)).toBe(session);
    expect(suppressSmallCounts({ type: "summary", visitors: 10, visits: 0 }, 5)).toEqual({ type: "summary", visitors: 10, visits: 0 });
    expect(() => suppressSmallCounts(summary, -1)).toThrow(RangeError);
    expect(() => suppressSmallCounts(summary, 1.5)).toThrow(RangeError);
  });
});
