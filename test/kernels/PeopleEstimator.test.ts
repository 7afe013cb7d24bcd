import { describe, expect, it } from "vitest";
import { estimatedDwell } from "../../src/kernels/EventTimeEngine.ts";
import { PeopleEstimator, peopleEstimatorOptions, poolPeople, type PeopleEstimate } from "../../src/kernels/PeopleEstimator.ts";
import type { ClassifiedSession, VisitKind } from "../../src/kernels/VisitClassifier.ts";
import { createRng, hashSeed } from "../../src/sim/prng.ts";

const MIN = 60_000;
// 2026-11-16 00:00 in Seoul (UTC+9).
const DAY = Date.UTC(2026, 10, 15, 15);
const NOON = DAY + 12 * 60 * MIN;
const SENSOR = "b8:27:eb:00:00:01";

let next = 0;
function session(o: { start: number; end?: number; bursts?: number; kind?: VisitKind; randomized?: boolean; rssi?: number; device?: string }): ClassifiedSession {
  const end = o.end ?? o.start;
  const bursts = o.bursts ?? 1;
  const rssi = o.rssi ?? -55;
  const device = o.device ?? `${o.randomized === false ? "f0" : "da"}:00:00:00:${(next >> 8).toString(16).padStart(2, "0")}:${(next++ & 255).toString(16).padStart(2, "0")}`;
  return {
    shopId: 101,
    device,
    start: o.start,
    end,
    dwellMs: end - o.start,
    estimatedDwellMs: estimatedDwell(end - o.start, bursts),
    signalCount: bursts * 5,
    probeCount: bursts,
    randomized: o.randomized ?? true,
    local: o.randomized ?? true,
    vendor: undefined,
    peakRssi: rssi,
    peakSmoothedRssi: rssi,
    nearestSensor: SENSOR,
    sensors: [{ sensor: SENSOR, signalCount: bursts * 5, first: o.start, last: end, peakRssi: rssi, peakSmoothedRssi: rssi }],
    watermark: end,
    complete: o.start,
    proximity: undefined,
    kind: o.kind ?? "passerby",
    date: "2026-11-16",
    late: false,
    visitorRssi: -65,
  };
}

function estimate(sessions: readonly ClassifiedSession[], options = {}): PeopleEstimate[] {
  const out: PeopleEstimate[] = [];
  const e = new PeopleEstimator({ timeZone: "Asia/Seoul", ...options }, { emit: (p) => out.push(p) });
  for (const s of sessions) e.push(s);
  e.flush();
  return out;
}

