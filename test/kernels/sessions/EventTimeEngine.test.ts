import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Signal } from "../../../src/codec/Signal.ts";
import { EventTimeEngine, defaultEventTimeEngine, eventTimeEngineOptions, type EngineAccumulator } from "../../../src/kernels/sessions/EventTimeEngine.ts";
import { A, B, PHONE, T0, byStart, content, ps, run } from "./engineFixtures.ts";
import { MIN, arrivalOrder, sig } from "../fixtures.ts";

describe("EventTimeEngine: sessions", () => {
  it("joins signals no more than gapMs apart (inclusive) and measures dwell as last − first", () => {
    const { sessions } = run([sig(0), sig(5 * MIN), sig(10 * MIN), sig(15 * MIN + 1)], { gapMs: 5 * MIN });
    expect(sessions.map((s) => [s.start, s.end, s.dwellMs, s.signalCount])).toEqual([
      [0, 10 * MIN, 10 * MIN, 3],
      [15 * MIN + 1, 15 * MIN + 1, 0, 1],
    ]);
  });

  it("as one share of a device split, moves its watermark with the others' times (ticks) and builds only its own sessions", () => {
    const signals = [sig(0), sig(1_000, "bb:00:00:00:00:02"), sig(2 * MIN), sig(30 * MIN, "bb:00:00:00:00:02"), sig(40 * MIN), sig(3 * MIN)];
    const mine = (s: { readonly device: string }): boolean => s.device !== "bb:00:00:00:00:02";
    const whole = run(signals, { gapMs: 5 * MIN });
    const ticks: number[] = [];
    const sessions: number[][] = [];
    const engine = new EventTimeEngine({ gapMs: 5 * MIN }, { emit: (s) => sessions.push([s.start, s.end, s.watermark]) }, [], { tick: (_shop, _sensor, time) => ticks.push(time) });
    for (const s of signals) {
      if (mine(s)) engine.push(s);
      else engine.pushTick(s.shopId, s.sensor, s.time);
      expect(engine.watermark(1)).toBe(Math.max(...signals.slice(0, signals.indexOf(s) + 1).map((x) => x.time)) - defaultEventTimeEngine.allowedLatenessMs);
    }
    engine.flush();
    // Its own sessions, closed at the same watermarks as in one engine over every device; the
    // record at 3 min came late, and is counted late here because it is this share's.
    expect(sessions).toEqual(whole.sessions.filter((s) => mine(s)).map((s) => [s.start, s.end, s.watermark]));
    expect(ticks).toEqual([1_000, 30 * MIN]);
    expect(engine.stats.late).toBe(whole.late.length);
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
    // One gap between the probes' starts, 60 s: the edges miss Σgap² ÷ the span.
    expect(s!.squaredGapsMs2).toBe(60_000 ** 2);
    expect(s!.estimatedDwellMs).toBe(61_000 + 60_000 ** 2 / 61_000);
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
    expect(() => eventTimeEngineOptions({ proximity: { zoneTimes: 0 as never } })).toThrow(TypeError);
    expect(() => eventTimeEngineOptions({ proximity: { zones: { immediateM: 3, nearM: 2 } } })).toThrow(RangeError);
    expect(() => eventTimeEngineOptions({ proximity: { calibration: { sensors: { [A]: { exponent: -1 } } } } })).toThrow(RangeError);
    expect(() => eventTimeEngineOptions({ proximity: 5 as never })).toThrow(TypeError);
    expect(() => eventTimeEngineOptions({ smoothing: { method: "median" } as never })).toThrow(TypeError);
    expect(() => eventTimeEngineOptions({ smoothing: { method: "kalman", measurementNoise: 0 } })).toThrow(RangeError);
    expect(() => eventTimeEngineOptions({ smoothing: { method: "trimmedMean", size: 0 } })).toThrow(RangeError);
    const d = eventTimeEngineOptions();
    expect([d.gapMs, d.allowedLatenessMs, d.smoothing.method]).toEqual([defaultEventTimeEngine.gapMs, defaultEventTimeEngine.allowedLatenessMs, "kalman"]);
    expect(d.proximity).toMatchObject({ sliceMs: 10_000, sensorStaleMs: 30_000, timelineLimit: 64, zoneTimes: true });
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

describe("EventTimeEngine: the RTS orders only what nothing else tells apart", () => {
  it("gives the same sessions with every RTS left empty, in any arrival order, however many signals tie on all else (property)", () => {
    // What decode threads send when no signal is handed out (`SignalBatchWriter`'s `rts`): the
    // canonical order puts everything a session is made of (`local` included) before the RTS.
    const lateness = 3 * MIN;
    const arbSignal = fc.record({
      t: fc.integer({ min: 0, max: 30 }).map((m) => m * 20_000),
      d: fc.integer({ min: 0, max: 2 }),
      sensor: fc.integer({ min: 0, max: 1 }),
      rssi: fc.integer({ min: -62, max: -60 }),
      local: fc.boolean(),
      rts: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(arbSignal, { minLength: 1, maxLength: 80 }), fc.array(fc.integer({ min: 0, max: lateness }), { minLength: 80, maxLength: 80 }), (specs, delays) => {
        const signals = specs.map((x) => sig(x.t, `aa:00:00:00:00:0${x.d}`, x.rssi, { sensor: `b8:27:eb:00:00:0${x.sensor}`, local: x.local, rts: x.rts.toString(16).padStart(16, "0") }));
        signals.sort((a, b) => a.time - b.time);
        const blank = arrivalOrder(signals.map((s) => ({ ...s, rts: "" })), delays);
        const a = run(signals, { allowedLatenessMs: lateness });
        const b = run(blank, { allowedLatenessMs: lateness });
        expect(byStart(b.sessions).map(content)).toEqual(byStart(a.sessions).map(content));
        expect(byStart(b.slices)).toEqual(byStart(a.slices));
      }),
      { numRuns: 200 },
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
