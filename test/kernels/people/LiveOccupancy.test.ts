import { describe, expect, it } from "vitest";
import type { Signal } from "../../../src/codec/Signal.ts";
import { EventTimeEngine } from "../../../src/kernels/sessions/EventTimeEngine.ts";
import { LiveOccupancy, type LiveOccupancyInterval, type LiveOccupancyOptions } from "../../../src/kernels/people/LiveOccupancy.ts";
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import type { OccupancyInterval } from "../../../src/kernels/people/PeopleEstimate.ts";
import { HOUR, MIN, sig } from "../fixtures.ts";

const UTC = "UTC";
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 16); // a Monday, 00:00 UTC
const SHOPPER = "f0:18:98:00:00:01";
const CLERK = "f0:18:98:00:00:02";
const PRINTER = "f0:18:98:00:00:03";

/** A device heard every `everyMs` from `from` to `to` (inclusive), at an inside RSSI. */
function present(device: string, from: number, to: number, everyMs = 30_000, rssi = -50): Signal[] {
  const out: Signal[] = [];
  // A person's phone probes when woken, not on a timer (a timer is equipment: isPeriodicProber):
  // gaps 0.5–1.5 × everyMs, from a fixed sequence.
  let k = 0;
  for (let t = from; t <= to; t += Math.round(everyMs * (0.5 + ((k++ * 0.618034) % 1)))) out.push(sig(t, device, rssi));
  return out;
}

/** Runs signals (any order within the lateness) through an engine with a LiveOccupancy; each interval with the newest time pushed when it came out. */
function run(signals: readonly Signal[], options: LiveOccupancyOptions = {}, lateness = MIN): { interval: OccupancyInterval; pushed: number }[] {
  const out: { interval: OccupancyInterval; pushed: number }[] = [];
  let pushed = Number.NEGATIVE_INFINITY;
  const live = new LiveOccupancy({ timeZone: UTC, classify: { visitorRssi: -65 }, ...options }, { emit: (interval) => out.push({ interval, pushed }) });
  const engine = new EventTimeEngine({ allowedLatenessMs: lateness, proximity: false }, { emit: () => {} }, [live]);
  for (const s of signals) {
    pushed = Math.max(pushed, s.time);
    engine.push(s);
  }
  pushed = Number.POSITIVE_INFINITY;
  engine.flush();
  return out;
}

const byTime = (a: Signal, b: Signal) => a.time - b.time;

