import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { newSensorAcc, newSession, type OpenSession } from "../../../src/kernels/sessions/OpenSession.ts";
import { proximityOptions } from "../../../src/kernels/proximity/proximityOptions.ts";
import { HeldSession, SessionColumns } from "../../../src/kernels/sessions/SessionColumns.ts";
import { SessionProximityAccumulator } from "../../../src/kernels/proximity/SessionProximityAccumulator.ts";
import { classifiedSession } from "../../../src/kernels/visits/VisitClassifier.ts";
import { sig } from "../fixtures.ts";

const T0 = Date.UTC(2026, 10, 16, 10);
const SENSORS = ["b8:27:eb:00:00:01", "b8:27:eb:00:00:02", "b8:27:eb:00:00:03", "b8:27:eb:00:00:04"];

/** An open session as the engine leaves it when it closes: sensors heard, proximity finished. */
function closedSession(proximity: SessionProximityAccumulator, i: number, readings: readonly (readonly [number, number])[]): OpenSession {
  const device = `aa:00:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`;
  const start = T0 + i * 1_000;
  const open = newSession(sig(start, device, -60, { local: i % 3 === 0, randomized: i % 2 === 0, vendor: i % 5 === 0 ? undefined : "Test Inc." }), 101, undefined, undefined, proximity, undefined);
  let t = start;
  for (const [k, rssi] of readings) {
    const sensor = SENSORS[k]!;
    proximity.signal(open.proximity!, t);
    let acc = open.sensors.find((a) => a.sensor === sensor);
    if (acc === undefined) open.sensors.push((acc = newSensorAcc(sensor, t, proximity.model(sensor), null, undefined)));
    acc.count++;
    acc.last = t;
    acc.smoothed = rssi + 0.25;
    if (rssi > acc.peakRssi) acc.peakRssi = rssi;
    if (acc.smoothed > acc.peakSmoothed) acc.peakSmoothed = acc.smoothed;
    open.end = t;
    open.count++;
    t += 7_000;
  }
  proximity.finish(open.proximity!, open.end);
  return open;
}

const readingsArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: -95, max: -30 })), { minLength: 1, maxLength: 30 });

