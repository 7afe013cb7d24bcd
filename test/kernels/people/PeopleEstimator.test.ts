import { CALIBRATION_FEATURES } from "../../../src/kernels/calibration/calibrationFeatures.ts";
import { describe, expect, it } from "vitest";
import { burstYardstick, realPhonesPrior } from "../../../src/kernels/calibration/burstYardstick.ts";
import { silentPersonsBound } from "../../../src/kernels/people/silentPersonsBound.ts";
import { PeopleEstimator } from "../../../src/kernels/people/PeopleEstimator.ts";
import type { PeopleEstimate } from "../../../src/kernels/people/PeopleEstimate.ts";
import type { Calibration } from "../../../src/kernels/calibration/Calibration.ts";
import type { PeopleModel } from "../../../src/kernels/calibration/PeopleModel.ts";
import { peopleEstimatorOptions } from "../../../src/kernels/people/peopleEstimatorOptions.ts";
import type { ClassifiedSession } from "../../../src/kernels/visits/VisitClassifier.ts";
import { createRng, hashSeed } from "../../../src/sim/random/prng.ts";
import { APPLE, DAY, EXACT, INTEL, MIN, NOON, Z90, estimate, keptVisits, macs, session } from "./fixtures.ts";
import { twoSided } from "../../../src/stats/twoSided.ts";

