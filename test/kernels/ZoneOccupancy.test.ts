import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Signal } from "../../src/codec/Signal.ts";
import { analyze } from "../../src/analyze.ts";
import { distanceToRssi } from "../../src/kernels/pathLoss.ts";
import {
  ProximityTracker,
  mergeProximitySummaries,
  type ProximitySlice,
  type ProximitySummary,
} from "../../src/kernels/ProximityTracker.ts";
import { ZoneOccupancy, defaultZoneOccupancy, zoneTimeBySensor } from "../../src/kernels/ZoneOccupancy.ts";

const A = "b8:27:eb:00:00:0a";
const B = "b8:27:eb:00:00:0b";
const PHONE = "f0:18:98:12:34:56";
const OTHER = "f0:18:98:65:43:21";
const T0 = 1_763_600_000_000; // a multiple of 10 s
// One reading per slice, unsmoothed, so each slice's zone is the one its RSSI says.
const exact = { smoothing: { method: "trimmedMean", size: 1, trim: 0 } } as const;

function sig(time: number, sensor: string, metres: number, device = PHONE, shopId = 101): Signal {
  return { shopId, rts: "0000000000000000", time, device, rssi: distanceToRssi(metres), sensor, local: false, randomized: false, vendor: undefined };
}

function track(signals: readonly Signal[], occupancy = new ZoneOccupancy()) {
  const slices: ProximitySlice[] = [];
  const summaries: ProximitySummary[] = [];
  const tracker = new ProximityTracker({
    ...exact,
    onSlice: (s) => {
      slices.push(s);
      occupancy.addSlice(s);
    },
    onSummary: (s) => {
      summaries.push(s);
      occupancy.addSummary(s);
    },
  });
  for (const s of signals) tracker.add(s);
  tracker.flush();
  return { slices, summaries, occupancy };
}

const slice = (device: string, start: number, zone: ProximitySlice["zone"], shopId = 101): ProximitySlice =>
  ({ type: "proximitySlice", shopId, device, start, end: start + 10_000, sensor: A, zone }) as ProximitySlice;

