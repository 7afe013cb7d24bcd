import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Signal } from "../../src/codec/Signal.ts";
import {
  EventTimeEngine,
  defaultEventTimeEngine,
  eventTimeEngineOptions,
  type EngineAccumulator,
  type EngineSink,
  type EventTimeEngineOptions,
} from "../../src/kernels/EventTimeEngine.ts";
import type { Session } from "../../src/kernels/Session.ts";
import type { ProximitySlice } from "../../src/kernels/SessionProximity.ts";
import { distanceToRssi, pathLossOptions, rssiToDistance } from "../../src/kernels/pathLoss.ts";
import { proximityZone } from "../../src/kernels/proximityZone.ts";
import { MIN, arrivalOrder, sig } from "./fixtures.ts";

const A = "b8:27:eb:00:00:0a";
const B = "b8:27:eb:00:00:0b";
const C = "b8:27:eb:00:00:0c";
const PHONE = "f0:18:98:12:34:56";
const OTHER = "aa:aa:aa:aa:aa:aa";
const T0 = 1_763_600_000_000; // a multiple of 10 s
// One reading per slice, unsmoothed: each slice's zone is the one its RSSI says.
const exact = { method: "trimmedMean", size: 1, trim: 0 } as const;

/** A proximity test signal: shop 101, given sensor and RSSI. */
function ps(time: number, sensor: string, rssi: number, device = PHONE, shopId = 101): Signal {
  return { shopId, rts: "0000000000000000", time, device, rssi, sensor, local: false, randomized: false, vendor: undefined };
}

function run(signals: readonly Signal[], options: EventTimeEngineOptions = {}, { flush = true, slices: withSlices = true } = {}) {
  const sessions: Session[] = [];
  const late: [Signal, number][] = [];
  const slices: ProximitySlice[] = [];
  const sink: EngineSink = { emit: (s) => sessions.push(s), late: (s, w) => late.push([s, w]) };
  if (withSlices && options.proximity !== false) sink.slice = (s) => slices.push(s);
  const engine = new EventTimeEngine(options, sink);
  for (const s of signals) engine.push(s);
  if (flush) engine.flush();
  return { sessions, late: late.map(([s]) => s), lateWithWatermark: late, slices, engine };
}

const zoneTotal = (s: Session) => s.proximity!.zoneMs.immediate + s.proximity!.zoneMs.near + s.proximity!.zoneMs.far;
const byStart = <T extends { start: number; device: string; shopId: number }>(list: readonly T[]): T[] =>
  [...list].sort((a, b) => a.shopId - b.shopId || a.start - b.start || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0));
// Progress fields describe arrival, not content.
const content = (s: Session) => ({ ...s, watermark: 0, complete: 0 });