describe("PeopleEstimator", () => {
  it("validates its options eagerly", () => {
    expect(() => peopleEstimatorOptions({ intervalMs: 1000 })).toThrow(RangeError);
    expect(() => peopleEstimatorOptions({ level: 1 })).toThrow(RangeError);
    expect(() => peopleEstimatorOptions({ linkGapMs: -1 })).toThrow(RangeError);
    expect(() => peopleEstimatorOptions({ linkShortMs: -1 })).toThrow(RangeError);
    expect(() => peopleEstimatorOptions({ timeZone: "Mars/Olympus" })).toThrow();
    expect(() => new PeopleEstimator({}, {} as never)).toThrow(TypeError);
    expect(peopleEstimatorOptions().intervalMs).toBe(15 * MIN);
  });

  it("reduces to the MAC-level count when every visitor keeps one randomized MAC: exact visitors and presence, room above only for phones that slept", () => {
    const [day] = estimate([...keptVisits(20, true), session({ start: NOON, rssi: -80 })]);
    expect(day).toMatchObject({ label: "2026-11-16", visitors: 20, visitorsLow: 20, visitorsHigh: 20, knownVisitors: 20, restVisitors: 0, linkedSessions: 0, calibration: null });
    // The yardstick as installed, not a rate learned from the day's visits (which burst once a minute).
    expect(day!.yardstick).toEqual(realPhonesPrior);
    expect(day!.burstsPerMinute).toBe(realPhonesPrior.burstsPerMinute);
    // 96 quarter-hours; presence is exact: 20 visits of 11 min (10 observed + one burst gap).
    expect(day!.occupancy).toHaveLength(96);
    const personMinutes = day!.occupancy.reduce((a, o) => a + o.inside * 15, 0);
    expect(personMinutes).toBeCloseTo(20 * 11, 6);
    // No other burst heard inside all day: inside is the known presence and at least that; above
    // it, the persons whose phones could have slept through the quarter-hour.
    const silent = silentPersonsBound(realPhonesPrior, 15, twoSided(0.9));
    expect(silent).toBeGreaterThan(0);
    for (const o of day!.occupancy) {
      expect([o.insideBursts, o.inside, o.insideLow, o.calibration]).toEqual([0, o.knownInside, o.knownInside, null]);
      expect(o.insideHigh).toBeCloseTo(o.knownInside + silent, 12);
    }
  });

  it("turns randomized one-burst MACs' bursts into persons by the yardstick, median-unbiased, and into visitors by Little's law", () => {
    const known = keptVisits(30, true);
    // 45 one-burst randomized MACs heard inside in 18:00–18:15, and 15 one-burst universal MACs
    // (laptops' and PCs' bursts, not persons').
    const at = DAY + 18 * 60 * MIN;
    // (Irregular, as phones burst when their owners wake them: on a strict timer they would be one phone.)
    const rest = Array.from({ length: 45 }, (_, i) => session({ start: at + i * 20_000 + ((i * 7_919) % 6_000) }));
    const devices = macs(INTEL, 15).map((device, i) => session({ start: at + i * MIN, randomized: false, device }));
    const sessions = [...known, ...rest, ...devices];

    // Exactly 1 burst a minute per person: 45 bursts ÷ (1/min × 15 min) = 3 persons, ×/÷ e^(z/√45).
    const [day] = estimate(sessions, { prior: EXACT });
    const interval = day!.occupancy.find((o) => o.start === at)!;
    expect(interval.insideBursts).toBe(45);
    expect(interval.knownInside).toBe(0);
    expect(interval.inside).toBeCloseTo(3, 10);
    const spread = Math.exp(Z90 / Math.sqrt(45));
    expect(interval.insideLow).toBeCloseTo(3 / spread, 10);
    expect(interval.insideHigh).toBeCloseTo(3 * spread, 10);
    // W = 11 min (all 30 known stays alike), ρ = 1/min: 45 bursts are 45/11 visits, with burst
    // counting's band; bounds widened to whole people.
    expect(day!.knownVisitors).toBe(30);
    expect(day!.restBursts).toBe(45);
    expect(day!.burstsPerMinute).toBe(1);
    expect(day!.meanDwellMs).toBeCloseTo(11 * MIN, 6);
    expect(day!.restVisitors).toBeCloseTo(45 / 11, 10);
    expect(day!.visitors).toBeCloseTo(30 + 45 / 11, 10);
    expect(day!.visitorsLow).toBe(Math.floor(30 + 45 / 11 / spread));
    expect(day!.visitorsHigh).toBe(Math.ceil(30 + (45 / 11) * spread));

    // As installed (ρ = 1.44/min, persons' cv 1.98): x = 45 ÷ (1.44 × 15) person-equivalents are
    // N persons with N = x·√(1 + cv²/N) — a few phones' bursts fall short of their mean more often
    // than not — inside a finite band.
    const [prior] = estimate(sessions);
    const o = prior!.occupancy.find((i) => i.start === at)!;
    const x = 45 / (realPhonesPrior.burstsPerMinute * 15);
    const cv = realPhonesPrior.personCv;
    expect(o.insideBursts).toBe(45);
    expect(o.inside).toBeGreaterThan(x);
    expect(o.inside).toBeCloseTo(x * Math.sqrt(1 + (cv * cv) / o.inside), 6);
    expect(o.insideLow).toBeLessThan(o.inside);
    expect(o.insideHigh).toBeGreaterThan(o.inside);
    expect(Number.isFinite(o.insideHigh)).toBe(true);
    // Little's law takes no median correction: the day's bursts are many visits'.
    expect(prior!.restVisitors).toBeCloseTo(45 / (realPhonesPrior.burstsPerMinute * 11), 10);
  });

  it("sets a randomized visit aside when a consistent one-burst MAC ends just before it, never a universal one", () => {
    const known = keptVisits(10, true);
    const at = DAY + 19 * 60 * MIN;
    const piece = session({ start: at, end: at + 3 * MIN, bursts: 10, kind: "visitor" });
    const before = session({ start: at - 40_000 });
    // A phone maker's universal MAC staying 11 min: a person (weight 1), never set aside.
    const universal = session({ start: at + 30 * MIN, end: at + 40 * MIN, bursts: 11, kind: "visitor", randomized: false, device: `${APPLE}:00:00:01` });
    const beforeUniversal = session({ start: at + 30 * MIN - 40_000 });
    const far = session({ start: at + 60 * MIN, end: at + 70 * MIN, bursts: 11, kind: "visitor" });
    const tooEarly = session({ start: at + 60 * MIN - 5 * MIN });
    const [day] = estimate([...known, piece, before, universal, beforeUniversal, far, tooEarly]);
    expect(day!.linkedSessions).toBe(1);
    expect(day!.knownVisitors).toBe(12);
    // The piece's bursts and its neighbours' are estimated, not counted.
    expect(day!.restBursts).toBe(10 + 3);
  });

  it("sets a short visit aside on a sensor in common whatever the RSSI (fading), a long one only on a consistent RSSI", () => {
    const at = DAY + 19 * 60 * MIN;
    // A one-burst MAC 20 dB weaker than the visit's peak, ending 40 s before each visit starts.
    const visits = (dwellMin: number) => {
      const visit = session({ start: at, end: at + dwellMin * MIN, bursts: 10, kind: "visitor", rssi: -50 });
      return [visit, session({ start: at - 40_000, rssi: -62 })];
    };
    const linked = (dwellMin: number, options = {}) => estimate([...keptVisits(10), ...visits(dwellMin)], options)[0]!.linkedSessions;
    // Under 5 min (linkShortMs): a screen-on piece whose luckiest burst set its peak.
    expect(linked(3)).toBe(1);
    expect(linked(3, { linkShortMs: 0 })).toBe(0);
    // Longer: the RSSI test holds (20 dB > linkRssiDb).
    expect(linked(6)).toBe(0);
    expect(linked(6, { linkShortMs: 7 * MIN })).toBe(1);
  });

  it("counts a universal-MAC device as a person when a phone maker's staying under two hours, else by the yardstick's universal person share", () => {
    const visit = (startH: number, minutes: number, o: { randomized?: boolean; device?: string }) =>
      session({ start: DAY + startH * 60 * MIN, end: DAY + startH * 60 * MIN + minutes * MIN, bursts: minutes + 1, kind: "visitor", ...o });
    const sessions = [
      visit(10, 20, { randomized: false, device: `${INTEL}:00:00:01` }), // a laptop: the share
      visit(11, 20, { randomized: false, device: `${APPLE}:00:00:01` }), // a phone: 1
      visit(13, 180, { randomized: false, device: `${APPLE}:00:00:02` }), // an Apple device on a desk for 3 h: the share
      visit(17, 20, { randomized: true }), // a randomized MAC that held: a phone, 1
    ];
    const [day] = estimate(sessions, { prior: { universalPersonShare: 0.4 } });
    expect(day!.knownVisitors).toBeCloseTo(1 + 1 + 0.4 + 0.4, 12);
    expect(day!.linkedSessions).toBe(0);
    const at = (h: number) => day!.occupancy.find((o) => o.start === DAY + h * 60 * MIN)!;
    expect(at(10).knownInside).toBeCloseTo(0.4, 12);
    expect(at(11).knownInside).toBeCloseTo(1, 12);
    expect(at(14).knownInside).toBeCloseTo(0.4, 12);
    expect(at(17).knownInside).toBeCloseTo(1, 12);
    // Whether a universal device is a person is not known, whatever its weight (a phone maker's
    // device may be a laptop too): the bounds take none and all of them. A randomized MAC that held
    // is a phone: certain. No other burst is heard, so above that, persons whose phones slept.
    const silent = silentPersonsBound(burstYardstick({ universalPersonShare: 0.4 }), 15, twoSided(0.9));
    for (const [h, persons] of [[10, 0.4], [11, 1], [14, 0.4]] as const) {
      expect([at(h).universalInside, at(h).universalPersons]).toEqual([expect.closeTo(1, 12), expect.closeTo(persons, 12)]);
      expect(at(h).insideLow).toBeCloseTo(0, 12);
      expect(at(h).insideHigh).toBeCloseTo(1 + silent, 12);
    }
    expect([at(17).universalInside, at(17).universalPersons]).toEqual([0, 0]);
    expect(at(17).insideLow).toBeCloseTo(1, 12);
    expect(at(17).insideHigh).toBeCloseTo(1 + silent, 12);
    // As installed, the share is real phones' 0.25.
    expect(estimate(sessions)[0]!.knownVisitors).toBeCloseTo(2 + 2 * realPhonesPrior.universalPersonShare, 12);
  });

  it("leaves staff and equipment out of people inside and outside", () => {
    const staff = session({ start: DAY + 10 * 60 * MIN, end: DAY + 20 * 60 * MIN, bursts: 600, kind: "staff", randomized: false });
    const printer = session({ start: DAY, end: DAY + 23 * 60 * MIN, bursts: 2000, kind: "stationary", randomized: false });
    const [a] = estimate([...keptVisits(5), staff, printer]);
    const [b] = estimate(keptVisits(5));
    const withoutFeatures = (p: typeof a) => ({ ...p!, occupancy: p!.occupancy.map(({ features: _features, ...o }) => o) });
    expect(withoutFeatures(a)).toEqual(withoutFeatures(b));
    // The equipment is seen, as what a calibration may weigh: present in every interval it spans.
    const stationary = CALIBRATION_FEATURES.indexOf("stationary");
    expect(a!.occupancy.slice(0, 92).every((o) => o.features[stationary] === 1)).toBe(true);
    expect(b!.occupancy.every((o) => o.features[stationary] === 0)).toBe(true);
    // Staff count in no feature.
    expect(a!.occupancy[45]!.features).toEqual(b!.occupancy[45]!.features.map((x, j) => (j === stationary ? 1 : x)));
  });

  it("is unbiased when it learns the mean stay from a small sample of heavy-tailed stays", () => {
    // Each trial: 15 universal visits (the sample of stays: laptops, the prior's share of a person each)
    // and 40 rotating phones drawn from the same stays (log-normal, median 15 min, coefficient of
    // variation ≈ 1.2), every phone bursting once a minute (the yardstick, known exactly), each
    // rotating burst a one-burst MAC heard inside. Dividing by a mean stay learned from 15 visits
    // overstates 1 ÷ W by ~10 % on average; the estimate must not.
    const rng = createRng(hashSeed("people", "bias"));
    const stay = () => Math.max(1, Math.round(rng.logNormal(15, 0.944))); // whole minutes
    const trials = 200;
    let restSum = 0;
    for (let t = 0; t < trials; t++) {
      const sessions: ClassifiedSession[] = [];
      for (let i = 0; i < 15; i++) {
        const start = NOON + rng.int(0, 300) * MIN;
        const minutes = stay();
        sessions.push(session({ start, end: start + minutes * MIN, bursts: minutes + 1, kind: "visitor", randomized: false, device: `${INTEL}:00:00:${i.toString(16).padStart(2, "0")}` }));
      }
      for (let p = 0; p < 40; p++) {
        // Each phone at its own phase within the minute and its own distance (phones bursting in
        // the same second, read alike, would be one burst).
        const start = NOON + rng.int(0, 300) * MIN + rng.int(0, 59_999);
        const rssi = -45 - rng.int(0, 20);
        // A burst a minute, give or take a few seconds (not a metronome: two of those in antiphase read alike would be one phone on a 30-s timer).
        for (let b = stay(); b >= 0; b--) sessions.push(session({ start: start + b * MIN + rng.int(-5_000, 5_000), rssi }));
      }
      const [day] = estimate(sessions, { prior: EXACT });
      expect(day!.knownVisitors).toBeCloseTo(15 * realPhonesPrior.universalPersonShare, 10);
      restSum += day!.restVisitors;
    }
    expect(Math.abs(restSum / trials / 40 - 1)).toBeLessThan(0.04);
  });

  it("does not depend on the order sessions arrive in within a day", () => {
    const sessions = [...keptVisits(12, true), ...Array.from({ length: 30 }, (_, i) => session({ start: NOON + i * 31_000, rssi: i % 3 === 0 ? -80 : -60 }))];
    const reversed = [...sessions].reverse();
    expect(estimate(reversed)).toEqual(estimate(sessions));
  });

  it("sends sessions of a day already estimated to late", () => {
    const late: ClassifiedSession[] = [];
    const out: PeopleEstimate[] = [];
    const e = new PeopleEstimator({}, { emit: (p) => out.push(p), late: (s) => late.push(s) });
    const first = session({ start: NOON, end: NOON + 10 * MIN, bursts: 11, kind: "visitor" });
    e.push({ ...first, complete: DAY + 24 * 60 * MIN });
    expect(out).toHaveLength(1);
    e.push(session({ start: NOON + MIN }));
    expect(late).toHaveLength(1);
    expect(e.late).toBe(1);
  });
});