describe("ProximityTracker zoneMsBySensor", () => {
  it("charges each interval of a session's zone time to the sensor that was nearest", () => {
    // Both sensors hear every slice: 0–20 s immediate at A, 20–30 s near at B, 30–35 s far at A
    // (last signal at 35 s).
    const { summaries } = track([
      sig(T0, A, 0.5),
      sig(T0, B, 9),
      sig(T0 + 10_000, A, 0.5),
      sig(T0 + 10_000, B, 9),
      sig(T0 + 20_000, A, 9),
      sig(T0 + 20_000, B, 2),
      sig(T0 + 30_000, A, 9),
      sig(T0 + 30_000, B, 12),
      sig(T0 + 35_000, A, 9),
    ]);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.zoneMsBySensor).toEqual([
      { sensor: A, immediate: 20_000, near: 0, far: 5_000 },
      { sensor: B, immediate: 0, near: 10_000, far: 0 },
    ]);
  });

  it("sums per zone to zoneMs, so to the session's dwell (property)", () => {
    const reading = fc.record({ dt: fc.integer({ min: 0, max: 40_000 }), sensor: fc.constantFrom(A, B), metres: fc.double({ min: 0.3, max: 15, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(reading, { minLength: 1, maxLength: 40 }), (readings) => {
        let t = T0;
        const signals = readings.map((r) => sig((t += r.dt), r.sensor, r.metres));
        for (const s of track(signals).summaries) {
          for (const zone of ["immediate", "near", "far"] as const) {
            expect(s.zoneMsBySensor.reduce((n, z) => n + z[zone], 0)).toBe(s.zoneMs[zone]);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("merges per sensor when summaries are merged", () => {
    const { summaries } = track([sig(T0, A, 0.5), sig(T0 + 20_000, B, 2), sig(T0 + 1_000_000, B, 2), sig(T0 + 1_030_000, A, 9)]);
    expect(summaries).toHaveLength(2);
    const m = mergeProximitySummaries(summaries[0]!, summaries[1]!);
    for (const sensor of [A, B]) {
      const parts = summaries.flatMap((s) => s.zoneMsBySensor.filter((z) => z.sensor === sensor));
      expect(m.zoneMsBySensor.find((z) => z.sensor === sensor)).toEqual({
        sensor,
        immediate: parts.reduce((n, z) => n + z.immediate, 0),
        near: parts.reduce((n, z) => n + z.near, 0),
        far: parts.reduce((n, z) => n + z.far, 0),
      });
    }
  });
});

describe("ZoneOccupancy", () => {
  it("validates options eagerly", () => {
    expect(() => new ZoneOccupancy({ currentMs: -1 })).toThrow(RangeError);
    expect(() => new ZoneOccupancy({ currentMs: Number.NaN })).toThrow(RangeError);
    expect(() => new ZoneOccupancy({ currentMs: "60s" as unknown as number })).toThrow(TypeError);
    expect(() => new ZoneOccupancy({ sensors: [1] as unknown as string[] })).toThrow(TypeError);
    expect(() => new ZoneOccupancy(null as unknown as object)).toThrow(TypeError);
    expect(defaultZoneOccupancy.currentMs).toBe(180_000);
  });

  it("counts devices by the zone of their latest slice within currentMs of now, and forgets older ones", () => {
    const o = new ZoneOccupancy({ currentMs: 60_000 });
    o.addSlice(slice("a", 0, "near"));
    o.addSlice(slice("a", 40_000, "immediate")); // a's latest: immediate, ends at 50 s
    o.addSlice(slice("b", 0, "far")); // ends at 10 s
    o.addSlice(slice("a", 20_000, "far")); // older than a's latest: ignored
    expect(o.current(70_000)).toEqual({ immediate: 1, near: 0, far: 1 }); // b's end 10 s ≥ 70 − 60
    expect(o.current(80_000)).toEqual({ immediate: 1, near: 0, far: 0 });
    o.addSlice(slice("b", 100_000, "near"));
    expect(o.current(110_000)).toEqual({ immediate: 1, near: 1, far: 0 });
  });

  it("sums device-time per sensor and zone over the devices asked for, in the given sensor order", () => {
    const signals = [
      sig(T0, A, 0.5),
      // A is stale (older than sensorStaleMs) by the slice at 40 s, so B is nearest from then.
      sig(T0 + 40_000, B, 2),
      sig(T0 + 50_000, B, 2),
      sig(T0, B, 9, OTHER),
      sig(T0 + 60_000, B, 9, OTHER),
    ].sort((x, y) => x.time - y.time);
    const { summaries, occupancy } = track(signals, new ZoneOccupancy({ sensors: [B, A] }));
    expect(occupancy.devices).toBe(2);
    // Phone: immediate at A 0–40 s, near at B 40–50 s. Other: far at B 0–60 s.
    expect(occupancy.zoneTime((d) => d === PHONE)).toEqual([
      { sensor: B, zone: "near", ms: 10_000 },
      { sensor: A, zone: "immediate", ms: 40_000 },
    ]);
    expect(occupancy.zoneTime()).toEqual([
      { sensor: B, zone: "near", ms: 10_000 },
      { sensor: B, zone: "far", ms: 60_000 },
      { sensor: A, zone: "immediate", ms: 40_000 },
    ]);
    // The same sums from the summaries alone; unlisted sensors come in MAC order.
    expect(zoneTimeBySensor([...summaries, undefined], { sensors: [B, A] })).toEqual(occupancy.zoneTime());
    expect(zoneTimeBySensor(summaries).map((r) => r.sensor)).toEqual([A, B, B]);
  });

  it("holds one shop: an event of another shop is a RangeError", () => {
    const o = new ZoneOccupancy();
    o.addSlice(slice("a", 0, "near", 101));
    expect(() => o.addSlice(slice("a", 10_000, "near", 102))).toThrow(RangeError);
  });
});

describe("zoneTimeBySensor on analyze()", () => {
  it("sums the sessions' per-sensor zone time, which adds up to their zone time", async () => {
    const signals = [sig(T0, A, 0.5), sig(T0 + 40_000, B, 2), sig(T0 + 50_000, B, 2), sig(T0, B, 9, OTHER), sig(T0 + 60_000, B, 9, OTHER)].sort((x, y) => x.time - y.time);
    const result = await analyze(signals, { proximity: exact, quality: false, hourly: false });
    const rows = zoneTimeBySensor(result.sessions.map((s) => s.proximity));
    expect(rows).toEqual([
      { sensor: A, zone: "immediate", ms: 40_000 },
      { sensor: B, zone: "near", ms: 10_000 },
      { sensor: B, zone: "far", ms: 60_000 },
    ]);
  });
});
