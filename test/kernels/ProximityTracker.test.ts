import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Signal } from "../../src/codec/Signal.ts";
import {
  ProximityTracker,
  mergeProximitySummaries,
  type ProximitySlice,
  type ProximitySummary,
  type ProximityTrackerOptions,
} from "../../src/kernels/ProximityTracker.ts";
import { distanceToRssi, pathLossOptions, rssiToDistance } from "../../src/kernels/pathLoss.ts";
import { SessionTracker } from "../../src/kernels/SessionTracker.ts";

const A = "b8:27:eb:00:00:0a";
const B = "b8:27:eb:00:00:0b";
const PHONE = "f0:18:98:12:34:56";
const OTHER = "aa:aa:aa:aa:aa:aa";
const T0 = 1_763_600_000_000; // a multiple of 10 s

function sig(time: number, sensor: string, rssi: number, device = PHONE, shopId = 101): Signal {
  return { shopId, rts: "0000000000000000", time, device, rssi, sensor, local: false, randomized: false, vendor: undefined };
}

function run(signals: readonly Signal[], options: ProximityTrackerOptions = {}) {
  const slices: ProximitySlice[] = [];
  const summaries: ProximitySummary[] = [];
  const tracker = new ProximityTracker({ ...options, onSlice: (s) => slices.push(s), onSummary: (s) => summaries.push(s) });
  for (const s of signals) tracker.add(s);
  tracker.flush();
  return { slices, summaries, tracker };
}

