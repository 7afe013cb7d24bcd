import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { SessionTracker, sessionTrackerOptions, type SessionTrackerOptions } from "../../src/kernels/SessionTracker.ts";
import type { Session } from "../../src/kernels/Session.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { MIN, sig } from "./fixtures.ts";

function run(signals: readonly Signal[], options: SessionTrackerOptions = {}, flush = true) {
  const sessions: Session[] = [];
  const late: Signal[] = [];
  const tracker = new SessionTracker(options, { session: (s) => sessions.push(s), late: (s) => late.push(s) });
  for (const s of signals) tracker.push(s);
  if (flush) tracker.flush();
  return { sessions, late, tracker };
}

describe("SessionTracker", () => {
  it("joins signals no more than gapMs apart (inclusive) and measures dwell as last − first", () => {
    const { sessions } = run([sig(0), sig(5 * MIN), sig(10 * MIN), sig(15 * MIN + 1)], { gapMs: 5 * MIN });
    expect(sessions.map((s) => [s.start, s.end, s.dwellMs, s.signalCount])).toEqual([
      [0, 10 * MIN, 10 * MIN, 3],
      [15 * MIN + 1, 15 * MIN + 1, 0, 1],
    ]);
  });

  it("emits a session only once the watermark passes end + gap", () => {
    const { sessions, tracker } = run([sig(0), sig(5 * MIN), sig(6 * MIN, "bb:00:00:00:00:02")], {
      gapMs: 5 * MIN,
      allowedLatenessMs: 0,
    }, false);
    expect(sessions).toHaveLength(0);
    // watermark = 10 min = end + gap: not passed yet.
    tracker.push(sig(10 * MIN, "cc:00:00:00:00:03"));
    expect(sessions).toHaveLength(0);
    tracker.push(sig(10 * MIN + 1, "cc:00:00:00:00:03"));
    expect(sessions.map((s) => s.device)).toEqual(["aa:00:00:00:00:01"]);
    expect(sessions[0]!.watermark).toBe(10 * MIN + 1);
    expect(tracker.stats.openSessions).toBe(2); // b (ends 6 min) and c
  });

  it("merges two sessions when a signal arriving within the lateness bridges them", () => {
    const { sessions, late } = run([sig(0), sig(8 * MIN), sig(4 * MIN)], { gapMs: 5 * MIN, allowedLatenessMs: 10 * MIN });
    expect(late).toHaveLength(0);
    expect(sessions.map((s) => [s.start, s.end, s.signalCount])).toEqual([[0, 8 * MIN, 3]]);
  });

  it("sends signals behind the watermark to the late channel and changes nothing", () => {
    const { sessions, late, tracker } = run([sig(0), sig(20 * MIN), sig(4 * MIN)], { gapMs: 5 * MIN, allowedLatenessMs: MIN });
    expect(late.map((s) => s.time)).toEqual([4 * MIN]);
    expect(sessions.map((s) => [s.start, s.end])).toEqual([
      [0, 0],
      [20 * MIN, 20 * MIN],
    ]);
    expect(tracker.stats).toMatchObject({ signals: 3, late: 1, sessions: 2, openSessions: 0 });
  });

  it("keeps one watermark per shop", () => {
    const { late, sessions } = run(
      [sig(60 * MIN, undefined, -60, { shopId: 1 }), sig(0, undefined, -60, { shopId: 2 }), sig(MIN, undefined, -60, { shopId: 2 })],
      { allowedLatenessMs: 0 },
    );
    expect(late).toHaveLength(0);
    expect(sessions.map((s) => [s.shopId, s.signalCount])).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it("reports per-sensor peaks and the sensor where the smoothed peak was reached", () => {
    const a = "b8:27:eb:00:00:01";
    const b = "b8:27:eb:00:00:02";
    const { sessions } = run([
      sig(0, undefined, -80, { sensor: a }),
      sig(1000, undefined, -55, { sensor: b }),
      sig(60_000, undefined, -70, { sensor: a }),
      sig(61_000, undefined, -57, { sensor: b }),
    ]);
    const [s] = sessions;
    expect(s!.peakRssi).toBe(-55);
    expect(s!.nearestSensor).toBe(b);
    expect(s!.sensors.map((x) => [x.sensor, x.signalCount, x.peakRssi])).toEqual([
      [a, 2, -70],
      [b, 2, -55],
    ]);
    // Smoothed values are convex combinations of readings: never above the raw peak.
    expect(s!.peakSmoothedRssi).toBeLessThanOrEqual(-55);
    expect(s!.peakSmoothedRssi).toBeGreaterThan(-57.01);
  });

  it("forgets devices once their sessions close (memory follows active devices)", () => {
    const signals: Signal[] = [];
    for (let i = 0; i < 2000; i++) signals.push(sig(i * MIN, `aa:00:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`));
    const { tracker } = run(signals, { gapMs: 5 * MIN, allowedLatenessMs: 0 }, false);
    // Devices one minute apart, each session closes 5 min after its only signal.
    expect(tracker.stats.openSessions).toBeLessThanOrEqual(6);
    expect(tracker.stats.buffered).toBeLessThanOrEqual(1);
  });

  it("reports `complete`: every session starting before it has been emitted", () => {
    // A long session (device a) stays open while short ones (b) close: complete stays at a's start.
    const signals: Signal[] = [];
    for (let t = 0; t <= 60 * MIN; t += MIN) signals.push(sig(t, "aa:00:00:00:00:01"));
    signals.push(sig(2 * MIN, "bb:00:00:00:00:02"));
    signals.sort((x, y) => x.time - y.time);
    const { sessions } = run(signals, { gapMs: 5 * MIN, allowedLatenessMs: 0 });
    expect(sessions.map((s) => [s.device, s.complete])).toEqual([
      ["bb:00:00:00:00:02", 0],
      ["aa:00:00:00:00:01", Number.POSITIVE_INFINITY],
    ]);
  });

  it("shows each shop's released signals to sink.released, in canonical order, before applying them", () => {
    const seen: [number, number[], number][] = [];
    const applied: number[] = [];
    const tracker = new SessionTracker(
      { gapMs: 5 * MIN, allowedLatenessMs: MIN },
      {
        session: (s) => applied.push(s.end),
        released: (shopId, signals, count, watermark) => seen.push([shopId, signals.slice(0, count).map((s) => s.time), watermark]),
      },
    );
    for (const t of [0, 2 * MIN, MIN, 10 * MIN]) tracker.push(sig(t));
    expect(seen).toEqual([
      [1, [], -MIN],
      [1, [0], MIN],
      [1, [MIN, 2 * MIN], 9 * MIN],
    ]);
    // The session 0 … 2 min closed once the watermark passed 7 min, after its last signals were shown.
    expect(applied).toEqual([2 * MIN]);
    tracker.flush();
    expect(seen.at(-1)).toEqual([1, [10 * MIN], Infinity]);
    expect(applied).toEqual([2 * MIN, 10 * MIN]);
    expect(() => new SessionTracker({}, { session: () => {}, released: 1 as never })).toThrow(TypeError);
  });

  it("validates options eagerly", () => {
    expect(() => sessionTrackerOptions({ gapMs: -1 })).toThrow(RangeError);
    expect(() => sessionTrackerOptions({ allowedLatenessMs: Number.NaN })).toThrow(RangeError);
    // @ts-expect-error wrong type on purpose
    expect(() => sessionTrackerOptions({ gapMs: "5" })).toThrow(TypeError);
    // @ts-expect-error missing sink on purpose
    expect(() => new SessionTracker({}, {})).toThrow(TypeError);
  });

  it("gives the same sessions for any arrival order within the allowed lateness (property)", () => {
    const lateness = 3 * MIN;
    const arbSignal = fc.record({
      t: fc.integer({ min: 0, max: 120 }).map((m) => m * 20_000),
      d: fc.integer({ min: 0, max: 4 }),
      sensor: fc.integer({ min: 0, max: 1 }),
      rssi: fc.integer({ min: -95, max: -40 }),
    });
    fc.assert(
      fc.property(fc.array(arbSignal, { minLength: 1, maxLength: 80 }), fc.array(fc.integer({ min: 0, max: lateness }), { minLength: 80, maxLength: 80 }), (specs, delays) => {
        const signals = specs.map((x) => sig(x.t, `aa:00:00:00:00:0${x.d}`, x.rssi, { sensor: `b8:27:eb:00:00:0${x.sensor}` }));
        signals.sort((a, b) => a.time - b.time);
        // Arrival = event time + a delay ≤ lateness; stable sort keeps equal arrivals in any order.
        const shuffled = signals
          .map((s, i) => ({ s, arrival: s.time + delays[i % delays.length]! }))
          .sort((a, b) => a.arrival - b.arrival)
          .map((x) => x.s);
        const canon = (list: Session[]) =>
          list.map((s) => JSON.stringify({ ...s, watermark: 0, complete: 0 })).sort();
        const a = run(signals, { allowedLatenessMs: lateness });
        const b = run(shuffled, { allowedLatenessMs: lateness });
        expect(b.late).toHaveLength(0);
        expect(canon(b.sessions)).toEqual(canon(a.sessions));
      }),
      { numRuns: 200 },
    );
  });
});
