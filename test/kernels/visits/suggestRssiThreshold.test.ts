import { describe, expect, it } from "vitest";
import { PeakRssiHistogram, suggestRssiThreshold } from "../../../src/kernels/visits/suggestRssiThreshold.ts";

const MIN = 60_000;

// A deterministic, roughly Gaussian sample (sum of three uniforms) around `mean` with spread `sd`.
function sample(n: number, mean: number, sd: number, seed: number): number[] {
  let x = seed;
  const u = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: n }, () => mean + sd * 2 * (u() + u() + u() - 1.5));
}

describe("suggestRssiThreshold", () => {
  it("puts the threshold in the valley between inside and outside sessions", () => {
    const peaks = [...sample(400, -54, 5, 1), ...sample(1200, -77, 4, 2)];
    const s = suggestRssiThreshold(peaks.map((p) => ({ dwellMs: 5 * MIN, peakSmoothedRssi: p })));
    expect(s.threshold).toBeDefined();
    expect(s.threshold!).toBeGreaterThan(-70);
    expect(s.threshold!).toBeLessThan(-61);
    expect(s.low!.mean).toBeCloseTo(-77, 0);
    expect(s.high!.mean).toBeCloseTo(-54, 0);
    expect(s.separation).toBeGreaterThan(2);
    expect(Math.abs(s.threshold! % 0.5)).toBe(0);
  });

  it("gives no threshold for one population, too few sessions, or only short sessions", () => {
    const one = sample(500, -60, 6, 3).map((p) => ({ dwellMs: 5 * MIN, peakSmoothedRssi: p }));
    expect(suggestRssiThreshold(one).threshold).toBeUndefined();
    const few = [-50, -80, -51, -79].map((p) => ({ dwellMs: 5 * MIN, peakSmoothedRssi: p }));
    expect(suggestRssiThreshold(few).threshold).toBeUndefined();
    const short = [...sample(400, -54, 5, 1), ...sample(400, -77, 4, 2)].map((p) => ({ dwellMs: 10_000, peakSmoothedRssi: p }));
    const s = suggestRssiThreshold(short);
    expect(s.sessions).toBe(0);
    expect(s.threshold).toBeUndefined();
  });

  it("takes no boundary above maxThreshold (the RSSI at a metre from a sensor): two groups of visitors, not inside and outside", () => {
    // Visitors right at a sensor and visitors across the shop, no one outside.
    const peaks = [...sample(300, -33, 3, 6), ...sample(600, -55, 4, 7)].map((p) => ({ dwellMs: 5 * MIN, peakSmoothedRssi: p }));
    const s = suggestRssiThreshold(peaks);
    expect(s.separation).toBeGreaterThan(2);
    expect(s.high!.mean).toBeCloseTo(-33, 0);
    expect(s.threshold).toBeUndefined();
    // The boundary it found, taken when the bound allows it.
    const allowed = suggestRssiThreshold(peaks, { maxThreshold: -30 }).threshold!;
    expect(allowed).toBeGreaterThan(-45);
    expect(allowed).toBeLessThan(-33);
    expect(() => suggestRssiThreshold(peaks, { maxThreshold: 5 })).toThrow(RangeError);
  });

  it("takes no boundary above the sensors' floor: a narrow spike of peaks there under a spread 30 dB wide is one spread, not two groups", () => {
    // Far devices' peaks piled up just above the receivers' sensitivity, and everything else above
    // them (the shape of a real lab's days, docs/analytics.md).
    const floor = [...sample(300, -90.5, 1.5, 8), ...sample(600, -72, 11, 9)].map((p) => ({ dwellMs: 5 * MIN, peakSmoothedRssi: p }));
    const s = suggestRssiThreshold(floor);
    expect(s.separation).toBeGreaterThan(2);
    expect(s.high!.sd).toBeGreaterThan(3 * s.low!.sd);
    expect(s.threshold).toBeUndefined();
    // What it would have taken: a few dB above the floor, calling nearly everyone heard inside.
    const taken = suggestRssiThreshold(floor, { maxSpreadRatio: 20 }).threshold!;
    expect(taken).toBeLessThan(-84);
    // A wide group outside below a compact one inside is two groups, whichever is wider.
    const street = [...sample(300, -54, 4.5, 10), ...sample(600, -81, 8.5, 11)].map((p) => ({ dwellMs: 5 * MIN, peakSmoothedRssi: p }));
    const t = suggestRssiThreshold(street);
    expect(t.low!.sd).toBeGreaterThan(t.high!.sd);
    expect(t.threshold).toBeGreaterThan(-72);
    expect(t.threshold).toBeLessThan(-58);
    expect(() => suggestRssiThreshold(floor, { maxSpreadRatio: 0.5 })).toThrow(RangeError);
  });

  it("is the same online (PeakRssiHistogram) as over an array", () => {
    const sessions = [...sample(300, -52, 5, 4), ...sample(300, -80, 5, 5)].map((p) => ({ dwellMs: 2 * MIN, peakSmoothedRssi: p }));
    const h = new PeakRssiHistogram();
    for (const s of sessions) h.add(s);
    expect(h.size).toBe(600);
    expect(h.suggest()).toEqual(suggestRssiThreshold(sessions));
  });
});