describe("EventTimeEngine: sessions", () => {
  it("joins signals no more than gapMs apart (inclusive) and measures dwell as last − first", () => {
    const { sessions } = run([sig(0), sig(5 * MIN), sig(10 * MIN), sig(15 * MIN + 1)], { gapMs: 5 * MIN });
    expect(sessions.map((s) => [s.start, s.end, s.dwellMs, s.signalCount])).toEqual([
      [0, 10 * MIN, 10 * MIN, 3],
      [15 * MIN + 1, 15 * MIN + 1, 0, 1],
    ]);
  });

  it("emits a session only once the watermark passes end + gap", () => {
    const { sessions, engine } = run([sig(0), sig(5 * MIN), sig(6 * MIN, "bb:00:00:00:00:02")], { gapMs: 5 * MIN, allowedLatenessMs: 0 }, { flush: false });
    expect(sessions).toHaveLength(0);
    // watermark = 10 min = end + gap: not passed yet.
    engine.push(sig(10 * MIN, "cc:00:00:00:00:03"));
    expect(sessions).toHaveLength(0);
    engine.push(sig(10 * MIN + 1, "cc:00:00:00:00:03"));
    expect(sessions.map((s) => s.device)).toEqual(["aa:00:00:00:00:01"]);
    expect(sessions[0]!.watermark).toBe(10 * MIN + 1);
    expect(engine.watermark(1)).toBe(10 * MIN + 1);
    expect(engine.stats.openSessions).toBe(2); // b (ends 6 min) and c
  });

  it("merges two runs when a signal arriving within the lateness bridges them", () => {
    const { sessions, late } = run([sig(0), sig(8 * MIN), sig(4 * MIN)], { gapMs: 5 * MIN, allowedLatenessMs: 10 * MIN });
    expect(late).toHaveLength(0);
    expect(sessions.map((s) => [s.start, s.end, s.signalCount])).toEqual([[0, 8 * MIN, 3]]);
    // Without the bridge they are two sessions.
    expect(run([sig(0), sig(8 * MIN)], { gapMs: 5 * MIN, allowedLatenessMs: 10 * MIN }).sessions).toHaveLength(2);
  });

  it("sends signals behind the watermark to the late channel, with the watermark, and changes nothing", () => {
    const { sessions, late, lateWithWatermark, engine } = run([sig(0), sig(20 * MIN), sig(4 * MIN)], { gapMs: 5 * MIN, allowedLatenessMs: MIN });
    expect(late.map((s) => s.time)).toEqual([4 * MIN]);
    expect(lateWithWatermark[0]![1]).toBe(19 * MIN);
    expect(sessions.map((s) => [s.start, s.end])).toEqual([
      [0, 0],
      [20 * MIN, 20 * MIN],
    ]);
    expect(engine.stats).toEqual({ signals: 3, late: 1, maxLateMs: 16 * MIN, ahead: 0, sessions: 2, openSessions: 0, buffered: 0 });
  });

  it("reports how far behind the newest time the latest late signal was: that lateness takes them all", () => {
    const input = [sig(0), sig(20 * MIN), sig(4 * MIN), sig(21 * MIN), sig(10 * MIN), sig(20.5 * MIN)];
    const strict = run(input, { allowedLatenessMs: MIN });
    expect(strict.late.map((s) => s.time)).toEqual([4 * MIN, 10 * MIN]);
    // 4 min arrived when the newest was 20 min, 10 min when it was 21 min.
    expect(strict.engine.stats.maxLateMs).toBe(16 * MIN);
    // Allowing exactly that much keeps every signal, and the same input then has nothing late.
    const kept = run(input, { allowedLatenessMs: strict.engine.stats.maxLateMs });
    expect(kept.late).toHaveLength(0);
    expect(kept.engine.stats.maxLateMs).toBe(0);
  });

  describe("a signal that leaps more than maxLeapMs ahead", () => {
    const DAY = 24 * 60 * MIN;
    // A shop's morning: a phone heard by sensors A and B every 30 s.
    const steady = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => [sig(from + i * 30_000, PHONE, -60, { sensor: A }), sig(from + i * 30_000 + 5, PHONE, -62, { sensor: B })]).flat();

    it("is dropped when the shop's other records go on at its time: one clock jumped, nothing else is lost", () => {
      const input = steady(0, 40);
      const jumped = sig(400 * DAY, PHONE, -60, { sensor: A });
      const withJump = [...input.slice(0, 21), jumped, ...input.slice(21)];
      const a = run(withJump);
      const b = run(input);
      expect(a.late).toHaveLength(0);
      expect(a.engine.stats.ahead).toBe(1);
      expect(a.sessions).toEqual(b.sessions);
      // Without the guard the one record carries the watermark a year ahead and the rest is late.
      const unguarded = run(withJump, { maxLeapMs: Number.POSITIVE_INFINITY });
      expect(unguarded.late.length).toBe(input.length - 21);
    });

    it("is taken with what follows when another sensor leaps as far: the shop's time moved on", () => {
      const input = [...steady(0, 10), ...steady(3 * DAY, 10)];
      const r = run(input);
      expect(r.engine.stats.ahead).toBe(0);
      expect(r.late).toHaveLength(0);
      expect(r.sessions.map((x) => [x.start, x.signalCount])).toEqual([
        [0, 20],
        [3 * DAY, 20],
      ]);
    });

    it("is taken at once on a shop with one sensor, and when the input ends while it is held", () => {
      const one = [sig(0, PHONE, -60, { sensor: A }), sig(2 * DAY, PHONE, -60, { sensor: A }), sig(2 * DAY + 1000, PHONE, -60, { sensor: A })];
      expect(run(one).sessions).toHaveLength(2);
      const last = [...steady(0, 5), sig(5 * DAY, PHONE, -60, { sensor: A })];
      const r = run(last);
      expect(r.engine.stats.ahead).toBe(0);
      expect(r.sessions.map((x) => x.start)).toEqual([0, 5 * DAY]);
    });
  });

  it("accepts a signal exactly at the watermark (not late) and counts a late one without a late sink", () => {
    const engine = new EventTimeEngine({ allowedLatenessMs: MIN }, { emit: () => {} });
    engine.push(sig(10 * MIN));
    engine.push(sig(9 * MIN)); // = watermark
    engine.push(sig(9 * MIN - 1)); // behind it
    expect(engine.stats).toMatchObject({ signals: 3, late: 1, buffered: 2 });
  });

  it("keeps one watermark per shop, so shops fed one after another are not late", () => {
    const engine = new EventTimeEngine({ allowedLatenessMs: 0 }, { emit: () => {} });
    expect(engine.watermark(1)).toBe(Number.NEGATIVE_INFINITY);
    const { late, sessions } = run(
      [sig(60 * MIN, undefined, -60, { shopId: 1 }), sig(0, undefined, -60, { shopId: 2 }), sig(MIN, undefined, -60, { shopId: 2 })],
      { allowedLatenessMs: 0 },
    );
    expect(late).toHaveLength(0);
    expect(sessions.map((s) => [s.shopId, s.signalCount])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    const both = run([sig(60 * MIN, undefined, -60, { shopId: 1 }), sig(0, undefined, -60, { shopId: 2 })], { allowedLatenessMs: 0 }, { flush: false });
    expect([both.engine.watermark(1), both.engine.watermark(2), both.engine.watermark(3)]).toEqual([60 * MIN, 0, Number.NEGATIVE_INFINITY]);
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
    expect(s!.sensors.map((x) => [x.sensor, x.signalCount, x.first, x.last, x.peakRssi])).toEqual([
      [a, 2, 0, 60_000, -70],
      [b, 2, 1000, 61_000, -55],
    ]);
    // Readings within a second are one probe: 0 and 1 s, then 60 and 61 s.
    expect(s!.probeCount).toBe(2);
    expect(s!.estimatedDwellMs).toBe(61_000 * 2);
    // Smoothed values are convex combinations of readings: never above the raw peak.
    expect(s!.peakSmoothedRssi).toBeLessThanOrEqual(-55);
    expect(s!.peakSmoothedRssi).toBeGreaterThan(-57.01);
    expect(s!.sensors[1]!.peakSmoothedRssi).toBe(s!.peakSmoothedRssi);
  });

  it("smooths once per device × sensor: the trimmed mean's window shows in the peaks", () => {
    const signals = [-80, -40, -80, -80].map((rssi, i) => sig(i * 10_000, undefined, rssi));
    const raw = run(signals, { smoothing: { method: "trimmedMean", size: 1, trim: 0 } }).sessions[0]!;
    expect(raw.peakSmoothedRssi).toBe(-40);
    const mean3 = run(signals, { smoothing: { method: "trimmedMean", size: 3, trim: 0 } }).sessions[0]!;
    // Windows: [-80], [-80, -40], [-80, -40, -80], [-40, -80, -80]: the best is -60.
    expect(mean3.peakSmoothedRssi).toBeCloseTo(-60, 9);
    const kalman = run(signals).sessions[0]!;
    expect(kalman.peakRssi).toBe(-40);
    expect(kalman.peakSmoothedRssi).toBeLessThan(-40);
    expect(kalman.peakSmoothedRssi).toBeGreaterThan(-80);
    // Proximity uses the same smoothed series: its closest RSSI is that peak.
    expect(raw.proximity!.closestRssi).toBe(-40);
    expect(mean3.proximity!.closestRssi).toBeCloseTo(-60, 9);
    expect(kalman.proximity!.closestRssi).toBe(kalman.peakSmoothedRssi);
  });

  it("forgets devices once their sessions close (memory follows active devices)", () => {
    const signals: Signal[] = [];
    for (let i = 0; i < 2000; i++) signals.push(sig(i * MIN, `aa:00:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`));
    const { engine, sessions } = run(signals, { gapMs: 5 * MIN, allowedLatenessMs: 0 }, { flush: false });
    // Devices one minute apart, each session closes 5 min after its only signal.
    expect(engine.stats.openSessions).toBeLessThanOrEqual(6);
    expect(engine.stats.buffered).toBeLessThanOrEqual(1);
    expect(sessions.length + engine.stats.openSessions + engine.stats.buffered).toBe(2000);
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

  it("emits sessions in order of end, ties in canonical (device) order", () => {
    const { sessions } = run([sig(0, "cc:00:00:00:00:03"), sig(0, "aa:00:00:00:00:01"), sig(MIN, "bb:00:00:00:00:02"), sig(0, "bb:00:00:00:00:02")], {
      allowedLatenessMs: MIN,
    });
    expect(sessions.map((s) => [s.device, s.end])).toEqual([
      ["aa:00:00:00:00:01", 0],
      ["cc:00:00:00:00:03", 0],
      ["bb:00:00:00:00:02", MIN],
    ]);
  });

  it("flush: closes everything in end order per shop, and later input starts afresh with the watermarks kept", () => {
    const { sessions, lateWithWatermark, engine } = run([sig(0), sig(MIN, "bb:00:00:00:00:02"), sig(2 * MIN)], { allowedLatenessMs: 10 * MIN });
    expect(sessions.map((s) => [s.device, s.start, s.end, s.complete])).toEqual([
      ["bb:00:00:00:00:02", MIN, MIN, 0],
      ["aa:00:00:00:00:01", 0, 2 * MIN, Number.POSITIVE_INFINITY],
    ]);
    expect(engine.stats).toMatchObject({ openSessions: 0, buffered: 0 });
    // Flushed sessions carry the watermark the stream had reached (newest − lateness) …
    expect(sessions.map((s) => s.watermark)).toEqual([2 * MIN - 10 * MIN, 2 * MIN - 10 * MIN]);
    // … and then it is raised to the newest signal: nothing may reach back into what was closed.
    expect(engine.watermark(1)).toBe(2 * MIN);
    engine.push(sig(MIN + 30_000));
    expect(lateWithWatermark).toEqual([[sig(MIN + 30_000), 2 * MIN]]);
    engine.push(sig(3 * MIN));
    engine.flush();
    expect(sessions.at(-1)).toMatchObject({ start: 3 * MIN, end: 3 * MIN, signalCount: 1 });
    expect(engine.stats).toMatchObject({ signals: 5, late: 1, sessions: 3 });
    // A second flush with nothing new emits nothing.
    engine.flush();
    expect(engine.stats.sessions).toBe(3);
  });

  it("validates options and the sink eagerly", () => {
    expect(() => eventTimeEngineOptions({ gapMs: -1 })).toThrow(RangeError);
    expect(() => eventTimeEngineOptions({ allowedLatenessMs: Number.NaN })).toThrow(RangeError);
    // @ts-expect-error wrong type on purpose
    expect(() => eventTimeEngineOptions({ gapMs: "5" })).toThrow(TypeError);
    expect(() => eventTimeEngineOptions(null as never)).toThrow(TypeError);
    expect(() => eventTimeEngineOptions({ proximity: { sliceMs: 0 } })).toThrow(RangeError);
    expect(() => eventTimeEngineOptions({ proximity: { sliceMs: 10_000, sensorStaleMs: 5_000 } })).toThrow(RangeError);
    expect(() => eventTimeEngineOptions({ proximity: { timelineLimit: 1.5 } })).toThrow(RangeError);
    expect(() => eventTimeEngineOptions({ proximity: { zones: { immediateM: 3, nearM: 2 } } })).toThrow(RangeError);
    expect(() => eventTimeEngineOptions({ proximity: { calibration: { sensors: { [A]: { exponent: -1 } } } } })).toThrow(RangeError);
    expect(() => eventTimeEngineOptions({ proximity: 5 as never })).toThrow(TypeError);
    expect(() => eventTimeEngineOptions({ smoothing: { method: "median" } as never })).toThrow(TypeError);
    expect(() => eventTimeEngineOptions({ smoothing: { method: "kalman", measurementNoise: 0 } })).toThrow(RangeError);
    expect(() => eventTimeEngineOptions({ smoothing: { method: "trimmedMean", size: 0 } })).toThrow(RangeError);
    const d = eventTimeEngineOptions();
    expect([d.gapMs, d.allowedLatenessMs, d.smoothing.method]).toEqual([defaultEventTimeEngine.gapMs, defaultEventTimeEngine.allowedLatenessMs, "kalman"]);
    expect(d.proximity).toMatchObject({ sliceMs: 10_000, sensorStaleMs: 30_000, timelineLimit: 64 });
    expect(eventTimeEngineOptions({ proximity: false }).proximity).toBe(false);
    // @ts-expect-error missing sink on purpose
    expect(() => new EventTimeEngine({}, {})).toThrow(TypeError);
    expect(() => new EventTimeEngine({}, { emit: () => {}, late: 1 as never })).toThrow(TypeError);
    expect(() => new EventTimeEngine({}, { emit: () => {}, slice: 1 as never })).toThrow(TypeError);
    expect(() => new EventTimeEngine({}, { emit: () => {} }, {} as never)).toThrow(TypeError);
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
        // Arrival = event time + a delay ≤ lateness.
        const shuffled = signals
          .map((s, i) => ({ s, arrival: s.time + delays[i % delays.length]! }))
          .sort((a, b) => a.arrival - b.arrival)
          .map((x) => x.s);
        const a = run(signals, { allowedLatenessMs: lateness });
        const b = run(shuffled, { allowedLatenessMs: lateness });
        expect(b.late).toHaveLength(0);
        // Sessions with their proximity, and the slices, are the same; only progress fields differ.
        expect(byStart(b.sessions).map(content)).toEqual(byStart(a.sessions).map(content));
        expect(byStart(b.slices)).toEqual(byStart(a.slices));
      }),
      { numRuns: 100 },
    );
  });
});