// Visitors whose MAC holds: 11 bursts over 10 min (one burst a minute), staggered through the afternoon.
function keptVisits(n: number, randomized = false): ClassifiedSession[] {
  return Array.from({ length: n }, (_, i) => session({ start: NOON + i * 7 * MIN, end: NOON + i * 7 * MIN + 10 * MIN, bursts: 11, kind: "visitor", randomized }));
}

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

  it("reduces to the MAC-level count when every visitor keeps one MAC: exact, with a zero-width interval", () => {
    const [day] = estimate([...keptVisits(20), session({ start: NOON, rssi: -80 })]);
    expect(day).toMatchObject({ label: "2026-11-16", visitors: 20, visitorsLow: 20, visitorsHigh: 20, knownVisitors: 20, restVisitors: 0, linkedSessions: 0 });
    expect(day!.burstsPerMinute).toBeCloseTo(1, 10);
    // 96 quarter-hours; presence is exact: 20 visits of 11 min (10 observed + one burst gap).
    expect(day!.occupancy).toHaveLength(96);
    const personMinutes = day!.occupancy.reduce((a, o) => a + o.inside * 15, 0);
    expect(personMinutes).toBeCloseTo(20 * 11, 6);
    expect(day!.occupancy.every((o) => o.insideLow === o.inside && o.insideHigh === o.inside)).toBe(true);
  });

  it("turns bursts of one-burst MACs into phones by the learned rate, and into visitors by Little's law", () => {
    const known = keptVisits(30);
    // 45 one-burst randomized MACs heard inside in 18:00–18:15: 45 bursts ÷ (1/min × 15 min) = 3 phones.
    const at = DAY + 18 * 60 * MIN;
    const rest = Array.from({ length: 45 }, (_, i) => session({ start: at + i * 20_000 }));
    const [day] = estimate([...known, ...rest]);
    const interval = day!.occupancy.find((o) => o.start === at)!;
    expect(interval.insideBursts).toBe(45);
    expect(interval.knownInside).toBe(0);
    expect(interval.inside).toBeCloseTo(3, 10);
    expect(interval.insideLow).toBeLessThan(3);
    expect(interval.insideHigh).toBeGreaterThan(3);
    // W = 11 min, rate 1/min: 45 bursts are 45/11 visits.
    expect(day!.restVisitors).toBeCloseTo(45 / 11, 10);
    expect(day!.visitors).toBeCloseTo(30 + 45 / 11, 10);
    expect(day!.visitorsLow).toBeGreaterThanOrEqual(30);
    expect(day!.visitorsHigh).toBeGreaterThan(day!.visitors);
  });

  it("sets a randomized visit aside when a consistent one-burst MAC ends just before it, never a universal one", () => {
    const known = keptVisits(10);
    const at = DAY + 19 * 60 * MIN;
    const piece = session({ start: at, end: at + 3 * MIN, bursts: 10, kind: "visitor" });
    const before = session({ start: at - 40_000 });
    const universal = session({ start: at + 30 * MIN, end: at + 40 * MIN, bursts: 11, kind: "visitor", randomized: false });
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

  it("leaves staff and equipment out of people inside and outside", () => {
    const staff = session({ start: DAY + 10 * 60 * MIN, end: DAY + 20 * 60 * MIN, bursts: 600, kind: "staff", randomized: false });
    const printer = session({ start: DAY, end: DAY + 23 * 60 * MIN, bursts: 2000, kind: "stationary", randomized: false });
    const [a] = estimate([...keptVisits(5), staff, printer]);
    const [b] = estimate(keptVisits(5));
    expect(a).toEqual(b);
  });

  it("is unbiased when it learns bursts per visit from a small sample of heavy-tailed stays", () => {
    // Each trial: 15 universal visits (the sample) and 40 rotating phones drawn from the same
    // stays (log-normal, median 15 min, coefficient of variation ≈ 1.2), every phone bursting once a
    // minute, each rotating burst a one-burst MAC heard inside. Dividing by a rate and a mean stay
    // learned from 15 visits overstates 1 ÷ (bursts per visit) by ~10 % on average; the estimate
    // must not.
    const rng = createRng(hashSeed("people", "bias"));
    const stay = () => Math.max(1, Math.round(rng.logNormal(15, 0.944))); // whole minutes
    const trials = 200;
    let restSum = 0;
    for (let t = 0; t < trials; t++) {
      const sessions: ClassifiedSession[] = [];
      for (let i = 0; i < 15; i++) {
        const start = NOON + rng.int(0, 300) * MIN;
        const minutes = stay();
        sessions.push(session({ start, end: start + minutes * MIN, bursts: minutes + 1, kind: "visitor", randomized: false }));
      }
      for (let p = 0; p < 40; p++) {
        const start = NOON + rng.int(0, 300) * MIN;
        for (let b = stay(); b >= 0; b--) sessions.push(session({ start: start + b * MIN }));
      }
      const [day] = estimate(sessions);
      expect(day!.knownVisitors).toBe(15);
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

  it("gives an unbounded interval when one sampled phone cannot show how rates spread", () => {
    const at = DAY + 18 * 60 * MIN;
    const [day] = estimate([...keptVisits(1), ...Array.from({ length: 10 }, (_, i) => session({ start: at + i * 30_000 }))]);
    expect(day!.visitors).toBeCloseTo(1 + 10 / 11, 10);
    expect(day!.visitorsLow).toBe(1);
    expect(day!.visitorsHigh).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("poolPeople", () => {
  const DAY_MS = 24 * 60 * MIN;
  // One shop-day: `universal` universal-MAC visits with heavy-tailed stays (one burst a minute),
  // `randomized` randomized visits that held (one burst every two minutes), and 200 one-burst
  // MACs heard inside through the afternoon.
  function shopDay(seed: number, dayIndex: number, o: { universal?: number; randomized?: number; shopId?: number } = {}): ClassifiedSession[] {
    const rng = createRng(hashSeed("poolPeople", seed, dayIndex));
    const base = DAY + dayIndex * DAY_MS;
    const date = `2026-11-${16 + dayIndex}`;
    const out: ClassifiedSession[] = [];
    const visit = (randomized: boolean, perMin: number) => {
      const start = base + 11 * 60 * MIN + Math.round(rng.uniform(0, 8 * 60) * MIN);
      const dwell = Math.round(Math.min(180, rng.logNormal(14, 0.8)) * MIN);
      out.push(session({ start, end: start + dwell, bursts: Math.max(2, Math.round((dwell / MIN) * perMin)), kind: "visitor", randomized }));
    };
    for (let i = 0; i < (o.universal ?? 12); i++) visit(false, 1);
    for (let i = 0; i < (o.randomized ?? 0); i++) visit(true, 0.5);
    for (let i = 0; i < 200; i++) out.push(session({ start: base + 12 * 60 * MIN + i * 90_000 }));
    return out.map((s) => ({ ...s, shopId: o.shopId ?? 101, date }));
  }
  const week = (seed: number, o: { universal?: number; randomized?: number; shopId?: number } = {}) => estimate([0, 1, 2, 3, 4].flatMap((d) => shopDay(seed, d, o)));

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
    const a = week(2);
    const b = week(3, { shopId: 102 });
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

  it("learns from the universal-MAC visits once the days hold enough of them together", () => {
    // Four universal visits a day: each day alone falls back to every identity-known visit, whose
    // randomized half probes at half the rate; pooled, the 20 universal visits give the rate.
    const days = week(4, { universal: 4, randomized: 20 });
    for (const d of days) expect(d.burstsPerMinute).toBeLessThan(0.85);
    for (const p of poolPeople(days)) expect(p.burstsPerMinute).toBeGreaterThan(0.9);
  });

  it("keeps intervals without other phones' bursts at their exact known presence", () => {
    const pooled = poolPeople(week(5));
    for (const p of pooled) for (const o of p.occupancy) if (o.insideBursts === 0) expect([o.inside, o.insideLow, o.insideHigh]).toEqual([o.knownInside, o.knownInside, o.knownInside]);
  });

  it("rejects estimates pooled already and things that are not estimates", () => {
    const pooled = poolPeople(week(6));
    expect(() => poolPeople(pooled)).toThrow(/pooled already/);
    expect(() => poolPeople([{ shopId: 1 } as never])).toThrow(TypeError);
    expect(() => poolPeople("days" as never)).toThrow(TypeError);
    expect(() => poolPeople(week(6), { level: 2 })).toThrow(RangeError);
  });
});
