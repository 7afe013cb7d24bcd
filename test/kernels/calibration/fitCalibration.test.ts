import { createRng } from "../../../src/sim/random/prng.ts";
import { describe, expect, it } from "vitest";
import { realPhonesPrior } from "../../../src/kernels/calibration/burstYardstick.ts";
import { checkCalibration } from "../../../src/kernels/calibration/Calibration.ts";
import { CALIBRATION_FEATURES } from "../../../src/kernels/calibration/calibrationFeatures.ts";
import { fitCalibration, MIN_MODEL_DAYS, MIN_TRUSTED_DAILY, MIN_TRUSTED_INTERVALS, type CalibrationObservation, type DayObservation, type IntervalObservation } from "../../../src/kernels/calibration/fitCalibration.ts";

const settings = Object.freeze({ intervalMs: 900_000, timeZone: "Europe/Prague" });
const options = Object.freeze({ prior: realPhonesPrior, settings });
const DAY = 86_400_000;
const QUARTER = 900_000;
const T0 = Date.parse("2024-03-04T08:00:00.000Z");

// The simulator's seeded generator, so every repetition is reproducible.
function seeded(seed: number): () => number {
  const rng = createRng(seed);
  return () => rng.next();
}

function normal(rand: () => number): number {
  const u = 1 - rand(); // (0, 1]
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

// Poisson by Knuth's product in pieces of mean ≤ 30 (a sum of Poissons is Poisson).
function poisson(rand: () => number, mean: number): number {
  let k = 0;
  let left = mean;
  while (left > 0) {
    const piece = Math.min(left, 30);
    left -= piece;
    const limit = Math.exp(-piece);
    let p = rand();
    while (p > limit) {
      k++;
      p *= rand();
    }
  }
  return k;
}

/** Features with the interval's bursts as its strongest band's randomized MACs, nothing else heard. */
function features(bursts: number): number[] {
  const f = new Array<number>(CALIBRATION_FEATURES.length).fill(0);
  f[0] = bursts;
  return f;
}

/**
 * Counted intervals from the model: `persons` (5–20) inside each 15-min interval, each with a
 * burst rate drawn log-normal with the prior's CV around a mean of `rho`, bursts Poisson over the
 * interval, nobody identity-known.
 */
function simulate(seed: number, rho: number, days: number, intervalsPerDay: number, shopId = 61): IntervalObservation[] {
  const rand = seeded(seed);
  const cv = realPhonesPrior.personCv;
  const s2 = Math.log(1 + cv * cv);
  const mu = Math.log(rho) - s2 / 2;
  const out: IntervalObservation[] = [];
  for (let d = 0; d < days; d++) {
    const dayStart = T0 + d * DAY;
    const label = new Date(dayStart).toISOString().slice(0, 10);
    for (let i = 0; i < intervalsPerDay; i++) {
      const persons = 5 + Math.floor(rand() * 16);
      let rates = 0;
      for (let p = 0; p < persons; p++) rates += Math.exp(mu + Math.sqrt(s2) * normal(rand));
      const start = dayStart + i * QUARTER;
      const insideBursts = poisson(rand, rates * 15);
      out.push({ kind: "interval", shopId, day: label, start, end: start + QUARTER, people: persons, knownInside: 0, insideBursts, features: features(insideBursts) });
    }
  }
  return out;
}

// Daily entrance counts whose bursts are exactly visitors × stay × rho.
function dailyCounts(rho: number, days: number, shopId = 61): DayObservation[] {
  const out: DayObservation[] = [];
  for (let d = 0; d < days; d++) {
    const start = T0 + d * DAY;
    const visitors = 150 + 20 * d;
    const knownVisitors = 10;
    const meanDwellMs = 20 * 60_000;
    out.push({
      kind: "day",
      shopId,
      day: new Date(start).toISOString().slice(0, 10),
      start,
      end: start + DAY,
      visitors,
      knownVisitors,
      restBursts: (visitors - knownVisitors) * 20 * rho,
      meanDwellMs,
      dwellRelVar: 0.01,
    });
  }
  return out;
}

describe("fitCalibration", () => {
  it("recovers a known yardstick: the counted ρ lies within its ~95 % interval of the truth in most repetitions", () => {
    const rho = 0.9;
    let covered = 0;
    const runs = 40;
    const logErrors: number[] = [];
    for (let seed = 1; seed <= runs; seed++) {
      const observations = simulate(seed, rho, 5, 16);
      const fits = fitCalibration(observations, options);
      expect(fits).toHaveLength(1);
      const c = fits[0]!;
      expect(c.counts).toMatchObject({ intervals: 80, dailyCounts: 0, days: 5 });
      expect(c.counts.personHours).toBeCloseTo(observations.reduce((s, o) => s + o.people * 0.25, 0), 9);
      expect(c.trusted).toBe(true);
      expect(c.warnings).toEqual([]);
      expect(c.overdispersion).toBeGreaterThanOrEqual(1);
      expect(c.logSe).toBeGreaterThan(0);
      if (Math.abs(Math.log(c.countedBurstsPerMinute / rho)) <= 1.96 * c.logSe) covered++;
      logErrors.push(Math.log(c.countedBurstsPerMinute / rho));
      // Shrinkage: the counts pull the prior towards them, never beyond.
      const lo = Math.min(c.countedBurstsPerMinute, realPhonesPrior.burstsPerMinute);
      const hi = Math.max(c.countedBurstsPerMinute, realPhonesPrior.burstsPerMinute);
      expect(c.burstsPerMinute).toBeGreaterThanOrEqual(lo);
      expect(c.burstsPerMinute).toBeLessThanOrEqual(hi);
      // …by precision: the prior's weight is 1/logVariance of the posterior 1/logSe².
      const priorWeight = (1 / realPhonesPrior.logVariance) * c.logSe ** 2;
      const expectedLn = priorWeight * Math.log(realPhonesPrior.burstsPerMinute) + (1 - priorWeight) * Math.log(c.countedBurstsPerMinute);
      expect(Math.log(c.burstsPerMinute)).toBeCloseTo(expectedLn, 9);
    }
    expect(covered / runs).toBeGreaterThanOrEqual(0.85);
    // Centred on the truth: the persons' spread of rates is corrected for (without it, ln ρ̂ would
    // sit about ½·ln(1 + cv²/y) ≈ 0.13 low); 0.05 is several standard errors of this mean.
    const meanLogError = logErrors.reduce((a, b) => a + b, 0) / runs;
    expect(Math.abs(meanLogError)).toBeLessThan(0.05);
  });

  it("shrinks few counts more than many towards the prior", () => {
    const rho = 0.5;
    const few = fitCalibration(simulate(3, rho, 1, 8), options)[0]!;
    const many = fitCalibration(simulate(3, rho, 8, 32), options)[0]!;
    const pull = (c: typeof few): number => Math.log(c.burstsPerMinute / c.countedBurstsPerMinute) / Math.log(realPhonesPrior.burstsPerMinute / c.countedBurstsPerMinute);
    expect(pull(few)).toBeGreaterThan(pull(many));
    expect(many.logSe).toBeLessThan(few.logSe);
  });

  it("does not trust a fit on few counts, and says why", () => {
    const c = fitCalibration(simulate(7, 0.9, 1, 3), options)[0]!;
    expect(c.counts.intervals).toBe(3);
    expect(c.trusted).toBe(false);
    expect(c.warnings.some((w) => /^few counts/.test(w))).toBe(true);
    // One interval short of the threshold is still few; the threshold itself is enough.
    expect(fitCalibration(simulate(7, 0.9, 1, MIN_TRUSTED_INTERVALS - 1), options)[0]!.trusted).toBe(false);
    expect(fitCalibration(simulate(7, 0.9, 1, MIN_TRUSTED_INTERVALS), options)[0]!.warnings.some((w) => /few counts/.test(w))).toBe(false);
  });

  it("flags counts far from real phones (20× the prior either way)", () => {
    for (const factor of [20, 1 / 20]) {
      const c = fitCalibration(simulate(11, realPhonesPrior.burstsPerMinute * factor, 5, 16), options)[0]!;
      expect(c.trusted).toBe(false);
      expect(c.warnings.some((w) => /far from real phones/.test(w))).toBe(true);
      expect(c.warnings.some((w) => /few counts/.test(w))).toBe(false);
    }
    // Five times off is within reach of the prior.
    const near = fitCalibration(simulate(11, realPhonesPrior.burstsPerMinute * 5, 5, 16), options)[0]!;
    expect(near.warnings.some((w) => /far from real phones/.test(w))).toBe(false);
  });

  it("is deterministic: the same observations give the same id, a changed one another", () => {
    const observations = simulate(5, 0.9, 3, 16);
    const a = fitCalibration(observations, options)[0]!;
    const b = fitCalibration(observations.map((o) => ({ ...o })), options)[0]!;
    expect(a.id).toMatch(/^cal-61-[0-9a-f]{8}$/);
    expect(b).toEqual(a);
    const changed = observations.map((o, i) => (i === 10 ? { ...o, insideBursts: o.insideBursts + 1 } : o));
    expect(fitCalibration(changed, options)[0]!.id).not.toBe(a.id);
    // Other settings are another calibration too.
    expect(fitCalibration(observations, { prior: realPhonesPrior, settings: { ...settings, timeZone: "Asia/Seoul" } })[0]!.id).not.toBe(a.id);
    // And what it writes reads back.
    expect(checkCalibration(JSON.parse(JSON.stringify(a)))).toEqual(a);
  });

  it("gives the same calibration whatever the order of the observations (documented: any order)", () => {
    // The sums run in a canonical order: a reordering must not change the last bits of the
    // fitted figures, nor with them the content id.
    for (let seed = 1; seed <= 20; seed++) {
      const observations: CalibrationObservation[] = [...simulate(seed, 0.9, 4, 16), ...dailyCounts(0.9, 4)];
      const a = fitCalibration(observations, options)[0]!;
      const rand = seeded(1000 + seed);
      const shuffled = [...observations];
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      expect(fitCalibration(shuffled, options)[0]!.id, `seed ${seed}`).toBe(a.id);
      expect(fitCalibration([...observations].reverse(), options)[0]!.id, `seed ${seed}`).toBe(a.id);
    }
  });

  it("fits daily entrance counts alone", () => {
    const rho = 0.7;
    const [c, ...rest] = fitCalibration(dailyCounts(rho, 4), options);
    expect(rest).toHaveLength(0);
    expect(c!.counts).toEqual({ intervals: 0, dailyCounts: 4, days: 4, personHours: 0 });
    // Every day says exactly ρ, so the counts do too; the prior still pulls the fit a little.
    expect(c!.countedBurstsPerMinute).toBeCloseTo(rho, 9);
    expect(c!.burstsPerMinute).toBeGreaterThan(rho);
    expect(c!.burstsPerMinute).toBeLessThan(realPhonesPrior.burstsPerMinute);
    expect(c!.trusted).toBe(true);
    expect(c!.start).toBe(T0);
    expect(c!.end).toBe(T0 + 4 * DAY);
    expect(fitCalibration(dailyCounts(rho, MIN_TRUSTED_DAILY - 1), options)[0]!.trusted).toBe(false);
  });

  it("fits each shop apart, by SHOP ID ascending, and skips counts nothing can be learnt from", () => {
    const observations: CalibrationObservation[] = [...simulate(2, 2, 2, 8, 70), ...simulate(3, 0.5, 2, 8, 61)];
    const fits = fitCalibration(observations, options);
    expect(fits.map((c) => c.shopId)).toEqual([61, 70]);
    expect(fits[0]!.countedBurstsPerMinute).toBeLessThan(fits[1]!.countedBurstsPerMinute);
    expect(fits[0]!.id.startsWith("cal-61-")).toBe(true);
    // Nobody beyond the identity-known persons: nothing measures bursts per person.
    const known: IntervalObservation = { kind: "interval", shopId: 80, day: "2024-03-04", start: T0, end: T0 + QUARTER, people: 3, knownInside: 3, insideBursts: 40, features: features(40) };
    const nobody: DayObservation = { ...dailyCounts(1, 1, 80)[0]!, visitors: 10, knownVisitors: 10 };
    expect(fitCalibration([known, nobody], options)).toEqual([]);
    expect(fitCalibration([], options)).toEqual([]);
  });

  it("takes a silent interval with people counted as half a burst, not as an infinite yardstick", () => {
    const silent: IntervalObservation[] = Array.from({ length: 8 }, (_, i) => ({ kind: "interval", shopId: 61, day: "2024-03-04", start: T0 + i * QUARTER, end: T0 + (i + 1) * QUARTER, people: 6, knownInside: 0, insideBursts: 0, features: features(0) }));
    const c = fitCalibration(silent, options)[0]!;
    expect(Number.isFinite(Math.log(c.countedBurstsPerMinute))).toBe(true);
    expect(c.countedBurstsPerMinute).toBeLessThan(0.05);
    expect(c.warnings.some((w) => /far from real phones/.test(w))).toBe(true);
  });

  it("learns the shop's model from two counted days of intervals on, and keeps to one scale with fewer, saying so by its model", () => {
    const one = fitCalibration(simulate(4, 1, 1, 16), options)[0]!;
    expect(one.model).toBeNull();
    const two = fitCalibration(simulate(4, 1, MIN_MODEL_DAYS, 16), options)[0]!;
    expect(two.model).not.toBeNull();
    expect(two.model!.days).toBe(MIN_MODEL_DAYS);
    expect(two.model!.features).toEqual(CALIBRATION_FEATURES);
    // People ≈ bursts ÷ (1/min × 15 min), with the persons' rates spread ×6: on a third day the
    // model predicts the count better than the counted days' mean does.
    const third = simulate(7, 1, 3, 16).filter((o) => o.day === simulate(7, 1, 3, 16)[40]!.day);
    const mean = simulate(4, 1, 2, 16).reduce((a, o) => a + o.people, 0) / 32;
    const predict = (o: IntervalObservation) => Math.max(0, two.model!.intercept + two.model!.coefficients.reduce((a, c, j) => a + c * o.features[j]!, 0));
    const mae = (f: (o: IntervalObservation) => number) => third.reduce((a, o) => a + Math.abs(f(o) - o.people), 0) / third.length;
    expect(mae(predict)).toBeLessThan(mae(() => mean));
    expect(two.model!.coefficients[0]!).toBeGreaterThan(0);
    // Daily entrance counts alone give no model.
    expect(fitCalibration(dailyCounts(1, 5), options)[0]!.model).toBeNull();
  });

  it("weighs the newest counted days most in the model (persons per MAC drift)", () => {
    // Four days at one yardstick, then three, two months later, at four times it: a new day like
    // the newest is predicted better by a fit that weighs them most. One day of 12 intervals is
    // noisy (persons' rates spread ×2 and more), so over eight such shops, summed.
    const shift = (o: IntervalObservation, days: number): IntervalObservation => ({ ...o, day: new Date(o.start + days * DAY).toISOString().slice(0, 10), start: o.start + days * DAY, end: o.end + days * DAY });
    const shops = Array.from({ length: 8 }, (_, i) => {
      const old = simulate(5 + 2 * i, 1, 4, 12);
      const recent = simulate(6 + 2 * i, 4, 3, 12).map((o) => shift(o, 60));
      const next = recent.filter((o) => o.day === recent.at(-1)!.day);
      return { train: [...old, ...recent.filter((o) => o.day !== next[0]!.day)], next };
    });
    const mae = (halfLifeDays: number) =>
      shops.reduce((sum, { train, next }) => {
        const m = fitCalibration(train, { ...options, halfLifeDays })[0]!.model!;
        return sum + next.reduce((a, o) => a + Math.abs(Math.max(0, m.intercept + m.coefficients.reduce((x, c, j) => x + c * o.features[j]!, 0)) - o.people), 0) / next.length;
      }, 0);
    expect(mae(10)).toBeLessThan(mae(10_000));
  });
});