describe("EventTimeEngine: progress fields (property)", () => {
  it("per shop: sessions come out in order of end; watermark and complete never go back; every session starting before `complete` is out", () => {
    const lateness = 2 * MIN;
    fc.assert(
      fc.property(
        fc.array(fc.record({ t: fc.integer({ min: 0, max: 240 }), d: fc.integer({ min: 0, max: 5 }), shop: fc.integer({ min: 1, max: 2 }) }), { minLength: 1, maxLength: 80 }),
        fc.array(fc.integer({ min: 0, max: lateness }), { minLength: 80, maxLength: 80 }),
        (specs, delays) => {
          const signals = specs.map((x) => sig(x.t * 15_000, `aa:00:00:00:00:0${x.d}`, -60, { shopId: x.shop })).sort((a, b) => a.time - b.time);
          const arrival = arrivalOrder(signals, delays);
          const { sessions } = run(arrival, { gapMs: 2 * MIN, allowedLatenessMs: lateness, proximity: false });
          for (const shopId of [1, 2]) {
            const own = sessions.filter((s) => s.shopId === shopId);
            own.forEach((s, i) => {
              if (i === 0) return;
              const prev = own[i - 1]!;
              expect(s.end).toBeGreaterThanOrEqual(prev.end);
              expect(s.watermark).toBeGreaterThanOrEqual(prev.watermark);
              expect(s.complete).toBeGreaterThanOrEqual(prev.complete);
            });
            own.forEach((s, i) => {
              // Whatever starts before s.complete was emitted by s (it or before).
              const after = own.slice(i + 1);
              expect(after.filter((x) => x.start < s.complete)).toEqual([]);
            });
            expect(own.at(-1)?.complete ?? Infinity).toBe(Infinity);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("EventTimeEngine: proximity per session", () => {
  it("estimates distance and zone per slice from smoothed RSSI, and makes them part of the session", () => {
    const rssi = distanceToRssi(2.5); // near, with the default model
    const { slices, sessions } = run([ps(T0, A, rssi), ps(T0 + 3_000, A, rssi), ps(T0 + 12_000, A, rssi)]);
    expect(slices.map((s) => [s.type, s.shopId, s.device, s.start, s.end, s.signals, s.sensors, s.zone])).toEqual([
      ["proximitySlice", 101, PHONE, T0, T0 + 10_000, 2, 1, "near"],
      ["proximitySlice", 101, PHONE, T0 + 10_000, T0 + 20_000, 1, 1, "near"],
    ]);
    expect(slices[0]?.distanceM).toBeCloseTo(2.5, 9);
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    const p = s.proximity!;
    expect([s.start, s.end, s.signalCount, p.slices, p.closestSensor, p.closestZone]).toEqual([T0, T0 + 12_000, 3, 2, A, "near"]);
    expect(p.zoneMs).toEqual({ immediate: 0, near: 12_000, far: 0 });
    expect(zoneTotal(s)).toBe(s.dwellMs);
    expect(p.zoneMsBySensor).toEqual([{ sensor: A, immediate: 0, near: 12_000, far: 0 }]);
    expect(p.timeline).toEqual([{ time: T0, sensor: A, zone: "near", distanceM: slices[0]!.distanceM }]);
    expect(p.timelineTruncated).toBe(false);
  });

  it("picks the nearest sensor per slice and records changes in the timeline", () => {
    const near = distanceToRssi(0.5);
    const mid = distanceToRssi(3);
    const far = distanceToRssi(9);
    const { slices, sessions } = run(
      [
        ps(T0, A, near),
        ps(T0, B, far),
        ps(T0 + 10_000, A, mid),
        ps(T0 + 10_000, B, far),
        ps(T0 + 20_000, A, far),
        ps(T0 + 20_000, B, near),
        ps(T0 + 30_000, B, near),
      ],
      { smoothing: exact },
    );
    expect(slices.map((s) => `${s.sensor === A ? "A" : "B"}:${s.zone}`)).toEqual(["A:immediate", "A:near", "B:immediate", "B:immediate"]);
    // In the last slice only B was heard, but A (heard 20 s before its end) still competes.
    expect(slices.map((s) => s.sensors)).toEqual([2, 2, 2, 2]);
    const p = sessions[0]!.proximity!;
    expect(p.timeline.map((e) => [e.time - T0, e.sensor === A ? "A" : "B", e.zone])).toEqual([
      [0, "A", "immediate"],
      [10_000, "A", "near"],
      [20_000, "B", "immediate"],
    ]);
    expect(p.zoneMs).toEqual({ immediate: 10_000 + 10_000, near: 10_000, far: 0 });
    expect(p.zoneMsBySensor).toEqual([
      { sensor: A, immediate: 10_000, near: 10_000, far: 0 },
      { sensor: B, immediate: 10_000, near: 0, far: 0 },
    ]);
    expect(p.closestDistanceM).toBeCloseTo(0.5, 9);
    expect(p.closestTime).toBe(T0); // the first of the equal approaches (strictly closer wins)
    expect(p.closestSensor).toBe(A);
    expect(p.closestRssi).toBe(near);
    expect(p.closestZone).toBe("immediate");
  });

  it("decides zones and the closest approach as the distances do, at the zones' bounds and between near-equal distances (property)", () => {
    // The engine orders slices by log-distance and raises a power only where the logs are too
    // close to tell: RSSIs a few ulps around a bound (1 and 4 m by default), and runs of
    // near-equal RSSIs, must still give each timeline entry the zone of its own distance and each
    // session the smallest of its slices' distances.
    const bounds = [distanceToRssi(1), distanceToRssi(4), distanceToRssi(2.5)];
    const rssiArb = fc.tuple(fc.constantFrom(...bounds), fc.integer({ min: -40, max: 40 })).map(([b, k]) => b + k * 4e-15 * Math.abs(b));
    fc.assert(
      fc.property(fc.array(fc.array(rssiArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), (devices) => {
        // One device per list, one reading per slice (unsmoothed): each slice's distance is its RSSI's.
        const signals = devices.flatMap((rssis, d) => rssis.map((rssi, i) => ps(T0 + i * 10_000, A, rssi, `f0:18:98:00:00:${d.toString(16).padStart(2, "0")}`)));
        const { sessions } = run(signals.sort((a, b) => a.time - b.time), { smoothing: exact, proximity: { timelineLimit: 100 } }, { slices: false });
        expect(sessions).toHaveLength(devices.length);
        for (const session of sessions) {
          const rssis = devices[Number.parseInt(session.device.slice(-2), 16)]!;
          const p = session.proximity!;
          const distances = rssis.map((r) => rssiToDistance(r));
          expect(p.closestDistanceM).toBe(Math.min(...distances));
          expect(p.closestZone).toBe(proximityZone(p.closestDistanceM));
          for (const entry of p.timeline) {
            expect(entry.distanceM).toBe(distances[(entry.time - T0) / 10_000]);
            expect(entry.zone).toBe(proximityZone(entry.distanceM));
          }
          // Every slice whose zone differs from the one before is in the timeline.
          const zones = distances.map((x) => proximityZone(x));
          expect(p.timeline.map((e) => e.zone)).toEqual(zones.filter((z, i) => i === 0 || z !== zones[i - 1]));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("charges each interval of a session's zone time to the sensor that was nearest", () => {
    // 0–20 s immediate at A, 20–30 s near at B, 30–35 s far at A (last signal at 35 s).
    const m = (metres: number) => distanceToRssi(metres);
    const { sessions } = run(
      [ps(T0, A, m(0.5)), ps(T0, B, m(9)), ps(T0 + 10_000, A, m(0.5)), ps(T0 + 10_000, B, m(9)), ps(T0 + 20_000, A, m(9)), ps(T0 + 20_000, B, m(2)), ps(T0 + 30_000, A, m(9)), ps(T0 + 30_000, B, m(12)), ps(T0 + 35_000, A, m(9))],
      { smoothing: exact },
    );
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.proximity!.zoneMsBySensor).toEqual([
      { sensor: A, immediate: 20_000, near: 0, far: 5_000 },
      { sensor: B, immediate: 0, near: 10_000, far: 0 },
    ]);
  });

  it("applies per-sensor calibration (any case, over the default) when choosing the nearest sensor", () => {
    // Same RSSI at both; B's model says phones are louder at 1 m there, so the device is farther from B.
    const calibration = { default: { rssiAt1m: -45, exponent: 2.5 }, sensors: { [B.toUpperCase()]: { rssiAt1m: -35 } } };
    const { slices, sessions } = run([ps(T0, A, -60), ps(T0, B, -60)], { proximity: { calibration } });
    expect(slices[0]?.sensor).toBe(A);
    expect(slices[0]?.distanceM).toBeCloseTo(rssiToDistance(-60, { rssiAt1m: -45, exponent: 2.5 }), 9);
    // With only B heard, its distance uses its own rssiAt1m and the default's exponent.
    const onlyB = run([ps(T0, B, -60)], { proximity: { calibration: { sensors: new Map([[B, { rssiAt1m: -35 }]]) } } });
    expect(onlyB.slices[0]?.distanceM).toBeCloseTo(rssiToDistance(-60, { rssiAt1m: -35, exponent: 2.7 }), 9);
    expect(sessions[0]!.proximity!.closestSensor).toBe(A);
  });

  it("ignores sensors that have not heard the device within sensorStaleMs", () => {
    const { slices } = run([ps(T0, B, -40), ps(T0 + 40_000, A, -70)], { smoothing: exact, proximity: { sensorStaleMs: 30_000 } });
    expect(slices.map((s) => [s.sensor, s.sensors])).toEqual([
      [B, 1],
      [A, 1],
    ]);
  });

  it("uses the zone bounds given", () => {
    const rssi = distanceToRssi(2.5);
    const { sessions } = run([ps(T0, A, rssi)], { proximity: { zones: { immediateM: 3, nearM: 5 } } });
    expect(sessions[0]!.proximity!.closestZone).toBe("immediate");
  });

  it("splits sessions at gapMs (inclusive joins) and resets smoothing", () => {
    const gapMs = 60_000;
    const { sessions } = run([ps(T0, A, -50), ps(T0 + gapMs, A, -50), ps(T0 + 2 * gapMs + 1, A, -80)], { gapMs });
    expect(sessions.map((s) => [s.start - T0, s.end - T0])).toEqual([
      [0, gapMs],
      [2 * gapMs + 1, 2 * gapMs + 1],
    ]);
    // Not pulled toward the previous session's -50.
    expect(sessions[1]!.proximity!.closestRssi).toBe(-80);
    expect(sessions[1]!.peakSmoothedRssi).toBe(-80);
  });

  it("finishes slices and sessions as the watermark passes, driven by other devices", () => {
    const slices: ProximitySlice[] = [];
    const sessions: Session[] = [];
    const engine = new EventTimeEngine({ gapMs: 60_000, allowedLatenessMs: 0 }, { emit: (s) => sessions.push(s), slice: (s) => slices.push(s) });
    engine.push(ps(T0 + 1_000, A, -50));
    expect(slices).toHaveLength(0);
    engine.push(ps(T0 + 10_000, A, -50, OTHER));
    expect(slices.map((s) => s.device)).toEqual([PHONE]);
    engine.push(ps(T0 + 70_000, A, -50, OTHER));
    expect(sessions.map((s) => s.device)).toEqual([PHONE]);
    expect(engine.stats.openSessions).toBe(1); // PHONE forgotten once its session was emitted
  });

  it("bounds the timeline and says so", () => {
    const signals: Signal[] = [];
    for (let i = 0; i < 10; i++) signals.push(ps(T0 + i * 10_000, i % 2 === 0 ? A : B, -50));
    const { sessions } = run(signals, { proximity: { timelineLimit: 3, sensorStaleMs: 10_000 } });
    const p = sessions[0]!.proximity!;
    expect(p.timeline.map((e) => e.sensor)).toEqual([A, B, A]);
    expect(p.timelineTruncated).toBe(true);
    expect(p.slices).toBe(10);
    expect(zoneTotal(sessions[0]!)).toBe(sessions[0]!.dwellMs);
    const none = run(signals, { proximity: { timelineLimit: 0, sensorStaleMs: 10_000 } }).sessions[0]!.proximity!;
    expect([none.timeline.length, none.timelineTruncated]).toEqual([0, true]);
    const roomy = run(signals, { proximity: { timelineLimit: 10, sensorStaleMs: 10_000 } }).sessions[0]!.proximity!;
    expect([roomy.timeline.length, roomy.timelineTruncated]).toEqual([10, false]);
  });

  it("proximity: false leaves Session.proximity undefined and changes nothing else", () => {
    const signals = [ps(T0, A, -50), ps(T0 + 5_000, B, -60), ps(T0 + 30_000, A, -55), ps(T0 + 900_000, A, -70)];
    const off = run(signals, { proximity: false });
    const on = run(signals);
    expect(off.sessions.map((s) => s.proximity)).toEqual([undefined, undefined]);
    expect(off.slices).toEqual([]);
    expect(on.sessions.every((s) => s.proximity !== undefined)).toBe(true);
    expect(off.sessions).toEqual(on.sessions.map((s) => ({ ...s, proximity: undefined })));
  });

  it("a slice sink needs proximity on", () => {
    expect(() => new EventTimeEngine({ proximity: false }, { emit: () => {}, slice: () => {} })).toThrow(TypeError);
    expect(() => new EventTimeEngine({ proximity: false }, { emit: () => {} })).not.toThrow();
  });

  const stream = fc
    .array(
      fc.record({
        dt: fc.integer({ min: 0, max: 40_000 }),
        sensor: fc.constantFrom(A, B, C),
        device: fc.constantFrom(PHONE, "02:11:22:33:44:55", "aa:bb:cc:dd:ee:ff"),
        rssi: fc.integer({ min: -95, max: -30 }),
      }),
      { minLength: 1, maxLength: 60 },
    )
    .map((rows) => {
      let t = T0;
      return rows.map((r) => ps((t += r.dt), r.sensor, r.rssi, r.device));
    });

  it("property: zone time sums to dwell (overall and per sensor), slices are the session's, closest ≤ every slice", () => {
    fc.assert(
      fc.property(stream, (signals) => {
        const { slices, sessions } = run(signals, { gapMs: 60_000 });
        for (const s of sessions) {
          const p = s.proximity!;
          expect(zoneTotal(s)).toBe(s.dwellMs);
          for (const zone of ["immediate", "near", "far"] as const) {
            expect(p.zoneMsBySensor.reduce((n, z) => n + z[zone], 0)).toBe(p.zoneMs[zone]);
          }
          const own = slices.filter((x) => x.device === s.device && x.start + 10_000 > s.start && x.start <= s.end);
          expect(own).toHaveLength(p.slices);
          expect(own.every((x) => x.distanceM >= p.closestDistanceM)).toBe(true);
          expect(own.some((x) => x.distanceM === p.closestDistanceM && x.sensor === p.closestSensor)).toBe(true);
        }
        expect(sessions.reduce((n, s) => n + s.signalCount, 0)).toBe(signals.length);
      }),
      { numRuns: 60 },
    );
  });

  it("property: sessions are the same with or without a slice sink", () => {
    fc.assert(
      fc.property(stream, (signals) => {
        const withSink = run(signals, { gapMs: 60_000, allowedLatenessMs: 10_000 });
        const without = run(signals, { gapMs: 60_000, allowedLatenessMs: 10_000 }, { slices: false });
        expect(without.sessions.map(content)).toEqual(withSink.sessions.map(content));
      }),
      { numRuns: 60 },
    );
  });

  it("property: the nearest sensor is the exact argmin of rssiToDistance, ties to the smaller MAC", () => {
    // Models whose distances tie exactly (A at r and B at r + 5) or nearly (C's exponent differs).
    const models: Record<string, { rssiAt1m: number; exponent: number }> = {
      [A]: { rssiAt1m: -45, exponent: 2 },
      [B]: { rssiAt1m: -40, exponent: 2 },
      [C]: { rssiAt1m: -45, exponent: 2.0000000001 },
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -90, max: -40 }), fc.integer({ min: -90, max: -40 }), fc.integer({ min: -90, max: -40 })), { minLength: 1, maxLength: 30 }), (rows) => {
        const signals = rows.flatMap(([a, b, c], i) => [ps(T0 + i * 10_000, A, a), ps(T0 + i * 10_000, B, b), ps(T0 + i * 10_000, C, c)]);
        const { slices } = run(signals, { smoothing: exact, proximity: { calibration: { sensors: models }, sensorStaleMs: 10_000 } });
        expect(slices).toHaveLength(rows.length);
        rows.forEach((row, i) => {
          const ranked = [A, B, C]
            .map((sensor, k) => ({ sensor, distanceM: rssiToDistance(row[k]!, pathLossOptions(models[sensor])) }))
            .sort((x, y) => x.distanceM - y.distanceM || (x.sensor < y.sensor ? -1 : 1));
          expect({ sensor: slices[i]!.sensor, distanceM: slices[i]!.distanceM }).toEqual(ranked[0]);
        });
      }),
      { numRuns: 60 },
    );
  });

  it("property: shuffling within the allowed lateness changes no session (with proximity) and no slice", () => {
    const latenessMs = 30_000;
    fc.assert(
      fc.property(stream, fc.array(fc.integer({ min: 0, max: latenessMs })), (signals, jitter) => {
        const arrival = signals
          .map((s, i) => ({ s, key: s.time + (jitter[i % Math.max(1, jitter.length)] ?? 0), i }))
          .sort((a, b) => a.key - b.key || a.i - b.i)
          .map((x) => x.s);
        const options = { gapMs: 60_000, allowedLatenessMs: latenessMs };
        const inOrder = run(signals, options);
        const shuffled = run(arrival, options);
        expect(shuffled.engine.stats.late).toBe(0);
        expect(byStart(shuffled.sessions).map(content)).toEqual(byStart(inOrder.sessions).map(content));
        expect(byStart(shuffled.slices)).toEqual(byStart(inOrder.slices));
      }),
      { numRuns: 60 },
    );
  });
});

describe("EventTimeEngine: accumulators", () => {
  it("see applied signals in canonical order, each session before the sink, and every watermark advance", () => {
    const log: string[] = [];
    const acc: EngineAccumulator = {
      signal: (s) => log.push(`signal ${s.time / MIN} ${s.device.slice(0, 2)}`),
      session: (s) => log.push(`session ${s.start / MIN}-${s.end / MIN}`),
      advance: (shopId, w) => log.push(`advance ${shopId} ${w / MIN}`),
    };
    const engine = new EventTimeEngine({ gapMs: 5 * MIN, allowedLatenessMs: MIN }, { emit: (s) => log.push(`emit ${s.start / MIN}-${s.end / MIN}`), late: (s) => log.push(`late ${s.time / MIN}`) }, [acc]);
    for (const s of [sig(0, "bb:00:00:00:00:02"), sig(0), sig(2 * MIN), sig(MIN), sig(10 * MIN), sig(3 * MIN)]) engine.push(s);
    engine.flush();
    expect(log).toEqual([
      "advance 1 -1",
      "signal 0 aa",
      "signal 0 bb",
      "advance 1 1",
      // MIN arrives at the watermark: held, no advance.
      "signal 1 aa",
      "signal 2 aa",
      "session 0-0",
      "emit 0-0",
      "session 0-2",
      "emit 0-2",
      "advance 1 9",
      "late 3",
      "signal 10 aa",
      "session 10-10",
      "emit 10-10",
      "advance 1 Infinity",
    ]);
  });

  it("see the same calls for any arrival order within the lateness, and never a late signal", () => {
    const lateness = 2 * MIN;
    fc.assert(
      fc.property(
        fc.array(fc.record({ t: fc.integer({ min: 0, max: 60 }), d: fc.integer({ min: 0, max: 3 }), s: fc.integer({ min: 0, max: 2 }), r: fc.integer({ min: -90, max: -40 }) }), { minLength: 1, maxLength: 50 }),
        fc.array(fc.integer({ min: 0, max: lateness }), { minLength: 50, maxLength: 50 }),
        (specs, delays) => {
          const signals = specs.map((x) => sig(x.t * 15_000, `aa:00:00:00:00:0${x.d}`, x.r, { sensor: `b8:27:eb:00:00:0${x.s}` })).sort((a, b) => a.time - b.time);
          const arrival = arrivalOrder(signals, delays);
          const seen = (input: readonly Signal[]) => {
            const applied: Signal[] = [];
            const engine = new EventTimeEngine({ allowedLatenessMs: lateness }, { emit: () => {} }, [{ signal: (s) => applied.push(s) }]);
            for (const s of input) engine.push(s);
            engine.flush();
            return applied;
          };
          const canonical = [...signals].sort(
            (a, b) => a.time - b.time || cmp(a.device, b.device) || cmp(a.sensor, b.sensor) || a.rssi - b.rssi || cmp(a.rts, b.rts),
          );
          expect(seen(signals)).toEqual(canonical);
          expect(seen(arrival)).toEqual(canonical);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("advance per shop, with each shop's own watermark, and Infinity for every shop at flush", () => {
    const calls: [number, number][] = [];
    const engine = new EventTimeEngine({ allowedLatenessMs: 0 }, { emit: () => {} }, [{ advance: (shopId, w) => calls.push([shopId, w]) }, {}]);
    engine.push(sig(10 * MIN, undefined, -60, { shopId: 2 }));
    engine.push(sig(MIN, undefined, -60, { shopId: 1 }));
    engine.push(sig(11 * MIN, undefined, -60, { shopId: 2 }));
    engine.push(sig(11 * MIN, undefined, -60, { shopId: 2 })); // no rise: no call
    engine.flush();
    expect(calls).toEqual([
      [2, 10 * MIN],
      [1, MIN],
      [2, 11 * MIN],
      [2, Infinity],
      [1, Infinity],
    ]);
  });
});

describe("EventTimeEngine: reached", () => {
  // Logs every `reached` call: the time, the sessions closed so far and those open (start-end, in minutes).
  function reachLog(input: readonly Signal[], every: number, lateness: number): string[] {
    const log: string[] = [];
    const closed: string[] = [];
    const acc: EngineAccumulator = {
      session: (s) => void closed.push(`${s.device.slice(-2)} ${s.start / MIN}-${s.end / MIN}`),
      reached: (shopId, time, open) => {
        const now = open().map((s) => `${s.device.slice(-2)} ${s.start / MIN}-${s.end / MIN}/${s.probeCount}`);
        log.push(`${shopId} ${time / MIN} closed [${closed.join(", ")}] open [${now.join(", ")}]`);
        return time === Infinity ? Infinity : (Math.floor(time / every) + 1) * every;
      },
    };
    const engine = new EventTimeEngine({ gapMs: 5 * MIN, allowedLatenessMs: lateness, proximity: false }, { emit: () => {} }, [acc]);
    for (const s of input) engine.push(s);
    engine.flush();
    return log;
  }

  it("is called at the first signal, then at the first signal at or after each time it asks for, and with Infinity before the last sessions close", () => {
    const signals = [sig(0), sig(MIN, "bb:00:00:00:00:02"), sig(4 * MIN), sig(20 * MIN, "bb:00:00:00:00:02"), sig(21 * MIN)];
    expect(reachLog(signals, 10 * MIN, MIN)).toEqual([
      "1 0 closed [] open []",
      // 10 min asked for; the first signal at or after it is at 20 min: a's 0–4 and b's 1 ended
      // more than a gap before, so they closed first (in order of end).
      "1 20 closed [02 1-1, 01 0-4] open []",
      "1 Infinity closed [02 1-1, 01 0-4] open [02 20-20/1, 01 21-21/1]",
    ]);
  });

  it("sees the same state for any arrival order within the allowed lateness (property)", () => {
    const lateness = 2 * MIN;
    fc.assert(
      fc.property(
        fc.array(fc.record({ t: fc.integer({ min: 0, max: 120 }), d: fc.integer({ min: 0, max: 3 }), r: fc.integer({ min: -90, max: -40 }) }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: lateness }), { minLength: 60, maxLength: 60 }),
        (specs, delays) => {
          const signals = specs.map((x) => sig(x.t * 15_000, `aa:00:00:00:00:0${x.d}`, x.r)).sort((a, b) => a.time - b.time);
          const arrival = arrivalOrder(signals, delays);
          expect(reachLog(arrival, 3 * MIN, lateness)).toEqual(reachLog(signals, 3 * MIN, lateness));
        },
      ),
      { numRuns: 80 },
    );
  });

  it("after a flush, is called again at the next signal", () => {
    const times: number[] = [];
    const engine = new EventTimeEngine({ allowedLatenessMs: 0 }, { emit: () => {} }, [{ reached: (_shop, t) => (times.push(t), t === Infinity ? Infinity : t + 10 * MIN) }]);
    engine.push(sig(0));
    engine.flush();
    engine.push(sig(30 * MIN));
    engine.flush();
    expect(times).toEqual([0, Infinity, 30 * MIN, Infinity]);
  });

  it("costs nothing without a reached accumulator", () => {
    const calls: number[] = [];
    const engine = new EventTimeEngine({}, { emit: () => {} }, [{ advance: (_shop, w) => calls.push(w) }]);
    engine.push(sig(0));
    engine.flush();
    expect(calls).toEqual([-MIN, Infinity]);
  });
});

describe("EventTimeEngine: many shops", () => {
  it("gives each shop of an interleaved stream exactly what it gives that shop alone (property)", () => {
    const lateness = MIN;
    const shopStream = (shopId: number) =>
      fc.array(fc.record({ dt: fc.integer({ min: 0, max: 90_000 }), d: fc.integer({ min: 0, max: 3 }), s: fc.constantFrom(A, B), r: fc.integer({ min: -90, max: -40 }) }), { minLength: 1, maxLength: 30 }).map((rows) => {
        // Shops run on different clocks (up to a day apart), so one shop's time must not make another's late.
        let t = T0 + shopId * 3_600_000;
        return rows.map((x) => ps((t += x.dt), x.s, x.r, `aa:00:00:00:00:0${x.d}`, shopId));
      });
    fc.assert(
      fc.property(fc.tuple(shopStream(1), shopStream(2), shopStream(3)), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 90, maxLength: 90 }), (shops, picks) => {
        // Interleave: repeatedly take the next signal of a chosen shop (per-shop order kept).
        const queues = shops.map((s) => [...s]);
        const merged: Signal[] = [];
        let k = 0;
        while (queues.some((q) => q.length > 0)) {
          let q = queues[picks[k++ % picks.length]!]!;
          if (q.length === 0) q = queues.find((x) => x.length > 0)!;
          merged.push(q.shift()!);
        }
        const together = run(merged, { allowedLatenessMs: lateness, gapMs: 2 * MIN });
        expect(together.late).toEqual([]);
        shops.forEach((signals, i) => {
          const alone = run(signals, { allowedLatenessMs: lateness, gapMs: 2 * MIN });
          const shopId = i + 1;
          // Everything, progress fields included, is per shop.
          expect(together.sessions.filter((s) => s.shopId === shopId)).toEqual(alone.sessions);
          expect(together.slices.filter((s) => s.shopId === shopId)).toEqual(alone.slices);
        });
      }),
      { numRuns: 50 },
    );
  });
});

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