describe("LiveOccupancy", () => {
  it("emits every interval once and in order, from the first signal's interval to the last one's, each once the watermark passed its end", () => {
    const signals = [...present(SHOPPER, T0 + 11 * HOUR + 5 * MIN, T0 + 11 * HOUR + 50 * MIN), sig(T0 + 13 * HOUR + 7 * MIN, PRINTER, -90)].sort(byTime);
    const out = run(signals);
    const intervals = out.map((o) => o.interval);
    expect(intervals[0]!.start).toBe(T0 + 11 * HOUR);
    expect(intervals.at(-1)!.end).toBe(T0 + 13 * HOUR + 15 * MIN);
    for (let i = 1; i < intervals.length; i++) expect(intervals[i]!.start).toBe(intervals[i - 1]!.end);
    expect(intervals.every((o) => o.end - o.start === 15 * MIN)).toBe(true);
    // Emitted while the input went on: once the watermark (newest − 1 min lateness) passed the end.
    for (const { interval, pushed } of out.slice(0, -1)) expect(pushed - MIN).toBeGreaterThanOrEqual(interval.end);
    expect(out.at(-1)!.pushed).toBe(Number.POSITIVE_INFINITY);
  });

  it("counts an identity-known shopper inside exactly while present, and no one before or after", () => {
    const out = run(present(SHOPPER, T0 + 11 * HOUR, T0 + 11 * HOUR + 30 * MIN).concat(sig(T0 + 12 * HOUR + 20 * MIN, PRINTER, -90))).map((o) => o.interval);
    const inside = (h: number, m: number) => out.find((o) => o.start === T0 + h * HOUR + m * MIN)!.inside;
    expect(inside(11, 0)).toBeCloseTo(1, 1);
    expect(inside(11, 15)).toBeCloseTo(1, 1);
    expect(inside(11, 30)).toBeLessThan(0.05); // half a burst gap past the last burst
    expect(inside(11, 45)).toBe(0);
    expect(inside(12, 0)).toBe(0);
  });

  it("takes a device inside while the shop was closed for staff or equipment at once, not a shopper inside", () => {
    // Opening hours 10–22: a clerk from 9:30, a printer all night; a shopper 11:00–11:40, and a
    // second one who walked past outside at 9:00 (heard weakly) and came in at 11:00.
    const NEIGHBOUR = "f0:18:98:00:00:05";
    const signals = [
      ...present(CLERK, T0 + 9 * HOUR + 30 * MIN, T0 + 13 * HOUR),
      ...present(PRINTER, T0, T0 + 13 * HOUR, 60_000),
      ...present(SHOPPER, T0 + 11 * HOUR, T0 + 11 * HOUR + 40 * MIN),
      ...present(NEIGHBOUR, T0 + 9 * HOUR, T0 + 9 * HOUR + 10 * MIN, 30_000, -85),
      ...present(NEIGHBOUR, T0 + 11 * HOUR, T0 + 11 * HOUR + 40 * MIN),
    ].sort(byTime);
    const out = run(signals).map((o) => o.interval);
    const at = (h: number, m = 0) => out.find((o) => o.start === T0 + h * HOUR + m * MIN)!;
    expect(at(3).inside).toBe(0); // the printer at night
    expect(at(10, 15).inside).toBe(0); // the clerk and the printer after opening
    expect(at(11, 15).inside).toBeCloseTo(2, 1); // the two shoppers: walking past outside before opening is no shift
  });

  it("remembers the day's staff for the next days: a second-shift clerk counts as a shopper only on the first day", () => {
    // A clerk 14:00–21:30 (7.5 h: staff by presence, 0.4 × 12 h = 4.8 h, but only from 18:48), two days running.
    const signals = [...present(CLERK, T0 + 14 * HOUR, T0 + 21 * HOUR + 30 * MIN, MIN), ...present(CLERK, T0 + DAY + 14 * HOUR, T0 + DAY + 21 * HOUR + 30 * MIN, MIN)];
    const out = run(signals).map((o) => o.interval);
    const at = (t: number) => out.find((o) => o.start === t)!.inside;
    expect(at(T0 + 15 * HOUR)).toBeCloseTo(1, 1); // day 1: not known to be staff yet
    expect(at(T0 + 19 * HOUR)).toBe(0); // present 4.8 h by then
    expect(at(T0 + DAY + 15 * HOUR)).toBe(0); // day 2: remembered
  });

  it("gives a finite `inside` with finite bounds from the yardstick while only rotating phones were heard inside", () => {
    // Rotating phones only: a new randomized MAC at every burst (about every 15 s, irregular,
    // 11:00–11:30), nothing identity-known, so no visit could give a burst rate — the yardstick
    // needs none.
    const signals: Signal[] = [];
    for (let i = 0; i < 120; i++) {
      const mac = `12:00:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`;
      signals.push(sig(T0 + 11 * HOUR + i * 15_000 + ((i * 7_919) % 14_000), mac, -50, { randomized: true, local: true }));
    }
    signals.push(sig(T0 + 12 * HOUR, PRINTER, -90));
    // Every person's bursts heard 4 times a minute, all alike, everywhere: 60 bursts in a
    // quarter-hour are 60 ÷ (4 × 15) = 1 person, ×/÷ e^(z/√60) (burst counting alone).
    const exact = run(signals, { prior: { burstsPerMinute: 4, personCv: 0, logVariance: 0 } });
    const at = (m: number) => exact.find((o) => o.interval.start === T0 + 11 * HOUR + m * MIN)!;
    const spread = Math.exp(normalQuantile(0.95, 0, 1) / Math.sqrt(60));
    for (const m of [0, 15]) {
      const { interval } = at(m);
      const { today } = interval as LiveOccupancyInterval;
      expect([interval.insideBursts, interval.knownInside, interval.calibration]).toEqual([60, 0, null]);
      expect(interval.inside).toBeCloseTo(1, 10);
      expect(interval.insideLow).toBeCloseTo(1 / spread, 10);
      expect(interval.insideHigh).toBeCloseTo(spread, 10);
      expect([today.burstsPerMinute, today.calibration]).toEqual([4, null]);
    }
    // Nothing heard inside 11:30–11:45: no one for sure, but up to ln 20 ÷ (4 × 15) persons whose
    // phones slept (each silent a quarter-hour with probability e^(−60)).
    const quiet = at(30).interval;
    expect([quiet.insideBursts, quiet.inside, quiet.insideLow]).toEqual([0, 0, 0]);
    expect(quiet.insideHigh).toBeCloseTo(Math.log(20) / 60, 8);

    // As installed: never NaN, finite bounds around it.
    for (const { interval } of run(signals)) {
      expect(Number.isFinite(interval.inside)).toBe(true);
      expect(Number.isFinite(interval.insideHigh)).toBe(true);
      expect(interval.insideLow).toBeLessThanOrEqual(interval.inside);
      expect(interval.insideHigh).toBeGreaterThan(interval.inside);
      if (interval.insideBursts > 0) expect(interval.insideLow).toBeGreaterThan(0);
    }
  });

  it("takes a phone on a timer, a new MAC at every burst, for one phone it knows, not for its bursts' persons", () => {
    // Every 15.000 s, 11:00–11:30, a new randomized MAC each time: counted by bursts at 1.44 a
    // minute per person it would be nearly three persons.
    const signals: Signal[] = [];
    for (let i = 0; i < 120; i++) signals.push(sig(T0 + 11 * HOUR + i * 15_000, `12:00:00:01:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`, -50, { randomized: true, local: true }));
    signals.push(sig(T0 + 12 * HOUR, PRINTER, -90));
    const live = run(signals);
    for (const m of [0, 15]) {
      const { interval } = live.find((o) => o.interval.start === T0 + 11 * HOUR + m * MIN)!;
      expect(interval.insideBursts).toBe(0);
      // Present from half a period before its first burst to half one after its last.
      expect(interval.knownInside).toBeCloseTo(1, 1);
      expect(interval.inside).toBeCloseTo(interval.knownInside, 10);
    }
  });

  it("gives the same intervals for any arrival order within the allowed lateness", () => {
    const signals = [
      ...present(SHOPPER, T0 + 11 * HOUR, T0 + 11 * HOUR + 40 * MIN, 20_000),
      ...present(CLERK, T0 + 9 * HOUR, T0 + 12 * HOUR, 45_000),
      ...present("f0:18:98:00:00:04", T0 + 11 * HOUR + 10 * MIN, T0 + 11 * HOUR + 25 * MIN, 10_000, -80),
    ].sort(byTime);
    // Each record delayed by up to the lateness, by a fixed pseudo-random pattern.
    const shuffled = signals
      .map((s, i) => ({ s, key: s.time + ((i * 7919) % 60) * 1000 }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.s);
    expect(run(shuffled).map((o) => o.interval)).toEqual(run(signals).map((o) => o.interval));
  });

  it("keeps each shop apart: two shops interleaved give each what it gives alone", () => {
    const shopA = [...present(SHOPPER, T0 + 11 * HOUR, T0 + 11 * HOUR + 40 * MIN), ...present(CLERK, T0 + 9 * HOUR, T0 + 12 * HOUR, 45_000)].sort(byTime);
    // Shop 2 runs an hour later, with its own shopper.
    const shopB = present("f0:18:98:00:00:06", T0 + 12 * HOUR, T0 + 12 * HOUR + 50 * MIN, 20_000).map((x) => ({ ...x, shopId: 2 }));
    const both = [...shopA, ...shopB].sort(byTime);
    const together = run(both).map((o) => o.interval);
    expect(together.filter((o) => o.shopId === 1)).toEqual(run(shopA).map((o) => o.interval));
    expect(together.filter((o) => o.shopId === 2)).toEqual(run(shopB).map((o) => o.interval));
    expect(together.find((o) => o.shopId === 2 && o.start === T0 + 12 * HOUR + 15 * MIN)!.inside).toBeCloseTo(1, 1);
  });

  it("validates its options", () => {
    expect(() => new LiveOccupancy({ intervalMs: 1 }, { emit: () => {} })).toThrow(RangeError);
    expect(() => new LiveOccupancy({ classify: { staffShare: 2 } }, { emit: () => {} })).toThrow(RangeError);
    expect(() => new LiveOccupancy(null as never, { emit: () => {} })).toThrow(TypeError);
    expect(() => new LiveOccupancy({}, {} as never)).toThrow(TypeError);
  });
});
