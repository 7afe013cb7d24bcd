import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Signal } from "../../src/codec/Signal.ts";
import { millisRts, secondsRts } from "../../src/codec/rts.ts";
import {
  createDataQuality,
  dataQuality,
  dataQualityReport,
  resetDataQuality,
  updateDataQuality,
  type SensorQuality,
} from "../../src/kernels/dataQuality.ts";

const A = "b8:27:eb:00:00:0a";
const B = "b8:27:eb:00:00:0b";
const UNIVERSAL = "f0:18:98:12:34:56";
const RANDOM = "da:a1:19:00:00:01"; // 0xda: bit 0x02 set, unicast
const T0 = 1_763_600_000_000;
const MIN = 60_000;

function sig(time: number, sensor = A, device = UNIVERSAL, extra: Partial<Signal> = {}): Signal {
  const randomized = (parseInt(device.slice(0, 2), 16) & 3) === 2;
  return { shopId: 101, rts: millisRts.encode(time), time, device, rssi: -60, sensor, local: randomized, randomized, vendor: undefined, ...extra };
}

function sensor(report: { sensors: readonly SensorQuality[] }, mac: string): SensorQuality {
  const s = report.sensors.find((x) => x.sensor === mac);
  if (s === undefined) throw new Error(`no sensor ${mac}`);
  return s;
}

