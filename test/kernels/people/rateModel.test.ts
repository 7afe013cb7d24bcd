import { describe, expect, it } from "vitest";
import { rateModels, sampleSums } from "../../../src/kernels/people/rateModel.ts";
import { createRng, hashSeed } from "../../../src/sim/random/prng.ts";

const MIN = 60_000;
type Visit = { bursts: number; span: number; estimated: number };

// A day's identity-known visits: dwell log-normal around `medianMin`, bursts at ~2.5 a minute.
function day(seed: number, n: number, medianMin = 14): Visit[] {
  const rng = createRng(hashSeed("rateModel", seed));
  return Array.from({ length: n }, () => {
    const span = Math.round(rng.logNormal(medianMin * MIN, 0.8));
    const bursts = Math.max(1, Math.round((span / MIN) * 2.5 * rng.logNormal(1, 0.3)));
    return { bursts, span, estimated: span + span / bursts };
  });
}

const mean = (x: readonly number[]): number => x.reduce((a, b) => a + b, 0) / x.length;

describe("rateModels", () => {
  it("of one day is its own sample: ratio rate, its residual spread, the mean dwell and their variances", () => {
    const visits = [...day(1, 30), { bursts: 0, span: 0, estimated: 90_000 }];
    const [m] = rateModels([sampleSums(visits)]);
    const rated = visits.filter((v) => v.bursts >= 1 && v.span > 0);
    const rate = rated.reduce((a, v) => a + v.bursts, 0) / rated.reduce((a, v) => a + v.span, 0);
    const tBar = mean(rated.map((v) => v.span));
    const s2 = rated.reduce((a, v) => a + (v.bursts - rate * v.span) ** 2, 0) / (rated.length - 1);
    const phi = s2 / (rate * rate * tBar * tBar);
    const dwells = visits.map((v) => v.estimated);
    const w = mean(dwells);
    const varW = dwells.reduce((a, d) => a + (d - w) ** 2, 0) / (dwells.length - 1) / dwells.length;
    expect(m!.rate).toBeCloseTo(rate, 15);
    expect(m!.phi).toBeCloseTo(phi, 10);
    expect(m!.m).toBeCloseTo(rated.length, 9);
    expect(m!.rateRelVar).toBeCloseTo(phi / rated.length, 10);
    expect(m!.meanDwell).toBeCloseTo(w, 6);
    expect(m!.n).toBeCloseTo(visits.length, 9);
    expect(m!.dwellRelVar).toBeCloseTo(varW / (w * w), 10);
  });

  it("keeps a day too small for a spread as it is, without variances", () => {
    const [one] = rateModels([sampleSums(day(2, 1))]);
    expect(one!.rate).toBeGreaterThan(0);
    expect(one!.phi).toBeNaN();
    expect(one!.dwellRelVar).toBeNaN();
    const [none] = rateModels([sampleSums([])]);
    expect(none!.rate).toBeNaN();
    expect(none!.meanDwell).toBeNaN();
  });

  it("pools days of one population: each day's figures move toward the days' and their variances shrink", () => {
    const days = [1, 2, 3, 4, 5, 6, 7].map((s) => sampleSums(day(10 + s, 25)));
    const alone = days.map((d) => rateModels([d])[0]!);
    const pooled = rateModels(days);
    const allVisits = [1, 2, 3, 4, 5, 6, 7].flatMap((s) => day(10 + s, 25));
    const overall = mean(allVisits.map((v) => v.estimated));
    // A day's own variance comes from its own spread, which a day without a long stay
    // understates; pooled, the spread is the days' together, so compare on average.
    expect(mean(pooled.map((p) => p.dwellRelVar))).toBeLessThan(mean(alone.map((a) => a.dwellRelVar)));
    expect(mean(pooled.map((p) => p.rateRelVar))).toBeLessThan(mean(alone.map((a) => a.rateRelVar)));
    pooled.forEach((p, i) => {
      expect(p.n).toBeGreaterThan(alone[i]!.n);
      expect(p.m).toBeGreaterThan(alone[i]!.m);
      expect(Math.abs(p.meanDwell - overall)).toBeLessThanOrEqual(Math.abs(alone[i]!.meanDwell - overall) + 1e-6);
    });
  });

  it("keeps most of a day's own dwell when days truly differ (a day twice as long)", () => {
    const days = [1, 2, 3, 4, 5, 6].map((s) => sampleSums(day(20 + s, 40)));
    days.push(sampleSums(day(27, 40, 28)));
    const pooled = rateModels(days);
    const own = rateModels([days[6]!])[0]!.meanDwell;
    const others = mean(pooled.slice(0, 6).map((p) => p.meanDwell));
    expect(pooled[6]!.meanDwell).toBeGreaterThan(others + 0.6 * (own - others));
  });

  it("does not depend on the order of the days", () => {
    const days = [1, 2, 3, 4].map((s) => sampleSums(day(30 + s, 10 + 5 * s)));
    const a = rateModels(days);
    const b = rateModels([days[2]!, days[0]!, days[3]!, days[1]!]);
    [2, 0, 3, 1].forEach((i, j) => {
      expect(b[j]!.rate).toBeCloseTo(a[i]!.rate, 15);
      expect(b[j]!.meanDwell).toBeCloseTo(a[i]!.meanDwell, 6);
      expect(b[j]!.dwellRelVar).toBeCloseTo(a[i]!.dwellRelVar, 12);
    });
  });
});