describe("ProximityTracker", () => {
  it("estimates distance and zone per slice from smoothed RSSI", () => {
    const rssi = distanceToRssi(2.5); // near, with the default model
    const { slices, summaries } = run([sig(T0, A, rssi), sig(T0 + 3_000, A, rssi), sig(T0 + 12_000, A, rssi)]);
    expect(slices.map((s) => [s.start, s.end, s.signals, s.zone])).toEqual([
      [T0, T0 + 10_000, 2, "near"],
      [T0 + 10_000, T0 + 20_000, 1, "near"],
    ]);
    expect(slices[0]?.distanceM).toBeCloseTo(2.5, 9);
    expect(summaries).toHaveLength(1);
    const s = summaries[0] as ProximitySummary;
    expect([s.start, s.end, s.signals, s.slices, s.closestSensor]).toEqual([T0, T0 + 12_000, 3, 2, A]);
    expect(s.zoneMs).toEqual({ immediate: 0, near: 12_000, far: 0 });
  });

  it("picks the nearest sensor per slice and records changes in the timeline", () => {
    const near = distanceToRssi(0.5);
    const mid = distanceToRssi(3);
    const far = distanceToRssi(9);
    const { slices, summaries } = run([
      sig(T0, A, near),
      sig(T0, B, far),
      sig(T0 + 10_000, A, mid),
      sig(T0 + 10_000, B, far),
      sig(T0 + 20_000, A, far),
      sig(T0 + 20_000, B, near),
      sig(T0 + 30_000, B, near),
    ], { smoothing: { method: "trimmedMean", size: 1, trim: 0 } });
    expect(slices.map((s) => `${s.sensor === A ? "A" : "B"}:${s.zone}`)).toEqual([
      "A:immediate",
      "A:near",
      "B:immediate",
      "B:immediate",
    ]);
    const s = summaries[0] as ProximitySummary;
    expect(s.timeline.map((e) => [e.time - T0, e.sensor === A ? "A" : "B", e.zone])).toEqual([
      [0, "A", "immediate"],
      [10_000, "A", "near"],
      [20_000, "B", "immediate"],
    ]);
    expect(s.zoneMs).toEqual({ immediate: 10_000 + 10_000, near: 10_000, far: 0 });
    expect(s.closestDistanceM).toBeCloseTo(0.5, 9);
    expect(s.closestTime).toBe(T0); // first of the two equal approaches (strictly closer wins)
  });

  it("applies per-sensor calibration when choosing the nearest sensor", () => {
    // Same RSSI at both; B's model says its phones are louder at 1 m, so the device is farther from B.
    const calibration = { default: { rssiAt1m: -45, exponent: 2.5 }, sensors: { [B.toUpperCase()]: { rssiAt1m: -35 } } };
    const { slices } = run([sig(T0, A, -60), sig(T0, B, -60)], { calibration });
    expect(slices[0]?.sensor).toBe(A);
    expect(slices[0]?.distanceM).toBeCloseTo(rssiToDistance(-60, { rssiAt1m: -45, exponent: 2.5 }), 9);
  });

  it("ignores sensors that have not heard the device within sensorStaleMs", () => {
    const { slices } = run(
      [sig(T0, B, -40), sig(T0 + 40_000, A, -70)],
      { sensorStaleMs: 30_000, smoothing: { method: "trimmedMean", size: 1, trim: 0 } },
    );
    expect(slices.map((s) => s.sensor)).toEqual([B, A]);
  });

  it("splits sessions at gapMs (inclusive joins) and resets smoothing", () => {
    const gapMs = 60_000;
    const { summaries } = run(
      [sig(T0, A, -50), sig(T0 + gapMs, A, -50), sig(T0 + 2 * gapMs + 1, A, -80)],
      { gapMs, idleMs: 2 * gapMs },
    );
    expect(summaries.map((s) => [s.start - T0, s.end - T0])).toEqual([
      [0, gapMs],
      [2 * gapMs + 1, 2 * gapMs + 1],
    ]);
    expect(summaries[1]?.closestRssi).toBe(-80); // not pulled toward the previous session's -50
  });

  it("finishes slices and sessions as the watermark passes, driven by other devices", () => {
    const slices: ProximitySlice[] = [];
    const summaries: ProximitySummary[] = [];
    const tracker = new ProximityTracker({
      gapMs: 60_000,
      idleMs: 120_000,
      allowedLatenessMs: 0,
      onSlice: (s) => slices.push(s),
      onSummary: (s) => summaries.push(s),
    });
    tracker.add(sig(T0 + 1_000, A, -50));
    expect(slices).toHaveLength(0);
    tracker.add(sig(T0 + 10_000, A, -50, "aa:aa:aa:aa:aa:aa"));
    expect(slices.map((s) => s.device)).toEqual([PHONE]);
    tracker.add(sig(T0 + 70_000, A, -50, "aa:aa:aa:aa:aa:aa"));
    expect(summaries.map((s) => s.device)).toEqual([PHONE]);
    expect(tracker.stats.devices).toBe(1); // PHONE forgotten once its summary was pushed
  });

  it("pull mode: takeSummary returns the session the caller closed and forgets the device", () => {
    const tracker = new ProximityTracker({ gapMs: 60_000, idleMs: 600_000, allowedLatenessMs: 0 });
    for (const s of [sig(T0, A, -50), sig(T0 + 20_000, A, -52), sig(T0 + 200_000, A, -70)]) tracker.add(s);
    // The watermark (T0 + 200 s) passed the first session's end + gap: a session tracker fed the
    // same signals closes it now, and the caller takes its summary.
    const first = tracker.takeSummary(101, PHONE, T0, T0 + 20_000);
    expect([first?.start, first?.end, first?.signals]).toEqual([T0, T0 + 20_000, 2]);
    expect(tracker.takeSummary(101, PHONE, T0, T0 + 20_000)).toBeUndefined();
    tracker.flush(); // end of input: the signal at the watermark is processed, its session closed
    const second = tracker.takeSummary(101, PHONE, T0 + 200_000, T0 + 200_000);
    expect(second?.signals).toBe(1);
    expect(tracker.stats.devices).toBe(0);
    expect(tracker.takeSummary(7, PHONE, 0, 1)).toBeUndefined();
  });

  it("pull mode: merges every summary overlapping the caller's session", () => {
    const tracker = new ProximityTracker({ gapMs: 10_000, idleMs: 60_000 });
    for (const s of [sig(T0, A, -50), sig(T0 + 15_000, A, -40)]) tracker.add(s);
    tracker.flush();
    const merged = tracker.takeSummary(101, PHONE, T0, T0 + 15_000);
    expect([merged?.start, merged?.end, merged?.signals, merged?.closestRssi]).toEqual([T0, T0 + 15_000, 2, -40]);
  });

  it("pull mode: forgets summaries untaken for idleMs after their session closed, and counts them", () => {
    const tracker = new ProximityTracker({ gapMs: 60_000, idleMs: 120_000, allowedLatenessMs: 0 });
    tracker.add(sig(T0, A, -50));
    tracker.add(sig(T0 + 100_000, A, -50, OTHER));
    // PHONE's session closed at watermark T0 + 100 s (awaiting takeSummary); the newest signal
    // waits at the watermark.
    expect(tracker.stats).toMatchObject({ devices: 1, buffered: 1, expiredSummaries: 0 });
    tracker.add(sig(T0 + 130_000, A, -50, OTHER));
    // More than idleMs after PHONE's last signal, but not after its session closed: kept.
    expect(tracker.stats).toMatchObject({ devices: 2, expiredSummaries: 0 });
    tracker.add(sig(T0 + 221_000, A, -50, OTHER));
    expect(tracker.stats).toMatchObject({ devices: 1, expiredSummaries: 1 });
    tracker.flush();
    expect(tracker.takeAllSummaries().map((s) => [s.device, s.start - T0])).toEqual([
      [OTHER, 100_000],
      [OTHER, 221_000],
    ]);
    expect(tracker.stats.devices).toBe(0);
  });

  it("pull mode: a watermark jumping further than idleMs keeps the summary it closes for takeSummary", () => {
    // One signal, then nothing for 20 minutes (a quiet shop, or late records arriving in a
    // burst): the jump releases, closes and would age the first session all in one sweep.
    const tracker = new ProximityTracker({ gapMs: 300_000, idleMs: 900_000, allowedLatenessMs: 60_000 });
    tracker.add(sig(T0, A, -50));
    tracker.add(sig(T0 + 1_200_000, A, -50, OTHER));
    const summary = tracker.takeSummary(101, PHONE, T0, T0);
    expect([summary?.start, summary?.signals, summary?.closestSensor]).toEqual([T0, 1, A]);
    expect(tracker.stats.expiredSummaries).toBe(0);
  });

  it("counts and skips signals older than the watermark", () => {
    const { tracker, summaries } = run([sig(T0 + 5_000, A, -50), sig(T0, A, -50)], { allowedLatenessMs: 0 });
    expect(tracker.stats).toMatchObject({ signals: 1, late: 1 });
    expect(summaries[0]?.signals).toBe(1);
    const lenient = run([sig(T0 + 5_000, A, -50), sig(T0, A, -50)], { allowedLatenessMs: 10_000 });
    expect(lenient.tracker.stats).toMatchObject({ signals: 2, late: 0 });
    expect(lenient.summaries[0]?.start).toBe(T0);
  });

  it("keeps one watermark per shop, so shops fed one after another are not late", () => {
    const shopA = [sig(T0, A, -50, PHONE, 1), sig(T0 + 3_600_000, A, -50, PHONE, 1)];
    const shopB = [sig(T0, B, -60, PHONE, 2), sig(T0 + 10_000, B, -60, PHONE, 2)];
    const { tracker, summaries } = run([...shopA, ...shopB]);
    expect(tracker.stats.late).toBe(0);
    expect(tracker.watermark(1)).toBe(T0 + 3_600_000);
    expect(summaries.map((s) => [s.shopId, s.signals])).toEqual([
      [1, 1],
      [1, 1],
      [2, 2],
    ]);
  });

  it("keeps memory bounded by active devices", () => {
    const tracker = new ProximityTracker({ gapMs: 60_000, idleMs: 120_000, allowedLatenessMs: 0, onSummary: () => {} });
    for (let i = 0; i < 2_000; i++) {
      const device = `02:00:00:00:${((i >> 8) & 255).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`;
      tracker.add(sig(T0 + i * 10_000, A, -60, device));
    }
    // 10 s apart, 60 s gap: only the last ~7 devices can still be in an open session.
    expect(tracker.stats.devices).toBeLessThanOrEqual(8);
  });

  it("validates options eagerly", () => {
    expect(() => new ProximityTracker({ sliceMs: 0 })).toThrow(RangeError);
    expect(() => new ProximityTracker({ sliceMs: 10_000, sensorStaleMs: 5_000 })).toThrow(RangeError);
    expect(() => new ProximityTracker({ gapMs: 60_000, idleMs: 60_000 })).toThrow(RangeError);
    expect(() => new ProximityTracker({ allowedLatenessMs: -1 })).toThrow(RangeError);
    expect(() => new ProximityTracker({ timelineLimit: 1.5 })).toThrow(RangeError);
    expect(() => new ProximityTracker({ zones: { immediateM: 3, nearM: 2 } })).toThrow(RangeError);
    expect(() => new ProximityTracker({ calibration: { sensors: { [A]: { exponent: -1 } } } })).toThrow(RangeError);
    expect(() => new ProximityTracker({ smoothing: { method: "median" } as never })).toThrow(TypeError);
    expect(() => new ProximityTracker({ smoothing: { method: "kalman", measurementNoise: 0 } })).toThrow(RangeError);
  });

  it("bounds the timeline and merges summaries", () => {
    const signals: Signal[] = [];
    for (let i = 0; i < 10; i++) signals.push(sig(T0 + i * 10_000, i % 2 === 0 ? A : B, -50));
    const { summaries } = run(signals, { timelineLimit: 3, sensorStaleMs: 10_000 });
    const s = summaries[0] as ProximitySummary;
    expect(s.timeline).toHaveLength(3);
    expect(s.timelineTruncated).toBe(true);
    const m = mergeProximitySummaries(s, { ...s, start: s.end + 1, end: s.end + 2, closestDistanceM: 0.1, closestSensor: "x" }, 3);
    expect([m.start, m.end, m.signals, m.closestSensor, m.timeline.length]).toEqual([s.start, s.end + 2, 20, "x", 3]);
    expect(m.zoneMs.immediate + m.zoneMs.near + m.zoneMs.far).toBe(2 * (s.end - s.start));
  });

  const stream = fc
    .array(
      fc.record({
        dt: fc.integer({ min: 0, max: 40_000 }),
        sensor: fc.constantFrom(A, B, "b8:27:eb:00:00:0c"),
        device: fc.constantFrom(PHONE, "02:11:22:33:44:55", "aa:bb:cc:dd:ee:ff"),
        rssi: fc.integer({ min: -95, max: -30 }),
      }),
      { minLength: 1, maxLength: 80 },
    )
    .map((rows) => {
      let t = T0;
      return rows.map((r) => sig((t += r.dt), r.sensor, r.rssi, r.device));
    });

  it("property: per session, time per zone sums to end − start and closest ≤ every slice", () => {
    fc.assert(
      fc.property(stream, (signals) => {
        const { slices, summaries } = run(signals, { gapMs: 60_000, idleMs: 120_000 });
        for (const s of summaries) {
          const total = s.zoneMs.immediate + s.zoneMs.near + s.zoneMs.far;
          if (Math.abs(total - (s.end - s.start)) > 1e-6) return false;
          const own = slices.filter((x) => x.device === s.device && x.start + 10_000 > s.start && x.start <= s.end);
          if (own.length !== s.slices) return false;
          if (own.some((x) => x.distanceM < s.closestDistanceM)) return false;
        }
        return summaries.reduce((n, s) => n + s.signals, 0) === signals.length;
      }),
    );
  });

  it("property: the nearest sensor is the exact argmin of rssiToDistance, ties to the smaller MAC", () => {
    const C = "b8:27:eb:00:00:0c";
    // Models whose distances tie exactly (A at r and B at r + 5) or nearly (C's exponent differs).
    const models: Record<string, { rssiAt1m: number; exponent: number }> = { [A]: { rssiAt1m: -45, exponent: 2 }, [B]: { rssiAt1m: -40, exponent: 2 }, [C]: { rssiAt1m: -45, exponent: 2.0000000001 } };
    const calibration = { sensors: models };
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -90, max: -40 }), fc.integer({ min: -90, max: -40 }), fc.integer({ min: -90, max: -40 })), { minLength: 1, maxLength: 30 }), (rows) => {
        // Each slice: every sensor hears the device once; smoothing off (window of one reading).
        const signals = rows.flatMap(([a, b, c], i) => [sig(T0 + i * 10_000, A, a), sig(T0 + i * 10_000, B, b), sig(T0 + i * 10_000, C, c)]);
        const { slices } = run(signals, { calibration, smoothing: { method: "trimmedMean", size: 1, trim: 0 }, sensorStaleMs: 10_000 });
        expect(slices).toHaveLength(rows.length);
        rows.forEach((row, i) => {
          const ranked = [A, B, C]
            .map((sensor, k) => ({ sensor, distanceM: rssiToDistance(row[k]!, pathLossOptions(models[sensor])) }))
            .sort((x, y) => x.distanceM - y.distanceM || (x.sensor < y.sensor ? -1 : 1));
          expect({ sensor: slices[i]!.sensor, distanceM: slices[i]!.distanceM }).toEqual(ranked[0]);
        });
      }),
    );
  });

  it("property: fed through SessionSink.released (addReleased), it gives what add gives", () => {
    const latenessMs = 30_000;
    fc.assert(
      fc.property(stream, fc.array(fc.integer({ min: 0, max: 2 * latenessMs })), (signals, jitter) => {
        // Arrival up to twice the lateness late, so some signals are late and never reach addReleased.
        const arrival = signals
          .map((s, i) => ({ s, key: s.time + (jitter[i % Math.max(1, jitter.length)] ?? 0), i }))
          .sort((a, b) => a.key - b.key || a.i - b.i)
          .map((x) => x.s);
        const options = { gapMs: 60_000, idleMs: 120_000, allowedLatenessMs: latenessMs };
        const direct = run(arrival, options);
        const slices: ProximitySlice[] = [];
        const summaries: ProximitySummary[] = [];
        const follower = new ProximityTracker({ ...options, onSlice: (s) => slices.push(s), onSummary: (s) => summaries.push(s) });
        const sessions = new SessionTracker(
          { gapMs: 60_000, allowedLatenessMs: latenessMs },
          { session: () => {}, released: (shopId, batch, count, watermark) => follower.addReleased(shopId, batch, count, watermark) },
        );
        for (const s of arrival) sessions.push(s);
        sessions.flush();
        expect(sortSlices(summaries)).toEqual(sortSlices(direct.summaries));
        expect(sortSlices(slices)).toEqual(sortSlices(direct.slices));
        expect(follower.stats.signals + sessions.stats.late).toBe(arrival.length);
      }),
    );
  });

  it("property: shuffling within the allowed lateness changes nothing", () => {
    const latenessMs = 30_000;
    fc.assert(
      fc.property(stream, fc.array(fc.integer({ min: 0, max: latenessMs })), (signals, jitter) => {
        // Arrival order: sort by time + a jitter in [0, lateness], i.e. each signal at most `lateness` late.
        const arrival = signals
          .map((s, i) => ({ s, key: s.time + (jitter[i % Math.max(1, jitter.length)] ?? 0), i }))
          .sort((a, b) => a.key - b.key || a.i - b.i)
          .map((x) => x.s);
        const options = { gapMs: 60_000, idleMs: 120_000, allowedLatenessMs: latenessMs };
        const inOrder = run(signals, options);
        const shuffled = run(arrival, options);
        expect(shuffled.tracker.stats.late).toBe(0);
        // Emission order follows the watermark, which depends on arrival; the content must not.
        expect(sortSlices(shuffled.summaries)).toEqual(sortSlices(inOrder.summaries));
        expect(sortSlices(shuffled.slices)).toEqual(sortSlices(inOrder.slices));
      }),
    );
  });
});

function sortSlices<T extends { start: number; device: string }>(slices: T[]): T[] {
  return [...slices].sort((a, b) => a.start - b.start || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0));
}