describe("dataQuality", () => {
  it("finds interior gaps longer than the threshold, per sensor", () => {
    const r = dataQuality([sig(T0), sig(T0 + 10 * MIN), sig(T0 + 50 * MIN), sig(T0 + 55 * MIN), sig(T0 + 30 * MIN, B)], {
      gapThresholdMs: 30 * MIN,
    });
    const a = sensor(r, A);
    expect(a.gaps).toEqual([{ from: T0 + 10 * MIN, to: T0 + 50 * MIN, durationMs: 40 * MIN, edge: "none" }]);
    expect([a.gapCount, a.gapMs, a.signals]).toEqual([1, 40 * MIN, 4]);
    // B heard once in the middle: silent for 30 min at the start (not > threshold) and 25 min at the end.
    expect(sensor(r, B).gapCount).toBe(0);
  });

  it("reports edge gaps against the observed range (a sensor that went down)", () => {
    const state = createDataQuality({ gapThresholdMs: 10 * MIN });
    for (const s of [sig(T0, A), sig(T0 + 5 * MIN, A), sig(T0, B), sig(T0 + 60 * MIN, B)]) updateDataQuality(state, s);
    const r = dataQualityReport(state, {}, { from: T0 - 20 * MIN, to: T0 + 60 * MIN });
    expect(sensor(r, A).gaps.map((g) => [g.edge, g.durationMs])).toEqual([
      ["start", 20 * MIN],
      ["end", 55 * MIN],
    ]);
    expect(sensor(r, B).gaps.map((g) => [g.edge, g.durationMs])).toEqual([
      ["start", 20 * MIN],
      ["none", 60 * MIN],
    ]);
    expect([r.from, r.to]).toEqual([T0 - 20 * MIN, T0 + 60 * MIN]);
  });

  it("computes randomized shares by device and by signal", () => {
    const r = dataQuality([sig(T0), sig(T0 + 1, A, RANDOM), sig(T0 + 2, A, RANDOM), sig(T0 + 3, B, RANDOM)]);
    expect([r.devices, r.randomizedDevices, r.randomizedDeviceShare]).toEqual([2, 1, 0.5]);
    expect([r.signals, r.randomizedSignals, r.randomizedSignalShare]).toEqual([4, 3, 0.75]);
    expect(sensor(r, A).randomizedShare).toBeCloseTo(2 / 3, 12);
  });

  it("counts local-flag and ts/RTS disagreements", () => {
    const r = dataQuality([
      sig(T0, A, UNIVERSAL, { local: true }),
      sig(T0 + 1, A, RANDOM, { local: false }),
      sig(T0 + 2, B, "02:00:00:00:00:01", { local: true }), // agrees
      sig(T0 + 3, B, UNIVERSAL, { rts: millisRts.encode(T0 + 5_000) }),
      sig(T0 + 4, B, UNIVERSAL, { rts: millisRts.encode(T0 + 4 + 999) }), // within 1 s
    ]);
    expect([r.localFlagMismatch, sensor(r, A).localFlagMismatch, sensor(r, B).localFlagMismatch]).toEqual([2, 2, 0]);
    expect([r.tsRtsMismatch, sensor(r, B).tsRtsMismatch]).toEqual([1, 1]);
    const seconds = dataQuality([sig(T0, A, UNIVERSAL, { rts: secondsRts.encode(T0) })], { rtsCodec: secondsRts });
    expect(seconds.tsRtsMismatch).toBe(0);
    const off = dataQuality([sig(T0, A, UNIVERSAL, { rts: millisRts.encode(0) })], { tsToleranceMs: Infinity });
    expect(off.tsRtsMismatch).toBe(0);
  });

  it("merges external counters (decoder stats, late count)", () => {
    const decoderStats = { decoded: 5, invalid: 2, invalidByReason: { "bad-mac": 2, "bad-ts": 0 }, localFlagMismatch: 1, tsRtsMismatch: 0, randomized: 0 };
    const r = dataQuality([sig(T0)], {}, { ...decoderStats, late: 3 });
    expect([r.invalid, r.invalidByReason["bad-mac"], r.late, r.counts.decoded]).toEqual([2, 2, 3, 5]);
  });

  it("is empty-safe and resettable", () => {
    const state = createDataQuality();
    updateDataQuality(state, sig(T0));
    resetDataQuality(state);
    const r = dataQualityReport(state);
    expect([r.signals, r.devices, r.sensors.length, r.invalid, r.late]).toEqual([0, 0, 0, 0, 0]);
    expect(r.from).toBeNaN();
    expect(r.randomizedDeviceShare).toBeNaN();
  });

  it("validates options", () => {
    expect(() => createDataQuality({ gapThresholdMs: 0 })).toThrow(RangeError);
    expect(() => createDataQuality({ maxGapsPerSensor: -1 })).toThrow(RangeError);
    expect(() => createDataQuality({ tsToleranceMs: -1 })).toThrow(RangeError);
    expect(() => createDataQuality({ rtsCodec: {} as never })).toThrow(TypeError);
  });

  it("lists at most maxGapsPerSensor gaps (the latest) but counts all", () => {
    const signals = [0, 1, 2, 3, 4].map((i) => sig(T0 + i * 60 * MIN));
    const s = sensor(dataQuality(signals, { maxGapsPerSensor: 2 }), A);
    expect([s.gapCount, s.gaps.length, s.gaps[1]?.to, s.gapMs]).toEqual([4, 2, T0 + 240 * MIN, 240 * MIN]);
  });

  it("property: gaps equal those of the sorted times, whatever the arrival order", () => {
    const threshold = 10 * MIN;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 600 }), { minLength: 1, maxLength: 40 }), fc.integer(), (minutes, seed) => {
        const times = minutes.map((m) => T0 + m * MIN);
        const shuffled = fc.sample(fc.shuffledSubarray(times, { minLength: times.length, maxLength: times.length }), { numRuns: 1, seed })[0] as number[];
        const sorted = [...times].sort((a, b) => a - b);
        const want: Array<[number, number]> = [];
        for (let i = 1; i < sorted.length; i++) {
          const a = sorted[i - 1] as number;
          const b = sorted[i] as number;
          if (b - a > threshold) want.push([a, b]);
        }
        const got = sensor(dataQuality(shuffled.map((t) => sig(t)), { gapThresholdMs: threshold, maxGapsPerSensor: 1000 }), A);
        expect(got.gaps.map((g) => [g.from, g.to])).toEqual(want);
      }),
    );
  });
});