describe("PeopleEstimator without identity-known visits", () => {
  it("gives NaN visitors and unbounded intervals rather than a number it cannot support", () => {
    const at = DAY + 18 * 60 * MIN;
    const [day] = estimate(Array.from({ length: 10 }, (_, i) => session({ start: at + i * 30_000 })));
    expect(day!.visitors).toBeNaN();
    expect(day!.knownVisitors).toBe(0);
    expect(day!.restBursts).toBe(10);
    // At least the identity-known visitors (none), no upper bound; nothing heard outside: 0 passers-by.
    expect(day!.visitorsLow).toBe(0);
    expect(day!.visitorsHigh).toBe(Number.POSITIVE_INFINITY);
    expect(day!.passersBy).toBe(0);
    // Heard outside, with no universal passer-by to scale by: unknown.
    const [outside] = estimate(Array.from({ length: 10 }, (_, i) => session({ start: at + i * 30_000, rssi: -85 })));
    expect(outside!.passersBy).toBeNaN();
  });

  it("gives an unbounded visitor interval when one sampled visit cannot show how stays spread, and finite occupancy", () => {
    const at = DAY + 18 * 60 * MIN;
    const [day] = estimate([...keptVisits(1, true), ...Array.from({ length: 10 }, (_, i) => session({ start: at + i * 30_000 }))], { prior: EXACT });
    // 10 bursts ÷ (1/min × 11 min): one stay of 11 min, whose spread no one visit shows.
    expect(day!.visitors).toBeCloseTo(1 + 10 / 11, 10);
    expect(day!.visitorsLow).toBe(1);
    expect(day!.visitorsHigh).toBe(Number.POSITIVE_INFINITY);
    // Occupancy needs no sample, only the yardstick: 10 bursts in 15 min are 10/15 of a person.
    const o = day!.occupancy.find((x) => x.start === at)!;
    const spread = Math.exp(Z90 / Math.sqrt(10));
    expect(o.inside).toBeCloseTo(10 / 15, 10);
    expect(o.insideLow).toBeCloseTo(10 / 15 / spread, 10);
    expect(o.insideHigh).toBeCloseTo((10 / 15) * spread, 10);
  });

  it("estimates a shop with a learned model by the model, from each interval's features, and its visitors from them", () => {
    // 45 one-burst randomized MACs heard at −55 dBm in 18:00–18:15, and a PC on all day.
    const at = DAY + 18 * 60 * MIN;
    const rest = Array.from({ length: 45 }, (_, i) => session({ start: at + i * 20_000, rssi: -55 }));
    const pc = session({ start: DAY, end: DAY + 23 * 60 * MIN, bursts: 1380, kind: "stationary", randomized: false });
    const sessions = [...keptVisits(30), ...rest, pc];
    const model: PeopleModel = {
      features: CALIBRATION_FEATURES,
      intercept: 0.5,
      coefficients: CALIBRATION_FEATURES.map((f) => (f === "randomized ge-60" ? 0.2 : f === "stationary" ? 2 : 0)),
      alpha: 0,
      offset: 5,
      withinVariance: 0.3,
      dayVariance: 0.5,
      df: 4,
      days: 3,
      intervals: 40,
      validationMae: 1,
    };
    const calibration: Calibration = {
      id: "cal-101-0000000a",
      shopId: 101,
      start: DAY - 7 * 1440 * MIN,
      end: DAY - 1440 * MIN,
      burstsPerMinute: 1,
      countedBurstsPerMinute: 1,
      logSe: 0.1,
      dayLogSd: 0.2,
      personCv: 1.86,
      universalPersonShare: 0.25,
      overdispersion: 1,
      counts: { intervals: 40, dailyCounts: 0, days: 3, personHours: 30 },
      model,
      settings: { intervalMs: 900_000, timeZone: "Asia/Seoul", visitorRssi: "auto" },
      trusted: true,
      warnings: [],
    };
    const [plain] = estimate(sessions);
    const [day] = estimate(sessions, { calibration: [calibration] });
    const interval = day!.occupancy.find((o) => o.start === at)!;
    // 45 randomized MACs ≥ −60 dBm and the PC: 0.5 + 0.2 × 45 + 2 × 1 = 11.5.
    expect(interval.features[CALIBRATION_FEATURES.indexOf("randomized ge-60")]).toBe(45);
    expect(interval.inside).toBeCloseTo(11.5, 10);
    expect(interval.insideLow).toBeLessThan(11.5);
    expect(interval.insideHigh).toBeGreaterThan(11.5);
    expect(interval.calibration?.method).toBe("model");
    // Its data beside it are the estimate's as installed.
    const before = plain!.occupancy.find((o) => o.start === at)!;
    expect([interval.insideBursts, interval.knownInside]).toEqual([before.insideBursts, before.knownInside]);
    // An interval with only the PC: the intercept and the PC.
    expect(day!.occupancy[4]!.inside).toBeCloseTo(2.5, 10);
    // Visitors: the identity-known ones and the rest of the model's people-time over the mean stay.
    const restMs = day!.occupancy.reduce((a, o) => a + Math.max(0, o.inside - o.knownInside) * (o.end - o.start), 0);
    expect(day!.visitors).toBeCloseTo(day!.knownVisitors + restMs / day!.meanDwellMs, 6);
  });
});

