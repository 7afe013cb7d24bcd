import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Signal } from "../../../src/codec/Signal.ts";
import { EventTimeEngine } from "../../../src/kernels/sessions/EventTimeEngine.ts";
import type { Session } from "../../../src/kernels/sessions/Session.ts";
import type { ProximitySlice } from "../../../src/kernels/proximity/SessionProximity.ts";
import { distanceToRssi, pathLossOptions, rssiToDistance } from "../../../src/kernels/proximity/pathLoss.ts";
import { proximityZone } from "../../../src/kernels/proximity/proximityZone.ts";
import { A, B, C, PHONE, T0, byStart, content, ps, run } from "../sessions/engineFixtures.ts";

// The proximity the engine's `SessionProximityAccumulator` works out, through the engine that
// feeds it (slices are finished by the signals and watermarks the engine applies).

const OTHER = "aa:aa:aa:aa:aa:aa";
// One reading per slice, unsmoothed: each slice's zone is the one its RSSI says.
const exact = { method: "trimmedMean", size: 1, trim: 0 } as const;

const zoneTotal = (s: Session) => s.proximity!.zoneMs.immediate + s.proximity!.zoneMs.near + s.proximity!.zoneMs.far;

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

  it("zoneTimes: false keeps the closest approach only, found as with it on", () => {
    const signals: Signal[] = [];
    // Two sensors, readings that cross the zone bounds (1 m, 4 m) both ways and approach closer
    // late in the session: the closest approach is not the first slice's.
    for (let i = 0; i < 60; i++) signals.push(ps(T0 + i * 7_000, [A, B][i % 3 === 0 ? 1 : 0]!, -40 - ((i * 7) % 29) + (i > 45 ? 8 : 0)));
    // No slice sink, as analyze runs: then nothing needs a slice's zone.
    const on = run(signals, { proximity: { sensorStaleMs: 10_000 } }, { slices: false });
    const off = run(signals, { proximity: { sensorStaleMs: 10_000, zoneTimes: false } }, { slices: false });
    const p = on.sessions[0]!.proximity!;
    // With it on there was something to leave out: time in several zones, both sensors, changes.
    expect(Object.values(p.zoneMs).filter((ms) => ms > 0).length).toBeGreaterThan(1);
    expect(p.zoneMsBySensor.map((z) => z.sensor)).toEqual([A, B].sort());
    expect(p.timeline.length).toBeGreaterThan(2);
    const q = off.sessions[0]!.proximity!;
    expect([q.zoneMs, q.zoneMsBySensor, q.timeline, q.timelineTruncated]).toEqual([{ immediate: Number.NaN, near: Number.NaN, far: Number.NaN }, [], [], false]);
    const closest = (x: typeof p) => [x.slices, x.closestSensor, x.closestDistanceM, x.closestRssi, x.closestTime, x.closestZone];
    expect(off.sessions.map((s) => closest(s.proximity!))).toEqual(on.sessions.map((s) => closest(s.proximity!)));
    expect(off.sessions.map((s) => ({ ...s, proximity: undefined }))).toEqual(on.sessions.map((s) => ({ ...s, proximity: undefined })));
    // Slice records need each slice's zone: with a slice sink they are the same.
    expect(run(signals, { proximity: { sensorStaleMs: 10_000, zoneTimes: false } }, { slices: true }).slices).toEqual(run(signals, { proximity: { sensorStaleMs: 10_000 } }, { slices: true }).slices);
    // Any readings, sensors and timing: the same closest approach (property).
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 900_000 }), fc.constantFrom(A, B, C), fc.integer({ min: -95, max: -25 })), { minLength: 1, maxLength: 60 }), (rows) => {
        const xs = rows.map(([t, sensor, rssi]) => ps(T0 + t, sensor, rssi)).sort((a, b) => a.time - b.time);
        const full = run(xs, {}, { slices: false }).sessions.map((s) => closest(s.proximity!));
        expect(run(xs, { proximity: { zoneTimes: false } }, { slices: false }).sessions.map((s) => closest(s.proximity!))).toEqual(full);
      }),
      { numRuns: 300 },
    );
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