describe("SessionColumns", () => {
  it("builds each session as it was when added, across growth, with fresh objects every time (property)", () => {
    fc.assert(
      fc.property(fc.array(readingsArb, { minLength: 1, maxLength: 120 }), (all) => {
        const proximity = new SessionProximityAccumulator(proximityOptions({}));
        const columns = new SessionColumns();
        const held = [];
        const atAdd: string[] = [];
        for (let i = 0; i < all.length; i++) {
          const h = columns.add(closedSession(proximity, i, all[i]!), 101, T0 + i, T0 - i, true);
          held.push(h);
          atAdd.push(JSON.stringify(columns.session(h)));
        }
        // Later rows (and the columns growing past their first 1024 numbers) change no earlier one.
        expect(held.map((h) => JSON.stringify(columns.session(h)))).toEqual(atAdd);
        const s = columns.session(held[0]!);
        expect(columns.session(held[0]!)).not.toBe(s);
        expect(columns.session(held[0]!).sensors).not.toBe(s.sensors);
        for (const [i, h] of held.entries()) {
          const built = columns.session(h);
          // Classified straight from its row, it is what the built session classifies to.
          expect(classifiedSession(h, "visitor", "2026-11-16", T0, false, -70)).toEqual(classifiedSession(built, "visitor", "2026-11-16", T0, false, -70));
          expect([built.watermark, built.complete, built.dwellMs, built.peakSmoothedRssi]).toEqual([T0 + i, T0 - i, h.dwellMs, h.peakSmoothedRssi]);
          expect(built.sensors.reduce((n, x) => n + x.signalCount, 0)).toBe(built.signalCount - 1);
        }
      }),
      { numRuns: 30 },
    );
  });

  it("builds the proximity of a closest-only analysis (zoneTimes off) with its empty lists and NaN zone times shared and frozen", () => {
    const proximity = new SessionProximityAccumulator(proximityOptions({ zoneTimes: false, timelineLimit: 0 }));
    const columns = new SessionColumns();
    const built = [0, 1, 2].map((i) => columns.session(columns.add(closedSession(proximity, i, [[0, -50], [1, -60], [0, -55]]), 101, T0, T0, true)).proximity!);
    for (const p of built) {
      expect(p.closestDistanceM).toBeGreaterThan(0);
      expect(p.zoneMs).toEqual({ immediate: Number.NaN, near: Number.NaN, far: Number.NaN });
      expect([p.zoneMsBySensor, p.timeline]).toEqual([[], []]);
      expect([Object.isFrozen(p.zoneMs), Object.isFrozen(p.zoneMsBySensor), Object.isFrozen(p.timeline)]).toEqual([true, true, true]);
      expect([p.zoneMs, p.zoneMsBySensor, p.timeline]).toEqual([built[0]!.zoneMs, built[0]!.zoneMsBySensor, built[0]!.timeline]);
      expect(p.zoneMs).toBe(built[0]!.zoneMs);
      expect(p.timeline).toBe(built[0]!.zoneMsBySensor);
    }
    // With zone times on, each session has its own.
    const on = new SessionProximityAccumulator(proximityOptions({}));
    const [a, b] = [0, 1].map((i) => columns.session(columns.add(closedSession(on, i, [[0, -50], [1, -60]]), 101, T0, T0, true)).proximity!);
    expect(a!.zoneMs).not.toBe(b!.zoneMs);
    expect(Object.isFrozen(a!.zoneMs)).toBe(false);
  });

  it("carries held sessions to another thread as plain data: built there, each is the session it was", () => {
    const proximity = new SessionProximityAccumulator(proximityOptions({}));
    const a = new SessionColumns();
    const b = new SessionColumns();
    const readings = [[0, -50], [1, -70], [2, -80], [0, -55], [3, -61]] as const;
    // Of two stores, across chunks (the first holds 1024 numbers), in an order of their own.
    const held = Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? b : a).add(closedSession(proximity, i, readings.slice(0, 1 + (i % 5))), 101 + (i % 2), T0 + i, T0 - i, i % 7 !== 0));
    const crossed = SessionColumns.fromMessage(structuredClone(SessionColumns.toMessage(held)));
    expect(crossed.map((h) => h instanceof HeldSession)).toEqual(held.map(() => true));
    expect(crossed.map((h) => JSON.stringify(a.session(h)))).toEqual(held.map((h) => JSON.stringify(a.session(h))));
    expect(crossed.map((h) => [h.shopId, h.device, h.dwellMs, h.probeCount, h.periodicGaps, h.randomized])).toEqual(
      held.map((h) => [h.shopId, h.device, h.dwellMs, h.probeCount, h.periodicGaps, h.randomized]),
    );
    // The merge of a device split lowers a crossed session's `complete` in its own row only.
    crossed[5]!.setComplete(T0 - 1e6);
    expect([a.session(crossed[5]!).complete, a.session(crossed[6]!).complete, a.session(held[5]!).complete]).toEqual([T0 - 1e6, T0 - 6, T0 - 5]);
  });

  it("takes chunk after chunk (a day of thousands of sessions), and keeps them when cleared", () => {
    const proximity = new SessionProximityAccumulator(proximityOptions({}));
    const columns = new SessionColumns();
    const readings = [[0, -50], [1, -70], [2, -80], [0, -55]] as const;
    const held = Array.from({ length: 3_000 }, (_, i) => columns.add(closedSession(proximity, i, readings), 101, 0, 0, true));
    expect(columns.length).toBe(3_000);
    const last = columns.session(held.at(-1)!);
    expect(last.device).toBe(held.at(-1)!.device);
    expect(last.sensors.map((x) => [x.sensor, x.signalCount, x.peakRssi])).toEqual([
      [SENSORS[0], 2, -50],
      [SENSORS[1], 1, -70],
      [SENSORS[2], 1, -80],
    ]);
    expect(last.nearestSensor).toBe(SENSORS[0]);
    columns.clear();
    const again = Array.from({ length: 3_000 }, (_, i) => columns.add(closedSession(proximity, i + 5_000, [[3, -66]]), 101, 0, 0, true));
    expect(columns.session(again.at(-1)!).device).toBe(again.at(-1)!.device);
    expect(columns.session(again[0]!).sensors.map((x) => x.sensor)).toEqual([SENSORS[3]]);
  });

  it("keeps a row larger than a chunk whole (a long timeline)", () => {
    const proximity = new SessionProximityAccumulator(proximityOptions({ timelineLimit: 1_000_000 }));
    const columns = new SessionColumns();
    columns.add(closedSession(proximity, 1, [[0, -60]]), 101, 0, 0, true);
    // Immediate and far by turns, a slice each: every slice changes zone.
    const readings = Array.from({ length: 30_000 }, (_, k) => [0, k % 2 === 0 ? -40 : -90] as const);
    const open = closedSession(proximity, 2, readings);
    const entries = open.proximity!.timelineSensors.length;
    expect(entries * 3).toBeGreaterThan(1 << 15); // more numbers than a chunk holds
    const held = columns.add(open, 101, 0, 0, true);
    const timeline = columns.session(held).proximity!.timeline;
    expect(timeline).toHaveLength(entries);
    expect(timeline.at(-1)!.time).toBe(open.proximity!.timelineNumbers[(entries - 1) * 3]);
    expect(new Set(timeline.map((e) => e.zone))).toEqual(new Set(["immediate", "far"]));
  });

  it("builds without proximity when asked, and forgets every row on clear", () => {
    const proximity = new SessionProximityAccumulator(proximityOptions({}));
    const columns = new SessionColumns();
    const h = columns.add(closedSession(proximity, 1, [[0, -60]]), 101, 0, 0, false);
    expect(columns.session(h).proximity).toBeUndefined();
    expect(h instanceof HeldSession).toBe(true);
    expect(columns.session(h) instanceof HeldSession).toBe(false);
    columns.clear();
    expect(columns.length).toBe(0);
    const again = columns.add(closedSession(proximity, 2, [[1, -61]]), 101, 0, 0, true);
    expect(columns.length).toBe(1);
    expect(columns.session(again).sensors.map((x) => x.sensor)).toEqual([SENSORS[1]]);
  });

  it("gives stores back cleared, and the pool keeps no large one", () => {
    const proximity = new SessionProximityAccumulator(proximityOptions({}));
    const small = SessionColumns.take();
    small.add(closedSession(proximity, 1, [[0, -60]]), 101, 0, 0, true);
    small.give();
    expect(small.length).toBe(0);
    const taken = SessionColumns.take();
    expect(taken.length).toBe(0);
    taken.give();
    // A store grown past the pool's limit (a big shop-day) is cleared and left to the collector.
    const big = SessionColumns.take();
    for (let i = 0; i < 20_000; i++) big.add(closedSession(proximity, i, [[0, -50], [1, -70], [2, -80], [3, -90]]), 101, 0, 0, true);
    big.give();
    expect(big.length).toBe(0);
    const next = [SessionColumns.take(), SessionColumns.take(), SessionColumns.take()];
    expect(next).not.toContain(big);
    for (const c of next) c.give();
  });
});
