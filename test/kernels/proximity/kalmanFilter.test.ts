import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  createKalmanState,
  defaultKalmanFilter,
  kalmanFilter,
  kalmanFilterOptions,
} from "../../../src/kernels/proximity/kalmanFilter.ts";

describe("kalmanFilter", () => {
  it("starts at the first reading with the measurement variance", () => {
    const s = createKalmanState();
    expect(kalmanFilter(s, -63, 1000)).toBe(-63);
    expect(s).toEqual({ x: -63, p: defaultKalmanFilter.measurementNoise, t: 1000 });
  });

  it("follows the scalar Kalman equations with time-grown prior variance", () => {
    const o = kalmanFilterOptions({ processNoisePerS: 2, measurementNoise: 16 });
    const s = createKalmanState();
    kalmanFilter(s, -60, 0, o);
    const prior = 16 + 2 * 3; // 3 s elapsed
    const gain = prior / (prior + 16);
    const out = kalmanFilter(s, -70, 3000, o);
    expect(out).toBeCloseTo(-60 + gain * -10, 12);
    expect(s.p).toBeCloseTo((1 - gain) * prior, 12);
    expect(s.t).toBe(3000);
  });

  it("trusts a reading after a long silence more than one right after the last", () => {
    const o = kalmanFilterOptions();
    const quick = createKalmanState();
    const slow = createKalmanState();
    kalmanFilter(quick, -60, 0, o);
    kalmanFilter(slow, -60, 0, o);
    const a = kalmanFilter(quick, -80, 500, o);
    const b = kalmanFilter(slow, -80, 120_000, o);
    expect(b).toBeLessThan(a);
    expect(b).toBeLessThan(-78);
  });

  it("treats an out-of-order reading as simultaneous and keeps the newest time", () => {
    const s = createKalmanState();
    kalmanFilter(s, -60, 10_000);
    const p = s.p;
    kalmanFilter(s, -62, 5_000);
    expect(s.t).toBe(10_000);
    expect(s.p).toBeLessThan(p); // no growth, only the measurement update
  });

  it("converges to a constant input and its variance shrinks", () => {
    const s = createKalmanState();
    for (let i = 0; i < 50; i++) kalmanFilter(s, -55, i * 100);
    expect(s.x).toBe(-55);
    expect(s.p).toBeLessThan(defaultKalmanFilter.measurementNoise);
  });

  it("validates options eagerly", () => {
    expect(() => kalmanFilterOptions({ processNoisePerS: -1 })).toThrow(RangeError);
    expect(() => kalmanFilterOptions({ measurementNoise: 0 })).toThrow(RangeError);
    expect(() => kalmanFilterOptions({ measurementNoise: Number.NaN })).toThrow(RangeError);
    expect(kalmanFilterOptions({})).toEqual(defaultKalmanFilter);
  });

  it("property: output stays within the range of the inputs so far", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -127, max: 0 }), fc.integer({ min: -5_000, max: 60_000 })), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0.01, max: 100, noNaN: true }),
        (readings, q, r) => {
          const o = kalmanFilterOptions({ processNoisePerS: q, measurementNoise: r });
          const s = createKalmanState();
          let lo = Infinity;
          let hi = -Infinity;
          let t = 0;
          for (const [rssi, dt] of readings) {
            t += dt;
            lo = Math.min(lo, rssi);
            hi = Math.max(hi, rssi);
            const out = kalmanFilter(s, rssi, t, o);
            if (out < lo - 1e-9 || out > hi + 1e-9) return false;
            if (!(s.p > 0)) return false;
          }
          return true;
        },
      ),
    );
  });
});
