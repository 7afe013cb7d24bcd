import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Signal } from "../../../src/codec/Signal.ts";
import { analyze } from "../../../src/analysis/analyze.ts";
import { EventTimeEngine, type EventTimeEngineOptions } from "../../../src/kernels/sessions/EventTimeEngine.ts";
import { distanceToRssi } from "../../../src/kernels/proximity/pathLoss.ts";
import type { Session } from "../../../src/kernels/sessions/Session.ts";
import type { ProximitySlice } from "../../../src/kernels/proximity/SessionProximity.ts";
import { ZoneOccupancy, defaultZoneOccupancy, zoneTimeBySensor } from "../../../src/kernels/visits/ZoneOccupancy.ts";

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

/** The engine over the signals: sessions (with proximity), and every slice fed to `occupancy`. */
function track(signals: readonly Signal[], occupancy = new ZoneOccupancy(), options: EventTimeEngineOptions = exact) {
  const slices: ProximitySlice[] = [];
  const sessions: Session[] = [];
  const engine = new EventTimeEngine(options, {
    emit: (s) => sessions.push(s),
    slice: (s) => {
      slices.push(s);
      occupancy.addSlice(s);
    },
  });
  for (const s of signals) engine.push(s);
  engine.flush();
  return { slices, sessions, occupancy };
}

const slice = (device: string, start: number, zone: ProximitySlice["zone"], shopId = 101): ProximitySlice =>
  ({ type: "proximitySlice", shopId, device, start, end: start + 10_000, sensor: A, zone }) as ProximitySlice;

describe("ZoneOccupancy", () => {
  it("validates options eagerly", () => {
    expect(() => new ZoneOccupancy({ currentMs: -1 })).toThrow(RangeError);
    expect(() => new ZoneOccupancy({ currentMs: Number.NaN })).toThrow(RangeError);
    expect(() => new ZoneOccupancy({ currentMs: "60s" as unknown as number })).toThrow(TypeError);
    expect(() => zoneTimeBySensor([], { sensors: [1] as unknown as string[] })).toThrow(TypeError);
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

  it("counts the engine's slices live: zones now from the latest slice per device", () => {
    // PHONE: immediate at A (0–10 s slice), then near at B (40–50 s). OTHER: far at B until 60 s.
    const signals = [sig(T0, A, 0.5), sig(T0 + 40_000, B, 2), sig(T0, B, 9, OTHER), sig(T0 + 60_000, B, 9, OTHER)].sort((x, y) => x.time - y.time);
    const { occupancy } = track(signals, new ZoneOccupancy({ currentMs: 20_000 }));
    // At 60 s: PHONE's latest slice (40–50 s) is near; OTHER's (60–70 s) far.
    expect(occupancy.current(T0 + 60_000)).toEqual({ immediate: 0, near: 1, far: 1 });
    // At 80 s PHONE's slice ended 30 s ago: gone.
    expect(occupancy.current(T0 + 80_000)).toEqual({ immediate: 0, near: 0, far: 1 });
  });

  it("holds one shop: an event of another shop is a RangeError", () => {
    const o = new ZoneOccupancy();
    o.addSlice(slice("a", 0, "near", 101));
    expect(() => o.addSlice(slice("a", 10_000, "near", 102))).toThrow(RangeError);
  });
});

describe("zoneTimeBySensor", () => {
  const signals = [sig(T0, A, 0.5), sig(T0 + 40_000, B, 2), sig(T0 + 50_000, B, 2), sig(T0, B, 9, OTHER), sig(T0 + 60_000, B, 9, OTHER)].sort((x, y) => x.time - y.time);

  it("sums the sessions' own per-sensor zone time, sensors in the given order (then MAC order), empty rows left out", () => {
    const { sessions } = track(signals);
    // PHONE: immediate at A 0–40 s (A is stale by the 40 s slice), near at B 40–50 s. OTHER: far at B 0–60 s.
    const phone = sessions.filter((s) => s.device === PHONE);
    expect(zoneTimeBySensor(phone, { sensors: [B, A] })).toEqual([
      { sensor: B, zone: "near", ms: 10_000 },
      { sensor: A, zone: "immediate", ms: 40_000 },
    ]);
    expect(zoneTimeBySensor(sessions, { sensors: [B.toUpperCase(), A] })).toEqual([
      { sensor: B, zone: "near", ms: 10_000 },
      { sensor: B, zone: "far", ms: 60_000 },
      { sensor: A, zone: "immediate", ms: 40_000 },
    ]);
    expect(zoneTimeBySensor(sessions).map((r) => r.sensor)).toEqual([A, B, B]);
    // Sessions without proximity are skipped.
    expect(zoneTimeBySensor([...sessions, { proximity: undefined }])).toEqual(zoneTimeBySensor(sessions));
    expect(zoneTimeBySensor([])).toEqual([]);
    expect(() => zoneTimeBySensor(sessions, { sensors: [1] as never })).toThrow(TypeError);
  });

  it("adds up over sessions to their dwell (property)", () => {
    const reading = fc.record({ dt: fc.integer({ min: 0, max: 40_000 }), sensor: fc.constantFrom(A, B), metres: fc.double({ min: 0.3, max: 15, noNaN: true }), device: fc.constantFrom(PHONE, OTHER) });
    fc.assert(
      fc.property(fc.array(reading, { minLength: 1, maxLength: 40 }), (readings) => {
        let t = T0;
        const { sessions } = track(readings.map((r) => sig((t += r.dt), r.sensor, r.metres, r.device)), new ZoneOccupancy(), { gapMs: 60_000 });
        const rows = zoneTimeBySensor(sessions);
        expect(rows.reduce((n, r) => n + r.ms, 0)).toBe(sessions.reduce((n, s) => n + s.dwellMs, 0));
        expect(rows.every((r) => r.ms > 0)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("works on analyze() sessions, e.g. the visitors' only", async () => {
    const result = await analyze(signals, { proximity: {}, sessions: exact, quality: false, hourly: false });
    expect(zoneTimeBySensor(result.sessions)).toEqual([
      { sensor: A, zone: "immediate", ms: 40_000 },
      { sensor: B, zone: "near", ms: 10_000 },
      { sensor: B, zone: "far", ms: 60_000 },
    ]);
    const kinds = new Set(result.sessions.map((s) => s.kind));
    for (const kind of kinds) {
      const own = result.sessions.filter((s) => s.kind === kind);
      expect(zoneTimeBySensor(own).reduce((n, r) => n + r.ms, 0)).toBe(own.reduce((n, s) => n + s.dwellMs, 0));
    }
  });
});
