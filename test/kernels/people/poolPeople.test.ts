import { describe, expect, it } from "vitest";
import { realPhonesPrior } from "../../../src/kernels/calibration/burstYardstick.ts";
import type { Calibration } from "../../../src/kernels/calibration/Calibration.ts";
import { CALIBRATION_DRIFT_PER_DAY } from "../../../src/kernels/people/calibratedYardstick.ts";
import type { PeopleEstimate } from "../../../src/kernels/people/PeopleEstimate.ts";
import type { PeopleEstimatorOptions } from "../../../src/kernels/people/peopleEstimatorOptions.ts";
import { poolPeople } from "../../../src/kernels/people/poolPeople.ts";
import { rateModels } from "../../../src/kernels/people/rateModel.ts";
import type { ClassifiedSession } from "../../../src/kernels/visits/VisitClassifier.ts";
import { createRng, hashSeed } from "../../../src/sim/random/prng.ts";
import { DAY, EXACT, MIN, estimate, session } from "./fixtures.ts";

describe("poolPeople", () => {
  const DAY_MS = 24 * 60 * MIN;
  // One shop-day: `universal` universal-MAC visits with heavy-tailed stays (one burst a minute),
  // `randomized` randomized visits that held (one burst every two minutes), and 200 one-burst
  // MACs heard inside through the afternoon.
  function shopDay(seed: number, dayIndex: number, o: { universal?: number; randomized?: number; shopId?: number; randomizedStay?: number } = {}): ClassifiedSession[] {
    const rng = createRng(hashSeed("poolPeople", seed, dayIndex));
    const base = DAY + dayIndex * DAY_MS;
    const date = `2026-11-${16 + dayIndex}`;
    const out: ClassifiedSession[] = [];
    // Stays log-normal, median 14 min (randomized ones `randomizedStay` when given).
    const visit = (randomized: boolean, perMin: number, median = 14) => {
      const start = base + 11 * 60 * MIN + Math.round(rng.uniform(0, 8 * 60) * MIN);
      const dwell = Math.round(Math.min(180, rng.logNormal(median, 0.8)) * MIN);
      out.push(session({ start, end: start + dwell, bursts: Math.max(2, Math.round((dwell / MIN) * perMin)), kind: "visitor", randomized }));
    };
    for (let i = 0; i < (o.universal ?? 12); i++) visit(false, 1);
    for (let i = 0; i < (o.randomized ?? 0); i++) visit(true, 0.5, o.randomizedStay);
    for (let i = 0; i < 200; i++) out.push(session({ start: base + 12 * 60 * MIN + i * 90_000 }));
    return out.map((s) => ({ ...s, shopId: o.shopId ?? 101, date }));
  }
  const week = (seed: number, o: { universal?: number; randomized?: number; shopId?: number; randomizedStay?: number } = {}, options: PeopleEstimatorOptions = {}) =>
    estimate(
      [0, 1, 2, 3, 4].flatMap((d) => shopDay(seed, d, o)),
      options,
    );

  it("gives a day pooled alone its own estimate", () => {
    const days = estimate(shopDay(1, 0));
    const [pooled] = poolPeople(days);
    const own = days[0]!;
    expect(pooled!.pooledDays).toBe(1);
    expect(pooled!.visitors).toBeCloseTo(own.visitors, 9);
    expect(pooled!.visitorsLow).toBe(own.visitorsLow);
    expect(pooled!.visitorsHigh).toBe(own.visitorsHigh);
    pooled!.occupancy.forEach((o, i) => expect(o.inside).toBeCloseTo(own.occupancy[i]!.inside, 9));
  });

  it("pools each shop's days with its own, in any order, and narrows the days' intervals", () => {
    // The yardstick known exactly, so that the band is the mean stay's (which pooling learns from
    // five days' visits) and burst counting's: pooling does not narrow the yardstick's own spread
    // (as installed, ln ρ's variance of 0.36 dwarfs the mean stay's part).
    const a = week(2, {}, { prior: EXACT });
    const b = week(3, { shopId: 102 }, { prior: EXACT });
    const pooled = poolPeople([...a, ...b]);
    expect(pooled.map((p) => p.pooledDays)).toEqual(Array(10).fill(5));
    const separately = [...poolPeople(a), ...poolPeople(b)];
    pooled.forEach((p, i) => expect(p.visitors).toBeCloseTo(separately[i]!.visitors, 9));
    const shuffled = poolPeople([b[3]!, a[1]!, a[4]!, b[0]!, a[0]!, b[2]!, a[3]!, b[4]!, a[2]!, b[1]!]);
    for (const p of shuffled) {
      const same = pooled.find((q) => q.shopId === p.shopId && q.start === p.start)!;
      expect(p.visitors).toBeCloseTo(same.visitors, 9);
      expect(p.visitorsHigh).toBe(same.visitorsHigh);
    }
    const width = (days: readonly PeopleEstimate[]) => days.reduce((s, p) => s + Math.log(p.visitorsHigh / Math.max(1, p.visitorsLow)), 0);
    expect(width(pooled.slice(0, 5))).toBeLessThan(width(a));
    // The identity-known part and the day's data stay the day's own.
    pooled.slice(0, 5).forEach((p, i) => expect([p.knownVisitors, p.restBursts, p.passersBy, p.label]).toEqual([a[i]!.knownVisitors, a[i]!.restBursts, a[i]!.passersBy, a[i]!.label]));
  });

  it("takes the mean stay from the universal-MAC visits once the days hold enough of them together, the rate from each day's yardstick", () => {
    // Four universal visits a day (median stay 14 min): each day alone falls back to every
    // identity-known visit, whose randomized part stays 3 min; pooled, the 20 universal visits give
    // the stay. The randomized visits burst at half the universal ones' rate: no rate is learned
    // from either.
    const days = week(4, { universal: 4, randomized: 20, randomizedStay: 3 }, { prior: { burstsPerMinute: 0.8 } });
    const pooled = poolPeople(days);
    const universal = rateModels(days.map((d) => d.sample.universal));
    const shoppers = rateModels(days.map((d) => d.sample.shoppers));
    days.forEach((d, i) => {
      expect(d.sample.universal.visits).toBe(4);
      expect(d.meanDwellMs).toBeCloseTo(d.sample.shoppers.dwellSum / d.sample.shoppers.visits, 6);
      expect(pooled[i]!.meanDwellMs).toBeCloseTo(universal[i]!.meanDwell, 6);
      // The choice matters here: the pooled shopper visits would say otherwise.
      expect(pooled[i]!.meanDwellMs / shoppers[i]!.meanDwell).toBeGreaterThan(1.5);
      for (const p of [d, pooled[i]!]) {
        expect(p.burstsPerMinute).toBe(0.8);
        expect(p.yardstick).toEqual({ ...realPhonesPrior, burstsPerMinute: 0.8 });
      }
    });
  });

  it("estimates a calibrated shop by its calibration, aged day by day and named, and keeps each day's yardstick when pooled", () => {
    // Counted a fortnight to a week before the days estimated.
    const calibration: Calibration = {
      id: "cal-101-0a1b2c3d",
      shopId: 101,
      start: DAY - 14 * DAY_MS,
      end: DAY - 7 * DAY_MS,
      burstsPerMinute: 0.8,
      countedBurstsPerMinute: 0.75,
      logSe: 0.1,
      dayLogSd: 0.2,
      personCv: 1.2,
      universalPersonShare: 0.3,
      overdispersion: 1.44,
      counts: { intervals: 80, dailyCounts: 0, days: 5, personHours: 120 },
      model: null,
      settings: { intervalMs: 15 * MIN, timeZone: "Asia/Seoul", visitorRssi: "auto" as const },
      trusted: true,
      warnings: [],
    };
    const options = { calibration: [calibration] };
    const a = week(7, {}, options);
    const b = week(8, { shopId: 102 }, options);
    const ref = { id: calibration.id, start: new Date(calibration.start).toISOString(), end: new Date(calibration.end).toISOString(), method: "scale", trusted: true, warnings: [] };
    const pooled = poolPeople([...a, ...b]);
    a.forEach((d, i) => {
      // ρ and the persons' spread (× √overdispersion) are the fit's; ln ρ's variance its standard
      // error², the day-to-day spread² and the drift over the days since the counts.
      const expected = {
        burstsPerMinute: 0.8,
        logVariance: 0.1 ** 2 + 0.2 ** 2 + CALIBRATION_DRIFT_PER_DAY * (7 + i),
        // The counted days' degrees of freedom (days − 1) and the day-to-day prior's two.
        df: 4 + 2,
        personCv: 1.2 * Math.sqrt(1.44),
        universalPersonShare: 0.3,
      };
      for (const p of [d, pooled[i]!]) {
        expect(p.burstsPerMinute).toBe(0.8);
        expect(p.calibration).toEqual(ref);
        expect(p.yardstick.logVariance).toBeCloseTo(expected.logVariance, 12);
        expect({ ...p.yardstick, logVariance: 0 }).toEqual({ ...expected, logVariance: 0 });
        expect(p.occupancy.every((o) => o.calibration?.id === calibration.id)).toBe(true);
      }
      // The calibration's universal share: 12 laptops' worth of 0.3 of a person.
      expect(d.knownVisitors).toBeCloseTo(12 * 0.3, 12);
    });
    // Each shop apart: the other shop keeps the prior.
    for (const p of [...b, ...pooled.slice(5)]) {
      expect(p.calibration).toBeNull();
      expect(p.yardstick).toEqual(realPhonesPrior);
      expect(p.occupancy.every((o) => o.calibration === null)).toBe(true);
    }
  });

  it("keeps intervals without other phones' bursts at their known presence, with room above for persons whose phones slept", () => {
    // ρ = 1/min for everyone: a person is silent for 15 min with probability e^(−15), so N persons
    // with e^(−15 N), which falls to 5 % at N = ln 20 ÷ 15.
    const pooled = poolPeople(week(5, {}, { prior: EXACT }));
    const silent = Math.log(20) / 15;
    let empty = 0;
    let withDevices = 0;
    for (const p of pooled) {
      for (const o of p.occupancy) {
        if (o.insideBursts !== 0) continue;
        empty++;
        if (o.universalInside > 0) withDevices++;
        // The known part is the day's universal visits (not phone makers'): a share of a person each;
        // the bounds take none of them and all of them as persons.
        expect(o.inside).toBe(o.knownInside);
        expect(o.universalPersons).toBeCloseTo(o.knownInside, 12);
        expect(o.universalPersons).toBeCloseTo(o.universalInside * realPhonesPrior.universalPersonShare, 12);
        expect(o.insideLow).toBeCloseTo(0, 12);
        expect(o.insideHigh).toBeCloseTo(o.universalInside + silent, 8);
      }
    }
    expect(empty).toBeGreaterThan(0);
    expect(withDevices).toBeGreaterThan(0);
  });

  it("rejects estimates pooled already and things that are not estimates", () => {
    const pooled = poolPeople(week(6));
    expect(() => poolPeople(pooled)).toThrow(/pooled already/);
    expect(() => poolPeople([{ shopId: 1 } as never])).toThrow(TypeError);
    expect(() => poolPeople("days" as never)).toThrow(TypeError);
    expect(() => poolPeople(week(6), { level: 2 })).toThrow(RangeError);
  });
});
